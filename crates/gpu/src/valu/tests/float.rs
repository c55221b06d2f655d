//! Float arithmetic in round-to-nearest-even against the host's IEEE operations.

use super::{d, f, keep_all, one, run, same_f32, Rng};
use crate::valu::Mode;

fn lanes_f32(rng: &mut Rng) -> Vec<u64> {
    (0..64).map(|_| rng.f32_bits() as u64).collect()
}

#[test]
fn f32_add_sub_mul_fma_match_host() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for _ in 0..200 {
        let (a, b, c) = (
            lanes_f32(&mut rng),
            lanes_f32(&mut rng),
            lanes_f32(&mut rng),
        );
        let add = run("v_add_f32", &[&a, &b], |_| {});
        let sub = run("v_sub_f32_e64", &[&a, &b], |_| {});
        let subrev = run("v_subrev_f32", &[&a, &b], |_| {});
        let mul = run("v_mul_f32", &[&a, &b], |_| {});
        let fma = run("v_fma_f32", &[&a, &b, &c], |_| {});
        let fmac = run("v_fmac_f32", &[&a, &b, &c], |_| {});
        let mad = run("v_mad_f32", &[&a, &b, &c], |_| {});
        for l in 0..64 {
            let (x, y, z) = (
                f32::from_bits(a[l] as u32),
                f32::from_bits(b[l] as u32),
                f32::from_bits(c[l] as u32),
            );
            assert!(same_f32(add.dst[l], (x + y).to_bits()), "{x:e} + {y:e}");
            assert!(same_f32(sub.dst[l], (x - y).to_bits()), "{x:e} - {y:e}");
            assert!(same_f32(subrev.dst[l], (y - x).to_bits()), "{y:e} - {x:e}");
            assert!(same_f32(mul.dst[l], (x * y).to_bits()), "{x:e} * {y:e}");
            let r = x.mul_add(y, z).to_bits();
            assert!(same_f32(fma.dst[l], r), "fma({x:e}, {y:e}, {z:e})");
            assert_eq!(fmac.dst[l], fma.dst[l]);
            // mad rounds the product; compare where no denormal (flushed by mad) appears.
            let p = x * y;
            let normal = |v: f32| v == 0.0 || !v.is_subnormal();
            if normal(x) && normal(y) && normal(z) && normal(p) && normal(p + z) {
                assert!(
                    same_f32(mad.dst[l], (p + z).to_bits()),
                    "mad({x:e}, {y:e}, {z:e})"
                );
            }
        }
    }
}

#[test]
fn f64_add_mul_fma_match_host() {
    let mut rng = Rng(0xfeed_beef_1234_0001);
    let mut g = || {
        let r = rng.next();
        match r % 5 {
            0 => [0.0, -0.0, 1.0, f64::INFINITY, f64::MIN_POSITIVE, 5e-324][(r >> 8) as usize % 6],
            1 => f64::from_bits(r >> 12),
            _ => f64::from_bits(r & 0xbfff_ffff_ffff_ffff | 0x3000_0000_0000_0000),
        }
    };
    for _ in 0..2000 {
        let (x, y, z) = (g(), g(), g());
        let same =
            |got: u64, want: f64| got == d(want) || (want.is_nan() && f64::from_bits(got).is_nan());
        assert!(
            same(one("v_add_f64", &[d(x), d(y)]), x + y),
            "{x:e} + {y:e}"
        );
        assert!(
            same(one("v_mul_f64", &[d(x), d(y)]), x * y),
            "{x:e} * {y:e}"
        );
        let r = x.mul_add(y, z);
        let got = one("v_fma_f64", &[d(x), d(y), d(z)]);
        assert!(
            got == d(r) || (r.is_nan() && f64::from_bits(got).is_nan()),
            "fma {x:e} {y:e} {z:e}"
        );
    }
}

/// Value of IEEE half bits (independent decoder for the checks below).
fn half(h: u64) -> f64 {
    let s = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = (h >> 10 & 0x1f) as i32;
    let m = (h & 0x3ff) as f64;
    match e {
        0 => s * m * 2f64.powi(-24),
        31 if m == 0.0 => s * f64::INFINITY,
        31 => f64::NAN,
        _ => s * (1.0 + m / 1024.0) * 2f64.powi(e - 15),
    }
}

