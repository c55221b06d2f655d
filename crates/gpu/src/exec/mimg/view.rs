//! An image as one instruction sees it: its T#, texel format and linear layout, the size of
//! each mip level, where a texel lies, and how out-of-range texel indices wrap (`SQ_TEX_CLAMP`).

use super::format::{self, DataFormat, Texel};
use super::layout::{mip_dim, Shape};
use super::rsrc::{clamp, sel, ty, ImageRsrc};
use crate::fault::FaultKind;

/// Mip levels a T# can name (4-bit level fields).
const LEVELS: usize = 16;

/// The image of an instruction.
#[derive(Clone, Debug)]
pub struct View {
    pub r: ImageRsrc,
    pub fmt: DataFormat,
    pub shape: Shape,
    /// Spatial dimensions addressed by coordinates (1, 2 or 3).
    pub dims: usize,
    /// Per mip level: width, height, depth (computed once per instruction).
    dims_of: [[u32; 3]; LEVELS],
    /// Per mip level: byte offset inside a slice.
    offset_of: [u64; LEVELS],
    row_pitch: u64,
    slice_pitch: u64,
}

/// Why an image cannot be used.
pub enum Refused {
    /// The null (INVALID format) image: loads read zeros, stores and atomics do nothing.
    Null,
    /// A resource softhsa does not execute (tiled layouts, MSAA, unknown formats).
    Unsupported(FaultKind),
}

impl View {
    pub fn new(r: ImageRsrc) -> Result<View, Refused> {
        if r.data_format == format::dfmt::INVALID {
            return Err(Refused::Null);
        }
        let fmt = format::data_format(r.data_format)
            .ok_or(Refused::Unsupported(FaultKind::Unimplemented))?;
        let dims = match r.ty {
            ty::IMG_1D | ty::IMG_1D_ARRAY => 1,
            ty::IMG_2D | ty::IMG_2D_ARRAY | ty::IMG_CUBE => 2,
            ty::IMG_3D => 3,
            // MSAA and buffer types are not MIMG-addressable here.
            _ => return Err(Refused::Unsupported(FaultKind::Unimplemented)),
        };
        // Tiled (swizzled) layouts are never produced by softhsa's runtime.
        if r.sw_mode != 0 {
            return Err(Refused::Unsupported(FaultKind::Unimplemented));
        }
        let shape = Shape {
            one_d: r.is_1d(),
            bpp: fmt.bytes.into(),
            width: r.width,
            height: if dims == 1 { 1 } else { r.height },
            levels: u32::from(r.max_mip.max(r.last_level)) + 1,
            pitch: r.pitch,
        };
        let d3 = r.ty == ty::IMG_3D;
        let dims_of = std::array::from_fn(|l| {
            let l = l as u32;
            [
                mip_dim(r.width, l),
                mip_dim(shape.height, l),
                if d3 { mip_dim(r.depth, l) } else { 1 },
            ]
        });
        let offset_of = std::array::from_fn(|l| shape.level_offset(l as u32));
        Ok(View {
            r,
            fmt,
            shape,
            dims,
            dims_of,
            offset_of,
            row_pitch: shape.row_pitch(),
            slice_pitch: shape.slice_pitch(),
        })
    }

    /// Physical slices: 3D depth, array layers up to the last one, else 1.
    pub fn slices(&self) -> u32 {
        if self.r.ty == ty::IMG_3D || self.r.is_array() {
            self.r.depth
        } else {
            1
        }
    }

    /// The bytes the image may touch: `[base, base + size)`.
    pub fn extent(&self) -> (u64, u64) {
        let lo = self.r.base;
        (lo, lo.saturating_add(self.shape.size(self.slices())))
    }

    /// Width, height and depth of absolute mip level `l` (0..16).
    #[inline]
    pub fn level_dims(&self, l: u32) -> [u32; 3] {
        self.dims_of[(l as usize).min(LEVELS - 1)]
    }

    /// First and last array slice of the view (arrays), as physical indices.
    pub fn slice_range(&self) -> (u32, u32) {
        if self.r.is_array() {
            (self.r.base_array, self.r.depth.saturating_sub(1))
        } else {
            (0, 0)
        }
    }

    /// Byte address of texel (x, y) of level `l` in physical slice `z` (3D depth or layer).
    #[inline]
    pub fn texel_addr(&self, l: u32, x: u32, y: u32, z: u32) -> u64 {
        self.r.base
            + u64::from(z) * self.slice_pitch
            + self.offset_of[(l as usize).min(LEVELS - 1)]
            + u64::from(y) * self.row_pitch
            + u64::from(x) * u64::from(self.shape.bpp)
    }

    /// The border texel in component space: each component takes the border value of the
    /// channel whose destination select reads it, so that the swizzled result is the border
    /// colour (channels that select constants keep them).
    pub fn border(&self, kind: u8) -> Texel {
        let nf = self.r.num_format;
        let (zero, one) = (0u32, format::one(nf));
        let rgba = match kind {
            super::rsrc::border::OPAQUE_BLACK => [zero, zero, zero, one],
            super::rsrc::border::OPAQUE_WHITE => [one; 4],
            _ => [zero; 4],
        };
        let mut t = [zero; 4];
        for (c, v) in t.iter_mut().enumerate() {
            if let Some(ch) = self.r.dst_sel.iter().position(|&s| s == sel::X + c as u8) {
                *v = rgba[ch];
            }
        }
        t
    }

