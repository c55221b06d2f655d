//! Queue exports: `hsa_queue_*`, `hsa_soft_queue_create`, AMD queue controls and profiling.

use crate::signal::{value_guard, UserData};
use crate::{with_runtime, write_out};
use softhsa_abi::*;
use softhsa_runtime::queue::{ErrorCallback, Queue, QueueType};
use softhsa_runtime::signal::{MemoryOrder, Signal};
use softhsa_runtime::{profiling, Error, Result, Runtime};
use std::sync::Arc;

fn queue(rt: &Runtime, q: *const hsa_queue_t) -> Result<Arc<Queue>> {
    if q.is_null() {
        return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
    }
    rt.queues.get(q as u64)
}

/// Runs `f` with the queue `q` names, taking no reference (the index operations, called for
/// every packet).
fn with_queue<R>(rt: &Runtime, q: *const hsa_queue_t, f: impl FnOnce(&Queue) -> R) -> Result<R> {
    if q.is_null() {
        return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
    }
    rt.queues.with(q as u64, |q| f(q))
}

/// The C error callback of `hsa_queue_create`.
type QueueCallback =
    Option<unsafe extern "C" fn(hsa_status_t, *mut hsa_queue_t, *mut std::ffi::c_void)>;

/// # Safety
/// `queue` is NULL or writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn hsa_queue_create(
    agent: hsa_agent_t,
    size: u32,
    type_: hsa_queue_type32_t,
    callback: QueueCallback,
    data: *mut std::ffi::c_void,
    private_segment_size: u32,
    group_segment_size: u32,
    queue: *mut *mut hsa_queue_t,
) -> hsa_status_t {
    with_runtime("hsa_queue_create", |rt| {
        let qtype = match type_ {
            HSA_QUEUE_TYPE_MULTI => QueueType::Multi,
            HSA_QUEUE_TYPE_SINGLE => QueueType::Single,
            HSA_QUEUE_TYPE_COOPERATIVE => QueueType::Cooperative,
            _ => return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT)),
        };
        if queue.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        let data = UserData(data);
        let cb: Option<ErrorCallback> = callback.map(|f| -> ErrorCallback {
            Box::new(move |status, q| {
                let d = data;
                // SAFETY: the program's callback, called as hsa.h specifies.
                unsafe { f(status, q as *mut hsa_queue_t, d.0) }
            })
        });
        let q = rt.queues.create(
            rt,
            agent.handle,
            size,
            qtype,
            cb,
            private_segment_size,
            group_segment_size,
        )?;
        // SAFETY: checked non-null; writable by contract.
        unsafe { write_out(queue, q.addr() as *mut hsa_queue_t) }
    })
}

/// # Safety
/// `queue` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hsa_soft_queue_create(
    region: hsa_region_t,
    size: u32,
    type_: hsa_queue_type32_t,
    features: u32,
    doorbell_signal: hsa_signal_t,
    queue: *mut *mut hsa_queue_t,
) -> hsa_status_t {
    with_runtime("hsa_soft_queue_create", |rt| {
        rt.memory.region(region.handle)?;
        if queue.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        let q = rt
            .queues
            .create_soft(rt, size, type_, features, Signal(doorbell_signal.handle))?;
        // SAFETY: checked non-null; writable by contract.
        unsafe { write_out(queue, q.addr() as *mut hsa_queue_t) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_queue_destroy(queue: *mut hsa_queue_t) -> hsa_status_t {
    with_runtime("hsa_queue_destroy", |rt| {
        if queue.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_QUEUE));
        }
        rt.queues.destroy(rt, queue as u64)
    })
}

#[no_mangle]
pub extern "C" fn hsa_queue_inactivate(queue: *mut hsa_queue_t) -> hsa_status_t {
    with_runtime("hsa_queue_inactivate", |rt| {
        if queue.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_QUEUE));
        }
        rt.queues.inactivate(queue as u64)
    })
}

