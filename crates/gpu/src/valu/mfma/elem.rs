//! Matrix element formats and their exact values.
//!
//! Every input format of the matrix cores (f64, f32, tf32, f16, bf16, and gfx940's fp8/bf8 in
//! their "fnuz" forms: no infinities, one NaN at 0x80, no negative zero) is decoded to an exact
//! `±m · 2^(e − p)` with `m < 2^(p+1)`: `m / 2^p` is the significand in [0, 2) and `e` the
//! exponent as the fused-sum model counts it (denormals keep the format's minimum exponent;
//! zeros count as exponent −126 whatever the format).

/// An element format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    F64,
    F32,
    /// f32 read as tf32: the low 13 mantissa bits are dropped (truncated) first.
    Xf32,
    F16,
    Bf16,
    /// E4M3 fnuz (bias 8).
    Fp8,
    /// E5M2 fnuz (bias 16).
    Bf8,
    I8,
}

impl Elem {
    /// Bits one element occupies in a register.
    pub const fn bits(self) -> u32 {
        match self {
            Elem::F64 => 64,
            Elem::F32 | Elem::Xf32 => 32,
            Elem::F16 | Elem::Bf16 => 16,
            Elem::Fp8 | Elem::Bf8 | Elem::I8 => 8,
        }
    }

    /// (exponent bits, fraction bits, bias, fnuz).
    const fn layout(self) -> (u32, u32, i32, bool) {
        match self {
            Elem::F64 => (11, 52, 1023, false),
            Elem::F32 | Elem::Xf32 => (8, 23, 127, false),
            Elem::F16 => (5, 10, 15, false),
            Elem::Bf16 => (8, 7, 127, false),
            Elem::Fp8 => (4, 3, 8, true),
            Elem::Bf8 => (5, 2, 16, true),
            Elem::I8 => (0, 0, 0, false),
        }
    }

    /// Fraction bits `p`.
    pub const fn frac_bits(self) -> u32 {
        self.layout().1
    }

    /// Smallest normal exponent.
    pub const fn min_exp(self) -> i32 {
        1 - self.layout().2
    }
}

/// An element's value, exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Val {
    /// `±m · 2^(e − p)`; `m == 0` is a zero (whose `e` is −126).
    Num {
        neg: bool,
        m: u64,
        e: i32,
    },
    Inf {
        neg: bool,
    },
    Nan,
}

/// Decodes the element bits `x` (in the low `fmt.bits()` bits).
pub fn decode(fmt: Elem, x: u64) -> Val {
    let (eb, p, bias, fnuz) = fmt.layout();
    let x = if fmt == Elem::Xf32 { x & !0x1fff } else { x };
    let w = eb + p + 1;
    let neg = x >> (w - 1) & 1 != 0;
    let ef = (x >> p) & ((1 << eb) - 1);
    let f = x & ((1u64 << p) - 1);
    if fnuz && neg && ef == 0 && f == 0 {
        return Val::Nan;
    }
    if !fnuz && ef == (1 << eb) - 1 {
        return if f == 0 { Val::Inf { neg } } else { Val::Nan };
    }
    if ef == 0 {
        if f == 0 {
            return Val::Num { neg, m: 0, e: -126 };
        }
        return Val::Num {
            neg,
            m: f,
            e: 1 - bias,
        };
    }
    Val::Num {
        neg,
        m: f | 1 << p,
        e: ef as i32 - bias,
    }
}

/// The element as an f64 (exact for every format here).
pub fn to_f64(fmt: Elem, x: u64) -> f64 {
    match decode(fmt, x) {
        Val::Nan => f64::NAN,
        Val::Inf { neg } => {
            if neg {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        }
        Val::Num { neg, m, e } => {
            let v = m as f64 * pow2(e - fmt.frac_bits() as i32);
            if neg {
                -v
            } else {
                v
            }
        }
    }
}

/// 2^k as an f64 (k within the f64 range of normal numbers and denormals).
pub fn pow2(k: i32) -> f64 {
    if k >= -1022 {
        f64::from_bits(((k + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (k + 1074))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_decode_exactly() {
        assert_eq!(to_f64(Elem::F16, 0x3c00), 1.0);
        assert_eq!(to_f64(Elem::F16, 0x0001), 2f64.powi(-24));
        assert_eq!(to_f64(Elem::Bf16, 0xc040), -3.0);
        assert_eq!(to_f64(Elem::Xf32, 0x3f80_1fff), 1.0);
        // fnuz: 0x80 is the NaN, the top exponent is a number.
        assert!(to_f64(Elem::Fp8, 0x80).is_nan());
        assert_eq!(to_f64(Elem::Fp8, 0x7f), 240.0);
        assert_eq!(to_f64(Elem::Fp8, 0x08), 2f64.powi(-7));
        assert_eq!(to_f64(Elem::Fp8, 0x01), 2f64.powi(-10));
        assert_eq!(to_f64(Elem::Bf8, 0x7f), 57344.0);
        assert_eq!(to_f64(Elem::Bf8, 0x04), 2f64.powi(-15));
        assert_eq!(
            decode(Elem::F32, 0x8000_0000),
            Val::Num {
                neg: true,
                m: 0,
                e: -126
            }
        );
        assert_eq!(decode(Elem::F16, 0x7c00), Val::Inf { neg: false });
    }
}
