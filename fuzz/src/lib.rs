//! Shared pieces of the fuzz targets (`fuzz_targets/*.rs`): a byte reader that turns the
//! fuzzer's input into choices, and a process-wide HSA runtime set up once through the C API
//! (the same exported functions a C program calls), with the GPU agent, its pools and the
//! kernels of `assets/kernels.hsaco` loaded.
//!
//! The runtime is configured for fuzzing before `hsa_init`: a small instruction budget (a random
//! dispatch ends in milliseconds), 256 MiB of device memory (allocation sizes are random) and two
//! workers.

use softhsa_abi::*;
pub mod ffi;
use ffi as hsa;
use std::ffi::c_void;
use std::sync::OnceLock;

/// Reads choices from fuzz input; past the end every read yields zeros.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data }
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The next `n` bytes (fewer at the end).
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let (head, tail) = self.data.split_at(n.min(self.data.len()));
        self.data = tail;
        head
    }

    pub fn u8(&mut self) -> u8 {
        self.take(1).first().copied().unwrap_or(0)
    }

    pub fn u16(&mut self) -> u16 {
        u16::from(self.u8()) | u16::from(self.u8()) << 8
    }

    pub fn u32(&mut self) -> u32 {
        u32::from(self.u16()) | u32::from(self.u16()) << 16
    }

    pub fn u64(&mut self) -> u64 {
        u64::from(self.u32()) | u64::from(self.u32()) << 32
    }

    pub fn bool(&mut self) -> bool {
        self.u8() & 1 != 0
    }

    /// A choice in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.u8() as usize % n
    }

    /// One of `items`.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// A kernel of `assets/kernels.hsaco`, loaded for the GPU agent.
#[derive(Clone, Copy, Debug)]
pub struct Kernel {
    pub object: u64,
    pub kernarg_size: u32,
    pub group_size: u32,
    pub private_size: u32,
}

/// The runtime the targets share.
pub struct Hsa {
    pub gpu: hsa_agent_t,
    pub cpu: hsa_agent_t,
    /// The CPU agent's fine-grained pool (kernel arguments, buffers the host reads).
    pub host_pool: hsa_amd_memory_pool_t,
    /// The GPU's device-local pool.
    pub device_pool: hsa_amd_memory_pool_t,
    pub executable: hsa_executable_t,
    /// By name: scale, lds, scratch, spin, poke.
    pub kernels: Vec<(String, Kernel)>,
}

// SAFETY: handles are plain integers; the runtime behind them is thread-safe.
unsafe impl Sync for Hsa {}
// SAFETY: as above.
unsafe impl Send for Hsa {}

/// The code object of `assets/kernels.cl` (gfx906, v5).
pub const KERNELS: &[u8] = include_bytes!("../assets/kernels.hsaco");

/// Panics with the call and its status unless it succeeded: the setup must work.
pub fn ok(what: &str, status: hsa_status_t) {
    assert_eq!(status, HSA_STATUS_SUCCESS, "{what} failed");
}

/// The shared runtime, initialized on first use.
pub fn hsa() -> &'static Hsa {
    static HSA: OnceLock<Hsa> = OnceLock::new();
    HSA.get_or_init(init)
}

