//! Decoder: bytes → [`Inst`]. Which op an opcode names, and which bits an op's encoding may
//! vary (its "free" bits), both come from the table; bits outside the free mask must equal the
//! op's canonical form, as LLVM's decoder requires.

use crate::inst::{Encoding, Ext, Inst, VopMods};
use crate::op::{Class, Op, ALL};
use crate::Operand;
use std::sync::OnceLock;

/// Why bytes do not decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Fewer bytes than the instruction needs.
    #[error("truncated instruction: {have} bytes, need {need}")]
    Truncated { have: usize, need: usize },
    /// No GFX9 instruction has this opcode in this encoding.
    #[error("unknown opcode {opcode:#x} in {format} encoding")]
    UnknownOpcode { format: &'static str, opcode: u16 },
    /// Not a GFX9 encoding family.
    #[error("unsupported encoding (word {word:#010x})")]
    UnsupportedEncoding { word: u32 },
    /// Known opcode, but fields hold values LLVM rejects (reserved bits, bad operands).
    #[error("invalid fields for {op}")]
    InvalidFields { op: &'static str },
}

/// Index of a form inside a table row's `forms`.
#[derive(Clone, Copy)]
pub(crate) enum Form {
    Native = 0,
    E64 = 1,
    Sdwa = 2,
    Dpp = 3,
}

/// Opcode maps per processor: `(map key, opcode) → op`; key = one per native encoding (the VOP3
/// space is shared by VOP3-only ops and the `_e64` forms).
struct Maps {
    ops: [Vec<u16>; 3],
}

const MAP_SIZE: usize = 1024;
const NO_OP: u16 = u16::MAX;

fn class_key(c: Class) -> usize {
    c as usize
}
/// The VOP3 opcode space (shared by VOP3-only ops and the `_e64` forms).
const VOP3_KEY: usize = Class::Vop3 as usize;

fn maps() -> &'static Maps {
    static MAPS: OnceLock<Maps> = OnceLock::new();
    MAPS.get_or_init(|| Maps {
        ops: [
            build_map(Gfx::Gfx900),
            build_map(Gfx::Gfx906),
            build_map(Gfx::Gfx908),
        ],
    })
}

fn build_map(gfx: Gfx) -> Vec<u16> {
    {
        let mut ops = vec![NO_OP; (Class::Exp as usize + 1) * MAP_SIZE];
        for &op in ALL {
            let here = match gfx {
                Gfx::Gfx900 => op.on_gfx900(),
                // gfx908 keeps every gfx906 encoding (its matrix-core rows are not in the table yet).
                Gfx::Gfx906 | Gfx::Gfx908 => op.on_gfx906(),
            };
            if !here {
                continue;
            }
            ops[class_key(op.class()) * MAP_SIZE + op.opcode() as usize] = op as u16;
            if op.class() != Class::Vop3 {
                if let Some(o) = op.vop3_opcode() {
                    ops[VOP3_KEY * MAP_SIZE + o as usize] = op as u16;
                }
            }
        }
        ops
    }
}

fn lookup(gfx: Gfx, key: Class, opcode: u32) -> Result<Op, DecodeError> {
    let i = class_key(key) * MAP_SIZE + opcode as usize;
    match maps().ops[gfx as usize].get(i) {
        Some(&o) if o != NO_OP => Ok(ALL[o as usize]),
        _ => Err(DecodeError::UnknownOpcode {
            format: class_name(key),
            opcode: opcode as u16,
        }),
    }
}

fn class_name(c: Class) -> &'static str {
    match c {
        Class::Sop2 => "SOP2",
        Class::Sopk => "SOPK",
        Class::Sop1 => "SOP1",
        Class::Sopc => "SOPC",
        Class::Sopp => "SOPP",
        Class::Smem => "SMEM",
        Class::Vop1 => "VOP1",
        Class::Vop2 => "VOP2",
        Class::Vopc => "VOPC",
        Class::Vop3 => "VOP3",
        Class::Vop3p => "VOP3P",
        Class::Ds => "DS",
        Class::Mubuf => "MUBUF",
        Class::Mtbuf => "MTBUF",
        Class::Flat => "FLAT",
        Class::Global => "GLOBAL",
        Class::Scratch => "SCRATCH",
        Class::Mimg => "MIMG",
        Class::Vintrp => "VINTRP",
        Class::Exp => "EXP",
    }
}

