//! The images extension (`hsa_ext_image_*`, `hsa_ext_sampler_*`, `hsa_amd_image_create`,
//! `hsa_amd_image_get_info_max_dim`) and its function table. Argument checks as ROCm 5.2
//! makes them; the work is `softhsa_runtime::image`.

use crate::agent::write_info;
use crate::{with_runtime, write_out};
use softhsa_abi::*;
use softhsa_runtime::image::{self, formats, geometry::Layout};
use softhsa_runtime::topology::{Agent, InfoValue};
use softhsa_runtime::{Error, Result, Runtime};
use std::ffi::c_void;

/// Reads a `T` the caller passed by pointer, refusing NULL.
///
/// # Safety
/// `p` must be NULL or valid for a read of `T`.
unsafe fn read_in<T>(p: *const T) -> Result<T> {
    if p.is_null() {
        return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
    }
    // SAFETY: non-null and readable per the caller.
    Ok(unsafe { p.read_unaligned() })
}

fn agent(rt: &Runtime, a: hsa_agent_t) -> Result<&Agent> {
    rt.topology.agent(a.handle)
}

fn linear_only(layout: hsa_ext_image_data_layout_t) -> Result<()> {
    if layout == HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR {
        Ok(())
    } else {
        Err(Error::with_message(
            HSA_STATUS_ERROR_INVALID_ARGUMENT,
            format!("explicit image data layout {layout} (only LINEAR is explicit)"),
        ))
    }
}

