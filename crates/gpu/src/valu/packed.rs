//! VOP3P: packed 16-bit math, mad_mix/fma_mix and the gfx906 dot products.
//!
//! Packed operand selection: the low result reads half `op_sel[i]` of source i, the high result
//! half `op_sel_hi[i]`; `neg` (neg_lo) and `neg_hi` negate the f16 halves. For mix ops,
//! `op_sel_hi[i]` says source i is f16 (then `op_sel[i]` picks its half) rather than f32, and
//! `neg_hi[i]` acts as abs.

use super::farith::{add, fma, mad, mul};
use super::float_env::{output_mods, Env, Fmt, Round, F16, F32};
use super::fmisc::{max, min};
use super::lanes::map3;
use super::round::{round_to, to_f64, two_sum};
use super::{DstHalf, VopInputs, VopOutputs};

/// VOP3P ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum PkOp {
    AddF16,
    MulF16,
    FmaF16,
    MinF16,
    MaxF16,
    AddU16,
    AddI16,
    SubU16,
    SubI16,
    MulLoU16,
    MadU16,
    MadI16,
    MinU16,
    MinI16,
    MaxU16,
    MaxI16,
    LshlrevB16,
    LshrrevB16,
    AshrrevI16,
    MixF32 { fused: bool },
    MixLoF16 { fused: bool },
    MixHiF16 { fused: bool },
    Dot2F32F16,
    Dot2I32I16,
    Dot2U32U16,
    Dot4I32I8,
    Dot4U32U8,
    Dot8I32I4,
    Dot8U32U4,
}

impl PkOp {
    /// Number of sources.
    pub fn num_src(self) -> u8 {
        use PkOp::*;
        match self {
            FmaF16 | MadU16 | MadI16 | MixF32 { .. } | MixLoF16 { .. } | MixHiF16 { .. } => 3,
            Dot2F32F16 | Dot2I32I16 | Dot2U32U16 | Dot4I32I8 | Dot4U32U8 | Dot8I32I4
            | Dot8U32U4 => 3,
            _ => 2,
        }
    }
}

/// The (lo, hi) operands of source i for packed ops.
#[derive(Clone, Copy)]
struct Halves {
    lo_sh: [u32; 3],
    hi_sh: [u32; 3],
    lo_neg: [u64; 3],
    hi_neg: [u64; 3],
}

impl Halves {
    fn new(inp: &VopInputs, float: bool) -> Self {
        Self::with(inp.op_sel, inp.op_sel_hi, inp.neg, inp.neg_hi, float)
    }
    fn with(op_sel: u8, op_sel_hi: u8, neg: u8, neg_hi: u8, float: bool) -> Self {
        let bit = |m: u8, i: usize| m >> i & 1 != 0;
        let f = |m: u8, i: usize| if float && bit(m, i) { 0x8000 } else { 0 };
        Halves {
            lo_sh: std::array::from_fn(|i| if bit(op_sel, i) { 16 } else { 0 }),
            hi_sh: std::array::from_fn(|i| if bit(op_sel_hi, i) { 16 } else { 0 }),
            lo_neg: std::array::from_fn(|i| f(neg, i)),
            hi_neg: std::array::from_fn(|i| f(neg_hi, i)),
        }
    }
    #[inline(always)]
    fn lo(&self, i: usize, x: u64) -> u64 {
        ((x >> self.lo_sh[i]) & 0xffff) ^ self.lo_neg[i]
    }
    #[inline(always)]
    fn hi(&self, i: usize, x: u64) -> u64 {
        ((x >> self.hi_sh[i]) & 0xffff) ^ self.hi_neg[i]
    }
}

/// Applies a per-half function to the lo and hi operand triples and packs the results.
#[inline(always)]
fn packed(inp: &VopInputs, out: &mut VopOutputs, float: bool, f: impl Fn(u64, u64, u64) -> u64) {
    let h = Halves::new(inp, float);
    map3(&mut out.dst, &inp.src, |a, b, c| {
        let lo = f(h.lo(0, a), h.lo(1, b), h.lo(2, c)) & 0xffff;
        let hi = f(h.hi(0, a), h.hi(1, b), h.hi(2, c)) & 0xffff;
        lo | hi << 16
    });
}

