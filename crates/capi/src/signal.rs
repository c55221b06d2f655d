//! Signal exports: `hsa_signal_*`, `hsa_signal_group_*`, `hsa_amd_signal_*`. Functions that
//! return a value instead of a status go through [`value_guard`]: before `hsa_init`, on an
//! invalid handle or on a panic they return 0 (or do nothing) and record the failure in the API
//! trace.

use crate::{with_runtime, write_out};
use softhsa_abi::*;
use softhsa_runtime::signal::{Condition, MemoryOrder, Signal, WaitHint};
use softhsa_runtime::{Error, Result, Runtime};
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs the body of an export that returns a value: failures give `T::default()`.
pub(crate) fn value_guard<T: Default>(
    name: &'static str,
    f: impl FnOnce(&Runtime) -> Result<T>,
) -> T {
    let r = catch_unwind(AssertUnwindSafe(|| {
        softhsa_runtime::with_current(|rt| {
            f(rt.ok_or(Error::new(HSA_STATUS_ERROR_NOT_INITIALIZED))?)
        })
    }));
    match r {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => {
            softhsa_runtime::system::trace_api_error(name, &e);
            T::default()
        }
        Err(_) => T::default(),
    }
}

pub(crate) fn condition(c: hsa_signal_condition_t) -> Result<Condition> {
    Condition::from_raw(c).ok_or(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT))
}

pub(crate) fn hint(h: hsa_wait_state_t) -> WaitHint {
    if h == HSA_WAIT_STATE_ACTIVE {
        WaitHint::Active
    } else {
        WaitHint::Blocked
    }
}

fn sig(s: hsa_signal_t) -> Signal {
    Signal(s.handle)
}

/// `consumers` must be readable when `num_consumers` is non-zero.
fn check_consumers(num: u32, consumers: *const hsa_agent_t) -> Result<()> {
    if num != 0 && consumers.is_null() {
        return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
    }
    Ok(())
}

/// # Safety
/// `consumers` names `num_consumers` agents or is NULL; `signal` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hsa_signal_create(
    initial_value: hsa_signal_value_t,
    num_consumers: u32,
    consumers: *const hsa_agent_t,
    signal: *mut hsa_signal_t,
) -> hsa_status_t {
    with_runtime("hsa_signal_create", |rt| {
        check_consumers(num_consumers, consumers)?;
        if signal.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        let s = rt.signals.create(initial_value)?;
        // SAFETY: checked non-null; the caller provides a writable hsa_signal_t.
        unsafe { write_out(signal, hsa_signal_t { handle: s.0 }) }
    })
}

