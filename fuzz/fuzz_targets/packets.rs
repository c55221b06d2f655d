//! The packet processor: up to four random AQL packets of every type (kernel dispatch, barrier
//! AND/OR, AMD barrier-value, agent dispatch, invalid and raw random words) with random fields,
//! kernel objects, kernarg pointers, segment sizes and signals, on a live queue.
//!
//! Oracles: the process survives (no panic: libFuzzer's hook aborts on any, even a caught one);
//! every packet before the first failing one completes (its completion signal reaches 0), and a
//! failing packet calls the queue's error callback with an HSA error status other than the
//! generic one; nothing hangs (packets that may wait forever, barriers on signals the input
//! never satisfies, end by destroying the queue, which must return); and afterwards a valid
//! dispatch on a healthy queue computes the right results.
#![no_main]

use libfuzzer_sys::fuzz_target;
use softhsa_abi::*;
use softhsa_fuzz::ffi as hsa;
use softhsa_fuzz::{forget_queue, hsa, ok, packet_words, submit, Bytes, Hsa};
use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Error callbacks seen, and the last status (one queue in use at a time).
static ERRORS: AtomicU32 = AtomicU32::new(0);
static LAST_STATUS: AtomicU32 = AtomicU32::new(0);
/// Calls of the CALL_FUNCTION agent dispatch target.
static CALLS: AtomicU64 = AtomicU64::new(0);

unsafe extern "C" fn on_error(status: hsa_status_t, _q: *mut hsa_queue_t, _d: *mut c_void) {
    LAST_STATUS.store(status, Ordering::SeqCst);
    ERRORS.fetch_add(1, Ordering::SeqCst);
}

extern "C" fn agent_function(_a: u64, _b: u64, _c: u64, _ret: u64) {
    CALLS.fetch_add(1, Ordering::Relaxed);
}

/// The queue the packets go to, kept while healthy.
struct Q(*mut hsa_queue_t);
// SAFETY: a queue pointer is usable from any thread.
unsafe impl Send for Q {}
static QUEUE: Mutex<Option<Q>> = Mutex::new(None);

fn new_queue(rt: &Hsa, size: u32) -> *mut hsa_queue_t {
    let mut q: *mut hsa_queue_t = std::ptr::null_mut();
    // SAFETY: `q` is writable.
    ok("hsa_queue_create", unsafe {
        hsa::hsa_queue_create(
            rt.gpu,
            size,
            HSA_QUEUE_TYPE_MULTI,
            Some(on_error),
            std::ptr::null_mut(),
            u32::MAX,
            u32::MAX,
            &mut q,
        )
    });
    softhsa_fuzz::track_queue(q);
    q
}

/// What the harness made for one input, released at the end.
struct Scene {
    signals: Vec<hsa_signal_t>,
    buffers: Vec<*mut u8>,
    /// A destroyed signal's handle and a freed allocation's address.
    stale_signal: u64,
    freed: u64,
    data: *mut u8,
    kernarg: *mut u8,
}

const DATA: usize = 4096;
const KERNARG: usize = 256;

impl Scene {
    fn new(rt: &Hsa) -> Scene {
        let data = rt.alloc(DATA);
        let kernarg = rt.alloc(KERNARG);
        let gone = rt.alloc(64);
        rt.free(gone);
        let s = rt.signal(0);
        ok("hsa_signal_destroy", hsa::hsa_signal_destroy(s));
        Scene {
            signals: Vec::new(),
            buffers: vec![data, kernarg],
            stale_signal: s.handle,
            freed: gone as u64,
            data,
            kernarg,
        }
    }

    fn signal(&mut self, rt: &Hsa, value: i64) -> hsa_signal_t {
        let s = rt.signal(value);
        self.signals.push(s);
        s
    }

    /// A pointer for a kernel argument or packet field.
    fn pointer(&self, b: &mut Bytes) -> u64 {
        let d = self.data as u64;
        match b.below(8) {
            0 => 0,
            1 => b.u64(),
            2 => self.freed,
            3 => d + DATA as u64 - 4 * u64::from(b.u8() % 4),
            4 => d + DATA as u64 + u64::from(b.u8()),
            5 => u64::from(b.u32()) << 12,
            _ => d + u64::from(b.u16()) % DATA as u64,
        }
    }

