//! Waiting for signal conditions: spin briefly, then sleep on the notify epoch.

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

impl WaitHint {
    fn spin(self) -> Duration {
        match self {
            WaitHint::Blocked => Duration::from_micros(2),
            WaitHint::Active => Duration::from_micros(50),
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

    // Spin phase: cheap re-checks for latency-sensitive hand-offs.
    let spin_until = start + hint.spin();
    loop {
        if let Some((i, v)) = check() {
            return (Some(i), v);
        }
        let now = Instant::now();
        if expired(now) {
            return (None, first());
        }
        if now >= spin_until {
            break;
        }
        for _ in 0..64 {
            std::hint::spin_loop();
        }
    }

    // Sleep phase: woken by API stores, the packet processors and device interrupts.
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
