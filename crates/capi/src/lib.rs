//! The C ABI: every function ROCm 5.2's `libhsa-runtime64.so.1` exports, as `extern "C"`.
//!
//! Thin by design: check pointers and handles, call `softhsa-runtime`, map errors to statuses.
//! Every export goes through `call` or `with_runtime`, which catch panics so that none crosses
//! the C boundary, and which return HSA_STATUS_ERROR_NOT_INITIALIZED before `hsa_init`.
//!
//! Files by domain: `system` (init, system info, extensions), `agent` (agents, ISAs, caches,
//! wavefronts), `memory` (regions, pools, allocation, locking, pointer info), `signal`, `queue`
//! (queues, AMD queue controls, profiling), `copy` (async copies), `executable` (code objects,
//! readers, executables, symbols), `image` (the images extension), `ipc` (memory and signals
//! shared between processes), `svm` (SVM attributes, prefetch), `unsupported` (interop,
//! finalizer).
//! The shared library is linked by `scripts/build-lib.sh` with `hsa.map` (version ROCR_1).

use softhsa_abi::*;
use softhsa_runtime::{Error, Result, Runtime};
use std::panic::{catch_unwind, AssertUnwindSafe};

mod agent;
mod copy;
mod executable;
mod image;
mod ipc;
mod memory;
mod queue;
mod signal;
mod svm;
mod system;
mod unsupported;

/// Runs an export's body: panics become HSA_STATUS_ERROR, errors their status.
pub(crate) fn call(name: &'static str, f: impl FnOnce() -> Result<()>) -> hsa_status_t {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => HSA_STATUS_SUCCESS,
        Ok(Err(e)) => {
            softhsa_runtime::system::trace_api_error(name, &e);
            e.status
        }
        Err(_) => {
            eprintln!("softhsa: internal error (panic) in {name}; returning HSA_STATUS_ERROR");
            HSA_STATUS_ERROR
        }
    }
}

/// Like [`call`], for exports that need the initialized runtime.
pub(crate) fn with_runtime(
    name: &'static str,
    f: impl FnOnce(&Runtime) -> Result<()>,
) -> hsa_status_t {
    call(name, || {
        softhsa_runtime::with_current(|rt| {
            f(rt.ok_or(Error::new(HSA_STATUS_ERROR_NOT_INITIALIZED))?)
        })
    })
}

/// Writes `value` through an output pointer from C, refusing NULL.
///
/// # Safety
/// `out` must be NULL or valid for a write of `T`.
pub(crate) unsafe fn write_out<T>(out: *mut T, value: T) -> Result<()> {
    if out.is_null() {
        return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
    }
    // SAFETY: non-null, and the caller promises it is valid for writes of T.
    unsafe { out.write_unaligned(value) };
    Ok(())
}
