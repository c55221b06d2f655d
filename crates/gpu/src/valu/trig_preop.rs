//! `v_trig_preop_f64`: 53-bit segments of 2/π for large-argument trig reduction.
//!
//! The 1200 fraction bits of 2/π the hardware holds are computed once, exactly, from Machin's
//! formula (π = 16·atan(1/5) − 4·atan(1/239)) in fixed point, then 2/π by long division; no
//! table of magic numbers to mistype.

use std::sync::OnceLock;

/// Fraction bits of 2/π the hardware provides.
const BITS: usize = 1200;
/// Fraction bits kept while computing π (well above `BITS` to absorb truncation errors).
const FRAC: usize = 1400;
/// 32-bit words of the stored 2/π fraction (big-endian bit order: word 0 holds b1..b32).
const WORDS: usize = BITS.div_ceil(32) + 2;

/// Little-endian fixed-point integer with `FRAC` fraction bits.
type Big = Vec<u32>;

fn limbs() -> usize {
    FRAC / 32 + 3
}

fn div_small(a: &mut Big, d: u32) {
    let mut rem = 0u64;
    for x in a.iter_mut().rev() {
        let cur = rem << 32 | *x as u64;
        *x = (cur / d as u64) as u32;
        rem = cur % d as u64;
    }
}

fn add(a: &mut Big, b: &Big) {
    let mut carry = 0u64;
    for (x, &y) in a.iter_mut().zip(b) {
        let s = *x as u64 + y as u64 + carry;
        *x = s as u32;
        carry = s >> 32;
    }
}

fn sub(a: &mut Big, b: &Big) {
    let mut borrow = 0i64;
    for (x, &y) in a.iter_mut().zip(b) {
        let s = *x as i64 - y as i64 - borrow;
        *x = s as u32;
        borrow = (s < 0) as i64;
    }
}

fn ge(a: &Big, b: &Big) -> bool {
    for (x, y) in a.iter().rev().zip(b.iter().rev()) {
        if x != y {
            return x > y;
        }
    }
    true
}

fn shl1(a: &mut Big) {
    let mut carry = 0u32;
    for x in a.iter_mut() {
        let next = *x >> 31;
        *x = *x << 1 | carry;
        carry = next;
    }
}

/// `mult · atan(1/x)` in fixed point, by its alternating Taylor series.
fn atan_inv(x: u32, mult: u32) -> Big {
    let mut t = vec![0u32; limbs()];
    t[FRAC / 32] = 1 << (FRAC % 32);
    mul_small(&mut t, mult);
    div_small(&mut t, x);
    let mut sum = t.clone();
    let mut k = 1u32;
    loop {
        div_small(&mut t, x * x);
        if t.iter().all(|&w| w == 0) {
            return sum;
        }
        let mut q = t.clone();
        div_small(&mut q, 2 * k + 1);
        if k % 2 == 1 {
            sub(&mut sum, &q);
        } else {
            add(&mut sum, &q);
        }
        k += 1;
    }
}

fn mul_small(a: &mut Big, m: u32) {
    let mut carry = 0u64;
    for x in a.iter_mut() {
        let p = *x as u64 * m as u64 + carry;
        *x = p as u32;
        carry = p >> 32;
    }
}

/// The fraction bits b1..b1200 of 2/π, packed big-endian into 32-bit words (zeros after).
pub fn two_over_pi() -> &'static [u32; WORDS] {
    static TABLE: OnceLock<[u32; WORDS]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut pi = atan_inv(5, 16);
        let b = atan_inv(239, 4);
        sub(&mut pi, &b);
        // Long division 2 / π: the remainder starts at 2 (in the same fixed point) and each
        // step yields one fraction bit of the quotient.
        let mut rem = vec![0u32; limbs()];
        rem[FRAC / 32] = 2 << (FRAC % 32);
        let mut out = [0u32; WORDS];
        for i in 0..BITS {
            shl1(&mut rem);
            if ge(&rem, &pi) {
                sub(&mut rem, &pi);
                out[i / 32] |= 1 << (31 - i % 32);
            }
        }
        out
    })
}

/// 53 bits of the 2/π fraction starting at bit `shift + 1` (bits past 1200 read as 0).
fn segment(shift: usize) -> u64 {
    let t = two_over_pi();
    (0..53).fold(0u64, |acc, j| {
        let i = shift + j;
        let bit = if i < BITS {
            t[i / 32] >> (31 - i % 32) & 1
        } else {
            0
        };
        acc << 1 | bit as u64
    })
}

/// One lane: S0 is the f64 argument (only its exponent matters), S1 selects the segment.
pub fn trig_preop(x: u64, sel: u64) -> u64 {
    let e = ((x >> 52) & 0x7ff) as usize;
    let mut shift = (sel as usize & 31) * 53;
    if e > 1077 {
        shift += e - 1077;
    }
    let mut scale = -53 - shift as i32;
    if e >= 1968 {
        scale += 128;
    }
    let mut v = segment(shift) as f64;
    while scale != 0 {
        let step = scale.max(-1022);
        v *= f64::from_bits(((step + 1023) as u64) << 52);
        scale -= step;
    }
    v.to_bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_over_pi_matches_the_published_digits() {
        // fdlibm's __kernel_rem_pio2 table starts with these 24-bit chunks of 2/π.
        let known: [u32; 8] = [
            0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62, 0x95993C, 0x439041,
        ];
        let want: Vec<u8> = known
            .iter()
            .flat_map(|w| w.to_be_bytes()[1..].to_vec())
            .collect();
        let ours: Vec<u8> = two_over_pi()[..6]
            .iter()
            .flat_map(|w| w.to_be_bytes())
            .collect();
        assert_eq!(ours, want);
    }

    #[test]
    fn segments_reassemble_two_over_pi() {
        // Segment 0 is 2/π truncated to 53 bits: one ulp below the correctly rounded constant
        // (bit 54 of 2/π is 1 and later bits are not all 0).
        let s0 = f64::from_bits(trig_preop(1f64.to_bits(), 0));
        assert_eq!(s0.to_bits(), std::f64::consts::FRAC_2_PI.to_bits() - 1);
        let s1 = f64::from_bits(trig_preop(1f64.to_bits(), 1));
        assert!(s1 > 0.0 && s1 < 2f64.powi(-53));
        // A huge argument shifts the window and rescales by 2^128.
        let big = 2f64.powi(1000).to_bits();
        let shift = (1023 + 1000) - 1077;
        let want = segment(shift) as f64 * 2f64.powi(-53 - shift as i32 + 128);
        assert_eq!(f64::from_bits(trig_preop(big, 0)), want);
    }
}
