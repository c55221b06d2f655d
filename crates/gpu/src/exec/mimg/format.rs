//! Texel formats: GFX9 `IMG_DATA_FORMAT` (how an element's bits split into components) ×
//! `IMG_NUM_FORMAT` (what a component's bits mean), converted to the values the texture unit
//! returns in registers and back. Data format codes 1–14 are also the buffer formats
//! (`BUF_DATA_FORMAT`), so MTBUF and `buffer_*_format` can use the same conversions.
//!
//! Conversions (exact definitions, shared by loads, sampling, stores and the runtime's
//! `hsa_ext_image_clear`):
//! - UNORM n bits: `v / (2^n - 1)` as one f32 division; stores clamp to [0, 1] and round
//!   `x * (2^n - 1)` to nearest even (NaN stores 0).
//! - SNORM: `max(v / (2^(n-1) - 1), -1)`; stores clamp to [-1, 1], round to nearest even.
//! - USCALED / SSCALED: the integer as f32; stores truncate toward zero and saturate.
//! - UINT / SINT: the integer, zero- or sign-extended; stores saturate to the component.
//! - FLOAT: f32, f16 (exact widening; stores round to nearest even), unsigned 11/10-bit floats
//!   (stores clamp finite values to the largest finite one).
//! - SRGB: UNORM, then the sRGB curve on X, Y and Z (`((c + 0.055) / 1.055)^2.4` above 0.04045,
//!   `c / 12.92` below, in f64 rounded once to f32); stores apply the inverse curve first.
//!
//! Components a format lacks read as 0 (X, Y, Z) and 1 (W), as 1.0 or the integer 1.

use crate::valu::{f16_to_f32, f32_to_f16};

/// `IMG_NUM_FORMAT` codes.
pub mod nfmt {
    pub const UNORM: u8 = 0;
    pub const SNORM: u8 = 1;
    pub const USCALED: u8 = 2;
    pub const SSCALED: u8 = 3;
    pub const UINT: u8 = 4;
    pub const SINT: u8 = 5;
    pub const FLOAT: u8 = 7;
    pub const SRGB: u8 = 9;
}

/// `IMG_DATA_FORMAT` codes the software GPU converts.
pub mod dfmt {
    pub const INVALID: u8 = 0;
    pub const F8: u8 = 1;
    pub const F16: u8 = 2;
    pub const F8_8: u8 = 3;
    pub const F32: u8 = 4;
    pub const F16_16: u8 = 5;
    pub const F10_11_11: u8 = 6;
    pub const F11_11_10: u8 = 7;
    pub const F10_10_10_2: u8 = 8;
    pub const F2_10_10_10: u8 = 9;
    pub const F8_8_8_8: u8 = 10;
    pub const F32_32: u8 = 11;
    pub const F16_16_16_16: u8 = 12;
    pub const F32_32_32: u8 = 13;
    pub const F32_32_32_32: u8 = 14;
    pub const F5_6_5: u8 = 16;
    pub const F1_5_5_5: u8 = 17;
    pub const F5_5_5_1: u8 = 18;
    pub const F4_4_4_4: u8 = 19;
    pub const F8_24: u8 = 20;
    pub const F24_8: u8 = 21;
    pub const X24_8_32: u8 = 22;
}

/// How an element's bits split into components: (first bit, bits) for X, Y, Z, W in turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataFormat {
    pub bytes: u8,
    pub comps: &'static [(u8, u8)],
}

/// The layout of data format `df`, or `None` (invalid or not converted by softhsa).
pub fn data_format(df: u8) -> Option<DataFormat> {
    let f = |bytes, comps| Some(DataFormat { bytes, comps });
    match df {
        dfmt::F8 => f(1, &[(0, 8)]),
        dfmt::F16 => f(2, &[(0, 16)]),
        dfmt::F8_8 => f(2, &[(0, 8), (8, 8)]),
        dfmt::F32 => f(4, &[(0, 32)]),
        dfmt::F16_16 => f(4, &[(0, 16), (16, 16)]),
        dfmt::F10_11_11 => f(4, &[(0, 11), (11, 11), (22, 10)]),
        dfmt::F11_11_10 => f(4, &[(0, 10), (10, 11), (21, 11)]),
        dfmt::F10_10_10_2 => f(4, &[(0, 2), (2, 10), (12, 10), (22, 10)]),
        dfmt::F2_10_10_10 => f(4, &[(0, 10), (10, 10), (20, 10), (30, 2)]),
        dfmt::F8_8_8_8 => f(4, &[(0, 8), (8, 8), (16, 8), (24, 8)]),
        dfmt::F32_32 => f(8, &[(0, 32), (32, 32)]),
        dfmt::F16_16_16_16 => f(8, &[(0, 16), (16, 16), (32, 16), (48, 16)]),
        dfmt::F32_32_32 => f(12, &[(0, 32), (32, 32), (64, 32)]),
        dfmt::F32_32_32_32 => f(16, &[(0, 32), (32, 32), (64, 32), (96, 32)]),
        dfmt::F5_6_5 => f(2, &[(0, 5), (5, 6), (11, 5)]),
        dfmt::F1_5_5_5 => f(2, &[(0, 5), (5, 5), (10, 5), (15, 1)]),
        dfmt::F5_5_5_1 => f(2, &[(0, 1), (1, 5), (6, 5), (11, 5)]),
        dfmt::F4_4_4_4 => f(2, &[(0, 4), (4, 4), (8, 4), (12, 4)]),
        dfmt::F8_24 => f(4, &[(0, 24), (24, 8)]),
        dfmt::F24_8 => f(4, &[(0, 8), (8, 24)]),
        dfmt::X24_8_32 => f(8, &[(0, 32), (32, 8)]),
        _ => None,
    }
}