    /// Applies the destination selects: component space → RGBA.
    pub fn swizzle(&self, t: Texel) -> Texel {
        let one = format::one(self.r.num_format);
        self.r.dst_sel.map(|s| match s {
            sel::ONE => one,
            sel::X..=sel::W => t[usize::from(s - sel::X)],
            _ => 0,
        })
    }

    /// The inverse for stores: RGBA data → component space (see [`unswizzle`]).
    pub fn unswizzle(&self, rgba: Texel) -> Texel {
        unswizzle(self.r.dst_sel, rgba)
    }
}

/// RGBA data → component space under destination selects `dst_sel` (stores, clears): a
/// component takes the first channel that selects it; one no channel selects (the unused bits
/// of RGB 555 or 101010 formats) is written as 0.
pub fn unswizzle(dst_sel: [u8; 4], rgba: Texel) -> Texel {
    let mut t = [0u32; 4];
    for (c, v) in t.iter_mut().enumerate() {
        if let Some(ch) = dst_sel.iter().position(|&s| s == sel::X + c as u8) {
            *v = rgba[ch];
        }
    }
    t
}

/// Wraps texel index `i` into `[0, n)` by mode; `None` selects the border colour.
#[inline]
pub fn wrap(i: i64, n: u32, mode: u8) -> Option<u32> {
    let n = i64::from(n.max(1));
    if (0..n).contains(&i) {
        // Inside the level: every mode leaves the index alone (no division on this path).
        return Some(i as u32);
    }
    let r = match mode {
        clamp::WRAP => i.rem_euclid(n),
        clamp::MIRROR => {
            let m = i.rem_euclid(2 * n);
            if m >= n {
                2 * n - 1 - m
            } else {
                m
            }
        }
        clamp::CLAMP_LAST_TEXEL => i.clamp(0, n - 1),
        clamp::MIRROR_ONCE_LAST_TEXEL => (if i < 0 { -i - 1 } else { i }).min(n - 1),
        clamp::MIRROR_ONCE_HALF_BORDER | clamp::MIRROR_ONCE_BORDER => {
            let m = if i < 0 { -i - 1 } else { i };
            if m >= n {
                return None;
            }
            m
        }
        // CLAMP_BORDER and CLAMP_HALF_BORDER.
        _ => {
            if i < 0 || i >= n {
                return None;
            }
            i
        }
    };
    Some(r as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_modes() {
        let w = |i, m| wrap(i, 4, m);
        assert_eq!(w(-1, clamp::WRAP), Some(3));
        assert_eq!(w(9, clamp::WRAP), Some(1));
        assert_eq!(w(4, clamp::MIRROR), Some(3));
        assert_eq!(w(-1, clamp::MIRROR), Some(0));
        assert_eq!(w(-5, clamp::MIRROR), Some(3));
        assert_eq!(w(7, clamp::CLAMP_LAST_TEXEL), Some(3));
        assert_eq!(w(-9, clamp::CLAMP_LAST_TEXEL), Some(0));
        assert_eq!(w(-2, clamp::MIRROR_ONCE_LAST_TEXEL), Some(1));
        assert_eq!(w(4, clamp::CLAMP_BORDER), None);
        assert_eq!(w(-1, clamp::CLAMP_BORDER), None);
        assert_eq!(w(-4, clamp::MIRROR_ONCE_BORDER), Some(3));
        assert_eq!(w(-5, clamp::MIRROR_ONCE_BORDER), None);
    }

    #[test]
    fn swizzles_and_borders() {
        let r = ImageRsrc {
            data_format: format::dfmt::F8,
            num_format: format::nfmt::UNORM,
            width: 4,
            height: 4,
            ty: ty::IMG_2D,
            pitch: 256,
            depth: 1,
            // R: (X, 0, 0, 1).
            dst_sel: [sel::X, sel::ZERO, sel::ZERO, sel::ONE],
            ..Default::default()
        };
        let v = View::new(r).ok().unwrap();
        let one = 1.0f32.to_bits();
        assert_eq!(v.swizzle([7, 8, 9, 10]), [7, 0, 0, one]);
        // Transparent black border of an R image reads (0, 0, 0, 1) as OpenCL asks.
        assert_eq!(v.swizzle(v.border(0)), [0, 0, 0, one]);
        // BGRA: stores put R into Z.
        let bgra = View::new(ImageRsrc {
            data_format: format::dfmt::F8_8_8_8,
            dst_sel: [sel::Z, sel::Y, sel::X, sel::W],
            ..r
        })
        .ok()
        .unwrap();
        assert_eq!(bgra.unswizzle([1, 2, 3, 4]), [3, 2, 1, 4]);
        assert_eq!(bgra.swizzle(bgra.unswizzle([1, 2, 3, 4])), [1, 2, 3, 4]);
    }
}
