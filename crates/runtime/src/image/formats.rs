//! The image formats a GFX9 agent supports, as ROCm 5.2's image runtime answers them
//! (`image_lut_kv.cpp`, used for gfx9 too): per channel order and channel type, the access
//! capability, element size and hardware data / number format; per order, the destination
//! swizzle; per geometry, the resource type and the size limits.

use softhsa_abi::*;
use softhsa_gpu::exec::mimg::format::{dfmt, nfmt};
use softhsa_gpu::exec::mimg::rsrc::{sel, ty};

/// Read-only, write-only and read-write.
const RW: u32 = HSA_EXT_IMAGE_CAPABILITY_READ_ONLY
    | HSA_EXT_IMAGE_CAPABILITY_WRITE_ONLY
    | HSA_EXT_IMAGE_CAPABILITY_READ_WRITE;
const ROWO: u32 = HSA_EXT_IMAGE_CAPABILITY_READ_ONLY | HSA_EXT_IMAGE_CAPABILITY_WRITE_ONLY;
const RO: u32 = HSA_EXT_IMAGE_CAPABILITY_READ_ONLY;

/// What one (order, type) pair maps to on the hardware.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Property {
    pub capability: u32,
    /// Bytes per element.
    pub element_size: u32,
    pub data_format: u8,
    pub num_format: u8,
}

/// Data format of `channels` components of `bits` each (8, 16 or 32).
fn fmt_of(channels: u32, bits: u32) -> u8 {
    match (channels, bits) {
        (1, 8) => dfmt::F8,
        (1, 16) => dfmt::F16,
        (1, _) => dfmt::F32,
        (2, 8) => dfmt::F8_8,
        (2, 16) => dfmt::F16_16,
        (2, _) => dfmt::F32_32,
        (_, 8) => dfmt::F8_8_8_8,
        (_, 16) => dfmt::F16_16_16_16,
        _ => dfmt::F32_32_32_32,
    }
}

/// The bits and number format of a plain (one component per channel) channel type.
fn plain_type(t: u32) -> Option<(u32, u8)> {
    Some(match t {
        HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT8 => (8, nfmt::SNORM),
        HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT16 => (16, nfmt::SNORM),
        HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8 => (8, nfmt::UNORM),
        HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16 => (16, nfmt::UNORM),
        HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT8 => (8, nfmt::SINT),
        HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT16 => (16, nfmt::SINT),
        HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT32 => (32, nfmt::SINT),
        HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8 => (8, nfmt::UINT),
        HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT16 => (16, nfmt::UINT),
        HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32 => (32, nfmt::UINT),
        HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT => (16, nfmt::FLOAT),
        HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT => (32, nfmt::FLOAT),
        _ => return None,
    })
}

fn prop(capability: u32, element_size: u32, data_format: u8, num_format: u8) -> Property {
    Property {
        capability,
        element_size,
        data_format,
        num_format,
    }
}

/// The (order, type) table, whatever the geometry.
fn table(order: u32, t: u32) -> Option<Property> {
    use HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8 as UNORM8;
    let plain = |channels: u32| {
        plain_type(t).map(|(bits, nf)| prop(RW, channels * bits / 8, fmt_of(channels, bits), nf))
    };
    match order {
        HSA_EXT_IMAGE_CHANNEL_ORDER_A | HSA_EXT_IMAGE_CHANNEL_ORDER_R => plain(1),
        HSA_EXT_IMAGE_CHANNEL_ORDER_RG | HSA_EXT_IMAGE_CHANNEL_ORDER_RA => plain(2),
        HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA => plain(4),
        HSA_EXT_IMAGE_CHANNEL_ORDER_RGB => match t {
            HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_555 => {
                Some(prop(RW, 2, dfmt::F1_5_5_5, nfmt::UNORM))
            }
            HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565 => {
                Some(prop(RW, 2, dfmt::F5_6_5, nfmt::UNORM))
            }
            HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_101010 => {
                Some(prop(RW, 4, dfmt::F2_10_10_10, nfmt::UNORM))
            }
            _ => None,
        },
        HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA | HSA_EXT_IMAGE_CHANNEL_ORDER_ARGB => match t {
            HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT8
            | UNORM8
            | HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT8
            | HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8 => plain(4),
            _ => None,
        },
        HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA if t == UNORM8 => {
            Some(prop(RO, 4, dfmt::F8_8_8_8, nfmt::SRGB))
        }
        HSA_EXT_IMAGE_CHANNEL_ORDER_INTENSITY | HSA_EXT_IMAGE_CHANNEL_ORDER_LUMINANCE => match t {
            HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT8
            | HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT16
            | UNORM8
            | HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16
            | HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT
            | HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT => plain(1),
            _ => None,
        },
        HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH => match t {
            HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16 => Some(prop(ROWO, 2, dfmt::F16, nfmt::UNORM)),
            HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT => Some(prop(ROWO, 4, dfmt::F32, nfmt::FLOAT)),
            _ => None,
        },
        _ => None,
    }
}

