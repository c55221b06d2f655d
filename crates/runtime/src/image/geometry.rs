//! From an image descriptor (and an explicit linear layout) to the image's storage plan and
//! its 12-dword object (the T# or V#, then the channel type, channel order and width the
//! device libraries read from dwords 8, 9 and 10).
//!
//! Every image softhsa creates is linear (`SW_LINEAR`): the opaque layout is the linear one
//! with the smallest 256-byte aligned row pitch, so `hsa_ext_image_data_get_info` and the
//! explicit linear layout agree, and import/export/copy/clear work on the host.

use super::formats::{self, Property};
use crate::{Error, Result};
use softhsa_abi::*;
use softhsa_gpu::exec::mimg::layout::{self, Shape};
use softhsa_gpu::exec::mimg::rsrc::{buffer_image_words, ImageRsrc};

/// How the caller lays the data out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Opaque,
    /// `HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR` with row and slice pitch in bytes (0: computed).
    Linear {
        row_pitch: usize,
        slice_pitch: usize,
    },
}

/// An image's storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub desc: hsa_ext_image_descriptor_t,
    pub prop: Property,
    pub shape: Shape,
    /// Physical slices (3D depth or array layers).
    pub slices: u32,
    pub row_pitch: u64,
    pub slice_pitch: u64,
    pub size: u64,
}

fn size_error(msg: String) -> Error {
    Error::with_message(HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED, msg)
}

fn pitch_error(msg: String) -> Error {
    Error::with_message(HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED, msg)
}

/// Whether a geometry is one-dimensional (1D, 1DA, 1DB).
pub fn is_1d(g: u32) -> bool {
    matches!(
        g,
        HSA_EXT_IMAGE_GEOMETRY_1D | HSA_EXT_IMAGE_GEOMETRY_1DA | HSA_EXT_IMAGE_GEOMETRY_1DB
    )
}

/// Whether a geometry is an array (its layers are slices).
pub fn is_array(g: u32) -> bool {
    matches!(
        g,
        HSA_EXT_IMAGE_GEOMETRY_1DA | HSA_EXT_IMAGE_GEOMETRY_2DA | HSA_EXT_IMAGE_GEOMETRY_2DADEPTH
    )
}

impl Plan {
    /// Bytes from the data address to the end of the last texel of level 0: what the image
    /// touches (the last row needs no padding to the pitch, so a buffer image or a pitched 2D
    /// image may end where its buffer ends).
    pub fn touched(&self) -> u64 {
        u64::from(self.slices.max(1) - 1) * self.slice_pitch
            + u64::from(self.shape.height.max(1) - 1) * self.row_pitch
            + u64::from(self.shape.width) * u64::from(self.prop.element_size)
    }
}

/// Validates `desc` and computes its storage.
pub fn plan(desc: &hsa_ext_image_descriptor_t, layout: Layout) -> Result<Plan> {
    let g = desc.geometry;
    if g > HSA_EXT_IMAGE_GEOMETRY_2DADEPTH {
        return Err(Error::with_message(
            HSA_STATUS_ERROR_INVALID_ARGUMENT,
            format!("unknown image geometry {g}"),
        ));
    }
    let prop = formats::property(desc.format, g).ok_or_else(|| {
        Error::with_message(
            HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED,
            format!(
                "channel order {} with channel type {} in geometry {g}",
                desc.format.channel_order, desc.format.channel_type
            ),
        )
    })?;
    let [mw, mh, md, ma] = formats::max_dims(g);
    let one_d = is_1d(g);
    let (w, h, d, a) = (desc.width, desc.height, desc.depth, desc.array_size);
    let need_h = !one_d;
    let need_d = g == HSA_EXT_IMAGE_GEOMETRY_3D;
    if w == 0 || (need_h && h == 0) || (need_d && d == 0) {
        return Err(size_error(format!(
            "zero dimension: width {w}, height {h}, depth {d}"
        )));
    }
    if w > mw as usize || h > mh.max(1) as usize || d > md as usize || a > ma as usize {
        return Err(size_error(format!(
            "{w}x{h}x{d} with {a} layers exceeds {mw}x{mh}x{md} with {ma} layers for geometry {g}"
        )));
    }
    let bpp = prop.element_size;
    let height = if one_d { 1 } else { h as u32 };
    let width = w as u32;
    let slices = if need_d {
        d as u32
    } else if is_array(g) {
        a.max(1) as u32
    } else {
        1
    };
    let pitch = match layout {
        Layout::Linear { row_pitch, .. } if g != HSA_EXT_IMAGE_GEOMETRY_1DB => {
            let rp = if row_pitch == 0 {
                w * bpp as usize
            } else {
                row_pitch
            };
            if rp % layout::ALIGN as usize != 0 || rp < w * bpp as usize {
                return Err(pitch_error(format!(
                    "row pitch {rp} is not a multiple of {} bytes of at least {} bytes",
                    layout::ALIGN,
                    w * bpp as usize
                )));
            }
            (rp / bpp as usize) as u32
        }
        _ => layout::min_pitch(width, bpp),
    };
    let shape = Shape {
        one_d,
        bpp,
        width,
        height,
        levels: 1,
        pitch,
    };
    let slice_pitch = shape.slice_pitch();
    if let Layout::Linear {
        slice_pitch: sp, ..
    } = layout
    {
        if g != HSA_EXT_IMAGE_GEOMETRY_1DB && sp != 0 && sp as u64 != slice_pitch {
            return Err(pitch_error(format!(
                "slice pitch {sp} differs from {slice_pitch} (row pitch × height), the only one \
                 GFX9 linear images have"
            )));
        }
    }
    Ok(Plan {
        desc: *desc,
        prop,
        shape,
        slices,
        row_pitch: shape.row_pitch(),
        slice_pitch,
        size: shape.size(slices),
    })
}

