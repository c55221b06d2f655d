//! HSA signals: handles are addresses of real 64-byte `amd_signal_t` objects.
//!
//! - [`Signals`] owns them (create, destroy, validate), the signal groups and the async handler
//!   thread, and is the runtime's [`softhsa_gpu::DeviceEvents`] (a device interrupt wakes waiters).
//! - [`SignalRef`] is a validated signal: atomic value operations in every memory order, waits.
//! - Waiters spin briefly and then sleep on one futex epoch ([`notify`]); every value change made
//!   through this API wakes them at once, and sleeps are bounded by 1 ms so that stores made by
//!   device code directly in memory are noticed too.
//!
//! ```no_run
//! use softhsa_runtime::signal::{Condition, MemoryOrder, WaitHint};
//! softhsa_runtime::init().unwrap();
//! let rt = softhsa_runtime::runtime().unwrap();
//! let s = rt.signals.create(1).unwrap();
//! let sig = rt.signals.get(s).unwrap();
//! sig.subtract(1, MemoryOrder::Release);
//! assert_eq!(sig.wait(Condition::Eq, 0, u64::MAX, WaitHint::Blocked, MemoryOrder::Acquire), 0);
//! rt.signals.destroy(s).unwrap();
//! ```

pub mod group;
pub mod handler;
pub mod notify;
pub mod pool;
mod value;
mod wait;

pub use value::{MemoryOrder, SignalRef};
pub use wait::{wait_any, Condition, WaitHint};

use crate::{config::Config, Error, Result};
use std::sync::Arc;

/// A signal handle: the address of its `amd_signal_t` (`hsa_signal_t.handle`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signal(pub u64);

/// Attributes of `hsa_amd_signal_create` (`hsa_amd_signal_attribute_t` bits).
pub const ATTR_AMD_GPU_ONLY: u64 = 1;
pub const ATTR_IPC: u64 = 2;

/// Every signal of the runtime, its groups and its async handlers.
pub struct Signals {
    pool: Arc<pool::Pool>,
    /// IPC signals (each in its own shared page).
    pub shared: crate::ipc::signal::SharedSignals,
    pub groups: group::Groups,
    pub handlers: handler::AsyncHandlers,
}

impl Signals {
    pub fn new(_config: &Config) -> Result<Signals> {
        Ok(Signals {
            pool: Arc::new(pool::Pool::new()?),
            shared: Default::default(),
            groups: group::Groups::default(),
            handlers: handler::AsyncHandlers::default(),
        })
    }

    /// Builds the signals and registers their memory so device code may update them.
    pub fn new_registered(config: &Config, memory: &crate::memory::Memory) -> Result<Signals> {
        let s = Signals::new(config)?;
        let (base, len) = s.region();
        memory.register_range(base, len, crate::memory::registry::RangeKind::Signal, 0)?;
        Ok(s)
    }

    /// The memory all signals live in, `(base, len)`: register it so device code may use it.
    pub fn region(&self) -> (u64, u64) {
        self.pool.region()
    }

    /// `hsa_signal_create`: a new signal with `initial` value.
    pub fn create(&self, initial: i64) -> Result<Signal> {
        self.pool.alloc(initial).map(Signal)
    }

    /// `hsa_amd_signal_create`: `attributes` is a mask of `ATTR_*`. An IPC signal lives in
    /// shared memory (see `crate::ipc::signal`), registered with `memory` for device code.
    pub fn create_with_attributes(
        &self,
        initial: i64,
        attributes: u64,
        memory: &crate::memory::Memory,
    ) -> Result<Signal> {
        if attributes & !(ATTR_AMD_GPU_ONLY | ATTR_IPC) != 0 {
            return Err(Error::new(softhsa_abi::HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        if attributes & ATTR_IPC != 0 {
            return self.shared.create(memory, initial).map(Signal);
        }
        self.create(initial)
    }

    /// `hsa_signal_destroy`. Async handlers still registered on it are dropped.
    pub fn destroy(&self, s: Signal) -> Result<()> {
        if !self.shared.destroy(s.0) {
            self.pool.free(s.0)?;
        }
        self.handlers.forget_signal(s);
        Ok(())
    }

    /// Validates a handle: INVALID_SIGNAL unless it names a live signal.
    pub fn get(&self, s: Signal) -> Result<SignalRef<'_>> {
        if let Err(e) = self.pool.check(s.0) {
            if !self.shared.is_live(s.0) {
                return Err(e);
            }
        }
        Ok(SignalRef::new(s, self.pool.value(s.0), &self.pool))
    }

    /// Like [`Signals::get`], for handles where 0 means "no signal" (packet fields).
    pub fn get_optional(&self, s: Signal) -> Result<Option<SignalRef<'_>>> {
        if s.0 == 0 {
            return Ok(None);
        }
        self.get(s).map(Some)
    }

    /// `true` when `s` is a live signal.
    pub fn is_live(&self, s: Signal) -> bool {
        self.pool.check(s.0).is_ok() || self.shared.is_live(s.0)
    }

    /// Stops the async handler thread.
    pub fn shut_down(&self) {
        self.handlers.shut_down();
    }
}

/// Device code reports signal updates with `s_sendmsg(MSG_INTERRUPT)`: wake every waiter, which
/// re-reads its signals.
impl softhsa_gpu::DeviceEvents for Signals {
    fn interrupt(&self, _m0: u32) {
        notify::wake_all();
    }
}

#[cfg(test)]
mod tests;
