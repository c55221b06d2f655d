//! Vector ALU text: VOP1/VOP2/VOPC (`_e32`), VOP3 (`_e64` and VOP3-only), VOP3P, SDWA, DPP.

use crate::decode::Form;
use crate::disasm::{is_imm, mnemonic, reg, reg_only, slot, src, src_ty, sreg, DST};
use crate::op::{Class, OpFlags};
use crate::{Encoding, Inst, Op, Operand};
use std::fmt::{self, Write};

pub(crate) fn print(w: &mut impl Write, i: &Inst) -> fmt::Result {
    mnemonic(w, i)?;
    match i.enc {
        Encoding::Vop3 => vop3(w, i),
        Encoding::Vop3p => vop3p(w, i),
        Encoding::Sdwa => sdwa(w, i),
        Encoding::Dpp => dpp(w, i),
        _ => vop32(w, i),
    }
}

/// Destination (and VOP3b/VOPC scalar results) in text order; returns the separator to use next.
fn dests(w: &mut impl Write, i: &Inst) -> Result<&'static str, fmt::Error> {
    let op = i.op;
    let mut sep = " ";
    if !i.dst.is_none() {
        w.write_str(sep)?;
        sep = ", ";
        if op.class() == Class::Vopc {
            if i.dst.raw() == Operand::VCC_LO && i.enc != Encoding::Vop3 && i.enc != Encoding::Sdwa
            {
                w.write_str("vcc")?;
            } else {
                // (A constant there prints as a 32-bit value.)
                slot(w, i, DST, i.dst, 2, crate::disasm::Ty::B32)?;
            }
        } else if op.dst().scalar {
            slot(w, i, DST, i.dst, op.dst_dwords(), crate::disasm::Ty::B32)?;
        } else {
            reg(w, i.dst, op.dst_dwords())?;
        }
    }
    if !i.sdst.is_none() {
        w.write_str(sep)?;
        sep = ", ";
        sreg(w, i.sdst.raw(), 2)?;
    }
    Ok(sep)
}

/// Integer sources of ops with float modifiers elsewhere: their NEG bit means `sext()`.
fn int_mods(op: Op, s: usize) -> bool {
    matches!(
        (op, s),
        (
            Op::V_LDEXP_F32
                | Op::V_LDEXP_F64
                | Op::V_LDEXP_F16
                | Op::V_TRIG_PREOP_F64
                | Op::V_CVT_PKACCUM_U8_F32,
            1
        ) | (Op::V_CVT_PK_U8_F32, 1 | 2)
    )
}

/// Source `s` with float input modifiers (`-`, `neg()`, `|..|`) or SDWA `sext()`.
fn src_mods(w: &mut impl Write, i: &Inst, s: usize, sext: bool) -> fmt::Result {
    let o = i.src[s];
    let n = i.op.src_dwords(s);
    let ty = src_ty(i.op, s);
    let neg = i.mods.neg >> s & 1 != 0;
    let abs = i.mods.abs >> s & 1 != 0;
    if int_mods(i.op, s) && i.enc != Encoding::Sdwa && !sext {
        // Integer source: only SEXT (in the NEG bit) applies.
        if !neg {
            return src(w, i, o, n, ty);
        }
    }
    if sext || (neg && int_mods(i.op, s) && i.enc != Encoding::Sdwa) {
        w.write_str("sext(")?;
        src(w, i, o, n, ty)?;
        return w.write_str(")");
    }
    if is_imm(o) && reg_only(i.op, i.enc, s) {
        return crate::disasm::invalid_immediate(w, i, o, n, ty);
    }
    let imm = is_imm(o);
    let neg_mnemo = neg && !abs && imm;
    if neg_mnemo {
        w.write_str("neg(")?;
    } else if neg {
        w.write_str("-")?;
    }
    if abs {
        w.write_str("|")?;
    }
    src(w, i, o, n, ty)?;
    crate::disasm_annot::mark(w, i, s, o)?;
    if abs {
        w.write_str("|")?;
    }
    if neg_mnemo {
        w.write_str(")")?;
    }
    Ok(())
}

