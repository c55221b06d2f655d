//! Packet processors streaming kernels at the same time take turns on the CPUs.
//!
//! A queue whose kernels run in order (HIP sets the barrier bit on each) is a chain: its
//! processor runs them inline, one after another, on whatever CPU the kernel placed it. With
//! as many such queues as CPUs, each chain stays on its CPU, and the CPUs of a virtual machine
//! do not run equally fast (vCPUs sharing a core, time taken by the hypervisor): the slowest
//! stream took twice as long as the fastest (docs/BENCHMARKS.md), so half the machine idled
//! at the end while it finished. Work-groups of one dispatch balance by themselves (whoever
//! is free takes the next); the links of a chain cannot.
//!
//! So while two or more processors stream, each holds a slot, and in each period of
//! [`PERIOD`] slot s runs on CPU `(s + period) mod n` of the CPUs the process may use: every
//! chain gets every CPU in turn, and the chains advance at the CPUs' average speed. A
//! processor moves between two of its kernels (a few microseconds of cold caches every
//! period). A processor alone is not pinned: the kernel's own placement serves it best.
//! `SOFTHSA_ROTATE=0` turns this off.
//!
//! It starts at two streams, not only once they fill every CPU: with fewer streams than
//! CPUs it gained nothing on the 16-core machine (8, 4 or 2 streams; 8 perhaps 6% slower),
//! but requiring all 16 lost most of the gain at 16, since the first stream to end stopped
//! the rotation for the rest, whose spread grows there (docs/BENCHMARKS.md).
//!
//! Moves happen between kernels only: during a long kernel its processor stays where it is
//! while the others move on, each sharing that CPU for a period as it passes. With more
//! streaming processors than CPUs, slots n apart share a CPU throughout, as threads would
//! share some CPU anyway.
//!
//! 16 queues of 1,000 small kernels on the 16-core machine (three leases, alternating with
//! it off): 1.3x the kernels per second, 90% of what the same work-groups reach as one
//! dispatch; the slowest stream 1.1-1.3x the fastest's time instead of 1.8-2.4x.

use softhsa_gpu::sched::stats::{self, Event};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How long a slot stays on one CPU. Short enough that a stream of a few tens of
/// milliseconds visits every CPU of a 16-core machine more than once: with 2 ms the slowest
/// of 16 streams took 1.2-1.3x the fastest's time, with 500 µs 1.06-1.3x (250 µs: no better,
/// twice the moves; docs/BENCHMARKS.md, twenty-sixth session).
const PERIOD: Duration = Duration::from_micros(500);

/// Slots held by streaming processors (bit s: slot s).
static SLOTS: AtomicU64 = AtomicU64::new(0);

/// What rotation needs once: the CPUs the process may use and the clock's origin.
struct Setup {
    cpus: Vec<usize>,
    origin: Instant,
}

fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| Setup {
        cpus: allowed_cpus(),
        origin: Instant::now(),
    })
}

/// The current period's number.
fn period() -> usize {
    (setup().origin.elapsed().as_nanos() / PERIOD.as_nanos()) as usize
}

/// The calling thread's CPU set.
fn affinity() -> Option<libc::cpu_set_t> {
    // SAFETY: cpu_set_t is a plain bit array; sched_getaffinity fills the one it is given.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        (libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) == 0)
            .then_some(set)
    }
}

/// The CPUs this process may run on (the affinity of the first thread that rotates).
fn allowed_cpus() -> Vec<usize> {
    affinity().map_or(Vec::new(), |set| cpu_list(&set))
}

/// The CPUs of `set`, in order.
fn cpu_list(set: &libc::cpu_set_t) -> Vec<usize> {
    (0..libc::CPU_SETSIZE as usize)
        // SAFETY: reads a bit of the set it is given.
        .filter(|&c| unsafe { libc::CPU_ISSET(c, set) })
        .collect()
}

/// Sets the calling thread's CPU set.
fn set_affinity(set: &libc::cpu_set_t) {
    // SAFETY: sched_setaffinity reads the set it is given; a refusal leaves the thread as it
    // was (it then only runs where the kernel puts it).
    unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), set) };
}

/// Pins the calling thread to `cpu`.
fn pin(cpu: usize) {
    // SAFETY: a zeroed cpu_set_t is the empty set; CPU_SET sets one bit below CPU_SETSIZE
    // (`cpu` comes from allowed_cpus).
    let set = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        set
    };
    set_affinity(&set);
}

/// One processor's part in the rotation.
pub(super) struct Rotation {
    /// The slot it holds while it streams.
    slot: Option<u32>,
    /// The CPU it is pinned to (`None`: not pinned).
    cpu: Option<usize>,
    /// The thread's CPU set before it was pinned, restored when it leaves its slot.
    original: Option<libc::cpu_set_t>,
    /// Whether it takes part (`Config::rotate`).
    on: bool,
}

impl Rotation {
    pub(super) fn new(on: bool) -> Rotation {
        Rotation {
            slot: None,
            cpu: None,
            original: None,
            on,
        }
    }