/// True when `h` is the f16 nearest to `v` (ties to even), `v` within range.
fn is_nearest_half(h: u64, v: f64) -> bool {
    let here = (half(h) - v).abs();
    let mag = h & 0x7fff;
    let up = half((h & 0x8000) | (mag + 1));
    let down = if mag == 0 {
        -half(h | 1)
    } else {
        half((h & 0x8000) | (mag - 1))
    };
    let (du, dd) = ((up - v).abs(), (down - v).abs());
    here < du.min(dd)
        || (here == du.min(dd) && h & 1 == 0)
        || (here <= du && here <= dd && here == 0.0)
}

#[test]
fn f16_add_mul_fma_round_to_nearest() {
    let mut rng = Rng(77);
    for _ in 0..4000 {
        let r = rng.next();
        // Finite halves of moderate exponent, so no overflow.
        let a = r & 0xbbff;
        let b = (r >> 16) & 0xbbff;
        let c = (r >> 32) & 0xbbff;
        let (x, y, z) = (half(a), half(b), half(c));
        let s = one("v_add_f16", &[a, b]);
        assert!(is_nearest_half(s, x + y), "{x} + {y} -> {s:#x}");
        let p = one("v_mul_f16", &[a, b]);
        assert!(is_nearest_half(p, x * y), "{x} * {y} -> {p:#x}");
        let q = one("v_fma_f16", &[a, b, c]);
        assert!(
            is_nearest_half(q, x.mul_add(y, z)),
            "fma {x} {y} {z} -> {q:#x}"
        );
    }
    // Known patterns: 1 + 1 = 2, 65504 + 12 rounds back to 65504, 65504 + 16 is the overflow
    // threshold (a tie that rounds to infinity), 65504 + 32 overflows.
    assert_eq!(one("v_add_f16", &[0x3c00, 0x3c00]), 0x4000);
    assert_eq!(one("v_add_f16", &[0x7bff, 0x4a00]), 0x7bff);
    assert_eq!(one("v_add_f16", &[0x7bff, 0x4c00]), 0x7c00);
    assert_eq!(one("v_add_f16", &[0x7bff, 0x5000]), 0x7c00);
    // The smallest denormal halves to zero (tie to even).
    assert_eq!(one("v_mul_f16", &[0x0001, 0x3800]), 0x0000);
    assert_eq!(one("v_mul_f16", &[0x0003, 0x3800]), 0x0002);
}

#[test]
fn min_max_follow_ieee_mode_nan_rules() {
    // Round-to-zero runs the general code, nearest-even the vectorized one: same rules.
    for round in [crate::valu::Round::NearestEven, crate::valu::Round::Zero] {
        min_max_rules(Mode {
            round_f32: round,
            round_f16_f64: round,
            ..keep_all()
        });
    }
}

fn min_max_rules(ieee: Mode) {
    let (q, s, one_, two) = (0x7fc0_0000u64, 0x7fa0_0000u64, f(1.0), f(2.0));
    let non = Mode {
        ieee: false,
        ..ieee
    };
    let m = |n: &str, a: u64, b: u64, mode: Mode| super::one_mode(n, &[a, b], mode);
    // Quiet NaN: the other operand, in both modes.
    assert_eq!(m("v_min_f32", q, one_, ieee), one_);
    assert_eq!(m("v_max_f32", one_, q, non), one_);
    // Signalling NaN: quieted NaN in IEEE mode, the other operand otherwise.
    assert_eq!(m("v_min_f32", s, one_, ieee), 0x7fe0_0000);
    assert_eq!(m("v_max_f32", one_, s, ieee), 0x7fe0_0000);
    assert_eq!(m("v_min_f32", s, one_, non), one_);
    // Signed zeros are ordered.
    assert_eq!(m("v_min_f32", f(0.0), f(-0.0), ieee), f(-0.0));
    assert_eq!(m("v_max_f32", f(-0.0), f(0.0), ieee), f(0.0));
    assert_eq!(m("v_min_f32", one_, two, ieee), one_);
    assert_eq!(m("v_max_f64", d(-1.5), d(3.0), ieee), d(3.0));
    assert_eq!(m("v_min_f16", 0xc000, 0x3c00, ieee), 0xc000);
    assert_eq!(m("v_max_f16", 0x7d00, 0x3c00, ieee), 0x7f00);
}

