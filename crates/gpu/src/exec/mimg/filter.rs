//! Sampling arithmetic: level of detail, fixed-point texel coordinates, point / bilinear /
//! trilinear filtering, depth compare and gather.
//!
//! The exact definition (the host references in the tests implement the same steps):
//! - Texel-space coordinate `u = x * size` (f32 multiply; `x` itself when unnormalized), then
//!   fixed point with 8 fraction bits: `fx = round_half_even(u * 256)` plus the `_o` offset in
//!   whole texels. Point sampling takes texel `fx >> 8`; bilinear takes `fx - 128`: texels
//!   `i0 = fx' >> 8` and `i0 + 1` with weights `256 - f` and `f`, `f = fx' & 255` (the 8
//!   sub-texel bits AMD hardware has).
//! - A filtered value is `(Σ texel × weight) × 2^-8k` over the `k`-dimensional footprint, the
//!   weights being products of the per-axis integer weights, summed in f32 in the order
//!   x fastest, then y, then z, texels of weight 0 skipped.
//! - LOD: `log2(max(|∂/∂x|, |∂/∂y|))` of the texel-space gradients (Euclidean norms, f32), plus
//!   the `_b` bias and the sampler's LOD_BIAS, clamped to the sampler's [MIN_LOD, MAX_LOD], the
//!   resource MIN_LOD and the `_cl` clamp; then quantized to 1/256. The magnification filter
//!   applies at LOD <= 0. Mip point picks level `round(lod)`, mip linear blends levels
//!   `floor(lod)` and the next with the 8-bit fraction as above.

use super::format::{is_integer, Texel};
use super::rsrc::{filter, ty, SamplerRsrc};
use super::texmem::TexMem;
use super::view::{wrap, View};
use crate::exec::ExecFault;

/// One lane's sampling request (coordinates already in the op's order).
#[derive(Clone, Copy, Debug, Default)]
pub struct Query {
    /// x, y, z (z: 3D depth) as floats; normalized unless `unnorm`.
    pub coords: [f32; 3],
    /// Array slice (float, rounded to the nearest layer).
    pub slice: f32,
    /// Texel offsets (`_o`).
    pub offset: [i32; 3],
    /// Depth-compare reference (`_c`).
    pub zref: Option<f32>,
    /// Level of detail after bias and clamps, relative to the base level.
    pub lod: f32,
}

/// Sampler state an instruction uses.
pub struct Sampling<'s> {
    pub s: &'s SamplerRsrc,
    pub unnorm: bool,
}

/// `DEPTH_COMPARE_FUNC`: whether `reference OP texel` holds.
pub fn compare(func: u8, reference: f32, texel: f32) -> bool {
    match func {
        0 => false,
        1 => reference < texel,
        2 => reference == texel,
        3 => reference <= texel,
        4 => reference > texel,
        5 => reference != texel,
        6 => reference >= texel,
        _ => true,
    }
}

/// The raw LOD `log2(rho)` from texel-space gradients of the base level (`grads[0]` along x,
/// `grads[1]` along y, per coordinate axis).
pub fn raw_lod(v: &View, unnorm: bool, grads: [[f32; 3]; 2]) -> f32 {
    let size = v.level_dims(u32::from(v.r.base_level));
    let norm = |g: [f32; 3]| {
        let mut s = 0.0f32;
        for a in 0..v.dims {
            let d = if unnorm { g[a] } else { g[a] * size[a] as f32 };
            s += d * d;
        }
        s.sqrt()
    };
    norm(grads[0]).max(norm(grads[1])).log2()
}

/// Applies biases and clamps to a LOD (`bias`: the instruction's `_b` value plus nothing for
/// explicit LODs; `min_clamp`: the `_cl` value).
pub fn clamp_lod(v: &View, s: &SamplerRsrc, lod: f32, bias: f32, min_clamp: Option<f32>) -> f32 {
    let fx = |x: u32| x as f32 / 256.0;
    let mut l = lod + bias;
    l = l.max(fx(s.min_lod)).min(fx(s.max_lod));
    l = l.max(fx(v.r.min_lod));
    if let Some(c) = min_clamp {
        l = l.max(c);
    }
    l
}

/// Rounds to the nearest integer, ties to even (the host's rounding mode is round-to-nearest):
/// adding and removing 2^23 leaves only integer bits; larger values are integers already.
#[inline]
pub fn rne(x: f32) -> f32 {
    const M: f32 = 8_388_608.0;
    if x.abs() < M {
        let m = M.copysign(x);
        (x + m) - m
    } else {
        x
    }
}

/// Fixed-point texel coordinate with 8 fraction bits (`u * 256` is exact in f32).
#[inline]
fn fixed(u: f32) -> i64 {
    // NaN gives 0 (saturating cast); the clamp keeps offsets from overflowing.
    rne(u * 256.0).clamp(-(2f32.powi(40)), 2f32.powi(40)) as i64
}

