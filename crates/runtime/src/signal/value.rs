//! Atomic operations on a validated signal's value, in every HSA memory order.

use super::{notify, pool, pool::Pool, Signal};
use std::sync::atomic::{AtomicI64, Ordering};

/// HSA memory orders. The sequentially consistent variants of the API (`scacquire`,
/// `screlease`, `scacq_screl`) map to the same orders: HSA defines them as the acquire/release
/// of its memory model, which x86-64 host atomics already give.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MemoryOrder {
    Relaxed,
    Acquire,
    Release,
    AcqRel,
}

impl MemoryOrder {
    fn rmw(self) -> Ordering {
        match self {
            MemoryOrder::Relaxed => Ordering::Relaxed,
            MemoryOrder::Acquire => Ordering::Acquire,
            MemoryOrder::Release => Ordering::Release,
            MemoryOrder::AcqRel => Ordering::AcqRel,
        }
    }
    fn load(self) -> Ordering {
        match self {
            MemoryOrder::Relaxed | MemoryOrder::Release => Ordering::Relaxed,
            _ => Ordering::Acquire,
        }
    }
    fn store(self) -> Ordering {
        match self {
            MemoryOrder::Relaxed | MemoryOrder::Acquire => Ordering::Relaxed,
            _ => Ordering::Release,
        }
    }
}

/// A live signal, checked by [`super::Signals::get`]. Operations that change the value wake the
/// waiters (except the silent store, as HSA specifies).
#[derive(Copy, Clone)]
pub struct SignalRef<'a> {
    handle: Signal,
    value: &'a AtomicI64,
    pool: &'a Pool,
}

impl<'a> SignalRef<'a> {
    pub(super) fn new(handle: Signal, value: &'a AtomicI64, pool: &'a Pool) -> Self {
        SignalRef {
            handle,
            value,
            pool,
        }
    }

    pub fn handle(&self) -> Signal {
        self.handle
    }

    /// The value's address (`hsa_amd_signal_value_pointer`).
    pub fn value_ptr(&self) -> *mut i64 {
        self.value.as_ptr()
    }

    /// The value as an atomic, for [`super::wait_any`] over several signals.
    pub fn atomic(&self) -> &'a AtomicI64 {
        self.value
    }

    pub fn load(&self, order: MemoryOrder) -> i64 {
        self.value.load(order.load())
    }

    pub fn store(&self, v: i64, order: MemoryOrder) {
        self.value.store(v, order.store());
        notify::wake(self.value.as_ptr() as u64);
    }

    /// Stores without waking waiters; they still notice within their bounded sleep.
    pub fn silent_store(&self, v: i64, order: MemoryOrder) {
        self.value.store(v, order.store());
    }

    pub fn exchange(&self, v: i64, order: MemoryOrder) -> i64 {
        let old = self.value.swap(v, order.rmw());
        notify::wake(self.value.as_ptr() as u64);
        old
    }

    /// Compare-and-swap; returns the observed value (equal to `expected` on success).
    pub fn cas(&self, expected: i64, v: i64, order: MemoryOrder) -> i64 {
        let load = match order {
            MemoryOrder::Acquire | MemoryOrder::AcqRel => Ordering::Acquire,
            _ => Ordering::Relaxed,
        };
        let r = self.value.compare_exchange(expected, v, order.rmw(), load);
        if r.is_ok() {
            notify::wake(self.value.as_ptr() as u64);
        }
        r.unwrap_or_else(|x| x)
    }

    /// Each returns the previous value. HSA's add/subtract wrap like C's.
    pub fn add(&self, v: i64, order: MemoryOrder) -> i64 {
        self.rmw(|a, o| a.fetch_add(v, o), order)
    }
    pub fn subtract(&self, v: i64, order: MemoryOrder) -> i64 {
        self.rmw(|a, o| a.fetch_sub(v, o), order)
    }
    pub fn and(&self, v: i64, order: MemoryOrder) -> i64 {
        self.rmw(|a, o| a.fetch_and(v, o), order)
    }
    pub fn or(&self, v: i64, order: MemoryOrder) -> i64 {
        self.rmw(|a, o| a.fetch_or(v, o), order)
    }
    pub fn xor(&self, v: i64, order: MemoryOrder) -> i64 {
        self.rmw(|a, o| a.fetch_xor(v, o), order)
    }

    fn rmw(&self, f: impl FnOnce(&AtomicI64, Ordering) -> i64, order: MemoryOrder) -> i64 {
        let old = f(self.value, order.rmw());
        notify::wake(self.value.as_ptr() as u64);
        old
    }

    /// Profiling timestamps (`start_ts`, `end_ts`), in system ticks.
    pub fn timestamps(&self) -> (u64, u64) {
        let f = |o| self.pool.field(self.handle.0, o).load(Ordering::Acquire);
        (f(pool::off::START_TS), f(pool::off::END_TS))
    }

    /// Records profiling timestamps; done before the completion decrement that publishes them.
    pub fn set_timestamps(&self, start: u64, end: u64) {
        self.pool
            .field(self.handle.0, pool::off::START_TS)
            .store(start, Ordering::Relaxed);
        self.pool
            .field(self.handle.0, pool::off::END_TS)
            .store(end, Ordering::Release);
    }
}
