//! The packet processor: one thread per queue, launching packets in order.
//!
//! Each packet goes through HSA's phases: wait until the write index passes it and its header
//! is no longer INVALID (producers release-store it last), wait for every earlier packet to end
//! if its barrier bit is set, acquire fence, launch. A kernel dispatch is handed to the GPU and
//! the processor goes on with the next packet at once, so packets without the barrier bit
//! overlap; the dispatch ends on its own ([`super::completion`]). A dispatch runs inline, on
//! this thread, while a worker slot is free: a small kernel's round trip then involves no thread
//! hand-off at all; once a later packet is there, the inline run hands the dispatch's remaining
//! or waiting work-groups to the workers and the processor launches the packet. Barrier-AND/OR/value and agent-dispatch
//! packets run here and end before the next packet launches (HSA: they block later launches).
//!
//! Launching is a right one thread holds at a time (`Queue::launcher`): the processor, except
//! while it waits for earlier dispatches to end (a barrier bit). Meanwhile the thread that ends
//! a dispatch takes the right and launches the kernel dispatches that can go next
//! ([`continue_launches`]), so an in-order stream of kernels (HIP sets the barrier bit on every
//! one) goes on from the end of one to the start of the next without waking the processor.
//!
//! A failing packet puts the queue in the error state and calls its error callback; it stays in
//! the ring between the read and write index, where the program can inspect it. When the queue
//! stops (error, inactivate, destroy), its dispatches still in flight are cancelled and waited
//! for before the thread ends.
//!
//! Waiting (for a packet, or for earlier packets to end) spins while a host core is spare, then
//! sleeps: on the doorbell's channel (producers ring it), or on the queue's parker (ends of
//! dispatches notify it).

