//! Wake-ups for everything that waits on signal values: host waiters, async handlers and packet
//! processors.
//!
//! Each wait channel is an epoch counter that doubles as a Linux futex. A change to signal `s`
//! (a store through the API, a packet processor decrementing a completion signal) bumps the
//! channel of `s`'s bucket and the "any" channel and, only when someone sleeps there, wakes the
//! sleepers. Threads waiting on one signal sleep on its bucket, so a store wakes only the
//! waiters of signals that hash alike; threads watching several signals (wait-any, groups,
//! barrier packets, the async handler thread) sleep on the "any" channel. A device interrupt
//! wakes every channel.
//!
//! A waiter reads the epoch *before* checking its condition and sleeps only while the epoch is
//! unchanged, so a change made between its check and its sleep is never lost. A thread counts as
//! a sleeper only for the duration of the system call (it registers just before): a waker that
//! saw no sleeper had bumped the epoch before the sleeper registered, so the sleeper's futex
//! wait, which compares the epoch, returns at once. So a signal operation costs no system call
//! while its waiters spin or run. Sleeps are bounded by the caller (1 ms for signal waits) so
//! that stores made directly in memory by device code, which bump nothing, are still noticed.
//!
//! Runtime threads with nothing to watch (the async handler thread without handlers) sleep on
//! the control channel, which only [`wake_all`] (registrations, shut-down) wakes.

use std::sync::atomic::{fence, AtomicU32, Ordering::SeqCst};
use std::time::Duration;

/// One futex word and the count of threads that may sleep on it (own cache line each).
#[repr(align(64))]
struct Channel {
    epoch: AtomicU32,
    sleepers: AtomicU32,
}

impl Channel {
    const fn new() -> Channel {
        Channel {
            epoch: AtomicU32::new(0),
            sleepers: AtomicU32::new(0),
        }
    }

    fn wake(&self) {
        self.epoch.fetch_add(1, SeqCst);
        if self.sleepers.load(SeqCst) != 0 {
            // SAFETY: FUTEX_WAKE on a valid, static, 4-byte aligned atomic; writes no memory.
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
}

const BUCKETS: usize = 64;
static ANY: Channel = Channel::new();

/// Threads watching the "any" channel now, registered for their whole wait (not only while in
/// the system call). A signal change bumps that channel only while there is one: otherwise
/// every signal operation of every thread (doorbells rung by host threads feeding different
/// queues, completion signals) wrote this one cache line.
#[repr(align(64))]
struct Watchers(AtomicU32);
static ANY_WATCHERS: Watchers = Watchers(AtomicU32::new(0));
static CONTROL: Channel = Channel::new();
static BUCKET: [Channel; BUCKETS] = [const { Channel::new() }; BUCKETS];

fn bucket(value_addr: u64) -> &'static Channel {
    // Signal values are 64 bytes apart: hash the slot number.
    let slot = value_addr >> 6;
    &BUCKET[(slot ^ (slot >> 6) ^ (slot >> 12)) as usize % BUCKETS]
}

/// Wakes the waiters of the signal whose value is at `value_addr`, and every "any" waiter; no
/// system call when nobody sleeps.
pub fn wake(value_addr: u64) {
    bucket(value_addr).wake();
    // Pairs with the fence in `Sleeper::any`: either this sees the watcher, or the watcher's
    // check (after it registered) sees the change that preceded this call.
    fence(SeqCst);
    if ANY_WATCHERS.0.load(SeqCst) != 0 {
        ANY.wake();
    }
}

/// Wakes the threads that watch every signal (a copy worker told of a new copy).
pub fn wake_any() {
    ANY.wake();
}

/// Wakes every sleeper (device interrupts, queue shut-down, handler registration).
pub fn wake_all() {
    ANY.wake();
    CONTROL.wake();
    for b in &BUCKET {
        b.wake();
    }
}

/// A wait channel to sleep on: loop `let e = s.epoch(); check the condition; s.sleep(e, ..)`.
pub struct Sleeper {
    channel: &'static Channel,
    /// Registered in `ANY_WATCHERS` until dropped.
    watcher: bool,
}

impl Sleeper {
    /// For a thread waiting on the one signal whose value is at `value_addr`: woken by changes
    /// to it (and by [`wake_all`]).
    pub fn for_value(value_addr: u64) -> Sleeper {
        Sleeper::on(bucket(value_addr))
    }

    /// For a thread watching several signals: woken by a change to any signal made while this
    /// sleeper lives (create it before checking the signals, keep it until done waiting).
    pub fn any() -> Sleeper {
        ANY_WATCHERS.0.fetch_add(1, SeqCst);
        fence(SeqCst);
        Sleeper {
            channel: &ANY,
            watcher: true,
        }
    }

    /// For a thread that waits for runtime control events only ([`wake_all`]).
    pub fn control() -> Sleeper {
        Sleeper::on(&CONTROL)
    }

    fn on(channel: &'static Channel) -> Sleeper {
        Sleeper {
            channel,
            watcher: false,
        }
    }

    /// The epoch to pass to [`Sleeper::sleep`]; read it before checking the condition.
    pub fn epoch(&self) -> u32 {
        self.channel.epoch.load(SeqCst)
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
        self.channel.sleepers.fetch_add(1, SeqCst);
        // SAFETY: FUTEX_WAIT reads the static atomic and compares it with `seen`; `ts_ptr` is
        // NULL or points to a timespec that lives until the call returns.
        unsafe {
            libc::syscall(
                libc::SYS_futex,
                self.channel.epoch.as_ptr(),
                libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG,
                seen,
                ts_ptr,
            );
        }
        self.channel.sleepers.fetch_sub(1, SeqCst);
    }
}

impl Drop for Sleeper {
    fn drop(&mut self) {
        if self.watcher {
            ANY_WATCHERS.0.fetch_sub(1, SeqCst);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    use std::time::Instant;

    fn sleeps_until_woken(make: fn() -> Sleeper, wake_it: impl FnOnce()) {
        let flag = Arc::new(AtomicBool::new(false));
        let f2 = flag.clone();
        let t = std::thread::spawn(move || {
            let s = make();
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
        wake_it();
        t.join().unwrap();
    }

    #[test]
    fn wakes_interrupt_unbounded_sleeps() {
        sleeps_until_woken(|| Sleeper::for_value(0x4000), || wake(0x4000));
        sleeps_until_woken(Sleeper::any, || wake(0x8000));
        sleeps_until_woken(|| Sleeper::for_value(0x4000), wake_all);
    }

    #[test]
    fn bounded_sleep_returns_after_timeout() {
        let s = Sleeper::for_value(0x1_0000);
        let t0 = Instant::now();
        // Another test may bump the epoch; loop until the full timeout has elapsed.
        while t0.elapsed() < Duration::from_millis(5) {
            let e = s.epoch();
            s.sleep(e, Some(Duration::from_millis(5)));
        }
        assert!(t0.elapsed() >= Duration::from_millis(5));
    }
}
