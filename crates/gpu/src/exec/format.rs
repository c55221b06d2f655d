//! Buffer data and number formats (DFMT/NFMT of MTBUF instructions and of the V# for
//! `buffer_*_format_*`): how an element's bytes become four 32-bit channel values in VGPRs and
//! back (Vega ISA §8.1.4 and the MTBUF field table).
//!
//! Layout: a format name lists channel widths from the most significant end, so channel X is
//! at bit 0: `10_11_11` is X = bits 10:0, Y = 21:11, Z = 31:22 (R11G11B10); `2_10_10_10` is
//! X = 9:0 ... W = 31:30 (R10G10B10A2).
//!
//! Loads (memory → register): 32-bit channels are returned unconverted whatever the number
//! format; otherwise UNORM x/(2^n−1), SNORM max(x/(2^(n−1)−1), −1) (D3D rule), USCALED/SSCALED
//! the integer as a float, UINT/SINT zero/sign extended, FLOAT f16 or the unsigned 11/10-bit
//! floats widened exactly. Invalid combinations (FLOAT with 8- or 2-bit channels, NFMT 6) read
//! 0. Channels the format lacks read 0.
//!
//! Stores (register → memory), where the ISA does not spell the rounding out, follow the
//! Vulkan/D3D conversion rules: UNORM/SNORM clamp then round to nearest even (NaN → 0), SCALED
//! truncate toward zero and saturate, UINT/SINT saturate, FLOAT rounds to nearest even (f16
//! overflows to infinity; the unsigned 11/10-bit floats clamp to their largest finite value,
//! negative values and −inf become 0, NaN stays NaN).
//!
//! D16 forms move 16-bit halves: integer formats keep the low 16 bits (zero or sign extended
//! back on stores), the others convert f32 ↔ f16 (round to nearest even).

/// Number formats (NFMT).
pub mod nfmt {
    pub const UNORM: u8 = 0;
    pub const SNORM: u8 = 1;
    pub const USCALED: u8 = 2;
    pub const SSCALED: u8 = 3;
    pub const UINT: u8 = 4;
    pub const SINT: u8 = 5;
    pub const FLOAT: u8 = 7;
}

/// Channel widths of data format `dfmt`, X first; empty for INVALID (0) and RESERVED (15).
pub fn channels(dfmt: u8) -> &'static [u8] {
    match dfmt {
        1 => &[8],
        2 => &[16],
        3 => &[8, 8],
        4 => &[32],
        5 => &[16, 16],
        6 => &[11, 11, 10],
        7 => &[10, 11, 11],
        8 => &[2, 10, 10, 10],
        9 => &[10, 10, 10, 2],
        10 => &[8, 8, 8, 8],
        11 => &[32, 32],
        12 => &[16, 16, 16, 16],
        13 => &[32, 32, 32],
        14 => &[32, 32, 32, 32],
        _ => &[],
    }
}

/// Bytes of one element of `dfmt` (0 for INVALID/RESERVED: the resource is unbound).
pub fn element_bytes(dfmt: u8) -> u32 {
    channels(dfmt).iter().map(|&b| u32::from(b)).sum::<u32>() / 8
}

/// Whether `nfmt` returns integers (the others return floats).
pub fn is_integer(nfmt: u8) -> bool {
    matches!(nfmt, nfmt::UINT | nfmt::SINT)
}

fn mask(n: u8) -> u64 {
    (1u64 << n) - 1
}

fn sext(v: u64, n: u8) -> i64 {
    ((v << (64 - n)) as i64) >> (64 - n)
}

/// An unsigned float with a 5-bit exponent (bias 15) and `m` mantissa bits, widened exactly.
fn small_float_to_f32(v: u64, m: u8) -> f32 {
    let (e, f) = ((v >> m) & 31, v & mask(m));
    let scale = (1u64 << m) as f32;
    match e {
        0 => f as f32 / scale * 2f32.powi(-14),
        31 if f == 0 => f32::INFINITY,
        31 => f32::NAN,
        _ => (1.0 + f as f32 / scale) * 2f32.powi(e as i32 - 15),
    }
}

/// The magnitude `a` (finite, ≥ 0) as a float with a 5-bit exponent (bias 15) and `m`
/// mantissa bits, rounded to nearest even; `None` when it rounds past the largest finite value.
fn round_small(a: f64, m: u8) -> Option<u64> {
    let m = i32::from(m);
    if a < 2f64.powi(-14) {
        // Denormals (a carry into the exponent field encodes the smallest normal exactly).
        return Some((a * 2f64.powi(14 + m)).round_ties_even() as u64);
    }
    let e = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let k = (a / 2f64.powi(e - m)).round_ties_even() as u64;
    let (e, k) = if k == 2 << m { (e + 1, 1 << m) } else { (e, k) };
    (e + 15 < 31).then(|| ((e + 15) as u64) << m | (k - (1 << m)))
}

/// An f32 as an unsigned float of `m` mantissa bits (5-bit exponent): negative values and −inf
/// become 0, finite values too large clamp to the largest finite one, NaN stays NaN.
fn f32_to_small_float(x: f32, m: u8) -> u64 {
    if x.is_nan() {
        return 31 << m | 1 << (m - 1);
    }
    if x <= 0.0 {
        return 0;
    }
    if x.is_infinite() {
        return 31 << m;
    }
    round_small(f64::from(x), m).unwrap_or(30 << m | mask(m))
}