/// Whether a num format returns integers (no filtering, integer constants 0/1).
pub fn is_integer(nf: u8) -> bool {
    matches!(nf, nfmt::UINT | nfmt::SINT)
}

/// The register value of the constant 1 for num format `nf`.
pub fn one(nf: u8) -> u32 {
    if is_integer(nf) {
        1
    } else {
        1.0f32.to_bits()
    }
}

/// Register values of X, Y, Z, W (f32 bits, or integers for UINT/SINT).
pub type Texel = [u32; 4];

fn bits_of(raw: u128, (at, n): (u8, u8)) -> u32 {
    let m = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
    (raw >> at) as u32 & m
}

fn sext(v: u32, n: u8) -> i32 {
    if n >= 32 {
        v as i32
    } else {
        ((v << (32 - n)) as i32) >> (32 - n)
    }
}

/// The components' raw bits (zero-extended), for the `_pck` loads.
pub fn raw_components(f: &DataFormat, raw: u128) -> [u32; 4] {
    let mut out = [0u32; 4];
    for (o, &c) in out.iter_mut().zip(f.comps) {
        *o = bits_of(raw, c);
    }
    out
}

/// Packs raw component bits (truncated to each component) into an element.
pub fn pack_components(f: &DataFormat, comps: [u32; 4]) -> u128 {
    f.comps.iter().zip(comps).fold(0u128, |acc, (&(at, n), v)| {
        let m = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
        acc | (u128::from(v & m) << at)
    })
}

/// An unsigned float of `mant` mantissa bits and a 5-bit exponent (bias 15) → f32.
fn ufloat_to_f32(v: u32, mant: u32) -> f32 {
    let e = v >> mant;
    let m = v & ((1 << mant) - 1);
    match e {
        0 => m as f32 * 2f32.powi(-14 - mant as i32),
        31 if m == 0 => f32::INFINITY,
        31 => f32::NAN,
        _ => (1.0 + m as f32 / (1 << mant) as f32) * 2f32.powi(e as i32 - 15),
    }
}

/// f32 → unsigned float of `mant` mantissa bits, rounded to nearest even; negative values
/// and −inf → 0, +inf → inf, finite values too large → the largest finite value (the D3D
/// rule), NaN → NaN.
fn f32_to_ufloat(x: f32, mant: u32) -> u32 {
    let inf = 31 << mant;
    if x.is_nan() {
        return inf | 1 << (mant - 1);
    }
    if x <= 0.0 {
        return 0;
    }
    if x.is_infinite() {
        return inf;
    }
    let x = f64::from(x);
    // Scale so that the mantissa's last place is the unit, then round.
    let e = x.log2().floor().clamp(-14.0, 16.0) as i32;
    let q = (x * 2f64.powi(mant as i32 - e)).round_ties_even();
    let (mut e, mut q) = (e, q as u64);
    if q >= 2u64 << mant {
        q >>= 1;
        e += 1;
    }
    if e > 15 {
        return (30 << mant) | ((1 << mant) - 1);
    }
    if q < 1 << mant {
        // Denormal (e == -14).
        return q as u32;
    }
    (((e + 15) as u32) << mant) | (q as u32 & ((1 << mant) - 1))
}

fn srgb_to_linear(c: f32) -> f32 {
    let c = f64::from(c);
    (if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }) as f32
}

fn linear_to_srgb(c: f32) -> f32 {
    let c = f64::from(c.clamp(0.0, 1.0));
    (if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }) as f32
}

