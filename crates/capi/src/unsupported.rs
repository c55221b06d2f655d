//! Entry points of features softhsa does not implement: images and samplers, the HSAIL
//! finalizer (programs), and graphics interop (there is no graphics driver whose buffers could
//! be mapped: `hsa_amd_interop_*` fail with an explicit message).
//!
//! Each validates what it can and returns the status the headers name for the situation (an
//! image format is unsupported, a program or image handle cannot be valid, ...), with a trace
//! line under `SOFTHSA_TRACE=api` saying which feature is missing. Before `hsa_init` they return
//! HSA_STATUS_ERROR_NOT_INITIALIZED like every export. The capability queries answer truthfully
//! ("no capability") rather than failing, so that programs probing for images carry on.

use crate::with_runtime;
use softhsa_abi::*;
use softhsa_runtime::{Error, Result, Runtime};
use std::ffi::{c_char, c_int, c_void};

fn unsupported(status: hsa_status_t, what: &str) -> Result<()> {
    Err(Error::with_message(
        status,
        format!("{what} not supported by softhsa"),
    ))
}

fn check_agent(rt: &Runtime, agent: hsa_agent_t) -> Result<()> {
    rt.topology.agent(agent.handle).map(|_| ())
}

const IMAGES: &str = "images (HSA_EXTENSION_IMAGES) are";
const NO_IMAGE: &str =
    "images (HSA_EXTENSION_IMAGES) are not supported, so no image handle is valid:";

