//! Buffer format conversions against host references: the VALU's own f16 conversions (an
//! independent implementation), IEEE/D3D definitions computed here in f64, and exhaustive
//! round trips of the small float formats.

use super::*;
use crate::valu::{self, Mode, VopInputs, VopOutputs};

/// Runs a one-source VALU conversion on 64 lanes, round to nearest even, denormals kept.
fn valu_convert(name: &str, vals: &[u64]) -> Vec<u64> {
    let op = valu::resolve(name).expect("op");
    let mut out = Vec::new();
    for chunk in vals.chunks(64) {
        let mut inp = VopInputs {
            mode: Mode::from_bits(0xf0),
            ..Default::default()
        };
        inp.src[0][..chunk.len()].copy_from_slice(chunk);
        let mut o = VopOutputs::default();
        valu::execute(op, &inp, &mut o).expect("supported");
        out.extend_from_slice(&o.dst[..chunk.len()]);
    }
    out
}

#[test]
fn f16_widening_matches_v_cvt_f32_f16() {
    let all: Vec<u64> = (0..=0xffffu64).collect();
    let want = valu_convert("v_cvt_f32_f16", &all);
    for (h, w) in all.iter().zip(want) {
        let got = f16_to_f32(*h as u16).to_bits();
        let wf = f32::from_bits(w as u32);
        if wf.is_nan() {
            assert!(f32::from_bits(got).is_nan(), "{h:#x}");
        } else {
            assert_eq!(got, w as u32, "{h:#x}");
        }
    }
}

#[test]
fn f16_narrowing_matches_v_cvt_f16_f32() {
    // Every f16 value, the midpoints between neighbours (ties), their neighbours, and
    // out-of-range magnitudes.
    let mut xs: Vec<f32> = Vec::new();
    for h in 0..0x7c00u16 {
        let (a, b) = (f16_to_f32(h), f16_to_f32(h + 1));
        let mid = (f64::from(a) + f64::from(b)) / 2.0;
        for x in [a, mid as f32, f32::from_bits((mid as f32).to_bits() + 1)] {
            xs.push(x);
            xs.push(-x);
        }
    }
    xs.extend([
        65504.0,
        65519.9,
        65520.0,
        1e9,
        f32::INFINITY,
        f32::MIN_POSITIVE,
        1e-30,
    ]);
    let bits: Vec<u64> = xs.iter().map(|x| u64::from(x.to_bits())).collect();
    let want = valu_convert("v_cvt_f16_f32", &bits);
    for (x, w) in xs.iter().zip(want) {
        assert_eq!(f32_to_f16(*x), w as u16, "{x:e} ({:#x})", x.to_bits());
    }
}

#[test]
fn normalized_and_scaled_loads_follow_the_definitions() {
    let f = |v: u32| f32::from_bits(v);
    assert_eq!(f(load_channel(255, 8, nfmt::UNORM)), 1.0);
    assert_eq!(
        f(load_channel(128, 8, nfmt::UNORM)),
        (128.0f64 / 255.0) as f32
    );
    assert_eq!(f(load_channel(0x3ff, 10, nfmt::UNORM)), 1.0);
    assert_eq!(f(load_channel(3, 2, nfmt::UNORM)), 1.0);
    assert_eq!(f(load_channel(0x80, 8, nfmt::SNORM)), -1.0); // -128/127 clamps
    assert_eq!(f(load_channel(0x81, 8, nfmt::SNORM)), -1.0);
    assert_eq!(f(load_channel(0x7fff, 16, nfmt::SNORM)), 1.0);
    assert_eq!(
        f(load_channel(0xc000, 16, nfmt::SNORM)),
        (-16384.0f64 / 32767.0) as f32
    );
    assert_eq!(f(load_channel(200, 8, nfmt::USCALED)), 200.0);
    assert_eq!(f(load_channel(0xff, 8, nfmt::SSCALED)), -1.0);
    assert_eq!(load_channel(0xff, 8, nfmt::SINT), u32::MAX);
    assert_eq!(load_channel(0xff, 8, nfmt::UINT), 255);
    assert_eq!(load_channel(0x8000, 16, nfmt::SINT), 0xffff_8000);
    // 32-bit channels are never converted.
    assert_eq!(load_channel(0x1234_5678, 32, nfmt::UNORM), 0x1234_5678);
    // Invalid combinations read 0.
    assert_eq!(load_channel(0x12, 8, nfmt::FLOAT), 0);
    assert_eq!(load_channel(0x12, 8, 6), 0);
}