fn word(b: &[u8], i: usize) -> Result<u32, DecodeError> {
    match b.get(4 * i..4 * i + 4) {
        Some(s) => Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]])),
        None => Err(DecodeError::Truncated {
            have: b.len(),
            need: 4 * i + 4,
        }),
    }
}

/// Bits `[lo, lo+n)` of `x`.
#[inline]
pub(crate) fn bits(x: u64, lo: u32, n: u32) -> u32 {
    ((x >> lo) & ((1u64 << n) - 1)) as u32
}

/// Bits of `class`'s operand fields that `op` uses. The table's free masks come from toggling
/// single bits of one canonical encoding, which can wrongly pin a register field (a toggle that
/// overflows the register file is invalid); used register fields are checked by
/// `operand_check` instead. Unused fields stay pinned (LLVM requires them to be zero).
fn operand_bits(op: Op, class: Class, form: Form) -> u64 {
    let f = |lo: u32, n: u32| ((1u64 << n) - 1) << lo;
    let has_dst = op.dst_dwords() != 0;
    let src = |s: usize| op.src_dwords(s) != 0;
    let pick = |c: bool, m: u64| if c { m } else { 0 };
    match (class, form) {
        (Class::Vop1 | Class::Vop2 | Class::Vopc, Form::Sdwa | Form::Dpp) => {
            pick(has_dst, f(17, 8)) | pick(src(1), f(9, 8)) | pick(src(0), f(32, 8))
        }
        (Class::Sop2, _) => pick(has_dst, f(16, 7)) | pick(src(0), f(0, 8)) | pick(src(1), f(8, 8)),
        (Class::Sop1, _) => pick(has_dst, f(16, 7)) | pick(src(0), f(0, 8)),
        (Class::Sopc, _) => pick(src(0), f(0, 8)) | pick(src(1), f(8, 8)),
        (Class::Sopk, _) => pick(has_dst || src(0), f(16, 7)),
        (Class::Smem, _) => f(0, 13),
        (Class::Vop1, Form::Native) => pick(has_dst, f(17, 8)) | pick(src(0), f(0, 9)),
        (Class::Vop2, Form::Native) => {
            pick(has_dst, f(17, 8)) | pick(src(0), f(0, 9)) | pick(src(1), f(9, 8))
        }
        (Class::Vopc, Form::Native) => pick(src(0), f(0, 9)) | pick(src(1), f(9, 8)),
        (_, Form::E64) | (Class::Vop3 | Class::Vop3p, _) => {
            pick(has_dst, f(0, 8))
                | pick(src(0), f(32, 9))
                | pick(src(1), f(41, 9))
                | pick(src(2), f(50, 9))
        }
        (Class::Ds, _) => {
            pick(has_dst, f(56, 8))
                | pick(src(0), f(32, 8))
                | pick(src(1), f(40, 8))
                | pick(src(2), f(48, 8))
        }
        // Cache maintenance (buffer_wbinvl1*): LLVM ignores the whole second dword.
        (Class::Mubuf, _) if matches!(op, Op::BUFFER_WBINVL1 | Op::BUFFER_WBINVL1_VOL) => f(32, 32),
        (Class::Mubuf | Class::Mtbuf, _) => {
            pick(src(0), f(32, 8)) | pick(has_dst || src(1), f(40, 8)) | f(48, 5) | f(56, 8)
        }
        (Class::Flat | Class::Global | Class::Scratch, _) => {
            pick(has_dst, f(56, 8)) | pick(src(0), f(32, 8)) | pick(src(1), f(40, 8))
        }
        _ => 0,
    }
}

