//! Host references for the kernel tests: half conversions written independently of the VALU
//! code (plain integer manipulation), and ulp distances.

/// The value of IEEE half `h`.
pub fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((h >> 10) & 0x1f);
    let m = f64::from(h & 0x3ff);
    let mag = match e {
        0 => m * 2f64.powi(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1.0 + m / 1024.0) * 2f64.powi(e - 15),
    };
    // copysign, not a product: the sign of NaN must survive too.
    mag.copysign(sign)
}

/// `x` rounded to the nearest half (ties to even), as bits.
pub fn f64_to_f16(x: f64) -> u16 {
    let sign = if x.is_sign_negative() { 0x8000u16 } else { 0 };
    let a = x.abs();
    if x.is_nan() {
        return 0x7e00;
    }
    // Work in units of the smallest denormal (2^-24); the quantum grows by 2 per binade above
    // the denormal range. Scaling by powers of two and rounding a f64 is exact here.
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    let mut e = 0i32; // biased exponent of the result
    if a >= 2f64.powi(-14) {
        e = a.log2().floor() as i32 + 15;
        // log2 can be off by one near powers of two.
        if 2f64.powi(e - 15) > a {
            e -= 1;
        } else if 2f64.powi(e - 14) <= a {
            e += 1;
        }
    }
    let quantum = 2f64.powi(e.max(1) - 25);
    let q = round_half_even(a / quantum) as u32; // significand in quanta, 0..=2048
    let bits = if e == 0 {
        q // denormal, may round up to the smallest normal (q = 1024 encodes it right)
    } else {
        ((e as u32) << 10) + q - 1024 // q in 1024..=2048; 2048 carries into the exponent
    };
    sign | bits.min(0x7c00) as u16
}

fn round_half_even(v: f64) -> f64 {
    let r = v.round();
    if (r - v).abs() == 0.5 && r % 2.0 != 0.0 {
        r - v.signum()
    } else {
        r
    }
}

/// A monotonic integer image of a float's bits (for ulp distances).
fn ordered(bits: i64, sign_bit: u32) -> i64 {
    if bits >> sign_bit & 1 != 0 {
        -(bits & ((1 << sign_bit) - 1))
    } else {
        bits
    }
}

/// Distance in ulps between two halves (NaN vs NaN = 0, NaN vs number = max).
pub fn ulps16(a: u16, b: u16) -> u64 {
    let (na, nb) = ((a & 0x7fff) > 0x7c00, (b & 0x7fff) > 0x7c00);
    if na || nb {
        return if na && nb { 0 } else { u64::MAX };
    }
    ordered(i64::from(a), 15).abs_diff(ordered(i64::from(b), 15))
}

/// Distance in ulps between two singles.
pub fn ulps32(a: f32, b: f32) -> u64 {
    if a.is_nan() || b.is_nan() {
        return if a.is_nan() && b.is_nan() {
            0
        } else {
            u64::MAX
        };
    }
    ordered(i64::from(a.to_bits()), 31).abs_diff(ordered(i64::from(b.to_bits()), 31))
}

/// Distance in ulps between two doubles.
pub fn ulps64(a: f64, b: f64) -> u64 {
    if a.is_nan() || b.is_nan() {
        return if a.is_nan() && b.is_nan() {
            0
        } else {
            u64::MAX
        };
    }
    let o = |x: f64| {
        let b = x.to_bits() as i64;
        if b < 0 {
            -(b & i64::MAX) as i128
        } else {
            b as i128
        }
    };
    o(a).abs_diff(o(b)) as u64
}

#[test]
fn half_conversions_round_trip_every_value() {
    for h in 0..=u16::MAX {
        let x = f16_to_f64(h);
        if x.is_nan() {
            assert_eq!(f64_to_f16(x), 0x7e00);
            continue;
        }
        assert_eq!(f64_to_f16(x), h, "{h:#06x}");
    }
    // Ties go to even; the largest finite rounds to inf only from 65520 up.
    assert_eq!(f64_to_f16(1.0 + 2f64.powi(-11)), 0x3c00);
    assert_eq!(f64_to_f16(1.0 + 3.0 * 2f64.powi(-11)), 0x3c02);
    assert_eq!(f64_to_f16(65519.99), 0x7bff);
    assert_eq!(f64_to_f16(65520.0), 0x7c00);
    assert_eq!(f64_to_f16(2f64.powi(-25)), 0x0000);
    assert_eq!(f64_to_f16(2f64.powi(-25) * 1.5), 0x0001);
    assert_eq!(f64_to_f16(-0.0), 0x8000);
    assert_eq!(ulps16(0x8000, 0x0000), 0);
    assert_eq!(ulps16(0x8001, 0x0001), 2);
}
