//! Queue tests through the initialized runtime: creation errors, barrier packets across queues,
//! agent dispatch, and the error state.

use super::packets::*;
use super::*;
use crate::signal::{Condition, WaitHint};
use std::sync::atomic::AtomicUsize;

const O: MemoryOrder = MemoryOrder::AcqRel;

fn runtime() -> Arc<Runtime> {
    crate::init().unwrap();
    crate::runtime().unwrap()
}

fn gpu(rt: &Runtime) -> u64 {
    rt.topology.gpu_agents().next().unwrap().handle
}

/// Writes a packet as a producer does: body first, then the header with release, then rings.
fn submit(rt: &Runtime, q: &Queue, words: [u64; 8]) -> u64 {
    let idx = q.add_write_index(1, O);
    let slot = q.mem.slot_addr(idx);
    for (i, w) in words.iter().enumerate().skip(1) {
        // SAFETY: the slot is inside the ring, reserved by the write index above.
        unsafe { ((slot + 8 * i as u64) as *mut u64).write_volatile(*w) };
    }
    // SAFETY: the first 4 bytes of the reserved slot: header and setup, published last.
    let hs = unsafe { std::sync::atomic::AtomicU32::from_ptr(slot as *mut u32) };
    hs.store(words[0] as u32, Ordering::Release);
    ring_doorbell(rt, q, idx).unwrap();
    idx
}

fn header(t: u8) -> u64 {
    t as u64 | 1 << HEADER_BARRIER | 2 << HEADER_ACQUIRE_SCOPE | 2 << HEADER_RELEASE_SCOPE
}

#[test]
fn creation_arguments_are_checked() {
    let rt = runtime();
    let g = gpu(&rt);
    let create = |agent, size| {
        rt.queues
            .create(&rt, agent, size, QueueType::Multi, None, 0, 0)
    };
    let err = |r: Result<Arc<Queue>>| r.err().unwrap().status;
    assert_eq!(err(create(g, 0)), HSA_STATUS_ERROR_INVALID_ARGUMENT);
    assert_eq!(err(create(g, 96)), HSA_STATUS_ERROR_INVALID_ARGUMENT);
    assert_eq!(err(create(g, 1 << 30)), HSA_STATUS_ERROR_INVALID_ARGUMENT);
    assert_eq!(err(create(12345, 64)), HSA_STATUS_ERROR_INVALID_AGENT);
    let cpu = rt.topology.cpu_agent().handle;
    assert_eq!(
        err(create(cpu, 64)),
        HSA_STATUS_ERROR_INVALID_QUEUE_CREATION
    );
    let q = create(g, 1).unwrap();
    assert_eq!(
        q.mem.u32_at(ring::off::SIZE).load(Ordering::Relaxed),
        64,
        "raised to min size"
    );
    assert_eq!(
        q.mem
            .u64_at(ring::off::BASE_ADDRESS)
            .load(Ordering::Relaxed),
        q.mem.ring_addr()
    );
    assert_eq!(
        q.mem
            .u32_at(ring::off::GROUP_APERTURE_HI)
            .load(Ordering::Relaxed) as u64,
        softhsa_gpu::SHARED_APERTURE_BASE >> 32
    );
    rt.queues.destroy(&rt, q.addr()).unwrap();
    assert_eq!(
        rt.queues.get(q.addr()).err().unwrap().status,
        HSA_STATUS_ERROR_INVALID_QUEUE
    );
}

#[test]
fn barrier_and_or_chain_across_two_queues() {
    let rt = runtime();
    let g = gpu(&rt);
    let q1 = rt
        .queues
        .create(&rt, g, 64, QueueType::Multi, None, 0, 0)
        .unwrap();
    let q2 = rt
        .queues
        .create(&rt, g, 64, QueueType::Single, None, 0, 0)
        .unwrap();
    let s = |v| rt.signals.create(v).unwrap();
    let (gate, mid, done, never) = (s(1), s(1), s(1), s(1));
    // q1: AND(gate) -> mid; q2: OR(never, mid) -> done.
    submit(
        &rt,
        &q1,
        [header(TYPE_BARRIER_AND), gate.0, 0, 0, 0, 0, 0, mid.0],
    );
    submit(
        &rt,
        &q2,
        [header(TYPE_BARRIER_OR), never.0, mid.0, 0, 0, 0, 0, done.0],
    );
    std::thread::sleep(std::time::Duration::from_millis(20));
    let d = rt.signals.get(done).unwrap();
    assert_eq!(d.load(O), 1, "nothing completes before the gate opens");
    rt.signals.get(gate).unwrap().store(0, O);
    assert_eq!(
        d.wait(Condition::Eq, 0, 5_000_000_000, WaitHint::Blocked, O),
        0
    );
    assert_eq!(q1.load_read_index(O), 1);
    assert_eq!(
        q1.mem.packet_header(0).load(Ordering::Relaxed),
        ring::PACKET_TYPE_INVALID
    );
    for q in [q1, q2] {
        rt.queues.destroy(&rt, q.addr()).unwrap();
    }
}