use super::agent_dispatch::AgentCall;
use super::completion::{complete_packet, completion_signal, fail};
use super::packets::{Kind, Packet, SCOPE_NONE};
use super::ring::PACKET_TYPE_INVALID;
use super::rotation::Rotation;
use super::{Queue, STATE_ACTIVE};
use crate::signal::{notify::Sleeper, MemoryOrder, Signal};
use crate::system::trace;
use crate::{dispatch, Error, Runtime};
use softhsa_abi::{hsa_kernel_dispatch_packet_t, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT};
use softhsa_gpu::sched::load::SpinPermit;
use softhsa_gpu::sched::release_held_token;
use softhsa_gpu::sched::stats::{self, Event};
use softhsa_gpu::DispatchClient;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{fence, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

/// Longest sleep while blocked on a packet: signals written by device code directly in memory,
/// and headers published after the doorbell was rung, wake nobody, so they are re-checked.
const POLL: Duration = Duration::from_millis(1);
/// Shortest sleep of an empty queue: producers ring the doorbell, which wakes the processor at
/// once; the period only bounds the latency of doorbells written directly in memory.
const IDLE_POLL: Duration = Duration::from_millis(10);
/// Longest sleep of an empty queue. The sleep grows with the idle period (a tenth of it), so
/// idle queues cost (almost) nothing: with a fixed 10 ms, 2,000 idle queues woke 200,000 times
/// a second, the whole of a 2-core machine (`tests/c/stress/churn.c`: creating and destroying
/// them took a minute).
const IDLE_POLL_MAX: Duration = Duration::from_millis(500);
/// How long a processor spins (while a core is spare) for dispatches to end before it sleeps.
const PACKET_SPIN: Duration = Duration::from_micros(100);
/// How often a processor with a long run of packets looks whether it was preempted
/// ([`Replace`]).
const REPLACE_CHECK: Duration = Duration::from_micros(500);
/// The brief sleep that lets the kernel place it again (with the thread's timer slack at a
/// microsecond, it lasts a few).
const REPLACE_SLEEP: Duration = Duration::from_micros(2);

/// Bounds of the adaptive spin for the next packet ([`Idle`]).
const IDLE_SPIN_MIN: Duration = Duration::from_micros(20);
const IDLE_SPIN_MAX: Duration = Duration::from_millis(1);

/// The gaps between a queue going idle and its next packet, to size the next spin: twice the
/// running average, within [`IDLE_SPIN_MIN`, `IDLE_SPIN_MAX`]. A program that launches every
/// few hundred microseconds then finds the processor still spinning, while one that launches
/// once a second costs at most a millisecond of spinning per launch.
struct Idle {
    /// Running average of the gaps, in nanoseconds.
    average_ns: u64,
    /// When the current idle period started (`None`: not idle).
    since: Option<Instant>,
}

/// A processor with a long run of packets (a stream of kernels it runs inline) that another
/// thread preempted sleeps for a few microseconds. Linux places a thread on a CPU when it
/// wakes up and seldom moves one that keeps running: a processor that never blocks stays on
/// the CPU it shares with another busy thread while other CPUs idle. Waking up, it goes to an
/// idle CPU if there is one. Every [`REPLACE_CHECK`] of a run the processor reads its count of
/// involuntary context switches (`getrusage`, about a third of a microsecond); only a count
/// that grew costs a sleep, so a processor alone on its CPU (one queue streaming packets)
/// never sleeps. With 16 queues of 1,000 kernels each on 16 cores the many-queues rate went
/// up 9.5% (median of nine runs against nine, alternating, on a noisy machine; a sleep every
/// 500 µs whether preempted or not: 8.8% and 18% in two such runs, but fewer back-to-back
/// dispatches), with the streams' spread of times about as wide (docs/BENCHMARKS.md,
/// twenty-fourth session). While other processors stream too, the processor takes turns on
/// the CPUs with them instead ([`Rotation`]): that evens the streams out.
struct Replace {
    /// When the run started, or the count was last read.
    since: Instant,
    /// Packets since the clock was last read.
    packets: u32,
    /// Involuntary context switches of this thread at the last reading (`None`: not read
    /// since the run started).
    preempted: Option<i64>,
    /// Its turns on the CPUs while other processors stream too.
    rotation: Rotation,
}

impl Replace {
    /// `rotate`: take turns on the CPUs with other streaming processors (`Config::rotate`).
    fn new(rotate: bool) -> Replace {
        // A timer slack of a microsecond: the default 50 µs would make each brief sleep last
        // that long (this thread's other timed waits get more precise too).
        // SAFETY: prctl with integer arguments only; it changes this thread's timer slack.
        unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1000u64, 0u64, 0u64, 0u64) };
        Replace {
            since: Instant::now(),
            packets: 0,
            preempted: None,
            rotation: Rotation::new(rotate),
        }
    }

    /// After a packet: every [`REPLACE_CHECK`] of the run (the clock is read every 16
    /// packets), a brief sleep if another thread preempted this one meanwhile.
    fn after_packet(&mut self) {
        self.packets += 1;
        if self.rotation.pinned() {
            // (Every packet: the processors move together at each period's start.)
            self.rotation.streaming();
        }
        if self.packets < 16 {
            return;
        }
        self.packets = 0;
        if self.since.elapsed() < REPLACE_CHECK {
            return;
        }
        self.rotation.streaming();
        let now = involuntary_switches();
        if !self.rotation.pinned() && self.preempted.is_some_and(|was| was != now) {
            // (A wait like the others: the token goes back first.)
            release_held_token();
            std::thread::sleep(REPLACE_SLEEP);
        }
        self.preempted = Some(now);
        self.since = Instant::now();
    }

    /// The processor blocked (an empty ring, dispatches waited for): a new run starts (the
    /// count is read when the run has lasted: nothing on a packet's own path).
    fn blocked(&mut self) {
        self.rotation.idle();
        self.since = Instant::now();
        self.packets = 0;
        self.preempted = None;
    }
}

/// This thread's involuntary context switches so far (0 where the call fails).
fn involuntary_switches() -> i64 {
    // SAFETY: getrusage writes the struct it is given, a zeroed plain C struct.
    unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_THREAD, &mut u) != 0 {
            return 0;
        }
        u.ru_nivcsw
    }
}

impl Idle {
    /// How long an empty queue sleeps before looking at its ring again.
    fn poll(&self) -> Duration {
        let idle = self.since.map_or(Duration::ZERO, |t| t.elapsed());
        (idle / 10).clamp(IDLE_POLL, IDLE_POLL_MAX)
    }

    fn spin(&self) -> Duration {
        Duration::from_nanos(2 * self.average_ns).clamp(IDLE_SPIN_MIN, IDLE_SPIN_MAX)
    }