fn init() -> Hsa {
    for (k, v) in [
        ("SOFTHSA_INSTRUCTION_BUDGET", "200000"),
        ("SOFTHSA_DEVICE_MEMORY", "256M"),
        ("SOFTHSA_WORKERS", "2"),
    ] {
        if std::env::var_os(k).is_none() {
            std::env::set_var(k, v);
        }
    }
    ok("hsa_init", hsa::hsa_init());
    let gpu = agent(HSA_DEVICE_TYPE_GPU);
    let cpu = agent(HSA_DEVICE_TYPE_CPU);
    let host_pool = pool(cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
    let device_pool = pool(gpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
    let (executable, kernels) = load(gpu, KERNELS).expect("assets/kernels.hsaco loads");
    Hsa {
        gpu,
        cpu,
        host_pool,
        device_pool,
        executable,
        kernels,
    }
}

fn agent(kind: hsa_device_type_t) -> hsa_agent_t {
    struct Find(hsa_device_type_t, hsa_agent_t);
    unsafe extern "C" fn cb(a: hsa_agent_t, data: *mut c_void) -> hsa_status_t {
        // SAFETY: `data` is the `Find` passed below.
        let f = unsafe { &mut *data.cast::<Find>() };
        let mut t: hsa_device_type_t = 0;
        let st = hsa::hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, (&raw mut t).cast());
        if st == HSA_STATUS_SUCCESS && t == f.0 && f.1.handle == 0 {
            f.1 = a;
        }
        HSA_STATUS_SUCCESS
    }
    let mut f = Find(kind, hsa_agent_t { handle: 0 });
    ok(
        "hsa_iterate_agents",
        hsa::hsa_iterate_agents(Some(cb), (&raw mut f).cast()),
    );
    assert_ne!(f.1.handle, 0, "no agent of type {kind}");
    f.1
}

fn pool(agent: hsa_agent_t, flag: u32) -> hsa_amd_memory_pool_t {
    struct Find(u32, hsa_amd_memory_pool_t);
    unsafe extern "C" fn cb(p: hsa_amd_memory_pool_t, data: *mut c_void) -> hsa_status_t {
        // SAFETY: `data` is the `Find` passed below.
        let f = unsafe { &mut *data.cast::<Find>() };
        let (mut seg, mut flags) = (0u32, 0u32);
        let info = hsa::hsa_amd_memory_pool_get_info;
        info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, (&raw mut seg).cast());
        info(
            p,
            HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS,
            (&raw mut flags).cast(),
        );
        if seg == HSA_AMD_SEGMENT_GLOBAL && flags & f.0 != 0 && f.1.handle == 0 {
            f.1 = p;
        }
        HSA_STATUS_SUCCESS
    }
    let mut f = Find(flag, hsa_amd_memory_pool_t { handle: 0 });
    ok(
        "hsa_amd_agent_iterate_memory_pools",
        hsa::hsa_amd_agent_iterate_memory_pools(agent, Some(cb), (&raw mut f).cast()),
    );
    assert_ne!(f.1.handle, 0, "no pool with flag {flag:#x}");
    f.1
}

/// Loads `code` for `gpu` through the C API: reader, executable, load, freeze; then the kernel
/// symbols with their facts. On failure everything created is destroyed and the status returned.
pub fn load(
    gpu: hsa_agent_t,
    code: &[u8],
) -> Result<(hsa_executable_t, Vec<(String, Kernel)>), hsa_status_t> {
    let mut reader = hsa_code_object_reader_t { handle: 0 };
    let st = hsa::hsa_code_object_reader_create_from_memory(
        code.as_ptr().cast(),
        code.len(),
        &mut reader,
    );
    if st != HSA_STATUS_SUCCESS {
        return Err(st);
    }
    let mut exe = hsa_executable_t { handle: 0 };
    ok(
        "hsa_executable_create_alt",
        hsa::hsa_executable_create_alt(
            HSA_PROFILE_FULL,
            HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
            std::ptr::null(),
            &mut exe,
        ),
    );
    let mut st = hsa::hsa_executable_load_agent_code_object(
        exe,
        gpu,
        reader,
        std::ptr::null(),
        std::ptr::null_mut(),
    );
    if st == HSA_STATUS_SUCCESS {
        st = hsa::hsa_executable_freeze(exe, std::ptr::null());
    }
    // The reader may go once the code object is loaded.
    ok(
        "hsa_code_object_reader_destroy",
        hsa::hsa_code_object_reader_destroy(reader),
    );
    if st != HSA_STATUS_SUCCESS {
        ok("hsa_executable_destroy", hsa::hsa_executable_destroy(exe));
        return Err(st);
    }
    Ok((exe, kernels(exe)))
}