/// One mix-op source: f32, or the selected f16 half widened (exactly) to f32 bits.
#[inline(always)]
fn mix_src(inp: &VopInputs, i: usize, x: u64, env16: &Env) -> u64 {
    let is_f16 = inp.op_sel_hi >> i & 1 != 0;
    let mut v = if is_f16 {
        let h = F16.flush_in((x >> (16 * (inp.op_sel >> i & 1) as u32)) & 0xffff, env16);
        if F16.is_nan(h) {
            0x7f80_0000 | (h & 0x8000) << 16 | (h & 0x3ff) << 13 | 0x40_0000
        } else {
            (to_f64(F16, h) as f32).to_bits() as u64
        }
    } else {
        x & 0xffff_ffff
    };
    if inp.neg_hi >> i & 1 != 0 {
        v &= !F32.sign();
    }
    if inp.neg >> i & 1 != 0 {
        v ^= F32.sign();
    }
    v
}

/// Saturates an integer dot product under clamp, else wraps to 32 bits.
#[inline(always)]
fn dot_fin(v: i64, signed: bool, clamp: bool) -> u64 {
    let v = match (clamp, signed) {
        (true, true) => v.clamp(i32::MIN as i64, i32::MAX as i64),
        (true, false) => v.clamp(0, u32::MAX as i64),
        _ => v,
    };
    v as u64 & 0xffff_ffff
}

/// Sum over `n` fields of `bits` bits each of a·b, plus c (signed or unsigned fields).
#[inline(always)]
fn dot_int(a: u64, b: u64, c: u64, n: u32, bits: u32, signed: bool) -> i64 {
    let field = |x: u64, k: u32| {
        let v = (x >> (k * bits)) & ((1 << bits) - 1);
        if signed {
            ((v << (64 - bits)) as i64) >> (64 - bits)
        } else {
            v as i64
        }
    };
    let acc = if signed {
        c as u32 as i32 as i64
    } else {
        c as u32 as i64
    };
    (0..n).fold(acc, |s, k| s + field(a, k) * field(b, k))
}

/// Runs a VOP3P op.
pub fn exec(op: PkOp, inp: &VopInputs, out: &mut VopOutputs) -> bool {
    use PkOp::*;
    let m = inp.mode;
    let (e16, e32) = (m.env(F16), m.env(F32));
    let e = &e16;
    let cl = inp.clamp;
    let sat = move |v: i64, signed: bool| -> u64 {
        let v = match (cl, signed) {
            (true, false) => v.clamp(0, 0xffff),
            (true, true) => v.clamp(i16::MIN as i64, i16::MAX as i64),
            _ => v,
        };
        v as u64
    };
    let si = |x: u64| x as u16 as i16 as i64;
    let ui = |x: u64| x as i64;
    match op {
        AddF16 => packed(inp, out, true, |a, b, _| add(F16, a, b, e)),
        MulF16 => packed(inp, out, true, |a, b, _| mul(F16, a, b, e)),
        FmaF16 => packed(inp, out, true, |a, b, c| fma(F16, a, b, c, e)),
        MinF16 => packed(inp, out, true, |a, b, _| min(F16, a, b, e)),
        MaxF16 => packed(inp, out, true, |a, b, _| max(F16, a, b, e)),
        AddU16 => packed(inp, out, false, |a, b, _| sat(ui(a) + ui(b), false)),
        AddI16 => packed(inp, out, false, |a, b, _| sat(si(a) + si(b), true)),
        SubU16 => packed(inp, out, false, |a, b, _| sat(ui(a) - ui(b), false)),
        SubI16 => packed(inp, out, false, |a, b, _| sat(si(a) - si(b), true)),
        MulLoU16 => packed(inp, out, false, |a, b, _| a * b),
        MadU16 => packed(inp, out, false, |a, b, c| sat(ui(a) * ui(b) + ui(c), false)),
        MadI16 => packed(inp, out, false, |a, b, c| sat(si(a) * si(b) + si(c), true)),
        MinU16 => packed(inp, out, false, |a, b, _| a.min(b)),
        MaxU16 => packed(inp, out, false, |a, b, _| a.max(b)),
        MinI16 => packed(inp, out, false, |a, b, _| si(a).min(si(b)) as u64),
        MaxI16 => packed(inp, out, false, |a, b, _| si(a).max(si(b)) as u64),
        LshlrevB16 => packed(inp, out, false, |a, b, _| b << (a & 15)),
        LshrrevB16 => packed(inp, out, false, |a, b, _| b >> (a & 15)),
        AshrrevI16 => packed(inp, out, false, |a, b, _| (si(b) >> (a & 15)) as u64),
        MixF32 { fused } | MixLoF16 { fused } | MixHiF16 { fused } => {
            map3(&mut out.dst, &inp.src, |a, b, c| {
                let (x, y, z) = (
                    mix_src(inp, 0, a, e),
                    mix_src(inp, 1, b, e),
                    mix_src(inp, 2, c, e),
                );
                if fused {
                    fma(F32, x, y, z, &e32)
                } else {
                    mad(F32, x, y, z, &e32)
                }
            });
            if cl {
                output_mods(&mut out.dst, F32, 0, true, m.dx10_clamp, &e32);
            }
            if !matches!(op, MixF32 { .. }) {
                for v in out.dst.iter_mut() {
                    *v = f32_to_f16(*v, &e16);
                }
                out.dst_half = if matches!(op, MixLoF16 { .. }) {
                    DstHalf::LoKeepHi
                } else {
                    DstHalf::HiKeepLo
                };
            }
        }
        Dot2F32F16 => {
            // Dot products take the halves in natural order.
            let h = Halves::with(0, 0b111, inp.neg, inp.neg_hi, true);
            map3(&mut out.dst, &inp.src, |a, b, c| {
                let f = |x: u64| to_f64(F16, F16.flush_in(x, e));
                let p0 = f(h.lo(0, a)) * f(h.lo(1, b));
                let p1 = f(h.hi(0, a)) * f(h.hi(1, b));
                let cz = F32.flush_in(
                    (c & 0xffff_ffff) ^ if inp.neg & 4 != 0 { F32.sign() } else { 0 },
                    &e32,
                );
                dot2_f32(p0, p1, cz, &e32)
            });
            if cl {
                output_mods(&mut out.dst, F32, 0, true, m.dx10_clamp, &e32);
            }
        }
        Dot2I32I16 => map3(&mut out.dst, &inp.src, |a, b, c| {
            dot_fin(dot_int(a, b, c, 2, 16, true), true, cl)
        }),
        Dot2U32U16 => map3(&mut out.dst, &inp.src, |a, b, c| {
            dot_fin(dot_int(a, b, c, 2, 16, false), false, cl)
        }),
        Dot4I32I8 => map3(&mut out.dst, &inp.src, |a, b, c| {
            dot_fin(dot_int(a, b, c, 4, 8, true), true, cl)
        }),
        Dot4U32U8 => map3(&mut out.dst, &inp.src, |a, b, c| {
            dot_fin(dot_int(a, b, c, 4, 8, false), false, cl)
        }),
        Dot8I32I4 => map3(&mut out.dst, &inp.src, |a, b, c| {
            dot_fin(dot_int(a, b, c, 8, 4, true), true, cl)
        }),
        Dot8U32U4 => map3(&mut out.dst, &inp.src, |a, b, c| {
            dot_fin(dot_int(a, b, c, 8, 4, false), false, cl)
        }),
    }
    if matches!(op, AddF16 | MulF16 | FmaF16 | MinF16 | MaxF16) && cl {
        clamp_halves(out, F16, m.dx10_clamp, e);
    }
    true
}

