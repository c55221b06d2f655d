//! Correct rounding in every MODE rounding mode.
//!
//! f16 and f32 results are computed as an exact pair `s + t` of f64 values (error-free
//! transformations) and rounded once to the target format, so all four rounding modes and
//! denormal results are exact. f64 results come from the host's round-to-nearest-even operation
//! plus the sign of its exact error, which is enough to step to the directed-rounding result.

use super::float_env::{Env, Fmt, Round, F64};

/// Exact sum: `a + b == s + e` with `s = fl(a + b)` (Knuth's TwoSum; no overflow assumed).
#[inline(always)]
pub fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// Exact product: `a * b == p + e` (no overflow or underflow assumed).
#[inline(always)]
pub fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

/// Widens an f16/f32/f64 bit pattern to f64 (exact).
#[inline(always)]
pub fn to_f64(fmt: Fmt, x: u64) -> f64 {
    match fmt.width {
        64 => f64::from_bits(x),
        32 => f32::from_bits(x as u32) as f64,
        _ => f16_to_f64(x as u16),
    }
}

/// Widens IEEE half bits to f64 (exact).
#[inline(always)]
pub fn f16_to_f64(h: u16) -> f64 {
    let sign = ((h as u64) & 0x8000) << 48;
    let e = ((h >> 10) & 0x1f) as u64;
    let m = (h & 0x3ff) as u64;
    let bits = if e == 0x1f {
        sign | 0x7ff0_0000_0000_0000 | m << 42
    } else if e != 0 {
        sign | (e + 1008) << 52 | m << 42
    } else if m == 0 {
        sign
    } else {
        // Denormal: value m * 2^-24, exact in f64.
        let v = m as f64 * f64::from_bits(0x3e70_0000_0000_0000);
        return if sign != 0 { -v } else { v };
    };
    f64::from_bits(bits)
}

/// Where the exact value lies between `n` and `n + 1` units of the target grid.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Frac {
    Exact,
    Below,
    Half,
    Above,
}

/// Rounds the exact value `s + t` (|t| below half an f64 ulp of `s`) to format `fmt` (f16 or
/// f32) in mode `round`. Overflow gives infinity or the largest finite value as IEEE says;
/// denormal results are produced (callers flush them if the mode says so).
#[inline]
pub fn round_to(fmt: Fmt, s: f64, t: f64, round: Round) -> u64 {
    if fmt.width == 32 && round == Round::NearestEven && s.is_finite() {
        // Make s round-to-odd with the sign of t, then let the host round once to f32: exact
        // because f64 carries more than 24 + 2 bits.
        let bits = s.to_bits();
        let odd = if t != 0.0 && bits & 1 == 0 && s != 0.0 {
            if (t > 0.0) == (s > 0.0) {
                bits + 1
            } else {
                bits - 1
            }
        } else {
            bits
        };
        if s != 0.0 || t == 0.0 {
            return (f64::from_bits(odd) as f32).to_bits() as u64;
        }
    }
    if fmt.width == 16 && round == Round::NearestEven {
        if let Some(h) = round_f16_nearest(s, t) {
            return h;
        }
    }
    round_slow(fmt, s, t, round)
}

/// Nearest-even rounding of `s + t` to f16 through f32: first round-to-odd at f32 precision
/// (exact information kept in the sticky last bit), then a bit-level f32 → f16 rounding;
/// correct because f32 has more than 11 + 2 bits. `None` for zero, NaN and |s| >= 65504
/// (left to the general path).
#[inline]
fn round_f16_nearest(s: f64, t: f64) -> Option<u64> {
    let a = s.abs();
    if a.is_nan() || a >= 65504.0 || s == 0.0 {
        return None;
    }
    let r = s as f32;
    if r == 0.0 {
        // Far below half the smallest f16 denormal.
        return Some(if s < 0.0 { 0x8000 } else { 0 });
    }
    let rd = r as f64;
    let bits = if rd == s && t == 0.0 {
        r.to_bits()
    } else {
        // Magnitude of r above the exact value: step one f32 ulp toward zero (truncation).
        let above = if rd == s {
            (t > 0.0) != (s > 0.0)
        } else {
            rd.abs() > a
        };
        (r.to_bits() - above as u32) | 1
    };
    Some(f32_to_f16_nearest(bits) as u64)
}

/// f32 bits (finite, |x| < 65520) to f16 bits, nearest-even.
#[inline]
fn f32_to_f16_nearest(x: u32) -> u16 {
    let sign = (x >> 16) as u16 & 0x8000;
    let a = x & 0x7fff_ffff;
    if a >= 0x3880_0000 {
        // Normal half: rebias the exponent (127 - 15 = 112) and round the 13 dropped bits.
        let v = a - (112 << 23);
        return sign | ((v + 0xfff + ((v >> 13) & 1)) >> 13) as u16;
    }
    // Denormal half: count units of 2^-24 (exact scaling), ties to even.
    let n = (f32::from_bits(a) * 16_777_216.0).round_ties_even() as u16;
    sign | n
}

