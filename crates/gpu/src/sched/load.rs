//! Who uses the host's cores: threads running work-groups and threads spin-waiting.
//!
//! Waiting threads (idle workers, packet processors, host threads in a signal wait) spin only
//! while a core is spare: spinning keeps hand-offs in the microsecond range, but a spinning
//! thread on a core a worker needs slows the kernel down, which matters on a 2-core machine. So
//! spinning is a permit: [`SpinPermit::try_new`] grants one while `running + spinning` stays
//! below the number of host cores, and the holder gives it back when it stops spinning.
//!
//! Other processes count too, for background waiters (packet processors, idle workers): on a
//! machine whose cores are all taken, such a spinner is preempted and reacts a scheduling period
//! late, while a sleeper woken by a futex gets the core at once. So [`SpinPermit::try_new`]
//! grants nothing while the system's runnable threads (`/proc/loadavg`, read at most every
//! `LOAD_PERIOD`) fill the cores. A host thread waiting for the result it needs next
//! ([`SpinPermit::for_waiter`]) spins anyway: it was just running, and its wait is short.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How often the system's runnable thread count is read.
const LOAD_PERIOD: Duration = Duration::from_millis(20);

/// When threads may spin (`SOFTHSA_SPIN`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SpinPolicy {
    /// While this process's and the system's runnable threads leave a core spare.
    #[default]
    Auto,
    /// While this process's threads leave a core spare, whatever else runs (benchmarks on a
    /// shared machine).
    Always,
    /// Never: every wait sleeps at once.
    Never,
}

impl SpinPolicy {
    /// `SOFTHSA_SPIN`'s values: `auto`, `always`, `never`.
    pub fn parse(v: &str) -> Option<SpinPolicy> {
        match v {
            "auto" => Some(SpinPolicy::Auto),
            "always" => Some(SpinPolicy::Always),
            "never" => Some(SpinPolicy::Never),
            _ => None,
        }
    }
}

static POLICY: AtomicU32 = AtomicU32::new(0);

/// Sets the spin policy of the process (the runtime does at `hsa_init`).
pub fn set_spin_policy(p: SpinPolicy) {
    POLICY.store(p as u32, Ordering::Relaxed);
}

fn policy() -> SpinPolicy {
    match POLICY.load(Ordering::Relaxed) {
        1 => SpinPolicy::Always,
        2 => SpinPolicy::Never,
        _ => SpinPolicy::Auto,
    }
}

/// The other processes' share: 1 when the system's runnable threads fill the host cores.
static SYSTEM_BUSY: AtomicU32 = AtomicU32::new(0);
/// When `SYSTEM_BUSY` was last refreshed (ms since `epoch()`), and a refresh lock.
static LOAD_READ_MS: AtomicU32 = AtomicU32::new(0);

fn epoch() -> Instant {
    static T0: OnceLock<Instant> = OnceLock::new();
    *T0.get_or_init(Instant::now)
}

/// Runnable threads of the whole system now (the 4th field of `/proc/loadavg`, "R/T").
fn system_runnable() -> Option<u32> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let field = text.split_whitespace().nth(3)?;
    field.split('/').next()?.parse().ok()
}

/// Whether a reading of the system's load falls to the caller: the last one, at `read_ms`
/// (ms since `epoch()`), is [`LOAD_PERIOD`] old, and no other thread took this one.
fn reading_due(read_ms: &AtomicU32) -> bool {
    let now = epoch().elapsed().as_millis() as u32;
    let last = read_ms.load(Ordering::Relaxed);
    now.wrapping_sub(last) >= LOAD_PERIOD.as_millis() as u32
        && read_ms
            .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
}