/// One component's register value (`None`: the pair is not a valid texel format).
fn decode_comp(v: u32, n: u8, nf: u8, index: usize) -> Option<u32> {
    let max = if n >= 32 { u32::MAX } else { (1 << n) - 1 };
    Some(match nf {
        nfmt::UNORM if n < 32 => (v as f32 / max as f32).to_bits(),
        nfmt::SNORM if n < 32 => {
            let h = (1u32 << (n - 1)) - 1;
            (sext(v, n) as f32 / h as f32).max(-1.0).to_bits()
        }
        nfmt::USCALED => (v as f32).to_bits(),
        nfmt::SSCALED => (sext(v, n) as f32).to_bits(),
        nfmt::UINT => v,
        nfmt::SINT => sext(v, n) as u32,
        nfmt::FLOAT => match n {
            32 => v,
            16 => f16_to_f32(v as u16),
            11 => ufloat_to_f32(v, 6).to_bits(),
            10 => ufloat_to_f32(v, 5).to_bits(),
            _ => return None,
        },
        nfmt::SRGB if n == 8 => {
            let c = v as f32 / 255.0;
            if index < 3 {
                srgb_to_linear(c).to_bits()
            } else {
                c.to_bits()
            }
        }
        _ => return None,
    })
}

/// Converts an element's raw bits to register values.
pub fn decode(f: &DataFormat, nf: u8, raw: u128) -> Option<Texel> {
    let mut t = [0, 0, 0, one(nf)];
    if f.comps.iter().all(|&(_, n)| n == 32) && matches!(nf, nfmt::FLOAT | nfmt::UINT | nfmt::SINT)
    {
        // 32-bit floats and integers are their own register values.
        for (i, v) in t.iter_mut().enumerate().take(f.comps.len()) {
            *v = (raw >> (32 * i)) as u32;
        }
        return Some(t);
    }
    for (i, &c) in f.comps.iter().enumerate() {
        t[i] = decode_comp(bits_of(raw, c), c.1, nf, i)?;
    }
    Some(t)
}

fn round_sat(x: f64, lo: f64, hi: f64) -> i64 {
    if x.is_nan() {
        0
    } else {
        x.clamp(lo, hi).round_ties_even() as i64
    }
}

fn trunc_sat(x: f64, lo: f64, hi: f64) -> i64 {
    if x.is_nan() {
        0
    } else {
        x.clamp(lo, hi).trunc() as i64
    }
}

fn encode_comp(v: u32, n: u8, nf: u8, index: usize) -> Option<u32> {
    let max = if n >= 32 { u32::MAX } else { (1 << n) - 1 };
    let x = f64::from(f32::from_bits(v));
    Some(match nf {
        nfmt::UNORM if n < 32 => round_sat(x * f64::from(max), 0.0, f64::from(max)) as u32,
        nfmt::SNORM if n < 32 => {
            let h = f64::from((1u32 << (n - 1)) - 1);
            let c = if x.is_nan() { 0.0 } else { x.clamp(-1.0, 1.0) };
            round_sat(c * h, -h, h) as u32
        }
        // SCALED stores truncate toward zero and saturate (Vulkan's float-to-integer rule).
        nfmt::USCALED => trunc_sat(x, 0.0, f64::from(max)) as u32,
        nfmt::SSCALED => {
            let h = f64::from(((1u64 << (n - 1)) - 1) as u32);
            trunc_sat(x, -h - 1.0, h) as u32
        }
        nfmt::UINT => v.min(max),
        nfmt::SINT => {
            let h = ((1i64 << (n - 1)) - 1) as i32;
            (v as i32).clamp(-h - 1, h) as u32
        }
        nfmt::FLOAT => match n {
            32 => v,
            16 => u32::from(f32_to_f16(v)),
            11 => f32_to_ufloat(f32::from_bits(v), 6),
            10 => f32_to_ufloat(f32::from_bits(v), 5),
            _ => return None,
        },
        nfmt::SRGB if n == 8 => {
            let c = if index < 3 {
                linear_to_srgb(f32::from_bits(v))
            } else {
                f32::from_bits(v)
            };
            round_sat(f64::from(c) * 255.0, 0.0, 255.0) as u32
        }
        _ => return None,
    })
}

