//! Lane-loop helpers: each applies a per-lane function to all 64 lanes in a form the compiler
//! vectorizes. Callers `match` on the op outside and pass a closure per op.

use super::{LaneArray, LANES};

/// `dst[l] = f(a[l])`.
#[inline(always)]
pub fn map1(dst: &mut LaneArray, a: &LaneArray, f: impl Fn(u64) -> u64) {
    for (d, &x) in dst.iter_mut().zip(a) {
        *d = f(x);
    }
}

/// `dst[l] = f(a[l], b[l])`.
#[inline(always)]
pub fn map2(dst: &mut LaneArray, a: &LaneArray, b: &LaneArray, f: impl Fn(u64, u64) -> u64) {
    for ((d, &x), &y) in dst.iter_mut().zip(a).zip(b) {
        *d = f(x, y);
    }
}

/// `dst[l] = f(a[l], b[l], c[l])`.
#[inline(always)]
pub fn map3(dst: &mut LaneArray, src: &[LaneArray; 3], f: impl Fn(u64, u64, u64) -> u64) {
    for (((d, &x), &y), &z) in dst.iter_mut().zip(&src[0]).zip(&src[1]).zip(&src[2]) {
        *d = f(x, y, z);
    }
}

/// Like [`map3`] with the lane's bit of `mask_in` as a fourth input and a mask bit as a second
/// output (carries, div_scale's VCC). Returns the output mask.
#[inline(always)]
pub fn map3_mask(
    dst: &mut LaneArray,
    src: &[LaneArray; 3],
    mask_in: u64,
    f: impl Fn(u64, u64, u64, bool) -> (u64, bool),
) -> u64 {
    let mut mask = 0u64;
    for (l, d) in dst.iter_mut().enumerate() {
        let (r, c) = f(src[0][l], src[1][l], src[2][l], mask_in >> l & 1 != 0);
        *d = r;
        mask |= (c as u64) << l;
    }
    mask
}

/// The mask with bit l set where `f(a[l], b[l])` holds.
#[inline(always)]
pub fn mask2(a: &LaneArray, b: &LaneArray, f: impl Fn(u64, u64) -> bool) -> u64 {
    let mut bits = [false; LANES];
    for ((r, &x), &y) in bits.iter_mut().zip(a).zip(b) {
        *r = f(x, y);
    }
    bits.iter()
        .enumerate()
        .fold(0, |m, (l, &b)| m | (b as u64) << l)
}