fn omod(w: &mut impl Write, o: u8) -> fmt::Result {
    match o {
        1 => w.write_str(" mul:2"),
        2 => w.write_str(" mul:4"),
        3 => w.write_str(" div:2"),
        _ => Ok(()),
    }
}

fn vop32(w: &mut impl Write, i: &Inst) -> fmt::Result {
    let op = i.op;
    let mut sep = dests(w, i)?;
    if op.flags().has(OpFlags::MADK) {
        for s in 0..3 {
            w.write_str(sep)?;
            sep = ", ";
            // K (and a literal src0, which shares it) print as raw 32-bit hex; LLVM 19
            // (gfx940) prints an f16 src0 literal as its 16 bits.
            if i.src[s].is_literal() {
                let f16 = op.name().ends_with("_f16") && i.gfx == crate::Gfx::Gfx940;
                let v = if s == 0 && f16 {
                    i.literal & 0xffff
                } else {
                    i.literal
                };
                write!(w, "0x{v:x}")?;
            } else {
                src(w, i, i.src[s], 1, src_ty(op, s))?;
            }
        }
        return Ok(());
    }
    for s in 0..3 {
        if i.src[s].is_none() {
            continue;
        }
        w.write_str(sep)?;
        sep = ", ";
        if i.src[s].raw() == Operand::VCC_LO && s == 2 {
            w.write_str("vcc")?;
        } else {
            slot(w, i, s, i.src[s], op.src_dwords(s), src_ty(op, s))?;
        }
    }
    Ok(())
}

/// VOP3 ops that print `op_sel` (16-bit operand VOP3-only ops).
fn has_op_sel(op: Op) -> bool {
    op.flags().has(OpFlags::OPSEL)
}

fn vop3(w: &mut impl Write, i: &Inst) -> fmt::Result {
    let op = i.op;
    let mut sep = dests(w, i)?;
    let mut m = *i;
    if !op.flags().has(OpFlags::FPMODS) {
        // Integer ops: LLVM ignores the abs/neg bits (except int-modifier sources: sext).
        m.mods.abs = 0;
        m.mods.neg &= (0..3)
            .filter(|&s| int_mods(op, s))
            .fold(0, |a, s| a | 1 << s);
    }
    // gfx940's stochastic-rounding converts: src1 (the random bits) is an integer without
    // modifiers, and op_sel[3:2] selects the destination byte, all four bits printed.
    let sr = matches!(op, Op::V_CVT_SR_FP8_F32 | Op::V_CVT_SR_BF8_F32);
    if sr {
        m.mods.abs &= !2;
        m.mods.neg &= !2;
    }
    let i = &m;
    let nsrc = (0..3).filter(|&s| !i.src[s].is_none()).count();
    for s in 0..3 {
        if i.src[s].is_none() {
            continue;
        }
        w.write_str(sep)?;
        sep = ", ";
        src_mods(w, i, s, false)?;
    }
    if sr && i.mods.op_sel != 0 {
        bit_list(w, "op_sel", i.mods.op_sel, 4)?;
    } else if has_op_sel(op) && i.mods.op_sel != 0 {
        w.write_str(" op_sel:[")?;
        for s in 0..nsrc {
            write!(w, "{},", i.mods.op_sel >> s & 1)?;
        }
        write!(w, "{}]", i.mods.op_sel >> 3 & 1)?;
    }
    if i.mods.clamp {
        w.write_str(" clamp")?;
    }
    omod(w, i.mods.omod)
}

fn bit_list(w: &mut impl Write, name: &str, v: u8, n: usize) -> fmt::Result {
    write!(w, " {name}:[")?;
    for s in 0..n {
        if s > 0 {
            w.write_char(',')?;
        }
        write!(w, "{}", v >> s & 1)?;
    }
    w.write_char(']')
}

