//! Operand validity as LLVM's decoder defines it: reserved codes are rejected, scalar register
//! tuples are aligned down (s[2k:2k+1], s[4k:4k+3], ...) and must fit the register file, and
//! special registers exist only at the widths they have.

use crate::decode::DecodeError;
use crate::{Encoding, Inst, Operand};

/// LLVM's SGPR tuples may extend past s101 (its register file ends at s105).
const NUM_SGPRS: u16 = 106;
const NUM_TTMPS: u16 = 16;

fn align(c: u16, n: u8) -> u16 {
    match n {
        0 | 1 => c,
        2 => c & !1,
        _ => c & !3,
    }
}

/// The canonical code of a scalar-or-constant operand `n` dwords wide, or `None` if LLVM
/// rejects it. The literal marker is accepted here (the caller reads the literal).
pub(crate) fn scalar(c: u16, n: u8) -> Option<u16> {
    let n16 = n.max(1) as u16;
    match c {
        0..=101 => {
            let a = align(c, n);
            (a + n16 <= NUM_SGPRS).then_some(a)
        }
        108..=123 => {
            let a = align(c - 108, n);
            (a + n16 <= NUM_TTMPS).then_some(a + 108)
        }
        // Wider operands fall back to the 64-bit special registers, as LLVM's decoder does.
        // 256/512-bit operands are decoded as SGPR or TTMP tuples only.
        _ if n >= 8 => None,
        102..=107 | 124..=127 => match n {
            0 | 1 => Some(c),
            _ => matches!(c, 102 | 104 | 106 | 125 | 126).then_some(c),
        },
        128..=208 | 240..=248 | 255 => Some(c),
        235..=239 | 251..=253 => Some(c),
        254 => (n <= 1).then_some(c),
        _ => None,
    }
}

/// A source operand of any kind (VGPR or scalar/constant), `n` dwords.
pub(crate) fn any(o: Operand, n: u8) -> Option<Operand> {
    if o.is_none() {
        return Some(o);
    }
    match o.vgpr_index().or(o.agpr_index()) {
        Some(v) => (v as u16 + n.max(1) as u16 <= 256).then_some(o),
        None => scalar(o.raw(), n).map(Operand),
    }
}

/// Validate and canonicalize every operand of a decoded instruction.
pub(crate) fn check(i: &mut Inst) -> Result<(), DecodeError> {
    let op = i.op;
    let bad = || DecodeError::InvalidFields { op: op.name() };
    let vop3 = i.enc == Encoding::Vop3 || i.enc == Encoding::Vop3p;
    for s in 0..3 {
        let n = match (i.enc, s) {
            (Encoding::Smem, 0) => op.src_dwords(0),
            (Encoding::Smem, 1) => 1,
            (Encoding::Smem, 2) => op.src_dwords(2),
            (Encoding::Mubuf | Encoding::Mtbuf, 2) => 4,
            (Encoding::Mimg, 2) => 8,
            (Encoding::Global, 2) => 2,
            (Encoding::Scratch, 2) => 1,
            (
                Encoding::Mubuf
                | Encoding::Mtbuf
                | Encoding::Mimg
                | Encoding::Flat
                | Encoding::Global
                | Encoding::Scratch,
                _,
            ) => continue,
            (Encoding::Ds, _) => op.src_dwords(s),
            // MFMA C: a constant is one element; a 32-register C from SGPRs is decoded as one
            // (no SGPR tuple is that wide).
            _ if op.flags().has(crate::OpFlags::MAI) && i.src[s].is_inline() => 1,
            _ if op.src_dwords(s) > 16 && !i.src[s].is_vector() => 1,
            _ => op.src_dwords(s),
        };
        if (vop3 || i.enc == Encoding::Sdwa) && i.src[s].is_literal() {
            return Err(bad());
        }
        i.src[s] = any(i.src[s], n).ok_or_else(bad)?;
    }
    if vop3 && i.dst.is_literal() {
        return Err(bad());
    }
    if !i.dst.is_none() && !i.dst.is_vector() {
        let n = if op.class() == crate::Class::Vopc {
            2
        } else {
            op.dst_dwords()
        };
        i.dst = Operand(scalar(i.dst.raw(), n).ok_or_else(bad)?);
    } else {
        i.dst = any(i.dst, op.dst_dwords()).ok_or_else(bad)?;
    }
    // Memory VGPR/AGPR tuples must fit in v0..v255 / a0..a255.
    let fits = |o: Operand, n: u8| {
        o.vgpr_index()
            .or(o.agpr_index())
            .is_none_or(|v| v as u16 + n.max(1) as u16 <= 256)
    };
    let f = i.mem_flags();
    let ok = match i.enc {
        Encoding::Flat | Encoding::Global | Encoding::Scratch => {
            let wide_addr =
                i.enc == Encoding::Flat || (i.enc == Encoding::Global && i.src[2].is_none());
            fits(i.src[0], if wide_addr { 2 } else { 1 })
                && fits(i.src[1], op.src_dwords(1))
                && fits(i.dst, op.atomic_return_dwords().max(op.dst_dwords()))
        }
        Encoding::Mubuf | Encoding::Mtbuf => {
            use crate::MemFlags as M;
            let both = f.has(M::OFFEN) && f.has(M::IDXEN);
            fits(i.src[0], if both { 2 } else { 1 })
                && fits(i.src[1], op.mem_dwords())
                && fits(i.dst, op.mem_dwords())
        }
        Encoding::Mimg => {
            fits(i.src[0], op.src_dwords(0))
                && (!crate::disasm_memory::mimg_has_sampler(op)
                    || scalar(i.src[3].raw(), 4).is_some())
        }
        _ => true,
    };
    if !ok {
        return Err(bad());
    }
    if matches!(i.enc, Encoding::Mubuf | Encoding::Mtbuf) {
        i.src[3] = any(i.src[3], 1).ok_or_else(bad)?;
        if i.src[3].is_literal() {
            return Err(bad());
        }
    }
    if !i.sdst.is_none() {
        i.sdst = Operand(scalar(i.sdst.raw(), 2).ok_or_else(bad)?);
    }
    Ok(())
}
