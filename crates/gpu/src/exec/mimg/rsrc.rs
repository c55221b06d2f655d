//! Image (T#), sampler (S#) and buffer-image (V#) descriptors, field by field as GFX9 hardware
//! reads them. Each field is named once, by its absolute bit position in the descriptor (the
//! convention of the device libraries' `FIELD(P, B, W)`), and both the decoder (the software
//! GPU) and the encoder (the runtime's `hsa_ext_image_create`) use these positions.

/// A field: first bit (counted from bit 0 of word 0) and width.
#[derive(Clone, Copy, Debug)]
pub struct Field(pub u32, pub u32);

impl Field {
    /// Reads the field from descriptor words.
    #[inline]
    pub fn get(self, w: &[u32]) -> u32 {
        let (word, shift) = ((self.0 / 32) as usize, self.0 % 32);
        let mask = if self.1 == 32 {
            u32::MAX
        } else {
            (1 << self.1) - 1
        };
        (w[word] >> shift) & mask
    }

    /// Writes `v` (truncated to the field's width) into descriptor words.
    #[inline]
    pub fn set(self, w: &mut [u32], v: u32) {
        let (word, shift) = ((self.0 / 32) as usize, self.0 % 32);
        let mask = if self.1 == 32 {
            u32::MAX
        } else {
            (1 << self.1) - 1
        };
        w[word] = (w[word] & !(mask << shift)) | ((v & mask) << shift);
    }
}

/// T# (SQ_IMG_RSRC_WORD0..7) fields.
pub mod t {
    use super::Field;
    /// Base address bits 39:8.
    pub const BASE_ADDRESS: Field = Field(0, 32);
    /// Base address bits 47:40.
    pub const BASE_ADDRESS_HI: Field = Field(32, 8);
    /// Resource minimum LOD, unsigned 4.8 fixed point.
    pub const MIN_LOD: Field = Field(40, 12);
    pub const DATA_FORMAT: Field = Field(52, 6);
    pub const NUM_FORMAT: Field = Field(58, 4);
    /// Width minus one.
    pub const WIDTH: Field = Field(64, 14);
    /// Height minus one.
    pub const HEIGHT: Field = Field(78, 14);
    pub const PERF_MOD: Field = Field(92, 3);
    pub const DST_SEL_X: Field = Field(96, 3);
    pub const DST_SEL_Y: Field = Field(99, 3);
    pub const DST_SEL_Z: Field = Field(102, 3);
    pub const DST_SEL_W: Field = Field(105, 3);
    pub const BASE_LEVEL: Field = Field(108, 4);
    pub const LAST_LEVEL: Field = Field(112, 4);
    /// Swizzle (tiling) mode: 0 = SW_LINEAR.
    pub const SW_MODE: Field = Field(116, 5);
    /// Resource type (`SQ_RSRC_IMG_*`).
    pub const TYPE: Field = Field(124, 4);
    /// Depth minus one (3D), or the last array slice (arrays).
    pub const DEPTH: Field = Field(128, 13);
    /// Row pitch in elements, minus one.
    pub const PITCH: Field = Field(141, 16);
    pub const BC_SWIZZLE: Field = Field(157, 3);
    /// First array slice of the view.
    pub const BASE_ARRAY: Field = Field(160, 13);
    pub const ARRAY_PITCH: Field = Field(173, 4);
    /// Mip levels of the resource (as opposed to the view), minus one.
    pub const MAX_MIP: Field = Field(188, 4);
}

/// S# (SQ_IMG_SAMP_WORD0..3) fields.
pub mod s {
    use super::Field;
    pub const CLAMP_X: Field = Field(0, 3);
    pub const CLAMP_Y: Field = Field(3, 3);
    pub const CLAMP_Z: Field = Field(6, 3);
    pub const MAX_ANISO_RATIO: Field = Field(9, 3);
    pub const DEPTH_COMPARE_FUNC: Field = Field(12, 3);
    pub const FORCE_UNNORMALIZED: Field = Field(15, 1);
    pub const FORCE_DEGAMMA: Field = Field(20, 1);
    pub const TRUNC_COORD: Field = Field(27, 1);
    /// Reduction: 0 blend (weighted average), 1 min, 2 max.
    pub const FILTER_MODE: Field = Field(29, 2);
    /// Minimum / maximum LOD, unsigned 4.8 fixed point.
    pub const MIN_LOD: Field = Field(32, 12);
    pub const MAX_LOD: Field = Field(44, 12);
    /// LOD bias, signed 6.8 fixed point.
    pub const LOD_BIAS: Field = Field(64, 14);
    pub const XY_MAG_FILTER: Field = Field(84, 2);
    pub const XY_MIN_FILTER: Field = Field(86, 2);
    pub const Z_FILTER: Field = Field(88, 2);
    pub const MIP_FILTER: Field = Field(90, 2);
    pub const BORDER_COLOR_PTR: Field = Field(96, 12);
    pub const BORDER_COLOR_TYPE: Field = Field(126, 2);
}