macro_rules! index_loads {
    ($method:ident: $($name:ident => $ord:ident),* $(,)?) => {$(
        #[no_mangle]
        pub extern "C" fn $name(queue: *const hsa_queue_t) -> u64 {
            value_guard(stringify!($name), |rt| with_queue(rt, queue, |q| q.$method(MemoryOrder::$ord)))
        }
    )*};
}
index_loads!(load_read_index: hsa_queue_load_read_index_relaxed => Relaxed,
    hsa_queue_load_read_index_acquire => Acquire, hsa_queue_load_read_index_scacquire => Acquire);
index_loads!(load_write_index: hsa_queue_load_write_index_relaxed => Relaxed,
    hsa_queue_load_write_index_acquire => Acquire, hsa_queue_load_write_index_scacquire => Acquire);

macro_rules! index_stores {
    ($method:ident: $($name:ident => $ord:ident),* $(,)?) => {$(
        #[no_mangle]
        pub extern "C" fn $name(queue: *const hsa_queue_t, value: u64) {
            value_guard(stringify!($name), |rt| {
                with_queue(rt, queue, |q| q.$method(value, MemoryOrder::$ord))
            })
        }
    )*};
}
index_stores!(store_read_index: hsa_queue_store_read_index_relaxed => Relaxed,
    hsa_queue_store_read_index_release => Release, hsa_queue_store_read_index_screlease => Release);
index_stores!(store_write_index: hsa_queue_store_write_index_relaxed => Relaxed,
    hsa_queue_store_write_index_release => Release,
    hsa_queue_store_write_index_screlease => Release);

macro_rules! index_adds {
    ($($name:ident => $ord:ident),* $(,)?) => {$(
        #[no_mangle]
        pub extern "C" fn $name(queue: *const hsa_queue_t, value: u64) -> u64 {
            value_guard(stringify!($name), |rt| {
                with_queue(rt, queue, |q| q.add_write_index(value, MemoryOrder::$ord))
            })
        }
    )*};
}
index_adds!(hsa_queue_add_write_index_relaxed => Relaxed, hsa_queue_add_write_index_acquire => Acquire,
    hsa_queue_add_write_index_scacquire => Acquire, hsa_queue_add_write_index_release => Release,
    hsa_queue_add_write_index_screlease => Release, hsa_queue_add_write_index_acq_rel => AcqRel,
    hsa_queue_add_write_index_scacq_screl => AcqRel);

macro_rules! index_cases {
    ($($name:ident => $ord:ident),* $(,)?) => {$(
        #[no_mangle]
        pub extern "C" fn $name(queue: *const hsa_queue_t, expected: u64, value: u64) -> u64 {
            value_guard(stringify!($name), |rt| {
                with_queue(rt, queue, |q| q.cas_write_index(expected, value, MemoryOrder::$ord))
            })
        }
    )*};
}
index_cases!(hsa_queue_cas_write_index_relaxed => Relaxed, hsa_queue_cas_write_index_acquire => Acquire,
    hsa_queue_cas_write_index_scacquire => Acquire, hsa_queue_cas_write_index_release => Release,
    hsa_queue_cas_write_index_screlease => Release, hsa_queue_cas_write_index_acq_rel => AcqRel,
    hsa_queue_cas_write_index_scacq_screl => AcqRel);

/// CU masks are whole 32-bit words.
fn mask_words(num_bits: u32) -> Result<usize> {
    if num_bits == 0 || !num_bits.is_multiple_of(32) {
        return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
    }
    Ok((num_bits / 32) as usize)
}

/// # Safety
/// `cu_mask` holds `num_cu_mask_count / 32` words.
#[no_mangle]
pub unsafe extern "C" fn hsa_amd_queue_cu_set_mask(
    queue: *const hsa_queue_t,
    num_cu_mask_count: u32,
    cu_mask: *const u32,
) -> hsa_status_t {
    with_runtime("hsa_amd_queue_cu_set_mask", |rt| {
        let q = self::queue(rt, queue)?;
        let n = mask_words(num_cu_mask_count)?;
        if cu_mask.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        // SAFETY: non-null, `n` words by contract.
        q.set_cu_mask(unsafe { std::slice::from_raw_parts(cu_mask, n) });
        Ok(())
    })
}

