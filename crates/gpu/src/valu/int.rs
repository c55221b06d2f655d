//! 32- and 64-bit integer arithmetic: add/sub with carries and clamp (saturation), multiplies
//! (24-bit, hi/lo, mad_u64_u32), three-operand adds, min/max/med3, SAD, mbcnt, 64-bit shifts,
//! v_cndmask.

use super::float_env::{SrcMods, F32};
use super::lanes::{map2, map3, map3_mask};
use super::{VopInputs, VopOutputs};

/// Integer ops on 32/64-bit values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum IntOp {
    AddU32,
    SubU32,
    SubrevU32,
    AddI32,
    SubI32,
    AddCo,
    SubCo,
    SubrevCo,
    Addc,
    Subb,
    Subbrev,
    MulLo,
    MulHiU32,
    MulHiI32,
    MulU24,
    MulHiU24,
    MulI24,
    MulHiI24,
    MadU24,
    MadI24,
    MadU32U16,
    MadI32I16,
    MadU64U32,
    MadI64I32,
    Add3,
    Xad,
    LshlAdd,
    AddLshl,
    MinU32,
    MaxU32,
    MinI32,
    MaxI32,
    Min3U32,
    Max3U32,
    Min3I32,
    Max3I32,
    Med3U32,
    Med3I32,
    SadU8,
    SadHiU8,
    SadU16,
    SadU32,
    MsadU8,
    /// `v_qsad_pk_u16_u8`: four SADs of sliding 4-byte windows of the 64-bit src0 against
    /// src1, each accumulated into a 16-bit field of the 64-bit src2.
    QsadPk,
    /// `v_mqsad_pk_u16_u8`: [`IntOp::QsadPk`] with masked SADs (src1 bytes of 0 skipped).
    MqsadPk,
    LerpU8,
    MbcntLo,
    MbcntHi,
    Bcnt,
    Cndmask,
    LshlrevB64,
    LshrrevB64,
    AshrrevI64,
    /// gfx940 `v_lshl_add_u64`: (src0 << src1\[2:0\]) + src2, 64-bit.
    LshlAddU64,
    /// gfx940 `v_mov_b64`.
    MovB64,
    /// `v_screen_partition_4se_b32`: a table lookup (the `screen` module).
    ScreenPartition4se,
}

#[inline(always)]
fn sext24(x: u64) -> i64 {
    ((x as u32) << 8) as i32 as i64 >> 8
}

#[inline(always)]
fn sat_u32(v: i64, clamp: bool) -> u64 {
    if clamp {
        v.clamp(0, u32::MAX as i64) as u64
    } else {
        v as u64 & 0xffff_ffff
    }
}

#[inline(always)]
fn med3<T: Ord + Copy>(a: T, b: T, c: T) -> T {
    a.max(b).min(a.min(b).max(c))
}

/// Per-byte absolute differences of a and b (as u32 words), summed; bytes where `skip` has a
/// zero byte are left out when `masked` (v_msad_u8).
#[inline(always)]
fn sad_bytes(a: u64, b: u64, masked: bool) -> u64 {
    (0..4)
        .map(|i| {
            let (x, y) = ((a >> (8 * i)) & 0xff, (b >> (8 * i)) & 0xff);
            if masked && y == 0 {
                0
            } else {
                x.abs_diff(y)
            }
        })
        .sum()
}