/// Converts register values (component order X..W) to an element's raw bits.
pub fn encode(f: &DataFormat, nf: u8, t: Texel) -> Option<u128> {
    let mut comps = [0u32; 4];
    for (i, &c) in f.comps.iter().enumerate() {
        comps[i] = encode_comp(t[i], c.1, nf, i)?;
    }
    Some(pack_components(f, comps))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(v: u32) -> f32 {
        f32::from_bits(v)
    }

    #[test]
    fn unorm_snorm_round_trip() {
        let rgba8 = data_format(dfmt::F8_8_8_8).unwrap();
        let t = decode(&rgba8, nfmt::UNORM, 0x80ff_0001).unwrap();
        assert_eq!(f(t[0]), 1.0 / 255.0);
        assert_eq!(f(t[1]), 0.0);
        assert_eq!(f(t[2]), 1.0);
        assert_eq!(f(t[3]), 128.0 / 255.0);
        assert_eq!(encode(&rgba8, nfmt::UNORM, t), Some(0x80ff_0001));
        // Clamping, NaN, rounding half to even (0.5/255 * 255 = 0.5 → 0; 1.5/255 → 2).
        let s = [2.0f32, -1.0, f32::NAN, 1.5 / 255.0].map(f32::to_bits);
        assert_eq!(encode(&rgba8, nfmt::UNORM, s), Some(0x0200_00ff));
        let r16 = data_format(dfmt::F16).unwrap();
        let t = decode(&r16, nfmt::SNORM, 0x8000).unwrap();
        assert_eq!(f(t[0]), -1.0);
        assert_eq!(f(t[3]), 1.0);
        assert_eq!(
            encode(&r16, nfmt::SNORM, [(-0.5f32).to_bits(), 0, 0, 0]),
            Some(u128::from((-16384i16) as u16))
        );
    }

    #[test]
    fn integers_saturate_on_store() {
        let r8 = data_format(dfmt::F8).unwrap();
        assert_eq!(encode(&r8, nfmt::UINT, [300, 0, 0, 0]), Some(255));
        assert_eq!(
            encode(&r8, nfmt::SINT, [(-300i32) as u32, 0, 0, 0]),
            Some(0x80)
        );
        assert_eq!(decode(&r8, nfmt::SINT, 0xff).unwrap()[0], u32::MAX);
        assert_eq!(decode(&r8, nfmt::UINT, 0xff).unwrap(), [255, 0, 0, 1]);
        // SCALED: truncation toward zero, saturated.
        let t = [(-2.7f32).to_bits(), 0, 0, 0];
        assert_eq!(encode(&r8, nfmt::SSCALED, t), Some(0xfe));
        assert_eq!(
            encode(&r8, nfmt::USCALED, [(300.9f32).to_bits(), 0, 0, 0]),
            Some(255)
        );
    }

    #[test]
    fn packed_formats() {
        // 5_6_5: X in bits 4:0, Y 10:5, Z 15:11.
        let f565 = data_format(dfmt::F5_6_5).unwrap();
        let t = decode(&f565, nfmt::UNORM, 0xf800).unwrap();
        assert_eq!((f(t[0]), f(t[1]), f(t[2])), (0.0, 0.0, 1.0));
        let f1010102 = data_format(dfmt::F2_10_10_10).unwrap();
        let raw = pack_components(&f1010102, [1023, 0, 512, 3]);
        assert_eq!(raw, 0xe000_03ff);
        assert_eq!(raw_components(&f1010102, raw), [1023, 0, 512, 3]);
    }

    #[test]
    fn floats() {
        let h = data_format(dfmt::F16_16_16_16).unwrap();
        let t = [1.5f32, -0.0, 65520.0, 1e-8].map(f32::to_bits);
        let raw = encode(&h, nfmt::FLOAT, t).unwrap();
        assert_eq!(raw, 0x0000_7c00_8000_3e00);
        let back = decode(&h, nfmt::FLOAT, raw).unwrap();
        assert_eq!(f(back[0]), 1.5);
        assert!(f(back[2]).is_infinite());
        // 11_11_10: X is a 10-bit float (5-bit mantissa), Y and Z 11-bit floats.
        let r11 = data_format(dfmt::F11_11_10).unwrap();
        let t = [1.0f32, 0.5, 3.0, 0.0].map(f32::to_bits);
        let raw = encode(&r11, nfmt::FLOAT, t).unwrap();
        let back = decode(&r11, nfmt::FLOAT, raw).unwrap();
        assert_eq!([f(back[0]), f(back[1]), f(back[2])], [1.0, 0.5, 3.0]);
        assert_eq!(f32_to_ufloat(-2.0, 6), 0);
        assert_eq!(ufloat_to_f32(f32_to_ufloat(65024.0, 6), 6), 65024.0);
        assert_eq!(f32_to_ufloat(1e9, 6), (30 << 6) | 63);
        assert_eq!(f32_to_ufloat(f32::INFINITY, 5), 31 << 5);
        assert_eq!(ufloat_to_f32(1, 6), 2f32.powi(-20));
    }

    #[test]
    fn srgb_curve() {
        let rgba8 = data_format(dfmt::F8_8_8_8).unwrap();
        let t = decode(&rgba8, nfmt::SRGB, 0x80ff_8000).unwrap();
        assert_eq!(f(t[0]), 0.0);
        let c = f64::from(128.0f32 / 255.0);
        assert_eq!(f(t[1]), ((c + 0.055) / 1.055).powf(2.4) as f32);
        assert_eq!(f(t[2]), 1.0);
        // Alpha stays linear.
        assert_eq!(f(t[3]), 128.0 / 255.0);
        assert_eq!(encode(&rgba8, nfmt::SRGB, t), Some(0x80ff_8000));
    }
}