    /// The processor streams (a long run of packets): takes a slot, and moves to its CPU of
    /// the period while another processor streams too and other processes leave the cores
    /// to this one.
    pub(super) fn streaming(&mut self) {
        // (Off, nothing to ask: no reading of the system's load.)
        if self.on {
            self.streaming_if(softhsa_gpu::sched::load::others_idle());
        }
    }

    /// [`Self::streaming`], `alone`: whether other processes leave the cores to this one
    /// (else it runs where the kernel places it, as without rotation).
    fn streaming_if(&mut self, alone: bool) {
        let s = setup();
        if !self.on || s.cpus.len() < 2 {
            return;
        }
        if !alone {
            self.unpin();
            return;
        }
        let slot = match self.slot {
            Some(slot) => slot,
            None => {
                let mut held = SLOTS.load(Ordering::Relaxed);
                loop {
                    let free = (!held).trailing_zeros();
                    if free >= 64 {
                        return;
                    }
                    match SLOTS.compare_exchange_weak(
                        held,
                        held | 1 << free,
                        Ordering::AcqRel,
                        Ordering::Relaxed,
                    ) {
                        Ok(_) => break,
                        Err(now) => held = now,
                    }
                }
                let free = (!held).trailing_zeros();
                self.slot = Some(free);
                free
            }
        };
        if SLOTS.load(Ordering::Relaxed).count_ones() < 2 {
            self.unpin();
            return;
        }
        let cpu = s.cpus[(slot as usize + period()) % s.cpus.len()];
        if self.cpu != Some(cpu) {
            if self.original.is_none() {
                self.original = affinity();
            }
            pin(cpu);
            self.cpu = Some(cpu);
            stats::count(Event::RotateMove);
        }
    }

    /// Whether the thread is pinned (it then follows the periods after every packet, and
    /// does not look for a better CPU itself).
    pub(super) fn pinned(&self) -> bool {
        self.cpu.is_some()
    }

    fn unpin(&mut self) {
        if self.cpu.take().is_some() {
            stats::count(Event::RotateUnpin);
            if let Some(set) = self.original.take() {
                set_affinity(&set);
            }
        }
    }

    /// The processor stopped streaming (it waits): gives its slot back, runs anywhere again.
    pub(super) fn idle(&mut self) {
        self.unpin();
        if let Some(slot) = self.slot.take() {
            SLOTS.fetch_and(!(1 << slot), Ordering::AcqRel);
        }
    }
}

impl Drop for Rotation {
    fn drop(&mut self) {
        self.idle();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CPUs the calling thread may run on.
    fn cpus_now() -> Vec<usize> {
        cpu_list(&affinity().expect("sched_getaffinity"))
    }

    /// Two streaming processors are pinned to CPUs of the process's, one each (slot s on CPU
    /// s + period), and run where they ran before while other processes take cores and once
    /// they stop.
    #[test]
    fn streaming_processors_take_turns_on_the_cpus_and_give_them_back() {
        if setup().cpus.len() < 2 {
            return;
        }
        let before = cpus_now();
        // In a period whose CPUs are not the slots' own numbers (the first one's are).
        while period().is_multiple_of(setup().cpus.len()) {
            std::thread::sleep(PERIOD / 4);
        }
        // Phases: both hold slots; both were pinned and looked; both stop.
        let phase = std::sync::Arc::new(std::sync::Barrier::new(3));
        let threads: Vec<_> = (0..2)
            .map(|_| {
                let phase = phase.clone();
                std::thread::spawn(move || {
                    let mut r = Rotation::new(true);
                    r.streaming_if(true); // takes a slot
                    phase.wait();
                    let first = period();
                    r.streaming_if(true);
                    let periods = first..=period();
                    let (pinned, slot, is_pinned) = (cpus_now(), r.slot, r.pinned());
                    phase.wait();
                    // Another process takes cores: back where the kernel places it.
                    r.streaming_if(false);
                    let busy = (cpus_now(), r.pinned());
                    r.streaming_if(true);
                    r.idle();
                    (pinned, slot, is_pinned, periods, busy, cpus_now())
                })
            })
            .collect();
        phase.wait();
        phase.wait();
        let mut slots = Vec::new();
        for t in threads {
            let (cpus, slot, pinned, periods, busy, after) = t.join().unwrap();
            assert_eq!(busy, (before.clone(), false), "unpinned while others run");
            assert!(pinned);
            assert_eq!(cpus.len(), 1, "pinned to one CPU: {cpus:?}");
            let slot = slot.expect("a slot") as usize;
            let all = &setup().cpus;
            assert!(
                periods
                    .clone()
                    .any(|p| all[(slot + p) % all.len()] == cpus[0]),
                "slot {slot} on CPU {} in periods {periods:?} of {all:?}",
                cpus[0]
            );
            assert_eq!(after, before, "the CPU set is given back");
            slots.push(slot);
        }
        assert_ne!(slots[0], slots[1], "one slot each");
    }
}
