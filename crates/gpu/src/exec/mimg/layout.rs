//! Where the texels of a linear (`SW_LINEAR`) GFX9 image lie: the layout AMD's address library
//! (addrlib, `Gfx9Lib::HwlComputeSurfaceInfoLinear`) gives the hardware. One row pitch for every
//! mip level, aligned to 256 bytes; 1D images keep one row per level; 2D and 3D levels follow
//! each other down the rows (level heights halving, rounded up); every slice (3D depth slice or
//! array layer) holds the whole mip chain.
//!
//! The runtime sizes images with these functions and the software GPU addresses texels with
//! them, so both agree by construction.

/// Bytes every row pitch and image base are aligned to.
pub const ALIGN: u64 = 256;

/// The shape an image layout is computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// 1D rules (one row per mip level).
    pub one_d: bool,
    /// Element size in bytes.
    pub bpp: u32,
    pub width: u32,
    pub height: u32,
    /// Mip levels stored.
    pub levels: u32,
    /// Row pitch in elements.
    pub pitch: u32,
}

/// The smallest pitch (elements) for `width` elements of `bpp` bytes: 256-byte aligned rows.
pub fn min_pitch(width: u32, bpp: u32) -> u32 {
    let align = (ALIGN as u32 / bpp.max(1)).max(1);
    width.max(1).div_ceil(align) * align
}

/// Halving with round-up, the height step of the mip chain's storage (addrlib's `RoundHalf`).
fn round_half(h: u32) -> u32 {
    (h >> 1) + (h & 1)
}

impl Shape {
    /// Rows of storage of level `l` (2D rules).
    fn stored_height(&self, l: u32) -> u32 {
        (0..l).fold(self.height.max(1), |h, _| round_half(h).max(1))
    }

    /// Bytes of one row (all levels).
    pub fn row_pitch(&self) -> u64 {
        u64::from(self.pitch) * u64::from(self.bpp)
    }

    /// Byte offset of level `l` inside a slice.
    pub fn level_offset(&self, l: u32) -> u64 {
        let rows = if self.one_d {
            u64::from(l)
        } else {
            (0..l).map(|k| u64::from(self.stored_height(k))).sum()
        };
        rows * self.row_pitch()
    }

    /// Bytes of one slice (a 3D depth slice or an array layer) with its mip chain.
    pub fn slice_pitch(&self) -> u64 {
        let rows = if self.one_d {
            u64::from(self.levels.max(1))
        } else if self.levels > 1 {
            (0..self.levels)
                .map(|k| u64::from(self.stored_height(k)))
                .sum()
        } else {
            u64::from(self.height.max(1))
        };
        rows * self.row_pitch()
    }

    /// Bytes of an image of `slices` slices.
    pub fn size(&self, slices: u32) -> u64 {
        self.slice_pitch() * u64::from(slices.max(1))
    }
}

/// The logical size of level `l` of a dimension (at least 1).
pub fn mip_dim(d: u32, l: u32) -> u32 {
    (d >> l.min(31)).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_level_sizes() {
        // 100x7 RGBA8: pitch 128 elements (512 bytes), 7 rows.
        let s = Shape {
            one_d: false,
            bpp: 4,
            width: 100,
            height: 7,
            levels: 1,
            pitch: min_pitch(100, 4),
        };
        assert_eq!(s.pitch, 128);
        assert_eq!(s.row_pitch(), 512);
        assert_eq!(s.slice_pitch(), 512 * 7);
        assert_eq!(s.size(3), 512 * 7 * 3);
        // 16-byte texels: 16 per row minimum.
        assert_eq!(min_pitch(1, 16), 16);
        assert_eq!(min_pitch(17, 16), 32);
        assert_eq!(min_pitch(300, 1), 512);
    }

    #[test]
    fn mip_chains() {
        // 2D, height 5: stored level heights 5, 3, 2, 1 (rounded up).
        let s = Shape {
            one_d: false,
            bpp: 1,
            width: 8,
            height: 5,
            levels: 4,
            pitch: 256,
        };
        assert_eq!(s.level_offset(0), 0);
        assert_eq!(s.level_offset(1), 5 * 256);
        assert_eq!(s.level_offset(2), 8 * 256);
        assert_eq!(s.level_offset(3), 10 * 256);
        assert_eq!(s.slice_pitch(), 11 * 256);
        // 1D: one row per level.
        let d = Shape {
            one_d: true,
            levels: 3,
            height: 1,
            ..s
        };
        assert_eq!(d.level_offset(2), 2 * 256);
        assert_eq!(d.slice_pitch(), 3 * 256);
        assert_eq!(mip_dim(5, 1), 2);
        assert_eq!(mip_dim(5, 9), 1);
    }
}