/// V# (SQ_BUF_RSRC_WORD0..3) fields of a buffer image (1DB).
pub mod v {
    use super::Field;
    pub const BASE_ADDRESS: Field = Field(0, 32);
    pub const BASE_ADDRESS_HI: Field = Field(32, 16);
    pub const STRIDE: Field = Field(48, 14);
    pub const NUM_RECORDS: Field = Field(64, 32);
    pub const DST_SEL_X: Field = Field(96, 3);
    pub const DST_SEL_Y: Field = Field(99, 3);
    pub const DST_SEL_Z: Field = Field(102, 3);
    pub const DST_SEL_W: Field = Field(105, 3);
    pub const NUM_FORMAT: Field = Field(108, 3);
    pub const DATA_FORMAT: Field = Field(111, 4);
    pub const INDEX_STRIDE: Field = Field(117, 2);
    pub const ADD_TID_ENABLE: Field = Field(119, 1);
    pub const TYPE: Field = Field(126, 2);
}

/// `SQ_RSRC_IMG_*` resource types.
pub mod ty {
    pub const IMG_1D: u8 = 8;
    pub const IMG_2D: u8 = 9;
    pub const IMG_3D: u8 = 10;
    pub const IMG_CUBE: u8 = 11;
    pub const IMG_1D_ARRAY: u8 = 12;
    pub const IMG_2D_ARRAY: u8 = 13;
    pub const IMG_2D_MSAA: u8 = 14;
    pub const IMG_2D_MSAA_ARRAY: u8 = 15;
}

/// `SQ_SEL_*` destination selects.
pub mod sel {
    pub const ZERO: u8 = 0;
    pub const ONE: u8 = 1;
    pub const X: u8 = 4;
    pub const Y: u8 = 5;
    pub const Z: u8 = 6;
    pub const W: u8 = 7;
}

/// A decoded T#.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImageRsrc {
    /// Byte address of the image data (256-byte aligned: bits 7:0 are not stored).
    pub base: u64,
    /// Unsigned 4.8 fixed point.
    pub min_lod: u32,
    pub data_format: u8,
    pub num_format: u8,
    pub width: u32,
    pub height: u32,
    pub dst_sel: [u8; 4],
    pub base_level: u8,
    pub last_level: u8,
    pub sw_mode: u8,
    pub ty: u8,
    /// Depth (3D) or number of slices up to the last one (arrays; `DEPTH + 1`).
    pub depth: u32,
    /// Row pitch in elements.
    pub pitch: u32,
    pub bc_swizzle: u8,
    pub base_array: u32,
    pub max_mip: u8,
}

impl ImageRsrc {
    pub fn from_words(w: &[u32; 8]) -> Self {
        ImageRsrc {
            base: (u64::from(t::BASE_ADDRESS.get(w)) << 8)
                | (u64::from(t::BASE_ADDRESS_HI.get(w)) << 40),
            min_lod: t::MIN_LOD.get(w),
            data_format: t::DATA_FORMAT.get(w) as u8,
            num_format: t::NUM_FORMAT.get(w) as u8,
            width: t::WIDTH.get(w) + 1,
            height: t::HEIGHT.get(w) + 1,
            dst_sel: [t::DST_SEL_X, t::DST_SEL_Y, t::DST_SEL_Z, t::DST_SEL_W]
                .map(|f| f.get(w) as u8),
            base_level: t::BASE_LEVEL.get(w) as u8,
            last_level: t::LAST_LEVEL.get(w) as u8,
            sw_mode: t::SW_MODE.get(w) as u8,
            ty: t::TYPE.get(w) as u8,
            depth: t::DEPTH.get(w) + 1,
            pitch: t::PITCH.get(w) + 1,
            bc_swizzle: t::BC_SWIZZLE.get(w) as u8,
            base_array: t::BASE_ARRAY.get(w),
            max_mip: t::MAX_MIP.get(w) as u8,
        }
    }

