//! Agents, ISAs, wavefronts and caches: `hsa_iterate_agents`, `hsa_agent_*`, `hsa_isa_*`,
//! `hsa_wavefront_get_info`, `hsa_cache_get_info`.

use crate::{with_runtime, write_out};
use softhsa_abi::*;
use softhsa_runtime::topology::{isa, InfoValue};
use softhsa_runtime::{Error, Result};
use std::ffi::{c_char, c_void, CStr};

/// Copies an attribute value to the caller's `void *value`.
///
/// # Safety
/// `value` must be NULL or valid for writes of the attribute's documented C type, whose size is
/// the size of `v`'s bytes.
pub(crate) unsafe fn write_info(value: *mut c_void, v: InfoValue) -> Result<()> {
    if value.is_null() {
        return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
    }
    let bytes = v.to_bytes();
    // SAFETY: non-null; the caller provides room for the attribute's type (the HSA contract).
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), value.cast::<u8>(), bytes.len()) };
    Ok(())
}

/// Runs an iteration callback over `items`: stops at the first status other than SUCCESS and
/// returns it (INFO_BREAK included), as the HSA iteration functions do.
pub(crate) fn iterate<T: Copy>(
    items: impl IntoIterator<Item = T>,
    mut f: impl FnMut(T) -> hsa_status_t,
) -> Result<()> {
    for item in items {
        let status = f(item);
        if status != HSA_STATUS_SUCCESS {
            return Err(Error::new(status));
        }
    }
    Ok(())
}

#[no_mangle]
pub extern "C" fn hsa_iterate_agents(
    callback: Option<unsafe extern "C" fn(hsa_agent_t, *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_iterate_agents", |rt| {
        let cb = callback.ok_or(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT))?;
        let handles: Vec<u64> = rt.topology.agents().iter().map(|a| a.handle).collect();
        // SAFETY: the program's callback, called as hsa.h specifies.
        iterate(handles, |h| unsafe { cb(hsa_agent_t { handle: h }, data) })
    })
}

#[no_mangle]
pub extern "C" fn hsa_agent_get_info(
    agent: hsa_agent_t,
    attribute: hsa_agent_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_agent_get_info", |rt| {
        let v = rt.topology.agent(agent.handle)?.info(attribute)?;
        // SAFETY: `value` points to storage of the attribute's type (caller's contract).
        unsafe { write_info(value, v) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_agent_iterate_isas(
    agent: hsa_agent_t,
    callback: Option<unsafe extern "C" fn(hsa_isa_t, *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_agent_iterate_isas", |rt| {
        let cb = callback.ok_or(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT))?;
        let a = rt.topology.agent(agent.handle)?;
        // The CPU agent has no ISA (ROCm reports it the same way; rocminfo accepts it).
        let g = a
            .gpu
            .as_ref()
            .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_AGENT))?;
        // SAFETY: the program's callback, called as hsa.h specifies.
        iterate([g.isa], |i| unsafe {
            cb(
                hsa_isa_t {
                    handle: isa::isa_handle(i),
                },
                data,
            )
        })
    })
}

#[no_mangle]
pub extern "C" fn hsa_agent_iterate_caches(
    agent: hsa_agent_t,
    callback: Option<unsafe extern "C" fn(hsa_cache_t, *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_agent_iterate_caches", |rt| {
        let cb = callback.ok_or(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT))?;
        let a = rt.topology.agent(agent.handle)?;
        let handles: Vec<u64> = (0..a.caches.len())
            .map(|c| rt.topology.cache_handle(a.index, c))
            .collect();
        // SAFETY: the program's callback, called as hsa.h specifies.
        iterate(handles, |h| unsafe { cb(hsa_cache_t { handle: h }, data) })
    })
}

