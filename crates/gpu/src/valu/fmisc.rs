//! Float min/max/med3 with the IEEE-mode NaN rules, rounding to integral values, fract, frexp
//! and ldexp, for f16/f32/f64 bit patterns.

use super::float_env::{Env, Fmt};
use super::round::{round_to, to_f64};

/// Orders two non-NaN values with -0 below +0. True when `x < y`.
#[inline(always)]
fn less(fmt: Fmt, x: u64, y: u64) -> bool {
    let (a, b) = (to_f64(fmt, x), to_f64(fmt, y));
    a < b || (a == b && fmt.is_neg(x) && !fmt.is_neg(y))
}

/// NaN handling shared by min and max (ISA: in IEEE mode a signalling NaN input gives that NaN
/// quieted; otherwise a NaN input yields the other operand). `None` when neither is NaN.
#[inline(always)]
fn minmax_nan(fmt: Fmt, x: u64, y: u64, env: &Env) -> Option<u64> {
    if env.ieee && fmt.is_snan(x) {
        Some(fmt.quiet(x))
    } else if env.ieee && fmt.is_snan(y) {
        Some(fmt.quiet(y))
    } else if fmt.is_nan(x) {
        Some(if fmt.is_nan(y) { fmt.quiet(y) } else { y })
    } else if fmt.is_nan(y) {
        Some(x)
    } else {
        None
    }
}

/// `v_min_*`.
#[inline(always)]
pub fn min(fmt: Fmt, x: u64, y: u64, env: &Env) -> u64 {
    let (x, y) = (fmt.flush_in(x, env), fmt.flush_in(y, env));
    if let Some(r) = minmax_nan(fmt, x, y, env) {
        return r;
    }
    fmt.flush_out(if less(fmt, y, x) { y } else { x }, env)
}

/// `v_max_*`.
#[inline(always)]
pub fn max(fmt: Fmt, x: u64, y: u64, env: &Env) -> u64 {
    let (x, y) = (fmt.flush_in(x, env), fmt.flush_in(y, env));
    if let Some(r) = minmax_nan(fmt, x, y, env) {
        return r;
    }
    fmt.flush_out(if less(fmt, x, y) { y } else { x }, env)
}

/// `v_med3_*`: with any NaN input, min3; else the middle value (ISA pseudo-code).
#[inline(always)]
pub fn med3(fmt: Fmt, x: u64, y: u64, z: u64, env: &Env) -> u64 {
    let (x, y, z) = (
        fmt.flush_in(x, env),
        fmt.flush_in(y, env),
        fmt.flush_in(z, env),
    );
    if fmt.is_nan(x) || fmt.is_nan(y) || fmt.is_nan(z) {
        return min(fmt, min(fmt, x, y, env), z, env);
    }
    let m = max(fmt, max(fmt, x, y, env), z, env);
    if m == x {
        max(fmt, y, z, env)
    } else if m == y {
        max(fmt, x, z, env)
    } else {
        max(fmt, x, y, env)
    }
}

/// How [`round_int`] rounds to an integral value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntRound {
    /// Toward zero.
    Trunc,
    /// Toward +infinity.
    Ceil,
    /// Toward -infinity.
    Floor,
    /// To nearest, ties to even.
    Rndne,
}

/// `v_trunc/ceil/floor/rndne_*`: the integral value, sign of zero kept (exact in every format).
#[inline(always)]
pub fn round_int(fmt: Fmt, x: u64, how: IntRound, env: &Env) -> u64 {
    let x = fmt.flush_in(x, env);
    if fmt.is_nan(x) {
        return fmt.quiet(x);
    }
    let v = to_f64(fmt, x);
    let r = match how {
        IntRound::Trunc => v.trunc(),
        IntRound::Ceil => v.ceil(),
        IntRound::Floor => v.floor(),
        IntRound::Rndne => v.round_ties_even(),
    };
    // Keep the sign of zero results (ceil(-0.5) = -0).
    let r = if r == 0.0 { f64::copysign(0.0, v) } else { r };
    from_f64_exact(fmt, r)
}

/// Bits of `v` in `fmt` when `v` is exactly representable there.
#[inline(always)]
fn from_f64_exact(fmt: Fmt, v: f64) -> u64 {
    match fmt.width {
        64 => v.to_bits(),
        32 => (v as f32).to_bits() as u64,
        _ => round_to(fmt, v, 0.0, super::float_env::Round::NearestEven),
    }
}

