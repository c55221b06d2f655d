//! The work-group scheduler: one per worker count, shared by every device and queue of the
//! process.
//!
//! - Jobs (dispatches in flight) sit in a fixed table; bitmaps say which slots are free and which
//!   jobs have work for a runner, one bitmap per queue priority.
//! - Runners are the worker threads plus threads that run a job inline (a packet processor
//!   running the work-group of a small dispatch itself: no hand-off, no wake-up). At most
//!   `workers` runners execute work-groups at once (they hold a token), so inline runners never
//!   oversubscribe the host.
//! - A runner claims fresh work-groups of its job in batches (`job`'s `batch`: one atomic per
//!   batch, sized to tens of microseconds of work) and takes them until the job has none left or another job
//!   deserves the runner more: one of higher priority, or one of the same priority that no
//!   runner serves. It checks this only when the table changed (one relaxed load of an epoch
//!   per work-group) and at time-slice ends.
//! - A work-group that waits is parked (`context`): at `s_sleep` when something else could
//!   run, at the end of a time slice when another job is starved or of higher priority, at a
//!   global wave sync until it is released (`gws`). That is the forward-progress guarantee
//!   grid-wide syncs and spin locks need, whatever the number of workers.
//! - Idle workers spin briefly while a host core is spare ([`load`]), then sleep on a futex;
//!   publishing work wakes them only when one sleeps.

pub(crate) mod context;
pub(crate) mod gws;
pub(crate) mod job;
pub mod load;
mod run;
pub mod stats;

pub use run::{hold_tokens_between_runs, release_held_token};

use stats::Event;

use context::Runner;
use job::{Job, PRIORITIES};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

pub use job::PRIORITIES as PRIORITY_LEVELS;

/// Jobs in flight at once (per scheduler); a submitter waits for a free slot beyond that.
pub(crate) const MAX_JOBS: usize = 128;
const WORDS: usize = MAX_JOBS / 64;

/// How long an idle worker spins (while a core is spare) before it sleeps.
const IDLE_SPIN: Duration = Duration::from_micros(50);
/// Longest sleep of an idle worker (a lost wake-up costs at most this).
const IDLE_SLEEP: Duration = Duration::from_millis(100);

thread_local! {
    /// The reusable state of the work-groups run on this thread.
    static RUNNER: RefCell<Runner> = RefCell::new(Runner::new());
}

/// Runs `f` with this thread's runner (a fresh one should the thread's be in use).
pub(crate) fn with_runner<R>(f: impl FnOnce(&mut Runner) -> R) -> R {
    RUNNER.with(|cell| match cell.try_borrow_mut() {
        Ok(mut r) => f(&mut r),
        Err(_) => f(&mut Runner::new()),
    })
}

/// The scheduler of one worker count.
pub struct Scheduler {
    /// Runners that may execute work-groups at once.
    workers: u32,
    jobs: Box<[Job]>,
    runnable: [[AtomicU64; WORDS]; PRIORITIES],
    /// Bumped whenever a job gains work; idle workers sleep on it (a futex word).
    epoch: AtomicU32,
    sleepers: AtomicU32,
    tokens: AtomicU32,
    /// Worker threads that started.
    threads: AtomicU32,
}

/// The scheduler for `workers` runners (created, with its threads, on first use).
pub(crate) fn scheduler(workers: usize) -> &'static Scheduler {
    static ALL: OnceLock<Mutex<HashMap<usize, &'static Scheduler>>> = OnceLock::new();
    let mut all = ALL
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(s) = all.get(&workers) {
        return s;
    }
    stats::init_from_env();
    let s: &'static Scheduler = Box::leak(Box::new(Scheduler::new(workers)));
    for i in 0..workers {
        let spawned = std::thread::Builder::new()
            .name(format!("softhsa-gpu-{i}"))
            .spawn(move || s.worker_main(i));
        if spawned.is_ok() {
            s.threads.fetch_add(1, Ordering::Relaxed);
        }
    }
    all.insert(workers, s);
    s
}

impl Scheduler {
    fn new(workers: usize) -> Scheduler {
        Scheduler {
            workers: workers.clamp(1, u32::MAX as usize) as u32,
            jobs: (0..MAX_JOBS as u32).map(Job::new).collect(),
            runnable: std::array::from_fn(|_| std::array::from_fn(|_| AtomicU64::new(0))),
            epoch: AtomicU32::new(0),
            sleepers: AtomicU32::new(0),
            tokens: AtomicU32::new(0),
            threads: AtomicU32::new(0),
        }
    }

    /// Runners that may execute work-groups at once.
    pub(crate) fn workers(&self) -> u32 {
        self.workers
    }

    /// Whether worker threads exist (else submitters run their jobs to the end themselves).
    pub(crate) fn has_workers(&self) -> bool {
        self.threads.load(Ordering::Relaxed) > 0
    }

