//! A dispatch in flight on the scheduler: its launch data, the work-groups still to start, the
//! parked ones, faults and statistics.
//!
//! Jobs live in a fixed table owned by the (process-lifetime) scheduler and are reused, so a
//! dispatch allocates nothing. One control word guards a job's life: generation (32 bits),
//! state (FREE, SETUP, ACTIVE, FINISHED) and a reference count (24 bits). A thread may use an
//! ACTIVE job only after taking a reference with a compare-and-swap on that word; the launch
//! data is written while the job is in SETUP (by its submitter alone) and only read while a
//! reference is held. The job holds one reference of its own until its last work-group
//! finished; whoever drops the last reference of a FINISHED job frees it.

use super::context::{Runner, WgContext};
use crate::device::{DeviceShared, DispatchClient, DispatchStats};
use crate::fault::{Fault, FaultKind};
use crate::grid::Grid;
use crate::program::Kernel;
use std::cell::UnsafeCell;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

mod batch;

const REFS: u64 = (1 << 24) - 1;
const STATE_SHIFT: u32 = 24;
const GEN_SHIFT: u32 = 32;
const FREE: u64 = 0;
const SETUP: u64 = 1;
const ACTIVE: u64 = 2;
const FINISHED: u64 = 3;

fn state(c: u64) -> u64 {
    c >> STATE_SHIFT & 0xff
}
fn generation(c: u64) -> u32 {
    (c >> GEN_SHIFT) as u32
}
fn word(gen: u32, st: u64, refs: u64) -> u64 {
    u64::from(gen) << GEN_SHIFT | st << STATE_SHIFT | refs
}

/// Queue priorities (`hsa_amd_queue_priority_t`): LOW, NORMAL, HIGH.
pub const PRIORITIES: usize = 3;

/// What a job runs: fixed from launch to completion.
pub(crate) struct JobData {
    /// The kernel; valid until the job finished (`kernel_keep` holds it for asynchronous
    /// launches; blocking dispatches outlive their job).
    pub kernel: *const Kernel,
    #[allow(dead_code)] // owned only to keep the kernel alive
    pub kernel_keep: Option<Arc<Kernel>>,
    pub client: Arc<dyn DispatchClient>,
    pub shared: Arc<DeviceShared>,
    pub grid: Grid,
    pub total: u64,
    pub lds_size: u32,
    pub private_size: u32,
    pub kernarg: u64,
    pub packet: u64,
    pub queue: u64,
    pub dispatch_id: u64,
    pub priority: usize,
    pub tag: u64,
    pub start: Instant,
    /// Waves that may sit parked before fresh work-groups stop starting (the device's wave
    /// slots: a spinning dispatch is as resident as on hardware, and no more).
    pub parked_cap: u32,
}

impl JobData {
    pub fn kernel(&self) -> &Kernel {
        // SAFETY: the submitter keeps the kernel alive until the job finished (an owned `Arc`
        // for asynchronous launches, the blocking caller's borrow otherwise), and job data is
        // only read while the job is unfinished.
        unsafe { &*self.kernel }
    }
}

/// A counter on a cache line of its own: every runner of a job takes work-group indices from
/// it, which must not invalidate the line the launch data is read from.
#[repr(align(64))]
struct Hot(AtomicU64);

/// One slot of the job table.
pub(crate) struct Job {
    pub slot: u32,
    ctl: AtomicU64,
    data: UnsafeCell<Option<JobData>>,
    /// A fault or cancellation: no more work-groups start; running ones stop soon.
    pub stop: AtomicBool,
    next: Hot,
    /// Claimed indices runners handed back ([`batch`]), and how many.
    spill: Mutex<batch::Spill>,
    spilled: AtomicU64,
    finished_wgs: AtomicU64,
    ready: Mutex<VecDeque<Box<WgContext>>>,
    ready_count: AtomicU32,
    parked_waves: AtomicU32,
    /// Threads running this job's work-groups now.
    pub runners: AtomicU32,
    /// It was marked runnable at least once (so it may have a runnable bit to clear). Written
    /// by the thread marking it, before the bit; read by the one completing it.
    pub shown: AtomicBool,
    fault: Mutex<Option<(u64, Fault)>>,
    /// A fault was recorded (so the end of a faultless job takes no lock).
    faulted: AtomicBool,
    waves: AtomicU64,
    insts: AtomicU64,
}

// SAFETY: `data` is written only in the SETUP state, by the one thread that claimed the slot,
// and read only by threads holding a reference taken after the Release store that made the job
// ACTIVE (references cannot be taken in SETUP). Everything else is atomic or locked.
unsafe impl Sync for Job {}

