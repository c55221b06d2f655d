//! The division helpers LLVM's fdiv expansion uses: `v_div_scale` (pre-scales numerator or
//! denominator away from the denormal/overflow range and flags it in VCC), `v_div_fmas` (fma,
//! scaled back when VCC is set) and `v_div_fixup` (special cases and the final sign).
//! Semantics follow the ISA pseudo-code; S0, S1, S2 are src0..src2.

use super::float_env::{output_mods, Denorm, Env, Fmt, SrcMods, F16, F32, F64};
use super::fops::FTy;
use super::lanes::{map3, map3_mask};
use super::round::{ldexp_bits, next_down, next_up, round_to, to_f64, two_prod, two_sum};
use super::{VopInputs, VopOutputs};

/// Division helper ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum DivOp {
    /// `v_div_scale_*`: writes a mask (VCC / SDST).
    Scale,
    /// `v_div_fmas_*`: reads VCC as [`VopInputs::mask_in`].
    Fmas,
    Fixup,
    /// gfx9 `v_div_fixup_f16` (op_sel form): keeps the other 16 bits of the dst.
    FixupKeep16,
    /// `v_trig_preop_f64` (f64 only; src1 is the segment index).
    TrigPreop,
}

/// Biased exponent field.
#[inline(always)]
fn bexp(fmt: Fmt, x: u64) -> i32 {
    ((x & fmt.exp_mask()) >> fmt.mant) as i32
}

/// Format-specific constants of div_scale: (scale exponent, exponent-gap limit, tiny exponent).
fn scale_consts(fmt: Fmt) -> (i32, i32, i32) {
    if fmt.width == 64 {
        (128, 768, 53)
    } else {
        (64, 96, 23)
    }
}

/// True when |v| is nonzero and below the smallest normal of `fmt`.
#[inline(always)]
fn tiny(fmt: Fmt, v: f64) -> bool {
    let min_normal = f64::from_bits(((1023 + 1 - fmt.bias()) as u64) << 52);
    v != 0.0 && v.abs() < min_normal
}

/// One lane of div_scale: (result, vcc).
#[inline(always)]
fn div_scale(fmt: Fmt, s0: u64, s1: u64, s2: u64, env: &Env) -> (u64, bool) {
    let (s0, s1, s2) = (
        fmt.flush_in(s0, env),
        fmt.flush_in(s1, env),
        fmt.flush_in(s2, env),
    );
    let exact = Env {
        denorm: Denorm::KEEP,
        ..*env
    };
    let (k, gap, small) = scale_consts(fmt);
    let up = |x: u64| ldexp_bits(fmt, x, k, &exact);
    let (d, n) = (to_f64(fmt, s1), to_f64(fmt, s2));
    if fmt.is_zero(s1) || fmt.is_zero(s2) {
        return (fmt.default_nan(), false);
    }
    if bexp(fmt, s2) - bexp(fmt, s1) >= gap {
        return (if s0 == s1 { up(s0) } else { s0 }, true);
    }
    if fmt.is_denorm(s1) {
        return (up(s0), false);
    }
    let (rcp_tiny, quot_tiny) = (tiny(fmt, 1.0 / d), tiny(fmt, n / d));
    if rcp_tiny && quot_tiny {
        // Huge denominator, tiny quotient: scale the denominator down (scaling it up, as one
        // reading of the ISA text has it, would overflow); div_fmas scales the quotient back.
        return (
            if s0 == s1 {
                ldexp_bits(fmt, s0, -k, &exact)
            } else {
                s0
            },
            true,
        );
    }
    if rcp_tiny {
        return (ldexp_bits(fmt, s0, -k, &exact), false);
    }
    if quot_tiny {
        return (if s0 == s2 { up(s0) } else { s0 }, true);
    }
    if bexp(fmt, s2) <= small {
        return (up(s0), false);
    }
    (s0, false)
}

/// One lane of div_fmas: fma(s0, s1, s2), and when `vcc` is set, scaled back by the factor
/// div_scale applied: 2^64 (f32) or 2^128 (f64), upward when the accumulator s2 is at least 2
/// (the denominator was scaled up), downward otherwise (the numerator was scaled up). The ISA
/// text says 2^32; the direction rule is what hardware does (tinygrad's RDNA3 emulator notes
/// the same). The scaled exact value is rounded once.
#[inline(always)]
fn div_fmas(fmt: Fmt, s0: u64, s1: u64, s2: u64, vcc: bool, env: &Env) -> u64 {
    if !vcc {
        return super::farith::fma(fmt, s0, s1, s2, env);
    }
    let k = if fmt.width == 64 { 128 } else { 64 };
    let k = if bexp(fmt, s2) > fmt.bias() { k } else { -k };
    let (s0, s1, s2) = (
        fmt.flush_in(s0, env),
        fmt.flush_in(s1, env),
        fmt.flush_in(s2, env),
    );
    if fmt.is_nan(s0) || fmt.is_nan(s1) || fmt.is_nan(s2) {
        return fmt.nan_of(&[s0, s1, s2]);
    }
    let (a, b, c) = (to_f64(fmt, s0), to_f64(fmt, s1), to_f64(fmt, s2));
    let scale = f64::from_bits(((1023 + k) as u64) << 52);
    if fmt.width == 64 {
        let hi = a.mul_add(b, c);
        if hi.is_nan() {
            return fmt.default_nan();
        }
        let lo = if hi.is_finite() {
            let (p, pe) = two_prod(a, b);
            let (s, se) = two_sum(p, c);
            (s - hi) + se + pe
        } else {
            0.0
        };
        return fmt.flush_out(scale_f64(hi, lo, scale).to_bits(), env);
    }
    let p = a * b;
    if (p + c).is_nan() {
        return fmt.default_nan();
    }
    let (s, t) = two_sum(p, c);
    fmt.flush_out(round_to(fmt, s * scale, t * scale, env.round), env)
}