    /// A signal handle for a barrier dependency or a completion signal, and the signal the
    /// harness sets to 0 after submitting (a real one created with value 1), if any. The
    /// destroyed signal's handle may name a signal created since (handles are addresses, as in
    /// ROCm), so a packet waiting on it may wait forever: `stale` says so.
    fn signal_handle(&mut self, rt: &Hsa, b: &mut Bytes) -> Dep {
        let (handle, release, stale) = match b.below(6) {
            0 => (0, None, false),
            1 => (self.signal(rt, 0).handle, None, false),
            2 => {
                let s = self.signal(rt, 1);
                (s.handle, Some(s), false)
            }
            3 => (self.stale_signal, None, true),
            4 => (self.data as u64 + u64::from(b.u8()) * 8, None, false),
            _ => (b.u64(), None, false),
        };
        Dep {
            handle,
            release,
            stale,
        }
    }
}

struct Dep {
    handle: u64,
    release: Option<hsa_signal_t>,
    stale: bool,
}

impl Drop for Scene {
    fn drop(&mut self) {
        let rt = hsa();
        for s in &self.signals {
            ok("hsa_signal_destroy", hsa::hsa_signal_destroy(*s));
        }
        for p in &self.buffers {
            rt.free(*p);
        }
    }
}

/// One packet built from the input: its words, the completion signal the harness watches, the
/// signals it must set to 0 for the packet to finish, and whether it may wait forever.
struct Built {
    words: [u32; 16],
    completion: Option<hsa_signal_t>,
    release: Vec<hsa_signal_t>,
    may_block: bool,
}

fn header(b: &mut Bytes, kind: u32) -> u32 {
    let mut h = kind | 1 << HSA_PACKET_HEADER_BARRIER;
    if b.below(8) == 0 {
        h |= u32::from(b.u8() & 0xfe) << 8; // random fence scopes (3 is reserved)
    } else {
        h |= HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE
            | HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
    }
    h
}

fn build(rt: &Hsa, sc: &mut Scene, b: &mut Bytes) -> Built {
    let mut out = Built {
        words: [0; 16],
        completion: None,
        release: Vec::new(),
        may_block: false,
    };
    // Watched: a completion signal made with value 1 for this packet (0 when it completes).
    let done = match b.below(4) {
        0 => sc.signal_handle(rt, b).handle,
        _ => {
            let s = sc.signal(rt, 1);
            out.completion = Some(s);
            s.handle
        }
    };
    match b.below(8) {
        0..=2 => out.words = dispatch(rt, sc, b, done),
        3 | 4 => {
            let kind = if b.bool() {
                HSA_PACKET_TYPE_BARRIER_AND
            } else {
                HSA_PACKET_TYPE_BARRIER_OR
            };
            let mut w = [0u64; 8];
            w[0] = u64::from(header(b, kind));
            for dep in w.iter_mut().take(6).skip(1) {
                let d = sc.signal_handle(rt, b);
                *dep = d.handle;
                out.release.extend(d.release);
                out.may_block |= d.stale;
            }
            // A barrier-OR whose dependencies are all NULL never completes (NULL counts as
            // non-zero there, HSA system architecture 2.9.6).
            out.may_block |= kind == HSA_PACKET_TYPE_BARRIER_OR && w[1..6].iter().all(|&h| h == 0);
            w[7] = done;
            out.words = words(w);
        }
        5 => {
            // AMD barrier-value: any condition, value and mask on a real or forged signal.
            let d = sc.signal_handle(rt, b);
            out.release.extend(d.release);
            out.may_block = true;
            let sig = d.handle;
            let hdr = header(b, HSA_PACKET_TYPE_VENDOR_SPECIFIC);
            let w0 = u64::from(hdr) | u64::from(HSA_AMD_PACKET_TYPE_BARRIER_VALUE) << 16;
            let cond = if b.bool() {
                u64::from(b.u8() % 4)
            } else {
                b.u64()
            };
            out.words = words([w0, sig, b.u64(), b.u64(), cond, 0, 0, done]);
        }
        6 => {
            let function = if b.bool() { 0x8000 } else { b.u16() };
            let hdr = header(b, HSA_PACKET_TYPE_AGENT_DISPATCH) | u32::from(function) << 16;
            let f = agent_function as *const () as u64;
            out.words = words([
                u64::from(hdr),
                b.u64(),
                f,
                b.u64(),
                b.u64(),
                b.u64(),
                0,
                done,
            ]);
        }
        _ => {
            // Raw words, but never CALL_FUNCTION (it calls the address in arg[0]) and never a
            // barrier-value packet (decoded above with its blocking noted).
            let mut w = [0u64; 8];
            for x in w.iter_mut() {
                *x = b.u64();
            }
            w[7] = done;
            let t = w[0] as u8;
            if t == HSA_PACKET_TYPE_AGENT_DISPATCH as u8
                || t == HSA_PACKET_TYPE_VENDOR_SPECIFIC as u8
            {
                w[0] = w[0] & !0xff | 0x80 | u64::from(t); // an unknown type instead
            }
            // A barrier waits on its (random) dependencies, and an INVALID header is a packet
            // not yet published, which the processor waits for (as hardware does).
            out.may_block |= [
                HSA_PACKET_TYPE_BARRIER_AND,
                HSA_PACKET_TYPE_BARRIER_OR,
                HSA_PACKET_TYPE_INVALID,
            ]
            .contains(&u32::from(t));
            if t == HSA_PACKET_TYPE_KERNEL_DISPATCH as u8 {
                // Bounded grid (x < 1024, y and z < 16): word 1 holds grid x in its high half,
                // word 2 grid y and z.
                w[1] = w[1] & 0xffff_ffff | (w[1] >> 32 & 0x3ff) << 32;
                w[2] &= 0x0000_000f_0000_000f;
            }
            out.words = words(w);
        }
    }
    out
}

