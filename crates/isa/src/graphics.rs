//! The two graphics-only encodings: VINTRP (parameter interpolation, 32 bits) and EXP (export,
//! 64 bits): their fields and their text as llvm-objdump-15 prints it.
//!
//! Operand slots: VINTRP `dst` = vdst, `src[0]` = vsrc (the I/J VGPR of `v_interp_p1/p2`;
//! `v_interp_mov_f32` names a parameter instead and has no source VGPR); EXP `src[0..4]` = the
//! four source VGPRs. `imm` keeps the encoding's other fields as they are in the first dword:
//! VINTRP bits 17:0 (vsrc 7:0, channel 9:8, attribute 15:10, op 17:16), EXP bits 12:0 (enable
//! 3:0, target 9:4, compr 10, done 11, vm 12).

use crate::decode::{bits, blank, Dec, DecodeError};
use crate::inst::{Encoding, Inst};
use crate::{Op, Operand};
use std::fmt::{self, Write};

fn vgpr(n: u32) -> Operand {
    Operand(256 + (n & 0xff) as u16)
}

/// VINTRP fields of `d`'s first dword.
pub(crate) fn vintrp(d: &Dec, op: Op) -> Result<Inst, DecodeError> {
    let w = u64::from(d.w0);
    let mut i = blank(op, Encoding::Vintrp, 4);
    i.dst = vgpr(bits(w, 18, 8));
    if op.src_dwords(0) != 0 {
        i.src[0] = vgpr(bits(w, 0, 8));
    }
    i.imm = bits(w, 0, 18) as i32;
    Ok(i)
}

/// EXP fields of `d`'s two dwords.
pub(crate) fn exp(d: &Dec, op: Op) -> Result<Inst, DecodeError> {
    let x = d.x;
    let mut i = blank(op, Encoding::Exp, 8);
    for (s, src) in i.src.iter_mut().enumerate() {
        *src = vgpr(bits(x, 32 + 8 * s as u32, 8));
    }
    i.imm = bits(x, 0, 13) as i32;
    Ok(i)
}

/// The export target's name.
fn target(w: &mut impl Write, t: u32) -> fmt::Result {
    match t {
        0..=7 => write!(w, "mrt{t}"),
        8 => w.write_str("mrtz"),
        9 => w.write_str("null"),
        12..=15 => write!(w, "pos{}", t - 12),
        32..=63 => write!(w, "param{}", t - 32),
        _ => write!(w, "invalid_target_{t}"),
    }
}

/// Prints a VINTRP or EXP instruction.
pub(crate) fn print(f: &mut fmt::Formatter<'_>, i: &Inst) -> fmt::Result {
    let imm = i.imm as u32;
    if i.enc == Encoding::Exp {
        f.write_str("exp ")?;
        target(f, imm >> 4 & 63)?;
        let compr = imm >> 10 & 1 != 0;
        for k in 0..4 {
            f.write_str(if k == 0 { " " } else { ", " })?;
            // Compressed exports send two registers, each holding two packed halves.
            let reg = if compr { i.src[k / 2] } else { i.src[k] };
            match (imm >> k & 1, reg.vgpr_index()) {
                (1, Some(v)) => write!(f, "v{v}")?,
                _ => f.write_str("off")?,
            }
        }
        for (bit, word) in [(11, " done"), (10, " compr"), (12, " vm")] {
            if imm >> bit & 1 != 0 {
                f.write_str(word)?;
            }
        }
        return Ok(());
    }
    let v = i.dst.vgpr_index().unwrap_or(0);
    write!(f, "{}_e32 v{v}, ", i.op.name())?;
    let vsrc = imm & 0xff;
    match (i.src[0].vgpr_index(), vsrc) {
        (Some(s), _) => write!(f, "v{s}")?,
        (None, 0) => f.write_str("p10")?,
        (None, 1) => f.write_str("p20")?,
        (None, 2) => f.write_str("p0")?,
        (None, n) => write!(f, "invalid_param_{n}")?,
    }
    let chan = ["x", "y", "z", "w"][(imm >> 8 & 3) as usize];
    write!(f, ", attr{}.{chan}", imm >> 10 & 63)
}
