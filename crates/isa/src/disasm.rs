//! Disassembler: [`Inst`] → the text llvm-objdump-15 prints. Shared operand printing lives
//! here; per-format printers are in `disasm_scalar`, `disasm_vector` and `disasm_memory`.

use crate::op::Class;
use crate::{Encoding, Inst, Op, Operand};
use std::fmt::{self, Write};

/// Display adapter returned by [`Inst::display`].
pub struct Display<'a> {
    inst: &'a Inst,
    pc: u64,
}

impl Inst {
    /// The instruction as llvm-objdump-15 `--mcpu=gfx906` prints it, without the address/hex
    /// comment. `pc` is the instruction's address (llvm-objdump shows branch targets only in
    /// that comment; see [`Inst::branch_target`]).
    pub fn display(&self, pc: u64) -> Display<'_> {
        Display { inst: self, pc }
    }
}

impl fmt::Display for Display<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let _ = self.pc;
        let i = self.inst;
        match i.enc {
            Encoding::Sop2 | Encoding::Sop1 | Encoding::Sopc | Encoding::Sopk | Encoding::Sopp => {
                crate::disasm_scalar::print(f, i)
            }
            Encoding::Smem
            | Encoding::Ds
            | Encoding::Mubuf
            | Encoding::Mtbuf
            | Encoding::Flat
            | Encoding::Global
            | Encoding::Scratch
            | Encoding::Mimg => crate::disasm_memory::print(f, i),
            Encoding::Vintrp | Encoding::Exp => crate::graphics::print(f, i),
            _ => crate::disasm_vector::print(f, i),
        }
    }
}

/// How a source's constants print (LLVM prints inline constants and literals by operand type).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Ty {
    /// 16-bit integer operand.
    I16,
    /// 16-bit float operand.
    F16,
    /// 32-bit operand (any type).
    B32,
    /// 64-bit operand.
    B64,
}

/// Operand type of source `s` of `op`, from its width and mnemonic.
pub(crate) fn src_ty(op: Op, s: usize) -> Ty {
    if op.src_dwords(s) >= 2 {
        return Ty::B64;
    }
    // The 32-bit addend of the 16x16+32 multiply-adds.
    if s == 2
        && (matches!(op, Op::V_MAD_U32_U16 | Op::V_MAD_I32_I16) || op.name().starts_with("v_dot"))
    {
        return Ty::B32;
    }
    // v_sad_u16 takes its operands as 32-bit values.
    if op == Op::V_SAD_U16 {
        return Ty::B32;
    }
    let name = op.name();
    let last = name.rsplit('_').next().unwrap_or("");
    // The source type is the last type suffix (v_cvt_f32_f16: f16 source).
    let t = match last {
        "e32" | "e64" => "",
        _ => last,
    };
    match t {
        "f16" => Ty::F16,
        "u16" | "i16" | "b16" => Ty::I16,
        _ => Ty::B32,
    }
}

/// Register name of `n` scalar registers starting at code `c`.
pub(crate) fn sreg(w: &mut impl Write, c: u16, n: u8) -> fmt::Result {
    let n = n.max(1) as u16;
    let range = |w: &mut dyn Write, prefix: &str, base: u16| {
        if n == 1 {
            write!(w, "{prefix}{base}")
        } else {
            write!(w, "{prefix}[{}:{}]", base, base + n - 1)
        }
    };
    match c {
        0..=101 => range(w, "s", c),
        102..=107 | 126 | 127 => {
            let (name, lo) = match c {
                102 | 103 => ("flat_scratch", 102),
                104 | 105 => ("xnack_mask", 104),
                106 | 107 => ("vcc", 106),
                _ => ("exec", 126),
            };
            if n >= 2 && c == lo {
                w.write_str(name)
            } else if n == 1 {
                write!(w, "{name}_{}", if c == lo { "lo" } else { "hi" })
            } else {
                w.write_str("/*invalid register*/")
            }
        }
        108..=123 => range(w, "ttmp", c - 108),
        124 => w.write_str("m0"),
        125 => w.write_str("null"),
        _ => w.write_str("/*invalid register*/"),
    }
}

/// Vector register(s).
pub(crate) fn vreg(w: &mut impl Write, v: u8, n: u8) -> fmt::Result {
    if n <= 1 {
        write!(w, "v{v}")
    } else {
        write!(w, "v[{}:{}]", v, v as u16 + n as u16 - 1)
    }
}

/// A register operand (no constants): VGPR or scalar.
pub(crate) fn reg(w: &mut impl Write, o: Operand, n: u8) -> fmt::Result {
    match o.vgpr_index() {
        Some(v) => vreg(w, v, n),
        None => sreg(w, o.raw(), n),
    }
}

/// Any source operand: register, inline constant, special or literal.
pub(crate) fn src(w: &mut impl Write, i: &Inst, o: Operand, n: u8, ty: Ty) -> fmt::Result {
    let c = o.raw();
    match c {
        0..=127 | 256..=511 => reg(w, o, n),
        128..=208 => write!(w, "{}", o.inline_int().unwrap_or(0)),
        240..=248 => float_const(w, c, ty),
        235 => w.write_str("src_shared_base"),
        236 => w.write_str("src_shared_limit"),
        237 => w.write_str("src_private_base"),
        238 => w.write_str("src_private_limit"),
        239 => w.write_str("src_pops_exiting_wave_id"),
        251 => w.write_str("src_vccz"),
        252 => w.write_str("src_execz"),
        253 => w.write_str("src_scc"),
        254 => w.write_str("src_lds_direct"),
        255 => literal(w, i.literal, ty),
        _ => w.write_str("/*invalid immediate*/"),
    }
}

