//! Rounding modes, denormal modes, clamp and omod, checked against exact f64 arithmetic.

use super::{d, f, keep_all, one_mode, run, Rng};
use crate::valu::{Denorm, Mode, Round};

fn with_round(r: Round) -> Mode {
    Mode {
        round_f32: r,
        round_f16_f64: r,
        ..keep_all()
    }
}

/// Checks that f32 `got` is the `r`-rounding of the exact value `v`.
fn check_f32(got: u64, v: f64, r: Round, what: &str) {
    let g = f32::from_bits(got as u32);
    let gd = g as f64;
    let ok = match r {
        Round::PlusInf => gd >= v && (g.next_down_compat() as f64) < v,
        Round::MinusInf => gd <= v && (g.next_up_compat() as f64) > v,
        Round::Zero => gd.abs() <= v.abs() && (g.abs().next_up_compat() as f64) > v.abs(),
        Round::NearestEven => true,
    };
    assert!(ok, "{what}: {v:e} rounded {r:?} gave {g:e}");
}

trait NextF32 {
    fn next_up_compat(self) -> f32;
    fn next_down_compat(self) -> f32;
}

impl NextF32 for f32 {
    fn next_up_compat(self) -> f32 {
        if self == 0.0 {
            f32::from_bits(1)
        } else if self > 0.0 {
            f32::from_bits(self.to_bits() + 1)
        } else {
            f32::from_bits(self.to_bits() - 1)
        }
    }
    fn next_down_compat(self) -> f32 {
        -(-self).next_up_compat()
    }
}

#[test]
fn f32_directed_rounding_is_exact() {
    let mut rng = Rng(5);
    for r in [Round::PlusInf, Round::MinusInf, Round::Zero] {
        let mode = with_round(r);
        for _ in 0..3000 {
            let x = rng.next();
            // Significands of 12 bits and exponents within a small window keep every exact
            // result representable in f64.
            let mk = |m: u64, e: u64| {
                let s = if m & 1 != 0 { -1.0 } else { 1.0 };
                s * ((m >> 1) & 0xfff | 0x800) as f64 * 2f64.powi((e % 16) as i32 - 20)
            };
            let (a, b) = (mk(x, x >> 20) as f32, mk(x >> 24, x >> 40) as f32);
            let c = (((x >> 44) & 0xff_ffff | 1) as f64 * 2f64.powi(-30)) as f32;
            let (av, bv, cv) = (a as f64, b as f64, c as f64);
            check_f32(
                one_mode("v_add_f32", &[f(a), f(c)], mode),
                av + cv,
                r,
                "add",
            );
            check_f32(
                one_mode("v_mul_f32", &[f(a), f(b)], mode),
                av * bv,
                r,
                "mul",
            );
            check_f32(
                one_mode("v_fma_f32", &[f(a), f(b), f(c)], mode),
                av * bv + cv,
                r,
                "fma",
            );
            check_f32(
                one_mode("v_cvt_f32_f64", &[d(av * bv + cv)], mode),
                av * bv + cv,
                r,
                "cvt",
            );
        }
        // Exact zero sums are -0 only when rounding toward -inf.
        let z = one_mode("v_add_f32", &[f(1.0), f(-1.0)], mode);
        assert_eq!(z, if r == Round::MinusInf { f(-0.0) } else { 0 });
        // Overflow: infinity or the largest finite value.
        let big = one_mode("v_mul_f32", &[f(f32::MAX), f(2.0)], mode);
        assert_eq!(
            big,
            if r == Round::PlusInf {
                f(f32::INFINITY)
            } else {
                f(f32::MAX)
            }
        );
    }
}

#[test]
fn f64_directed_rounding_known_values() {
    let tiny = 2f64.powi(-60);
    let one_up = f64::from_bits(1f64.to_bits() + 1);
    let cases = [
        (Round::NearestEven, 1.0, -1.0),
        (Round::PlusInf, one_up, -1.0),
        (Round::MinusInf, 1.0, -one_up),
        (Round::Zero, 1.0, -1.0),
    ];
    for (r, pos, neg) in cases {
        let m = with_round(r);
        assert_eq!(
            one_mode("v_add_f64", &[d(1.0), d(tiny)], m),
            d(pos),
            "{r:?}"
        );
        assert_eq!(
            one_mode("v_add_f64", &[d(-1.0), d(-tiny)], m),
            d(neg),
            "{r:?}"
        );
        // (1 + 2^-52)^2 = 1 + 2^-51 + 2^-104: only +inf rounding moves up.
        let want = if r == Round::PlusInf {
            1.0 + 3.0 * f64::EPSILON
        } else {
            1.0 + 2.0 * f64::EPSILON
        };
        assert_eq!(
            one_mode("v_mul_f64", &[d(one_up), d(one_up)], m),
            d(want),
            "{r:?}"
        );
        assert_eq!(
            one_mode("v_fma_f64", &[d(one_up), d(one_up), d(0.0)], m),
            d(want),
            "{r:?}"
        );
    }
}

