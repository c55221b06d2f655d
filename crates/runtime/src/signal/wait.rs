//! Waiting for signal conditions: spin while a host core is spare, then sleep on the notify
//! epoch.
//!
//! Spinning makes a completion seen within a microsecond, sleeping costs a wake-up (several
//! microseconds), so waiters spin first, like ROCm's: an `ACTIVE` wait spins up to
//! [`ACTIVE_SPIN`], a `BLOCKED` one up to [`BLOCKED_SPIN`]. But only with a spin permit
//! (`softhsa_gpu::sched::load`, counting this process's threads): when the work-groups being
//! waited for need every core, a spinning waiter would only slow them down, so it sleeps at
//! once, and it stops spinning as soon as work-groups start on the cores it holds.

use super::{notify::Sleeper, MemoryOrder, SignalRef};
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

/// `hsa_signal_condition_t`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Condition {
    Eq,
    Ne,
    Lt,
    Gte,
}

impl Condition {
    /// From the C enum value; `None` for values outside it.
    pub fn from_raw(c: u32) -> Option<Condition> {
        Some(match c {
            0 => Condition::Eq,
            1 => Condition::Ne,
            2 => Condition::Lt,
            3 => Condition::Gte,
            _ => return None,
        })
    }

    pub fn holds(self, value: i64, compare: i64) -> bool {
        match self {
            Condition::Eq => value == compare,
            Condition::Ne => value != compare,
            Condition::Lt => value < compare,
            Condition::Gte => value >= compare,
        }
    }
}

/// `hsa_wait_state_t`: how eagerly to spin before sleeping.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WaitHint {
    Blocked,
    Active,
}

/// Longest spin of an `ACTIVE` wait before it sleeps (HIP waits ACTIVE for 100 µs, then
/// BLOCKED).
pub const ACTIVE_SPIN: Duration = Duration::from_micros(500);
/// Longest spin of a `BLOCKED` wait.
pub const BLOCKED_SPIN: Duration = Duration::from_micros(20);

impl WaitHint {
    fn spin(self) -> Duration {
        match self {
            WaitHint::Blocked => BLOCKED_SPIN,
            WaitHint::Active => ACTIVE_SPIN,
        }
    }
}

/// Longest sleep between two checks: stores made directly in memory by device code wake nobody.
pub const MAX_SLEEP: Duration = Duration::from_millis(1);

impl SignalRef<'_> {
    /// `hsa_signal_wait_*`: waits until `cond(value, compare)` holds or about `timeout` ticks
    /// (nanoseconds at the 1 GHz system timestamp; `u64::MAX`: forever) have passed. Returns the
    /// value observed last, which does not satisfy the condition after a timeout.
    pub fn wait(
        &self,
        cond: Condition,
        compare: i64,
        timeout: u64,
        hint: WaitHint,
        order: MemoryOrder,
    ) -> i64 {
        let (_, v) = wait_any(&[(self.atomic(), cond, compare)], timeout, hint, order);
        v
    }
}

/// Waits until any `(value, condition, compare)` holds. Returns the index that held (`None`
/// after the timeout) and the value observed for it (for the first signal after a timeout).
pub fn wait_any(
    conds: &[(&AtomicI64, Condition, i64)],
    timeout: u64,
    hint: WaitHint,
    order: MemoryOrder,
) -> (Option<usize>, i64) {
    let load = match order {
        MemoryOrder::Acquire | MemoryOrder::AcqRel => Ordering::Acquire,
        _ => Ordering::Relaxed,
    };
    let check = || {
        for (i, (a, c, cmp)) in conds.iter().enumerate() {
            let v = a.load(load);
            if c.holds(v, *cmp) {
                return Some((i, v));
            }
        }
        None
    };
    let first = || conds.first().map_or(0, |(a, _, _)| a.load(load));
    let start = Instant::now();
    // u64::MAX, or a timeout too long to represent, waits forever.
    let deadline = match timeout {
        u64::MAX => None,
        t => start.checked_add(Duration::from_nanos(t)),
    };
    let expired = |now: Instant| deadline.is_some_and(|d| now >= d);

    // Spin phase, while a core is spare: cheap re-checks for latency-sensitive hand-offs.
    if let Some((i, v)) = check() {
        return (Some(i), v);
    }
    let mut hit = None;
    if softhsa_gpu::sched::load::brief_spin(|| {
        hit = check();
        hit.is_some()
    }) {
        if let Some((i, v)) = hit {
            return (Some(i), v);
        }
    }
    if let Some(permit) = softhsa_gpu::sched::load::SpinPermit::for_waiter() {
        let limit = match deadline {
            Some(d) => hint.spin().min(d.saturating_duration_since(start)),
            None => hint.spin(),
        };
        let mut hit = None;
        if permit.spin_until(limit, || {
            hit = check();
            hit.is_some()
        }) {
            if let Some((i, v)) = hit {
                softhsa_gpu::sched::stats::count(softhsa_gpu::sched::stats::Event::HostWaitSpun);
                return (Some(i), v);
            }
        }
    }

    // Sleep phase: woken by API stores, the packet processors and device interrupts.
    softhsa_gpu::sched::stats::count(softhsa_gpu::sched::stats::Event::HostWaitSlept);
    let sleeper = match conds {
        [(one, _, _)] => Sleeper::for_value(one.as_ptr() as u64),
        _ => Sleeper::any(),
    };
    loop {
        let epoch = sleeper.epoch();
        if let Some((i, v)) = check() {
            return (Some(i), v);
        }
        let now = Instant::now();
        if expired(now) {
            return (None, first());
        }
        let nap = deadline.map_or(MAX_SLEEP, |d| (d - now).min(MAX_SLEEP));
        sleeper.sleep(epoch, Some(nap));
    }
}
