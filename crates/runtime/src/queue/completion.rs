//! The end of a packet: release fence, slot freed, read index, completion signal, and the error
//! state when a kernel faulted.
//!
//! Kernel dispatches end on whichever thread ran their last work-group (a worker, or the packet
//! processor itself when it ran the dispatch inline), through the queue's [`QueueClient`];
//! barrier and agent-dispatch packets end on the processor. Packets may end out of order
//! (packets without the barrier bit overlap): each frees its own slot (header INVALID), and the
//! read index moves over every freed slot from where it stands, never past a packet still in
//! flight, so a producer never overwrites a packet that runs.

use super::packets::{Kind, Packet, SCOPE_NONE};
use super::ring::PACKET_TYPE_INVALID;
use super::{Queue, STATE_ACTIVE, STATE_ERROR};
use crate::signal::{MemoryOrder, Signal};
use crate::system::trace;
use crate::{Error, Runtime};
use softhsa_abi::hsa_kernel_dispatch_packet_t;
use softhsa_gpu::{DeviceEvents, DispatchClient, DispatchStats, Fault, MemoryMap};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{fence, Ordering};
use std::sync::{Arc, Weak};

/// Completes packet `index` of `q`: release fence, slot freed, read index advanced, trace line
/// and timeline event, profiling timestamps, completion signal decremented.
pub(super) fn complete_packet(rt: &Runtime, q: &Queue, index: u64, kind: &Kind) {
    // Everything needed is read before the slot is freed (a producer may reuse it after).
    let p = Packet(q.mem.read_packet(index));
    if p.release_scope() != SCOPE_NONE {
        fence(Ordering::SeqCst);
    }
    let start = q.start_ts(index);
    q.mem
        .packet_header(index)
        .store(PACKET_TYPE_INVALID, Ordering::Release);
    advance_read_index(q);
    let timeline = trace::timeline_enabled();
    let end = (q.profiling() || timeline).then(crate::profiling::now);
    // Traced before the signal: a host that waits for it may exit at once, and the packet's
    // line and event must already be written by then.
    crate::trace!(
        trace::Category::Packet,
        "queue {:#x} packet {index}: {kind:?}",
        q.addr()
    );
    if let (Some(end), true) = (end, timeline) {
        timeline_packet(rt, q, index, &p, kind, start, end);
    }
    if let Ok(Some(c)) = rt.signals.get_optional(p.completion_signal()) {
        if let (Some(end), true) = (end, q.profiling()) {
            c.set_timestamps(start, end);
        }
        c.subtract(1, MemoryOrder::Release);
    }
}

/// Moves the read index over every freed slot, up to the packets launched.
fn advance_read_index(q: &Queue) {
    let read = q.mem.read_index();
    loop {
        let r = read.load(Ordering::Acquire);
        if r >= q.launched.load(Ordering::Acquire)
            || q.mem.packet_header(r).load(Ordering::Acquire) & 0xff != PACKET_TYPE_INVALID
        {
            return;
        }
        let _ = read.compare_exchange(r, r + 1, Ordering::AcqRel, Ordering::Relaxed);
    }
}

/// Puts the queue in the error state and reports `e` through the error callback.
pub(super) fn fail(q: &Queue, e: &Error) {
    if enter_error(q, e) {
        call_error_callback(q, e);
    }
}

/// The first half of [`fail`]: the state change (whether this call made it).
fn enter_error(q: &Queue, e: &Error) -> bool {
    crate::trace!(
        crate::system::trace::Category::Packet,
        "queue {:#x}: packet {} failed: {e}",
        q.addr(),
        q.mem.read_index().load(Ordering::Relaxed)
    );
    q.state
        .compare_exchange(
            STATE_ACTIVE,
            STATE_ERROR,
            Ordering::AcqRel,
            Ordering::Relaxed,
        )
        .is_ok()
}

fn call_error_callback(q: &Queue, e: &Error) {
    if let Some(cb) = &q.callback {
        let _ = catch_unwind(AssertUnwindSafe(|| cb(e.status, q.addr())));
    }
}