    /// A packet arrived: the idle period (if any) ends.
    fn ended(&mut self) {
        if let Some(t) = self.since.take() {
            let gap = t.elapsed().as_nanos().min(u128::from(u64::MAX)) as u64;
            self.average_ns = (7 * self.average_ns + gap) / 8;
        }
    }
}

/// Why execution of a packet did not complete.
enum Stop {
    /// The queue was inactivated or destroyed: leave quietly.
    Requested,
    Failed(Error),
}

impl From<Error> for Stop {
    fn from(e: Error) -> Stop {
        Stop::Failed(e)
    }
}

pub(super) fn run(q: Arc<Queue>, rt: Weak<Runtime>) {
    trace::timeline_track_name(q.track(), &format!("queue {:#x}", q.addr()));
    if rt.upgrade().is_none() {
        return;
    }
    // Producers ring the doorbell after publishing a packet: sleep on its channel.
    let doorbell = q.doorbell_value;
    q.launched.store(
        q.mem.read_index().load(Ordering::Acquire),
        Ordering::Release,
    );
    acquire_launcher(&q);
    // Held while the thread lives (it ends before the runtime is torn down: shut-down and
    // queue destroy stop it): upgrading the weak reference for every packet made every
    // processor write the runtime's shared reference count.
    let Some(rt) = rt.upgrade() else { return };
    // Back-to-back inline runs keep their token; every wait below gives it back first.
    softhsa_gpu::sched::hold_tokens_between_runs();
    let mut idle = Idle {
        average_ns: PACKET_SPIN.as_nanos() as u64 / 2,
        since: None,
    };
    let mut replace = Replace::new(rt.config.rotate);
    loop {
        if q.stop.load(Ordering::Acquire) || q.state() != STATE_ACTIVE {
            break;
        }
        let next = q.launched.load(Ordering::Acquire);
        if !wait_for_packet(&q, next, doorbell, &mut idle) {
            replace.blocked();
            continue;
        }
        let packet = Packet(q.mem.read_packet(next));
        if packet.barrier() && q.in_flight.load(Ordering::Acquire) > 0 {
            // The dispatches waited for may need the token this thread kept.
            release_held_token();
            // Ends of dispatches may launch what follows meanwhile (continue_launches). The last
            // one may have ended before the right was given back: then go on at once.
            q.launcher.store(false, Ordering::SeqCst);
            if q.in_flight.load(Ordering::SeqCst) > 0 {
                wait_for_dispatches(&q, next);
                replace.blocked();
            }
            acquire_launcher(&q);
            continue;
        }
        if let Err(stop) = execute_guarded(&rt, &q, next, &packet, true) {
            release_held_token();
            if let Stop::Failed(e) = stop {
                fail(&q, &e);
            }
            break;
        }
        replace.after_packet();
    }
    release_held_token();
    // Leaving (holding the launcher, so nothing else launches): what still runs is cancelled
    // (its packets do not complete) and waited for.
    if let Some(dev) = &q.device {
        let (from, to) = (
            q.mem.read_index().load(Ordering::Acquire),
            q.launched.load(Ordering::Acquire),
        );
        for index in from..to {
            if let Some(h) = dev.handle_from_bits(q.job_of(index)) {
                dev.cancel(h);
            }
        }
    }
    while q.in_flight.load(Ordering::Acquire) > 0 {
        let seen = q.parker.epoch();
        if q.in_flight.load(Ordering::Acquire) == 0 {
            break;
        }
        q.parker.sleep(seen, POLL);
    }
}

/// Takes the right to launch, waiting while an ending dispatch holds it.
fn acquire_launcher(q: &Queue) {
    loop {
        let seen = q.parker.epoch();
        if q.launcher
            .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return;
        }
        q.parker.sleep(seen, POLL);
    }
}

/// What the thread holding the launch right may do with the packet at `next`.
enum Next {
    /// A kernel dispatch that may launch now.
    Kernel(Packet),
    /// A kernel dispatch with the barrier bit while dispatches run: the end of the last one
    /// launches it.
    Blocked,
    /// A packet for the processor (barrier, agent dispatch, malformed).
    Processor,
    /// Nothing there yet.
    Empty,
}