#[test]
fn f16_conversion_rounding_modes() {
    // 65520 is halfway between 65504 (max half) and the overflow threshold.
    let m = |r| with_round(r);
    assert_eq!(
        one_mode("v_cvt_f16_f32", &[f(65520.0)], m(Round::NearestEven)),
        0x7c00
    );
    assert_eq!(
        one_mode("v_cvt_f16_f32", &[f(65520.0)], m(Round::Zero)),
        0x7bff
    );
    assert_eq!(
        one_mode("v_cvt_f16_f32", &[f(-65520.0)], m(Round::PlusInf)),
        0xfbff
    );
    // 1 + 2^-11 is a tie between 1 and 1 + 2^-10: even is 1.0.
    let tie = f(1.0 + 2f32.powi(-11));
    assert_eq!(
        one_mode("v_cvt_f16_f32", &[tie], m(Round::NearestEven)),
        0x3c00
    );
    assert_eq!(one_mode("v_cvt_f16_f32", &[tie], m(Round::PlusInf)), 0x3c01);
    assert_eq!(
        one_mode(
            "v_cvt_f16_f32",
            &[f(2f32.powi(-25) * 3.0)],
            m(Round::NearestEven)
        ),
        0x0002
    );
    assert_eq!(
        one_mode("v_cvt_f32_f16", &[0x0001], keep_all()),
        f(2f32.powi(-24))
    );
    assert_eq!(
        one_mode("v_cvt_f32_f16", &[0xfc00], keep_all()),
        f(f32::NEG_INFINITY)
    );
    // pkrtz always truncates.
    let p = run("v_cvt_pkrtz_f16_f32", &[&[tie], &[f(65520.0)]], |_| {});
    assert_eq!(p.dst[0], 0x3c00 | 0x7bff << 16);
}

#[test]
fn denormal_modes_flush_inputs_and_outputs() {
    let den = f32::from_bits(0x0000_1000);
    let flush = Mode {
        denorm_f32: Denorm::FLUSH,
        ..keep_all()
    };
    let keep_in = Mode {
        denorm_f32: Denorm {
            keep_in: true,
            keep_out: false,
        },
        ..keep_all()
    };
    let keep_out = Mode {
        denorm_f32: Denorm {
            keep_in: false,
            keep_out: true,
        },
        ..keep_all()
    };
    let x = f(den);
    assert_eq!(one_mode("v_add_f32", &[x, 0], keep_all()), x);
    assert_eq!(one_mode("v_add_f32", &[x, 0], flush), 0);
    assert_eq!(
        one_mode("v_add_f32", &[x | 0x8000_0000, 0x8000_0000], flush),
        0x8000_0000
    );
    // Input kept, result scaled into the normal range survives.
    assert_eq!(
        one_mode("v_mul_f32", &[x, f(2f32.powi(100))], keep_in),
        f(den * 2f32.powi(100))
    );
    assert_eq!(one_mode("v_mul_f32", &[x, f(2f32.powi(100))], keep_out), 0);
    // A normal input with a denormal result.
    let half_min = f(f32::MIN_POSITIVE);
    assert_eq!(one_mode("v_mul_f32", &[half_min, f(0.5)], keep_in), 0);
    assert_eq!(
        one_mode("v_mul_f32", &[half_min, f(0.5)], keep_out),
        f(f32::MIN_POSITIVE / 2.0)
    );
    // f64 follows the f16/f64 field, not the f32 one.
    let f64_flush = Mode {
        denorm_f16_f64: Denorm::FLUSH,
        ..keep_all()
    };
    assert_eq!(one_mode("v_add_f64", &[1, 0], f64_flush), 0);
    assert_eq!(one_mode("v_add_f64", &[1, 0], flush), 1);
    assert_eq!(one_mode("v_add_f16", &[1, 0], f64_flush), 0);
    // v_mad_f32 flushes whatever the mode.
    assert_eq!(one_mode("v_mad_f32", &[x, f(1.0), 0], keep_all()), 0);
}

