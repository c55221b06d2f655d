//! `llvm-objdump -d`-style listing of an AMDGPU code object (what `softhsa disasm` prints).

use crate::{decode_for, Gfx};
use object::{Object, ObjectSection, ObjectSymbol, SectionKind, SymbolKind};
use std::fmt::Write;

/// Why a code object cannot be listed.
#[derive(Debug, thiserror::Error)]
pub enum ElfError {
    #[error("not a readable ELF file: {0}")]
    Parse(#[from] object::Error),
}

/// One decoded line of a listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Address (the ELF virtual address).
    pub addr: u64,
    /// The instruction's dwords as stored.
    pub words: Vec<u32>,
    /// llvm-objdump's instruction text (`.long 0x...` for undecodable dwords).
    pub text: String,
    /// Branch target, if a branch.
    pub target: Option<u64>,
}

/// A symbol (kernel or function) and its instructions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub section: String,
    pub name: String,
    pub addr: u64,
    /// Code object v2 kernels (`STT_AMDGPU_HSA_KERNEL`) start with their 256-byte
    /// `amd_kernel_code_t`, which is data, not code.
    pub kernel_code: Vec<u8>,
    pub lines: Vec<Line>,
}

/// ELF symbol type of code object v2 kernels.
const STT_AMDGPU_HSA_KERNEL: u8 = 10;
/// Size of `amd_kernel_code_t`.
const KERNEL_CODE_T_SIZE: usize = 256;

/// Decode every executable section of `elf`, split at its function/kernel symbols.
pub fn blocks(elf: &[u8]) -> Result<Vec<Block>, ElfError> {
    let file = object::File::parse(elf)?;
    let gfx = gfx_of(&file);
    let mut out = Vec::new();
    for sec in file.sections().filter(|s| s.kind() == SectionKind::Text) {
        let data = sec.data()?;
        if data.is_empty() {
            continue; // llvm-objdump lists nothing for an empty section
        }
        let base = sec.address();
        let sec_name = sec.name().unwrap_or("").to_string();
        let mut syms: Vec<(u64, String, bool)> = file
            .symbols()
            .filter(|s| s.section_index() == Some(sec.index()) && s.kind() != SymbolKind::Section)
            .filter(|s| {
                matches!(
                    s.kind(),
                    SymbolKind::Text | SymbolKind::Label | SymbolKind::Unknown
                )
            })
            .filter_map(|s| {
                let v2_kernel = matches!(s.flags(), object::SymbolFlags::Elf { st_info, .. }
                    if st_info & 0xF == STT_AMDGPU_HSA_KERNEL);
                Some((s.address(), s.name().ok()?.to_string(), v2_kernel))
            })
            .collect();
        syms.sort();
        syms.dedup_by_key(|s| s.0);
        if syms.first().is_none_or(|s| s.0 != base) {
            syms.insert(0, (base, sec_name.clone(), false));
        }
        for (k, (addr, name, v2_kernel)) in syms.iter().enumerate() {
            let end = syms
                .get(k + 1)
                .map(|s| s.0)
                .unwrap_or(base + data.len() as u64);
            let lo = (addr - base) as usize;
            let hi = ((end - base) as usize).min(data.len());
            let Some(mut code) = data.get(lo..hi) else {
                continue;
            };
            let mut kernel_code = Vec::new();
            let mut start = *addr;
            if *v2_kernel && code.len() >= KERNEL_CODE_T_SIZE {
                kernel_code = code[..KERNEL_CODE_T_SIZE].to_vec();
                code = &code[KERNEL_CODE_T_SIZE..];
                start += KERNEL_CODE_T_SIZE as u64;
            }
            out.push(Block {
                section: sec_name.clone(),
                name: name.clone(),
                addr: *addr,
                kernel_code,
                lines: decode_lines(code, start, gfx),
            });
        }
    }
    Ok(out)
}