impl Job {
    pub fn new(slot: u32) -> Job {
        Job {
            slot,
            ctl: AtomicU64::new(0),
            data: UnsafeCell::new(None),
            stop: AtomicBool::new(false),
            next: Hot(AtomicU64::new(0)),
            spill: Mutex::default(),
            spilled: AtomicU64::new(0),
            finished_wgs: AtomicU64::new(0),
            ready: Mutex::new(VecDeque::new()),
            ready_count: AtomicU32::new(0),
            parked_waves: AtomicU32::new(0),
            runners: AtomicU32::new(0),
            shown: AtomicBool::new(false),
            fault: Mutex::new(None),
            faulted: AtomicBool::new(false),
            waves: AtomicU64::new(0),
            insts: AtomicU64::new(0),
        }
    }

    /// Claims a FREE slot for setup; its new generation, or `None`.
    pub fn claim(&self) -> Option<u32> {
        let c = self.ctl.load(Ordering::Acquire);
        if state(c) != FREE {
            return None;
        }
        let gen = generation(c).wrapping_add(1);
        self.ctl
            .compare_exchange(c, word(gen, SETUP, 0), Ordering::Acquire, Ordering::Relaxed)
            .ok()
            .map(|_| gen)
    }

    /// Fills a claimed job and makes it ACTIVE (holding its own reference).
    pub fn activate(&self, gen: u32, d: JobData) {
        self.stop.store(false, Ordering::Relaxed);
        self.shown.store(false, Ordering::Relaxed);
        self.faulted.store(false, Ordering::Relaxed);
        self.next.0.store(0, Ordering::Relaxed);
        self.reset_spill();
        self.finished_wgs.store(0, Ordering::Relaxed);
        self.ready_count.store(0, Ordering::Relaxed);
        self.parked_waves.store(0, Ordering::Relaxed);
        self.waves.store(0, Ordering::Relaxed);
        self.insts.store(0, Ordering::Relaxed);
        // SAFETY: the job is in SETUP, claimed by this thread: nobody else reads `data`.
        unsafe { *self.data.get() = Some(d) };
        self.ctl.store(word(gen, ACTIVE, 1), Ordering::Release);
    }

    /// Takes a reference if the job is ACTIVE (and of generation `gen`, when given).
    pub fn acquire(&self, gen: Option<u32>) -> bool {
        let mut c = self.ctl.load(Ordering::Acquire);
        loop {
            if state(c) != ACTIVE || gen.is_some_and(|g| g != generation(c)) || c & REFS == REFS {
                return false;
            }
            match self
                .ctl
                .compare_exchange_weak(c, c + 1, Ordering::Acquire, Ordering::Acquire)
            {
                Ok(_) => return true,
                Err(now) => c = now,
            }
        }
    }

    /// Drops a reference; the last one of a FINISHED job frees it.
    pub fn release(&self) {
        let prev = self.ctl.fetch_sub(1, Ordering::AcqRel);
        if state(prev) == FINISHED && prev & REFS == 1 {
            // Nobody can take a reference any more: drop the launch data (kernel and client
            // references), then hand the slot back (`Scheduler::claim` looks for FREE).
            // SAFETY: FINISHED with no references: this thread is the only one here.
            drop(unsafe { (*self.data.get()).take() });
            self.ctl
                .store(word(generation(prev), FREE, 0), Ordering::Release);
        }
    }

    pub fn generation(&self) -> u32 {
        generation(self.ctl.load(Ordering::Relaxed))
    }

    /// The launch data (the caller holds a reference).
    pub fn data(&self) -> &JobData {
        // SAFETY: callers hold a reference, so the job is ACTIVE or FINISHED and `data` was
        // published by the Release store of `activate` (paired with `acquire`'s Acquire).
        match unsafe { &*self.data.get() } {
            Some(d) => d,
            None => unreachable!("job data read without a reference"),
        }
    }

    /// Whether a runner could take something now.
    pub fn has_work(&self) -> bool {
        self.ready_count.load(Ordering::SeqCst) > 0 || self.startable()
    }

    /// Whether work-groups nobody claimed remain (unclaimed or handed back; a runner also
    /// looks at its own batch).
    pub fn startable(&self) -> bool {
        self.next.0.load(Ordering::Relaxed) < self.data().total
            || self.spilled.load(Ordering::SeqCst) > 0
    }