#[no_mangle]
pub extern "C" fn hsa_cache_get_info(
    cache: hsa_cache_t,
    attribute: hsa_cache_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_cache_get_info", |rt| {
        let v = rt.topology.cache_info(cache.handle, attribute)?;
        // SAFETY: `value` points to storage of the attribute's type (caller's contract).
        unsafe { write_info(value, v) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_agent_extension_supported(
    extension: u16,
    agent: hsa_agent_t,
    version_major: u16,
    version_minor: u16,
    result: *mut bool,
) -> hsa_status_t {
    with_runtime("hsa_agent_extension_supported", |rt| {
        rt.topology.agent(agent.handle)?;
        let ok = crate::system::extension_version(extension)?
            .is_some_and(|(major, minor)| major == version_major && version_minor <= minor);
        // SAFETY: `result` is NULL or a bool the caller owns.
        unsafe { write_out(result, ok) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_agent_major_extension_supported(
    extension: u16,
    agent: hsa_agent_t,
    version_major: u16,
    version_minor: *mut u16,
    result: *mut bool,
) -> hsa_status_t {
    with_runtime("hsa_agent_major_extension_supported", |rt| {
        rt.topology.agent(agent.handle)?;
        crate::system::major_extension_supported(extension, version_major, version_minor, result)
    })
}

#[no_mangle]
pub extern "C" fn hsa_agent_get_exception_policies(
    agent: hsa_agent_t,
    profile: hsa_profile_t,
    mask: *mut u16,
) -> hsa_status_t {
    with_runtime("hsa_agent_get_exception_policies", |rt| {
        rt.topology.agent(agent.handle)?;
        exception_policies(profile, mask)
    })
}

/// GCN reports floating-point exceptions in TRAPSTS (DETECT); trapping on them is not enabled.
fn exception_policies(profile: hsa_profile_t, mask: *mut u16) -> Result<()> {
    if profile != HSA_PROFILE_BASE && profile != HSA_PROFILE_FULL {
        return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
    }
    // SAFETY: `mask` is NULL or a u16 the caller owns.
    unsafe { write_out(mask, HSA_EXCEPTION_POLICY_DETECT as u16) }
}

#[no_mangle]
pub extern "C" fn hsa_isa_from_name(name: *const c_char, out: *mut hsa_isa_t) -> hsa_status_t {
    with_runtime("hsa_isa_from_name", |_| {
        if name.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        // SAFETY: a NUL-terminated string from the caller.
        let name = unsafe { CStr::from_ptr(name) }
            .to_str()
            .map_err(|_| Error::new(HSA_STATUS_ERROR_INVALID_ISA_NAME))?;
        let i = isa::from_name(name)?;
        // SAFETY: `out` is NULL or an hsa_isa_t the caller owns.
        unsafe {
            write_out(
                out,
                hsa_isa_t {
                    handle: isa::isa_handle(i),
                },
            )
        }
    })
}

#[no_mangle]
pub extern "C" fn hsa_isa_get_info(
    isa_: hsa_isa_t,
    attribute: hsa_isa_info_t,
    index: u32,
    value: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_isa_get_info", |_| {
        let v = isa::info(isa::isa_index(isa_.handle)?, attribute, index)?;
        // SAFETY: `value` points to storage of the attribute's type (caller's contract).
        unsafe { write_info(value, v) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_isa_get_info_alt(
    isa_: hsa_isa_t,
    attribute: hsa_isa_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_isa_get_info_alt", |_| {
        let v = isa::info(isa::isa_index(isa_.handle)?, attribute, 0)?;
        // SAFETY: `value` points to storage of the attribute's type (caller's contract).
        unsafe { write_info(value, v) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_isa_compatible(
    code_object_isa: hsa_isa_t,
    agent_isa: hsa_isa_t,
    result: *mut bool,
) -> hsa_status_t {
    with_runtime("hsa_isa_compatible", |_| {
        let ok = isa::compatible(
            isa::isa_index(code_object_isa.handle)?,
            isa::isa_index(agent_isa.handle)?,
        );
        // SAFETY: `result` is NULL or a bool the caller owns.
        unsafe { write_out(result, ok) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_isa_get_exception_policies(
    isa_: hsa_isa_t,
    profile: hsa_profile_t,
    mask: *mut u16,
) -> hsa_status_t {
    with_runtime("hsa_isa_get_exception_policies", |_| {
        isa::isa_index(isa_.handle)?;
        exception_policies(profile, mask)
    })
}

#[no_mangle]
pub extern "C" fn hsa_isa_get_round_method(
    isa_: hsa_isa_t,
    fp_type: hsa_fp_type_t,
    flush_mode: hsa_flush_mode_t,
    round_method: *mut hsa_round_method_t,
) -> hsa_status_t {
    with_runtime("hsa_isa_get_round_method", |_| {
        isa::isa_index(isa_.handle)?;
        let fp_ok = matches!(fp_type, HSA_FP_TYPE_16 | HSA_FP_TYPE_32 | HSA_FP_TYPE_64);
        if !fp_ok || !matches!(flush_mode, HSA_FLUSH_MODE_FTZ | HSA_FLUSH_MODE_NON_FTZ) {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        // GCN rounds once (fused operations are single instructions).
        // SAFETY: `round_method` is NULL or storage the caller owns.
        unsafe { write_out(round_method, HSA_ROUND_METHOD_SINGLE) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_isa_iterate_wavefronts(
    isa_: hsa_isa_t,
    callback: Option<unsafe extern "C" fn(hsa_wavefront_t, *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_isa_iterate_wavefronts", |_| {
        let cb = callback.ok_or(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT))?;
        let i = isa::isa_index(isa_.handle)?;
        // SAFETY: the program's callback, called as hsa.h specifies.
        iterate([isa::wavefront_handle(i)], |h| unsafe {
            cb(hsa_wavefront_t { handle: h }, data)
        })
    })
}

#[no_mangle]
pub extern "C" fn hsa_wavefront_get_info(
    wavefront: hsa_wavefront_t,
    attribute: hsa_wavefront_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_wavefront_get_info", |_| {
        let v = isa::wavefront_info(wavefront.handle, attribute)?;
        // SAFETY: `value` points to storage of the attribute's type (caller's contract).
        unsafe { write_info(value, v) }
    })
}