fn classify(q: &Queue, next: u64) -> Next {
    if q.mem.write_index().load(Ordering::Acquire) <= next
        || q.mem.packet_header(next).load(Ordering::Acquire) & 0xff == PACKET_TYPE_INVALID
    {
        return Next::Empty;
    }
    let p = Packet(q.mem.read_packet(next));
    if p.packet_type() != super::packets::TYPE_KERNEL_DISPATCH {
        return Next::Processor;
    }
    if p.barrier() && q.in_flight.load(Ordering::SeqCst) > 0 {
        return Next::Blocked;
    }
    Next::Kernel(p)
}

/// Called when the last dispatch in flight of `q` ended: while the processor waits for
/// dispatches, launches the kernel dispatches that can go next (on this thread, for the
/// workers). Returns whether the processor should be woken: always, unless a launch here left
/// the next packet waiting for that dispatch's end (which continues the same way). Whoever
/// holds the launch right re-checks after giving it back, so an end that found the right taken
/// is never lost.
pub(super) fn continue_launches(rt: &Runtime, q: &Queue) -> bool {
    loop {
        if q.stop.load(Ordering::Acquire) || q.state() != STATE_ACTIVE {
            return true;
        }
        match classify(q, q.launched.load(Ordering::Acquire)) {
            Next::Kernel(_) => {}
            Next::Blocked => return false,
            Next::Processor | Next::Empty => return true,
        }
        if q.launcher
            .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            return false; // the holder re-checks when it gives the right back
        }
        let mut wake = false;
        let mut failed = None;
        loop {
            if q.stop.load(Ordering::Acquire) || q.state() != STATE_ACTIVE {
                wake = true;
                break;
            }
            let next = q.launched.load(Ordering::Acquire);
            match classify(q, next) {
                Next::Kernel(p) => {
                    if let Err(stop) = execute_guarded(rt, q, next, &p, false) {
                        if let Stop::Failed(e) = stop {
                            failed = Some(e);
                        }
                        wake = true;
                        break;
                    }
                }
                Next::Blocked => break,
                Next::Processor | Next::Empty => {
                    wake = true;
                    break;
                }
            }
        }
        // Given back before the error callback, which may destroy the queue (whose processor
        // then needs the right to leave).
        q.launcher.store(false, Ordering::SeqCst);
        if let Some(e) = failed {
            fail(q, &e);
        }
        if wake {
            return true;
        }
        // Re-check: a dispatch that ended while this thread held the right could not launch.
    }
}

/// [`execute`], with a panic turned into a failure of the packet.
fn execute_guarded(
    rt: &Runtime,
    q: &Queue,
    index: u64,
    p: &Packet,
    inline: bool,
) -> std::result::Result<(), Stop> {
    catch_unwind(AssertUnwindSafe(|| execute(rt, q, index, p, inline))).unwrap_or_else(|_| {
        Err(Stop::Failed(Error::with_message(
            softhsa_abi::HSA_STATUS_ERROR,
            "internal error while processing a packet",
        )))
    })
}

/// Whether the packet at `next` is there: written (the write index passed it) and published
/// (header not INVALID). Spins for it while a core is spare, else sleeps on the doorbell
/// channel; `false` after a sleep (the caller re-checks its stop conditions).
fn wait_for_packet(q: &Queue, next: u64, doorbell: u64, idle: &mut Idle) -> bool {
    let ready = || {
        q.mem.write_index().load(Ordering::Acquire) > next
            && q.mem.packet_header(next).load(Ordering::Acquire) & 0xff != PACKET_TYPE_INVALID
    };
    if ready() || (idle.since.is_none() && softhsa_gpu::sched::load::brief_spin(ready)) {
        // (A packet written right behind the last one, as producers streaming packets do: no
        // idle period to account for, and the token kept.)
        stats::count(Event::PacketReady);
        idle.ended();
        return true;
    }
    release_held_token();
    // Spin at the start of an idle period only (not after each wake-up of a long one).
    if idle.since.is_none() {
        idle.since = Some(Instant::now());
        if let Some(permit) = SpinPermit::try_new() {
            if permit.spin_until(idle.spin(), || ready() || q.stop.load(Ordering::Relaxed)) {
                if ready() {
                    stats::count(Event::PacketSpun);
                    idle.ended();
                }
                return ready();
            }
        }
    }
    let sleeper = Sleeper::for_value(doorbell);
    let epoch = sleeper.epoch();
    if ready() || q.stop.load(Ordering::Acquire) {
        return ready();
    }
    // A written slot whose header is not yet published wakes nobody: poll it sooner.
    let written = q.mem.write_index().load(Ordering::Acquire) > next;
    stats::count(Event::PacketSlept);
    sleeper.sleep(epoch, Some(if written { POLL } else { idle.poll() }));
    false
}

