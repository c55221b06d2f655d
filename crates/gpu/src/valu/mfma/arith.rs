//! How the matrix cores add up one output element: `D = Σ_k A[k]·B[k] + C`, bit-exact.
//!
//! The accumulation order and rounding are those MMA-Sim (Xie et al., "MMA-Sim: Bit-Accurate
//! Reference Model of Tensor Cores and Matrix Cores", arXiv 2511.10909) derived from and
//! validated against the hardware, per architecture and input type:
//! - f64 and f32 (all CDNA): a chain of fused multiply-adds in k order starting from C, each
//!   correctly rounded to nearest even, denormals kept.
//! - f16 and bf16 on CDNA1/CDNA2 (gfx908, gfx90a): groups of 4 products (bf16: 2; bf16_1k: 4),
//!   each product rounded to f32, summed as a balanced binary tree in f32, and the group sum
//!   added to the accumulator in f32 (all round to nearest even). CDNA2 flushes f16/bf16
//!   denormal inputs and f32 denormal C to +0, and every partial sum and accumulator that falls
//!   below 2^-126 to a signed zero (AMD documents MI200's flushing for these instructions).
//! - f16, bf16, xf32 and fp8/bf8 on CDNA3 (gfx940+): one fused step per group of products (8,
//!   or K if smaller; xf32: 4; fp8: 16): every product is exact; products are aligned to the
//!   largest product exponent and truncated to 24 fractional bits there, summed exactly, then
//!   the sum (floored to 31 fractional bits) and C (floored to 24) are aligned to their common
//!   exponent, added exactly and rounded once to f32, nearest even. fp8 sums its even and odd
//!   products separately first. xf32 truncates its f32 inputs to tf32 first.
//! - i8: exact products and sums, wrapping at 32 bits.
//!
//! NaN results are the default quiet NaN 0x7fc00000 (the hardware's payload rules are not
//! documented). Rounding ignores MODE: the matrix cores round to nearest even.

use super::elem::{decode, Elem, Val};

/// The accumulation scheme of one instruction on one architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Fused multiply-add chain in the output format (f32 or f64).
    FmaChain,
    /// CDNA1/CDNA2 f16/bf16: pairwise groups of `group` products in f32.
    Pairwise { group: usize, flush: bool },
    /// CDNA3: fused dot-and-add per `group` products.
    Fused { group: usize, fp8: bool },
    /// i8 dot product, wrapping i32.
    Int,
}

/// The default quiet NaN.
pub const QNAN: u32 = 0x7fc0_0000;

fn canon32(x: f32) -> u32 {
    if x.is_nan() {
        QNAN
    } else {
        x.to_bits()
    }
}

/// One output element: `c` is the accumulator's bits (f32/i32 in the low 32 bits, or f64),
/// `a[k]`, `b[k]` the element bits in formats `fa`, `fb`.
pub fn element(model: Model, fa: Elem, fb: Elem, a: &[u64], b: &[u64], c: u64) -> u64 {
    match model {
        Model::Int => {
            let s = a.iter().zip(b).fold(c as u32 as i32, |acc, (&x, &y)| {
                acc.wrapping_add(i32::from(x as u8 as i8) * i32::from(y as u8 as i8))
            });
            u64::from(s as u32)
        }
        Model::FmaChain if fa == Elem::F64 => {
            let r = a.iter().zip(b).fold(f64::from_bits(c), |acc, (&x, &y)| {
                f64::from_bits(x).mul_add(f64::from_bits(y), acc)
            });
            if r.is_nan() {
                0x7ff8_0000_0000_0000
            } else {
                r.to_bits()
            }
        }
        Model::FmaChain => {
            let r = a
                .iter()
                .zip(b)
                .fold(f32::from_bits(c as u32), |acc, (&x, &y)| {
                    f32::from_bits(x as u32).mul_add(f32::from_bits(y as u32), acc)
                });
            u64::from(canon32(r))
        }
        Model::Pairwise { group, flush } => {
            let input = |f: Elem, x: u64| -> f32 {
                let v = super::elem::to_f64(f, x) as f32;
                if flush && is_denormal(f, x) {
                    0.0
                } else {
                    v
                }
            };
            let mut acc = f32::from_bits(c as u32);
            if flush && acc.abs() < f32::MIN_POSITIVE {
                acc = 0.0;
            }
            let pa: Vec<f32> = a.iter().map(|&x| input(fa, x)).collect();
            let pb: Vec<f32> = b.iter().map(|&x| input(fb, x)).collect();
            for (ga, gb) in pa.chunks(group).zip(pb.chunks(group)) {
                acc += pairwise(ga, gb, flush);
                if flush {
                    acc = flush_keep_sign(acc);
                }
            }
            u64::from(canon32(acc))
        }
        Model::Fused { group, fp8 } => {
            let mut acc = c as u32;
            for (ga, gb) in a.chunks(group).zip(b.chunks(group)) {
                acc = fused(fa, fb, ga, gb, acc, fp8);
            }
            u64::from(acc)
        }
    }
}