/// The property of `format` in `geometry`, or `None` (HSA_EXT_IMAGE_CAPABILITY_NOT_SUPPORTED).
/// Buffer images (1DB) exclude sRGB and the 555/565 packed types; depth geometries take only
/// depth orders.
pub fn property(format: hsa_ext_image_format_t, geometry: u32) -> Option<Property> {
    let (order, t) = (format.channel_order, format.channel_type);
    let srgb = matches!(
        order,
        HSA_EXT_IMAGE_CHANNEL_ORDER_SRGB
            | HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBX
            | HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA
            | HSA_EXT_IMAGE_CHANNEL_ORDER_SBGRA
    );
    let depth = matches!(
        order,
        HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH | HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH_STENCIL
    );
    let ok = match geometry {
        HSA_EXT_IMAGE_GEOMETRY_1DB => {
            !srgb
                && !matches!(
                    t,
                    HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_555
                        | HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565
                )
        }
        HSA_EXT_IMAGE_GEOMETRY_2DDEPTH | HSA_EXT_IMAGE_GEOMETRY_2DADEPTH => depth,
        HSA_EXT_IMAGE_GEOMETRY_1D..=HSA_EXT_IMAGE_GEOMETRY_2DA => true,
        _ => false,
    };
    if ok {
        table(order, t)
    } else {
        None
    }
}

/// The destination selects of a channel order (`SQ_SEL_*` for R, G, B, A).
pub fn swizzle(order: u32) -> [u8; 4] {
    use sel::{ONE, W, X, Y, Z, ZERO};
    match order {
        HSA_EXT_IMAGE_CHANNEL_ORDER_A => [ZERO, ZERO, ZERO, X],
        HSA_EXT_IMAGE_CHANNEL_ORDER_R | HSA_EXT_IMAGE_CHANNEL_ORDER_RX => [X, ZERO, ZERO, ONE],
        HSA_EXT_IMAGE_CHANNEL_ORDER_RG | HSA_EXT_IMAGE_CHANNEL_ORDER_RGX => [X, Y, ZERO, ONE],
        HSA_EXT_IMAGE_CHANNEL_ORDER_RA => [X, ZERO, ZERO, Y],
        HSA_EXT_IMAGE_CHANNEL_ORDER_RGB | HSA_EXT_IMAGE_CHANNEL_ORDER_RGBX => [Z, Y, X, ONE],
        HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA | HSA_EXT_IMAGE_CHANNEL_ORDER_SBGRA => [Z, Y, X, W],
        HSA_EXT_IMAGE_CHANNEL_ORDER_ARGB => [Y, Z, W, X],
        HSA_EXT_IMAGE_CHANNEL_ORDER_ABGR => [Y, X, W, Z],
        HSA_EXT_IMAGE_CHANNEL_ORDER_SRGB | HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBX => [X, Y, Z, ONE],
        HSA_EXT_IMAGE_CHANNEL_ORDER_INTENSITY => [X, X, X, X],
        HSA_EXT_IMAGE_CHANNEL_ORDER_LUMINANCE => [X, X, X, ONE],
        HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH => [X, ZERO, ZERO, ZERO],
        HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH_STENCIL => [Y, ZERO, ZERO, ZERO],
        // RGBA, SRGBA.
        _ => [X, Y, Z, W],
    }
}

/// `TEX_BC_SWIZZLE` (T# word 4) for a swizzle: where the border colour's alpha lands, as
/// ROCm's `GetBcSwizzle` chooses it.
pub fn bc_swizzle(s: [u8; 4]) -> u8 {
    const XYZW: u8 = 0;
    const XWYZ: u8 = 1;
    const WZYX: u8 = 2;
    const WXYZ: u8 = 3;
    const ZYXW: u8 = 4;
    const YXWZ: u8 = 5;
    let [r, g, b, a] = s;
    if a == sel::X {
        if b == sel::Y {
            WZYX
        } else if r == sel::X && g == sel::X && b == sel::X {
            XYZW
        } else {
            WXYZ
        }
    } else if r == sel::X {
        if g == sel::Y || (g == sel::X && b == sel::X && a == sel::W) {
            XYZW
        } else {
            XWYZ
        }
    } else if g == sel::X {
        YXWZ
    } else if b == sel::X {
        ZYXW
    } else {
        XYZW
    }
}

/// The T# resource type of a geometry (1DB: a buffer, 0).
pub fn resource_type(geometry: u32) -> u8 {
    match geometry {
        HSA_EXT_IMAGE_GEOMETRY_1D => ty::IMG_1D,
        HSA_EXT_IMAGE_GEOMETRY_2D | HSA_EXT_IMAGE_GEOMETRY_2DDEPTH => ty::IMG_2D,
        HSA_EXT_IMAGE_GEOMETRY_3D => ty::IMG_3D,
        HSA_EXT_IMAGE_GEOMETRY_1DA => ty::IMG_1D_ARRAY,
        HSA_EXT_IMAGE_GEOMETRY_2DA | HSA_EXT_IMAGE_GEOMETRY_2DADEPTH => ty::IMG_2D_ARRAY,
        _ => 0,
    }
}