#[test]
fn normalized_and_integer_stores_round_and_saturate() {
    let b = |x: f32| x.to_bits();
    assert_eq!(store_channel(b(1.0), 8, nfmt::UNORM), 255);
    assert_eq!(store_channel(b(2.0), 8, nfmt::UNORM), 255);
    assert_eq!(store_channel(b(-1.0), 8, nfmt::UNORM), 0);
    assert_eq!(store_channel(b(f32::NAN), 8, nfmt::UNORM), 0);
    assert_eq!(store_channel(b(0.5), 8, nfmt::UNORM), 128); // 127.5 ties to even
    assert_eq!(store_channel(b(1.5 / 255.0), 8, nfmt::UNORM), 2); // 1.5 -> 2
    assert_eq!(store_channel(b(-1.0), 8, nfmt::SNORM), 0x81); // -127
    assert_eq!(store_channel(b(-2.0), 16, nfmt::SNORM), 0x8001);
    assert_eq!(store_channel(b(1.0), 10, nfmt::SNORM), 0x1ff);
    assert_eq!(store_channel(b(300.7), 8, nfmt::USCALED), 255);
    assert_eq!(store_channel(b(7.9), 8, nfmt::USCALED), 7);
    assert_eq!(store_channel(b(-7.9), 8, nfmt::SSCALED), 0xf9);
    assert_eq!(store_channel(1000, 8, nfmt::UINT), 255);
    assert_eq!(store_channel((-1000i32) as u32, 8, nfmt::SINT), 0x80);
    assert_eq!(store_channel(100, 8, nfmt::SINT), 100);
    assert_eq!(store_channel(0xdead_beef, 32, nfmt::UNORM), 0xdead_beef);
    // Every 8/16-bit UNORM/SNORM code survives a load/store round trip.
    for n in [8u8, 16] {
        for v in 0..(1u64 << n) {
            for num in [nfmt::UNORM, nfmt::SNORM, nfmt::UINT, nfmt::SINT] {
                let r = load_channel(v, n, num);
                let back = store_channel(r, n, num);
                // SNORM's most negative code loads as -1.0 and stores as its neighbour.
                let want = if num == nfmt::SNORM && v == 1 << (n - 1) {
                    v + 1
                } else {
                    v
                };
                assert_eq!(back, want, "n {n} v {v:#x} nfmt {num}");
            }
        }
    }
}

/// The value of an unsigned small float encoding, computed from its definition.
fn small_value(v: u64, m: u8) -> f64 {
    let (e, f) = ((v >> m) as i32, (v & ((1 << m) - 1)) as f64);
    let scale = f64::from(1u32 << m);
    if e == 0 {
        f / scale * 2f64.powi(-14)
    } else {
        (1.0 + f / scale) * 2f64.powi(e - 15)
    }
}

#[test]
fn small_floats_round_trip_and_round_to_nearest_even() {
    for (n, m) in [(11u8, 6u8), (10, 5)] {
        let finite = 31u64 << m;
        for v in 0..finite {
            let x = small_value(v, m);
            let r = load_channel(v, n, nfmt::FLOAT);
            assert_eq!(f64::from(f32::from_bits(r)), x, "decode {v:#x}");
            assert_eq!(store_channel(r, n, nfmt::FLOAT), v, "round trip {v:#x}");
            if v + 1 < finite {
                // The midpoint goes to the even neighbour.
                let mid = (x + small_value(v + 1, m)) / 2.0;
                let even = if v % 2 == 0 { v } else { v + 1 };
                assert_eq!(
                    store_channel((mid as f32).to_bits(), n, nfmt::FLOAT),
                    even,
                    "tie {v:#x}"
                );
            }
        }
        let b = |x: f32| x.to_bits();
        assert_eq!(store_channel(b(-5.0), n, nfmt::FLOAT), 0);
        assert_eq!(store_channel(b(1e9), n, nfmt::FLOAT), finite - 1);
        assert_eq!(store_channel(b(f32::INFINITY), n, nfmt::FLOAT), finite);
        assert!(f32::from_bits(load_channel(
            store_channel(b(f32::NAN), n, nfmt::FLOAT),
            n,
            nfmt::FLOAT
        ))
        .is_nan());
    }
}

#[test]
fn packed_layouts_put_x_in_the_low_bits() {
    let one = 1.0f32.to_bits();
    let two = 2.0f32.to_bits();
    let half = 0.5f32.to_bits();
    // R11G11B10: X 11 bits at 0, Y 11 at 11, Z 10 at 22. 1.0 = 15 << 6, 2.0 = 16 << 6,
    // 0.5 (10-bit) = 14 << 5.
    let (b, n) = pack(6, nfmt::FLOAT, [one, two, half, 0]);
    let word = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    assert_eq!(n, 4);
    assert_eq!(word, 15 << 6 | (16 << 6) << 11 | (14 << 5) << 22);
    assert_eq!(unpack(6, nfmt::FLOAT, &b[..4]), [one, two, half, 0]);
    // R10G10B10A2 UINT.
    let (b, _) = pack(9, nfmt::UINT, [1, 2, 3, 3]);
    let word = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    assert_eq!(word, 1 | 2 << 10 | 3 << 20 | 3 << 30);
    // 10_10_10_2: X is the 2-bit channel.
    let (b, _) = pack(8, nfmt::UINT, [3, 5, 6, 7]);
    let word = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    assert_eq!(word, 3 | 5 << 2 | 6 << 12 | 7 << 22);
    // Every format round-trips integer channels at its element size.
    for dfmt in 1..=14u8 {
        let widths = channels(dfmt);
        let vals: [u32; 4] = std::array::from_fn(|c| {
            widths
                .get(c)
                .map_or(0, |&w| (0x9e37_79b9u32 >> c) & mask(w) as u32)
        });
        let (b, n) = pack(dfmt, nfmt::UINT, vals);
        assert_eq!(n as u32, element_bytes(dfmt), "dfmt {dfmt}");
        assert_eq!(unpack(dfmt, nfmt::UINT, &b[..n]), vals, "dfmt {dfmt}");
    }
    assert_eq!(element_bytes(0), 0);
    assert_eq!(element_bytes(15), 0);
}

#[test]
fn d16_halves_follow_the_number_format() {
    assert_eq!(to_d16(0x1234_5678, nfmt::UINT), 0x5678);
    assert_eq!(to_d16(1.0f32.to_bits(), nfmt::UNORM), 0x3c00);
    assert_eq!(from_d16(0x8000, nfmt::SINT), 0xffff_8000);
    assert_eq!(from_d16(0x8000, nfmt::UINT), 0x8000);
    assert_eq!(from_d16(0x3c00, nfmt::FLOAT), 1.0f32.to_bits());
}
