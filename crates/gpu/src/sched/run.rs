//! Runners at work: taking a job's work-groups one after another, parking and resuming them,
//! and the submitter's side (publishing a job, running it inline, waiting for a blocking one).

use super::context::{Runner, Tally};
use super::job::Job;
use super::stats::{self, Event};
use super::{with_runner, Scheduler, Token};
use crate::trace::Tracer;
use crate::workgroup::{run_context, Outcome, Park};
use std::cell::Cell;
use std::sync::atomic::Ordering;

thread_local! {
    /// Whether this thread is inside [`run_job`] (the end of a dispatch it runs may launch the
    /// next one of the same queue).
    static IN_RUN: Cell<bool> = const { Cell::new(false) };
    /// A job launched by the end of a dispatch this thread ran, kept for this thread to run
    /// next (a "LIFO slot"): an in-order stream of small kernels then stays on one thread,
    /// with no hand-off, no wake-up and a warm cache, like a packet processor running them
    /// inline. Nobody else sees the job unless it has more than one work-group.
    static NEXT: Cell<Option<(&'static Job, u32)>> = const { Cell::new(None) };
}

thread_local! {
    /// This thread submits dispatches one after another and gives its token back itself
    /// ([`hold_tokens_between_runs`]).
    static STICKY: Cell<bool> = const { Cell::new(false) };
    /// The token of this thread's last inline run, kept for its next one.
    static HELD: std::cell::RefCell<Option<Token>> = const { std::cell::RefCell::new(None) };
}

/// For a thread that submits dispatches one after another and runs them inline (a packet
/// processor): the token of an inline run is kept for the next one instead of going back to
/// the scheduler's shared count after each dispatch (two contended atomics less per dispatch
/// when many queues run small kernels at once). The thread must call [`release_held_token`]
/// before it waits for anything.
pub fn hold_tokens_between_runs() {
    if std::env::var("SOFTHSA_STICKY").is_ok_and(|v| v == "0") {
        return;
    }
    STICKY.with(|s| s.set(true));
}

/// Gives back the token this thread kept from its last inline run, if any.
pub fn release_held_token() {
    let t = HELD.try_with(|h| h.borrow_mut().take()).ok().flatten();
    drop(t);
}

/// Marks the thread as inside [`run_job`] while it lives; put back when it ends, also by a
/// panic, which also hands a job kept for the thread to the workers (else nobody would run it).
struct InRun {
    sched: &'static Scheduler,
    outer: bool,
}

impl InRun {
    fn enter(sched: &'static Scheduler) -> InRun {
        InRun {
            sched,
            outer: IN_RUN.with(|f| f.replace(true)),
        }
    }
}

impl Drop for InRun {
    fn drop(&mut self) {
        let _ = IN_RUN.try_with(|f| f.set(self.outer));
        if std::thread::panicking() {
            self.sched.hand_next_to_workers();
        }
    }
}

/// Takes the job kept for this thread to run next, if any.
fn take_next() -> Option<(&'static Job, u32)> {
    NEXT.try_with(Cell::take).ok().flatten()
}

/// How a runner came to run a job.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// A worker thread: stays while the job has work and nothing deserves it more.
    Worker,
    /// The submitter, running its own job without a hand-off: leaves as soon as a work-group
    /// parks (the workers take over) or the job has nothing left to start.
    Inline,
}

/// Sets the runner up for `job`: per-dispatch trace and memory cache.
fn prepare(r: &mut Runner, job: &Job) {
    let id = (job.slot, job.generation());
    if r.job == Some(id) {
        return;
    }
    r.job = Some(id);
    r.mem_cache = Default::default();
    r.wg_insts = 0;
    let d = job.data();
    r.tracer = d
        .shared
        .config
        .trace
        .as_ref()
        .map(|c| Tracer::new(c.clone(), &d.kernel().name));
}

impl Tally {
    fn flush(&mut self, job: &'static Job) {
        if self.done != 0 {
            job.wgs_done(self.done, self.waves, self.insts);
            *self = Tally::default();
        }
    }
}

