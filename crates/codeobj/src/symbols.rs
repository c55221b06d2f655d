//! ELF symbol tables and dynamic relocation sections, read through the `object` crate.

use crate::elf::{Header, Segment};
use crate::error::{Error, Result};
use crate::reloc::{RelocKind, RelocSymbol, Relocation};
use object::elf;
use object::read::elf::{FileHeader, Rela, SectionHeader, SectionTable, Sym, SymbolTable};
use object::LittleEndian as LE;
use object::SectionIndex;

/// `STT_AMDGPU_HSA_KERNEL`: v2 kernel symbols (their value is the `amd_kernel_code_t`).
pub const STT_AMDGPU_HSA_KERNEL: u8 = 10;

/// Symbol binding, as the executable's symbol iteration reports linkage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    Local,
    Global,
    Weak,
}

/// One symbol-table entry, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawSymbol {
    pub index: u32,
    pub name: String,
    pub value: u64,
    pub size: u64,
    pub stype: u8,
    pub binding: Binding,
    pub defined: bool,
}

pub fn sections<'a>(hdr: &Header, data: &'a [u8]) -> Result<SectionTable<'a, Header>> {
    hdr.sections(LE, data)
        .map_err(|e| Error::Malformed(format!("section headers: {e}")))
}

/// The entries of the first symbol table of type `sh_type` (SHT_SYMTAB or SHT_DYNSYM), or empty.
pub fn read_symbols(
    sections: &SectionTable<'_, Header>,
    data: &[u8],
    sh_type: u32,
) -> Result<Vec<RawSymbol>> {
    let table = sections
        .symbols(LE, data, sh_type)
        .map_err(|e| Error::Malformed(format!("symbol table: {e}")))?;
    decode(table)
}

/// The entries of the symbol table in section `index` (an error if it is not one).
fn read_symbols_at(
    sections: &SectionTable<'_, Header>,
    data: &[u8],
    index: SectionIndex,
) -> Result<Vec<RawSymbol>> {
    let table = sections
        .symbol_table_by_index(LE, data, index)
        .map_err(|e| Error::Malformed(format!("symbol table {}: {e}", index.0)))?;
    decode(table)
}

fn decode(table: SymbolTable<'_, Header>) -> Result<Vec<RawSymbol>> {
    let strings = table.strings();
    let mut out = Vec::with_capacity(table.len());
    for (i, s) in table.iter().enumerate() {
        let name = s
            .name(LE, strings)
            .map_err(|e| Error::Malformed(format!("symbol {i} name: {e}")))?;
        let binding = match s.st_bind() {
            elf::STB_LOCAL => Binding::Local,
            elf::STB_WEAK => Binding::Weak,
            _ => Binding::Global,
        };
        out.push(RawSymbol {
            index: i as u32,
            name: String::from_utf8_lossy(name).into_owned(),
            value: s.st_value(LE),
            size: s.st_size(LE),
            stype: s.st_type(),
            binding,
            defined: s.st_shndx(LE) != elf::SHN_UNDEF,
        });
    }
    Ok(out)
}

/// Every relocation of the SHT_RELA sections (a linked code object has only `.rela.dyn`),
/// checked: known type, target word inside a segment, valid symbol index.
pub fn read_relocations(
    sections: &SectionTable<'_, Header>,
    data: &[u8],
    segs: &[Segment],
) -> Result<Vec<Relocation>> {
    let mut out = Vec::new();
    for (si, sec) in sections.iter().enumerate() {
        if sec.sh_type(LE) == elf::SHT_REL {
            return Err(Error::Malformed(format!(
                "section {si}: SHT_REL relocations are not used by AMDGPU"
            )));
        }
        if sec.sh_type(LE) != elf::SHT_RELA {
            continue;
        }
        let (relas, link) = sec
            .rela(LE, data)
            .map_err(|e| Error::Malformed(format!("section {si} relocations: {e}")))?
            .ok_or_else(|| Error::Malformed(format!("section {si}: not a relocation section")))?;
        let syms = if link.0 == 0 {
            Vec::new()
        } else {
            read_symbols_at(sections, data, link)?
        };
        for r in relas {
            let offset = r.r_offset(LE);
            let (rtype, sym) = (r.r_type(LE, false), r.r_sym(LE, false));
            let Some(kind) = RelocKind::from_type(rtype, offset)? else {
                continue;
            };
            if !segs.iter().any(|s| s.contains(offset, kind.width())) {
                return Err(Error::BadRelocation {
                    offset,
                    reason: "target is outside every loaded segment".into(),
                });
            }
            let symbol = if sym == 0 {
                RelocSymbol::None
            } else {
                let s = syms.get(sym as usize).ok_or_else(|| Error::BadRelocation {
                    offset,
                    reason: format!("symbol index {sym} out of range"),
                })?;
                if s.defined {
                    RelocSymbol::Defined {
                        index: sym,
                        name: s.name.clone(),
                        vaddr: s.value,
                    }
                } else {
                    RelocSymbol::Undefined {
                        index: sym,
                        name: s.name.clone(),
                    }
                }
            };
            out.push(Relocation {
                offset,
                kind,
                symbol,
                addend: r.r_addend(LE),
            });
        }
    }
    Ok(out)
}