    /// Claims a free job slot, waiting for one when all are in flight. A thread tries the slot
    /// it used last first (free again once that job ended), so submitters on different threads
    /// (one packet processor per queue) each keep to a slot of their own instead of all
    /// competing for the lowest free one through one shared bitmap.
    pub(crate) fn claim(&'static self) -> (&'static Job, u32) {
        thread_local! {
            static HINT: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
        }
        static SPREAD: AtomicU32 = AtomicU32::new(0);
        let start = HINT.with(|h| {
            h.get()
                .unwrap_or_else(|| (SPREAD.fetch_add(1, Ordering::Relaxed) as usize * 8) % MAX_JOBS)
        });
        let mut spins = 0u32;
        loop {
            for i in 0..MAX_JOBS {
                let idx = (start + i) % MAX_JOBS;
                if let Some(gen) = self.jobs[idx].claim() {
                    HINT.with(|h| h.set(Some(idx)));
                    return (&self.jobs[idx], gen);
                }
            }
            spins += 1;
            if spins < 64 {
                std::hint::spin_loop();
            } else {
                std::thread::sleep(Duration::from_micros(50));
            }
        }
    }

    /// Says that `job` has work for runners; wakes up to `n` sleeping workers.
    pub(crate) fn mark_runnable(&self, job: &Job, n: u32) {
        let p = job.data().priority.min(PRIORITIES - 1);
        let (w, bit) = (job.slot as usize / 64, 1u64 << (job.slot % 64));
        job.shown.store(true, Ordering::Release);
        self.runnable[p][w].fetch_or(bit, Ordering::SeqCst);
        self.epoch.fetch_add(1, Ordering::SeqCst);
        if self.sleepers.load(Ordering::SeqCst) > 0 {
            stats::count(Event::WorkerWake);
            futex_wake(&self.epoch, n.max(1));
        }
    }

    /// Clears `job`'s runnable bit (it finished). A job never shown to the workers (run inline
    /// to its end) has none: the bitmaps every runner reads are not written for it.
    pub(crate) fn clear_runnable(&self, job: &Job) {
        if !job.shown.load(Ordering::Acquire) {
            return;
        }
        let (w, bit) = (job.slot as usize / 64, 1u64 << (job.slot % 64));
        for p in &self.runnable {
            p[w].fetch_and(!bit, Ordering::SeqCst);
        }
    }

    /// Clears the runnable bit of `job` (held by the caller) when it has no work, re-checking
    /// afterwards so that work published meanwhile is not lost. Returns whether it has work.
    fn settle(&self, job: &Job) -> bool {
        if job.has_work() {
            return true;
        }
        let p = job.data().priority.min(PRIORITIES - 1);
        let (w, bit) = (job.slot as usize / 64, 1u64 << (job.slot % 64));
        self.runnable[p][w].fetch_and(!bit, Ordering::SeqCst);
        if job.has_work() {
            self.runnable[p][w].fetch_or(bit, Ordering::SeqCst);
            return true;
        }
        false
    }

    /// The runnable bits of priority `p` as one mask.
    fn mask(&self, p: usize) -> u128 {
        let lo = self.runnable[p][0].load(Ordering::SeqCst);
        let hi = self.runnable[p][1].load(Ordering::SeqCst);
        u128::from(lo) | u128::from(hi) << 64
    }

