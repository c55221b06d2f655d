//! Entry points of features softhsa does not implement: the HSAIL finalizer (programs) and
//! graphics interop (there is no graphics driver whose buffers could be mapped:
//! `hsa_amd_interop_*` fail with an explicit message).
//!
//! Each validates what it can and returns the status the headers name for the situation (a
//! program handle cannot be valid, ...), with a trace line under `SOFTHSA_TRACE=api` saying
//! which feature is missing. Before `hsa_init` they return HSA_STATUS_ERROR_NOT_INITIALIZED
//! like every export.

use crate::with_runtime;
use softhsa_abi::*;
use softhsa_runtime::{Error, Result};
use std::ffi::{c_char, c_int, c_void};

fn unsupported(status: hsa_status_t, what: &str) -> Result<()> {
    Err(Error::with_message(
        status,
        format!("{what} not supported by softhsa"),
    ))
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