#[test]
fn med3_min3_max3_match_sorting() {
    let mut rng = Rng(99);
    for _ in 0..500 {
        let v: Vec<f32> = (0..3)
            .map(|_| (rng.next() % 2001) as f32 / 7.0 - 140.0)
            .collect();
        let mut sorted = v.clone();
        sorted.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let src = [f(v[0]), f(v[1]), f(v[2])];
        assert_eq!(one("v_med3_f32", &src), f(sorted[1]));
        assert_eq!(one("v_min3_f32", &src), f(sorted[0]));
        assert_eq!(one("v_max3_f32", &src), f(sorted[2]));
        let (i0, i1, i2) = (v[0] as i32, v[1] as i32, v[2] as i32);
        let mut si = [i0, i1, i2];
        si.sort();
        let isrc = [i0 as u32 as u64, i1 as u32 as u64, i2 as u32 as u64];
        assert_eq!(one("v_med3_i32", &isrc), si[1] as u32 as u64);
    }
    // A NaN operand makes med3 the min3 (ISA rule).
    assert_eq!(one("v_med3_f32", &[0x7fc0_0000, f(3.0), f(2.0)]), f(2.0));
}

#[test]
fn rounding_to_integers_fract_frexp_ldexp() {
    let vals = [
        0.5f32, -0.5, 1.5, 2.5, -2.5, 3.7, -3.7, 1e10, -0.0, 8388607.5, 0.49999997,
    ];
    for &v in &vals {
        assert_eq!(one("v_trunc_f32", &[f(v)]), f(v.trunc()), "trunc {v}");
        assert_eq!(one("v_ceil_f32", &[f(v)]), f(v.ceil()), "ceil {v}");
        assert_eq!(one("v_floor_f32", &[f(v)]), f(v.floor()), "floor {v}");
        assert_eq!(
            one("v_rndne_f32", &[f(v)]),
            f(v.round_ties_even()),
            "rndne {v}"
        );
        let fr = (v as f64 - (v as f64).floor()) as f32;
        assert_eq!(
            one("v_fract_f32", &[f(v)]),
            f(fr.min(f32::from_bits(0x3f7f_ffff))),
            "fract {v}"
        );
        let dv = v as f64 * 3.0;
        assert_eq!(one("v_floor_f64", &[d(dv)]), d(dv.floor()));
        assert_eq!(one("v_rndne_f64", &[d(dv)]), d(dv.round_ties_even()));
    }
    // fract of a tiny negative value is the largest float below 1.
    assert_eq!(one("v_fract_f32", &[f(-1e-30)]), 0x3f7f_ffff);
    // frexp: 8 = 0.5 * 2^4; -0.75 = -0.75 * 2^0; denormal 2^-149 = 0.5 * 2^-148.
    assert_eq!(one("v_frexp_mant_f32", &[f(8.0)]), f(0.5));
    assert_eq!(one("v_frexp_exp_i32_f32", &[f(8.0)]), 4);
    assert_eq!(one("v_frexp_mant_f32", &[f(-0.75)]), f(-0.75));
    assert_eq!(one("v_frexp_exp_i32_f32", &[1]), (-148i32) as u32 as u64);
    assert_eq!(one("v_frexp_mant_f64", &[d(-6.0)]), d(-0.75));
    assert_eq!(one("v_frexp_exp_i32_f64", &[d(1e300)]), 997);
    assert_eq!(one("v_frexp_exp_i16_f16", &[0x4400]), 3);
    // ldexp against multiplication by a power of two.
    for (v, k) in [
        (1.5f32, 3i32),
        (1.0, -149),
        (1.0, -150),
        (3.0, 127),
        (1.0, 200),
        (-2.0, -1),
    ] {
        let want = (v as f64 * 2f64.powi(k)) as f32;
        assert_eq!(
            one("v_ldexp_f32", &[f(v), k as u32 as u64]),
            f(want),
            "ldexp {v} {k}"
        );
    }
    assert_eq!(one("v_ldexp_f64", &[d(1.0), (-1074i32) as u32 as u64]), 1);
    assert_eq!(one("v_ldexp_f16", &[0x3c00, 2]), 0x4400);
}