    /// Whether started work-groups wait in the ready list.
    pub fn has_ready(&self) -> bool {
        self.ready_count.load(Ordering::Relaxed) > 0
    }

    /// Whether a fresh work-group may start (`ready`: parked ones wait in the ready list):
    /// while the parked ones stay under the cap.
    pub fn fresh_allowed(&self, ready: bool) -> bool {
        !ready || self.parked_waves.load(Ordering::Relaxed) < self.data().parked_cap
    }

    /// The next context to run: a fresh work-group while the parked ones stay under the cap,
    /// else the oldest parked one.
    pub fn take(&self, runner: &mut Runner) -> Option<Box<WgContext>> {
        let ready = self.ready_count.load(Ordering::Acquire) > 0;
        if self.fresh_allowed(ready) {
            if let Some(i) = self.fresh(runner) {
                let mut c = runner.take_context();
                c.index = i;
                c.nw = 0;
                return Some(c);
            }
        }
        if ready {
            let mut q = self.ready.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(c) = q.pop_front() {
                self.ready_count.fetch_sub(1, Ordering::Relaxed);
                self.parked_waves
                    .fetch_sub(c.wave_count(), Ordering::Relaxed);
                return Some(c);
            }
        }
        None
    }

    /// Puts a parked context at the back of the ready list and tells the workers.
    pub fn make_ready(&'static self, c: Box<WgContext>) {
        self.parked_waves
            .fetch_add(c.wave_count(), Ordering::Relaxed);
        self.ready
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push_back(c);
        self.ready_count.fetch_add(1, Ordering::SeqCst);
        let d = self.data();
        d.shared.sched.mark_runnable(self, 1);
    }

    /// Records a fault of work-group `index` (the lowest index's is reported) and stops the job.
    pub fn record_fault(&self, index: u64, f: Fault) {
        let mut g = self.fault.lock().unwrap_or_else(|e| e.into_inner());
        if g.as_ref().is_none_or(|(j, _)| index < *j) {
            *g = Some((index, f));
        }
        self.faulted.store(true, Ordering::Release);
        drop(g);
        self.stop.store(true, Ordering::Release);
    }

    /// After a stop: no more work-groups start (they count as finished), parked ones waiting at
    /// a global wave sync come back to be finished. May complete the job.
    pub fn close(&'static self) {
        let d = self.data();
        let old = self.next.0.swap(d.total, Ordering::AcqRel);
        d.shared.gws_waiters.release_job(self);
        // Unclaimed and handed-back indices never start (those in runners' batches are
        // counted by their runners).
        let n = d.total.saturating_sub(old) + self.close_spill();
        if n > 0 {
            self.add_finished(n);
        }
    }

    /// `n` work-groups ended (with `waves` waves that executed `insts` instructions); the
    /// last one completes the job.
    pub fn wgs_done(&'static self, n: u64, waves: u64, insts: u64) {
        if waves != 0 {
            self.waves.fetch_add(waves, Ordering::Relaxed);
            self.insts.fetch_add(insts, Ordering::Relaxed);
        }
        self.add_finished(n);
    }

    fn add_finished(&'static self, n: u64) {
        let d = self.data();
        if self.finished_wgs.fetch_add(n, Ordering::AcqRel) + n == d.total {
            self.complete();
        }
    }

    /// Every work-group finished: report to the client, then drop the job's own reference.
    fn complete(&'static self) {
        let d = self.data();
        let sched = d.shared.sched;
        sched.clear_runnable(self);
        let fault = if self.faulted.load(Ordering::Acquire) {
            self.fault
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
                .map(|(_, mut f)| {
                    // What the runtime knows of the address (an allocation it lies past...).
                    if let FaultKind::MemoryViolation { address, .. } = f.kind {
                        f.note = d.client.memory().describe(address).map(Into::into);
                    }
                    f
                })
        } else {
            None
        };
        let result = match fault {
            Some(f) => Err(f),
            None if self.stop.load(Ordering::Acquire) => Err(Fault::dispatch(
                &d.kernel().name,
                "the dispatch was cancelled",
            )),
            None => Ok(DispatchStats::of(
                d,
                self.waves.load(Ordering::Relaxed),
                self.insts.load(Ordering::Relaxed),
            )),
        };
        d.client.finished(d.tag, result);
        let c = self.ctl.load(Ordering::Acquire);
        self.ctl
            .fetch_add(word(0, FINISHED - ACTIVE, 0), Ordering::AcqRel);
        debug_assert_eq!(state(c), ACTIVE);
        self.release();
    }
}