/// Waits until every dispatch launched has ended (a barrier bit), the queue stops, or an ending
/// dispatch launched the packet at `next` and woke the processor.
fn wait_for_dispatches(q: &Queue, next: u64) {
    let done = || {
        q.in_flight.load(Ordering::Acquire) == 0
            || q.stop.load(Ordering::Acquire)
            || q.launched.load(Ordering::Acquire) != next
    };
    let t0 = stats::enabled().then(Instant::now);
    let spent = || {
        if let Some(t0) = t0 {
            stats::add(Event::BarrierWaitNs, t0.elapsed().as_nanos() as u64);
        }
    };
    if let Some(permit) = SpinPermit::try_new() {
        if permit.spin_until(PACKET_SPIN, done) {
            stats::count(Event::BarrierSpun);
            spent();
            return;
        }
    }
    stats::count(Event::BarrierSlept);
    let _spent = Finally(spent);
    while !done() {
        let seen = q.parker.epoch();
        if done() {
            return;
        }
        q.parker.sleep(seen, POLL);
    }
}

/// Runs a closure when dropped.
struct Finally<F: FnMut()>(F);

impl<F: FnMut()> Drop for Finally<F> {
    fn drop(&mut self) {
        (self.0)()
    }
}

/// Launches packet `index` (the caller holds the launch right); barrier and agent packets run
/// to their end here. `inline`: a kernel dispatch may run on this thread.
fn execute(
    rt: &Runtime,
    q: &Queue,
    index: u64,
    p: &Packet,
    inline: bool,
) -> std::result::Result<(), Stop> {
    let kind = p.decode()?;
    // A bad completion signal fails the packet before it runs.
    rt.signals.get_optional(completion_signal(q, index))?;
    if q.profiling() || trace::timeline_enabled() {
        q.set_start_ts(index, crate::profiling::now());
    }
    let is_barrier = matches!(
        kind,
        Kind::BarrierAnd(_) | Kind::BarrierOr(_) | Kind::BarrierValue { .. }
    );
    if !matches!(kind, Kind::KernelDispatch) {
        // Barrier and agent packets wait or run host code: not while keeping a token.
        release_held_token();
    }
    if !is_barrier && p.acquire_scope() != SCOPE_NONE {
        fence(Ordering::SeqCst);
    }
    // Launched from here on: its end may advance the read index up to it.
    q.launched.store(index + 1, Ordering::Release);
    match &kind {
        Kind::KernelDispatch => {
            stats::count(if inline {
                Event::LaunchProcessor
            } else {
                Event::LaunchContinued
            });
            return kernel_dispatch(rt, q, index, p, inline);
        }
        Kind::AgentDispatch {
            function,
            return_address,
            args,
        } => rt.queues.agent_functions.call(&AgentCall {
            function: *function,
            return_address: *return_address,
            args: *args,
        })?,
        Kind::BarrierAnd(deps) => {
            let mut seen = vec![false; deps.len()];
            wait_until(
                rt,
                q,
                |v| {
                    for (s, v) in seen.iter_mut().zip(v) {
                        *s |= *v == 0;
                    }
                    seen.iter().all(|s| *s)
                },
                deps,
            )?
        }
        Kind::BarrierOr(deps) => wait_until(rt, q, |v| v.contains(&0), deps)?,
        Kind::BarrierValue {
            signal,
            cond,
            value,
            mask,
        } => {
            if signal.0 != 0 {
                wait_until(rt, q, |v| cond.holds(v[0] & *mask, *value), &[*signal])?
            }
        }
    }
    if is_barrier && p.acquire_scope() != SCOPE_NONE {
        fence(Ordering::SeqCst);
    }
    complete_packet(rt, q, index, &kind);
    Ok(())
}