/// The packet as a timeline event on its queue's track (kernels by name).
fn timeline_packet(rt: &Runtime, q: &Queue, index: u64, p: &Packet, kind: &Kind, t0: u64, t1: u64) {
    let name = match kind {
        Kind::KernelDispatch => {
            // SAFETY: a plain copy of 64 bytes of integers and a pointer (any bit pattern).
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
    trace::timeline_event(&name, "packet", q.track(), t0, t1, &[("packet", &idx)]);
}

/// The queue as the GPU sees it: memory map and events of its kernels, and where their end
/// is reported (tag = packet index).
pub struct QueueClient {
    pub(super) rt: Arc<Runtime>,
    pub(super) queue: Weak<Queue>,
}

impl DispatchClient for QueueClient {
    fn memory(&self) -> &dyn MemoryMap {
        &self.rt.memory
    }

    fn events(&self) -> &dyn DeviceEvents {
        &self.rt.signals
    }

    /// A dispatch run inline by the processor gives way once a later packet is there to launch,
    /// or the queue stops (the processor then cancels what still runs).
    fn yield_inline(&self, index: u64) -> bool {
        // Asked after every work-group of an inline run: upgrading the weak reference (two
        // locked read-modify-writes of the queue's count) was 3% of a streaming kernel's time.
        // SAFETY: only the submitter asks, while it runs the dispatch inline
        // (`DispatchClient::yield_inline`): the packet processor, inside `execute`, borrowing
        // the queue from the strong reference its thread holds until it ends. So the queue
        // is alive, and `as_ptr` points at it.
        let q = unsafe { &*self.queue.as_ptr() };
        q.mem.write_index().load(Ordering::Acquire) > index + 1
            || q.stop.load(Ordering::Relaxed)
            || q.state() != STATE_ACTIVE
    }

    fn finished(&self, index: u64, result: Result<DispatchStats, Fault>) {
        let Some(q) = self.queue.upgrade() else {
            return;
        };
        let mut failed = None;
        match result {
            Ok(stats) => {
                crate::profiling::record_dispatch(&stats);
                trace_dispatch(&q, index, &stats);
                complete_packet(&self.rt, &q, index, &Kind::KernelDispatch);
            }
            // A dispatch cancelled because the queue stops: no completion, no error.
            Err(_) if q.stop.load(Ordering::Acquire) => {}
            Err(fault) => {
                // The report users need to debug their kernel: always on stderr (DESIGN.md).
                eprintln!("softhsa: queue {:#x}, packet {index}: {fault}", q.addr());
                let e = Error::with_message(
                    crate::dispatch::fault_status(&fault.kind),
                    fault.to_string(),
                );
                if enter_error(&q, &e) {
                    failed = Some(e);
                }
            }
        }
        // Counted out before the error callback, which may destroy the queue (and so wait for
        // every dispatch in flight to end).
        let left = q.in_flight.fetch_sub(1, Ordering::SeqCst) - 1;
        if let Some(e) = failed {
            q.parker.notify();
            call_error_callback(&q, &e);
        } else if left == 0 && super::processor::continue_launches(&self.rt, &q) {
            // The processor may wait for this end (a barrier bit); what could go next without it
            // has been launched here.
            q.parker.notify();
        }
    }
}

/// The figures `scripts/bench.sh` and users read: work done and wave instructions.
fn trace_dispatch(q: &Queue, index: u64, stats: &DispatchStats) {
    if !trace::enabled(trace::Category::Dispatch) {
        return;
    }
    // SAFETY: a plain copy of 64 bytes of integers and a pointer (any bit pattern).
    let p: hsa_kernel_dispatch_packet_t = unsafe { std::mem::transmute(q.mem.read_packet(index)) };
    crate::trace!(
        trace::Category::Dispatch,
        "queue {:#x} packet {index}: kernel_object={:#x} grid={:?} workgroup={:?} \
         workgroups={} waves={} instructions={} ns={} engine={}{}",
        q.addr(),
        p.kernel_object,
        [p.grid_size_x, p.grid_size_y, p.grid_size_z],
        [p.workgroup_size_x, p.workgroup_size_y, p.workgroup_size_z],
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
}

/// A signal handle as the completion of packet `index` names it (for the processor's checks).
pub(super) fn completion_signal(q: &Queue, index: u64) -> Signal {
    Packet(q.mem.read_packet(index)).completion_signal()
}
