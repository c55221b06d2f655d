//! Storage of `amd_signal_t` objects.
//!
//! All signals live in one virtual region reserved at start-up (`mmap`, no reserve: pages are
//! committed when first touched). That makes a handle check a range and alignment test plus a
//! look at the `kind` field (USER while live, INVALID once destroyed) with no lock, and the whole
//! region is registered once with the allocation registry so that device code may use any
//! signal. Slots are reused through a free list; the region is unmapped when the pool drops.
//! The first 64-byte slot is the event mailbox that every signal's `event_mailbox_ptr` names.

use crate::{Error, Result};
use softhsa_abi::{HSA_STATUS_ERROR_INVALID_SIGNAL, HSA_STATUS_ERROR_OUT_OF_RESOURCES};
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::Mutex;

/// Bytes of one `amd_signal_t`.
pub const SIGNAL_BYTES: u64 = std::mem::size_of::<softhsa_abi::amd_signal_t>() as u64;
/// Capacity of the region: 1 Mi signals (64 MiB of address space, committed lazily).
const CAPACITY: u64 = 1 << 20;

use softhsa_abi::{AMD_SIGNAL_KIND_INVALID as KIND_INVALID, AMD_SIGNAL_KIND_USER as KIND_USER};

/// Field offsets of `amd_signal_t`.
pub mod off {
    use softhsa_abi::amd_signal_t as S;
    use std::mem::offset_of;
    pub const KIND: u64 = offset_of!(S, kind) as u64;
    pub const VALUE: u64 = offset_of!(S, value) as u64;
    pub const EVENT_MAILBOX_PTR: u64 = offset_of!(S, event_mailbox_ptr) as u64;
    pub const EVENT_ID: u64 = offset_of!(S, event_id) as u64;
    pub const START_TS: u64 = offset_of!(S, start_ts) as u64;
    pub const END_TS: u64 = offset_of!(S, end_ts) as u64;
    pub const QUEUE_PTR: u64 = offset_of!(S, queue_ptr) as u64;
}

/// The event id device code writes to the mailbox before `s_sendmsg` (any non-zero value).
const EVENT_ID: u64 = 1;

pub struct Pool {
    base: u64,
    len: u64,
    slots: Mutex<Slots>,
}

struct Slots {
    free: Vec<u64>,
    next: u64,
}