/// Decode `code` (at address `start`) into listing lines. Like llvm-objdump (without `-z`), a run
/// of 8 or more zero bytes at an instruction boundary is skipped (in whole dwords) and shown as
/// one `...` line; undecodable dwords show as `.long`.
fn decode_lines(code: &[u8], start: u64, gfx: Gfx) -> Vec<Line> {
    let mut out = Vec::new();
    let mut off = 0;
    while off + 4 <= code.len() {
        let pc = start + off as u64;
        let zeros = code[off..].iter().take_while(|&&b| b == 0).count();
        if zeros >= 8 {
            out.push(Line {
                addr: pc,
                words: Vec::new(),
                text: "...".to_string(),
                target: None,
            });
            off += zeros & !3;
            continue;
        }
        let (len, text, target) = match decode_for(&code[off..], gfx) {
            Ok(i) => (
                i.len as usize,
                i.display(pc).to_string(),
                i.branch_target(pc),
            ),
            Err(_) => (4, format!(".long 0x{:x}", word(code, off)), None),
        };
        let words = (0..len / 4).map(|j| word(code, off + 4 * j)).collect();
        out.push(Line {
            addr: pc,
            words,
            text,
            target,
        });
        off += len;
    }
    out
}

/// The instruction set from the ELF `e_flags` mach field (EF_AMDGPU_MACH: 0x2c gfx900, 0x2f
/// gfx906, 0x30 gfx908, 0x3f gfx90a, 0x40/0x4b/0x4c gfx940/gfx941/gfx942).
pub fn gfx_of(file: &object::File) -> Gfx {
    let mach = match file.flags() {
        object::FileFlags::Elf { e_flags, .. } => e_flags & 0xFF,
        _ => 0,
    };
    match mach {
        0x2C => Gfx::Gfx900,
        0x30 => Gfx::Gfx908,
        0x3F => Gfx::Gfx90a,
        0x40 | 0x4B | 0x4C => Gfx::Gfx940,
        _ => Gfx::Gfx906,
    }
}

fn word(code: &[u8], off: usize) -> u32 {
    let mut b = [0u8; 4];
    for (j, x) in b.iter_mut().enumerate() {
        *x = code.get(off + j).copied().unwrap_or(0);
    }
    u32::from_le_bytes(b)
}

/// The whole listing in llvm-objdump's layout.
pub fn listing(elf: &[u8], file_name: &str) -> Result<String, ElfError> {
    let blocks = blocks(elf)?;
    let mut s = String::new();
    let _ = write!(s, "\n{file_name}:\tfile format elf64-amdgpu\n");
    let mut section = "";
    for b in &blocks {
        if b.section != section {
            let _ = write!(s, "\nDisassembly of section {}:\n", b.section);
            section = &b.section;
        }
        let _ = write!(s, "\n{:016x} <{}>:\n", b.addr, b.name);
        if !b.kernel_code.is_empty() {
            // llvm-objdump cannot decode amd_kernel_code_t as a descriptor and dumps it.
            let _ = writeln!(
                s,
                "// Error in decoding {} : Decoding failed region as bytes.",
                b.name
            );
            for byte in &b.kernel_code {
                let _ = writeln!(s, "\t.byte\t 0x{byte:X}");
            }
        }
        for l in &b.lines {
            if l.words.is_empty() {
                s.push_str("\t\t...\n");
                continue;
            }
            let hex: Vec<String> = l.words.iter().map(|w| format!("{w:08X}")).collect();
            // llvm-objdump pads the text to 59 columns and appends the comment without a space.
            let _ = write!(s, "\t{:<59}// {:012X}: {}", l.text, l.addr, hex.join(" "));
            if let Some(t) = l.target {
                let _ = write!(s, " <{}>", symbolize(&blocks, t));
            }
            s.push('\n');
        }
    }
    Ok(s)
}

fn symbolize(blocks: &[Block], addr: u64) -> String {
    match blocks.iter().rev().find(|b| b.addr <= addr) {
        Some(b) if b.addr == addr => b.name.clone(),
        Some(b) => format!("{}+0x{:x}", b.name, addr - b.addr),
        None => format!("0x{addr:x}"),
    }
}