#[no_mangle]
pub extern "C" fn hsa_ext_image_get_capability(
    agent: hsa_agent_t,
    _geometry: hsa_ext_image_geometry_t,
    image_format: *const hsa_ext_image_format_t,
    capability_mask: *mut u32,
) -> hsa_status_t {
    with_runtime("hsa_ext_image_get_capability", |rt| {
        check_agent(rt, agent)?;
        if image_format.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        // HSA_EXT_IMAGE_CAPABILITY_NOT_SUPPORTED for every geometry and format.
        // SAFETY: `capability_mask` is NULL or a u32 the caller owns.
        unsafe { crate::write_out(capability_mask, 0) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_ext_image_get_capability_with_layout(
    agent: hsa_agent_t,
    geometry: hsa_ext_image_geometry_t,
    image_format: *const hsa_ext_image_format_t,
    _layout: hsa_ext_image_data_layout_t,
    capability_mask: *mut u32,
) -> hsa_status_t {
    hsa_ext_image_get_capability(agent, geometry, image_format, capability_mask)
}

#[no_mangle]
pub extern "C" fn hsa_ext_image_data_get_info(
    agent: hsa_agent_t,
    _descriptor: *const c_void,
    _access: hsa_access_permission_t,
    _info: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_ext_image_data_get_info", |rt| {
        check_agent(rt, agent)?;
        unsupported(HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED, IMAGES)
    })
}

#[no_mangle]
pub extern "C" fn hsa_ext_image_data_get_info_with_layout(
    agent: hsa_agent_t,
    descriptor: *const c_void,
    access: hsa_access_permission_t,
    _layout: hsa_ext_image_data_layout_t,
    _row_pitch: usize,
    _slice_pitch: usize,
    info: *mut c_void,
) -> hsa_status_t {
    hsa_ext_image_data_get_info(agent, descriptor, access, info)
}

#[no_mangle]
pub extern "C" fn hsa_ext_image_create(
    agent: hsa_agent_t,
    _descriptor: *const c_void,
    _image_data: *const c_void,
    _access: hsa_access_permission_t,
    _image: *mut hsa_ext_image_t,
) -> hsa_status_t {
    with_runtime("hsa_ext_image_create", |rt| {
        check_agent(rt, agent)?;
        unsupported(HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED, IMAGES)
    })
}

#[no_mangle]
pub extern "C" fn hsa_ext_image_create_with_layout(
    agent: hsa_agent_t,
    descriptor: *const c_void,
    image_data: *const c_void,
    access: hsa_access_permission_t,
    _layout: hsa_ext_image_data_layout_t,
    _row_pitch: usize,
    _slice_pitch: usize,
    image: *mut hsa_ext_image_t,
) -> hsa_status_t {
    hsa_ext_image_create(agent, descriptor, image_data, access, image)
}

#[no_mangle]
pub extern "C" fn hsa_amd_image_create(
    agent: hsa_agent_t,
    descriptor: *const c_void,
    _image_layout: *const c_void,
    image_data: *const c_void,
    access: hsa_access_permission_t,
    image: *mut hsa_ext_image_t,
) -> hsa_status_t {
    hsa_ext_image_create(agent, descriptor, image_data, access, image)
}

/// The image operations on an existing image: none can exist.
fn no_image(name: &'static str, agent: hsa_agent_t) -> hsa_status_t {
    with_runtime(name, |rt| {
        check_agent(rt, agent)?;
        unsupported(HSA_STATUS_ERROR_INVALID_ARGUMENT, NO_IMAGE)
    })
}

#[no_mangle]
pub extern "C" fn hsa_ext_image_destroy(
    agent: hsa_agent_t,
    _image: hsa_ext_image_t,
) -> hsa_status_t {
    no_image("hsa_ext_image_destroy", agent)
}

#[no_mangle]
pub extern "C" fn hsa_ext_image_copy(
    agent: hsa_agent_t,
    _src_image: hsa_ext_image_t,
    _src_offset: *const hsa_dim3_t,
    _dst_image: hsa_ext_image_t,
    _dst_offset: *const hsa_dim3_t,
    _range: *const hsa_dim3_t,
) -> hsa_status_t {
    no_image("hsa_ext_image_copy", agent)
}

#[no_mangle]
pub extern "C" fn hsa_ext_image_import(
    agent: hsa_agent_t,
    _src_memory: *const c_void,
    _src_row_pitch: usize,
    _src_slice_pitch: usize,
    _dst_image: hsa_ext_image_t,
    _image_region: *const c_void,
) -> hsa_status_t {
    no_image("hsa_ext_image_import", agent)
}

#[no_mangle]
pub extern "C" fn hsa_ext_image_export(
    agent: hsa_agent_t,
    _src_image: hsa_ext_image_t,
    _dst_memory: *mut c_void,
    _dst_row_pitch: usize,
    _dst_slice_pitch: usize,
    _image_region: *const c_void,
) -> hsa_status_t {
    no_image("hsa_ext_image_export", agent)
}

#[no_mangle]
pub extern "C" fn hsa_ext_image_clear(
    agent: hsa_agent_t,
    _image: hsa_ext_image_t,
    _data: *const c_void,
    _image_region: *const c_void,
) -> hsa_status_t {
    no_image("hsa_ext_image_clear", agent)
}

#[no_mangle]
pub extern "C" fn hsa_amd_image_get_info_max_dim(
    agent: hsa_agent_t,
    _attribute: hsa_agent_info_t,
    _value: *mut c_void,
) -> hsa_status_t {
    no_image("hsa_amd_image_get_info_max_dim", agent)
}

#[no_mangle]
pub extern "C" fn hsa_ext_sampler_create(
    agent: hsa_agent_t,
    _descriptor: *const c_void,
    _sampler: *mut hsa_ext_sampler_t,
) -> hsa_status_t {
    with_runtime("hsa_ext_sampler_create", |rt| {
        check_agent(rt, agent)?;
        unsupported(
            HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED,
            "samplers (HSA_EXTENSION_IMAGES) are",
        )
    })
}

#[no_mangle]
pub extern "C" fn hsa_ext_sampler_destroy(
    agent: hsa_agent_t,
    _sampler: hsa_ext_sampler_t,
) -> hsa_status_t {
    no_image("hsa_ext_sampler_destroy", agent)
}

const FINALIZER: &str = "the HSAIL finalizer (HSA_EXTENSION_FINALIZER) is";

#[no_mangle]
pub extern "C" fn hsa_ext_program_create(
    _machine_model: hsa_machine_model_t,
    _profile: hsa_profile_t,
    _rounding: hsa_default_float_rounding_mode_t,
    _options: *const c_char,
    _program: *mut hsa_ext_program_t,
) -> hsa_status_t {
    with_runtime("hsa_ext_program_create", |_| {
        unsupported(HSA_STATUS_ERROR, FINALIZER)
    })
}

/// Operations on a program: none can exist.
fn no_program(name: &'static str) -> hsa_status_t {
    with_runtime(name, |_| {
        unsupported(HSA_EXT_STATUS_ERROR_INVALID_PROGRAM, FINALIZER)
    })
}

#[no_mangle]
pub extern "C" fn hsa_ext_program_destroy(_program: hsa_ext_program_t) -> hsa_status_t {
    no_program("hsa_ext_program_destroy")
}

#[no_mangle]
pub extern "C" fn hsa_ext_program_add_module(
    _program: hsa_ext_program_t,
    _module: hsa_ext_module_t,
) -> hsa_status_t {
    no_program("hsa_ext_program_add_module")
}

#[no_mangle]
pub extern "C" fn hsa_ext_program_iterate_modules(
    _program: hsa_ext_program_t,
    _callback: Option<
        unsafe extern "C" fn(hsa_ext_program_t, hsa_ext_module_t, *mut c_void) -> hsa_status_t,
    >,
    _data: *mut c_void,
) -> hsa_status_t {
    no_program("hsa_ext_program_iterate_modules")
}

#[no_mangle]
pub extern "C" fn hsa_ext_program_get_info(
    _program: hsa_ext_program_t,
    _attribute: u32,
    _value: *mut c_void,
) -> hsa_status_t {
    no_program("hsa_ext_program_get_info")
}

#[no_mangle]
pub extern "C" fn hsa_ext_program_finalize(
    _program: hsa_ext_program_t,
    _isa: hsa_isa_t,
    _call_convention: i32,
    _control_directives: hsa_ext_control_directives_t,
    _options: *const c_char,
    _code_object_type: hsa_code_object_type_t,
    _code_object: *mut hsa_code_object_t,
) -> hsa_status_t {
    no_program("hsa_ext_program_finalize")
}

const INTEROP: &str =
    "graphics interop (hsa_amd_interop_*: no graphics driver shares buffers with a software GPU) is";

#[no_mangle]
pub extern "C" fn hsa_amd_interop_map_buffer(
    _num_agents: u32,
    _agents: *mut hsa_agent_t,
    _interop_handle: c_int,
    _flags: u32,
    _size: *mut usize,
    _ptr: *mut *mut c_void,
    _metadata_size: *mut usize,
    _metadata: *mut *const c_void,
) -> hsa_status_t {
    with_runtime("hsa_amd_interop_map_buffer", |_| {
        unsupported(HSA_STATUS_ERROR, INTEROP)
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_interop_unmap_buffer(_ptr: *mut c_void) -> hsa_status_t {
    with_runtime("hsa_amd_interop_unmap_buffer", |_| {
        unsupported(HSA_STATUS_ERROR_INVALID_ARGUMENT, INTEROP)
    })
}
