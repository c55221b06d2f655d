//! Conversions between integers, f16, f32 and f64, the normalized (snorm/unorm) forms, and the
//! packing ops (`v_cvt_pkrtz_f16_f32`, `v_cvt_pk_*`, `v_pack_b32_f16`, `v_sat_pk_u8_i16`).

use super::float_env::{output_mods, Env, Fmt, Round, SrcMods, F16, F32, F64};
use super::lanes::{map1, map2, map3};
use super::round::{round_to, to_f64};
use super::{VopInputs, VopOutputs};

/// Conversion ops; names read `<to><from>` like the mnemonics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum CvtOp {
    F32I32,
    F32U32,
    I32F32,
    U32F32,
    RpiI32F32,
    FlrI32F32,
    OffF32I4,
    F16F32,
    F32F16,
    F32F64,
    F64F32,
    I32F64,
    U32F64,
    F64I32,
    F64U32,
    /// Byte n of the source, as f32.
    F32Ubyte(u8),
    F16U16,
    F16I16,
    U16F16,
    I16F16,
    NormI16F16,
    NormU16F16,
    PkrtzF16F32,
    PknormI16F32,
    PknormU16F32,
    PknormI16F16,
    PknormU16F16,
    PkU16U32,
    PkI16I32,
    PkU8F32,
    PackB32F16,
    SatPkU8I16,
}

impl CvtOp {
    /// (number of sources, source type, destination type).
    pub fn shape(self) -> (u8, super::Ty, super::Ty) {
        use super::Ty::*;
        use CvtOp::*;
        match self {
            F32I32 | F32U32 | OffF32I4 | F32Ubyte(_) => (1, U32, F32),
            I32F32 | U32F32 | RpiI32F32 | FlrI32F32 => (1, F32, U32),
            F16F32 => (1, F32, F16),
            F32F16 => (1, F16, F32),
            F32F64 => (1, F64, F32),
            F64F32 => (1, F32, F64),
            I32F64 | U32F64 => (1, F64, U32),
            F64I32 | F64U32 => (1, U32, F64),
            F16U16 | F16I16 => (1, U16, F16),
            U16F16 | I16F16 | NormI16F16 | NormU16F16 => (1, F16, U16),
            PkrtzF16F32 => (2, F32, PkF16),
            PknormI16F32 | PknormU16F32 => (2, F32, PkU16),
            PknormI16F16 | PknormU16F16 => (2, F16, PkU16),
            PkU16U32 | PkI16I32 => (2, U32, PkU16),
            PkU8F32 => (3, F32, U32),
            PackB32F16 => (2, F16, PkF16),
            SatPkU8I16 => (1, PkU16, U32),
        }
    }
}

/// Rounds an exactly known value to f32 or f16 bits with the mode of the destination.
#[inline(always)]
fn to_float(fmt: Fmt, v: f64, env: &Env) -> u64 {
    if fmt.width == 64 {
        return v.to_bits();
    }
    fmt.flush_out(round_to(fmt, v, 0.0, env.round), env)
}

/// A NaN converted between formats: sign, quiet bit and the top payload bits kept.
#[inline(always)]
fn convert_nan(from: Fmt, to: Fmt, x: u64) -> u64 {
    let sign = if from.is_neg(x) { to.sign() } else { 0 };
    let payload = x & from.mant_mask();
    let p = if to.mant >= from.mant {
        payload << (to.mant - from.mant)
    } else {
        payload >> (from.mant - to.mant)
    };
    sign | to.exp_mask() | to.quiet_bit() | p
}

/// Float (bits of `from`) to float `to`, rounded in `to`'s mode.
#[inline(always)]
fn float_to_float(from: Fmt, to: Fmt, x: u64, ein: &Env, eout: &Env) -> u64 {
    let x = from.flush_in(x, ein);
    if from.is_nan(x) {
        return convert_nan(from, to, x);
    }
    let v = to_f64(from, x);
    if to.width == 64 {
        return to.flush_out(v.to_bits(), eout);
    }
    if to.width == 32 && from.width == 64 && eout.round == Round::NearestEven {
        return to.flush_out((v as f32).to_bits() as u64, eout);
    }
    to_float(to, v, eout)
}