/// The general path of [`round_to`]: integer rounding of the f64 significand.
fn round_slow(fmt: Fmt, s: f64, t: f64, round: Round) -> u64 {
    if s.is_nan() {
        return fmt.default_nan();
    }
    let neg = s.is_sign_negative();
    let sign = if neg { fmt.sign() } else { 0 };
    if s.is_infinite() {
        return sign | fmt.inf();
    }
    if s == 0.0 {
        return if t == 0.0 {
            sign
        } else {
            round_to(fmt, t, 0.0, round)
        };
    }
    let b = s.to_bits();
    let be = ((b >> 52) & 0x7ff) as i32;
    // |s| = m * 2^e2 and 2^k <= |s| < 2^(k+1).
    let (m, e2) = if be == 0 {
        (b & ((1 << 52) - 1), -1074)
    } else {
        ((b & ((1 << 52) - 1)) | 1 << 52, be - 1075)
    };
    let k = 63 - m.leading_zeros() as i32 + e2;
    let p = fmt.mant as i32 + 1;
    let grid_e = (k + fmt.bias()).max(1);
    let ulp_exp = grid_e - fmt.bias() - (p - 1);
    let shift = ulp_exp - e2;
    let t_up = t != 0.0 && t.is_sign_negative() == neg;
    let t_down = t != 0.0 && !t_up;
    let (mut n, frac) = if shift >= 64 {
        (0u64, Frac::Below)
    } else if shift <= 0 {
        // Never for f16/f32 targets; kept total for safety.
        (
            m << (-shift).min(63),
            if t == 0.0 { Frac::Exact } else { Frac::Below },
        )
    } else {
        let n = m >> shift;
        let rem = m & ((1u64 << shift) - 1);
        let half = 1u64 << (shift - 1);
        if rem == 0 {
            if t_up {
                (n, Frac::Below)
            } else if t_down {
                (n - 1, Frac::Above)
            } else {
                (n, Frac::Exact)
            }
        } else if rem < half {
            (n, Frac::Below)
        } else if rem == half {
            (
                n,
                if t_up {
                    Frac::Above
                } else if t_down {
                    Frac::Below
                } else {
                    Frac::Half
                },
            )
        } else {
            (n, Frac::Above)
        }
    };
    let inexact = frac != Frac::Exact;
    let away = match round {
        Round::NearestEven => frac == Frac::Above || (frac == Frac::Half && n & 1 == 1),
        Round::Zero => false,
        Round::PlusInf => inexact && !neg,
        Round::MinusInf => inexact && neg,
    };
    n += away as u64;
    let bits = (((grid_e - 1) as u64) << (p - 1)) + n;
    if bits >= fmt.inf() {
        return sign | overflow_bits(fmt, neg, round);
    }
    sign | bits
}

/// Magnitude bits of an overflowed result: infinity when rounding away from zero in the
/// result's direction, the largest finite value otherwise.
#[inline]
fn overflow_bits(fmt: Fmt, neg: bool, round: Round) -> u64 {
    let to_inf = match round {
        Round::NearestEven => true,
        Round::Zero => false,
        Round::PlusInf => !neg,
        Round::MinusInf => neg,
    };
    if to_inf {
        fmt.inf()
    } else {
        fmt.inf() - 1
    }
}

/// The next f64 toward +infinity.
#[inline]
pub fn next_up(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f64::from_bits(1);
    }
    let b = x.to_bits();
    f64::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}

/// The next f64 toward -infinity.
#[inline]
pub fn next_down(x: f64) -> f64 {
    -next_up(-x)
}

/// Turns the round-to-nearest-even f64 result `r` into the result of mode `round`, given the
/// exact error `err = exact - r` (only its sign matters). `finite_in` says whether the exact
/// value is finite (an infinite `r` is then an overflow).
#[inline]
pub fn directed_f64(r: f64, err: f64, round: Round, finite_in: bool) -> f64 {
    if round == Round::NearestEven || r.is_nan() {
        return r;
    }
    if r.is_infinite() {
        if !finite_in {
            return r;
        }
        let neg = r < 0.0;
        let m = f64::from_bits(overflow_bits(F64, neg, round));
        return if neg { -m } else { m };
    }
    if err == 0.0 || err.is_nan() {
        return r;
    }
    let up = err > 0.0;
    match round {
        Round::PlusInf if up => next_up(r),
        Round::MinusInf if !up => next_down(r),
        Round::Zero if r > 0.0 && !up => next_down(r),
        Round::Zero if r < 0.0 && up => next_up(r),
        _ => r,
    }
}

/// 2^k as an f64 for |k| <= 1023.
#[inline]
fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// `x * 2^k` in format `fmt` with the rounding and denormal flushing of `env` (NaN quieted).
pub fn ldexp_bits(fmt: Fmt, x: u64, k: i32, env: &Env) -> u64 {
    let x = fmt.flush_in(x, env);
    if fmt.is_nan(x) {
        return fmt.quiet(x);
    }
    if fmt.is_inf(x) || fmt.is_zero(x) {
        return x;
    }
    if fmt.width == 64 {
        let mut v = f64::from_bits(x);
        let mut k = k.clamp(-2200, 2200);
        while k != 0 {
            let step = k.clamp(-1022, 1023);
            v *= pow2(step);
            k -= step;
        }
        return fmt.flush_out(v.to_bits(), env);
    }
    let v = to_f64(fmt, x) * pow2(k.clamp(-400, 400));
    fmt.flush_out(round_to(fmt, v, 0.0, env.round), env)
}