/// f16 bits widened to f32 (exact).
pub fn f16_to_f32(h: u16) -> f32 {
    let (s, e, f) = (h >> 15, (h >> 10) & 31, u32::from(h & 0x3ff));
    let mag = match e {
        0 => f as f32 * 2f32.powi(-24),
        31 if f == 0 => f32::INFINITY,
        31 => return f32::from_bits(u32::from(s) << 31 | 0x7fc0_0000 | f << 13),
        _ => f32::from_bits((u32::from(e) + 112) << 23 | f << 13),
    };
    if s != 0 {
        -mag
    } else {
        mag
    }
}

/// f32 to f16 bits, round to nearest even, overflow to infinity, NaN quieted (payload kept).
pub fn f32_to_f16(x: f32) -> u16 {
    let sign = ((x.to_bits() >> 16) & 0x8000) as u16;
    if x.is_nan() {
        return sign | 0x7e00 | ((x.to_bits() >> 13) & 0x3ff) as u16;
    }
    let a = f64::from(x.abs());
    match round_small(a, 10) {
        Some(v) if a.is_finite() => sign | v as u16,
        _ => sign | 0x7c00,
    }
}

/// One channel of `n` bits to its 32-bit register value.
pub fn load_channel(v: u64, n: u8, num: u8) -> u32 {
    if n == 32 {
        return v as u32;
    }
    let max = mask(n) as f64;
    let f = |x: f64| (x as f32).to_bits();
    match num {
        nfmt::UNORM => f(v as f64 / max),
        nfmt::SNORM => f((sext(v, n) as f64 / mask(n - 1) as f64).max(-1.0)),
        nfmt::USCALED => f(v as f64),
        nfmt::SSCALED => f(sext(v, n) as f64),
        nfmt::UINT => v as u32,
        nfmt::SINT => sext(v, n) as u32,
        nfmt::FLOAT => match n {
            16 => f16_to_f32(v as u16).to_bits(),
            11 | 10 => small_float_to_f32(v, n - 5).to_bits(),
            _ => 0,
        },
        _ => 0,
    }
}

/// A 32-bit register value to one channel of `n` bits.
pub fn store_channel(r: u32, n: u8, num: u8) -> u64 {
    if n == 32 {
        return u64::from(r);
    }
    let x = f32::from_bits(r);
    let fin = |x: f32| if x.is_nan() { 0.0 } else { f64::from(x) };
    let (umax, smax) = (mask(n) as f64, mask(n - 1) as f64);
    match num {
        nfmt::UNORM => (fin(x).clamp(0.0, 1.0) * umax).round_ties_even() as u64,
        nfmt::SNORM => (fin(x).clamp(-1.0, 1.0) * smax).round_ties_even() as i64 as u64 & mask(n),
        nfmt::USCALED => fin(x).clamp(0.0, umax).trunc() as u64,
        nfmt::SSCALED => fin(x).clamp(-smax - 1.0, smax).trunc() as i64 as u64 & mask(n),
        nfmt::UINT => u64::from(r).min(mask(n)),
        nfmt::SINT => {
            let v = i64::from(r as i32).clamp(-(smax as i64) - 1, smax as i64);
            v as u64 & mask(n)
        }
        nfmt::FLOAT => match n {
            16 => u64::from(f32_to_f16(x)),
            11 | 10 => f32_to_small_float(x, n - 5),
            _ => 0,
        },
        _ => 0,
    }
}

/// The four channel values of one element (`bytes`: little-endian, [`element_bytes`] long).
pub fn unpack(dfmt: u8, num: u8, bytes: &[u8]) -> [u32; 4] {
    let all = bytes
        .iter()
        .take(16)
        .enumerate()
        .fold(0u128, |a, (i, &b)| a | u128::from(b) << (8 * i));
    let mut out = [0u32; 4];
    let mut bit = 0u32;
    for (c, &n) in channels(dfmt).iter().enumerate() {
        out[c] = load_channel((all >> bit) as u64 & mask(n), n, num);
        bit += u32::from(n);
    }
    out
}

/// The bytes of one element holding channel values `vals` (channels past the format's count
/// are ignored). Returns the bytes and their count.
pub fn pack(dfmt: u8, num: u8, vals: [u32; 4]) -> ([u8; 16], usize) {
    let mut out = [0u8; 16];
    let mut acc = 0u128;
    let mut bit = 0u32;
    for (c, &n) in channels(dfmt).iter().enumerate() {
        acc |= u128::from(store_channel(vals[c], n, num)) << bit;
        bit += u32::from(n);
    }
    for (i, b) in out.iter_mut().enumerate() {
        *b = (acc >> (8 * i)) as u8;
    }
    (out, (bit / 8) as usize)
}

/// A channel's register value as the 16 bits a D16 load writes.
pub fn to_d16(v: u32, num: u8) -> u16 {
    if is_integer(num) {
        v as u16
    } else {
        f32_to_f16(f32::from_bits(v))
    }
}

/// The 32-bit register value a D16 store's 16-bit half stands for.
pub fn from_d16(h: u16, num: u8) -> u32 {
    match num {
        nfmt::UINT => u32::from(h),
        nfmt::SINT => h as i16 as i32 as u32,
        _ => f16_to_f32(h).to_bits(),
    }
}

#[cfg(test)]
#[path = "format_tests.rs"]
mod tests;