/// Float to integer in [lo, hi] after rounding with `how` (NaN gives 0).
#[inline(always)]
fn float_to_int(v: f64, how: fn(f64) -> f64, lo: f64, hi: f64) -> i64 {
    if v.is_nan() {
        0
    } else {
        how(v).clamp(lo, hi) as i64
    }
}

/// Normalized conversion: clamp to [-1, 1] (signed) or [0, 1], scale, round to nearest even.
#[inline(always)]
fn norm(v: f64, signed: bool) -> u64 {
    if v.is_nan() {
        return 0;
    }
    if signed {
        ((v.clamp(-1.0, 1.0) * 32767.0).round_ties_even() as i64 as u64) & 0xffff
    } else {
        (v.clamp(0.0, 1.0) * 65535.0).round_ties_even() as u64
    }
}

/// Runs a conversion.
pub fn exec(op: CvtOp, inp: &VopInputs, out: &mut VopOutputs) -> bool {
    use CvtOp::*;
    let m = inp.mode;
    let (e16, e32, e64) = (m.env(F16), m.env(F32), m.env(F64));
    let (_, src_ty, dst_ty) = op.shape();
    let sfmt = match src_ty {
        super::Ty::F16 => F16,
        super::Ty::F64 => F64,
        _ => F32,
    };
    let mods = SrcMods::new(inp.abs, inp.neg, [sfmt; 3]);
    let sh: [u32; 3] = std::array::from_fn(|i| 16 * (inp.op_sel as u32 >> i & 1));
    // Float source i of one lane, with op_sel (f16), abs/neg and input denormal flushing.
    let fsrc = |i: usize, x: u64| -> f64 {
        let env = m.env(sfmt);
        let x = if sfmt.width == 16 {
            (x >> sh[i]) & 0xffff
        } else {
            x & sfmt.all()
        };
        to_f64(sfmt, sfmt.flush_in(mods.get(i, x), &env))
    };
    let s = &inp.src;
    let d = &mut out.dst;
    let w = |v: i64| v as u64 & 0xffff_ffff;
    let (i32r, u32r) = ((i32::MIN as f64, i32::MAX as f64), (0.0, u32::MAX as f64));
    let (i16r, u16r) = ((i16::MIN as f64, i16::MAX as f64), (0.0, u16::MAX as f64));
    match op {
        F32I32 => map1(d, &s[0], |a| to_float(F32, a as u32 as i32 as f64, &e32)),
        F32U32 => map1(d, &s[0], |a| to_float(F32, a as u32 as f64, &e32)),
        I32F32 => map1(d, &s[0], |a| {
            w(float_to_int(fsrc(0, a), f64::trunc, i32r.0, i32r.1))
        }),
        U32F32 => map1(d, &s[0], |a| {
            w(float_to_int(fsrc(0, a), f64::trunc, u32r.0, u32r.1))
        }),
        RpiI32F32 => map1(d, &s[0], |a| {
            w(float_to_int(
                fsrc(0, a),
                |v| (v + 0.5).floor(),
                i32r.0,
                i32r.1,
            ))
        }),
        FlrI32F32 => map1(d, &s[0], |a| {
            w(float_to_int(fsrc(0, a), f64::floor, i32r.0, i32r.1))
        }),
        OffF32I4 => map1(d, &s[0], |a| {
            (((a as i32) << 28 >> 28) as f32 / 16.0).to_bits() as u64
        }),
        I32F64 => map1(d, &s[0], |a| {
            w(float_to_int(fsrc(0, a), f64::trunc, i32r.0, i32r.1))
        }),
        U32F64 => map1(d, &s[0], |a| {
            w(float_to_int(fsrc(0, a), f64::trunc, u32r.0, u32r.1))
        }),
        F64I32 => map1(d, &s[0], |a| (a as u32 as i32 as f64).to_bits()),
        F64U32 => map1(d, &s[0], |a| (a as u32 as f64).to_bits()),
        F32Ubyte(n) => map1(d, &s[0], |a| {
            (((a >> (8 * n)) & 0xff) as f32).to_bits() as u64
        }),
        F16F32 | F32F16 | F32F64 | F64F32 => {
            let (from, to, ein, eout) = match op {
                F16F32 => (F32, F16, &e32, &e16),
                F32F16 => (F16, F32, &e16, &e32),
                F32F64 => (F64, F32, &e64, &e32),
                _ => (F32, F64, &e32, &e64),
            };
            let sh0 = if from.width == 16 { sh[0] } else { 0 };
            map1(d, &s[0], |a| {
                let x = mods.get(0, (a >> sh0) & from.all());
                float_to_float(from, to, x, ein, eout)
            });
            if inp.clamp || inp.omod != 0 {
                output_mods(d, to, inp.omod, inp.clamp, m.dx10_clamp, &m.env(to));
            }
            if to.width == 16 && inp.op_sel & 8 != 0 {
                out.dst_half = super::DstHalf::HiKeepLo;
            }
        }
        F16U16 => map1(d, &s[0], |a| to_float(F16, (a & 0xffff) as f64, &e16)),
        F16I16 => map1(d, &s[0], |a| to_float(F16, a as u16 as i16 as f64, &e16)),
        U16F16 => map1(d, &s[0], |a| {
            float_to_int(fsrc(0, a), f64::trunc, u16r.0, u16r.1) as u64
        }),
        I16F16 => map1(d, &s[0], |a| {
            float_to_int(fsrc(0, a), f64::trunc, i16r.0, i16r.1) as u64 & 0xffff
        }),
        NormI16F16 => map1(d, &s[0], |a| norm(fsrc(0, a), true)),
        NormU16F16 => map1(d, &s[0], |a| norm(fsrc(0, a), false)),
        PkrtzF16F32 => {
            let rtz = Env {
                round: Round::Zero,
                ..e16
            };
            map2(d, &s[0], &s[1], |a, b| {
                let lo = float_to_float(F32, F16, mods.get(0, a & 0xffff_ffff), &e32, &rtz);
                let hi = float_to_float(F32, F16, mods.get(1, b & 0xffff_ffff), &e32, &rtz);
                lo | hi << 16
            })
        }
        PknormI16F32 | PknormI16F16 => map2(d, &s[0], &s[1], |a, b| {
            norm(fsrc(0, a), true) | norm(fsrc(1, b), true) << 16
        }),
        PknormU16F32 | PknormU16F16 => map2(d, &s[0], &s[1], |a, b| {
            norm(fsrc(0, a), false) | norm(fsrc(1, b), false) << 16
        }),
        PkU16U32 => map2(d, &s[0], &s[1], |a, b| {
            (a as u32).min(0xffff) as u64 | ((b as u32).min(0xffff) as u64) << 16
        }),
        PkI16I32 => map2(d, &s[0], &s[1], |a, b| {
            let c = |v: u64| ((v as u32 as i32).clamp(-32768, 32767) as u64) & 0xffff;
            c(a) | c(b) << 16
        }),
        PkU8F32 => map3(d, s, |a, b, c| {
            let sh = 8 * (b & 3);
            let v = fsrc(0, a);
            let byte = if v.is_nan() {
                0
            } else {
                v.round_ties_even().clamp(0.0, 255.0) as u64
            };
            (c as u32 as u64 & !(0xff << sh)) | byte << sh
        }),
        PackB32F16 => map2(d, &s[0], &s[1], |a, b| {
            let lo = mods.get(0, (a >> sh[0]) & 0xffff);
            let hi = mods.get(1, (b >> sh[1]) & 0xffff);
            lo | hi << 16
        }),
        SatPkU8I16 => map1(d, &s[0], |a| {
            let c = |v: u64| (v as u16 as i16).clamp(0, 255) as u64;
            c(a) | c(a >> 16) << 8
        }),
    }
    let float_dst = matches!(dst_ty, super::Ty::F32) && !matches!(op, F32F64 | F32F16);
    if float_dst && (inp.clamp || inp.omod != 0) {
        output_mods(d, F32, inp.omod, inp.clamp, m.dx10_clamp, &e32);
    }
    true
}