static CALLS: AtomicUsize = AtomicUsize::new(0);
extern "C" fn host_fn(a: u64, b: u64, c: u64, ret: *mut std::ffi::c_void) {
    // SAFETY: the test passes a pointer to a live u64 as the return address.
    unsafe { *(ret as *mut u64) = a * 100 + b * 10 + c };
    CALLS.fetch_add(1, Ordering::SeqCst);
}

#[test]
fn agent_dispatch_and_error_state() {
    let rt = runtime();
    let g = gpu(&rt);
    let errors = Arc::new(Mutex::new(Vec::new()));
    let e2 = errors.clone();
    let cb: ErrorCallback = Box::new(move |st, q| e2.lock().unwrap().push((st, q)));
    let q = rt
        .queues
        .create(&rt, g, 64, QueueType::Multi, Some(cb), 0, 0)
        .unwrap();
    let done = rt.signals.create(2).unwrap();
    let mut out = 0u64;
    let ret = &mut out as *mut u64 as u64;
    let h = header(TYPE_AGENT_DISPATCH) | (CALL_FUNCTION as u64) << 16;
    submit(
        &rt,
        &q,
        [h, ret, host_fn as *const () as u64, 1, 2, 3, 0, done.0],
    );
    rt.queues
        .register_agent_function(
            7,
            Arc::new(|c: &AgentCall| {
                assert_eq!(c.args, [9, 8, 7, 6]);
                Ok(())
            }),
        )
        .unwrap();
    submit(
        &rt,
        &q,
        [
            header(TYPE_AGENT_DISPATCH) | 7 << 16,
            0,
            9,
            8,
            7,
            6,
            0,
            done.0,
        ],
    );
    let d = rt.signals.get(done).unwrap();
    assert_eq!(
        d.wait(Condition::Eq, 0, 5_000_000_000, WaitHint::Blocked, O),
        0
    );
    assert_eq!(out, 123);
    // An unknown packet type: error callback, queue stops, the packet stays for inspection.
    let bad = submit(&rt, &q, [header(42), 0, 0, 0, 0, 0, 0, 0]);
    let t0 = std::time::Instant::now();
    while errors.lock().unwrap().is_empty() && t0.elapsed().as_secs() < 5 {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    assert_eq!(
        *errors.lock().unwrap(),
        vec![(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, q.addr())]
    );
    assert_eq!(q.state(), STATE_ERROR);
    assert_eq!(q.load_read_index(O), bad);
    rt.queues.destroy(&rt, q.addr()).unwrap();
}

#[test]
fn barrier_value_and_profiling_timestamps() {
    let rt = runtime();
    let q = rt
        .queues
        .create(&rt, gpu(&rt), 64, QueueType::Multi, None, 0, 0)
        .unwrap();
    q.set_profiling(true);
    let s = rt.signals.create(0x30).unwrap();
    let done = rt.signals.create(1).unwrap();
    // (value & 0xf) >= 2, with the vendor header and AMD format in bytes 0..3.
    let h =
        TYPE_VENDOR_SPECIFIC as u64 | 1 << HEADER_BARRIER | (AMD_FORMAT_BARRIER_VALUE as u64) << 16;
    let gte = 3; // HSA_SIGNAL_CONDITION_GTE
    let t_submit = crate::profiling::now();
    submit(&rt, &q, [h, s.0, 2, 0xf, gte, 0, 0, done.0]);
    let d = rt.signals.get(done).unwrap();
    assert_eq!(
        d.wait(Condition::Eq, 0, 20_000_000, WaitHint::Blocked, O),
        1
    );
    let t_store = crate::profiling::now();
    rt.signals.get(s).unwrap().store(0x12, O);
    assert_eq!(
        d.wait(Condition::Eq, 0, 5_000_000_000, WaitHint::Blocked, O),
        0
    );
    let (start, end) = crate::profiling::recorded_time(&rt.signals, done).unwrap();
    // The barrier started before the value it waits for was stored, and ended after. (A
    // fixed gap between start and end failed on a loaded machine, where the packet
    // processor took 5 ms to start the packet.)
    assert!(
        t_submit <= start && start <= t_store && t_store <= end,
        "{t_submit} {start} {t_store} {end}"
    );
    assert!(end <= crate::profiling::now());
    rt.queues.destroy(&rt, q.addr()).unwrap();
}

#[test]
fn error_callback_may_destroy_its_queue() {
    let rt = runtime();
    let (tx, rx) = std::sync::mpsc::channel();
    let tx = Mutex::new(tx);
    let cb: ErrorCallback = Box::new(move |status, q| {
        let rt = crate::runtime().unwrap();
        let destroyed = rt.queues.destroy(&rt, q);
        tx.lock()
            .unwrap()
            .send((status, destroyed.is_ok()))
            .unwrap();
    });
    let q = rt
        .queues
        .create(&rt, gpu(&rt), 64, QueueType::Single, Some(cb), 0, 0)
        .unwrap();
    // A barrier-AND whose completion signal is a forged handle: INVALID_SIGNAL.
    submit(
        &rt,
        &q,
        [header(TYPE_BARRIER_AND), 0, 0, 0, 0, 0, 0, 0xdead_0040],
    );
    let got = rx.recv_timeout(std::time::Duration::from_secs(5)).unwrap();
    assert_eq!(got, (HSA_STATUS_ERROR_INVALID_SIGNAL, true));
    assert!(rt.queues.get(q.addr()).is_err());
}
