//! rcp/rsq/sqrt/log/exp/sin/cos: special values from the ISA tables and accuracy against the
//! host's f64 functions.

use super::{d, f, one, Rng};

/// Distance in f32 ulps between `got` and the reference `want`.
fn ulps(got: u64, want: f64) -> f64 {
    let g = f32::from_bits(got as u32) as f64;
    let w = want as f32;
    let ulp = (f32::from_bits(w.abs().to_bits() + 1) - w.abs()) as f64;
    (g - want).abs() / ulp
}

#[test]
fn special_values() {
    let inf = f(f32::INFINITY);
    let ninf = f(f32::NEG_INFINITY);
    assert_eq!(one("v_rcp_f32", &[0]), inf);
    assert_eq!(one("v_rcp_f32", &[f(-0.0)]), ninf);
    assert_eq!(one("v_rcp_f32", &[inf]), 0);
    assert_eq!(one("v_rcp_f32", &[f(4.0)]), f(0.25));
    assert_eq!(one("v_rsq_f32", &[0]), inf);
    assert_eq!(one("v_rsq_f32", &[f(4.0)]), f(0.5));
    assert!(f32::from_bits(one("v_rsq_f32", &[f(-1.0)]) as u32).is_nan());
    assert_eq!(one("v_sqrt_f32", &[f(-0.0)]), f(-0.0));
    assert_eq!(one("v_sqrt_f32", &[f(9.0)]), f(3.0));
    assert_eq!(one("v_sqrt_f32", &[inf]), inf);
    assert_eq!(one("v_log_f32", &[0]), ninf);
    assert_eq!(one("v_log_f32", &[f(1.0)]), 0);
    assert_eq!(one("v_log_f32", &[f(1024.0)]), f(10.0));
    assert!(f32::from_bits(one("v_log_f32", &[f(-2.0)]) as u32).is_nan());
    assert_eq!(one("v_exp_f32", &[ninf]), 0);
    assert_eq!(one("v_exp_f32", &[f(3.0)]), f(8.0));
    assert_eq!(one("v_exp_f32", &[f(200.0)]), inf);
    assert_eq!(one("v_sin_f32", &[f(0.25)]), f(1.0));
    assert_eq!(one("v_sin_f32", &[f(0.5)]) & 0x7fff_ffff, 0);
    assert_eq!(one("v_cos_f32", &[f(0.5)]), f(-1.0));
    assert_eq!(one("v_cos_f32", &[f(1000.0)]), f(1.0));
    assert_eq!(one("v_cos_f32", &[f(0.25)]), 0);
    assert!(f32::from_bits(one("v_sin_f32", &[inf]) as u32).is_nan());
    assert_eq!(one("v_rcp_f64", &[d(0.5)]), d(2.0));
    assert_eq!(one("v_sqrt_f64", &[d(2.0)]), d(2f64.sqrt()));
    assert_eq!(one("v_rsq_f64", &[d(0.25)]), d(2.0));
    assert_eq!(one("v_rcp_f16", &[0x4000]), 0x3800);
    assert_eq!(one("v_sqrt_f16", &[0x4400]), 0x4000);
    assert_eq!(one("v_exp_f16", &[0x4000]), 0x4400);
    assert_eq!(one("v_log_f16", &[0x4400]), 0x4000);
    assert_eq!(one("v_sin_f16", &[0x3400]), 0x3c00);
}

#[test]
fn within_one_ulp_of_the_true_value() {
    let mut rng = Rng(21);
    for _ in 0..3000 {
        let x = f32::from_bits(((rng.next() >> 9) as u32 & 0x3fff_ffff) | 0x0080_0000);
        let v = x as f64;
        let b = f(x);
        assert!(ulps(one("v_rcp_f32", &[b]), 1.0 / v) <= 1.0, "rcp {x:e}");
        assert!(
            ulps(one("v_rsq_f32", &[b]), 1.0 / v.sqrt()) <= 1.0,
            "rsq {x:e}"
        );
        assert!(ulps(one("v_sqrt_f32", &[b]), v.sqrt()) <= 1.0, "sqrt {x:e}");
        assert!(ulps(one("v_log_f32", &[b]), v.log2()) <= 1.0, "log {x:e}");
        let e = (v % 64.0) - 32.0;
        assert!(
            ulps(one("v_exp_f32", &[f(e as f32)]), (e as f32 as f64).exp2()) <= 1.0,
            "exp {e}"
        );
        let r = (v % 8.0) - 4.0;
        let rf = r as f32 as f64;
        let want = (rf * std::f64::consts::TAU).sin();
        if want.abs() > 1e-3 {
            assert!(
                ulps(one("v_sin_f32", &[f(rf as f32)]), want) <= 2.0,
                "sin {rf}"
            );
        }
        let want = (rf * std::f64::consts::TAU).cos();
        if want.abs() > 1e-3 {
            assert!(
                ulps(one("v_cos_f32", &[f(rf as f32)]), want) <= 2.0,
                "cos {rf}"
            );
        }
    }
}