impl Pool {
    pub fn new() -> Result<Pool> {
        let len = (CAPACITY + 1) * SIGNAL_BYTES;
        // SAFETY: anonymous private mapping chosen by the kernel; no existing memory is affected.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len as usize,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_OUT_OF_RESOURCES,
                "cannot reserve the signal region",
            ));
        }
        let slots = Mutex::new(Slots {
            free: Vec::new(),
            next: 1,
        });
        Ok(Pool {
            base: p as u64,
            len,
            slots,
        })
    }

    /// The whole region `[base, base + len)`, for the allocation registry.
    pub fn region(&self) -> (u64, u64) {
        (self.base, self.len)
    }

    /// Address of the event mailbox (slot 0).
    pub fn mailbox(&self) -> u64 {
        self.base
    }

    /// Takes a slot, initializes it as a live USER signal with `initial`, returns its address.
    pub fn alloc(&self, initial: i64) -> Result<u64> {
        let addr = {
            let mut s = self.slots.lock().unwrap_or_else(|e| e.into_inner());
            match s.free.pop() {
                Some(a) => a,
                None if s.next <= CAPACITY => {
                    s.next += 1;
                    self.base + (s.next - 1) * SIGNAL_BYTES
                }
                None => return Err(Error::new(HSA_STATUS_ERROR_OUT_OF_RESOURCES)),
            }
        };
        let f = |o: u64| field(addr, o);
        f(off::VALUE).store(initial as u64, Ordering::Relaxed);
        f(off::EVENT_MAILBOX_PTR).store(self.mailbox(), Ordering::Relaxed);
        f(off::EVENT_ID).store(EVENT_ID, Ordering::Relaxed); // also clears reserved1
        f(off::START_TS).store(0, Ordering::Relaxed);
        f(off::END_TS).store(0, Ordering::Relaxed);
        f(off::QUEUE_PTR).store(0, Ordering::Relaxed);
        // Publishing the kind last makes the slot valid only once fully initialized.
        f(off::KIND).store(KIND_USER as u64, Ordering::Release);
        Ok(addr)
    }

    /// Marks a live signal destroyed and recycles its slot.
    pub fn free(&self, addr: u64) -> Result<()> {
        self.check(addr)?;
        let kind = field(addr, off::KIND);
        // Only one of two racing destroys wins the slot.
        kind.compare_exchange(
            KIND_USER as u64,
            KIND_INVALID as u64,
            Ordering::AcqRel,
            Ordering::Relaxed,
        )
        .map_err(|_| Error::new(HSA_STATUS_ERROR_INVALID_SIGNAL))?;
        self.slots
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .free
            .push(addr);
        Ok(())
    }

    /// Checks that `addr` is a live signal of this pool.
    pub fn check(&self, addr: u64) -> Result<()> {
        let inside = addr > self.base && addr < self.base + self.len;
        if !inside || !(addr - self.base).is_multiple_of(SIGNAL_BYTES) {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_SIGNAL));
        }
        if field(addr, off::KIND).load(Ordering::Acquire) != KIND_USER as u64 {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_SIGNAL));
        }
        Ok(())
    }

    /// The value of the signal at `addr`, which [`Pool::check`] accepted.
    pub fn value(&self, addr: u64) -> &AtomicI64 {
        // SAFETY: `addr` is a live signal (checked by the caller): inside the mapping owned by
        // `self`, or an IPC signal's shared page, which stays mapped until the runtime drops
        // (`crate::ipc::signal`). It is 8-byte aligned; the value is only accessed atomically.
        unsafe { AtomicI64::from_ptr((addr + off::VALUE) as *mut i64) }
    }

    /// A 64-bit field of the signal at `addr` (timestamps, queue pointer).
    pub fn field(&self, addr: u64, offset: u64) -> &AtomicU64 {
        field(addr, offset)
    }
}

/// A 64-bit field of a slot; the mapping outlives every caller (it is dropped with the pool).
fn field<'a>(addr: u64, offset: u64) -> &'a AtomicU64 {
    // SAFETY: callers pass addresses of slots inside the pool's mapping (8-byte aligned fields),
    // which stays mapped while the pool lives; all accesses to these fields are atomic.
    unsafe { AtomicU64::from_ptr((addr + offset) as *mut u64) }
}

impl Drop for Pool {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly the region mapped in `new`; the pool is being dropped, so no
        // reference into it remains in safe code.
        unsafe { libc::munmap(self.base as *mut libc::c_void, self.len as usize) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alloc_check_free_and_reuse() {
        let p = Pool::new().unwrap();
        let a = p.alloc(7).unwrap();
        assert_eq!(p.value(a).load(Ordering::Relaxed), 7);
        assert!(p.check(a).is_ok());
        assert_eq!(
            p.field(a, off::EVENT_MAILBOX_PTR).load(Ordering::Relaxed),
            p.mailbox()
        );
        p.free(a).unwrap();
        assert_eq!(
            p.check(a).unwrap_err().status,
            HSA_STATUS_ERROR_INVALID_SIGNAL
        );
        assert_eq!(
            p.free(a).unwrap_err().status,
            HSA_STATUS_ERROR_INVALID_SIGNAL
        );
        let b = p.alloc(-3).unwrap();
        assert_eq!(a, b);
        assert_eq!(p.value(b).load(Ordering::Relaxed), -3);
    }

    #[test]
    fn forged_handles_are_rejected() {
        let p = Pool::new().unwrap();
        let a = p.alloc(0).unwrap();
        for h in [0, 1, a + 8, a + SIGNAL_BYTES, p.mailbox(), u64::MAX - 63] {
            assert_eq!(
                p.check(h).unwrap_err().status,
                HSA_STATUS_ERROR_INVALID_SIGNAL,
                "{h:#x}"
            );
        }
    }
}