/// `(hi + lo) * scale` rounded once to nearest even, where `hi` is an f64 result, `lo` its
/// rounding error and `scale` a power of two. Only a result in the subnormal range rounds; a
/// tie there is broken by the sign of `lo`.
#[inline(always)]
fn scale_f64(hi: f64, lo: f64, scale: f64) -> f64 {
    let v = hi * scale;
    if !v.is_subnormal() && v != 0.0 || lo == 0.0 {
        return v;
    }
    let d = hi - v / scale;
    let half = f64::from_bits(1) / scale / 2.0;
    if d.abs() == half && (d > 0.0) == (lo > 0.0) {
        return if d > 0.0 { next_up(v) } else { next_down(v) };
    }
    v
}

/// One lane of div_fixup: s0 = quotient estimate, s1 = denominator, s2 = numerator.
#[inline(always)]
fn div_fixup(fmt: Fmt, s0: u64, s1: u64, s2: u64, env: &Env) -> u64 {
    let (s0, s1, s2) = (
        fmt.flush_in(s0, env),
        fmt.flush_in(s1, env),
        fmt.flush_in(s2, env),
    );
    let sign = (s1 ^ s2) & fmt.sign();
    if fmt.is_nan(s2) {
        return fmt.quiet(s2);
    }
    if fmt.is_nan(s1) {
        return fmt.quiet(s1);
    }
    let (z1, z2, i1, i2) = (
        fmt.is_zero(s1),
        fmt.is_zero(s2),
        fmt.is_inf(s1),
        fmt.is_inf(s2),
    );
    if (z1 && z2) || (i1 && i2) {
        // 0/0 and inf/inf: the ISA returns a NaN with the sign bit set.
        return fmt.default_nan() | fmt.sign();
    }
    if z1 || i2 {
        return sign | fmt.inf();
    }
    if i1 || z2 {
        return sign;
    }
    let gap = bexp(fmt, s2) - bexp(fmt, s1);
    if gap < -(fmt.bias() + fmt.mant as i32 + 1) {
        return sign;
    }
    // A NaN estimate with ordinary operands means the scaled quotient overflowed.
    if fmt.is_nan(s0) {
        return sign | fmt.inf();
    }
    sign | (s0 & !fmt.sign())
}

/// Runs a division helper (or trig_preop) in format `ty`.
pub fn exec(op: DivOp, ty: FTy, inp: &VopInputs, out: &mut VopOutputs) -> bool {
    let fmt = match ty {
        FTy::F16 => F16,
        FTy::F32 => F32,
        FTy::F64 => F64,
    };
    let env = inp.mode.env(fmt);
    let m = SrcMods::new(inp.abs, inp.neg, [fmt; 3]);
    let sh: [u32; 3] = std::array::from_fn(|i| {
        if fmt.width == 16 {
            16 * (inp.op_sel as u32 >> i & 1)
        } else {
            0
        }
    });
    let g = |i: usize, x: u64| m.get(i, (x >> sh[i]) & fmt.all());
    let d = &mut out.dst;
    match op {
        DivOp::Scale => {
            out.mask = map3_mask(d, &inp.src, 0, |a, b, c, _| {
                div_scale(fmt, g(0, a), g(1, b), g(2, c), &env)
            })
        }
        DivOp::Fmas => {
            map3_mask(d, &inp.src, inp.mask_in, |a, b, c, v| {
                (div_fmas(fmt, g(0, a), g(1, b), g(2, c), v, &env), false)
            });
        }
        DivOp::Fixup | DivOp::FixupKeep16 => map3(d, &inp.src, |a, b, c| {
            div_fixup(fmt, g(0, a), g(1, b), g(2, c), &env)
        }),
        DivOp::TrigPreop => {
            let sel = inp.src[1];
            for ((dv, &x), &k) in d.iter_mut().zip(&inp.src[0]).zip(&sel) {
                *dv = super::trig_preop::trig_preop(g(0, x), k);
            }
        }
    }
    if op != DivOp::Scale && (inp.clamp || inp.omod != 0) {
        output_mods(d, fmt, inp.omod, inp.clamp, inp.mode.dx10_clamp, &env);
    }
    out.dst_half = super::fops::half16(fmt, inp, op == DivOp::FixupKeep16);
    true
}