    /// The eight words (metadata, compression and counters zero).
    pub fn to_words(&self) -> [u32; 8] {
        let mut w = [0u32; 8];
        t::BASE_ADDRESS.set(&mut w, (self.base >> 8) as u32);
        t::BASE_ADDRESS_HI.set(&mut w, (self.base >> 40) as u32);
        t::MIN_LOD.set(&mut w, self.min_lod);
        t::DATA_FORMAT.set(&mut w, self.data_format.into());
        t::NUM_FORMAT.set(&mut w, self.num_format.into());
        t::WIDTH.set(&mut w, self.width.wrapping_sub(1));
        t::HEIGHT.set(&mut w, self.height.wrapping_sub(1));
        for (f, s) in [t::DST_SEL_X, t::DST_SEL_Y, t::DST_SEL_Z, t::DST_SEL_W]
            .into_iter()
            .zip(self.dst_sel)
        {
            f.set(&mut w, s.into());
        }
        t::BASE_LEVEL.set(&mut w, self.base_level.into());
        t::LAST_LEVEL.set(&mut w, self.last_level.into());
        t::SW_MODE.set(&mut w, self.sw_mode.into());
        t::TYPE.set(&mut w, self.ty.into());
        t::DEPTH.set(&mut w, self.depth.wrapping_sub(1));
        t::PITCH.set(&mut w, self.pitch.wrapping_sub(1));
        t::BC_SWIZZLE.set(&mut w, self.bc_swizzle.into());
        t::BASE_ARRAY.set(&mut w, self.base_array);
        t::MAX_MIP.set(&mut w, self.max_mip.into());
        w
    }

    /// An array type (the slice is a coordinate; `depth` counts slices).
    pub fn is_array(&self) -> bool {
        matches!(self.ty, ty::IMG_1D_ARRAY | ty::IMG_2D_ARRAY | ty::IMG_CUBE)
    }

    /// A one-dimensional type (1D layout rules: one row per mip level).
    pub fn is_1d(&self) -> bool {
        matches!(self.ty, ty::IMG_1D | ty::IMG_1D_ARRAY)
    }
}

/// A decoded S#.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SamplerRsrc {
    /// `SQ_TEX_CLAMP` per axis (x, y, z).
    pub clamp: [u8; 3],
    pub depth_compare: u8,
    pub force_unnormalized: bool,
    pub filter_mode: u8,
    /// Unsigned 4.8.
    pub min_lod: u32,
    pub max_lod: u32,
    /// Signed 6.8.
    pub lod_bias: i32,
    pub xy_mag_filter: u8,
    pub xy_min_filter: u8,
    pub z_filter: u8,
    pub mip_filter: u8,
    pub border_color_type: u8,
}

impl SamplerRsrc {
    pub fn from_words(w: &[u32; 4]) -> Self {
        let bias = s::LOD_BIAS.get(w);
        SamplerRsrc {
            clamp: [s::CLAMP_X, s::CLAMP_Y, s::CLAMP_Z].map(|f| f.get(w) as u8),
            depth_compare: s::DEPTH_COMPARE_FUNC.get(w) as u8,
            force_unnormalized: s::FORCE_UNNORMALIZED.get(w) != 0,
            filter_mode: s::FILTER_MODE.get(w) as u8,
            min_lod: s::MIN_LOD.get(w),
            max_lod: s::MAX_LOD.get(w),
            lod_bias: ((bias << 18) as i32) >> 18,
            xy_mag_filter: s::XY_MAG_FILTER.get(w) as u8,
            xy_min_filter: s::XY_MIN_FILTER.get(w) as u8,
            z_filter: s::Z_FILTER.get(w) as u8,
            mip_filter: s::MIP_FILTER.get(w) as u8,
            border_color_type: s::BORDER_COLOR_TYPE.get(w) as u8,
        }
    }

    pub fn to_words(&self) -> [u32; 4] {
        let mut w = [0u32; 4];
        for (f, c) in [s::CLAMP_X, s::CLAMP_Y, s::CLAMP_Z]
            .into_iter()
            .zip(self.clamp)
        {
            f.set(&mut w, c.into());
        }
        s::DEPTH_COMPARE_FUNC.set(&mut w, self.depth_compare.into());
        s::FORCE_UNNORMALIZED.set(&mut w, self.force_unnormalized.into());
        s::FILTER_MODE.set(&mut w, self.filter_mode.into());
        s::MIN_LOD.set(&mut w, self.min_lod);
        s::MAX_LOD.set(&mut w, self.max_lod);
        s::LOD_BIAS.set(&mut w, self.lod_bias as u32);
        s::XY_MAG_FILTER.set(&mut w, self.xy_mag_filter.into());
        s::XY_MIN_FILTER.set(&mut w, self.xy_min_filter.into());
        s::Z_FILTER.set(&mut w, self.z_filter.into());
        s::MIP_FILTER.set(&mut w, self.mip_filter.into());
        s::BORDER_COLOR_TYPE.set(&mut w, self.border_color_type.into());
        w
    }
}

/// `SQ_TEX_CLAMP` modes.
pub mod clamp {
    pub const WRAP: u8 = 0;
    pub const MIRROR: u8 = 1;
    pub const CLAMP_LAST_TEXEL: u8 = 2;
    pub const MIRROR_ONCE_LAST_TEXEL: u8 = 3;
    pub const CLAMP_HALF_BORDER: u8 = 4;
    pub const MIRROR_ONCE_HALF_BORDER: u8 = 5;
    pub const CLAMP_BORDER: u8 = 6;
    pub const MIRROR_ONCE_BORDER: u8 = 7;
}

