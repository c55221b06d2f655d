//! Compares (every condition and type, class masks) and conversions.

use super::{d, f, one, run, Rng};

/// Reference float predicate per condition name, from the host's IEEE comparison operators
/// (written literally on purpose: their NaN behaviour is the reference).
#[allow(clippy::neg_cmp_op_on_partial_ord, clippy::double_comparisons)]
fn float_pred(cond: &str, a: f64, b: f64) -> bool {
    let un = a.is_nan() || b.is_nan();
    match cond {
        "f" => false,
        "lt" => a < b,
        "eq" => a == b,
        "le" => a <= b,
        "gt" => a > b,
        "lg" => a < b || a > b,
        "ge" => a >= b,
        "o" => !un,
        "u" => un,
        "nge" => !(a >= b),
        "nlg" => !(a < b || a > b),
        "ngt" => !(a > b),
        "nle" => !(a <= b),
        "neq" => a != b,
        "nlt" => !(a < b),
        "tru" => true,
        _ => unreachable!(),
    }
}

const FLOAT_CONDS: [&str; 16] = [
    "f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq", "nlt",
    "tru",
];

#[test]
fn float_compares_all_conditions() {
    let vals = [
        0.0f32,
        -0.0,
        1.0,
        -1.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        2.5,
    ];
    let mut a = Vec::new();
    let mut b = Vec::new();
    for &x in &vals {
        for &y in &vals {
            a.push(x);
            b.push(y);
        }
    }
    let a32: Vec<u64> = a.iter().map(|&x| f(x)).collect();
    let b32: Vec<u64> = b.iter().map(|&x| f(x)).collect();
    let a64: Vec<u64> = a.iter().map(|&x| d(x as f64)).collect();
    let b64: Vec<u64> = b.iter().map(|&x| d(x as f64)).collect();
    let a16: Vec<u64> = a.iter().map(|&x| half_of(x)).collect();
    let b16: Vec<u64> = b.iter().map(|&x| half_of(x)).collect();
    for cond in FLOAT_CONDS {
        let want: u64 = (0..64).fold(0, |m, l| {
            m | (float_pred(cond, a[l] as f64, b[l] as f64) as u64) << l
        });
        assert_eq!(
            run(&format!("v_cmp_{cond}_f32"), &[&a32, &b32], |_| {}).mask,
            want,
            "{cond} f32"
        );
        assert_eq!(
            run(&format!("v_cmpx_{cond}_f64"), &[&a64, &b64], |_| {}).mask,
            want,
            "{cond} f64"
        );
        assert_eq!(
            run(&format!("v_cmp_{cond}_f16_e64"), &[&a16, &b16], |_| {}).mask,
            want,
            "{cond} f16"
        );
    }
    assert!(
        crate::valu::resolve("v_cmpx_lt_f32")
            .unwrap()
            .info()
            .writes_exec
    );
}

/// The half with the same value as these exactly representable f32s.
fn half_of(x: f32) -> u64 {
    match x {
        v if v.is_nan() => 0x7e00,
        v if v == f32::INFINITY => 0x7c00,
        v if v == f32::NEG_INFINITY => 0xfc00,
        v if v == 0.0 => {
            if v.is_sign_negative() {
                0x8000
            } else {
                0
            }
        }
        1.0 => 0x3c00,
        -1.0 => 0xbc00,
        2.5 => 0x4100,
        _ => unreachable!(),
    }
}

#[test]
fn integer_compares_all_types() {
    let mut rng = Rng(11);
    let conds = ["f", "lt", "eq", "le", "gt", "ne", "ge", "t"];
    let a: Vec<u64> = (0..64)
        .map(|i| if i % 4 == 0 { 7 } else { rng.next() })
        .collect();
    let b: Vec<u64> = (0..64)
        .map(|i| if i % 4 == 0 { 7 } else { rng.next() })
        .collect();
    for cond in conds {
        let pred = |o: std::cmp::Ordering| match cond {
            "f" => false,
            "lt" => o.is_lt(),
            "eq" => o.is_eq(),
            "le" => o.is_le(),
            "gt" => o.is_gt(),
            "ne" => o.is_ne(),
            "ge" => o.is_ge(),
            _ => true,
        };
        let check = |ty: &str, key: &dyn Fn(u64) -> i128| {
            let want = (0..64).fold(0u64, |m, l| {
                m | (pred(key(a[l]).cmp(&key(b[l]))) as u64) << l
            });
            assert_eq!(
                run(&format!("v_cmp_{cond}_{ty}"), &[&a, &b], |_| {}).mask,
                want,
                "{cond} {ty}"
            );
        };
        check("u32", &|v| v as u32 as i128);
        check("i32", &|v| v as u32 as i32 as i128);
        check("u64", &|v| v as i128);
        check("i64", &|v| v as i64 as i128);
        check("u16", &|v| v as u16 as i128);
        check("i16", &|v| v as u16 as i16 as i128);
    }
}

