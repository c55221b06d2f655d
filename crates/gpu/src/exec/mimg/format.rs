//! Image texel formats: GFX9 `IMG_DATA_FORMAT` (how an element's bits split into components) ×
//! `IMG_NUM_FORMAT` (what a component's bits mean), converted to the values the texture unit
//! returns in registers and back.
//!
//! Built on the buffer formats ([`crate::exec::format`]): data formats 1–14 and every
//! per-channel conversion are theirs (the same hardware converts both); images add the data
//! formats 16–22 (5_6_5, 1_5_5_5, 5_5_5_1, 4_4_4_4, 8_24, 24_8, X24_8_32) and the SRGB number
//! format (UNORM, then the sRGB curve on X, Y and Z: `((c + 0.055) / 1.055)^2.4` above 0.04045,
//! `c / 12.92` below, in f64 rounded once to f32; stores apply the inverse curve first).
//!
//! Components a format lacks read as 0 (X, Y, Z) and 1 (W), as 1.0 or the integer 1. A number
//! format the hardware cannot apply to a component (FLOAT on 8 bits, reserved codes) makes the
//! texel invalid (`None`), which the callers report.

use crate::exec::format as buf;
pub use buf::{f16_to_f32, f32_to_f16, is_integer};

/// `IMG_NUM_FORMAT` codes: the buffer ones and SRGB.
pub mod nfmt {
    pub use crate::exec::format::nfmt::*;
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
    n: u8,
    comps: [(u8, u8); 4],
}

impl DataFormat {
    /// The components, X first.
    #[inline]
    pub fn comps(&self) -> &[(u8, u8)] {
        &self.comps[..usize::from(self.n)]
    }
}

/// The layout of data format `df`, or `None` (invalid or not converted by softhsa).
pub fn data_format(df: u8) -> Option<DataFormat> {
    // Widths from X up; the image-only formats are named like the buffer ones (from the top).
    let widths: &[u8] = match df {
        dfmt::F5_6_5 => &[5, 6, 5],
        dfmt::F1_5_5_5 => &[5, 5, 5, 1],
        dfmt::F5_5_5_1 => &[1, 5, 5, 5],
        dfmt::F4_4_4_4 => &[4, 4, 4, 4],
        dfmt::F8_24 => &[24, 8],
        dfmt::F24_8 => &[8, 24],
        // X24_8_32: a 32-bit X, then 8 bits of Y in the next dword (24 bits unused).
        dfmt::X24_8_32 => {
            return Some(DataFormat {
                bytes: 8,
                n: 2,
                comps: [(0, 32), (32, 8), (0, 0), (0, 0)],
            })
        }
        _ => buf::channels(df),
    };
    if widths.is_empty() {
        return None;
    }
    let mut f = DataFormat {
        bytes: 0,
        n: widths.len() as u8,
        comps: [(0, 0); 4],
    };
    let mut at = 0u8;
    for (c, &w) in f.comps.iter_mut().zip(widths) {
        *c = (at, w);
        at += w;
    }
    f.bytes = at / 8;
    Some(f)
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

/// The components' raw bits (zero-extended), for the `_pck` loads.
pub fn raw_components(f: &DataFormat, raw: u128) -> [u32; 4] {
    let mut out = [0u32; 4];
    for (o, &c) in out.iter_mut().zip(f.comps()) {
        *o = bits_of(raw, c);
    }
    out
}

/// Packs raw component bits (truncated to each component) into an element.
pub fn pack_components(f: &DataFormat, comps: [u32; 4]) -> u128 {
    f.comps()
        .iter()
        .zip(comps)
        .fold(0u128, |acc, (&(at, n), v)| {
            let m = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
            acc | (u128::from(v & m) << at)
        })
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

/// Whether number format `nf` applies to a component of `n` bits.
fn valid(n: u8, nf: u8) -> bool {
    match nf {
        nfmt::UNORM..=nfmt::SINT => true,
        nfmt::FLOAT => matches!(n, 10 | 11 | 16 | 32),
        nfmt::SRGB => n == 8,
        _ => false,
    }
}

/// One component's register value.
fn decode_comp(v: u32, n: u8, nf: u8, index: usize) -> u32 {
    if nf == nfmt::SRGB {
        let c = f32::from_bits(buf::load_channel(u64::from(v), n, nfmt::UNORM));
        return if index < 3 { srgb_to_linear(c) } else { c }.to_bits();
    }
    buf::load_channel(u64::from(v), n, nf)
}

/// Converts an element's raw bits to register values.
pub fn decode(f: &DataFormat, nf: u8, raw: u128) -> Option<Texel> {
    let mut t = [0, 0, 0, one(nf)];
    if f.comps().iter().all(|&(_, n)| n == 32) {
        // 32-bit components are their own register values.
        for (i, v) in t.iter_mut().enumerate().take(f.comps().len()) {
            *v = (raw >> (32 * i)) as u32;
        }
        return valid(32, nf).then_some(t);
    }
    for (i, &c) in f.comps().iter().enumerate() {
        if !valid(c.1, nf) {
            return None;
        }
        t[i] = decode_comp(bits_of(raw, c), c.1, nf, i);
    }
    Some(t)
}

/// Converts register values (component order X..W) to an element's raw bits.
pub fn encode(f: &DataFormat, nf: u8, t: Texel) -> Option<u128> {
    let mut comps = [0u32; 4];
    for (i, &(_, n)) in f.comps().iter().enumerate() {
        if !valid(n, nf) {
            return None;
        }
        comps[i] = if nf == nfmt::SRGB {
            let c = f32::from_bits(t[i]);
            let c = if i < 3 { linear_to_srgb(c) } else { c };
            buf::store_channel(c.to_bits(), n, nfmt::UNORM) as u32
        } else {
            buf::store_channel(t[i], n, nf) as u32
        };
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
        // Too large: the largest finite 11-bit float; +inf stays infinite.
        let big = encode(
            &r11,
            nfmt::FLOAT,
            [1e9f32.to_bits(), f32::INFINITY.to_bits(), 0, 0],
        );
        let big = big.unwrap();
        assert_eq!(big & 0x3ff, (30 << 5) | 31);
        assert_eq!((big >> 10) & 0x7ff, 31 << 6);
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