/// Largest width, height, depth and array size of a geometry (1 for a dimension the geometry
/// lacks), as ROCm's table gives them: the T# width/height fields hold 14 bits, depth 13.
pub fn max_dims(geometry: u32) -> [u32; 4] {
    const D: u32 = 16384;
    const A: u32 = 8192;
    match geometry {
        HSA_EXT_IMAGE_GEOMETRY_1D => [D, 1, 1, 1],
        HSA_EXT_IMAGE_GEOMETRY_2D | HSA_EXT_IMAGE_GEOMETRY_2DDEPTH => [D, D, 1, 1],
        HSA_EXT_IMAGE_GEOMETRY_3D => [D, D, A, 1],
        HSA_EXT_IMAGE_GEOMETRY_1DA => [D, 1, 1, A],
        HSA_EXT_IMAGE_GEOMETRY_2DA | HSA_EXT_IMAGE_GEOMETRY_2DADEPTH => [D, D, 1, A],
        HSA_EXT_IMAGE_GEOMETRY_1DB => [u32::MAX, 1, 1, 1],
        _ => [0; 4],
    }
}

/// The value of an image agent attribute (`HSA_EXT_AGENT_INFO_IMAGE_*`, 0x3000..=0x300C) of a
/// GPU agent, as u32 words (ROCm writes u32 although the header says size_t), or `None` for
/// another attribute.
pub fn agent_attribute(attribute: u32) -> Option<Vec<u32>> {
    let d = |g: u32| max_dims(g);
    Some(match attribute {
        HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS => vec![d(HSA_EXT_IMAGE_GEOMETRY_1D)[0]],
        HSA_EXT_AGENT_INFO_IMAGE_1DA_MAX_ELEMENTS => vec![d(HSA_EXT_IMAGE_GEOMETRY_1DA)[0]],
        HSA_EXT_AGENT_INFO_IMAGE_1DB_MAX_ELEMENTS => vec![d(HSA_EXT_IMAGE_GEOMETRY_1DB)[0]],
        HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS => d(HSA_EXT_IMAGE_GEOMETRY_2D)[..2].to_vec(),
        HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS => d(HSA_EXT_IMAGE_GEOMETRY_2DA)[..2].to_vec(),
        HSA_EXT_AGENT_INFO_IMAGE_2DDEPTH_MAX_ELEMENTS => {
            d(HSA_EXT_IMAGE_GEOMETRY_2DDEPTH)[..2].to_vec()
        }
        HSA_EXT_AGENT_INFO_IMAGE_2DADEPTH_MAX_ELEMENTS => {
            d(HSA_EXT_IMAGE_GEOMETRY_2DADEPTH)[..2].to_vec()
        }
        HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS => d(HSA_EXT_IMAGE_GEOMETRY_3D)[..3].to_vec(),
        HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS => vec![d(HSA_EXT_IMAGE_GEOMETRY_2DA)[3]],
        HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES => vec![128],
        HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES => vec![64],
        HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS => vec![16],
        HSA_EXT_AGENT_INFO_IMAGE_LINEAR_ROW_PITCH_ALIGNMENT => vec![256],
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(order: u32, t: u32) -> hsa_ext_image_format_t {
        hsa_ext_image_format_t {
            channel_type: t,
            channel_order: order,
        }
    }

    #[test]
    fn rocm_table_samples() {
        let p = property(
            f(
                HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA,
                HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT,
            ),
            HSA_EXT_IMAGE_GEOMETRY_2D,
        )
        .unwrap();
        assert_eq!((p.element_size, p.data_format, p.num_format), (16, 14, 7));
        assert_eq!(p.capability, 7);
        let srgb = f(
            HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA,
            HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8,
        );
        assert_eq!(
            property(srgb, HSA_EXT_IMAGE_GEOMETRY_2D).map(|p| p.capability),
            Some(1)
        );
        assert_eq!(property(srgb, HSA_EXT_IMAGE_GEOMETRY_1DB), None);
        let depth = f(
            HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH,
            HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT,
        );
        assert_eq!(
            property(depth, HSA_EXT_IMAGE_GEOMETRY_2DADEPTH).map(|p| p.capability),
            Some(3)
        );
        let r8 = f(
            HSA_EXT_IMAGE_CHANNEL_ORDER_R,
            HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8,
        );
        assert_eq!(property(r8, HSA_EXT_IMAGE_GEOMETRY_2DDEPTH), None);
        let bgra16 = f(
            HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA,
            HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16,
        );
        assert_eq!(property(bgra16, HSA_EXT_IMAGE_GEOMETRY_2D), None);
        assert_eq!(property(r8, 99), None);
    }

    #[test]
    fn bc_swizzles_like_rocm() {
        assert_eq!(bc_swizzle(swizzle(HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA)), 0);
        assert_eq!(bc_swizzle(swizzle(HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA)), 4);
        assert_eq!(bc_swizzle(swizzle(HSA_EXT_IMAGE_CHANNEL_ORDER_ARGB)), 3);
        assert_eq!(bc_swizzle(swizzle(HSA_EXT_IMAGE_CHANNEL_ORDER_A)), 3);
        assert_eq!(bc_swizzle(swizzle(HSA_EXT_IMAGE_CHANNEL_ORDER_RA)), 1);
    }
}