/// Every kernel symbol of a frozen executable, with its object and segment sizes.
pub fn kernels(exe: hsa_executable_t) -> Vec<(String, Kernel)> {
    unsafe extern "C" fn cb(
        _exe: hsa_executable_t,
        sym: hsa_executable_symbol_t,
        data: *mut c_void,
    ) -> hsa_status_t {
        // SAFETY: `data` is the Vec passed below.
        let out = unsafe { &mut *data.cast::<Vec<(String, Kernel)>>() };
        let info = |attr, p: *mut c_void| hsa::hsa_executable_symbol_get_info(sym, attr, p);
        let mut kind: u32 = 0;
        info(HSA_EXECUTABLE_SYMBOL_INFO_TYPE, (&raw mut kind).cast());
        if kind != HSA_SYMBOL_KIND_KERNEL {
            return HSA_STATUS_SUCCESS;
        }
        let mut len: u32 = 0;
        info(
            HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH,
            (&raw mut len).cast(),
        );
        let mut name = vec![0u8; len as usize];
        info(HSA_EXECUTABLE_SYMBOL_INFO_NAME, name.as_mut_ptr().cast());
        let mut k = Kernel {
            object: 0,
            kernarg_size: 0,
            group_size: 0,
            private_size: 0,
        };
        info(
            HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
            (&raw mut k.object).cast(),
        );
        info(
            HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
            (&raw mut k.kernarg_size).cast(),
        );
        info(
            HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE,
            (&raw mut k.group_size).cast(),
        );
        info(
            HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE,
            (&raw mut k.private_size).cast(),
        );
        let name = String::from_utf8_lossy(&name);
        let name = name
            .trim_end_matches('\0')
            .trim_end_matches(".kd")
            .to_string();
        out.push((name, k));
        HSA_STATUS_SUCCESS
    }
    let mut out: Vec<(String, Kernel)> = Vec::new();
    ok(
        "hsa_executable_iterate_symbols",
        hsa::hsa_executable_iterate_symbols(exe, Some(cb), (&raw mut out).cast()),
    );
    out
}

impl Hsa {
    /// The loaded kernel called `name`.
    pub fn kernel(&self, name: &str) -> Kernel {
        self.kernels
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("kernel {name} not loaded"))
            .1
    }

    /// `bytes` of fine-grained host memory the GPU may access, zero-filled.
    pub fn alloc(&self, bytes: usize) -> *mut u8 {
        let mut p: *mut c_void = std::ptr::null_mut();
        ok(
            "hsa_amd_memory_pool_allocate",
            hsa::hsa_amd_memory_pool_allocate(self.host_pool, bytes, 0, &mut p),
        );
        ok(
            "hsa_amd_agents_allow_access",
            hsa::hsa_amd_agents_allow_access(1, &self.gpu, std::ptr::null(), p),
        );
        // SAFETY: a fresh allocation of `bytes` bytes.
        unsafe { std::ptr::write_bytes(p.cast::<u8>(), 0, bytes) };
        p.cast()
    }

    pub fn free(&self, p: *mut u8) {
        ok(
            "hsa_amd_memory_pool_free",
            hsa::hsa_amd_memory_pool_free(p.cast()),
        );
    }

    pub fn signal(&self, value: i64) -> hsa_signal_t {
        let mut s = hsa_signal_t { handle: 0 };
        // SAFETY: no consumers; `s` is writable.
        ok("hsa_signal_create", unsafe {
            hsa::hsa_signal_create(value, 0, std::ptr::null(), &mut s)
        });
        s
    }

    /// Runs `scale` over 256 work-items on `queue` and checks every result: the runtime still
    /// computes correctly. Panics (a fuzz finding) otherwise.
    pub fn check_alive(&self, queue: *mut hsa_queue_t) {
        let n = 256usize;
        let k = self.kernel("scale");
        let buf = self.alloc(n * 8);
        // SAFETY: `buf` holds 2n u32s.
        let (out, inp) = unsafe { (buf.cast::<u32>(), buf.cast::<u32>().add(n)) };
        for i in 0..n {
            // SAFETY: in bounds of the allocation.
            unsafe { inp.add(i).write(i as u32 ^ 0x5a5a) };
        }
        let args = self.alloc(k.kernarg_size.max(24) as usize);
        // SAFETY: the kernarg buffer holds at least 24 bytes: out, in, n.
        unsafe {
            args.cast::<u64>().write(out as u64);
            args.cast::<u64>().add(1).write(inp as u64);
            args.add(16).cast::<u32>().write(n as u32);
        }
        let done = self.signal(1);
        let p = hsa_kernel_dispatch_packet_t {
            setup: 1,
            workgroup_size_x: 64,
            workgroup_size_y: 1,
            workgroup_size_z: 1,
            grid_size_x: n as u32,
            grid_size_y: 1,
            grid_size_z: 1,
            kernel_object: k.object,
            kernarg_address: args.cast(),
            completion_signal: done,
            private_segment_size: k.private_size,
            group_segment_size: k.group_size,
            ..Default::default()
        };
        submit(queue, &packet_words(&p, HSA_PACKET_TYPE_KERNEL_DISPATCH));
        let v = hsa::hsa_signal_wait_scacquire(
            done,
            HSA_SIGNAL_CONDITION_LT,
            1,
            20_000_000_000,
            HSA_WAIT_STATE_BLOCKED,
        );
        assert_eq!(
            v, 0,
            "a valid dispatch did not complete after the fuzz input"
        );
        for i in 0..n {
            // SAFETY: in bounds; the dispatch completed (acquire by the wait).
            let (got, x) = unsafe { (out.add(i).read(), inp.add(i).read()) };
            assert_eq!(got, x.wrapping_mul(3).wrapping_add(1), "scale[{i}] wrong");
        }
        ok("hsa_signal_destroy", hsa::hsa_signal_destroy(done));
        self.free(args);
        self.free(buf);
    }
}