fn u64_words(w: &[u32; 16]) -> Vec<u64> {
    w.chunks(2)
        .map(|p| u64::from(p[0]) | u64::from(p[1]) << 32)
        .collect()
}

fn words(w: [u64; 8]) -> [u32; 16] {
    // SAFETY: 64 bytes either way.
    unsafe { std::mem::transmute(w) }
}

/// A kernel dispatch packet: a real or forged kernel object, dimensions and sizes from the
/// edges of their ranges, kernarg pointers valid or not, kernarg contents pointing anywhere.
fn dispatch(rt: &Hsa, sc: &mut Scene, b: &mut Bytes, done: u64) -> [u32; 16] {
    let (_, k) = rt.kernels[b.below(rt.kernels.len())];
    let object = match b.below(8) {
        0 => 0,
        1 => b.u64(),
        2 => k.object + u64::from(b.u8() % 64 + 1),
        3 => sc.data as u64,
        4 => rt.executable.handle,
        _ => k.object,
    };
    let small = |b: &mut Bytes| -> u32 {
        match b.below(6) {
            0 => 0,
            1 => 1,
            2 => 64,
            3 => 256,
            4 => 1024,
            _ => u32::from(b.u16()),
        }
    };
    let wg = [small(b), small(b), small(b)];
    let mut grid = [small(b), small(b), small(b)];
    // Bounded work: at most 2^14 work-items (a huge valid grid is slow, not wrong).
    // Zeros count as 1: dimensions past `setup`'s count are taken as 1 whatever they say.
    while grid.iter().map(|&g| u64::from(g.max(1))).product::<u64>() > 1 << 14 {
        let i = grid.iter().enumerate().max_by_key(|(_, g)| **g).unwrap().0;
        grid[i] /= 2;
    }
    // And at most 2^10 work-groups: work-groups smaller than the grid in a dimension (a
    // work-group of 1 x 1024 over a grid of 127 x 1 x 128 is 16,256 one-item work-groups) made
    // inputs that ran for seconds on a busy machine, each wave up to the instruction budget.
    let groups = |g: &[u32; 3]| -> u64 {
        (0..3)
            .map(|d| u64::from(g[d].max(1)).div_ceil(u64::from(wg[d].max(1))))
            .product()
    };
    while groups(&grid) > 1 << 10 {
        let i = (0..3)
            .max_by_key(|&d| u64::from(grid[d].max(1)).div_ceil(u64::from(wg[d].max(1))))
            .unwrap();
        grid[i] /= 2;
    }
    let segment = |b: &mut Bytes, normal: u32| match b.below(6) {
        0 => 0,
        1 => u32::MAX,
        2 => 65536,
        3 => b.u32(),
        _ => normal,
    };
    let dims = match b.below(8) {
        0 => u16::from(b.u8()) & 3,
        1..=3 => 1,
        4 | 5 => 2,
        _ => 3,
    };
    let kernarg = match b.below(8) {
        0 => 0,
        1 => b.u64(),
        2 => sc.freed,
        3 => sc.kernarg as u64 + KERNARG as u64 - 8,
        _ => sc.kernarg as u64,
    };
    // Contents: pointers and small counts (the spin kernel's count is its second argument).
    for i in 0..KERNARG / 8 {
        let v = match b.below(4) {
            0 => sc.pointer(b),
            1 => u64::from(b.u16()),
            2 => b.u64(),
            _ => sc.data as u64,
        };
        // SAFETY: in bounds of the kernarg allocation.
        unsafe { sc.kernarg.cast::<u64>().add(i).write(v) };
    }
    let p = hsa_kernel_dispatch_packet_t {
        setup: dims,
        workgroup_size_x: wg[0] as u16,
        workgroup_size_y: wg[1] as u16,
        workgroup_size_z: wg[2] as u16,
        grid_size_x: grid[0],
        grid_size_y: grid[1],
        grid_size_z: grid[2],
        private_segment_size: segment(b, k.private_size),
        group_segment_size: segment(b, k.group_size + 4096),
        kernel_object: object,
        kernarg_address: kernarg as *mut c_void,
        completion_signal: hsa_signal_t { handle: done },
        ..Default::default()
    };
    let mut w = packet_words(&p, HSA_PACKET_TYPE_KERNEL_DISPATCH);
    w[0] = w[0] & 0xffff_0000 | header(b, HSA_PACKET_TYPE_KERNEL_DISPATCH);
    w
}