/// Whether runnable threads of other processes fill the cores (refreshed every
/// [`LOAD_PERIOD`] by whichever caller finds it stale).
fn system_busy() -> bool {
    if policy() == SpinPolicy::Always {
        return false;
    }
    if reading_due(&LOAD_READ_MS) {
        if let Some(r) = system_runnable() {
            // Our spinners and runners are among the runnable (within the permits, at most one
            // per core): more than the cores means someone waits for one.
            SYSTEM_BUSY.store(u32::from(r > host_cores()), Ordering::Relaxed);
        }
    }
    SYSTEM_BUSY.load(Ordering::Relaxed) != 0
}

/// Whether other processes compete for this process's cores ([`others_idle`]): bit 0 the
/// verdict (1: they do), bits 1.. how many readings in a row contradicted it.
static OTHERS_BUSY: AtomicU32 = AtomicU32::new(0);
/// When `OTHERS_BUSY` was last refreshed (ms since `epoch()`).
static OTHERS_READ_MS: AtomicU32 = AtomicU32::new(0);
/// Readings in a row it takes to change the verdict of [`others_idle`]: one reading is a
/// moment's count, and a thread that wakes for a microsecond is in it.
const OTHERS_STREAK: u32 = 3;

/// Whether other processes leave this process its cores: the system's runnable threads
/// (`/proc/loadavg`, read at most every `LOAD_PERIOD`) are no more than this process's
/// (running work-groups or spinning) plus a slack of 2 + cores/8 (the reader, threads passing
/// by), and were so for `OTHERS_STREAK` readings in a row, or the opposite held as many
/// readings before. `queue/rotation.rs` in the runtime pins streaming packet processors only
/// then: two processes pinning their threads would put them on the same cores, where the
/// kernel could not move them apart. `true` where the count cannot be read.
pub fn others_idle() -> bool {
    if reading_due(&OTHERS_READ_MS) {
        if let Some(r) = system_runnable() {
            let ours = RUNNING.load(Ordering::Relaxed) + SPINNING.load(Ordering::Relaxed);
            let busy = r > ours + 2 + host_cores() / 8;
            // (Only the thread that the reading fell to writes.)
            let was = OTHERS_BUSY.load(Ordering::Relaxed);
            OTHERS_BUSY.store(next_verdict(was, busy), Ordering::Relaxed);
        }
    }
    OTHERS_BUSY.load(Ordering::Relaxed) & 1 == 0
}

/// The verdict state of [`others_idle`] after a reading (`busy`: the reading found other
/// processes' threads runnable).
fn next_verdict(was: u32, busy: bool) -> u32 {
    let (verdict, streak) = (was & 1 != 0, was >> 1);
    match (busy == verdict, streak + 1 >= OTHERS_STREAK) {
        (true, _) => u32::from(verdict),
        (false, true) => u32::from(busy),
        (false, false) => u32::from(verdict) | (streak + 1) << 1,
    }
}

/// Threads executing work-groups now (workers and inline runners).
static RUNNING: AtomicU32 = AtomicU32::new(0);
/// Threads holding a spin permit now.
static SPINNING: AtomicU32 = AtomicU32::new(0);

/// Host cores (hardware threads) this process may use.
pub fn host_cores() -> u32 {
    static CORES: OnceLock<u32> = OnceLock::new();
    *CORES.get_or_init(|| {
        std::thread::available_parallelism()
            .map(|n| n.get() as u32)
            .unwrap_or(1)
    })
}

/// Marks the calling thread as running work-groups while the guard lives.
pub(crate) struct Running;

