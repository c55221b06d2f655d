//! Profiling timestamps (`hsa_amd_profiling_*`).
//!
//! Dispatch profiling is a per-queue switch kept where ROCm keeps it, in the `amd_queue_t`'s
//! `queue_properties` (ENABLE_PROFILING). Async-copy profiling is one process-wide switch. When
//! on, the packet processor and the copy worker store start/end times (system timestamp ticks,
//! 1 GHz) into the completion signal's `amd_signal_t` `start_ts`/`end_ts` before decrementing
//! it, and the `get_*_time` functions read them back. Device ticks are system ticks, so the
//! conversion to the system domain is the identity.

use crate::signal::{Signal, Signals};
use crate::{Error, Result};
use softhsa_abi::HSA_STATUS_ERROR_INVALID_ARGUMENT;
use std::sync::atomic::{AtomicBool, Ordering};

static ASYNC_COPY_PROFILING: AtomicBool = AtomicBool::new(false);

/// The current system timestamp, in ticks.
pub fn now() -> u64 {
    crate::system::timestamp()
}

/// `hsa_amd_profiling_async_copy_enable`.
pub fn set_async_copy_enabled(enable: bool) {
    ASYNC_COPY_PROFILING.store(enable, Ordering::Relaxed);
}

pub fn async_copy_enabled() -> bool {
    ASYNC_COPY_PROFILING.load(Ordering::Relaxed)
}

/// `hsa_amd_profiling_get_dispatch_time` / `get_async_copy_time`: `(start, end)` recorded in
/// the signal by the last profiled packet or copy that completed it. A signal nobody recorded
/// into reads `(0, 0)`, as on ROCm.
pub fn recorded_time(signals: &Signals, signal: Signal) -> Result<(u64, u64)> {
    let s = signals.get(signal)?;
    let (start, end) = s.timestamps();
    if end < start {
        return Err(Error::with_message(
            HSA_STATUS_ERROR_INVALID_ARGUMENT,
            "torn timestamps",
        ));
    }
    Ok((start, end))
}

/// `hsa_amd_profiling_convert_tick_to_system_domain`: softhsa's agents count system ticks.
pub fn tick_to_system_domain(tick: u64) -> u64 {
    tick
}