/// A packet's 16 words with its header (system-scope fences, barrier bit) in the first word.
pub fn packet_words(p: &hsa_kernel_dispatch_packet_t, kind: u32) -> [u32; 16] {
    // SAFETY: the packet is 64 bytes of plain integers and pointers.
    let mut w: [u32; 16] = unsafe { std::mem::transmute_copy(p) };
    let header = kind
        | 1 << HSA_PACKET_HEADER_BARRIER
        | HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE
        | HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
    w[0] = header | (w[0] & 0xffff_0000);
    w
}

/// A queue's ring, doorbell and size as its creation published them. Kept apart from the
/// `hsa_queue_t`, which lies in memory kernels may write (a fuzzed kernel's stray store can
/// change it, as on hardware); the harness must not trust it after a dispatch.
#[derive(Clone, Copy)]
struct Ring {
    base: usize,
    size: u32,
    doorbell: hsa_signal_t,
}

static RINGS: std::sync::Mutex<Vec<(usize, Ring)>> = std::sync::Mutex::new(Vec::new());

fn ring(queue: *mut hsa_queue_t) -> Ring {
    let mut rings = RINGS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, r)) = rings.iter().find(|(q, _)| *q == queue as usize) {
        return *r;
    }
    // SAFETY: a live queue the caller created, read before any dispatch ran on it.
    let q = unsafe { &*queue };
    let r = Ring {
        base: q.base_address as usize,
        size: q.size,
        doorbell: q.doorbell_signal,
    };
    rings.push((queue as usize, r));
    r
}

/// Records a new queue's ring (call right after creating it, before any dispatch).
pub fn track_queue(queue: *mut hsa_queue_t) {
    ring(queue);
}

/// Forgets a destroyed queue's ring (its address may name a new queue later).
pub fn forget_queue(queue: *mut hsa_queue_t) {
    let mut rings = RINGS.lock().unwrap_or_else(|e| e.into_inner());
    rings.retain(|(q, _)| *q != queue as usize);
}

/// Writes one packet into the next slot of `queue` (waiting for room; the first word last, with
/// release) and rings the doorbell. Returns the packet's index. The first call for a queue must
/// come before any dispatch could have written its `hsa_queue_t` (see [`Ring`]).
pub fn submit(queue: *mut hsa_queue_t, words: &[u32; 16]) -> u64 {
    let q = ring(queue);
    let index = hsa::hsa_queue_add_write_index_screlease(queue, 1);
    while index - hsa::hsa_queue_load_read_index_scacquire(queue) >= u64::from(q.size) {
        std::thread::yield_now();
    }
    let slot = (q.base as *mut u32).wrapping_add((index % u64::from(q.size)) as usize * 16);
    // SAFETY: the slot is ours until we publish its header; words 1..16 first, then word 0.
    unsafe {
        for (i, w) in words.iter().enumerate().skip(1) {
            slot.add(i).write_volatile(*w);
        }
        std::sync::atomic::AtomicU32::from_ptr(slot)
            .store(words[0], std::sync::atomic::Ordering::Release);
    }
    hsa::hsa_signal_store_screlease(q.doorbell, index as i64);
    index
}