/// # Safety
/// As [`hsa_signal_create`].
#[no_mangle]
pub unsafe extern "C" fn hsa_amd_signal_create(
    initial_value: hsa_signal_value_t,
    num_consumers: u32,
    consumers: *const hsa_agent_t,
    attributes: u64,
    signal: *mut hsa_signal_t,
) -> hsa_status_t {
    with_runtime("hsa_amd_signal_create", |rt| {
        check_consumers(num_consumers, consumers)?;
        if signal.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        let s = rt
            .signals
            .create_with_attributes(initial_value, attributes, &rt.memory)?;
        // SAFETY: checked non-null; the caller provides a writable hsa_signal_t.
        unsafe { write_out(signal, hsa_signal_t { handle: s.0 }) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_signal_destroy(signal: hsa_signal_t) -> hsa_status_t {
    with_runtime("hsa_signal_destroy", |rt| {
        // A queue's own signals are the runtime's: a stale handle may name their slot (the
        // capi fuzz target destroyed a doorbell so: fuzz/corpus/capi/regress-destroy-doorbell).
        if rt.queues.owns_signal(sig(signal)) {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_INVALID_SIGNAL,
                "the signal belongs to a queue (destroyed with it)",
            ));
        }
        rt.signals.destroy(sig(signal))
    })
}

macro_rules! loads {
    ($($name:ident => $ord:ident),* $(,)?) => {$(
        #[no_mangle]
        pub extern "C" fn $name(signal: hsa_signal_t) -> hsa_signal_value_t {
            value_guard(stringify!($name), |rt| {
                Ok(rt.signals.get(sig(signal))?.load(MemoryOrder::$ord))
            })
        }
    )*};
}
loads!(
    hsa_signal_load_relaxed => Relaxed,
    hsa_signal_load_acquire => Acquire,
    hsa_signal_load_scacquire => Acquire,
);

/// Exports `fn(signal, value)` with no result: stores and the arithmetic/bitwise updates.
macro_rules! updates {
    ($method:ident: $($name:ident => $ord:ident),* $(,)?) => {$(
        #[no_mangle]
        pub extern "C" fn $name(signal: hsa_signal_t, value: hsa_signal_value_t) {
            value_guard(stringify!($name), |rt| {
                let _ = rt.signals.get(sig(signal))?.$method(value, MemoryOrder::$ord);
                Ok(())
            })
        }
    )*};
}
updates!(store: hsa_signal_store_relaxed => Relaxed, hsa_signal_store_release => Release,
    hsa_signal_store_screlease => Release);
updates!(silent_store: hsa_signal_silent_store_relaxed => Relaxed,
    hsa_signal_silent_store_screlease => Release);

/// Exports the seven memory orders of one read-modify-write operation.
macro_rules! rmw_orders {
    ($mac:ident, $method:ident, $relaxed:ident, $acquire:ident, $scacquire:ident, $release:ident,
     $screlease:ident, $acq_rel:ident, $scacq_screl:ident) => {
        $mac!($method: $relaxed => Relaxed, $acquire => Acquire, $scacquire => Acquire,
            $release => Release, $screlease => Release, $acq_rel => AcqRel,
            $scacq_screl => AcqRel);
    };
}
#[rustfmt::skip]
rmw_orders!(updates, add,
    hsa_signal_add_relaxed, hsa_signal_add_acquire, hsa_signal_add_scacquire,
    hsa_signal_add_release, hsa_signal_add_screlease,
    hsa_signal_add_acq_rel, hsa_signal_add_scacq_screl);
#[rustfmt::skip]
rmw_orders!(updates, subtract,
    hsa_signal_subtract_relaxed, hsa_signal_subtract_acquire, hsa_signal_subtract_scacquire,
    hsa_signal_subtract_release, hsa_signal_subtract_screlease,
    hsa_signal_subtract_acq_rel, hsa_signal_subtract_scacq_screl);
#[rustfmt::skip]
rmw_orders!(updates, and,
    hsa_signal_and_relaxed, hsa_signal_and_acquire, hsa_signal_and_scacquire,
    hsa_signal_and_release, hsa_signal_and_screlease,
    hsa_signal_and_acq_rel, hsa_signal_and_scacq_screl);
#[rustfmt::skip]
rmw_orders!(updates, or,
    hsa_signal_or_relaxed, hsa_signal_or_acquire, hsa_signal_or_scacquire,
    hsa_signal_or_release, hsa_signal_or_screlease,
    hsa_signal_or_acq_rel, hsa_signal_or_scacq_screl);
#[rustfmt::skip]
rmw_orders!(updates, xor,
    hsa_signal_xor_relaxed, hsa_signal_xor_acquire, hsa_signal_xor_scacquire,
    hsa_signal_xor_release, hsa_signal_xor_screlease,
    hsa_signal_xor_acq_rel, hsa_signal_xor_scacq_screl);

macro_rules! exchanges {
    ($method:ident: $($name:ident => $ord:ident),* $(,)?) => {$(
        #[no_mangle]
        pub extern "C" fn $name(signal: hsa_signal_t, value: hsa_signal_value_t)
            -> hsa_signal_value_t {
            value_guard(stringify!($name), |rt| {
                Ok(rt.signals.get(sig(signal))?.exchange(value, MemoryOrder::$ord))
            })
        }
    )*};
}
#[rustfmt::skip]
rmw_orders!(exchanges, exchange,
    hsa_signal_exchange_relaxed, hsa_signal_exchange_acquire, hsa_signal_exchange_scacquire,
    hsa_signal_exchange_release, hsa_signal_exchange_screlease,
    hsa_signal_exchange_acq_rel, hsa_signal_exchange_scacq_screl);

macro_rules! cases {
    ($method:ident: $($name:ident => $ord:ident),* $(,)?) => {$(
        #[no_mangle]
        pub extern "C" fn $name(signal: hsa_signal_t, expected: hsa_signal_value_t,
            value: hsa_signal_value_t) -> hsa_signal_value_t {
            value_guard(stringify!($name), |rt| {
                Ok(rt.signals.get(sig(signal))?.cas(expected, value, MemoryOrder::$ord))
            })
        }
    )*};
}
#[rustfmt::skip]
rmw_orders!(cases, cas,
    hsa_signal_cas_relaxed, hsa_signal_cas_acquire, hsa_signal_cas_scacquire,
    hsa_signal_cas_release, hsa_signal_cas_screlease,
    hsa_signal_cas_acq_rel, hsa_signal_cas_scacq_screl);

macro_rules! waits {
    ($($name:ident => $ord:ident),* $(,)?) => {$(
        #[no_mangle]
        pub extern "C" fn $name(signal: hsa_signal_t, condition: hsa_signal_condition_t,
            compare_value: hsa_signal_value_t, timeout_hint: u64,
            wait_state_hint: hsa_wait_state_t) -> hsa_signal_value_t {
            value_guard(stringify!($name), |rt| {
                let c = self::condition(condition)?;
                Ok(rt.signals.get(sig(signal))?.wait(c, compare_value, timeout_hint,
                    hint(wait_state_hint), MemoryOrder::$ord))
            })
        }
    )*};
}
waits!(hsa_signal_wait_relaxed => Relaxed, hsa_signal_wait_acquire => Acquire,
    hsa_signal_wait_scacquire => Acquire);

/// # Safety
/// The arrays hold `signal_count` elements; `satisfying_value` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hsa_amd_signal_wait_any(
    signal_count: u32,
    signals: *const hsa_signal_t,
    conds: *const hsa_signal_condition_t,
    values: *const hsa_signal_value_t,
    timeout_hint: u64,
    wait_hint: hsa_wait_state_t,
    satisfying_value: *mut hsa_signal_value_t,
) -> u32 {
    let r = value_guard("hsa_amd_signal_wait_any", |rt| {
        if signal_count == 0 || signals.is_null() || conds.is_null() || values.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        let n = signal_count as usize;
        // SAFETY: non-null, and the caller promises `signal_count` elements each.
        let (s, c, v) = unsafe {
            (
                std::slice::from_raw_parts(signals, n),
                std::slice::from_raw_parts(conds, n),
                std::slice::from_raw_parts(values, n),
            )
        };
        let refs = s
            .iter()
            .map(|x| rt.signals.get(sig(*x)))
            .collect::<Result<Vec<_>>>()?;
        let mut list = Vec::with_capacity(n);
        for i in 0..n {
            list.push((refs[i].atomic(), condition(c[i])?, v[i]));
        }
        let (idx, value) = softhsa_runtime::signal::wait_any(
            &list,
            timeout_hint,
            hint(wait_hint),
            MemoryOrder::Acquire,
        );
        Ok(Some((idx.map_or(u32::MAX, |i| i as u32), value)))
    });
    match r {
        Some((idx, value)) => {
            if !satisfying_value.is_null() && idx != u32::MAX {
                // SAFETY: non-null; the caller provides a writable value.
                unsafe { satisfying_value.write_unaligned(value) };
            }
            idx
        }
        None => u32::MAX,
    }
}

/// # Safety
/// `signals` holds `num_signals` handles; `consumers` `num_consumers` agents.
#[no_mangle]
pub unsafe extern "C" fn hsa_signal_group_create(
    num_signals: u32,
    signals: *const hsa_signal_t,
    num_consumers: u32,
    consumers: *const hsa_agent_t,
    signal_group: *mut hsa_signal_group_t,
) -> hsa_status_t {
    with_runtime("hsa_signal_group_create", |rt| {
        if num_signals == 0 || signals.is_null() || num_consumers == 0 || consumers.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        if signal_group.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        // SAFETY: non-null, `num_signals` elements by the caller's contract.
        let list = unsafe { std::slice::from_raw_parts(signals, num_signals as usize) };
        let list: Vec<Signal> = list.iter().map(|s| sig(*s)).collect();
        let g = rt.signals.group_create(&list)?;
        // SAFETY: checked non-null; writable by the caller's contract.
        unsafe { write_out(signal_group, hsa_signal_group_t { handle: g }) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_signal_group_destroy(signal_group: hsa_signal_group_t) -> hsa_status_t {
    with_runtime("hsa_signal_group_destroy", |rt| {
        rt.signals.group_destroy(signal_group.handle)
    })
}

/// Exports `hsa_signal_group_wait_any_*` in one memory order.
macro_rules! group_waits {
    ($($name:ident => $ord:ident),* $(,)?) => {$(
        /// # Safety
        /// `conditions`/`compare_values` hold one element per signal of the group; `signal` and
        /// `value` are writable.
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            signal_group: hsa_signal_group_t,
            conditions: *const hsa_signal_condition_t,
            compare_values: *const hsa_signal_value_t,
            wait_state_hint: hsa_wait_state_t,
            signal: *mut hsa_signal_t,
            value: *mut hsa_signal_value_t,
        ) -> hsa_status_t {
            with_runtime(stringify!($name), |rt| {
                let g = signal_group.handle;
                let n = rt.signals.group_signals(g)?.len();
                if conditions.is_null() || compare_values.is_null() || signal.is_null()
                    || value.is_null() {
                    return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
                }
                // SAFETY: non-null; one element per group signal by the caller's contract.
                let (c, v) = unsafe {
                    (std::slice::from_raw_parts(conditions, n),
                        std::slice::from_raw_parts(compare_values, n))
                };
                let c = c.iter().map(|x| condition(*x)).collect::<Result<Vec<_>>>()?;
                let h = hint(wait_state_hint);
                let (s, seen) = rt.signals.group_wait_any(g, &c, v, h, MemoryOrder::$ord)?;
                // SAFETY: both checked non-null and writable by contract.
                unsafe {
                    write_out(signal, hsa_signal_t { handle: s.0 })?;
                    write_out(value, seen)
                }
            })
        }
    )*};
}
group_waits!(
    hsa_signal_group_wait_any_relaxed => Relaxed,
    hsa_signal_group_wait_any_scacquire => Acquire,
);

/// A C pointer handed back to C callbacks on another thread; the program owns what it points to.
#[derive(Clone, Copy)]
pub(crate) struct UserData(pub *mut c_void);
// SAFETY: the runtime never dereferences it; it only passes it back to the program's callback,
// which HSA requires to be callable from runtime threads.
unsafe impl Send for UserData {}
// SAFETY: as above.
unsafe impl Sync for UserData {}

#[no_mangle]
pub extern "C" fn hsa_amd_signal_async_handler(
    signal: hsa_signal_t,
    cond: hsa_signal_condition_t,
    value: hsa_signal_value_t,
    handler: hsa_amd_signal_handler,
    arg: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_amd_signal_async_handler", |rt| {
        let handler = handler.ok_or(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT))?;
        let c = condition(cond)?;
        let arg = UserData(arg);
        rt.signals.async_handler(
            sig(signal),
            c,
            value,
            Box::new(move |v| {
                let a = arg;
                // SAFETY: the program registered this handler for exactly this call.
                unsafe { handler(v, a.0) }
            }),
        )
    })
}

/// # Safety
/// `value_ptr` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hsa_amd_signal_value_pointer(
    signal: hsa_signal_t,
    value_ptr: *mut *mut hsa_signal_value_t,
) -> hsa_status_t {
    with_runtime("hsa_amd_signal_value_pointer", |rt| {
        let p = rt.signals.get(sig(signal))?.value_ptr();
        // SAFETY: write_out refuses NULL; otherwise writable by contract.
        unsafe { write_out(value_ptr, p) }
    })
}