/// Runs an integer op. Returns false for ops not implemented.
pub fn exec(op: IntOp, inp: &VopInputs, out: &mut VopOutputs) -> bool {
    use IntOp::*;
    let s = &inp.src;
    let d = &mut out.dst;
    let cl = inp.clamp;
    let w = |v: u64| v & 0xffff_ffff;
    let u = |v: u64| v as u32 as u64;
    let i = |v: u64| v as u32 as i32 as i64;
    match op {
        AddU32 => map2(d, &s[0], &s[1], |a, b| {
            sat_u32(u(a) as i64 + u(b) as i64, cl)
        }),
        SubU32 => map2(d, &s[0], &s[1], |a, b| {
            sat_u32(u(a) as i64 - u(b) as i64, cl)
        }),
        SubrevU32 => map2(d, &s[0], &s[1], |a, b| {
            sat_u32(u(b) as i64 - u(a) as i64, cl)
        }),
        AddI32 | SubI32 => map2(d, &s[0], &s[1], |a, b| {
            let v = if op == AddI32 {
                i(a) + i(b)
            } else {
                i(a) - i(b)
            };
            let v = if cl {
                v.clamp(i32::MIN as i64, i32::MAX as i64)
            } else {
                v
            };
            w(v as u64)
        }),
        AddCo | SubCo | SubrevCo | Addc | Subb | Subbrev => {
            out.mask = map3_mask(d, s, inp.mask_in, |a, b, _, cin| {
                let (a, b) = if matches!(op, SubrevCo | Subbrev) {
                    (u(b), u(a))
                } else {
                    (u(a), u(b))
                };
                let c = matches!(op, Addc | Subb | Subbrev) && cin;
                let v = if matches!(op, AddCo | Addc) {
                    a as i64 + b as i64 + c as i64
                } else {
                    a as i64 - b as i64 - c as i64
                };
                let carry = !(0..=u32::MAX as i64).contains(&v);
                (sat_u32(v, cl), carry)
            })
        }
        MulLo => map2(d, &s[0], &s[1], |a, b| w(u(a) * u(b))),
        MulHiU32 => map2(d, &s[0], &s[1], |a, b| (u(a) * u(b)) >> 32),
        MulHiI32 => map2(d, &s[0], &s[1], |a, b| w(((i(a) * i(b)) >> 32) as u64)),
        MulU24 => map2(d, &s[0], &s[1], |a, b| w((a & 0xff_ffff) * (b & 0xff_ffff))),
        MulHiU24 => map2(d, &s[0], &s[1], |a, b| {
            ((a & 0xff_ffff) * (b & 0xff_ffff)) >> 32
        }),
        MulI24 => map2(d, &s[0], &s[1], |a, b| w((sext24(a) * sext24(b)) as u64)),
        MulHiI24 => map2(d, &s[0], &s[1], |a, b| {
            w(((sext24(a) * sext24(b)) >> 32) as u64)
        }),
        MadU24 => map3(d, s, |a, b, c| w((a & 0xff_ffff) * (b & 0xff_ffff) + c)),
        MadI24 => map3(d, s, |a, b, c| {
            w((sext24(a) * sext24(b)) as u64).wrapping_add(c) & 0xffff_ffff
        }),
        MadU32U16 | MadI32I16 => {
            let (sa, sb) = (16 * (inp.op_sel as u32 & 1), 8 * (inp.op_sel as u32 & 2));
            map3(d, s, |a, b, c| {
                let (x, y) = ((a >> sa) & 0xffff, (b >> sb) & 0xffff);
                let p = if op == MadU32U16 {
                    x * y
                } else {
                    (x as u16 as i16 as i64 * y as u16 as i16 as i64) as u64
                };
                w(p.wrapping_add(c))
            })
        }
        MadU64U32 => {
            out.mask = map3_mask(d, s, 0, |a, b, c, _| {
                let (v, carry) = (u(a) * u(b)).overflowing_add(c);
                (v, carry)
            })
        }
        MadI64I32 => {
            out.mask = map3_mask(d, s, 0, |a, b, c, _| {
                let p = (i(a) * i(b)) as i128 + c as i64 as i128;
                (p as u64, p < i64::MIN as i128 || p > i64::MAX as i128)
            })
        }
        Add3 => map3(d, s, |a, b, c| w(u(a) + u(b) + u(c))),
        Xad => map3(d, s, |a, b, c| w((u(a) ^ u(b)) + u(c))),
        LshlAdd => map3(d, s, |a, b, c| w((u(a) << (b & 31)) + u(c))),
        LshlAddU64 => map3(d, s, |a, b, c| (a << (b & 7)).wrapping_add(c)),
        MovB64 => map3(d, s, |a, _, _| a),
        AddLshl => map3(d, s, |a, b, c| w((u(a) + u(b)) << (c & 31))),
        MinU32 => map2(d, &s[0], &s[1], |a, b| u(a).min(u(b))),
        MaxU32 => map2(d, &s[0], &s[1], |a, b| u(a).max(u(b))),
        MinI32 => map2(d, &s[0], &s[1], |a, b| w(i(a).min(i(b)) as u64)),
        MaxI32 => map2(d, &s[0], &s[1], |a, b| w(i(a).max(i(b)) as u64)),
        Min3U32 => map3(d, s, |a, b, c| u(a).min(u(b)).min(u(c))),
        Max3U32 => map3(d, s, |a, b, c| u(a).max(u(b)).max(u(c))),
        Min3I32 => map3(d, s, |a, b, c| w(i(a).min(i(b)).min(i(c)) as u64)),
        Max3I32 => map3(d, s, |a, b, c| w(i(a).max(i(b)).max(i(c)) as u64)),
        Med3U32 => map3(d, s, |a, b, c| med3(u(a), u(b), u(c))),
        Med3I32 => map3(d, s, |a, b, c| w(med3(i(a), i(b), i(c)) as u64)),
        SadU8 => map3(d, s, |a, b, c| w(sad_bytes(a, b, false) + u(c))),
        SadHiU8 => map3(d, s, |a, b, c| w((sad_bytes(a, b, false) << 16) + u(c))),
        MsadU8 => map3(d, s, |a, b, c| w(sad_bytes(a, b, true) + u(c))),
        SadU16 => map3(d, s, |a, b, c| {
            let lo = (a & 0xffff).abs_diff(b & 0xffff);
            let hi = ((a >> 16) & 0xffff).abs_diff((b >> 16) & 0xffff);
            w(lo + hi + u(c))
        }),
        SadU32 => map3(d, s, |a, b, c| w(u(a).abs_diff(u(b)) + u(c))),
        ScreenPartition4se => super::lanes::map1(d, &s[0], super::screen::screen_partition_4se),
        QsadPk | MqsadPk => map3(d, s, |a, b, c| {
            (0..4).fold(0u64, |acc, k| {
                let sad = sad_bytes(a >> (8 * k), b, op == MqsadPk) + ((c >> (16 * k)) & 0xffff);
                acc | (sad & 0xffff) << (16 * k)
            })
        }),
        LerpU8 => map3(d, s, |a, b, c| {
            (0..4).fold(0, |acc, k| {
                let f = |v: u64| (v >> (8 * k)) & 0xff;
                acc | ((f(a) + f(b) + (f(c) & 1)) >> 1) << (8 * k)
            })
        }),
        MbcntLo | MbcntHi => {
            for (l, (dv, (&a, &b))) in d.iter_mut().zip(s[0].iter().zip(&s[1])).enumerate() {
                let below = if op == MbcntLo {
                    l.min(32)
                } else {
                    l.saturating_sub(32)
                };
                let m = if below >= 32 {
                    0xffff_ffff
                } else {
                    (1u64 << below) - 1
                };
                *dv = w((u(a) & m).count_ones() as u64 + u(b));
            }
        }
        Bcnt => map2(d, &s[0], &s[1], |a, b| w(u(a).count_ones() as u64 + u(b))),
        Cndmask => {
            // VOP3 cndmask accepts f32 abs/neg modifiers.
            let m = SrcMods::new(inp.abs, inp.neg, [F32; 3]);
            for (l, (dv, (&a, &b))) in d.iter_mut().zip(s[0].iter().zip(&s[1])).enumerate() {
                let pick = inp.mask_in >> l & 1 != 0;
                *dv = if pick { m.get(1, u(b)) } else { m.get(0, u(a)) };
            }
        }
        LshlrevB64 => map2(d, &s[0], &s[1], |a, b| b << (a & 63)),
        LshrrevB64 => map2(d, &s[0], &s[1], |a, b| b >> (a & 63)),
        AshrrevI64 => map2(d, &s[0], &s[1], |a, b| ((b as i64) >> (a & 63)) as u64),
    }
    true
}
