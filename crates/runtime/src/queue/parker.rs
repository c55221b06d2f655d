//! Where a packet processor sleeps while earlier dispatches end (a barrier bit, or the queue
//! stopping): a futex word that the end of each dispatch bumps, with a system call only when
//! the processor really sleeps.

use std::sync::atomic::{AtomicU32, Ordering::SeqCst};
use std::time::Duration;

#[derive(Default)]
pub struct Parker {
    epoch: AtomicU32,
    sleepers: AtomicU32,
}

impl Parker {
    /// Read before checking the condition waited for, then pass to [`Parker::sleep`].
    pub fn epoch(&self) -> u32 {
        self.epoch.load(SeqCst)
    }

    /// Something the sleeper may wait for changed.
    pub fn notify(&self) {
        self.epoch.fetch_add(1, SeqCst);
        if self.sleepers.load(SeqCst) != 0 {
            // SAFETY: FUTEX_WAKE on a valid, 4-byte aligned atomic; writes no memory.
            unsafe {
                libc::syscall(
                    libc::SYS_futex,
                    self.epoch.as_ptr(),
                    libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG,
                    i32::MAX,
                );
            }
        }
    }

    /// Sleeps until [`Parker::notify`] moved the epoch past `seen`, or `timeout`.
    pub fn sleep(&self, seen: u32, timeout: Duration) {
        let ts = libc::timespec {
            tv_sec: timeout.as_secs().min(i64::MAX as u64) as libc::time_t,
            tv_nsec: timeout.subsec_nanos() as libc::c_long,
        };
        self.sleepers.fetch_add(1, SeqCst);
        // SAFETY: FUTEX_WAIT reads the atomic (alive: `self` is borrowed) and compares it with
        // `seen`; `ts` lives until the call returns.
        unsafe {
            libc::syscall(
                libc::SYS_futex,
                self.epoch.as_ptr(),
                libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG,
                seen,
                &ts as *const libc::timespec,
            );
        }
        self.sleepers.fetch_sub(1, SeqCst);
    }
}