/// Per-axis footprint: first texel, and the fraction (0 for point sampling).
fn axis(u: f32, off: i32, linear: bool) -> (i64, u32) {
    let mut fx = fixed(u) + i64::from(off) * 256;
    if linear {
        fx -= 128;
        (fx >> 8, (fx & 255) as u32)
    } else {
        (fx >> 8, 0)
    }
}

/// The texels and weights one level contributes, in summation order: (x, y, z) per axis
/// index and its integer weight (a product of per-axis weights out of 256 each).
pub struct Footprint {
    pub taps: [([i64; 3], u32); 8],
    pub n: usize,
    /// Sum of the axis shifts: the result scales by `2^-shift`.
    pub shift: u32,
}

/// The footprint of `q` on level `l`.
pub fn footprint(v: &View, q: &Query, sm: &Sampling, l: u32, bilinear: bool) -> Footprint {
    let size = v.level_dims(l);
    let z_linear = match sm.s.z_filter {
        filter::Z_NONE => bilinear,
        filter::Z_POINT => false,
        _ => true,
    };
    let mut ax = [(0i64, 0u32, false); 3];
    for (a, slot) in ax.iter_mut().enumerate().take(v.dims) {
        let u = if sm.unnorm {
            q.coords[a]
        } else {
            q.coords[a] * size[a] as f32
        };
        let lin = if a == 2 { z_linear } else { bilinear };
        let (i, f) = axis(u, q.offset[a], lin);
        *slot = (i, f, lin);
    }
    let mut fp = Footprint {
        taps: [([0; 3], 0); 8],
        n: 0,
        shift: 0,
    };
    let mut lin = [0usize; 3];
    let mut nlin = 0;
    for (a, &(_, _, l)) in ax.iter().enumerate().take(v.dims) {
        if l {
            lin[nlin] = a;
            nlin += 1;
        }
    }
    let lin_axes = &lin[..nlin];
    fp.shift = 8 * nlin as u32;
    for corner in 0..(1usize << nlin) {
        let mut pos = [ax[0].0, ax[1].0, ax[2].0];
        let mut w = 1u32;
        for (k, &a) in lin_axes.iter().enumerate() {
            let hi = corner >> k & 1 != 0;
            if hi {
                pos[a] += 1;
                w *= ax[a].1;
            } else {
                w *= 256 - ax[a].1;
            }
        }
        if w != 0 {
            fp.taps[fp.n] = (pos, w);
            fp.n += 1;
        }
    }
    fp
}

/// Reads the texel at footprint position `pos` of level `l` (border when a wrap leaves it).
pub fn fetch(
    v: &View,
    sm: &Sampling,
    l: u32,
    pos: [i64; 3],
    slice: u32,
    tm: &mut TexMem,
    lane: usize,
) -> Result<Texel, ExecFault> {
    let size = v.level_dims(l);
    let mut idx = [0u32; 3];
    for a in 0..v.dims {
        match wrap(pos[a], size[a], sm.s.clamp[a]) {
            Some(i) => idx[a] = i,
            None => return Ok(v.border(sm.s.border_color_type)),
        }
    }
    let z = if v.r.ty == ty::IMG_3D { idx[2] } else { slice };
    let raw = tm.read(v.texel_addr(l, idx[0], idx[1], z), v.fmt.bytes, lane)?;
    Ok(super::format::decode(&v.fmt, v.r.num_format, raw).unwrap_or_default())
}

/// Physical array slice of a float slice coordinate (nearest layer, clamped to the view).
pub fn slice_of(v: &View, s: f32) -> u32 {
    let (lo, hi) = v.slice_range();
    let r = f64::from(rne(s));
    let r = if r.is_nan() { 0.0 } else { r };
    (f64::from(lo) + r).clamp(f64::from(lo), f64::from(hi)) as u32
}

/// Filters one level: the weighted sum of the footprint (or min / max by FILTER_MODE), with
/// each texel replaced by its comparison result under `_c`.
fn filter_level(
    v: &View,
    q: &Query,
    sm: &Sampling,
    l: u32,
    bilinear: bool,
    tm: &mut TexMem,
    lane: usize,
) -> Result<Texel, ExecFault> {
    let slice = slice_of(v, q.slice);
    let fp = footprint(v, q, sm, l, bilinear);
    let mut acc = [0f32; 4];
    let mut first = true;
    for &(pos, w) in &fp.taps[..fp.n] {
        let mut t = fetch(v, sm, l, pos, slice, tm, lane)?;
        if let Some(r) = q.zref {
            let c = compare(sm.s.depth_compare, r, f32::from_bits(t[0]));
            t = [f32::to_bits(if c { 1.0 } else { 0.0 }); 4];
        }
        if is_integer(v.r.num_format) {
            // No filtering of integers: the first tap (point sampling is forced anyway).
            return Ok(t);
        }
        for (a, &x) in acc.iter_mut().zip(&t) {
            let x = f32::from_bits(x);
            *a = match sm.s.filter_mode {
                1 if first => x,
                1 => a.min(x),
                2 if first => x,
                2 => a.max(x),
                _ => *a + x * w as f32,
            };
        }
        first = false;
    }
    let scale = if matches!(sm.s.filter_mode, 1 | 2) {
        1.0
    } else {
        2f32.powi(-(fp.shift as i32))
    };
    Ok(acc.map(|a| (a * scale).to_bits()))
}