/// Runs work-groups of `job` (the caller's reference, which this drops) until it has none to
/// give, a work-group parks (inline mode), or another job deserves this runner more.
pub(crate) fn run_job(s: &'static Scheduler, job: &'static Job, mode: Mode) {
    let t0 = stats::enabled().then(std::time::Instant::now);
    let _in_run = InRun::enter(s);
    job.runners.fetch_add(1, Ordering::Relaxed);
    let prio = job.data().priority;
    // The `ds_gws_*` instructions of this thread's waves use the job's device's resources.
    let _gws = crate::exec::gws::enter(&job.data().shared.gws);
    // Waves compute under the IEEE default whatever this thread inherited (`fpenv`); the
    // generated code relies on it.
    let _fp = crate::fpenv::DefaultFpEnv::enter();
    with_runner(|r| {
        prepare(r, job);
        let mut seen = s.epoch.load(Ordering::Relaxed);
        let mut pending = None;
        // Work-groups ended here and their statistics, added to the job in one go (when this
        // runner leaves the job or parks a work-group): the job completes when the last
        // runner's count arrives, after every runner's statistics.
        let mut tally = Tally::default();
        loop {
            if job.stop.load(Ordering::Acquire) {
                job.close();
                // Its claimed, unstarted work-groups never start: they count as finished.
                let left = std::mem::replace(&mut r.batch, 0..0);
                tally.done += left.end - left.start;
            }
            let Some(ctx) = pending.take().or_else(|| job.take(r)) else {
                break;
            };
            // What this loop would do after a work-group that ended, before it takes the next
            // fresh one of its batch: `run_context` asks, and goes on with that one itself.
            let mut next = |batch: &mut std::ops::Range<u64>| {
                if batch.is_empty()
                    || job.stop.load(Ordering::Acquire)
                    || !job.fresh_allowed(job.has_ready())
                    || (mode == Mode::Inline && job.data().client.yield_inline(job.data().tag))
                {
                    return None;
                }
                let now = s.epoch.load(Ordering::Relaxed);
                if now != seen {
                    if s.better_elsewhere(job.slot, prio) {
                        return None; // (the loop sees the new epoch and leaves)
                    }
                    seen = now;
                }
                batch.next()
            };
            let ended = tally.done;
            let outcome = run_context(s, job, ctx, r, mode == Mode::Inline, &mut tally, &mut next);
            stats::add(
                if mode == Mode::Inline {
                    Event::WgInline
                } else {
                    Event::WgWorker
                },
                tally.done - ended,
            );
            match outcome {
                Outcome::Done(ctx) => r.give_back(ctx),
                Outcome::Fault(ctx, f) => {
                    job.record_fault(ctx.index, f);
                    r.give_back(ctx);
                    job.close();
                    tally.done += 1;
                }
                Outcome::Park(ctx, Park::Gws { epoch }) => {
                    tally.flush(job);
                    let shared = &job.data().shared;
                    if let Some(c) = shared.gws_waiters.block(&shared.gws, epoch, job, ctx) {
                        pending = Some(c); // released meanwhile: go on with it
                        continue;
                    }
                    if mode == Mode::Inline {
                        break;
                    }
                }
                Outcome::Park(ctx, _) => {
                    tally.flush(job);
                    job.make_ready(ctx);
                    if mode == Mode::Inline {
                        break;
                    }
                }
            }
            if mode == Mode::Inline
                && (job.startable() || !r.batch.is_empty())
                && job.data().client.yield_inline(job.data().tag)
            {
                break; // the submitter has its own work: the workers take the rest
            }
            let now = s.epoch.load(Ordering::Relaxed);
            if now != seen {
                seen = now;
                if s.better_elsewhere(job.slot, prio) {
                    break;
                }
            }
        }
        // Claimed work-groups it did not start go to the job's other runners.
        tally.done += job.spill(std::mem::replace(&mut r.batch, 0..0));
        tally.flush(job);
    });
    job.runners.fetch_sub(1, Ordering::Relaxed);
    job.release();
    if let Some(t0) = t0 {
        let e = if mode == Mode::Inline {
            Event::InlineNs
        } else {
            Event::WorkerNs
        };
        stats::add(e, t0.elapsed().as_nanos() as u64);
    }
}

impl Scheduler {
    /// Runs `job` (the caller's reference) as a worker, then the jobs the ends of its
    /// dispatches launched for this thread ([`NEXT`]), one after another (a loop, not a
    /// recursion: a stream of a thousand kernels goes on at a constant depth).
    pub(crate) fn run_as_worker(&'static self, job: &'static Job) {
        stats::count(Event::WorkerRun);
        run_job(self, job, Mode::Worker);
        while let Some((next, gen)) = take_next() {
            if next.acquire(Some(gen)) {
                stats::count(Event::Continued);
                run_job(self, next, Mode::Worker);
            }
        }
    }