#[test]
fn clamp_and_omod() {
    let r = |n: &str, a: f32, b: f32, cfg: &dyn Fn(&mut crate::valu::VopInputs)| {
        run(n, &[&[f(a)], &[f(b)]], cfg).dst[0]
    };
    assert_eq!(r("v_add_f32", 0.7, 0.7, &|i| i.clamp = true), f(1.0));
    assert_eq!(r("v_add_f32", -0.7, 0.2, &|i| i.clamp = true), 0);
    assert_eq!(r("v_mul_f32", 0.25, 0.5, &|i| i.clamp = true), f(0.125));
    assert_eq!(r("v_mul_f32", 0.0, f32::INFINITY, &|i| i.clamp = true), 0);
    let no_dx10 = Mode {
        dx10_clamp: false,
        ..keep_all()
    };
    let nan = r("v_mul_f32", 0.0, f32::INFINITY, &|i| {
        i.clamp = true;
        i.mode = no_dx10;
    });
    assert!(f32::from_bits(nan as u32).is_nan());
    // omod works outside IEEE mode with output denormals flushed, and is ignored otherwise.
    let plain = Mode {
        ieee: false,
        ..Mode::default()
    };
    let om = |k: u8| {
        move |i: &mut crate::valu::VopInputs| {
            i.omod = k;
            i.mode = plain;
        }
    };
    assert_eq!(r("v_add_f32", 1.5, 1.5, &om(1)), f(6.0));
    assert_eq!(r("v_add_f32", 1.5, 1.5, &om(2)), f(12.0));
    assert_eq!(r("v_add_f32", 1.5, 1.5, &om(3)), f(1.5));
    assert_eq!(r("v_add_f32", 1.5, 1.5, &|i| i.omod = 1), f(3.0));
    let keep_out = Mode {
        ieee: false,
        ..keep_all()
    };
    let with_keep = |i: &mut crate::valu::VopInputs| {
        i.omod = 1;
        i.mode = keep_out;
    };
    assert_eq!(r("v_add_f32", 1.5, 1.5, &with_keep), f(3.0));
    let clamped = |i: &mut crate::valu::VopInputs| {
        om(1)(i);
        i.clamp = true;
    };
    assert_eq!(r("v_add_f32", 0.25, 0.25, &clamped), f(1.0));
    let h = run("v_add_f16", &[&[0x3c00], &[0x3c00]], |i| i.clamp = true).dst[0];
    assert_eq!(h, 0x3c00);
}

#[test]
fn mode_register_layout() {
    // FP_ROUND 3:0, FP_DENORM 7:4, DX10_CLAMP 8, IEEE 9.
    let m = Mode::from_bits(0x2f0 | 0b0110);
    assert_eq!(m.round_f32, Round::MinusInf);
    assert_eq!(m.round_f16_f64, Round::PlusInf);
    assert_eq!(m.denorm_f32, Denorm::KEEP);
    assert!(m.ieee && !m.dx10_clamp);
    assert_eq!(m.to_bits(), 0x2f6);
    let m = Mode::from_bits(0x1c0);
    assert_eq!(
        (m.denorm_f32, m.denorm_f16_f64),
        (Denorm::FLUSH, Denorm::KEEP)
    );
    assert!(m.dx10_clamp && !m.ieee);
}

#[test]
fn f16_rounding_matches_the_general_path_exhaustively() {
    // Every f32 whose top 16 bits vary (all halves' neighbourhoods): the f32 -> f16
    // conversion must be the nearest half, ties to even, checked with exact f64 arithmetic.
    for hi in 0..0x8000u32 {
        for lo in [0u32, 0x0fff, 0x1000, 0x1001, 0x2000, 0x3000, 0xffff] {
            let x = hi << 16 | lo;
            let v = f32::from_bits(x) as f64;
            if v.is_nan() || v.abs() >= 65520.0 {
                continue;
            }
            let h = one_mode("v_cvt_f16_f32", &[x as u64], keep_all());
            let val = |b: u64| {
                let e = (b >> 10 & 31) as i32;
                let m = (b & 1023) as f64;
                if e == 0 {
                    m * 2f64.powi(-24)
                } else {
                    (1.0 + m / 1024.0) * 2f64.powi(e - 15)
                }
            };
            let here = (val(h) - v).abs();
            let up = (val(h + 1) - v).abs();
            let down = if h == 0 {
                f64::INFINITY
            } else {
                (val(h - 1) - v).abs()
            };
            assert!(here <= up && here <= down, "{v:e} -> {h:#x}");
            assert!(
                here < up.min(down) || h & 1 == 0 || here == 0.0,
                "{v:e} tie -> {h:#x}"
            );
        }
    }
}