/// # Safety
/// `cu_mask` has room for `num_cu_mask_count / 32` words.
#[no_mangle]
pub unsafe extern "C" fn hsa_amd_queue_cu_get_mask(
    queue: *const hsa_queue_t,
    num_cu_mask_count: u32,
    cu_mask: *mut u32,
) -> hsa_status_t {
    with_runtime("hsa_amd_queue_cu_get_mask", |rt| {
        let q = self::queue(rt, queue)?;
        let n = mask_words(num_cu_mask_count)?;
        if cu_mask.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        let cus = rt
            .topology
            .agent(q.agent)?
            .gpu
            .as_ref()
            .map_or(0, |g| g.cu_count);
        let words = q.cu_mask(num_cu_mask_count, cus);
        // SAFETY: non-null, room for `n` words by contract.
        unsafe { std::slice::from_raw_parts_mut(cu_mask, n) }.copy_from_slice(&words[..n]);
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_queue_set_priority(
    queue: *mut hsa_queue_t,
    priority: hsa_amd_queue_priority_t,
) -> hsa_status_t {
    with_runtime("hsa_amd_queue_set_priority", |rt| {
        if priority > HSA_AMD_QUEUE_PRIORITY_HIGH {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        self::queue(rt, queue)?.set_priority(priority as u64);
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_profiling_set_profiler_enabled(
    queue: *mut hsa_queue_t,
    enable: std::ffi::c_int,
) -> hsa_status_t {
    with_runtime("hsa_amd_profiling_set_profiler_enabled", |rt| {
        self::queue(rt, queue)?.set_profiling(enable != 0);
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_profiling_async_copy_enable(enable: bool) -> hsa_status_t {
    with_runtime("hsa_amd_profiling_async_copy_enable", |_| {
        profiling::set_async_copy_enabled(enable);
        Ok(())
    })
}

/// # Safety
/// `time` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hsa_amd_profiling_get_dispatch_time(
    agent: hsa_agent_t,
    signal: hsa_signal_t,
    time: *mut hsa_amd_profiling_dispatch_time_t,
) -> hsa_status_t {
    with_runtime("hsa_amd_profiling_get_dispatch_time", |rt| {
        rt.topology.agent(agent.handle)?;
        let (start, end) = profiling::recorded_time(&rt.signals, Signal(signal.handle))?;
        // SAFETY: write_out refuses NULL; otherwise writable by contract.
        unsafe { write_out(time, hsa_amd_profiling_dispatch_time_t { start, end }) }
    })
}

/// # Safety
/// `time` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hsa_amd_profiling_get_async_copy_time(
    signal: hsa_signal_t,
    time: *mut hsa_amd_profiling_async_copy_time_t,
) -> hsa_status_t {
    with_runtime("hsa_amd_profiling_get_async_copy_time", |rt| {
        let (start, end) = profiling::recorded_time(&rt.signals, Signal(signal.handle))?;
        // SAFETY: write_out refuses NULL; otherwise writable by contract.
        unsafe { write_out(time, hsa_amd_profiling_async_copy_time_t { start, end }) }
    })
}

/// # Safety
/// `system_tick` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hsa_amd_profiling_convert_tick_to_system_domain(
    agent: hsa_agent_t,
    agent_tick: u64,
    system_tick: *mut u64,
) -> hsa_status_t {
    with_runtime("hsa_amd_profiling_convert_tick_to_system_domain", |rt| {
        rt.topology.agent(agent.handle)?;
        // SAFETY: write_out refuses NULL; otherwise writable by contract.
        unsafe { write_out(system_tick, profiling::tick_to_system_domain(agent_tick)) }
    })
}
