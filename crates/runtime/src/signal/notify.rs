//! Wake-ups for everything that waits on signal values: host waiters, async handlers and packet
//! processors.
//!
//! One process-wide epoch counter is a Linux futex. Every operation that may satisfy a waiter
//! (a signal store through the API, a packet processor decrementing a completion signal, a device
//! interrupt) bumps the epoch and, only when someone sleeps, wakes the sleepers. A waiter reads
//! the epoch *before* checking its condition and sleeps only while the epoch is unchanged, so a
//! change made between its check and its sleep is never lost. Sleeps are bounded by the caller
//! (1 ms for signal waits) so that stores made directly in memory by device code, which bump
//! nothing, are still noticed.

use std::sync::atomic::{AtomicU32, Ordering::SeqCst};
use std::time::Duration;

static EPOCH: AtomicU32 = AtomicU32::new(0);
static SLEEPERS: AtomicU32 = AtomicU32::new(0);

/// Wakes every thread sleeping in [`sleep`]; cheap (no system call) when nobody sleeps.
pub fn wake_all() {
    EPOCH.fetch_add(1, SeqCst);
    if SLEEPERS.load(SeqCst) != 0 {
        // SAFETY: FUTEX_WAKE on a valid, static, 4-byte aligned atomic; no memory is written.
        unsafe {
            libc::syscall(
                libc::SYS_futex,
                EPOCH.as_ptr(),
                libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG,
                i32::MAX,
            );
        }
    }
}

/// Registers the calling thread as a (potential) sleeper for as long as the guard lives.
///
/// Take the guard, then loop: `let e = guard.epoch(); check the condition; guard.sleep(e, ..)`.
pub struct Sleeper(());

impl Sleeper {
    pub fn new() -> Sleeper {
        SLEEPERS.fetch_add(1, SeqCst);
        Sleeper(())
    }

    /// The epoch to pass to [`Sleeper::sleep`]; read it before checking the condition.
    pub fn epoch(&self) -> u32 {
        EPOCH.load(SeqCst)
    }

    /// Sleeps until the epoch moves past `seen` or `timeout` passes (`None`: no bound).
    /// May return early (spurious wake-ups); callers re-check their condition.
    pub fn sleep(&self, seen: u32, timeout: Option<Duration>) {
        let ts = timeout.map(|d| libc::timespec {
            tv_sec: d.as_secs().min(i64::MAX as u64) as libc::time_t,
            tv_nsec: d.subsec_nanos() as libc::c_long,
        });
        let ts_ptr = ts
            .as_ref()
            .map_or(std::ptr::null(), |t| t as *const libc::timespec);
        // SAFETY: FUTEX_WAIT reads the static atomic and compares it with `seen`; `ts_ptr` is
        // NULL or points to a timespec that lives until the call returns.
        unsafe {
            libc::syscall(
                libc::SYS_futex,
                EPOCH.as_ptr(),
                libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG,
                seen,
                ts_ptr,
            );
        }
    }
}

impl Default for Sleeper {
    fn default() -> Self {
        Sleeper::new()
    }
}

impl Drop for Sleeper {
    fn drop(&mut self) {
        SLEEPERS.fetch_sub(1, SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    use std::time::Instant;

    #[test]
    fn wake_all_interrupts_an_unbounded_sleep() {
        let flag = Arc::new(AtomicBool::new(false));
        let f2 = flag.clone();
        let t = std::thread::spawn(move || {
            let s = Sleeper::new();
            loop {
                let e = s.epoch();
                if f2.load(SeqCst) {
                    return;
                }
                s.sleep(e, None);
            }
        });
        std::thread::sleep(Duration::from_millis(20));
        flag.store(true, SeqCst);
        wake_all();
        t.join().unwrap();
    }

    #[test]
    fn bounded_sleep_returns_after_timeout() {
        let s = Sleeper::new();
        let t0 = Instant::now();
        // Another test may bump the epoch; loop until the full timeout has elapsed.
        while t0.elapsed() < Duration::from_millis(5) {
            let e = s.epoch();
            s.sleep(e, Some(Duration::from_millis(5)));
        }
        assert!(t0.elapsed() >= Duration::from_millis(5));
    }
}