/// Waits until every packet submitted to `queue` has ended, its completion signal included: a
/// barrier-AND packet with the barrier bit (launched only once every earlier packet completed)
/// and no dependencies. Without this, a late decrement through a destroyed signal's handle hits
/// the signal the next input creates at the same address. Returns `true` when the queue failed
/// instead (the barrier's signal then stays with the scene, destroyed after the queue).
fn drain(rt: &Hsa, sc: &mut Scene, queue: *mut hsa_queue_t, errors_before: u32) -> bool {
    let done = sc.signal(rt, 1);
    let mut w = [0u64; 8];
    w[0] = u64::from(
        HSA_PACKET_TYPE_BARRIER_AND
            | 1 << HSA_PACKET_HEADER_BARRIER
            | HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE
            | HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE,
    );
    w[7] = done.handle;
    submit(queue, &words(w));
    let start = Instant::now();
    loop {
        if hsa::hsa_signal_load_scacquire(done) == 0 {
            return false;
        }
        if ERRORS.load(Ordering::SeqCst) != errors_before {
            return true;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "a barrier packet after completed packets did not complete"
        );
        std::thread::sleep(Duration::from_micros(50));
    }
}

fuzz_target!(|data: &[u8]| {
    let rt = hsa();
    let mut b = Bytes::new(data);
    let mut guard = QUEUE.lock().unwrap_or_else(|e| e.into_inner());
    let queue = guard.get_or_insert_with(|| Q(new_queue(rt, 64))).0;
    let errors_before = ERRORS.load(Ordering::SeqCst);
    let mut sc = Scene::new(rt);
    let count = 1 + b.below(4);
    let mut packets: Vec<Built> = (0..count).map(|_| build(rt, &mut sc, &mut b)).collect();
    // A watched completion signal must be this packet's alone: a stale handle elsewhere can
    // name its slot (handles are reused addresses), and then another packet changes it too.
    let words: Vec<Vec<u64>> = packets.iter().map(|p| u64_words(&p.words)).collect();
    for (i, p) in packets.iter_mut().enumerate() {
        if let Some(s) = p.completion {
            let elsewhere = words.iter().enumerate().any(|(j, w)| {
                let own = if i == j { &w[..7] } else { &w[..] };
                own.contains(&s.handle)
            });
            if elsewhere {
                p.completion = None;
            }
        }
    }
    if std::env::var_os("SOFTHSA_FUZZ_LOG").is_some() {
        for (i, p) in packets.iter().enumerate() {
            eprintln!("packet {i} (may block: {}): {:08x?}", p.may_block, p.words);
        }
    }
    let indices: Vec<u64> = packets.iter().map(|p| submit(queue, &p.words)).collect();
    let first = indices[0];
    for s in packets.iter().flat_map(|p| &p.release) {
        hsa::hsa_signal_store_screlease(*s, 0);
    }
    let may_block = packets.iter().any(|p| p.may_block);
    let limit = if may_block {
        Duration::from_millis(20)
    } else {
        Duration::from_secs(30)
    };
    let end = first + count as u64;
    let start = Instant::now();
    let mut failed = loop {
        if ERRORS.load(Ordering::SeqCst) != errors_before {
            break true;
        }
        if hsa::hsa_queue_load_read_index_scacquire(queue) >= end {
            break false;
        }
        if start.elapsed() > limit {
            if !may_block {
                for s in &sc.signals {
                    let v = hsa::hsa_signal_load_scacquire(*s);
                    eprintln!("signal {:#x} = {v}", s.handle);
                }
                let read = hsa::hsa_queue_load_read_index_scacquire(queue);
                panic!(
                    "packets that cannot block neither completed nor failed (read index {read})"
                );
            }
            // Waiting forever is the packets' right: a destroyed queue must stop waiting.
            ok("hsa_queue_destroy (blocked)", hsa::hsa_queue_destroy(queue));
            forget_queue(queue);
            *guard = None;
            drop(sc);
            let q = new_queue(rt, 64);
            rt.check_alive(q);
            *guard = Some(Q(q));
            return;
        }
        std::thread::sleep(Duration::from_micros(50));
    };
    // Packets before the read index completed: their completion signals came.
    let mut read = hsa::hsa_queue_load_read_index_scacquire(queue);
    // The read index passing a packet says nothing of its completion signal (HSA system
    // architecture 2.8.3; softhsa decrements it after freeing the slot): the signals this input
    // made stay alive until every packet of it ended. A failed queue is destroyed below instead,
    // which waits for what still runs.
    if !failed && drain(rt, &mut sc, queue, errors_before) {
        // A fault after every packet passed the read index: a kernel stored into the read index
        // (it lies in the queue's memory, which kernels reach, as on hardware), so it says
        // nothing of which packets completed.
        failed = true;
        read = first;
    }
    for (i, p) in packets.iter().enumerate() {
        if first + (i as u64) < read {
            if let Some(s) = p.completion {
                let v = hsa::hsa_signal_wait_scacquire(
                    s,
                    HSA_SIGNAL_CONDITION_EQ,
                    0,
                    5_000_000_000,
                    HSA_WAIT_STATE_BLOCKED,
                );
                assert_eq!(v, 0, "packet {i} completed without its completion signal");
            }
        }
    }
    if failed {
        let status = LAST_STATUS.load(Ordering::SeqCst);
        assert!(
            status != HSA_STATUS_SUCCESS && status != HSA_STATUS_ERROR,
            "error callback with status {status:#x} (the generic status means an internal error)"
        );
        ok("hsa_queue_destroy", hsa::hsa_queue_destroy(queue));
        forget_queue(queue);
        *guard = None;
    }
    drop(sc);
    let q = guard.get_or_insert_with(|| Q(new_queue(rt, 64))).0;
    // After every failure, and every 16th input otherwise (a full dispatch costs more than
    // most inputs).
    static INPUTS: AtomicU64 = AtomicU64::new(0);
    if failed || INPUTS.fetch_add(1, Ordering::Relaxed).is_multiple_of(16) {
        rt.check_alive(q);
    }
});