    /// Takes a reference on the most deserving job with work: highest priority first, then
    /// round-robin from `*rr` among equals.
    fn pick(&'static self, rr: &mut usize) -> Option<&'static Job> {
        for p in (0..PRIORITIES).rev() {
            let mut m = self.mask(p);
            if m == 0 {
                continue;
            }
            let start = (*rr % MAX_JOBS) as u32;
            m = m.rotate_right(start);
            while m != 0 {
                let k = m.trailing_zeros();
                m &= m - 1;
                let idx = ((k + start) as usize) % MAX_JOBS;
                let job: &'static Job = self.job(idx);
                if !job.acquire(None) {
                    continue;
                }
                if self.settle(job) {
                    *rr = idx + 1;
                    return Some(job);
                }
                job.release();
            }
        }
        None
    }

    fn job(&'static self, idx: usize) -> &'static Job {
        &self.jobs[idx]
    }

    /// The job in slot `idx`, if there is such a slot.
    pub(crate) fn job_at(&'static self, idx: usize) -> Option<&'static Job> {
        self.jobs.get(idx)
    }

    /// Whether a job other than `me` (of priority `prio`) deserves a runner more than `me`:
    /// one of higher priority, or of the same priority that no runner serves.
    pub(crate) fn better_elsewhere(&self, me: u32, prio: usize) -> bool {
        self.better_among(!(1u128 << me), prio)
    }

    /// Whether a runnable job deserves a runner more than a new job of priority `prio`.
    fn better_elsewhere_than_new(&self, prio: usize) -> bool {
        self.better_among(!0, prio)
    }

    /// [`Scheduler::better_elsewhere`] over the jobs of the slots in `among`.
    fn better_among(&self, among: u128, prio: usize) -> bool {
        for p in (prio..PRIORITIES).rev() {
            let mut m = self.mask(p);
            m &= among;
            if m == 0 {
                continue;
            }
            if p > prio {
                return true;
            }
            while m != 0 {
                let k = m.trailing_zeros() as usize;
                m &= m - 1;
                if self.jobs[k].runners.load(Ordering::Relaxed) == 0 {
                    return true;
                }
            }
        }
        false
    }

    /// Whether any job other than `me` has work.
    pub(crate) fn work_elsewhere(&self, me: u32) -> bool {
        (0..PRIORITIES).any(|p| self.mask(p) & !(1u128 << me) != 0)
    }

    /// A token to execute work-groups, if fewer than `workers` runners hold one.
    pub(crate) fn try_token(&'static self) -> Option<Token> {
        let mut t = self.tokens.load(Ordering::Relaxed);
        loop {
            if t >= self.workers {
                return None;
            }
            match self
                .tokens
                .compare_exchange_weak(t, t + 1, Ordering::Acquire, Ordering::Relaxed)
            {
                Ok(_) => return Some(Token(self, load::Running::enter())),
                Err(now) => t = now,
            }
        }
    }

    /// Whether work of a priority above `prio` waits for runners.
    pub(crate) fn higher_priority_waiting(&self, prio: usize) -> bool {
        (prio + 1..PRIORITIES).any(|p| self.mask(p) != 0)
    }

    fn any_runnable(&self) -> bool {
        (0..PRIORITIES).any(|p| self.mask(p) != 0)
    }

    fn worker_main(&'static self, id: usize) {
        let mut rr = id * 7;
        loop {
            let seen = self.epoch.load(Ordering::SeqCst);
            if let Some(job) = self.pick(&mut rr) {
                match self.try_token() {
                    Some(token) => {
                        self.run_as_worker(job);
                        drop(token);
                    }
                    None => {
                        stats::count(Event::WorkerNoToken);
                        job.release();
                        self.idle(seen);
                    }
                }
                continue;
            }
            self.idle(seen);
        }
    }

    /// Waits for the epoch to move past `seen`: spins while a core is spare, then sleeps.
    fn idle(&self, seen: u32) {
        if let Some(permit) = load::SpinPermit::try_new() {
            if permit.spin_until(IDLE_SPIN, || self.epoch.load(Ordering::Relaxed) != seen) {
                stats::count(Event::WorkerSpinHit);
                return;
            }
        }
        self.sleepers.fetch_add(1, Ordering::SeqCst);
        if self.epoch.load(Ordering::SeqCst) == seen && !self.any_runnable_for_token() {
            stats::count(Event::WorkerSleep);
            futex_wait(&self.epoch, seen, IDLE_SLEEP);
        }
        self.sleepers.fetch_sub(1, Ordering::SeqCst);
    }

    /// Runnable work that a token could be had for (else waking is pointless).
    fn any_runnable_for_token(&self) -> bool {
        self.any_runnable() && self.tokens.load(Ordering::Relaxed) < self.workers
    }

    /// A runner gave its token back: a sleeping worker may take the work it left.
    fn token_returned(&self) {
        if self.sleepers.load(Ordering::SeqCst) > 0 && self.any_runnable() {
            self.epoch.fetch_add(1, Ordering::SeqCst);
            stats::count(Event::WorkerWakeToken);
            futex_wake(&self.epoch, 1);
        }
    }
}

/// Permission to execute work-groups (one of the scheduler's `workers`).
pub(crate) struct Token(&'static Scheduler, #[allow(dead_code)] load::Running);

impl Drop for Token {
    fn drop(&mut self) {
        self.0.tokens.fetch_sub(1, Ordering::Release);
        self.0.token_returned();
    }
}

fn futex_wait(word: &AtomicU32, seen: u32, timeout: Duration) {
    let ts = libc::timespec {
        tv_sec: timeout.as_secs() as libc::time_t,
        tv_nsec: timeout.subsec_nanos() as libc::c_long,
    };
    // SAFETY: FUTEX_WAIT reads the 4-byte aligned atomic (part of a leaked scheduler) and
    // compares it with `seen`; `ts` lives until the call returns.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG,
            seen,
            &ts as *const libc::timespec,
        );
    }
}

fn futex_wake(word: &AtomicU32, n: u32) {
    // SAFETY: FUTEX_WAKE on a valid, 4-byte aligned atomic; writes no memory.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG,
            n.min(i32::MAX as u32) as i32,
        );
    }
}
