//! Correctly rounded float add, multiply and fused multiply-add for f16, f32 and f64, in every
//! rounding mode and denormal mode. Every function takes and returns raw bits of format `fmt`
//! (modifiers already applied) and is meant to be inlined with a constant `fmt`.
//!
//! f32 in round-to-nearest-even uses the host's f32 operations (IEEE, exact). f16, and f32 in
//! the directed modes, go through an exact f64 pair and [`round_to`]. f64 uses the host's
//! operation plus the sign of its exact error for the directed modes.

use super::float_env::{Env, Fmt, Round};
use super::round::{directed_f64, round_to, to_f64, two_prod, two_sum};

/// Sign of an exact zero sum of `a` and `b` (IEEE 754 6.3): the common sign of two equal-sign
/// zeros, else +0 except when rounding toward -infinity.
#[inline(always)]
fn zero_sum_neg(a: f64, b: f64, round: Round) -> bool {
    if a == 0.0 && b == 0.0 && a.is_sign_negative() == b.is_sign_negative() {
        a.is_sign_negative()
    } else {
        round == Round::MinusInf
    }
}

/// Rounds an exact pair to `fmt` (f16/f32), then flushes a denormal result if the mode says so.
#[inline(always)]
fn finish_small(fmt: Fmt, s: f64, t: f64, env: &Env) -> u64 {
    fmt.flush_out(round_to(fmt, s, t, env.round), env)
}

/// `x + y`.
#[inline(always)]
pub fn add(fmt: Fmt, x: u64, y: u64, env: &Env) -> u64 {
    let x = fmt.flush_in(x, env);
    let y = fmt.flush_in(y, env);
    if fmt.is_nan(x) || fmt.is_nan(y) {
        return fmt.nan_of(&[x, y]);
    }
    if fmt.width == 32 && env.round == Round::NearestEven {
        let r = f32::from_bits(x as u32) + f32::from_bits(y as u32);
        if r.is_nan() {
            return fmt.default_nan();
        }
        return fmt.flush_out(r.to_bits() as u64, env);
    }
    let (a, b) = (to_f64(fmt, x), to_f64(fmt, y));
    let r = a + b;
    if r.is_nan() {
        return fmt.default_nan();
    }
    if fmt.width == 64 {
        let r = if env.round == Round::NearestEven {
            r
        } else {
            let (s, e) = two_sum(a, b);
            if s == 0.0 && e == 0.0 {
                if zero_sum_neg(a, b, env.round) {
                    -0.0
                } else {
                    0.0
                }
            } else {
                directed_f64(r, e, env.round, a.is_finite() && b.is_finite())
            }
        };
        return fmt.flush_out(r.to_bits(), env);
    }
    if r.is_infinite() {
        return finish_small(fmt, r, 0.0, env);
    }
    let (s, t) = two_sum(a, b);
    if s == 0.0 && t == 0.0 {
        return if zero_sum_neg(a, b, env.round) {
            fmt.sign()
        } else {
            0
        };
    }
    finish_small(fmt, s, t, env)
}

/// `x * y`.
#[inline(always)]
pub fn mul(fmt: Fmt, x: u64, y: u64, env: &Env) -> u64 {
    let x = fmt.flush_in(x, env);
    let y = fmt.flush_in(y, env);
    if fmt.is_nan(x) || fmt.is_nan(y) {
        return fmt.nan_of(&[x, y]);
    }
    if fmt.width == 32 && env.round == Round::NearestEven {
        let r = f32::from_bits(x as u32) * f32::from_bits(y as u32);
        if r.is_nan() {
            return fmt.default_nan();
        }
        return fmt.flush_out(r.to_bits() as u64, env);
    }
    let (a, b) = (to_f64(fmt, x), to_f64(fmt, y));
    let r = a * b;
    if r.is_nan() {
        return fmt.default_nan();
    }
    if fmt.width == 64 {
        let r = if env.round == Round::NearestEven || r == 0.0 || r.is_infinite() {
            directed_f64(r, 0.0, env.round, a.is_finite() && b.is_finite())
        } else {
            let (_, e) = two_prod(a, b);
            directed_f64(r, e, env.round, true)
        };
        return fmt.flush_out(r.to_bits(), env);
    }
    // f16/f32 products are exact in f64.
    finish_small(fmt, r, 0.0, env)
}