fn float_const(w: &mut impl Write, c: u16, ty: Ty) -> fmt::Result {
    const NAMES: [&str; 8] = ["0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0"];
    match (c, ty) {
        (_, Ty::I16) => {
            let bits = Operand(c).inline_bits(16).unwrap_or(0);
            write!(w, "0x{bits:x}")
        }
        (248, Ty::B64) => w.write_str("0.15915494309189532"),
        (248, _) => w.write_str("0.15915494"),
        _ => w.write_str(NAMES[(c - 240) as usize]),
    }
}

/// Operand slots whose LLVM register class admits no constants: a constant code there decodes
/// but prints as `/*invalid immediate*/`. Slot 0..3 are sources; `DST` is the destination.
pub(crate) const DST: usize = 9;
pub(crate) fn reg_only(op: Op, enc: Encoding, slot: usize) -> bool {
    match (op, slot) {
        (_, DST) => op.class() == Class::Vopc || op.dst().scalar && op.class() != Class::Sop1,
        (Op::V_READLANE_B32 | Op::V_READFIRSTLANE_B32, 0) => true,
        (Op::V_CNDMASK_B32 | Op::V_ADDC_CO_U32 | Op::V_SUBB_CO_U32 | Op::V_SUBBREV_CO_U32, 2) => {
            enc == Encoding::Vop3
        }
        (Op::V_MQSAD_U32_U8, 2) => true,
        (
            Op::S_MOVRELS_B32
            | Op::S_MOVRELS_B64
            | Op::S_SETPC_B64
            | Op::S_RFE_B64
            | Op::S_CBRANCH_JOIN,
            0,
        ) => true,
        _ => false,
    }
}

/// A constant (inline or literal) rather than a register.
pub(crate) fn is_imm(o: Operand) -> bool {
    o.inline_int().is_some() || o.is_inline_float() || o.is_literal()
}

/// [`src`] for slot `slot` of `i`, honouring register-only slots.
pub(crate) fn slot(
    w: &mut impl Write,
    i: &Inst,
    slot: usize,
    o: Operand,
    n: u8,
    ty: Ty,
) -> fmt::Result {
    if is_imm(o) && reg_only(i.op, i.enc, slot) {
        return w.write_str("/*invalid immediate*/");
    }
    src(w, i, o, n, ty)
}

/// A 32-bit literal as LLVM prints it: values that are inline constants print as such.
pub(crate) fn literal(w: &mut impl Write, v: u32, ty: Ty) -> fmt::Result {
    // 16-bit operands use the literal's low half.
    let v = if matches!(ty, Ty::I16 | Ty::F16) {
        v & 0xFFFF
    } else {
        v
    };
    // A 64-bit operand zero-extends its literal, so 0xffffffff is not the inline -1 there.
    let int = match ty {
        Ty::I16 | Ty::F16 => i64::from(v as u16 as i16),
        Ty::B32 => i64::from(v as i32),
        Ty::B64 => i64::from(v),
    };
    if (-16..=64).contains(&int) {
        return write!(w, "{int}");
    }
    let floats: &[(u32, &str)] = match ty {
        Ty::F16 => &[
            (0x3800, "0.5"),
            (0xB800, "-0.5"),
            (0x3C00, "1.0"),
            (0xBC00, "-1.0"),
            (0x4000, "2.0"),
            (0xC000, "-2.0"),
            (0x4400, "4.0"),
            (0xC400, "-4.0"),
            (0x3118, "0.15915494"),
        ],
        Ty::B32 => &[
            (0x3F00_0000, "0.5"),
            (0xBF00_0000, "-0.5"),
            (0x3F80_0000, "1.0"),
            (0xBF80_0000, "-1.0"),
            (0x4000_0000, "2.0"),
            (0xC000_0000, "-2.0"),
            (0x4080_0000, "4.0"),
            (0xC080_0000, "-4.0"),
            (0x3E22_F983, "0.15915494"),
        ],
        _ => &[],
    };
    if let Some((_, s)) = floats.iter().find(|(b, _)| *b == v) {
        return w.write_str(s);
    }
    write!(w, "0x{v:x}")
}

/// `mnemonic` plus the encoding suffix LLVM adds for VOP1/VOP2/VOPC ops.
pub(crate) fn mnemonic(w: &mut impl Write, i: &Inst) -> fmt::Result {
    w.write_str(i.op.name())?;
    // LLVM adds `_e32` only to ops that also have a VOP3 form and print operands.
    let has_operands = !i.dst.is_none() || !i.src[0].is_none();
    let vop = matches!(i.op.class(), Class::Vop1 | Class::Vop2 | Class::Vopc)
        && i.op.flags().has(crate::OpFlags::E64)
        && has_operands;
    let suffix = match i.enc {
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc if vop => "_e32",
        Encoding::Vop3
            if matches!(i.op.class(), Class::Vop1 | Class::Vop2 | Class::Vopc) && has_operands =>
        {
            "_e64"
        }
        Encoding::Sdwa => "_sdwa",
        Encoding::Dpp => "_dpp",
        _ => "",
    };
    w.write_str(suffix)
}
