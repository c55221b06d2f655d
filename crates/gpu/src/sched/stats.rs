//! Scheduler and queue event counters for diagnosing hand-offs (`SOFTHSA_SCHED_STATS=1`: the
//! totals go to stderr when the process exits).
//!
//! Off by default, and then a count costs one relaxed load of a flag. On, each thread counts in
//! a block of its own (no shared cache line, no read-modify-write), summed at exit, so the
//! counting hardly changes what it measures.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, Once};

/// What is counted.
#[derive(Clone, Copy, Debug)]
#[repr(usize)]
pub enum Event {
    /// A submitter ran its dispatch inline.
    InlineRun,
    /// A submitter wanted to run inline but found no token (or higher-priority work).
    InlineRefused,
    /// A dispatch was published to the workers without an inline attempt.
    PublishedToWorkers,
    /// A worker picked a job and ran it.
    WorkerRun,
    /// A worker picked a job but found no token.
    WorkerNoToken,
    /// An idle worker's spin saw new work.
    WorkerSpinHit,
    /// An idle worker slept on the futex.
    WorkerSleep,
    /// A FUTEX_WAKE of idle workers (publishing work).
    WorkerWake,
    /// A FUTEX_WAKE of idle workers (a token given back).
    WorkerWakeToken,
    /// Work-groups run inline / by workers.
    WgInline,
    WgWorker,
    /// A packet processor found its next packet at once / after spinning / after sleeping.
    PacketReady,
    PacketSpun,
    PacketSlept,
    /// A processor waited for dispatches to end (a barrier bit): the wait ended while spinning
    /// / after sleeping.
    BarrierSpun,
    BarrierSlept,
    /// Kernel dispatches launched by the processor / by the end of a dispatch.
    LaunchProcessor,
    LaunchContinued,
    /// A host signal wait that spun to the end / slept.
    HostWaitSpun,
    HostWaitSlept,
    /// Nanoseconds processors spent waiting for dispatches to end (barrier bits).
    BarrierWaitNs,
    /// Nanoseconds of inline runs / worker runs of jobs.
    InlineNs,
    WorkerNs,
    /// A launch kept for the launching thread to run next / run so.
    KeptForThread,
    Continued,
    /// A streaming packet processor moved to its next CPU / was unpinned (`queue/rotation.rs`
    /// in the runtime).
    RotateMove,
    RotateUnpin,
}

const EVENTS: usize = Event::RotateUnpin as usize + 1;
const NAMES: [&str; EVENTS] = [
    "inline_run",
    "inline_refused",
    "published_to_workers",
    "worker_run",
    "worker_no_token",
    "worker_spin_hit",
    "worker_sleep",
    "worker_wake",
    "worker_wake_token",
    "wg_inline",
    "wg_worker",
    "packet_ready",
    "packet_spun",
    "packet_slept",
    "barrier_spun",
    "barrier_slept",
    "launch_processor",
    "launch_continued",
    "host_wait_spun",
    "host_wait_slept",
    "barrier_wait_ns",
    "inline_ns",
    "worker_ns",
    "kept_for_thread",
    "continued",
    "rotate_move",
    "rotate_unpin",
];

static ON: AtomicBool = AtomicBool::new(false);
/// One thread's counts: its name, the CPUs it ran inline runs on (a mask of the first 64),
/// and the events.
struct Block {
    thread: String,
    cpus: AtomicU64,
    /// Times the thread was preempted (involuntary context switches), read now and then.
    preempted: AtomicU64,
    events: [AtomicU64; EVENTS],
}

static BLOCKS: Mutex<Vec<&'static Block>> = Mutex::new(Vec::new());

thread_local! {
    static MINE: Cell<Option<&'static Block>> = const { Cell::new(None) };
}

/// Turns counting on when `SOFTHSA_SCHED_STATS` is set (not "0"); the totals print at exit.
pub fn init_from_env() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if std::env::var("SOFTHSA_SCHED_STATS").is_ok_and(|v| !v.is_empty() && v != "0") {
            ON.store(true, Ordering::Relaxed);
            // SAFETY: registers a plain `extern "C"` function taking nothing.
            unsafe { libc::atexit(print_at_exit) };
        }
    });
}