/// `v_fract_*`: `x - floor(x)`, at most the largest value below 1; NaN for infinities.
#[inline(always)]
pub fn fract(fmt: Fmt, x: u64, env: &Env) -> u64 {
    let x = fmt.flush_in(x, env);
    if fmt.is_nan(x) {
        return fmt.quiet(x);
    }
    if fmt.is_inf(x) {
        return fmt.default_nan();
    }
    let v = to_f64(fmt, x);
    let below_one = fmt.one() - 1;
    let r = if fmt.width == 64 {
        (v - v.floor()).to_bits()
    } else {
        // Exact in f64 for f16/f32 inputs, then one rounding to the format.
        round_to(fmt, v - v.floor(), 0.0, env.round)
    };
    fmt.flush_out(
        if !fmt.is_neg(r) && r > below_one {
            below_one
        } else {
            r
        },
        env,
    )
}

/// Unbiased exponent e and mantissa bits such that |x| = 1.m * 2^e (denormals normalized).
#[inline(always)]
fn exponent(fmt: Fmt, x: u64) -> i32 {
    let e = ((x & fmt.exp_mask()) >> fmt.mant) as i32;
    if e != 0 {
        e - fmt.bias()
    } else {
        let m = x & fmt.mant_mask();
        (63 - m.leading_zeros() as i32) - fmt.mant as i32 + 1 - fmt.bias()
    }
}

/// `v_frexp_mant_*`: the mantissa in [0.5, 1) with x's sign; ±0, ±inf and NaN (quieted) pass.
#[inline(always)]
pub fn frexp_mant(fmt: Fmt, x: u64, env: &Env) -> u64 {
    let x = fmt.flush_in(x, env);
    if fmt.is_nan(x) {
        return fmt.quiet(x);
    }
    if fmt.is_inf(x) || fmt.is_zero(x) {
        return x;
    }
    let e = exponent(fmt, x);
    super::round::ldexp_bits(
        fmt,
        x,
        -e - 1,
        &Env {
            denorm: super::float_env::Denorm::KEEP,
            ..*env
        },
    )
}

/// `v_frexp_exp_*`: the exponent e with x = m * 2^e, m in [0.5, 1); 0 for ±0, ±inf and NaN.
/// Returned as a sign-extended integer (callers mask to i16/i32).
#[inline(always)]
pub fn frexp_exp(fmt: Fmt, x: u64, env: &Env) -> i64 {
    let x = fmt.flush_in(x, env);
    if fmt.is_nan(x) || fmt.is_inf(x) || fmt.is_zero(x) {
        return 0;
    }
    exponent(fmt, x) as i64 + 1
}

/// Which result of the cube-map ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cube {
    /// Face id 0..5.
    Id,
    /// S coordinate.
    Sc,
    /// T coordinate.
    Tc,
    /// Twice the major axis value.
    Ma,
}

/// `v_cube{id,sc,tc,ma}_f32` of the direction (x, y, z): the major axis is z when |z| is the
/// largest (ties favour z, then y), the face id is 2·axis + (negative), and sc/tc are the other
/// two coordinates with the signs of the cube-map convention.
#[inline(always)]
pub fn cube(fmt: Fmt, which: Cube, x: u64, y: u64, z: u64, env: &Env) -> u64 {
    let (a, b, c) = (to_f64(fmt, x), to_f64(fmt, y), to_f64(fmt, z));
    let neg = |v: u64| v ^ fmt.sign();
    let (id, sc, tc, ma) = if c.abs() >= a.abs() && c.abs() >= b.abs() {
        if c < 0.0 {
            (5, neg(x), neg(y), z)
        } else {
            (4, x, neg(y), z)
        }
    } else if b.abs() >= a.abs() {
        if b < 0.0 {
            (3, x, neg(z), y)
        } else {
            (2, x, z, y)
        }
    } else if a < 0.0 {
        (1, z, neg(y), x)
    } else {
        (0, neg(z), neg(y), x)
    };
    match which {
        Cube::Id => (id as f32).to_bits() as u64,
        Cube::Sc => sc,
        Cube::Tc => tc,
        Cube::Ma => super::farith::add(fmt, ma, ma, env),
    }
}