    /// Keeps a job just launched (generation `gen`, priority `prio`) for this thread to run
    /// next, when it is inside [`run_job`] (so it soon runs it), holds no such job yet, and no
    /// job of higher priority, or of the same priority without a runner, waits (those get this
    /// thread first: the job goes to the workers). Returns whether it was kept.
    fn keep_for_this_thread(&self, job: &'static Job, gen: u32, prio: usize) -> bool {
        static OFF: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        if *OFF.get_or_init(|| std::env::var("SOFTHSA_LIFO").is_ok_and(|v| v == "0")) {
            return false;
        }
        if !IN_RUN.with(Cell::get) || self.better_elsewhere_than_new(prio) {
            return false;
        }
        NEXT.with(|n| match n.get() {
            None => {
                n.set(Some((job, gen)));
                true
            }
            Some(_) => false,
        })
    }

    /// The token this thread kept, if it is one of this scheduler's (another's goes back).
    fn take_held_token(&'static self) -> Option<Token> {
        let t = HELD.try_with(|h| h.borrow_mut().take()).ok().flatten()?;
        if std::ptr::eq(t.0, self) {
            Some(t)
        } else {
            None
        }
    }

    /// Hands a job kept for this thread to the workers (the thread cannot run it next).
    fn hand_next_to_workers(&'static self) {
        if let Some((job, gen)) = take_next() {
            if job.acquire(Some(gen)) {
                self.mark_runnable(job, 1);
                job.release();
            }
        }
    }

    /// Publishes a job the caller has just activated (generation `gen`, `total` work-groups,
    /// priority `prio`). With `inline`, the caller then runs it itself while it may: a token is
    /// free and nothing of higher priority waits. A single-work-group job run inline is not
    /// shown to the workers at all unless it parks.
    pub(crate) fn publish(&'static self, job: &'static Job, gen: u32, total: u64, inline: bool) {
        let prio = job.data().priority;
        if !inline && self.has_workers() && self.keep_for_this_thread(job, gen, prio) {
            stats::count(Event::KeptForThread);
            if total > 1 {
                self.mark_runnable(job, total.min(u64::from(self.workers)) as u32);
            }
            return;
        }
        let mut shown = false;
        if !inline || total > 1 || !self.has_workers() {
            self.mark_runnable(job, total.min(u64::from(self.workers)) as u32);
            shown = true;
        }
        if !inline {
            stats::count(Event::PublishedToWorkers);
            return;
        }
        if !self.has_workers() {
            // No worker threads (they could not be started): the submitter does everything.
            while job.acquire(Some(gen)) {
                run_job(self, job, Mode::Worker);
            }
            self.hand_next_to_workers();
            return;
        }
        let token = if self.higher_priority_waiting(prio) {
            release_held_token();
            None
        } else {
            self.take_held_token().or_else(|| self.try_token())
        };
        match token {
            Some(token) => {
                stats::count(Event::InlineRun);
                if job.acquire(Some(gen)) {
                    run_job(self, job, Mode::Inline);
                }
                // The submitter has its own work to go on with.
                self.hand_next_to_workers();
                if STICKY.with(Cell::get) {
                    HELD.with(|h| *h.borrow_mut() = Some(token));
                }
            }
            None if !shown => {
                stats::count(Event::InlineRefused);
                self.mark_runnable(job, 1)
            }
            None => stats::count(Event::InlineRefused),
        }
    }

    /// Whether the job of generation `gen` in `job`'s slot is still in flight.
    pub(crate) fn in_flight(&self, job: &Job, gen: u32) -> bool {
        if job.acquire(Some(gen)) {
            job.release();
            true
        } else {
            false
        }
    }

    /// Stops the job of generation `gen` (if still in flight): no more work-groups start, the
    /// running ones stop soon, and its client hears of it as a cancelled dispatch.
    pub(crate) fn cancel(&'static self, job: &'static Job, gen: u32) {
        if job.acquire(Some(gen)) {
            job.stop.store(true, Ordering::Release);
            job.close();
            job.release();
        }
    }
}
