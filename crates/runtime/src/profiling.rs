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
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

static ASYNC_COPY_PROFILING: AtomicBool = AtomicBool::new(false);

/// The totals, in shards on cache lines of their own: dispatches ending on many threads at once
/// (one per queue) would otherwise contend on one line. A thread always adds to the same shard.
#[repr(align(64))]
struct Shard {
    dispatches: AtomicU64,
    waves: AtomicU64,
    wave_instructions: AtomicU64,
    busy_ns: AtomicU64,
}

const SHARDS: usize = 16;
static TOTALS: [Shard; SHARDS] = [const {
    Shard {
        dispatches: AtomicU64::new(0),
        waves: AtomicU64::new(0),
        wave_instructions: AtomicU64::new(0),
        busy_ns: AtomicU64::new(0),
    }
}; SHARDS];

/// This thread's shard.
fn shard() -> &'static Shard {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    thread_local! {
        static MINE: usize = NEXT.fetch_add(1, Ordering::Relaxed) as usize % SHARDS;
    }
    &TOTALS[MINE.with(|m| *m)]
}

/// Work done by the software GPU in this process, over every completed kernel dispatch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DispatchTotals {
    pub dispatches: u64,
    pub waves: u64,
    /// Wave instructions executed (one per wave per instruction).
    pub wave_instructions: u64,
    /// Sum of the dispatches' elapsed times.
    pub busy_ns: u64,
}

/// Adds one completed dispatch to the process totals (called by the packet processor).
pub fn record_dispatch(stats: &softhsa_gpu::DispatchStats) {
    let s = shard();
    s.dispatches.fetch_add(1, Ordering::Relaxed);
    s.waves.fetch_add(stats.waves, Ordering::Relaxed);
    s.wave_instructions
        .fetch_add(stats.instructions, Ordering::Relaxed);
    s.busy_ns.fetch_add(stats.elapsed_ns, Ordering::Relaxed);
}

/// The process totals so far; subtract two readings to measure a span of work.
pub fn dispatch_totals() -> DispatchTotals {
    let sum = |f: fn(&Shard) -> &AtomicU64| {
        TOTALS
            .iter()
            .map(|s| f(s).load(Ordering::Relaxed))
            .sum::<u64>()
    };
    DispatchTotals {
        dispatches: sum(|s| &s.dispatches),
        waves: sum(|s| &s.waves),
        wave_instructions: sum(|s| &s.wave_instructions),
        busy_ns: sum(|s| &s.busy_ns),
    }
}

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
