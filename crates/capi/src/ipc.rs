//! `hsa_amd_ipc_memory_*` and `hsa_amd_ipc_signal_*`: sharing memory and signals with other
//! processes of the machine (`softhsa_runtime::ipc`).

use crate::memory::agent_indices;
use crate::{with_runtime, write_out};
use softhsa_abi::*;
use softhsa_runtime::{ipc, Error, Result};
use std::ffi::c_void;

/// Reads the 32-byte handle the program passes.
fn read_handle(handle: *const c_void) -> Result<[u32; 8]> {
    if handle.is_null() {
        return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
    }
    // SAFETY: the program passes a pointer to an hsa_amd_ipc_memory_t (32 bytes, checked
    // non-NULL); read unaligned, as C may pass any address.
    Ok(unsafe { (handle as *const [u32; 8]).read_unaligned() })
}

#[no_mangle]
pub extern "C" fn hsa_amd_ipc_memory_create(
    ptr: *mut c_void,
    len: usize,
    handle: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_amd_ipc_memory_create", |rt| {
        if handle.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        let words = ipc::memory::create(&rt.memory, ptr as u64, len as u64)?;
        // SAFETY: checked non-NULL; the program passes an hsa_amd_ipc_memory_t to fill.
        unsafe { write_out(handle as *mut [u32; 8], words) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_ipc_memory_attach(
    handle: *const c_void,
    len: usize,
    num_agents: u32,
    agents: *const hsa_agent_t,
    mapped_ptr: *mut *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_amd_ipc_memory_attach", |rt| {
        if mapped_ptr.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        let words = read_handle(handle)?;
        let list = agent_indices(rt, agents, num_agents as usize)?;
        let p = ipc::memory::attach(&rt.memory, words, len as u64, &list)?;
        // SAFETY: checked non-NULL; the caller owns the output pointer.
        unsafe { write_out(mapped_ptr, p as *mut c_void) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_ipc_memory_detach(mapped_ptr: *mut c_void) -> hsa_status_t {
    with_runtime("hsa_amd_ipc_memory_detach", |rt| {
        ipc::memory::detach(&rt.memory, mapped_ptr as u64)
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_ipc_signal_create(
    signal: hsa_signal_t,
    handle: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_amd_ipc_signal_create", |rt| {
        if handle.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        rt.signals
            .get(softhsa_runtime::signal::Signal(signal.handle))?;
        let words = rt.signals.shared.export(signal.handle)?;
        // SAFETY: checked non-NULL; the program passes an hsa_amd_ipc_signal_t to fill.
        unsafe { write_out(handle as *mut [u32; 8], words) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_ipc_signal_attach(
    handle: *const c_void,
    signal: *mut hsa_signal_t,
) -> hsa_status_t {
    with_runtime("hsa_amd_ipc_signal_attach", |rt| {
        if signal.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        let words = read_handle(handle)?;
        let addr = rt.signals.shared.attach(&rt.memory, words)?;
        // SAFETY: checked non-NULL; the caller owns the output.
        unsafe { write_out(signal, hsa_signal_t { handle: addr }) }
    })
}