#[test]
fn legacy_multiply_and_modifiers() {
    // 0 * inf is NaN for mul but +0 for mul_legacy.
    assert!(f32::from_bits(one("v_mul_f32", &[0, f(f32::INFINITY)]) as u32).is_nan());
    assert_eq!(one("v_mul_legacy_f32", &[0, f(f32::INFINITY)]), 0);
    assert_eq!(one("v_mul_legacy_f32", &[f(-0.0), 0x7fc0_0000]), 0);
    assert_eq!(one("v_mad_legacy_f32", &[0, 0x7fc0_0000, f(2.0)]), f(2.0));
    // abs on src0 and neg on src1: |-3| + -(2) = 1.
    let out = run("v_add_f32_e64", &[&[f(-3.0)], &[f(2.0)]], |i| {
        i.abs = 1;
        i.neg = 2;
    });
    assert_eq!(out.dst[0], f(1.0));
    // f64 neg on src2 of fma: 2 * 3 - 1 = 5.
    let out = run("v_fma_f64", &[&[d(2.0)], &[d(3.0)], &[d(1.0)]], |i| {
        i.neg = 4
    });
    assert_eq!(out.dst[0], d(5.0));
    // NaN results: an invalid operation gives the default NaN, a NaN input propagates quieted.
    assert_eq!(
        one("v_add_f32", &[f(f32::INFINITY), f(f32::NEG_INFINITY)]),
        0x7fc0_0000
    );
    assert_eq!(one("v_add_f32", &[0x7fa0_0001, f(1.0)]), 0x7fe0_0001);
    // Subtraction adds the negated operand, so a NaN subtrahend comes back with its sign
    // flipped, in the vectorized (nearest-even) and the general (round-to-zero) code alike.
    let rz = Mode {
        round_f32: crate::valu::Round::Zero,
        ..keep_all()
    };
    for m in [keep_all(), rz] {
        let flush = Mode {
            denorm_f32: crate::valu::Denorm::FLUSH,
            ..m
        };
        assert_eq!(
            super::one_mode("v_sub_f32", &[f(1.0), 0x7fc0_0001], m),
            0xffc0_0001
        );
        assert_eq!(
            super::one_mode("v_subrev_f32", &[0x7fc0_0001, f(1.0)], m),
            0xffc0_0001
        );
        let fma = super::one_mode("v_fma_f32", &[f(1.0), 0x7f80_0001, 0xffc0_0000], m);
        assert_eq!(fma, 0x7fc0_0001);
        assert_eq!(super::one_mode("v_add_f32", &[1, 0], flush), 0);
        assert_eq!(super::one_mode("v_max_f32", &[0x8000_0001, 0], flush), 0);
    }
}

#[test]
fn cube_map_coordinates() {
    // (x, y, z) -> (face id, sc, tc, 2 * major axis), per the cube-map face convention.
    let cases = [
        ((1.0f32, 2.0f32, 3.0f32), (4.0f32, 1.0f32, -2.0f32, 6.0f32)),
        ((1.0, 2.0, -3.0), (5.0, -1.0, -2.0, -6.0)),
        ((-5.0, 2.0, 3.0), (1.0, 3.0, -2.0, -10.0)),
        ((5.0, 2.0, 3.0), (0.0, -3.0, -2.0, 10.0)),
        ((1.0, -4.0, 2.0), (3.0, 1.0, -2.0, -8.0)),
        ((1.0, 4.0, 2.0), (2.0, 1.0, 2.0, 8.0)),
        ((2.0, 2.0, 2.0), (4.0, 2.0, -2.0, 4.0)),
    ];
    for ((x, y, z), (id, sc, tc, ma)) in cases {
        let src = [f(x), f(y), f(z)];
        assert_eq!(one("v_cubeid_f32", &src), f(id), "id {x} {y} {z}");
        assert_eq!(one("v_cubesc_f32", &src), f(sc), "sc {x} {y} {z}");
        assert_eq!(one("v_cubetc_f32", &src), f(tc), "tc {x} {y} {z}");
        assert_eq!(one("v_cubema_f32", &src), f(ma), "ma {x} {y} {z}");
    }
}