#[no_mangle]
pub extern "C" fn hsa_ext_image_get_capability(
    agent_: hsa_agent_t,
    geometry: hsa_ext_image_geometry_t,
    image_format: *const hsa_ext_image_format_t,
    capability_mask: *mut u32,
) -> hsa_status_t {
    with_runtime("hsa_ext_image_get_capability", |rt| {
        let a = agent(rt, agent_)?;
        // SAFETY: NULL or a format the caller owns.
        let f = unsafe { read_in(image_format) }?;
        let cap = image::capability(a, geometry, f)?;
        // SAFETY: NULL or a u32 the caller owns.
        unsafe { write_out(capability_mask, cap) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_ext_image_get_capability_with_layout(
    agent_: hsa_agent_t,
    geometry: hsa_ext_image_geometry_t,
    image_format: *const hsa_ext_image_format_t,
    layout: hsa_ext_image_data_layout_t,
    capability_mask: *mut u32,
) -> hsa_status_t {
    with_runtime("hsa_ext_image_get_capability_with_layout", |rt| {
        let a = agent(rt, agent_)?;
        linear_only(layout)?;
        // SAFETY: NULL or a format the caller owns.
        let f = unsafe { read_in(image_format) }?;
        let cap = image::capability(a, geometry, f)?;
        // SAFETY: NULL or a u32 the caller owns.
        unsafe { write_out(capability_mask, cap) }
    })
}

fn data_info(
    name: &'static str,
    agent_: hsa_agent_t,
    desc: *const hsa_ext_image_descriptor_t,
    access: hsa_access_permission_t,
    layout: Result<Layout>,
    info: *mut hsa_ext_image_data_info_t,
) -> hsa_status_t {
    with_runtime(name, |rt| {
        let a = agent(rt, agent_)?;
        let layout = layout?;
        // SAFETY: NULL or a descriptor the caller owns.
        let d = unsafe { read_in(desc) }?;
        if info.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        let v = image::data_info(a, &d, access, layout)?;
        // SAFETY: checked non-NULL; the caller owns it.
        unsafe { write_out(info, v) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_ext_image_data_get_info(
    agent: hsa_agent_t,
    image_descriptor: *const hsa_ext_image_descriptor_t,
    access_permission: hsa_access_permission_t,
    image_data_info: *mut hsa_ext_image_data_info_t,
) -> hsa_status_t {
    data_info(
        "hsa_ext_image_data_get_info",
        agent,
        image_descriptor,
        access_permission,
        Ok(Layout::Opaque),
        image_data_info,
    )
}

#[no_mangle]
pub extern "C" fn hsa_ext_image_data_get_info_with_layout(
    agent: hsa_agent_t,
    image_descriptor: *const hsa_ext_image_descriptor_t,
    access_permission: hsa_access_permission_t,
    layout: hsa_ext_image_data_layout_t,
    row_pitch: usize,
    slice_pitch: usize,
    image_data_info: *mut hsa_ext_image_data_info_t,
) -> hsa_status_t {
    data_info(
        "hsa_ext_image_data_get_info_with_layout",
        agent,
        image_descriptor,
        access_permission,
        linear_only(layout).map(|()| Layout::Linear {
            row_pitch,
            slice_pitch,
        }),
        image_data_info,
    )
}

fn create(
    name: &'static str,
    agent_: hsa_agent_t,
    desc: *const hsa_ext_image_descriptor_t,
    data: *const c_void,
    access: hsa_access_permission_t,
    layout: Result<Layout>,
    image_out: *mut hsa_ext_image_t,
) -> hsa_status_t {
    with_runtime(name, |rt| {
        let a = agent(rt, agent_)?;
        let layout = layout?;
        // SAFETY: NULL or a descriptor the caller owns.
        let d = unsafe { read_in(desc) }?;
        if data.is_null() || image_out.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        let h = rt
            .images
            .create(&rt.memory, a, &d, data as u64, access, layout)?;
        // SAFETY: checked non-NULL; the caller owns it.
        unsafe { write_out(image_out, hsa_ext_image_t { handle: h }) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_ext_image_create(
    agent: hsa_agent_t,
    image_descriptor: *const hsa_ext_image_descriptor_t,
    image_data: *const c_void,
    access_permission: hsa_access_permission_t,
    image: *mut hsa_ext_image_t,
) -> hsa_status_t {
    create(
        "hsa_ext_image_create",
        agent,
        image_descriptor,
        image_data,
        access_permission,
        Ok(Layout::Opaque),
        image,
    )
}

#[no_mangle]
pub extern "C" fn hsa_ext_image_create_with_layout(
    agent: hsa_agent_t,
    image_descriptor: *const hsa_ext_image_descriptor_t,
    image_data: *const c_void,
    access_permission: hsa_access_permission_t,
    layout: hsa_ext_image_data_layout_t,
    row_pitch: usize,
    slice_pitch: usize,
    image: *mut hsa_ext_image_t,
) -> hsa_status_t {
    create(
        "hsa_ext_image_create_with_layout",
        agent,
        image_descriptor,
        image_data,
        access_permission,
        linear_only(layout).map(|()| Layout::Linear {
            row_pitch,
            slice_pitch,
        }),
        image,
    )
}

#[no_mangle]
pub extern "C" fn hsa_amd_image_create(
    agent_: hsa_agent_t,
    image_descriptor: *const hsa_ext_image_descriptor_t,
    image_layout: *const hsa_amd_image_descriptor_t,
    image_data: *const c_void,
    access_permission: hsa_access_permission_t,
    image: *mut hsa_ext_image_t,
) -> hsa_status_t {
    with_runtime("hsa_amd_image_create", |rt| {
        let a = agent(rt, agent_)?;
        // SAFETY: NULL or a descriptor the caller owns.
        let d = unsafe { read_in(image_descriptor) }?;
        if image_layout.is_null() || image_data.is_null() || image.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        // SAFETY: AMD metadata is version, device id and the 8 T# words (ROCm's
        // `metadata_amd_t`); the caller provides at least that much.
        let meta = unsafe { (image_layout as *const [u32; 10]).read_unaligned() };
        let h = rt.images.create_from_metadata(
            &rt.memory,
            a,
            &d,
            &meta,
            image_data as u64,
            access_permission,
        )?;
        // SAFETY: checked non-NULL; the caller owns it.
        unsafe { write_out(image, hsa_ext_image_t { handle: h }) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_ext_image_destroy(
    agent_: hsa_agent_t,
    image: hsa_ext_image_t,
) -> hsa_status_t {
    with_runtime("hsa_ext_image_destroy", |rt| {
        rt.images.destroy(agent(rt, agent_)?, image.handle, false)
    })
}

#[no_mangle]
pub extern "C" fn hsa_ext_image_copy(
    agent_: hsa_agent_t,
    src_image: hsa_ext_image_t,
    src_offset: *const hsa_dim3_t,
    dst_image: hsa_ext_image_t,
    dst_offset: *const hsa_dim3_t,
    range: *const hsa_dim3_t,
) -> hsa_status_t {
    with_runtime("hsa_ext_image_copy", |rt| {
        let a = agent(rt, agent_)?;
        // SAFETY: NULL or values the caller owns.
        let (so, dof, r) = unsafe { (read_in(src_offset)?, read_in(dst_offset)?, read_in(range)?) };
        rt.images.copy(
            &rt.memory,
            a,
            src_image.handle,
            so,
            dst_image.handle,
            dof,
            r,
        )
    })
}

#[allow(clippy::too_many_arguments)]
fn transfer(
    name: &'static str,
    agent_: hsa_agent_t,
    image: hsa_ext_image_t,
    memory: u64,
    row_pitch: usize,
    slice_pitch: usize,
    region: *const hsa_ext_image_region_t,
    to_image: bool,
) -> hsa_status_t {
    with_runtime(name, |rt| {
        let a = agent(rt, agent_)?;
        // SAFETY: NULL or a region the caller owns.
        let r = unsafe { read_in(region) }?;
        if memory == 0 {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        // SAFETY: the caller promises `memory` holds the region with these pitches (hsa.h).
        unsafe {
            rt.images.transfer(
                &rt.memory,
                a,
                image.handle,
                memory,
                row_pitch,
                slice_pitch,
                &r,
                to_image,
            )
        }
    })
}

#[no_mangle]
pub extern "C" fn hsa_ext_image_import(
    agent: hsa_agent_t,
    src_memory: *const c_void,
    src_row_pitch: usize,
    src_slice_pitch: usize,
    dst_image: hsa_ext_image_t,
    image_region: *const hsa_ext_image_region_t,
) -> hsa_status_t {
    transfer(
        "hsa_ext_image_import",
        agent,
        dst_image,
        src_memory as u64,
        src_row_pitch,
        src_slice_pitch,
        image_region,
        true,
    )
}

#[no_mangle]
pub extern "C" fn hsa_ext_image_export(
    agent: hsa_agent_t,
    src_image: hsa_ext_image_t,
    dst_memory: *mut c_void,
    dst_row_pitch: usize,
    dst_slice_pitch: usize,
    image_region: *const hsa_ext_image_region_t,
) -> hsa_status_t {
    transfer(
        "hsa_ext_image_export",
        agent,
        src_image,
        dst_memory as u64,
        dst_row_pitch,
        dst_slice_pitch,
        image_region,
        false,
    )
}

#[no_mangle]
pub extern "C" fn hsa_ext_image_clear(
    agent_: hsa_agent_t,
    image: hsa_ext_image_t,
    data: *const c_void,
    image_region: *const hsa_ext_image_region_t,
) -> hsa_status_t {
    with_runtime("hsa_ext_image_clear", |rt| {
        let a = agent(rt, agent_)?;
        // SAFETY: NULL or values the caller owns: the clear colour is four 32-bit
        // components (float, int or uint by the image's channel type).
        let (v, r) = unsafe { (read_in(data as *const [u32; 4])?, read_in(image_region)?) };
        rt.images.clear(&rt.memory, a, image.handle, v, &r)
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_image_get_info_max_dim(
    agent_: hsa_agent_t,
    attribute: hsa_agent_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_amd_image_get_info_max_dim", |rt| {
        let a = agent(rt, agent_)?;
        if value.is_null() || !(0x3000..=0x3008).contains(&attribute) {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        let words = formats::agent_attribute(attribute).unwrap_or_default();
        let words = if a.is_gpu() {
            words
        } else {
            vec![0; words.len()]
        };
        // SAFETY: `value` points to storage for the attribute (caller's contract).
        unsafe { write_info(value, InfoValue::u32s(&words)) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_ext_sampler_create(
    agent_: hsa_agent_t,
    sampler_descriptor: *const hsa_ext_sampler_descriptor_t,
    sampler: *mut hsa_ext_sampler_t,
) -> hsa_status_t {
    with_runtime("hsa_ext_sampler_create", |rt| {
        let a = agent(rt, agent_)?;
        // SAFETY: NULL or a descriptor the caller owns.
        let d = unsafe { read_in(sampler_descriptor) }?;
        if sampler.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        let h = rt.images.sampler_create(&rt.memory, a, &d)?;
        // SAFETY: checked non-NULL; the caller owns it.
        unsafe { write_out(sampler, hsa_ext_sampler_t { handle: h }) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_ext_sampler_destroy(
    agent_: hsa_agent_t,
    sampler: hsa_ext_sampler_t,
) -> hsa_status_t {
    with_runtime("hsa_ext_sampler_destroy", |rt| {
        rt.images.destroy(agent(rt, agent_)?, sampler.handle, true)
    })
}

/// The bytes of `hsa_ext_images_1_pfn_t` (the v1.00 table is its first ten entries).
pub(crate) fn extension_table_bytes() -> Vec<u8> {
    let t = hsa_ext_images_1_pfn_t {
        hsa_ext_image_get_capability: Some(hsa_ext_image_get_capability),
        hsa_ext_image_data_get_info: Some(hsa_ext_image_data_get_info),
        hsa_ext_image_create: Some(hsa_ext_image_create),
        hsa_ext_image_destroy: Some(hsa_ext_image_destroy),
        hsa_ext_image_copy: Some(hsa_ext_image_copy),
        hsa_ext_image_import: Some(hsa_ext_image_import),
        hsa_ext_image_export: Some(hsa_ext_image_export),
        hsa_ext_image_clear: Some(hsa_ext_image_clear),
        hsa_ext_sampler_create: Some(hsa_ext_sampler_create),
        hsa_ext_sampler_destroy: Some(hsa_ext_sampler_destroy),
        hsa_ext_image_get_capability_with_layout: Some(hsa_ext_image_get_capability_with_layout),
        hsa_ext_image_data_get_info_with_layout: Some(hsa_ext_image_data_get_info_with_layout),
        hsa_ext_image_create_with_layout: Some(hsa_ext_image_create_with_layout),
    };
    let n = std::mem::size_of_val(&t);
    let mut out = vec![0u8; n];
    // SAFETY: `t` is a live local of `n` bytes, `out` a fresh buffer of `n` bytes.
    unsafe {
        std::ptr::copy_nonoverlapping(
            (&t as *const hsa_ext_images_1_pfn_t).cast::<u8>(),
            out.as_mut_ptr(),
            n,
        )
    };
    out
}