fn is_denormal(f: Elem, x: u64) -> bool {
    matches!(decode(f, x), Val::Num { m, .. } if m != 0 && m >> f.frac_bits() == 0)
}

fn flush_keep_sign(x: f32) -> f32 {
    if x.abs() < f32::MIN_POSITIVE {
        x * 0.0
    } else {
        x
    }
}

/// Balanced pairwise sum of the products `a[i]·b[i]` in f32; each product is `fma(a, b, +0)`.
fn pairwise(a: &[f32], b: &[f32], flush: bool) -> f32 {
    let s = if a.len() == 1 {
        a[0].mul_add(b[0], 0.0)
    } else {
        let m = a.len() / 2;
        pairwise(&a[..m], &b[..m], flush) + pairwise(&a[m..], &b[m..], flush)
    };
    if flush {
        flush_keep_sign(s)
    } else {
        s
    }
}

/// A product's exact value: sign, integer significand `m` (the significand is `m / 2^p`),
/// and the exponent the fused model assigns it (sum of the factors' exponents).
struct Prod {
    neg: bool,
    m: u128,
    p: u32,
    e: i32,
}

/// Fraction bits the fused adder keeps per aligned product.
const FRAC: i32 = 24;

/// Truncating (toward zero) sum of products aligned to their largest exponent, in units of
/// 2^-FRAC at that exponent: (sum, exponent).
fn fused_sum(ps: &[&Prod]) -> (i64, i32) {
    let max_e = ps.iter().map(|p| p.e).max().unwrap_or(-126 * 2);
    let s = ps.iter().fold(0i64, |acc, p| {
        let sh = FRAC + p.e - max_e - p.p as i32;
        let t = if sh >= 0 {
            (p.m << sh.min(64)) as i64
        } else if -sh >= 128 {
            0
        } else {
            (p.m >> -sh) as i64
        };
        if p.neg {
            acc - t
        } else {
            acc + t
        }
    });
    (s, max_e)
}

/// `x · 2^k`, floored (k may be negative).
fn floor_shift(x: i64, k: i32) -> i64 {
    if k >= 0 {
        x << k.min(62)
    } else if -k >= 63 {
        if x < 0 {
            -1
        } else {
            0
        }
    } else {
        x >> -k
    }
}

/// NaN and infinity operands or products seen.
#[derive(Default)]
struct Specials {
    nan: bool,
    pinf: bool,
    ninf: bool,
}

impl Specials {
    fn note(&mut self, v: &Val) {
        match v {
            Val::Nan => self.nan = true,
            Val::Inf { neg: true } => self.ninf = true,
            Val::Inf { neg: false } => self.pinf = true,
            Val::Num { .. } => {}
        }
    }
}

