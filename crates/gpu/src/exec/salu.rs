//! Scalar ALU: SOP2, SOP1, SOPC and the arithmetic SOPK ops.

use super::scalar_bits::{bfe_u64, ff1, flbit, flbit_signed, quadmask, sext, wqm};
use super::Flow;
use crate::program::XInst;
use crate::wave::Wave;
use softhsa_isa::Op;

fn saveexec(w: &mut Wave, x: &XInst, f: impl Fn(u64, u64) -> u64, write_new: bool) {
    let s = w.read64(x.src[0]);
    let old = w.exec();
    let new = f(s, old);
    w.set_exec(new);
    w.scc = new != 0;
    w.write_s64(dst(x), if write_new { new } else { old });
}

#[inline]
pub(super) fn dst(x: &XInst) -> u8 {
    (x.inst.dst.raw() & 127) as u8
}

/// SOP2 and SOP1 ops with a result; SOPC compares. Returns `None` for an op this module does
/// not handle (the caller reports it unimplemented).
pub fn exec(w: &mut Wave, x: &XInst) -> Option<Flow> {
    use Op::*;
    let a32 = || w.read32(x.src[0]);
    let d = dst(x);
    macro_rules! r32 {
        ($f:expr) => {{
            let (a, b) = (w.read32(x.src[0]), w.read32(x.src[1]));
            let f: &dyn Fn(u32, u32) -> u32 = &$f;
            let r = f(a, b);
            w.write_s32(d, r);
            r
        }};
    }
    macro_rules! r64 {
        ($f:expr) => {{
            let (a, b) = (w.read64(x.src[0]), w.read64(x.src[1]));
            let f: &dyn Fn(u64, u64) -> u64 = &$f;
            let r = f(a, b);
            w.write_s64(d, r);
            r
        }};
    }
    macro_rules! scc32 {
        ($f:expr) => {{
            let r = r32!($f);
            w.scc = r != 0;
        }};
    }
    macro_rules! scc64 {
        ($f:expr) => {{
            let r = r64!($f);
            w.scc = r != 0;
        }};
    }
    macro_rules! cmp {
        ($t:ty, $f:expr) => {{
            let (a, b) = (w.read32(x.src[0]) as $t, w.read32(x.src[1]) as $t);
            let f: &dyn Fn($t, $t) -> bool = &$f;
            w.scc = f(a, b);
        }};
    }
    match x.inst.op {
        S_ADD_U32 => {
            let (a, b) = (w.read32(x.src[0]), w.read32(x.src[1]));
            let (r, c) = a.overflowing_add(b);
            w.write_s32(d, r);
            w.scc = c;
        }
        S_SUB_U32 => {
            let (a, b) = (w.read32(x.src[0]), w.read32(x.src[1]));
            w.write_s32(d, a.wrapping_sub(b));
            w.scc = b > a;
        }
        S_ADD_I32 | S_SUB_I32 => {
            let (a, b) = (w.read32(x.src[0]) as i32, w.read32(x.src[1]) as i32);
            let (r, o) = if x.inst.op == S_ADD_I32 {
                a.overflowing_add(b)
            } else {
                a.overflowing_sub(b)
            };
            w.write_s32(d, r as u32);
            w.scc = o;
        }
        S_ADDC_U32 => {
            let (a, b) = (w.read32(x.src[0]), w.read32(x.src[1]));
            let r = u64::from(a) + u64::from(b) + u64::from(w.scc);
            w.write_s32(d, r as u32);
            w.scc = r >> 32 != 0;
        }
        S_SUBB_U32 => {
            let (a, b) = (w.read32(x.src[0]), w.read32(x.src[1]));
            let r = u64::from(a)
                .wrapping_sub(u64::from(b))
                .wrapping_sub(u64::from(w.scc));
            w.write_s32(d, r as u32);
            w.scc = u64::from(b) + u64::from(w.scc) > u64::from(a);
        }
        S_MIN_I32 | S_MAX_I32 => {
            let (a, b) = (w.read32(x.src[0]) as i32, w.read32(x.src[1]) as i32);
            let pick_a = if x.inst.op == S_MIN_I32 { a < b } else { a > b };
            w.write_s32(d, if pick_a { a } else { b } as u32);
            w.scc = pick_a;
        }
        S_MIN_U32 | S_MAX_U32 => {
            let (a, b) = (w.read32(x.src[0]), w.read32(x.src[1]));
            let pick_a = if x.inst.op == S_MIN_U32 { a < b } else { a > b };
            w.write_s32(d, if pick_a { a } else { b });
            w.scc = pick_a;
        }
        S_CSELECT_B32 => {
            let c = w.scc;
            r32!(|a, b| if c { a } else { b });
        }
        S_CSELECT_B64 => {
            let c = w.scc;
            r64!(|a, b| if c { a } else { b });
        }
        S_AND_B32 => scc32!(|a, b| a & b),
        S_AND_B64 => scc64!(|a, b| a & b),
        S_OR_B32 => scc32!(|a, b| a | b),
        S_OR_B64 => scc64!(|a, b| a | b),
        S_XOR_B32 => scc32!(|a, b| a ^ b),
        S_XOR_B64 => scc64!(|a, b| a ^ b),
        S_ANDN2_B32 => scc32!(|a, b| a & !b),
        S_ANDN2_B64 => scc64!(|a, b| a & !b),
        S_ORN2_B32 => scc32!(|a, b| a | !b),
        S_ORN2_B64 => scc64!(|a, b| a | !b),
        S_NAND_B32 => scc32!(|a, b| !(a & b)),
        S_NAND_B64 => scc64!(|a, b| !(a & b)),
        S_NOR_B32 => scc32!(|a, b| !(a | b)),
        S_NOR_B64 => scc64!(|a, b| !(a | b)),
        S_XNOR_B32 => scc32!(|a, b| !(a ^ b)),
        S_XNOR_B64 => scc64!(|a, b| !(a ^ b)),
        S_LSHL_B32 => scc32!(|a, b| a << (b & 31)),
        S_LSHL_B64 => scc64!(|a, b| a << (b & 63)),
        S_LSHR_B32 => scc32!(|a, b| a >> (b & 31)),
        S_LSHR_B64 => scc64!(|a, b| a >> (b & 63)),
        S_ASHR_I32 => scc32!(|a, b| ((a as i32) >> (b & 31)) as u32),
        S_ASHR_I64 => scc64!(|a, b| ((a as i64) >> (b & 63)) as u64),
        S_BFM_B32 => {
            let (a, b) = (w.read32(x.src[0]), w.read32(x.src[1]));
            w.write_s32(d, (((1u64 << (a & 31)) - 1) as u32) << (b & 31));
        }
        S_BFM_B64 => {
            let (a, b) = (w.read32(x.src[0]), w.read32(x.src[1]));
            let m = if a & 63 == 0 {
                0
            } else {
                u64::MAX >> (64 - (a & 63))
            };
            w.write_s64(d, m << (b & 63));
        }
        S_MUL_I32 => {
            r32!(|a, b| a.wrapping_mul(b));
        }
        S_MUL_HI_U32 => {
            r32!(|a, b| ((u64::from(a) * u64::from(b)) >> 32) as u32);
        }
        S_MUL_HI_I32 => {
            r32!(|a, b| ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32);
        }
        S_BFE_U32 => scc32!(
            |a, b| bfe_u64(u64::from(a), b & 31, (b >> 16) & 0x7f).min(u64::from(u32::MAX)) as u32
        ),
        S_BFE_I32 => scc32!(|a, b| {
            let wd = ((b >> 16) & 0x7f).min(32);
            sext(bfe_u64(u64::from(a), b & 31, wd), wd) as u32
        }),
        S_BFE_U64 => {
            let (a, b) = (w.read64(x.src[0]), w.read32(x.src[1]));
            let r = bfe_u64(a, b & 63, (b >> 16) & 0x7f);
            w.write_s64(d, r);
            w.scc = r != 0;
        }
        S_BFE_I64 => {
            let (a, b) = (w.read64(x.src[0]), w.read32(x.src[1]));
            let wd = ((b >> 16) & 0x7f).min(64);
            let r = sext(bfe_u64(a, b & 63, wd), wd);
            w.write_s64(d, r);
            w.scc = r != 0;
        }
        S_ABSDIFF_I32 => scc32!(|a, b| (a as i32).wrapping_sub(b as i32).unsigned_abs()),
        S_LSHL1_ADD_U32 | S_LSHL2_ADD_U32 | S_LSHL3_ADD_U32 | S_LSHL4_ADD_U32 => {
            let n = match x.inst.op {
                S_LSHL1_ADD_U32 => 1,
                S_LSHL2_ADD_U32 => 2,
                S_LSHL3_ADD_U32 => 3,
                _ => 4,
            };
            let (a, b) = (w.read32(x.src[0]), w.read32(x.src[1]));
            let r = (u64::from(a) << n) + u64::from(b);
            w.write_s32(d, r as u32);
            w.scc = r >> 32 != 0;
        }
        S_PACK_LL_B32_B16 => {
            r32!(|a, b| (a & 0xffff) | b << 16);
        }
        S_PACK_LH_B32_B16 => {
            r32!(|a, b| (a & 0xffff) | (b & 0xffff_0000));
        }
        S_PACK_HH_B32_B16 => {
            r32!(|a, b| (a >> 16) | (b & 0xffff_0000));
        }
        // SOP1
        S_MOV_B32 => w.write_s32(d, a32()),
        S_MOV_B64 => {
            let v = w.read64(x.src[0]);
            w.write_s64(d, v);
        }
        S_CMOV_B32 => {
            if w.scc {
                w.write_s32(d, a32());
            }
        }
        S_CMOV_B64 => {
            if w.scc {
                let v = w.read64(x.src[0]);
                w.write_s64(d, v);
            }
        }
        S_NOT_B32 => scc32!(|a, _| !a),
        S_NOT_B64 => scc64!(|a, _| !a),
        S_WQM_B32 => scc32!(|a, _| wqm(u64::from(a)) as u32),
        S_WQM_B64 => scc64!(|a, _| wqm(a)),
        S_BREV_B32 => {
            r32!(|a, _| a.reverse_bits());
        }
        S_BREV_B64 => {
            r64!(|a, _| a.reverse_bits());
        }
        S_BCNT0_I32_B32 => scc32!(|a, _| a.count_zeros()),
        S_BCNT1_I32_B32 => scc32!(|a, _| a.count_ones()),
        S_BCNT0_I32_B64 | S_BCNT1_I32_B64 => {
            let a = w.read64(x.src[0]);
            let r = if x.inst.op == S_BCNT0_I32_B64 {
                a.count_zeros()
            } else {
                a.count_ones()
            };
            w.write_s32(d, r);
            w.scc = r != 0;
        }
        S_FF0_I32_B32 => w.write_s32(d, ff1(u64::from(!a32()))),
        S_FF1_I32_B32 => w.write_s32(d, ff1(u64::from(a32()))),
        S_FF0_I32_B64 => w.write_s32(d, ff1(!w.read64(x.src[0]))),
        S_FF1_I32_B64 => w.write_s32(d, ff1(w.read64(x.src[0]))),
        S_FLBIT_I32_B32 => w.write_s32(d, flbit(u64::from(a32()), 32)),
        S_FLBIT_I32_B64 => w.write_s32(d, flbit(w.read64(x.src[0]), 64)),
        S_FLBIT_I32 => w.write_s32(d, flbit_signed(u64::from(a32()), 32)),
        S_FLBIT_I32_I64 => w.write_s32(d, flbit_signed(w.read64(x.src[0]), 64)),
        S_SEXT_I32_I8 => w.write_s32(d, a32() as i8 as i32 as u32),
        S_SEXT_I32_I16 => w.write_s32(d, a32() as i16 as i32 as u32),
        S_BITSET0_B32 | S_BITSET1_B32 => {
            let bit = 1u32 << (a32() & 31);
            let old = w.s[usize::from(d)];
            w.write_s32(
                d,
                if x.inst.op == S_BITSET1_B32 {
                    old | bit
                } else {
                    old & !bit
                },
            );
        }
        S_BITSET0_B64 | S_BITSET1_B64 => {
            let bit = 1u64 << (a32() & 63);
            let old = w.s64(usize::from(d));
            w.write_s64(
                d,
                if x.inst.op == S_BITSET1_B64 {
                    old | bit
                } else {
                    old & !bit
                },
            );
        }
        S_AND_SAVEEXEC_B64 => saveexec(w, x, |s, e| s & e, false),
        S_OR_SAVEEXEC_B64 => saveexec(w, x, |s, e| s | e, false),
        S_XOR_SAVEEXEC_B64 => saveexec(w, x, |s, e| s ^ e, false),
        S_ANDN2_SAVEEXEC_B64 => saveexec(w, x, |s, e| s & !e, false),
        S_ORN2_SAVEEXEC_B64 => saveexec(w, x, |s, e| s | !e, false),
        S_NAND_SAVEEXEC_B64 => saveexec(w, x, |s, e| !(s & e), false),
        S_NOR_SAVEEXEC_B64 => saveexec(w, x, |s, e| !(s | e), false),
        S_XNOR_SAVEEXEC_B64 => saveexec(w, x, |s, e| !(s ^ e), false),
        S_ANDN1_SAVEEXEC_B64 => saveexec(w, x, |s, e| !s & e, false),
        S_ORN1_SAVEEXEC_B64 => saveexec(w, x, |s, e| !s | e, false),
        S_ANDN1_WREXEC_B64 => saveexec(w, x, |s, e| !s & e, true),
        S_ANDN2_WREXEC_B64 => saveexec(w, x, |s, e| s & !e, true),
        S_QUADMASK_B32 => scc32!(|a, _| quadmask(u64::from(a)) as u32),
        S_QUADMASK_B64 => scc64!(|a, _| quadmask(a)),
        S_ABS_I32 => scc32!(|a, _| (a as i32).unsigned_abs()),
        S_BITREPLICATE_B64_B32 => {
            let a = a32();
            let r = (0..32).fold(0u64, |r, i| r | (u64::from(a >> i & 1) * 3) << (2 * i));
            w.write_s64(d, r);
        }
        S_MOVRELS_B32 | S_MOVRELS_B64 | S_MOVRELD_B32 | S_MOVRELD_B64 => {
            let m0 = w.s[crate::wave::M0] as usize;
            let wide = matches!(x.inst.op, S_MOVRELS_B64 | S_MOVRELD_B64);
            let (from, to) = match (x.inst.op, x.src[0]) {
                (S_MOVRELS_B32 | S_MOVRELS_B64, crate::exec::operand::Src::S(s)) => {
                    (usize::from(s) + m0, usize::from(d))
                }
                (S_MOVRELD_B32 | S_MOVRELD_B64, _) => (usize::MAX, usize::from(d) + m0),
                // A constant source has no register number to offset: it moves as it is.
                _ => (usize::MAX, usize::from(d)),
            };
            let v = if from == usize::MAX {
                w.read64(x.src[0])
            } else {
                w.s64(from.min(127))
            };
            if to < 128 {
                if wide {
                    w.set_s64(to, v);
                } else {
                    w.s[to] = v as u32;
                }
            }
        }
        // SOPC
        S_CMP_EQ_I32 | S_CMP_EQ_U32 => cmp!(u32, |a, b| a == b),
        S_CMP_LG_I32 | S_CMP_LG_U32 => cmp!(u32, |a, b| a != b),
        S_CMP_GT_I32 => cmp!(i32, |a, b| a > b),
        S_CMP_GE_I32 => cmp!(i32, |a, b| a >= b),
        S_CMP_LT_I32 => cmp!(i32, |a, b| a < b),
        S_CMP_LE_I32 => cmp!(i32, |a, b| a <= b),
        S_CMP_GT_U32 => cmp!(u32, |a, b| a > b),
        S_CMP_GE_U32 => cmp!(u32, |a, b| a >= b),
        S_CMP_LT_U32 => cmp!(u32, |a, b| a < b),
        S_CMP_LE_U32 => cmp!(u32, |a, b| a <= b),
        S_CMP_EQ_U64 => w.scc = w.read64(x.src[0]) == w.read64(x.src[1]),
        S_CMP_LG_U64 => w.scc = w.read64(x.src[0]) != w.read64(x.src[1]),
        S_BITCMP0_B32 => w.scc = a32() >> (w.read32(x.src[1]) & 31) & 1 == 0,
        S_BITCMP1_B32 => w.scc = a32() >> (w.read32(x.src[1]) & 31) & 1 == 1,
        S_BITCMP0_B64 => w.scc = w.read64(x.src[0]) >> (w.read32(x.src[1]) & 63) & 1 == 0,
        S_BITCMP1_B64 => w.scc = w.read64(x.src[0]) >> (w.read32(x.src[1]) & 63) & 1 == 1,
        _ => return super::sopk::exec(w, x),
    }
    Some(Flow::Next)
}