#[test]
fn class_masks() {
    // (value, class bit): sNaN 0, qNaN 1, -inf 2, -normal 3, -denorm 4, -0 5, +0 6, +denorm 7,
    // +normal 8, +inf 9.
    let cases: [(u64, u32); 10] = [
        (0x7fa0_0000, 0),
        (0x7fc0_0000, 1),
        (0xff80_0000, 2),
        (0xbf80_0000, 3),
        (0x8000_0001, 4),
        (0x8000_0000, 5),
        (0, 6),
        (0x0000_0001, 7),
        (0x3f80_0000, 8),
        (0x7f80_0000, 9),
    ];
    for (v, bit) in cases {
        for probe in 0..10 {
            let m = one("v_cmp_class_f32", &[v, 1 << probe]);
            assert_eq!(m, 0, "class writes no VGPR");
            let o = run("v_cmp_class_f32", &[&[v], &[1 << probe]], |_| {});
            assert_eq!(o.mask & 1, (probe == bit) as u64, "{v:#x} probe {probe}");
        }
    }
    let o = run("v_cmp_class_f64", &[&[d(-1e-310)], &[1 << 4]], |_| {});
    assert_eq!(o.mask & 1, 1);
    let o = run("v_cmp_class_f16", &[&[0x7c00], &[1 << 9]], |_| {});
    assert_eq!(o.mask & 1, 1);
}

#[test]
fn float_to_int_conversions_saturate() {
    let cases = [
        0.0f32,
        -0.5,
        0.5,
        1.5,
        -1.5,
        2.5,
        -2.7,
        3e9,
        -3e9,
        1e20,
        f32::NAN,
        f32::INFINITY,
        2147483520.0,
    ];
    for v in cases {
        let w = v as f64;
        assert_eq!(
            one("v_cvt_i32_f32", &[f(v)]),
            (v as i32) as u32 as u64,
            "i32 {v}"
        );
        assert_eq!(one("v_cvt_u32_f32", &[f(v)]), (v as u32) as u64, "u32 {v}");
        assert_eq!(
            one("v_cvt_flr_i32_f32", &[f(v)]),
            (v.floor() as i32) as u32 as u64,
            "flr {v}"
        );
        assert_eq!(
            one("v_cvt_rpi_i32_f32", &[f(v)]),
            ((w + 0.5).floor() as i32) as u32 as u64,
            "rpi {v}"
        );
        assert_eq!(one("v_cvt_i32_f64", &[d(w)]), (w as i32) as u32 as u64);
        assert_eq!(one("v_cvt_u32_f64", &[d(w)]), (w as u32) as u64);
    }
    assert_eq!(one("v_cvt_f32_i32", &[(-7i32) as u32 as u64]), f(-7.0));
    assert_eq!(one("v_cvt_f32_u32", &[0xffff_ffff]), f(4294967296.0));
    assert_eq!(one("v_cvt_f32_i32", &[16777217]), f(16777216.0));
    assert_eq!(one("v_cvt_f64_i32", &[0x8000_0000]), d(-2147483648.0));
    assert_eq!(one("v_cvt_f64_u32", &[0xffff_ffff]), d(4294967295.0));
    assert_eq!(one("v_cvt_f64_f32", &[f(0.1)]), d(0.1f32 as f64));
    assert_eq!(one("v_cvt_f32_f64", &[d(0.1)]), f(0.1));
    assert_eq!(one("v_cvt_f32_ubyte2", &[0x00ab_0000]), f(171.0));
    assert_eq!(one("v_cvt_off_f32_i4", &[0xf]), f(-0.0625));
    assert_eq!(one("v_cvt_off_f32_i4", &[0x7]), f(0.4375));
    assert_eq!(one("v_cvt_f16_u16", &[2049]), 0x6800);
    assert_eq!(one("v_cvt_f16_i16", &[0xfffe]), 0xc000);
    assert_eq!(one("v_cvt_u16_f16", &[0x5640]), 100);
    assert_eq!(one("v_cvt_i16_f16", &[0xfc00]), 0x8000);
    assert_eq!(one("v_cvt_f32_f16", &[0x7e01]) & 0xffc0_0000, 0x7fc0_0000);
}

#[test]
fn packing_conversions() {
    assert_eq!(one("v_cvt_pknorm_i16_f32", &[f(1.0), f(-2.0)]), 0x8001_7fff);
    assert_eq!(one("v_cvt_pknorm_u16_f32", &[f(0.5), f(2.0)]), 0xffff_8000);
    assert_eq!(one("v_cvt_pk_u16_u32", &[70000, 5]), 0x0005_ffff);
    assert_eq!(
        one("v_cvt_pk_i16_i32", &[(-70000i32) as u32 as u64, 5]),
        0x0005_8000
    );
    assert_eq!(
        one("v_cvt_pk_u8_f32", &[f(300.0), 2, 0x1122_3344]),
        0x11ff_3344
    );
    assert_eq!(
        one("v_cvt_pk_u8_f32", &[f(2.5), 0, 0x1122_3344]),
        0x1122_3302
    );
    assert_eq!(one("v_pack_b32_f16", &[0x3c00, 0xc000]), 0xc000_3c00);
    let o = run("v_pack_b32_f16", &[&[0x1111_2222], &[0x3333_4444]], |i| {
        i.op_sel = 0b11
    });
    assert_eq!(o.dst[0], 0x3333_1111);
    assert_eq!(one("v_sat_pk_u8_i16", &[0xff80_0123]), 0x00ff);
    assert_eq!(one("v_cvt_norm_i16_f16", &[0xbc00]), 0x8001);
    assert_eq!(one("v_cvt_norm_u16_f16", &[0x3c00]), 0xffff);
}