/// `x * y + z` with a single rounding.
#[inline(always)]
pub fn fma(fmt: Fmt, x: u64, y: u64, z: u64, env: &Env) -> u64 {
    let x = fmt.flush_in(x, env);
    let y = fmt.flush_in(y, env);
    let z = fmt.flush_in(z, env);
    if fmt.is_nan(x) || fmt.is_nan(y) || fmt.is_nan(z) {
        return fmt.nan_of(&[x, y, z]);
    }
    let (a, b, c) = (to_f64(fmt, x), to_f64(fmt, y), to_f64(fmt, z));
    if fmt.width == 64 {
        let r = a.mul_add(b, c);
        if r.is_nan() {
            return fmt.default_nan();
        }
        let r = if env.round == Round::NearestEven || !r.is_finite() {
            directed_f64(
                r,
                0.0,
                env.round,
                a.is_finite() && b.is_finite() && c.is_finite(),
            )
        } else {
            let (p, pe) = two_prod(a, b);
            let (s, se) = two_sum(p, c);
            if r == 0.0 && s == 0.0 && se == 0.0 && pe == 0.0 {
                if zero_sum_neg(p, c, env.round) {
                    -0.0
                } else {
                    0.0
                }
            } else {
                // exact - r = (s - r) + se + pe; s and r are within a few ulps, so s - r is
                // exact; the sign of the three-term sum is what directed rounding needs.
                let (hi, lo) = two_sum(s - r, se);
                directed_f64(r, hi + (lo + pe), env.round, true)
            }
        };
        return fmt.flush_out(r.to_bits(), env);
    }
    let p = a * b;
    let r = p + c;
    if r.is_nan() {
        return fmt.default_nan();
    }
    if fmt.width == 32 && env.round == Round::NearestEven {
        return fmt.flush_out(fma_f32_nearest(p, c, r).to_bits() as u64, env);
    }
    if r.is_infinite() {
        return finish_small(fmt, r, 0.0, env);
    }
    let (s, t) = two_sum(p, c);
    if s == 0.0 && t == 0.0 {
        return if zero_sum_neg(p, c, env.round) {
            fmt.sign()
        } else {
            0
        };
    }
    finish_small(fmt, s, t, env)
}

/// f32 fma in round-to-nearest-even from the exact product `p` of two f32 values, the addend
/// `c` and `r = p + c` (f64): `r` is first made round-to-odd with the exact error of the sum,
/// so the final rounding to f32 is correct (f64 carries more than 24 + 2 bits).
#[inline(always)]
fn fma_f32_nearest(p: f64, c: f64, r: f64) -> f32 {
    if !r.is_finite() {
        return r as f32;
    }
    let (_, e) = two_sum(p, c);
    let bits = r.to_bits();
    let odd = if e != 0.0 && bits & 1 == 0 {
        // Step one ulp toward the exact value (magnitude up when e has r's sign).
        if (e > 0.0) == (r > 0.0) {
            bits + 1
        } else {
            bits - 1
        }
    } else {
        bits
    };
    f64::from_bits(odd) as f32
}

/// `v_mad_*`/`v_mac_*`: `x * y` rounded, then `+ z` rounded. Denormals are always flushed
/// (the hardware's mad has no denormal support; compilers only use it in flush mode).
#[inline(always)]
pub fn mad(fmt: Fmt, x: u64, y: u64, z: u64, env: &Env) -> u64 {
    let flush = Env {
        denorm: super::float_env::Denorm::FLUSH,
        ..*env
    };
    add(fmt, mul(fmt, x, y, &flush), z, &flush)
}

/// `v_mul_legacy_f32`: like [`mul`] but 0 times anything (infinity and NaN included) is +0.
#[inline(always)]
pub fn mul_legacy(fmt: Fmt, x: u64, y: u64, env: &Env) -> u64 {
    let (fx, fy) = (fmt.flush_in(x, env), fmt.flush_in(y, env));
    if fmt.is_zero(fx) || fmt.is_zero(fy) {
        return 0;
    }
    mul(fmt, x, y, env)
}

/// `v_mad_legacy_f32`: [`mad`] whose product follows the legacy rule (0 times anything is +0).
#[inline(always)]
pub fn mad_legacy(fmt: Fmt, x: u64, y: u64, z: u64, env: &Env) -> u64 {
    let flush = Env {
        denorm: super::float_env::Denorm::FLUSH,
        ..*env
    };
    add(fmt, mul_legacy(fmt, x, y, &flush), z, &flush)
}
