//! Exact references for `cl_convert`: number formats, directed rounding to half/float/double,
//! saturation.

use super::host_ref::{f16_to_f64, f64_to_f16};

/// Rounding of a conversion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rm {
    Rte,
    Rtz,
    Rtp,
    Rtn,
}

/// A number format: integers (signed?, bytes) or floats (bytes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ty {
    Int(bool, u32),
    Float(u32),
}

impl Ty {
    pub fn cl(self) -> &'static str {
        match self {
            Ty::Int(true, 1) => "char",
            Ty::Int(false, 1) => "uchar",
            Ty::Int(true, 2) => "short",
            Ty::Int(false, 2) => "ushort",
            Ty::Int(true, 4) => "int",
            Ty::Int(false, 4) => "uint",
            Ty::Int(true, _) => "long",
            Ty::Int(false, _) => "ulong",
            Ty::Float(2) => "half",
            Ty::Float(4) => "float",
            Ty::Float(_) => "double",
        }
    }
    pub fn bytes(self) -> u32 {
        match self {
            Ty::Int(_, b) | Ty::Float(b) => b,
        }
    }
    fn int_range(self) -> (i128, i128) {
        match self {
            Ty::Int(true, b) => (-(1i128 << (8 * b - 1)), (1i128 << (8 * b - 1)) - 1),
            Ty::Int(false, b) => (0, (1i128 << (8 * b)) - 1),
            Ty::Float(_) => unreachable!(),
        }
    }
    /// The value of bits `v` (floats as f64; integers sign- or zero-extended, as f64 only when
    /// exact — integer sources use [`Ty::int_value`]).
    fn float_value(self, v: u64) -> f64 {
        match self {
            Ty::Float(2) => f16_to_f64(v as u16),
            Ty::Float(4) => f64::from(f32::from_bits(v as u32)),
            Ty::Float(_) => f64::from_bits(v),
            Ty::Int(..) => unreachable!(),
        }
    }
    fn int_value(self, v: u64) -> i128 {
        match self {
            Ty::Int(true, b) => {
                let s = 64 - 8 * b;
                i128::from((v << s) as i64 >> s)
            }
            Ty::Int(false, _) => i128::from(v),
            Ty::Float(_) => unreachable!(),
        }
    }
}

/// The result of rounding by `rm`, given how the exact value compares with the nearest float
/// `rne` and the candidates `lo`/`hi` below and above it.
fn pick(x_cmp: std::cmp::Ordering, neg: bool, lo: u64, hi: u64, rne: u64, rm: Rm) -> u64 {
    use std::cmp::Ordering::*;
    if x_cmp == Equal {
        return rne;
    }
    match rm {
        Rm::Rte => rne,
        Rm::Rtp => hi,
        Rm::Rtn => lo,
        Rm::Rtz if neg => hi,
        Rm::Rtz => lo,
    }
}

/// Bits of the next float above (`up`) or below `b` in a format of `bytes` (sign-magnitude
/// encoding: the magnitude steps by one).
fn step(b: u64, up: bool, bytes: u32) -> u64 {
    let sign = 1u64 << (8 * bytes - 1);
    let (neg, mag) = (b & sign != 0, b & (sign - 1));
    match (mag == 0, up, neg) {
        (true, true, _) => 1,
        (true, false, _) => sign | 1,
        (false, true, false) | (false, false, true) => b + 1,
        (false, true, true) | (false, false, false) => b - 1,
    }
}

/// Rounds the exact value `x` (an integer or a double) to float format `bytes` with `rm`.
fn round_to_float(exact: Exact, bytes: u32, rm: Rm) -> u64 {
    let rne = match (exact, bytes) {
        (Exact::I(v), 2) => u64::from(f64_to_f16(v as f64)),
        (Exact::I(v), 4) => u64::from((v as f32).to_bits()),
        (Exact::I(v), _) => (v as f64).to_bits(),
        (Exact::F(x), 2) => u64::from(f64_to_f16(x)),
        (Exact::F(x), 4) => u64::from((x as f32).to_bits()),
        (Exact::F(x), _) => x.to_bits(),
    };
    let back = Ty::Float(bytes).float_value(rne);
    let finite = match exact {
        Exact::I(_) => true,
        Exact::F(x) => x.is_finite(),
    };
    if back.is_infinite() && finite && rm != Rm::Rte {
        // Directed modes round overflow to the largest finite number when rounding inward.
        let toward_zero = match rm {
            Rm::Rtz => true,
            Rm::Rtp => back < 0.0,
            Rm::Rtn => back > 0.0,
            Rm::Rte => false,
        };
        return if toward_zero { rne - 1 } else { rne };
    }
    let ord = match exact {
        Exact::I(v) => v.cmp(&(back as i128)),
        Exact::F(x) => x.partial_cmp(&back).unwrap(),
    };
    let neg = back < 0.0 || (back == 0.0 && exact.negative());
    let (lo, hi) = match ord {
        std::cmp::Ordering::Less => (step(rne, false, bytes), rne),
        _ => (rne, step(rne, true, bytes)),
    };
    pick(ord, neg, lo, hi, rne, rm)
}

#[derive(Clone, Copy)]
enum Exact {
    I(i128),
    F(f64),
}

impl Exact {
    fn negative(self) -> bool {
        match self {
            Exact::I(v) => v < 0,
            Exact::F(x) => x.is_sign_negative(),
        }
    }
}

/// The expected result bits of `convert_<to>[_sat]_<rm>(x)`, or `None` where OpenCL leaves it
/// undefined (out-of-range non-saturating float-to-integer conversions).
pub fn expect(from: Ty, to: Ty, sat: bool, rm: Rm, x: u64) -> Option<u64> {
    let mask = if to.bytes() == 8 {
        u64::MAX
    } else {
        (1u64 << (8 * to.bytes())) - 1
    };
    match (from, to) {
        (Ty::Float(_), Ty::Int(..)) => {
            let v = from.float_value(x);
            let (lo, hi) = to.int_range();
            if v.is_nan() {
                // OpenCL says 0, but the library lowers _sat to maxnum/minnum, which drop
                // the NaN (LLVM folds convert_char_sat_rtp(NaN) to -128 and
                // convert_int_sat_rte((half)NaN) to 0xffff0020): not compared.
                return None;
            }
            let r = match rm {
                Rm::Rte => v.round_ties_even(),
                Rm::Rtz => v.trunc(),
                Rm::Rtp => v.ceil(),
                Rm::Rtn => v.floor(),
            };
            let in_range = r >= lo as f64 && r <= hi as f64;
            if !in_range && !sat {
                return None;
            }
            let i = if r < lo as f64 {
                lo
            } else if r > hi as f64 {
                hi
            } else {
                r as i128
            };
            Some(i as u64 & mask)
        }
        (Ty::Int(..), Ty::Int(..)) => {
            let v = from.int_value(x);
            let (lo, hi) = to.int_range();
            let v = if sat { v.clamp(lo, hi) } else { v };
            Some(v as u64 & mask)
        }
        (Ty::Int(..), Ty::Float(b)) => Some(round_to_float(Exact::I(from.int_value(x)), b, rm)),
        (Ty::Float(_), Ty::Float(b)) => {
            let v = from.float_value(x);
            if v.is_nan() {
                return Some(u64::MAX); // stands for any NaN
            }
            Some(round_to_float(Exact::F(v), b, rm))
        }
    }
}

pub fn is_nan(t: Ty, v: u64) -> bool {
    matches!(t, Ty::Float(_)) && t.float_value(v).is_nan()
}