/// One fused step: the group's products plus the f32 accumulator `c`, rounded to f32.
fn fused(fa: Elem, fb: Elem, a: &[u64], b: &[u64], c: u32, fp8: bool) -> u32 {
    let vc = decode(Elem::F32, u64::from(c));
    // Specials first, as an f64 evaluation of the sum would see them.
    let mut sp = Specials::default();
    sp.note(&vc);
    let mut prods = Vec::with_capacity(a.len());
    for (&x, &y) in a.iter().zip(b) {
        match (decode(fa, x), decode(fb, y)) {
            (Val::Nan, _) | (_, Val::Nan) => sp.nan = true,
            (Val::Inf { neg: n1 }, Val::Inf { neg: n2 }) => sp.note(&Val::Inf { neg: n1 != n2 }),
            (Val::Inf { neg }, Val::Num { neg: n2, m, .. })
            | (Val::Num { neg: n2, m, .. }, Val::Inf { neg }) => {
                if m == 0 {
                    sp.nan = true;
                } else {
                    sp.note(&Val::Inf { neg: neg != n2 });
                }
            }
            (
                Val::Num {
                    neg: n1,
                    m: m1,
                    e: e1,
                },
                Val::Num {
                    neg: n2,
                    m: m2,
                    e: e2,
                },
            ) => prods.push(Prod {
                neg: n1 != n2,
                m: u128::from(m1) * u128::from(m2),
                p: fa.frac_bits() + fb.frac_bits(),
                e: e1 + e2,
            }),
        }
    }
    let Specials { nan, pinf, ninf } = sp;
    if nan || (pinf && ninf) {
        return QNAN;
    }
    if pinf || ninf {
        return if pinf { 0x7f80_0000 } else { 0xff80_0000 };
    }
    // A product at or beyond 2^128 counts as an infinity of its sign.
    let (mut big_p, mut big_n) = (false, false);
    for p in &prods {
        let scale = p.e - p.p as i32; // value = m · 2^scale
        let lead = 127 - p.m.leading_zeros() as i32 + scale;
        if p.m != 0 && lead >= 128 {
            if p.neg {
                big_n = true;
            } else {
                big_p = true;
            }
        }
    }
    match (big_p, big_n) {
        (true, true) => return QNAN,
        (true, false) => return 0x7f80_0000,
        (false, true) => return 0xff80_0000,
        _ => {}
    }
    let (s, e) = if fp8 {
        let even: Vec<&Prod> = prods.iter().step_by(2).collect();
        let odd: Vec<&Prod> = prods.iter().skip(1).step_by(2).collect();
        let (s0, e0) = fused_sum(&even);
        let (s1, e1) = fused_sum(&odd);
        let e = e0.max(e1);
        (floor_shift(s0, e0 - e) + floor_shift(s1, e1 - e), e)
    } else {
        let all: Vec<&Prod> = prods.iter().collect();
        fused_sum(&all)
    };
    let Val::Num {
        neg: nc,
        m: mc,
        e: ec,
    } = vc
    else {
        return QNAN;
    };
    let max_e = e.max(ec);
    let s31 = floor_shift(s, 31 - FRAC + e - max_e);
    let signed_c = if nc { -(mc as i64) } else { mc as i64 };
    let c24 = if fp8 && ec < max_e - 25 {
        0
    } else {
        floor_shift(signed_c, FRAC - 23 + ec - max_e)
    };
    let total = s31 + (c24 << 7);
    round_f32(total < 0, total.unsigned_abs(), max_e - 31)
}