/// `SQ_TEX_XY_FILTER` / `SQ_TEX_Z_FILTER` / `SQ_TEX_MIP_FILTER` values.
pub mod filter {
    pub const XY_POINT: u8 = 0;
    pub const XY_BILINEAR: u8 = 1;
    pub const XY_ANISO_POINT: u8 = 2;
    pub const XY_ANISO_BILINEAR: u8 = 3;
    pub const Z_NONE: u8 = 0;
    pub const Z_POINT: u8 = 1;
    pub const Z_LINEAR: u8 = 2;
    pub const MIP_NONE: u8 = 0;
    pub const MIP_POINT: u8 = 1;
    pub const MIP_LINEAR: u8 = 2;
}

/// `SQ_TEX_BORDER_COLOR` values.
pub mod border {
    pub const TRANS_BLACK: u8 = 0;
    pub const OPAQUE_BLACK: u8 = 1;
    pub const OPAQUE_WHITE: u8 = 2;
    pub const REGISTER: u8 = 3;
}

/// The words of a buffer-image V#: `stride` bytes per element, `num_records` bytes (GFX8+
/// counts bytes for a stride's element index check), formats and selects as for T#.
#[allow(clippy::too_many_arguments)]
pub fn buffer_image_words(
    base: u64,
    stride: u32,
    num_records: u32,
    dst_sel: [u8; 4],
    num_format: u8,
    data_format: u8,
    index_stride: u8,
) -> [u32; 4] {
    let mut w = [0u32; 4];
    v::BASE_ADDRESS.set(&mut w, base as u32);
    v::BASE_ADDRESS_HI.set(&mut w, (base >> 32) as u32);
    v::STRIDE.set(&mut w, stride);
    v::NUM_RECORDS.set(&mut w, num_records);
    for (f, s) in [v::DST_SEL_X, v::DST_SEL_Y, v::DST_SEL_Z, v::DST_SEL_W]
        .into_iter()
        .zip(dst_sel)
    {
        f.set(&mut w, s.into());
    }
    v::NUM_FORMAT.set(&mut w, num_format.into());
    v::DATA_FORMAT.set(&mut w, data_format.into());
    v::INDEX_STRIDE.set(&mut w, index_stride.into());
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_words_round_trip() {
        let r = ImageRsrc {
            base: 0x7f12_3456_7800,
            min_lod: 0x123,
            data_format: 10,
            num_format: 9,
            width: 16384,
            height: 3,
            dst_sel: [6, 5, 4, 7],
            base_level: 1,
            last_level: 5,
            sw_mode: 0,
            ty: ty::IMG_2D_ARRAY,
            depth: 8192,
            pitch: 65536,
            bc_swizzle: 3,
            base_array: 7,
            max_mip: 5,
        };
        assert_eq!(ImageRsrc::from_words(&r.to_words()), r);
    }

    #[test]
    fn fields_sit_where_the_device_libraries_read_them() {
        // ockl: height = FIELD(i, 78, 14) + 1, depth/array size = FIELD(i, 128, 13) + 1,
        // mip levels = FIELD(i, 112, 4); unnormalized = FIELD(s, 15, 1), bilinear = FIELD(s, 84, 1).
        let r = ImageRsrc {
            height: 77,
            depth: 12,
            last_level: 9,
            ..Default::default()
        };
        let w = r.to_words();
        assert_eq!(Field(78, 14).get(&w) + 1, 77);
        assert_eq!(Field(128, 13).get(&w) + 1, 12);
        assert_eq!(Field(112, 4).get(&w), 9);
        let s = SamplerRsrc {
            force_unnormalized: true,
            xy_mag_filter: filter::XY_BILINEAR,
            lod_bias: -300,
            ..Default::default()
        };
        let sw = s.to_words();
        assert_eq!(Field(15, 1).get(&sw), 1);
        assert_eq!(Field(84, 1).get(&sw), 1);
        assert_eq!(SamplerRsrc::from_words(&sw), s);
    }

    #[test]
    fn buffer_image_words_match_the_buffer_decoder() {
        let w = buffer_image_words(0x1234_5678_9abc, 16, 4096, [4, 5, 6, 7], 7, 14, 0);
        let b = crate::exec::smem::BufferRsrc::from_words(w);
        assert_eq!(b.base, 0x1234_5678_9abc);
        assert_eq!(b.stride, 16);
        assert_eq!(b.num_records, 4096);
        assert_eq!(v::DATA_FORMAT.get(&w), 14);
        assert_eq!(v::NUM_FORMAT.get(&w), 7);
    }
}