/// Re-evaluates `done(values of deps)` whenever a signal may have changed, until it holds or the
/// queue is stopped. A dependency destroyed while waited on is an INVALID_SIGNAL error.
fn wait_until(
    rt: &Runtime,
    q: &Queue,
    mut done: impl FnMut(&[i64]) -> bool,
    deps: &[Signal],
) -> std::result::Result<(), Stop> {
    let sleeper = match deps {
        [one] => Sleeper::for_value(rt.signals.get(*one)?.value_ptr() as u64),
        _ => Sleeper::any(),
    };
    let mut values = vec![0i64; deps.len()];
    loop {
        let epoch = sleeper.epoch();
        if q.stop.load(Ordering::Acquire) {
            return Err(Stop::Requested);
        }
        for (v, s) in values.iter_mut().zip(deps) {
            *v = rt.signals.get(*s)?.load(MemoryOrder::Acquire);
        }
        if done(&values) {
            return Ok(());
        }
        sleeper.sleep(epoch, Some(POLL));
    }
}

/// The one place where KERNEL_DISPATCH packets meet the GPU ([`crate::dispatch`]): launches the
/// dispatch (inline when no later packet waits); a refused one becomes the queue error.
fn kernel_dispatch(
    rt: &Runtime,
    q: &Queue,
    index: u64,
    p: &Packet,
    inline: bool,
) -> std::result::Result<(), Stop> {
    let device = q.device.as_ref().ok_or_else(|| {
        Error::with_message(
            HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
            "queue has no kernel agent",
        )
    })?;
    let client: &Arc<dyn DispatchClient> = q.client.get().ok_or_else(|| {
        Error::with_message(
            softhsa_abi::HSA_STATUS_ERROR,
            "queue has no dispatch client",
        )
    })?;
    // SAFETY: the packet words are a plain copy of 64 bytes, and hsa_kernel_dispatch_packet_t
    // is 64 bytes of integers and a raw pointer, for which every bit pattern is valid.
    let packet: hsa_kernel_dispatch_packet_t = unsafe { std::mem::transmute(p.0) };
    // One decoded program per code object segment, shared by its kernels (the loader caches it).
    let find_kernel = |object: u64| {
        rt.loader
            .with_kernel(object, |k| {
                dispatch::device_kernel(k, device.config().gfx.isa())
            })
            .ok_or("is not a loaded kernel")?
            .map_err(|e| format!("cannot run: {e}"))
    };
    // Inline: a small dispatch ends with no hand-off. A later packet (which may overlap this
    // one) makes the inline run give its work-groups to the workers: after each work-group,
    // and when one waits or runs long (QueueClient::yield_inline).
    let env = dispatch::DispatchEnv {
        device,
        find_kernel: &find_kernel,
        client,
        queue_address: q.addr(),
        priority: q.priority() as usize,
        inline,
    };
    // SVM memory the program has unmapped must no longer be reachable.
    crate::svm::prune_unmapped(&rt.memory);
    q.in_flight.fetch_add(1, Ordering::AcqRel);
    match dispatch::launch_kernel_dispatch(&env, &packet, q.mem.slot_addr(index), index) {
        Ok(h) => {
            // For cancelling it should the queue stop (stale once it ended: cancel ignores it).
            q.set_job_of(index, h.to_bits());
            Ok(())
        }
        Err((status, fault)) => {
            q.in_flight.fetch_sub(1, Ordering::AcqRel);
            // The report users need to debug their kernel: always on stderr (DESIGN.md).
            eprintln!("softhsa: queue {:#x}, packet {index}: {fault}", q.addr());
            Err(Stop::Failed(Error::with_message(status, fault.to_string())))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_spin_follows_the_gaps_within_bounds() {
        let mut idle = Idle {
            average_ns: 0,
            since: None,
        };
        assert_eq!(idle.spin(), IDLE_SPIN_MIN);
        idle.average_ns = 300_000;
        assert_eq!(idle.spin(), Duration::from_micros(600));
        idle.average_ns = 10_000_000_000;
        assert_eq!(idle.spin(), IDLE_SPIN_MAX);
        // A packet after an idle period moves the average an eighth of the way.
        idle.average_ns = 80_000;
        idle.since = Some(Instant::now() - Duration::from_micros(880));
        idle.ended();
        assert!(idle.since.is_none());
        assert!(
            (180_000..190_000).contains(&idle.average_ns),
            "{}",
            idle.average_ns
        );
        idle.ended(); // not idle: no change
        assert!((180_000..190_000).contains(&idle.average_ns));
    }
}
