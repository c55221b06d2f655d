//! 16-bit integer ops (VOP2/VOP3): add/sub (clamp saturates), mul_lo, shifts, min/max/med3 and
//! mad. In VOP3, op_sel bits 0..2 pick the high half of a source and bit 3 writes the result to
//! the high half of the destination.

use super::lanes::{map2, map3};
use super::{DstHalf, VopInputs, VopOutputs};

/// 16-bit integer ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum I16Op {
    AddU16,
    SubU16,
    SubrevU16,
    AddI16,
    SubI16,
    MulLoU16,
    LshlrevB16,
    LshrrevB16,
    AshrrevI16,
    MaxU16,
    MaxI16,
    MinU16,
    MinI16,
    Max3U16,
    Max3I16,
    Min3U16,
    Min3I16,
    Med3U16,
    Med3I16,
    MadU16,
    MadI16,
    /// gfx9 `v_mad_u16` (op_sel form): keeps the other 16 bits of the dst.
    MadU16Keep,
    /// gfx9 `v_mad_i16` (op_sel form): keeps the other 16 bits of the dst.
    MadI16Keep,
}

impl I16Op {
    /// Number of sources.
    pub fn num_src(self) -> u8 {
        use I16Op::*;
        match self {
            Max3U16 | Max3I16 | Min3U16 | Min3I16 | Med3U16 | Med3I16 => 3,
            MadU16 | MadI16 | MadU16Keep | MadI16Keep => 3,
            _ => 2,
        }
    }
}

#[inline(always)]
fn med3<T: Ord + Copy>(a: T, b: T, c: T) -> T {
    a.max(b).min(a.min(b).max(c))
}

/// Runs a 16-bit integer op.
pub fn exec(op: I16Op, inp: &VopInputs, out: &mut VopOutputs) -> bool {
    use I16Op::*;
    let sh: [u32; 3] = std::array::from_fn(|i| 16 * (inp.op_sel as u32 >> i & 1));
    let (s0, s1, s2) = (sh[0], sh[1], sh[2]);
    let u = move |x: u64, s: u32| ((x >> s) & 0xffff) as i64;
    let i = move |x: u64, s: u32| ((x >> s) as u16 as i16) as i64;
    let cl = inp.clamp;
    // Result of an unsigned (lo = 0) or signed op, saturated under clamp, as 16 bits.
    let fin = move |v: i64, signed: bool| -> u64 {
        let v = match (cl, signed) {
            (true, false) => v.clamp(0, 0xffff),
            (true, true) => v.clamp(i16::MIN as i64, i16::MAX as i64),
            _ => v,
        };
        v as u64 & 0xffff
    };
    let d = &mut out.dst;
    let s = &inp.src;
    match op {
        AddU16 => map2(d, &s[0], &s[1], |a, b| fin(u(a, s0) + u(b, s1), false)),
        SubU16 => map2(d, &s[0], &s[1], |a, b| fin(u(a, s0) - u(b, s1), false)),
        SubrevU16 => map2(d, &s[0], &s[1], |a, b| fin(u(b, s1) - u(a, s0), false)),
        AddI16 => map2(d, &s[0], &s[1], |a, b| fin(i(a, s0) + i(b, s1), true)),
        SubI16 => map2(d, &s[0], &s[1], |a, b| fin(i(a, s0) - i(b, s1), true)),
        MulLoU16 => map2(d, &s[0], &s[1], |a, b| {
            (u(a, s0) * u(b, s1)) as u64 & 0xffff
        }),
        LshlrevB16 => map2(d, &s[0], &s[1], |a, b| {
            (u(b, s1) << (u(a, s0) & 15)) as u64 & 0xffff
        }),
        LshrrevB16 => map2(d, &s[0], &s[1], |a, b| (u(b, s1) >> (u(a, s0) & 15)) as u64),
        AshrrevI16 => map2(d, &s[0], &s[1], |a, b| {
            (i(b, s1) >> (u(a, s0) & 15)) as u64 & 0xffff
        }),
        MaxU16 => map2(d, &s[0], &s[1], |a, b| u(a, s0).max(u(b, s1)) as u64),
        MinU16 => map2(d, &s[0], &s[1], |a, b| u(a, s0).min(u(b, s1)) as u64),
        MaxI16 => map2(d, &s[0], &s[1], |a, b| {
            i(a, s0).max(i(b, s1)) as u64 & 0xffff
        }),
        MinI16 => map2(d, &s[0], &s[1], |a, b| {
            i(a, s0).min(i(b, s1)) as u64 & 0xffff
        }),
        Max3U16 => map3(d, s, |a, b, c| u(a, s0).max(u(b, s1)).max(u(c, s2)) as u64),
        Min3U16 => map3(d, s, |a, b, c| u(a, s0).min(u(b, s1)).min(u(c, s2)) as u64),
        Med3U16 => map3(d, s, |a, b, c| med3(u(a, s0), u(b, s1), u(c, s2)) as u64),
        Max3I16 => map3(d, s, |a, b, c| {
            i(a, s0).max(i(b, s1)).max(i(c, s2)) as u64 & 0xffff
        }),
        Min3I16 => map3(d, s, |a, b, c| {
            i(a, s0).min(i(b, s1)).min(i(c, s2)) as u64 & 0xffff
        }),
        Med3I16 => map3(d, s, |a, b, c| {
            med3(i(a, s0), i(b, s1), i(c, s2)) as u64 & 0xffff
        }),
        MadU16 | MadU16Keep => map3(d, s, |a, b, c| fin(u(a, s0) * u(b, s1) + u(c, s2), false)),
        MadI16 | MadI16Keep => map3(d, s, |a, b, c| fin(i(a, s0) * i(b, s1) + i(c, s2), true)),
    }
    out.dst_half = match (inp.op_sel & 8 != 0, matches!(op, MadU16Keep | MadI16Keep)) {
        (true, _) => DstHalf::HiKeepLo,
        (false, true) => DstHalf::LoKeepHi,
        _ => DstHalf::Full,
    };
    true
}