/// Samples one lane: component-space result (f32 bits, or integers for UINT/SINT formats).
pub fn sample(
    v: &View,
    q: &Query,
    sm: &Sampling,
    tm: &mut TexMem,
    lane: usize,
) -> Result<Texel, ExecFault> {
    let base = u32::from(v.r.base_level);
    let last = u32::from(v.r.last_level).max(base);
    let lodq = quantize(q.lod);
    let int = is_integer(v.r.num_format);
    let xy = if lodq <= 0 {
        sm.s.xy_mag_filter
    } else {
        sm.s.xy_min_filter
    };
    let bilinear = !int && matches!(xy, filter::XY_BILINEAR | filter::XY_ANISO_BILINEAR);
    let (l0, l1, f) = levels(sm.s.mip_filter, lodq, base, last, int);
    let r0 = filter_level(v, q, sm, l0, bilinear, tm, lane)?;
    if f == 0 || int {
        return Ok(r0);
    }
    let r1 = filter_level(v, q, sm, l1, bilinear, tm, lane)?;
    let mut out = [0u32; 4];
    for c in 0..4 {
        let (a, b) = (f32::from_bits(r0[c]), f32::from_bits(r1[c]));
        out[c] = ((a * (256 - f) as f32 + b * f as f32) * (1.0 / 256.0)).to_bits();
    }
    Ok(out)
}

/// LOD in 1/256 steps.
pub fn quantize(lod: f32) -> i32 {
    rne(lod * 256.0).clamp(-(2f32.powi(20)), 2f32.powi(20)) as i32
}

/// Levels to read and the blend fraction of the second: (first, second, fraction / 256).
pub fn levels(mip_filter: u8, lodq: i32, base: u32, last: u32, int: bool) -> (u32, u32, u32) {
    let lvl = |d: i32| (base as i32 + d).clamp(base as i32, last as i32) as u32;
    match mip_filter {
        filter::MIP_NONE => (base, base, 0),
        filter::MIP_LINEAR if !int && lodq > 0 => {
            let (l0, l1) = (lvl(lodq >> 8), lvl((lodq >> 8) + 1));
            if l0 == l1 {
                (l0, l0, 0)
            } else {
                (l0, l1, (lodq & 255) as u32)
            }
        }
        _ => (lvl((lodq + 128) >> 8), 0, 0),
    }
}

/// Gather4: component `comp` (component space) of the bilinear footprint's four texels, in
/// the order (i0, j1), (i1, j1), (i1, j0), (i0, j0).
pub fn gather(
    v: &View,
    q: &Query,
    sm: &Sampling,
    comp: usize,
    tm: &mut TexMem,
    lane: usize,
) -> Result<Texel, ExecFault> {
    let base = u32::from(v.r.base_level);
    let last = u32::from(v.r.last_level).max(base);
    let (l, _, _) = levels(sm.s.mip_filter, quantize(q.lod), base, last, true);
    let size = v.level_dims(l);
    let slice = slice_of(v, q.slice);
    let mut ij = [(0i64, 0u32); 2];
    for (a, slot) in ij.iter_mut().enumerate() {
        let u = if sm.unnorm {
            q.coords[a]
        } else {
            q.coords[a] * size[a] as f32
        };
        *slot = axis(u, q.offset[a], true);
    }
    let (i0, j0) = (ij[0].0, ij[1].0);
    let order = [(i0, j0 + 1), (i0 + 1, j0 + 1), (i0 + 1, j0), (i0, j0)];
    let mut out = [0u32; 4];
    for (o, (i, j)) in out.iter_mut().zip(order) {
        let t = fetch(v, sm, l, [i, j, 0], slice, tm, lane)?;
        *o = match q.zref {
            Some(r) => {
                let c = compare(sm.s.depth_compare, r, f32::from_bits(t[0]));
                f32::to_bits(if c { 1.0 } else { 0.0 })
            }
            None => t[comp],
        };
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rne_matches_the_host_rounding() {
        let mut x = 0x1234_5678u32;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let f = f32::from_bits(x);
            if f.is_finite() {
                assert_eq!(rne(f), f.round_ties_even(), "{f}");
            }
            let g = (x % 4096) as f32 / 8.0 - 256.0;
            assert_eq!(rne(g), g.round_ties_even(), "{g}");
        }
        assert_eq!(fixed(f32::NAN), 0);
        assert_eq!(fixed(-0.5 / 256.0), 0);
        assert_eq!(fixed(1.5 / 256.0), 2);
    }
}
