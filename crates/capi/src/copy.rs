//! Async copy exports: `hsa_amd_memory_async_copy` and `hsa_amd_memory_async_copy_rect`.

use crate::with_runtime;
use softhsa_abi::*;
use softhsa_runtime::copy::{rect_spans, CopyJob, Span};
use softhsa_runtime::signal::Signal;
use softhsa_runtime::{Error, Result};

/// # Safety
/// `deps` holds `num` handles (or is NULL when `num` is 0).
unsafe fn dep_list(num: u32, deps: *const hsa_signal_t) -> Result<Vec<Signal>> {
    if num == 0 {
        return Ok(Vec::new());
    }
    if deps.is_null() {
        return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
    }
    // SAFETY: non-null, `num` elements by the caller's contract.
    let d = unsafe { std::slice::from_raw_parts(deps, num as usize) };
    Ok(d.iter().map(|s| Signal(s.handle)).collect())
}

/// # Safety
/// `dep_signals` holds `num_dep_signals` handles.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn hsa_amd_memory_async_copy(
    dst: *mut std::ffi::c_void,
    dst_agent: hsa_agent_t,
    src: *const std::ffi::c_void,
    src_agent: hsa_agent_t,
    size: usize,
    num_dep_signals: u32,
    dep_signals: *const hsa_signal_t,
    completion_signal: hsa_signal_t,
) -> hsa_status_t {
    with_runtime("hsa_amd_memory_async_copy", |rt| {
        rt.topology.agent(dst_agent.handle)?;
        rt.topology.agent(src_agent.handle)?;
        if dst.is_null() || src.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        // SAFETY: forwarded caller contract.
        let deps = unsafe { dep_list(num_dep_signals, dep_signals)? };
        let spans = vec![Span {
            dst: dst as u64,
            src: src as u64,
            len: size as u64,
        }];
        rt.copies.submit(
            rt,
            CopyJob {
                spans,
                deps,
                completion: Signal(completion_signal.handle),
            },
        )
    })
}

/// # Safety
/// The pointers are NULL or valid for reads; `dep_signals` holds `num_dep_signals` handles.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn hsa_amd_memory_async_copy_rect(
    dst: *const hsa_pitched_ptr_t,
    dst_offset: *const hsa_dim3_t,
    src: *const hsa_pitched_ptr_t,
    src_offset: *const hsa_dim3_t,
    range: *const hsa_dim3_t,
    copy_agent: hsa_agent_t,
    dir: hsa_amd_copy_direction_t,
    num_dep_signals: u32,
    dep_signals: *const hsa_signal_t,
    completion_signal: hsa_signal_t,
) -> hsa_status_t {
    with_runtime("hsa_amd_memory_async_copy_rect", |rt| {
        rt.topology.agent(copy_agent.handle)?;
        if [
            dst as usize,
            src as usize,
            dst_offset as usize,
            src_offset as usize,
            range as usize,
        ]
        .contains(&0)
            || dir > hsaDeviceToDevice
        {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        // SAFETY: all non-null and readable by contract.
        let (d, s, doff, soff, r) = unsafe { (*dst, *src, *dst_offset, *src_offset, *range) };
        if d.base.is_null() || s.base.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        // HSA: offsets and range x are in bytes, pitch/slice in bytes.
        let dim = |v: hsa_dim3_t| (v.x as u64, v.y as u64, v.z as u64);
        let spans = rect_spans(
            (d.base as u64, d.pitch as u64, d.slice as u64),
            dim(doff),
            (s.base as u64, s.pitch as u64, s.slice as u64),
            dim(soff),
            dim(r),
        );
        // SAFETY: forwarded caller contract.
        let deps = unsafe { dep_list(num_dep_signals, dep_signals)? };
        rt.copies.submit(
            rt,
            CopyJob {
                spans,
                deps,
                completion: Signal(completion_signal.handle),
            },
        )
    })
}