/// `±mag · 2^exp` rounded to the nearest f32 (ties to even), with denormals and overflow to
/// infinity. Zero is +0.
pub fn round_f32(neg: bool, mag: u64, exp: i32) -> u32 {
    if mag == 0 {
        return 0;
    }
    let sign = if neg { 0x8000_0000 } else { 0 };
    let lead = 63 - mag.leading_zeros() as i32 + exp;
    let mut ulp = (lead - 23).max(-149);
    let shift = ulp - exp;
    let mut q = if shift <= 0 {
        mag << (-shift).min(63)
    } else if shift >= 64 {
        // Below half the smallest denormal: rounds to zero.
        0
    } else {
        let q = mag >> shift;
        let rem = mag & ((1u64 << shift) - 1);
        let half = 1u64 << (shift - 1);
        if rem > half || (rem == half && q & 1 == 1) {
            q + 1
        } else {
            q
        }
    };
    if q == 1 << 24 {
        q >>= 1;
        ulp += 1;
    }
    if q < 1 << 23 {
        return sign | q as u32; // denormal (or zero), ulp is 2^-149
    }
    let biased = ulp + 23 + 127;
    if biased >= 255 {
        return sign | 0x7f80_0000;
    }
    sign | (biased as u32) << 23 | (q as u32 & 0x7f_ffff)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f32) -> u64 {
        u64::from(x.to_bits())
    }
    fn h(x: f32) -> u64 {
        // f32 → f16 for values exact in f16.
        let b = x.to_bits();
        if x == 0.0 {
            return u64::from(b >> 16 & 0x8000);
        }
        let e = (b >> 23 & 0xff) as i32 - 127 + 15;
        u64::from((b >> 16 & 0x8000) | (e as u32) << 10 | (b >> 13 & 0x3ff))
    }

    #[test]
    fn round_f32_matches_host_conversion() {
        for &(m, e) in &[
            (3u64, -1),
            (0x1ff_ffff, -1),
            (0x1ff_ffff, 100),
            (5, -151),
            (3, -150),
        ] {
            let want = (m as f64 * 2f64.powi(e)) as f32;
            assert_eq!(round_f32(false, m, e), want.to_bits(), "{m} 2^{e}");
        }
        assert_eq!(round_f32(true, 1, 200), 0xff80_0000);
        assert_eq!(round_f32(false, 1, -151), 0);
    }

    #[test]
    fn fma_chain_is_sequential_fma() {
        let a = [f(1.0 + f32::EPSILON), f(-1.0)];
        let b = [f(1.0 - f32::EPSILON), f(1.0)];
        let c = f(0.0);
        let want = (1.0f32 + f32::EPSILON).mul_add(1.0 - f32::EPSILON, 0.0) - 1.0;
        let got = element(Model::FmaChain, Elem::F32, Elem::F32, &a, &b, c);
        assert_eq!(got, f(want));
    }

    #[test]
    fn cdna3_fused_truncates_small_products() {
        // 1 + 2^-30 (a product below the 24 kept fraction bits of the largest): dropped.
        let one = h(1.0);
        let tiny = h(2f32.powi(-15));
        let a = [one, tiny, 0, 0];
        let b = [one, tiny, 0, 0];
        let got = element(
            Model::Fused {
                group: 4,
                fp8: false,
            },
            Elem::F16,
            Elem::F16,
            &a,
            &b,
            0,
        );
        assert_eq!(got, f(1.0));
        // C's low bits survive when C dominates: C = 1 + 2^-23, product 1.
        let got = element(
            Model::Fused {
                group: 4,
                fp8: false,
            },
            Elem::F16,
            Elem::F16,
            &[one, 0, 0, 0],
            &[one, 0, 0, 0],
            f(1.0 + f32::EPSILON),
        );
        assert_eq!(got, f(2.0)); // 2 + 2^-23 rounds to even 2.0
    }

    #[test]
    fn cdna2_pairwise_flushes_denormals() {
        let den = 1u64; // smallest f16 denormal
        let one = h(1.0);
        let m = Model::Pairwise {
            group: 4,
            flush: true,
        };
        let got = element(m, Elem::F16, Elem::F16, &[den, 0, 0, 0], &[one, 0, 0, 0], 0);
        assert_eq!(got, 0);
        let keep = Model::Pairwise {
            group: 4,
            flush: false,
        };
        let got = element(
            keep,
            Elem::F16,
            Elem::F16,
            &[den, 0, 0, 0],
            &[one, 0, 0, 0],
            0,
        );
        assert_eq!(got, f(2f32.powi(-24)));
    }

    #[test]
    fn specials() {
        let inf = 0x7c00; // f16 +inf
        let one = h(1.0);
        let m = Model::Fused {
            group: 2,
            fp8: false,
        };
        assert_eq!(
            element(m, Elem::F16, Elem::F16, &[inf, one], &[one, one], 0),
            f(f32::INFINITY)
        );
        assert_eq!(
            element(m, Elem::F16, Elem::F16, &[inf, 0], &[0, one], 0),
            u64::from(QNAN)
        );
        // bf16 products beyond f32's range count as infinite.
        let big = 0x7f00; // 2^127
        let m = Model::Fused {
            group: 1,
            fp8: false,
        };
        assert_eq!(
            element(m, Elem::Bf16, Elem::Bf16, &[big], &[0x4000], 0),
            f(f32::INFINITY)
        );
        assert_eq!(
            element(
                Model::Int,
                Elem::I8,
                Elem::I8,
                &[0x80],
                &[0x80],
                0xffff_ffff
            ),
            16383
        );
    }
}