/// Check `x` against the op's canonical form: every non-free bit must match.
fn check_form(op: Op, form: Form, x: u64) -> Result<(), DecodeError> {
    let (base, free) = op.form(form);
    let class = match (op.class(), form) {
        (Class::Vop1 | Class::Vop2 | Class::Vopc, Form::E64) => Class::Vop3,
        (c, _) => c,
    };
    let outer = if class == Class::Vop3 {
        op.class()
    } else {
        class
    };
    let mut free = free | operand_bits(op, outer, form);
    if let Form::Sdwa = form {
        // SDWA selects: single toggles of the canonical DWORD (6) miss values such as WORD_1
        // (5); a used select field is free as a whole and its value checked when decoding.
        for lo in [40, 48, 56] {
            let field = 7u64 << lo;
            if free & field != 0 {
                free |= field;
            }
        }
    }
    if base != 0 && (x & !free) == (base & !free) {
        Ok(())
    } else {
        Err(DecodeError::InvalidFields { op: op.name() })
    }
}

/// The GFX9 processors this decoder knows: they differ only in gfx906's extra instructions
/// (gfx908, MI100, decodes gfx906's encodings; its MFMA/AGPR rows are not in the table yet).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Gfx {
    Gfx900,
    #[default]
    Gfx906,
    Gfx908,
}

/// Decode one gfx906 instruction from the start of `bytes`.
pub fn decode(bytes: &[u8]) -> Result<Inst, DecodeError> {
    decode_for(bytes, Gfx::Gfx906)
}

/// Decode one instruction of processor `gfx` from the start of `bytes`.
pub fn decode_for(bytes: &[u8], gfx: Gfx) -> Result<Inst, DecodeError> {
    let w0 = word(bytes, 0)?;
    let mut d = Dec {
        bytes,
        w0,
        x: w0 as u64,
        gfx,
    };
    let mut i = d.run()?;
    crate::operand_check::check(&mut i)?;
    Ok(i)
}

/// Decode a whole code range: `(byte offset, instruction or error)` pairs. After an error the
/// decoder skips one dword, as llvm-objdump does.
pub fn decode_all(code: &[u8], gfx: Gfx) -> Vec<(usize, Result<Inst, DecodeError>)> {
    let mut out = Vec::new();
    let mut off = 0;
    while off + 4 <= code.len() {
        let r = decode_for(&code[off..], gfx);
        let len = r.as_ref().map(|i| i.len as usize).unwrap_or(4);
        out.push((off, r));
        off += len;
    }
    out
}

pub(crate) struct Dec<'a> {
    pub bytes: &'a [u8],
    pub w0: u32,
    /// The instruction's first one or two dwords.
    pub x: u64,
    pub gfx: Gfx,
}

