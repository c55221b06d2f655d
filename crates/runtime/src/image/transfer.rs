//! Host-side image transfers: import (linear memory → image), export (image → linear memory),
//! copy (image → image) and clear, over regions in image coordinates. Images are linear, so
//! these are row copies; the region's y is the layer of a 1D array, z the depth slice or layer
//! of 3D and 2D-array images.

use super::geometry::{is_array, Plan};
use crate::{Error, Result};
use softhsa_abi::*;

/// Where an image's elements are on the host.
#[derive(Clone, Copy, Debug)]
pub struct Surface {
    /// Host address of element (0, 0, 0).
    pub base: u64,
    pub bpp: u64,
    pub row: u64,
    pub slice: u64,
}

impl Surface {
    fn at(&self, x: u64, r: u64, s: u64) -> u64 {
        self.base + s * self.slice + r * self.row + x * self.bpp
    }
}

/// A region in (element, row, slice) units of an image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    pub origin: [u64; 3],
    pub extent: [u64; 3],
}

fn bad(msg: String) -> Error {
    Error::with_message(HSA_STATUS_ERROR_INVALID_ARGUMENT, msg)
}

/// Maps an HSA region (x, y, z) of an image to (element, row, slice), checking it lies inside
/// the image. Dimensions a geometry lacks must have offset 0 and range 0 or 1.
pub fn rect(p: &Plan, offset: hsa_dim3_t, range: hsa_dim3_t) -> Result<Rect> {
    let g = p.desc.geometry;
    let (o, r) = (
        [offset.x, offset.y, offset.z].map(u64::from),
        [range.x, range.y, range.z].map(u64::from),
    );
    // (source index in x/y/z for element, row, slice) per geometry; None: unused.
    let map: [Option<usize>; 3] = match g {
        HSA_EXT_IMAGE_GEOMETRY_1D | HSA_EXT_IMAGE_GEOMETRY_1DB => [Some(0), None, None],
        HSA_EXT_IMAGE_GEOMETRY_1DA => [Some(0), None, Some(1)],
        HSA_EXT_IMAGE_GEOMETRY_2D | HSA_EXT_IMAGE_GEOMETRY_2DDEPTH => [Some(0), Some(1), None],
        _ => [Some(0), Some(1), Some(2)],
    };
    let limits = [
        u64::from(p.shape.width),
        u64::from(p.shape.height),
        u64::from(p.slices),
    ];
    let mut rect = Rect {
        origin: [0; 3],
        extent: [1; 3],
    };
    let mut used = [false; 3];
    for (k, m) in map.iter().enumerate() {
        if let Some(i) = *m {
            used[i] = true;
            if o[i].checked_add(r[i]).is_none_or(|e| e > limits[k]) {
                return Err(bad(format!(
                    "region {:?}+{:?} leaves the {}x{}x{} image",
                    o, r, limits[0], limits[1], limits[2]
                )));
            }
            rect.origin[k] = o[i];
            rect.extent[k] = r[i];
        }
    }
    for i in 0..3 {
        if !used[i] && (o[i] != 0 || r[i] > 1) {
            return Err(bad(format!(
                "region {o:?}+{r:?}: dimension {i} does not exist in geometry {g}"
            )));
        }
    }
    Ok(rect)
}

/// The linear-memory side of an import or export: rows of `extent[0]` elements; a row pitch
/// of 0 means packed rows; a slice pitch of 0 means packed slices (1D arrays: one row each).
pub fn linear(p: &Plan, base: u64, rect: &Rect, row_pitch: usize, slice_pitch: usize) -> Surface {
    let bpp = u64::from(p.prop.element_size);
    let row = (rect.extent[0] * bpp).max(row_pitch as u64);
    let packed = if is_array(p.desc.geometry) && super::geometry::is_1d(p.desc.geometry) {
        row
    } else {
        row * rect.extent[1]
    };
    Surface {
        base,
        bpp,
        row,
        slice: packed.max(slice_pitch as u64),
    }
}

/// Copies the rows of `rect` from `src` (at `so`) to `dst` (at `do_`).
///
/// # Safety
/// Both surfaces must be valid host memory for every row of the region.
pub unsafe fn copy_rows(src: &Surface, so: [u64; 3], dst: &Surface, do_: [u64; 3], ext: [u64; 3]) {
    let n = (ext[0] * src.bpp) as usize;
    for s in 0..ext[2] {
        for r in 0..ext[1] {
            let a = src.at(so[0], so[1] + r, so[2] + s);
            let b = dst.at(do_[0], do_[1] + r, do_[2] + s);
            // SAFETY: valid per the caller; `copy` allows overlap (copies within one image).
            unsafe { std::ptr::copy(a as *const u8, b as *mut u8, n) };
        }
    }
}

/// Writes the element `value` (`bpp` bytes, little endian) over `rect`.
///
/// # Safety
/// `dst` must be valid host memory for every element of the region.
pub unsafe fn fill(dst: &Surface, rect: &Rect, value: u128) {
    let bytes = value.to_le_bytes();
    let n = dst.bpp as usize;
    for s in 0..rect.extent[2] {
        for r in 0..rect.extent[1] {
            for x in 0..rect.extent[0] {
                let a = dst.at(rect.origin[0] + x, rect.origin[1] + r, rect.origin[2] + s);
                // SAFETY: valid per the caller.
                unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), a as *mut u8, n) };
            }
        }
    }
}
