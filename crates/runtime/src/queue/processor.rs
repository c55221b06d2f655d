//! The packet processor: one thread per queue, consuming packets strictly in order.
//!
//! Each packet goes through HSA's phases: wait until the write index passes the read index and
//! the slot's header is no longer INVALID (producers release-store it last), acquire fence,
//! execute (dispatch, agent function, or barrier wait), release fence, then: header back to
//! INVALID, read index + 1, completion signal - 1 (with timestamps first when profiling). Since
//! each packet completes before the next launches, the barrier bit is always honoured. A failing
//! packet stops the queue in the error state and calls its error callback; it stays in the ring
//! between the read and write index, where the program can inspect it.

use super::agent_dispatch::AgentCall;
use super::packets::{Kind, Packet, SCOPE_NONE};
use super::ring::PACKET_TYPE_INVALID;
use super::{Queue, STATE_ACTIVE, STATE_ERROR};
use crate::signal::{notify::Sleeper, MemoryOrder, Signal};
use crate::system::trace;
use crate::{dispatch, Error, Result, Runtime};
use softhsa_abi::{hsa_kernel_dispatch_packet_t, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{fence, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

/// Longest sleep while blocked on a packet: signals written by device code directly in memory,
/// and headers published after the doorbell was rung, wake nobody, so they are re-checked.
const POLL: Duration = Duration::from_millis(1);
/// Longest sleep of an empty queue: producers ring the doorbell, which wakes the processor at
/// once; the period only bounds the latency of doorbells written directly in memory.
const IDLE_POLL: Duration = Duration::from_millis(10);

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
    trace::timeline_track_name(track(&q), &format!("queue {:#x}", q.addr()));
    // Producers ring the doorbell after publishing a packet: sleep on its channel.
    let doorbell = match rt
        .upgrade()
        .map(|rt| rt.signals.get(q.doorbell).map(|s| s.value_ptr()))
    {
        Some(Ok(p)) => p as u64,
        _ => return,
    };
    let sleeper = Sleeper::for_value(doorbell);
    loop {
        let epoch = sleeper.epoch();
        if q.stop.load(Ordering::Acquire) {
            return;
        }
        let read = q.mem.read_index().load(Ordering::Relaxed);
        let write = q.mem.write_index().load(Ordering::Acquire);
        let header = q.mem.packet_header(read).load(Ordering::Acquire);
        if write <= read {
            sleeper.sleep(epoch, Some(IDLE_POLL));
            continue;
        }
        if header & 0xff == PACKET_TYPE_INVALID {
            sleeper.sleep(epoch, Some(POLL));
            continue;
        }
        let Some(rt) = rt.upgrade() else { return };
        let packet = Packet(q.mem.read_packet(read));
        let outcome = catch_unwind(AssertUnwindSafe(|| execute(&rt, &q, read, &packet)))
            .unwrap_or_else(|_| {
                Err(Stop::Failed(Error::with_message(
                    softhsa_abi::HSA_STATUS_ERROR,
                    "internal error while processing a packet",
                )))
            });
        match outcome {
            Ok(()) => {}
            Err(Stop::Requested) => return,
            Err(Stop::Failed(e)) => {
                fail(&q, &e);
                return;
            }
        }
    }
}

/// Puts the queue in the error state and reports `e` through the error callback.
fn fail(q: &Queue, e: &Error) {
    crate::trace!(
        crate::system::trace::Category::Packet,
        "queue {:#x}: packet {} failed: {e}",
        q.addr(),
        q.mem.read_index().load(Ordering::Relaxed)
    );
    if q.state
        .compare_exchange(
            STATE_ACTIVE,
            STATE_ERROR,
            Ordering::AcqRel,
            Ordering::Relaxed,
        )
        .is_err()
    {
        return;
    }
    if let Some(cb) = &q.callback {
        let _ = catch_unwind(AssertUnwindSafe(|| cb(e.status, q.addr())));
    }
}

fn execute(rt: &Runtime, q: &Queue, index: u64, p: &Packet) -> std::result::Result<(), Stop> {
    let kind = p.decode()?;
    let completion = rt.signals.get_optional(p.completion_signal())?;
    let timeline = trace::timeline_enabled();
    let start = (q.profiling() || timeline).then(crate::profiling::now);
    let host_fence = |scope: u8| {
        if scope != SCOPE_NONE {
            fence(Ordering::SeqCst);
        }
    };
    let is_barrier = matches!(
        kind,
        Kind::BarrierAnd(_) | Kind::BarrierOr(_) | Kind::BarrierValue { .. }
    );
    if !is_barrier {
        host_fence(p.acquire_scope());
    }
    match &kind {
        Kind::KernelDispatch => kernel_dispatch(rt, q, index, p)?,
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
    if is_barrier {
        host_fence(p.acquire_scope());
    }
    host_fence(p.release_scope());
    // Completion: free the slot, advance the read index, then signal.
    q.mem
        .packet_header(index)
        .store(PACKET_TYPE_INVALID, Ordering::Release);
    q.mem.read_index().store(index + 1, Ordering::Release);
    let end = start.map(|_| crate::profiling::now());
    if let Some(c) = completion {
        if let (Some(start), Some(end), true) = (start, end, q.profiling()) {
            c.set_timestamps(start, end);
        }
        c.subtract(1, MemoryOrder::Release);
    }
    crate::trace!(
        trace::Category::Packet,
        "queue {:#x} packet {index}: {kind:?}",
        q.addr()
    );
    if let (Some(start), Some(end), true) = (start, end, timeline) {
        timeline_packet(rt, q, index, p, &kind, start, end);
    }
    Ok(())
}

/// The packet as a timeline event on its queue's track (kernels by name).
fn timeline_packet(rt: &Runtime, q: &Queue, index: u64, p: &Packet, kind: &Kind, t0: u64, t1: u64) {
    let name = match kind {
        Kind::KernelDispatch => {
            // SAFETY: as in `kernel_dispatch`: a plain copy of 64 bytes of integers/pointers.
            let d: hsa_kernel_dispatch_packet_t = unsafe { std::mem::transmute(p.0) };
            rt.loader
                .kernel(d.kernel_object)
                .map_or("kernel".into(), |k| k.name.clone())
        }
        Kind::BarrierAnd(_) => "barrier-and".into(),
        Kind::BarrierOr(_) => "barrier-or".into(),
        Kind::BarrierValue { .. } => "barrier-value".into(),
        Kind::AgentDispatch { .. } => "agent dispatch".into(),
    };
    let idx = index.to_string();
    trace::timeline_event(&name, "packet", track(q), t0, t1, &[("packet", &idx)]);
}

/// Timeline track of a queue: its id, offset from the worker and copy tracks.
fn track(q: &Queue) -> u64 {
    TRACK_BASE + q.mem.u64_at(super::ring::off::ID).load(Ordering::Relaxed)
}
const TRACK_BASE: u64 = 1 << 20;

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

/// The one place where KERNEL_DISPATCH packets meet the GPU ([`crate::dispatch`]): runs the
/// dispatch to completion; a fault becomes the HSA status of the queue error (and is traced).
fn kernel_dispatch(rt: &Runtime, q: &Queue, index: u64, p: &Packet) -> Result<()> {
    let device = q.device.as_ref().ok_or_else(|| {
        Error::with_message(
            HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
            "queue has no kernel agent",
        )
    })?;
    // SAFETY: the packet words are a plain copy of 64 bytes, and hsa_kernel_dispatch_packet_t
    // is 64 bytes of integers and a raw pointer, for which every bit pattern is valid.
    let packet: hsa_kernel_dispatch_packet_t = unsafe { std::mem::transmute(p.0) };
    // One decoded program per code object segment, shared by its kernels (the loader caches it).
    let find_kernel = |object: u64| {
        let k = rt.loader.kernel(object).ok_or("is not a loaded kernel")?;
        dispatch::device_kernel(&k, device.config().gfx.isa())
            .map_err(|e| format!("cannot run: {e}"))
    };
    let env = dispatch::DispatchEnv {
        device,
        find_kernel: &find_kernel,
        memory: &rt.memory,
        events: &rt.signals,
        queue_address: q.addr(),
    };
    // SVM memory the program has unmapped must no longer be reachable.
    crate::svm::prune_unmapped(&rt.memory);
    match dispatch::run_kernel_dispatch(&env, &packet, q.mem.slot_addr(index), index) {
        Ok(stats) => {
            crate::profiling::record_dispatch(&stats);
            // The figures `scripts/bench.sh` and users read: work done and wave instructions.
            crate::trace!(
                crate::system::trace::Category::Dispatch,
                "queue {:#x} packet {index}: kernel_object={:#x} grid={:?} workgroup={:?} \
                 workgroups={} waves={} instructions={} ns={} engine={}{}",
                q.addr(),
                packet.kernel_object,
                [packet.grid_size_x, packet.grid_size_y, packet.grid_size_z],
                [
                    packet.workgroup_size_x,
                    packet.workgroup_size_y,
                    packet.workgroup_size_z
                ],
                stats.workgroups,
                stats.waves,
                stats.instructions,
                stats.elapsed_ns,
                stats.engine.name(),
                stats.jit.map_or(String::new(), |j| format!(
                    " jit_native={}/{} jit_compile_us={}",
                    j.native,
                    j.slots,
                    j.compile_ns / 1000
                ))
            );
            Ok(())
        }
        Err((status, fault)) => {
            // The report users need to debug their kernel: always on stderr (DESIGN.md).
            eprintln!("softhsa: queue {:#x}, packet {index}: {fault}", q.addr());
            Err(Error::with_message(status, fault.to_string()))
        }
    }
}