impl Dec<'_> {
    fn run(&mut self) -> Result<Inst, DecodeError> {
        let w0 = self.w0;
        if w0 >> 31 == 0 {
            return self.vop32();
        }
        if w0 >> 30 == 0b10 {
            return self.scalar();
        }
        match w0 >> 26 {
            0b110000 => self.wide(Class::Smem, bits(w0 as u64, 18, 8)),
            0b110100 => {
                if bits(w0 as u64, 23, 3) == 0b111 {
                    self.wide(Class::Vop3p, bits(w0 as u64, 16, 7))
                } else {
                    self.wide(Class::Vop3, bits(w0 as u64, 16, 10))
                }
            }
            0b110110 => self.wide(Class::Ds, bits(w0 as u64, 17, 8)),
            0b110111 => {
                let class = match bits(w0 as u64, 14, 2) {
                    0 => Class::Flat,
                    1 => Class::Scratch,
                    2 => Class::Global,
                    _ => return Err(DecodeError::UnsupportedEncoding { word: w0 }),
                };
                self.wide(class, bits(w0 as u64, 18, 7))
            }
            0b111000 => self.wide(Class::Mubuf, bits(w0 as u64, 18, 7)),
            0b111010 => self.wide(Class::Mtbuf, bits(w0 as u64, 15, 4)),
            0b111100 => self.wide(Class::Mimg, bits(w0 as u64, 18, 7)),
            0b110101 => {
                let op = lookup(self.gfx, Class::Vintrp, bits(w0 as u64, 16, 2))?;
                check_form(op, Form::Native, w0 as u64)?;
                crate::graphics::vintrp(self, op)
            }
            0b110001 => self.wide(Class::Exp, 0),
            _ => Err(DecodeError::UnsupportedEncoding { word: w0 }),
        }
    }

    /// Fetch the dword after the first `n` dwords (a literal or a second dword).
    pub fn dword(&self, n: usize) -> Result<u32, DecodeError> {
        word(self.bytes, n)
    }

    fn scalar(&mut self) -> Result<Inst, DecodeError> {
        let w0 = self.w0 as u64;
        let (class, opc) = match bits(w0, 23, 9) {
            0x17D => (Class::Sop1, bits(w0, 8, 8)),
            0x17E => (Class::Sopc, bits(w0, 16, 7)),
            0x17F => (Class::Sopp, bits(w0, 16, 7)),
            _ if bits(w0, 28, 4) == 0b1011 => (Class::Sopk, bits(w0, 23, 5)),
            _ => (Class::Sop2, bits(w0, 23, 7)),
        };
        let op = lookup(self.gfx, class, opc)?;
        check_form(op, Form::Native, w0)?;
        crate::decode_fields::scalar(self, op, class)
    }

    fn vop32(&mut self) -> Result<Inst, DecodeError> {
        let w0 = self.w0 as u64;
        let (class, opc) = match bits(w0, 25, 6) {
            0x3E => (Class::Vopc, bits(w0, 17, 8)),
            0x3F => (Class::Vop1, bits(w0, 9, 8)),
            o => (Class::Vop2, o),
        };
        let op = lookup(self.gfx, class, opc)?;
        match bits(w0, 0, 9) {
            0xF9 | 0xFA => {
                let sdwa = bits(w0, 0, 9) == 0xF9;
                let form = if sdwa { Form::Sdwa } else { Form::Dpp };
                let ext = self.dword(1).and_then(|w1| {
                    self.x = w0 | (w1 as u64) << 32;
                    check_form(op, form, self.x)
                });
                match ext {
                    Ok(()) => crate::decode_fields::vop_ext(self, op, class, sdwa),
                    // Like LLVM, fall back to the 32-bit form (valid when src0 is unused).
                    Err(e) if op.src_dwords(0) != 0 => Err(e),
                    Err(_) => {
                        self.x = w0;
                        check_form(op, Form::Native, w0)?;
                        crate::decode_fields::vop32(self, op, class)
                    }
                }
            }
            _ => {
                check_form(op, Form::Native, w0)?;
                crate::decode_fields::vop32(self, op, class)
            }
        }
    }

    fn wide(&mut self, class: Class, opc: u32) -> Result<Inst, DecodeError> {
        let op = lookup(self.gfx, class, opc)?;
        let w1 = self.dword(1)?;
        self.x = self.w0 as u64 | (w1 as u64) << 32;
        let form = if class == Class::Vop3 && op.class() != Class::Vop3 {
            Form::E64
        } else {
            Form::Native
        };
        if class == Class::Smem {
            // SMEM's second dword holds an offset or an SGPR depending on imm/soe; LLVM ignores
            // the bits the chosen form does not use, so only the first dword is checked.
            check_form(op, form, self.x & 0xFFFF_FFFF)?;
        } else {
            check_form(op, form, self.x)?;
        }
        crate::decode_fields::wide(self, op, class)
    }
}

/// A fresh instruction with empty operands.
pub(crate) fn blank(op: Op, enc: Encoding, len: u8) -> Inst {
    Inst {
        op,
        enc,
        len,
        dst: Operand::NONE,
        sdst: Operand::NONE,
        src: [Operand::NONE; 4],
        literal: 0,
        imm: 0,
        mods: VopMods::default(),
        ext: Ext::None,
    }
}
