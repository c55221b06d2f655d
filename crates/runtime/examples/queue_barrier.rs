//! Runnable example of the Rust API: signals and an AQL queue on the first GPU agent.
//!
//! It submits a barrier-AND packet that waits on a "gate" signal, opens the gate from the host,
//! and waits for the packet's completion signal. (Kernel dispatch packets go the same way once
//! an executable is loaded: write the packet, release-store its header, ring the doorbell.)
//!
//! Run: `cargo run -p softhsa-runtime --example queue_barrier`

use softhsa_runtime::queue::{packets, ring_doorbell, QueueType};
use softhsa_runtime::signal::{Condition, MemoryOrder, WaitHint};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

fn main() -> Result<(), softhsa_runtime::Error> {
    softhsa_runtime::init()?;
    let rt = softhsa_runtime::runtime().expect("initialized");
    let gpu = rt.topology.gpu_agents().next().expect("a GPU agent").handle;
    let q = rt
        .queues
        .create(&rt, gpu, 64, QueueType::Multi, None, u32::MAX, u32::MAX)?;
    let gate = rt.signals.create(1)?;
    let done = rt.signals.create(1)?;

    // Reserve a slot, fill the body, then publish the header with release semantics.
    let index = q.add_write_index(1, MemoryOrder::AcqRel);
    let slot = q.mem.slot_addr(index);
    let words = |i: u64| {
        // SAFETY: the slot lies in the queue's ring and was reserved by the write index above.
        unsafe { AtomicU64::from_ptr((slot + 8 * i) as *mut u64) }
    };
    for i in 1..7 {
        words(i).store(0, Ordering::Relaxed);
    }
    words(1).store(gate.0, Ordering::Relaxed); // dep_signal[0]
    words(7).store(done.0, Ordering::Relaxed); // completion_signal
    let header = packets::TYPE_BARRIER_AND as u32
        | 1 << packets::HEADER_BARRIER
        | (packets::SCOPE_SYSTEM as u32) << packets::HEADER_ACQUIRE_SCOPE
        | (packets::SCOPE_SYSTEM as u32) << packets::HEADER_RELEASE_SCOPE;
    // SAFETY: the first 4 bytes of the reserved slot (header + reserved), 4-byte aligned.
    unsafe { AtomicU32::from_ptr(slot as *mut u32) }.store(header, Ordering::Release);
    ring_doorbell(&rt, &q, index)?;

    let d = rt.signals.get(done)?;
    let before = d.wait(
        Condition::Eq,
        0,
        10_000_000,
        WaitHint::Blocked,
        MemoryOrder::Acquire,
    );
    println!("before opening the gate: completion = {before} (still pending)");
    rt.signals.get(gate)?.store(0, MemoryOrder::Release);
    let after = d.wait(
        Condition::Eq,
        0,
        u64::MAX,
        WaitHint::Blocked,
        MemoryOrder::Acquire,
    );
    println!(
        "after opening the gate:  completion = {after}, read index = {}",
        q.load_read_index(MemoryOrder::Acquire)
    );
    assert_eq!((before, after), (1, 0));

    rt.queues.destroy(&rt, q.addr())?;
    rt.signals.destroy(gate)?;
    rt.signals.destroy(done)?;
    softhsa_runtime::shut_down()
}