impl Running {
    pub(crate) fn enter() -> Running {
        RUNNING.fetch_add(1, Ordering::Relaxed);
        Running
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Checks of [`brief_spin`].
const BRIEF_SPINS: u32 = 64;

/// Spins a moment (a few dozen checks, a microsecond or a few) for `done()`, with no permit and
/// no clock read: for waits that usually end that soon (a host thread waiting for the small
/// kernel it just submitted, a packet processor between back-to-back packets). They then touch
/// no counter shared with other threads, while a longer wait still asks for a permit. Nothing
/// under `SOFTHSA_SPIN=never`. Returns whether `done()` held.
pub fn brief_spin(mut done: impl FnMut() -> bool) -> bool {
    if policy() == SpinPolicy::Never {
        return false;
    }
    for _ in 0..BRIEF_SPINS {
        if done() {
            return true;
        }
        std::hint::spin_loop();
    }
    false
}

/// Permission to spin-wait: a host core is spare. Dropping it gives it back.
pub struct SpinPermit {
    /// Granted without regard to other processes ([`SpinPermit::for_waiter`]).
    own_threads_only: bool,
}

impl SpinPermit {
    /// A permit if running and spinning threads leave a host core free, else `None` (the
    /// caller should sleep instead). For threads that wait in the background (packet
    /// processors, idle workers): a busy system denies it, since a preempted spinner reacts
    /// later than a sleeper a futex wakes.
    pub fn try_new() -> Option<SpinPermit> {
        if system_busy() {
            return None;
        }
        Self::grant(false)
    }

    /// A permit for a thread that waits for a result it needs next (a host thread in a signal
    /// wait, right after submitting work): it was just running, and its wait is usually short,
    /// so only this process's threads count, not other processes' load.
    pub fn for_waiter() -> Option<SpinPermit> {
        Self::grant(true)
    }

    fn grant(own_threads_only: bool) -> Option<SpinPermit> {
        let cores = host_cores();
        if policy() == SpinPolicy::Never {
            return None;
        }
        let mut s = SPINNING.load(Ordering::Relaxed);
        loop {
            if RUNNING.load(Ordering::Relaxed) + s >= cores {
                return None;
            }
            match SPINNING.compare_exchange_weak(s, s + 1, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return Some(SpinPermit { own_threads_only }),
                Err(now) => s = now,
            }
        }
    }

    /// Whether the permit should be given back: work-groups started running on the cores the
    /// spinners hold. Spinners check this now and then.
    pub fn oversubscribed(&self) -> bool {
        RUNNING.load(Ordering::Relaxed) + SPINNING.load(Ordering::Relaxed) > host_cores()
    }

    /// Spins until `done()` holds (`true`), or `limit` passed, or the host became
    /// oversubscribed (`false`: the caller sleeps).
    pub fn spin_until(&self, limit: Duration, mut done: impl FnMut() -> bool) -> bool {
        let start = Instant::now();
        let mut n = 0u32;
        loop {
            if done() {
                return true;
            }
            n = n.wrapping_add(1);
            if n.is_multiple_of(32)
                && (start.elapsed() > limit
                    || self.oversubscribed()
                    || (!self.own_threads_only && system_busy()))
            {
                return false;
            }
            std::hint::spin_loop();
        }
    }
}

impl Drop for SpinPermit {
    fn drop(&mut self) {
        SPINNING.fetch_sub(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The verdict changes after three contrary readings in a row, not after fewer.
    #[test]
    fn others_verdict_needs_readings_in_a_row() {
        let run = |readings: &[bool]| {
            readings
                .iter()
                .fold(0, |state, &busy| next_verdict(state, busy))
                & 1
                != 0
        };
        assert!(!run(&[true, true]));
        assert!(run(&[true, true, true]));
        assert!(!run(&[true, true, false, true, true]));
        assert!(run(&[true, true, true, false, false]));
        assert!(!run(&[true, true, true, false, false, false]));
        assert!(run(&[true, true, true, false, false, true, false, false]));
    }

    #[test]
    fn permits_stop_at_the_core_count() {
        // Other tests may hold permits or run work-groups: count what this test can take.
        let mut held = Vec::new();
        while let Some(p) = SpinPermit::try_new() {
            held.push(p);
            assert!(held.len() as u32 <= host_cores());
        }
        assert!(SpinPermit::try_new().is_none());
        held.pop();
        // One given back is available again unless another test took it meanwhile.
        let _ = SpinPermit::try_new();
    }
}