/// VOP3P-MAI: operands, then the broadcast/lane-group modifiers (on gfx940's f64 MFMA the BLGP
/// bits negate A, B and C and print as `neg`).
fn mai(w: &mut impl Write, i: &Inst) -> fmt::Result {
    let mut sep = dests(w, i)?;
    for s in 0..3 {
        if i.src[s].is_none() {
            continue;
        }
        w.write_str(sep)?;
        sep = ", ";
        // A 32-register C from SGPRs is one (no SGPR tuple is that wide).
        let n = match i.op.src_dwords(s) {
            n if n > 16 && !i.src[s].is_vector() => 1,
            n => n,
        };
        slot(w, i, s, i.src[s], n, src_ty(i.op, s))?;
    }
    let m = i.mai().copied().unwrap_or_default();
    for (name, v) in [("cbsz", m.cbsz), ("abid", m.abid)] {
        if v != 0 {
            write!(w, " {name}:{v}")?;
        }
    }
    if m.blgp == 0 {
        Ok(())
    } else if i.gfx == crate::Gfx::Gfx940 && i.op.name().starts_with("v_mfma_f64") {
        bit_list(w, "neg", m.blgp, 3)
    } else {
        write!(w, " blgp:{}", m.blgp)
    }
}

fn vop3p(w: &mut impl Write, i: &Inst) -> fmt::Result {
    let op = i.op;
    if op.flags().has(OpFlags::MAI) {
        return mai(w, i);
    }
    if matches!(op, Op::V_ACCVGPR_READ_B32 | Op::V_ACCVGPR_WRITE_B32) {
        // Plain moves: LLVM prints no modifiers (the encoding's op_sel_hi/clamp are ignored).
        let sep = dests(w, i)?;
        w.write_str(sep)?;
        return src(w, i, i.src[0], 1, crate::disasm::Ty::B32);
    }
    let mix = matches!(
        op,
        Op::V_FMA_MIX_F32
            | Op::V_FMA_MIXLO_F16
            | Op::V_FMA_MIXHI_F16
            | Op::V_MAD_MIX_F32
            | Op::V_MAD_MIXLO_F16
            | Op::V_MAD_MIXHI_F16
    );
    let mut sep = dests(w, i)?;
    let n = (0..3).filter(|&s| !i.src[s].is_none()).count();
    let mut m = *i;
    if mix {
        // fma_mix: neg_hi bits are the sources' abs modifiers.
        m.mods.abs = i.mods.neg_hi;
    }
    for s in 0..3 {
        if i.src[s].is_none() {
            continue;
        }
        w.write_str(sep)?;
        sep = ", ";
        if mix {
            src_mods(w, &m, s, false)?;
        } else {
            let neg = m.mods.neg;
            m.mods.neg = 0;
            src_mods(w, &m, s, false)?;
            m.mods.neg = neg;
        }
    }
    let full = (1u8 << n) - 1;
    if i.mods.op_sel & full != 0 {
        bit_list(w, "op_sel", i.mods.op_sel, n)?;
    }
    let hi = i.mods.op_sel_hi & full;
    if (mix && hi != 0) || (!mix && hi != full) {
        bit_list(w, "op_sel_hi", hi, n)?;
    }
    if !mix {
        if i.mods.neg & full != 0 {
            bit_list(w, "neg_lo", i.mods.neg, n)?;
        }
        if i.mods.neg_hi & full != 0 {
            bit_list(w, "neg_hi", i.mods.neg_hi, n)?;
        }
    }
    if i.mods.clamp {
        w.write_str(" clamp")?;
    }
    Ok(())
}

const SEL: [&str; 8] = [
    "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD", "INVALID",
];