/// The 12 dwords of the image object whose data starts at `data` (256-byte aligned).
pub fn object_words(p: &Plan, data: u64) -> [u32; 12] {
    let g = p.desc.geometry;
    let sw = formats::swizzle(p.desc.format.channel_order);
    let mut o = [0u32; 12];
    if g == HSA_EXT_IMAGE_GEOMETRY_1DB {
        // ROCm writes the element size into the 2-bit INDEX_STRIDE field (it only matters
        // for swizzled buffers); the same bits here.
        let v = buffer_image_words(
            data,
            p.prop.element_size,
            (p.desc.width as u32).wrapping_mul(p.prop.element_size),
            sw,
            p.prop.num_format,
            p.prop.data_format,
            (p.prop.element_size & 3) as u8,
        );
        o[..4].copy_from_slice(&v);
    } else {
        let depth = if is_array(g) || g == HSA_EXT_IMAGE_GEOMETRY_3D {
            p.slices
        } else {
            1
        };
        let t = ImageRsrc {
            base: data,
            data_format: p.prop.data_format,
            num_format: p.prop.num_format,
            width: p.shape.width,
            height: p.shape.height,
            dst_sel: sw,
            ty: formats::resource_type(g),
            depth,
            pitch: p.shape.pitch,
            bc_swizzle: formats::bc_swizzle(sw),
            ..ImageRsrc::default()
        };
        o[..8].copy_from_slice(&t.to_words());
    }
    o[8] = p.desc.format.channel_type;
    o[9] = p.desc.format.channel_order;
    o[10] = p.desc.width as u32;
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc(g: u32, w: usize, h: usize, d: usize, a: usize) -> hsa_ext_image_descriptor_t {
        hsa_ext_image_descriptor_t {
            geometry: g,
            width: w,
            height: h,
            depth: d,
            array_size: a,
            format: hsa_ext_image_format_t {
                channel_type: HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8,
                channel_order: HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA,
            },
        }
    }

    #[test]
    fn sizes_pitches_and_errors() {
        let p = plan(
            &desc(HSA_EXT_IMAGE_GEOMETRY_2D, 100, 7, 0, 0),
            Layout::Opaque,
        )
        .unwrap();
        assert_eq!((p.row_pitch, p.size), (512, 512 * 7));
        let p = plan(
            &desc(HSA_EXT_IMAGE_GEOMETRY_1DA, 10, 0, 0, 5),
            Layout::Opaque,
        )
        .unwrap();
        assert_eq!((p.slice_pitch, p.size), (256, 256 * 5));
        let lin = Layout::Linear {
            row_pitch: 1024,
            slice_pitch: 0,
        };
        let p = plan(&desc(HSA_EXT_IMAGE_GEOMETRY_3D, 100, 3, 4, 0), lin).unwrap();
        assert_eq!(
            (p.shape.pitch, p.slice_pitch, p.size),
            (256, 3072, 3072 * 4)
        );
        let bad = Layout::Linear {
            row_pitch: 400,
            slice_pitch: 0,
        };
        let e = plan(&desc(HSA_EXT_IMAGE_GEOMETRY_2D, 100, 3, 0, 0), bad).unwrap_err();
        assert_eq!(e.status, HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED);
        let e = plan(
            &desc(HSA_EXT_IMAGE_GEOMETRY_2D, 16385, 3, 0, 0),
            Layout::Opaque,
        );
        assert_eq!(
            e.unwrap_err().status,
            HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED
        );
        let e = plan(&desc(9, 1, 1, 0, 0), Layout::Opaque).unwrap_err();
        assert_eq!(e.status, HSA_STATUS_ERROR_INVALID_ARGUMENT);
    }

    #[test]
    fn objects_hold_what_the_device_libraries_read() {
        let p = plan(
            &desc(HSA_EXT_IMAGE_GEOMETRY_2DA, 33, 9, 0, 6),
            Layout::Opaque,
        )
        .unwrap();
        let o = object_words(&p, 0x7000_0000_1000);
        let t = ImageRsrc::from_words(o[..8].try_into().unwrap());
        assert_eq!(t.base, 0x7000_0000_1000);
        assert_eq!((t.width, t.height, t.depth, t.pitch), (33, 9, 6, 64));
        assert_eq!(o[8..11], [2, 8, 33]);
        let b = plan(
            &desc(HSA_EXT_IMAGE_GEOMETRY_1DB, 1000, 0, 0, 0),
            Layout::Opaque,
        )
        .unwrap();
        let o = object_words(&b, 0x7000_0000_2000);
        assert_eq!(o[2], 4000);
    }
}