/// Whether counting is on.
#[inline]
pub fn enabled() -> bool {
    ON.load(Ordering::Relaxed)
}

/// Counts one `e`.
#[inline]
pub fn count(e: Event) {
    add(e, 1);
}

/// Adds `n` to `e`.
#[inline]
pub fn add(e: Event, n: u64) {
    if enabled() {
        add_slow(e, n);
    }
}

#[cold]
fn add_slow(e: Event, n: u64) {
    let _ = MINE.try_with(|m| {
        let block = m.get().unwrap_or_else(|| {
            let b: &'static Block = Box::leak(Box::new(Block {
                thread: std::thread::current().name().unwrap_or("?").to_string(),
                cpus: AtomicU64::new(0),
                preempted: AtomicU64::new(0),
                events: std::array::from_fn(|_| AtomicU64::new(0)),
            }));
            BLOCKS.lock().unwrap_or_else(|e| e.into_inner()).push(b);
            m.set(Some(b));
            b
        });
        let c = &block.events[e as usize];
        // Only this thread writes its block.
        c.store(c.load(Ordering::Relaxed) + n, Ordering::Relaxed);
        if matches!(e, Event::InlineRun) {
            // SAFETY: sched_getcpu takes nothing and returns a CPU number or -1.
            let cpu = unsafe { libc::sched_getcpu() };
            if (0..64).contains(&cpu) {
                let m = block.cpus.load(Ordering::Relaxed) | 1 << cpu;
                block.cpus.store(m, Ordering::Relaxed);
            }
            if c.load(Ordering::Relaxed) % 64 == 1 {
                // SAFETY: getrusage writes the zeroed struct it is given.
                let mut u: libc::rusage = unsafe { std::mem::zeroed() };
                // SAFETY: as above; RUSAGE_THREAD reports the calling thread.
                if unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut u) } == 0 {
                    block.preempted.store(u.ru_nivcsw as u64, Ordering::Relaxed);
                }
            }
        }
    });
}

/// The totals over every thread, as `name=value` pairs.
pub fn totals() -> Vec<(&'static str, u64)> {
    let blocks = BLOCKS.lock().unwrap_or_else(|e| e.into_inner());
    (0..EVENTS)
        .map(|i| {
            let sum = blocks
                .iter()
                .map(|b| b.events[i].load(Ordering::Relaxed))
                .sum();
            (NAMES[i], sum)
        })
        .collect()
}

extern "C" fn print_at_exit() {
    let line: Vec<String> = totals()
        .into_iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect();
    eprintln!("softhsa sched stats: {}", line.join(" "));
    // Per thread that ran dispatches inline or was refused (packet processors): how many,
    // how long, where, how often refused (its kernels then ran on workers) and moved.
    let blocks = BLOCKS.lock().unwrap_or_else(|e| e.into_inner());
    for b in blocks.iter() {
        let n = |e: Event| b.events[e as usize].load(Ordering::Relaxed);
        let runs = n(Event::InlineRun);
        if runs == 0 && n(Event::InlineRefused) == 0 {
            continue;
        }
        let ns = b.events[Event::InlineNs as usize].load(Ordering::Relaxed);
        let mask = b.cpus.load(Ordering::Relaxed);
        let cpus: Vec<String> = (0..64)
            .filter(|c| mask >> c & 1 != 0)
            .map(|c| c.to_string())
            .collect();
        eprintln!(
            "softhsa sched thread {}: inline_runs={runs} inline_us_each={:.1} cpus={} \
             preempted={} inline_refused={} rotate_moves={}",
            b.thread,
            ns as f64 / runs.max(1) as f64 / 1e3,
            cpus.join(","),
            b.preempted.load(Ordering::Relaxed),
            n(Event::InlineRefused),
            n(Event::RotateMove)
        );
    }
}