/// p0 + p1 + c (f16 products exact in f64, c an f32) rounded once to f32.
#[inline(always)]
fn dot2_f32(p0: f64, p1: f64, c: u64, env: &Env) -> u64 {
    if F32.is_nan(c) {
        return F32.quiet(c);
    }
    let cv = to_f64(F32, c);
    let r = p0 + p1 + cv;
    if r.is_nan() {
        return F32.default_nan();
    }
    if r.is_infinite() {
        return F32.flush_out(round_to(F32, r, 0.0, env.round), env);
    }
    let (s1, t1) = two_sum(p0, p1);
    let (s2, t2) = two_sum(s1, cv);
    let (s, t) = two_sum(s2, t1 + t2);
    if s == 0.0 && t == 0.0 {
        return if env.round == Round::MinusInf {
            F32.sign()
        } else {
            0
        };
    }
    F32.flush_out(round_to(F32, s, t, env.round), env)
}

/// f32 bits to f16 bits in the f16 rounding mode.
#[inline(always)]
fn f32_to_f16(x: u64, env: &Env) -> u64 {
    if F32.is_nan(x) {
        return (x >> 16 & 0x8000) | 0x7e00 | (x >> 13 & 0x1ff);
    }
    F16.flush_out(round_to(F16, to_f64(F32, x), 0.0, env.round), env)
}

/// Clamps both f16 halves of every lane to [0, 1].
fn clamp_halves(out: &mut VopOutputs, fmt: Fmt, dx10: bool, env: &Env) {
    let mut lo: [u64; 64] = std::array::from_fn(|l| out.dst[l] & 0xffff);
    let mut hi: [u64; 64] = std::array::from_fn(|l| out.dst[l] >> 16 & 0xffff);
    output_mods(&mut lo, fmt, 0, true, dx10, env);
    output_mods(&mut hi, fmt, 0, true, dx10, env);
    for (l, d) in out.dst.iter_mut().enumerate() {
        *d = lo[l] | hi[l] << 16;
    }
}