fn sdwa(w: &mut impl Write, i: &Inst) -> fmt::Result {
    let op = i.op;
    let s = i.sdwa().copied().unwrap_or_default();
    let free = op.form(i.gfx, Form::Sdwa).1;
    // Integer sources carry a SEXT bit; LLVM's decoder only lets it vary for those.
    let int = [free >> 51 & 1 != 0, free >> 59 & 1 != 0];
    let mut sep = dests(w, i)?;
    for (k, o) in i.src.iter().enumerate().take(3) {
        if o.is_none() {
            continue;
        }
        w.write_str(sep)?;
        sep = ", ";
        if k == 2 {
            w.write_str("vcc")?;
        } else {
            src_mods(w, i, k, int[k] && s.sext >> k & 1 != 0)?;
        }
    }
    if i.mods.clamp {
        w.write_str(" clamp")?;
    }
    omod(w, i.mods.omod)?;
    // gfx940's fp8 converts have SDWA source selects only.
    let fp8_cvt = op.name().starts_with("v_cvt_") && op.name().contains("_f32_") && {
        let n = op.name();
        n.ends_with("_fp8") || n.ends_with("_bf8")
    };
    if op.class() != Class::Vopc && !fp8_cvt {
        write!(w, " dst_sel:{}", SEL[s.dst_sel as usize & 7])?;
        let u = ["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "UNUSED_PAD"]
            [s.dst_unused as usize & 3];
        write!(w, " dst_unused:{u}")?;
    }
    write!(w, " src0_sel:{}", SEL[s.src0_sel as usize & 7])?;
    if !i.src[1].is_none() {
        write!(w, " src1_sel:{}", SEL[s.src1_sel as usize & 7])?;
    }
    Ok(())
}

fn dpp(w: &mut impl Write, i: &Inst) -> fmt::Result {
    let d = i.dpp().copied().unwrap_or_default();
    let mut m = *i;
    if i.op == Op::V_CNDMASK_B32 {
        // LLVM's v_cndmask_b32_dpp has no input modifiers on GFX9.
        m.mods.abs = 0;
        m.mods.neg = 0;
    }
    let i = &m;
    let mut sep = dests(w, i)?;
    for k in 0..3 {
        if i.src[k].is_none() {
            continue;
        }
        w.write_str(sep)?;
        sep = ", ";
        if k == 2 {
            w.write_str("vcc")?;
        } else {
            src_mods(w, i, k, false)?;
        }
    }
    let c = d.ctrl;
    // gfx90a: row_newbcast exists, and is the only control of 64-bit operands (of 64-bit
    // sources; on gfx940, LLVM 19: of any 64-bit operand, the "DP ALU").
    let newbcast = i.gfx.unified_vgprs();
    let gfx940 = i.gfx == crate::Gfx::Gfx940;
    let wide = i.op.src_dwords(0) == 2 || (gfx940 && i.op.dst_dwords() == 2);
    match c {
        0x150..=0x15F if newbcast => write!(w, " row_newbcast:{}", c & 0xF)?,
        _ if gfx940 && wide => w.write_str("  /* DP ALU dpp only supports row_newbcast */")?,
        _ if newbcast && wide => w.write_str("  /* 64 bit dpp only supports row_newbcast */")?,
        0..=0xFF => write!(
            w,
            " quad_perm:[{},{},{},{}]",
            c & 3,
            c >> 2 & 3,
            c >> 4 & 3,
            c >> 6 & 3
        )?,
        0x101..=0x10F => write!(w, " row_shl:{}", c & 0xF)?,
        0x111..=0x11F => write!(w, " row_shr:{}", c & 0xF)?,
        0x121..=0x12F => write!(w, " row_ror:{}", c & 0xF)?,
        0x130 => w.write_str(" wave_shl:1")?,
        0x134 => w.write_str(" wave_rol:1")?,
        0x138 => w.write_str(" wave_shr:1")?,
        0x13C => w.write_str(" wave_ror:1")?,
        0x140 => w.write_str(" row_mirror")?,
        0x141 => w.write_str(" row_half_mirror")?,
        0x142 => w.write_str(" row_bcast:15")?,
        0x143 => w.write_str(" row_bcast:31")?,
        0x150..=0x15F => w.write_str(
            "  /* row_newbcast/row_share is not supported on ASICs earlier than GFX90A/GFX10 */",
        )?,
        0x160..=0x16F => {
            w.write_str(" /* row_xmask is not supported on ASICs earlier than GFX10 */")?
        }
        _ => w.write_str(" /* Invalid dpp_ctrl value */")?,
    }
    write!(
        w,
        " row_mask:0x{:x} bank_mask:0x{:x}",
        d.row_mask, d.bank_mask
    )?;
    if d.bound_ctrl {
        w.write_str(" bound_ctrl:1")?;
    }
    Ok(())
}
