//! The HSA calls `softhsa demo` makes, behind a small safe wrapper that owns the runtime
//! reference (`hsa_init` .. `hsa_shut_down`) and what it allocates. The functions are
//! softhsa-capi's exports with the signatures of hsa.h / hsa_ext_amd.h, resolved at link time.
use softhsa_abi::*;
use std::ffi::c_void;

type AgentCb = unsafe extern "C" fn(hsa_agent_t, *mut c_void) -> hsa_status_t;
type PoolCb = unsafe extern "C" fn(hsa_amd_memory_pool_t, *mut c_void) -> hsa_status_t;
type QueueCb = unsafe extern "C" fn(hsa_status_t, *mut hsa_queue_t, *mut c_void);

// softhsa-capi's exports (the signatures of hsa.h and hsa_ext_amd.h).
extern "C" {
    fn hsa_init() -> hsa_status_t;
    fn hsa_shut_down() -> hsa_status_t;
    fn hsa_status_string(s: hsa_status_t, text: *mut *const std::ffi::c_char) -> hsa_status_t;
    fn hsa_system_get_info(a: hsa_system_info_t, v: *mut c_void) -> hsa_status_t;
    fn hsa_iterate_agents(cb: Option<AgentCb>, data: *mut c_void) -> hsa_status_t;
    fn hsa_agent_get_info(a: hsa_agent_t, i: hsa_agent_info_t, v: *mut c_void) -> hsa_status_t;
    fn hsa_amd_agent_iterate_memory_pools(
        a: hsa_agent_t,
        cb: Option<PoolCb>,
        data: *mut c_void,
    ) -> hsa_status_t;
    fn hsa_amd_memory_pool_get_info(
        p: hsa_amd_memory_pool_t,
        i: hsa_amd_memory_pool_info_t,
        v: *mut c_void,
    ) -> hsa_status_t;
    fn hsa_amd_memory_pool_allocate(
        p: hsa_amd_memory_pool_t,
        size: usize,
        flags: u32,
        ptr: *mut *mut c_void,
    ) -> hsa_status_t;
    fn hsa_amd_memory_pool_free(ptr: *mut c_void) -> hsa_status_t;
    fn hsa_amd_agents_allow_access(
        n: u32,
        agents: *const hsa_agent_t,
        flags: *const u32,
        ptr: *const c_void,
    ) -> hsa_status_t;
    fn hsa_code_object_reader_create_from_memory(
        bytes: *const c_void,
        size: usize,
        reader: *mut hsa_code_object_reader_t,
    ) -> hsa_status_t;
    fn hsa_code_object_reader_destroy(r: hsa_code_object_reader_t) -> hsa_status_t;
    fn hsa_executable_create_alt(
        profile: hsa_profile_t,
        rounding: hsa_default_float_rounding_mode_t,
        options: *const std::ffi::c_char,
        exec: *mut hsa_executable_t,
    ) -> hsa_status_t;
    fn hsa_executable_load_agent_code_object(
        exec: hsa_executable_t,
        agent: hsa_agent_t,
        reader: hsa_code_object_reader_t,
        options: *const std::ffi::c_char,
        loaded: *mut c_void,
    ) -> hsa_status_t;
    fn hsa_executable_freeze(
        exec: hsa_executable_t,
        options: *const std::ffi::c_char,
    ) -> hsa_status_t;
    fn hsa_executable_destroy(exec: hsa_executable_t) -> hsa_status_t;
    fn hsa_executable_get_symbol_by_name(
        exec: hsa_executable_t,
        name: *const std::ffi::c_char,
        agent: *const hsa_agent_t,
        sym: *mut hsa_executable_symbol_t,
    ) -> hsa_status_t;
    fn hsa_executable_symbol_get_info(
        sym: hsa_executable_symbol_t,
        i: hsa_executable_symbol_info_t,
        v: *mut c_void,
    ) -> hsa_status_t;
    fn hsa_queue_create(
        agent: hsa_agent_t,
        size: u32,
        type_: hsa_queue_type32_t,
        cb: Option<QueueCb>,
        data: *mut c_void,
        private_size: u32,
        group_size: u32,
        queue: *mut *mut hsa_queue_t,
    ) -> hsa_status_t;
    fn hsa_queue_destroy(q: *mut hsa_queue_t) -> hsa_status_t;
    fn hsa_queue_add_write_index_scacq_screl(q: *const hsa_queue_t, v: u64) -> u64;
    fn hsa_signal_create(
        initial: hsa_signal_value_t,
        n: u32,
        consumers: *const hsa_agent_t,
        s: *mut hsa_signal_t,
    ) -> hsa_status_t;
    fn hsa_signal_destroy(s: hsa_signal_t) -> hsa_status_t;
    fn hsa_signal_store_screlease(s: hsa_signal_t, v: hsa_signal_value_t);
    fn hsa_signal_wait_scacquire(
        s: hsa_signal_t,
        cond: hsa_signal_condition_t,
        compare: hsa_signal_value_t,
        timeout_hint: u64,
        state: hsa_wait_state_t,
    ) -> hsa_signal_value_t;
    fn hsa_amd_profiling_set_profiler_enabled(q: *mut hsa_queue_t, on: i32) -> hsa_status_t;
    fn hsa_amd_profiling_get_dispatch_time(
        agent: hsa_agent_t,
        s: hsa_signal_t,
        t: *mut hsa_amd_profiling_dispatch_time_t,
    ) -> hsa_status_t;
}

/// An HSA status as an error message.
fn check(what: &str, st: hsa_status_t) -> Result<(), String> {
    if st == HSA_STATUS_SUCCESS {
        return Ok(());
    }
    let mut text: *const std::ffi::c_char = std::ptr::null();
    // SAFETY: `text` is a valid out-pointer; the runtime stores a static C string or nothing.
    let known = unsafe { hsa_status_string(st, &mut text) } == HSA_STATUS_SUCCESS;
    let msg = if known && !text.is_null() {
        // SAFETY: hsa_status_string returned a NUL-terminated string that lives forever.
        unsafe { std::ffi::CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned()
    } else {
        String::from("unknown status")
    };
    Err(format!("{what} failed: status {st:#x} ({msg})"))
}

pub struct Pools {
    pub kernarg: hsa_amd_memory_pool_t,
    pub fine: hsa_amd_memory_pool_t,
}

pub struct Kernel {
    object: u64,
    pub kernarg_size: u32,
    group_size: u32,
    private_size: u32,
}

/// An initialized runtime; dropping it frees what it allocated and calls `hsa_shut_down`.
pub struct Hsa {
    allocations: std::cell::RefCell<Vec<*mut c_void>>,
    kernels: std::cell::RefCell<Vec<(hsa_executable_t, hsa_code_object_reader_t)>>,
    /// The runtime's wave-instruction total when this session began.
    instructions_at_init: u64,
}

/// hsa_iterate_agents callback: `data` is a `(device type wanted, first agent of that type)`.
unsafe extern "C" fn pick_agent(a: hsa_agent_t, data: *mut c_void) -> hsa_status_t {
    let mut t: hsa_device_type_t = 0;
    // SAFETY: `t` is a valid out-pointer of the attribute's type (a u32 enum).
    let st = unsafe { hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, (&raw mut t).cast()) };
    // SAFETY: `data` is the tuple that Hsa::agent() passed, alive for the whole iteration.
    let (wanted, found) = unsafe { &mut *data.cast::<(hsa_device_type_t, Option<hsa_agent_t>)>() };
    if st == HSA_STATUS_SUCCESS && t == *wanted {
        found.get_or_insert(a);
    }
    st
}

unsafe extern "C" fn pick_pool(p: hsa_amd_memory_pool_t, data: *mut c_void) -> hsa_status_t {
    let (mut seg, mut flags): (hsa_amd_segment_t, u32) = (0, 0);
    // SAFETY: valid out-pointers of the attributes' types (u32 enums / flag words).
    let st = unsafe {
        hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, (&raw mut seg).cast())
            | hsa_amd_memory_pool_get_info(
                p,
                HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS,
                (&raw mut flags).cast(),
            )
    };
    if st == HSA_STATUS_SUCCESS && seg == HSA_AMD_SEGMENT_GLOBAL {
        // SAFETY: `data` is the pair of options that cpu_pools() passed.
        let out = unsafe { &mut *data.cast::<[Option<hsa_amd_memory_pool_t>; 2]>() };
        if flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT != 0 {
            out[0].get_or_insert(p);
        }
        if flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED != 0 {
            out[1].get_or_insert(p);
        }
    }
    HSA_STATUS_SUCCESS
}

unsafe extern "C" fn on_queue_error(st: hsa_status_t, _q: *mut hsa_queue_t, _d: *mut c_void) {
    eprintln!("softhsa demo: queue error {st:#x}");
}

impl Hsa {
    pub fn init() -> Result<Hsa, String> {
        // SAFETY: no preconditions.
        check("hsa_init", unsafe { hsa_init() })?;
        Ok(Hsa {
            allocations: Default::default(),
            kernels: Default::default(),
            instructions_at_init: softhsa_runtime::profiling::dispatch_totals().wave_instructions,
        })
    }

    /// The first agent of a device type.
    pub fn agent(&self, device: hsa_device_type_t) -> Result<hsa_agent_t, String> {
        let mut data: (hsa_device_type_t, Option<hsa_agent_t>) = (device, None);
        // SAFETY: the callback only accesses `data`, which outlives the call.
        let st = unsafe { hsa_iterate_agents(Some(pick_agent), (&raw mut data).cast()) };
        check("hsa_iterate_agents", st)?;
        data.1
            .ok_or_else(|| format!("no agent of device type {device}"))
    }

    /// The CPU agent's kernarg and fine-grained pools (HSA system memory).
    pub fn cpu_pools(&self) -> Result<Pools, String> {
        let cpu = self.agent(HSA_DEVICE_TYPE_CPU)?;
        let mut pools: [Option<hsa_amd_memory_pool_t>; 2] = [None, None];
        // SAFETY: the callback writes only through `data` (= `pools`).
        check("hsa_amd_agent_iterate_memory_pools", unsafe {
            hsa_amd_agent_iterate_memory_pools(cpu, Some(pick_pool), (&raw mut pools).cast())
        })?;
        match pools {
            [Some(kernarg), Some(fine)] => Ok(Pools { kernarg, fine }),
            _ => Err("the CPU agent has no kernarg or fine-grained pool".into()),
        }
    }

    /// Zero-filled memory from `pool` that `gpu` may access; freed when `self` drops.
    pub fn alloc(
        &self,
        pool: hsa_amd_memory_pool_t,
        bytes: usize,
        gpu: hsa_agent_t,
    ) -> Result<*mut c_void, String> {
        let mut p = std::ptr::null_mut();
        // SAFETY: `p` is a valid out-pointer.
        check("hsa_amd_memory_pool_allocate", unsafe {
            hsa_amd_memory_pool_allocate(pool, bytes, 0, &mut p)
        })?;
        self.allocations.borrow_mut().push(p);
        // SAFETY: `p` is a live allocation of `bytes` bytes; one agent in the array.
        check("hsa_amd_agents_allow_access", unsafe {
            hsa_amd_agents_allow_access(1, &gpu, std::ptr::null(), p)
        })?;
        // SAFETY: `p` is writable for `bytes` bytes and not yet shared with the device.
        unsafe { std::ptr::write_bytes(p.cast::<u8>(), 0, bytes) };
        Ok(p)
    }

    pub fn load_kernel(
        &self,
        gpu: hsa_agent_t,
        code: &'static [u8],
        symbol: &std::ffi::CStr,
    ) -> Result<Kernel, String> {
        let mut reader = hsa_code_object_reader_t::default();
        let mut exec = hsa_executable_t::default();
        // SAFETY: `code` lives for the whole program; the out-pointers are valid.
        unsafe {
            check(
                "hsa_code_object_reader_create_from_memory",
                hsa_code_object_reader_create_from_memory(
                    code.as_ptr().cast(),
                    code.len(),
                    &mut reader,
                ),
            )?;
            check(
                "hsa_executable_create_alt",
                hsa_executable_create_alt(
                    HSA_PROFILE_FULL,
                    HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                    std::ptr::null(),
                    &mut exec,
                ),
            )?;
        }
        self.kernels.borrow_mut().push((exec, reader));
        let mut sym = hsa_executable_symbol_t::default();
        let mut k = Kernel {
            object: 0,
            kernarg_size: 0,
            group_size: 0,
            private_size: 0,
        };
        // SAFETY: handles just created; NUL-terminated names; out-pointers of the
        // attributes' types (u64 kernel object, u32 sizes).
        unsafe {
            check(
                "hsa_executable_load_agent_code_object",
                hsa_executable_load_agent_code_object(
                    exec,
                    gpu,
                    reader,
                    std::ptr::null(),
                    std::ptr::null_mut(),
                ),
            )?;
            check(
                "hsa_executable_freeze",
                hsa_executable_freeze(exec, std::ptr::null()),
            )?;
            check(
                "hsa_executable_get_symbol_by_name",
                hsa_executable_get_symbol_by_name(exec, symbol.as_ptr(), &gpu, &mut sym),
            )?;
            for (attr, out) in [
                (
                    HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
                    (&raw mut k.object).cast::<c_void>(),
                ),
                (
                    HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
                    (&raw mut k.kernarg_size).cast(),
                ),
                (
                    HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE,
                    (&raw mut k.group_size).cast(),
                ),
                (
                    HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE,
                    (&raw mut k.private_size).cast(),
                ),
            ] {
                check(
                    "hsa_executable_symbol_get_info",
                    hsa_executable_symbol_get_info(sym, attr, out),
                )?;
            }
        }
        Ok(k)
    }

    /// One 2-D dispatch on a fresh queue, waited for. Returns the dispatch time the
    /// runtime's profiling recorded, in ns, when it has one.
    pub fn dispatch(
        &self,
        gpu: hsa_agent_t,
        k: &Kernel,
        grid: [u32; 2],
        wg: [u16; 2],
        kernarg: *mut c_void,
    ) -> Result<Option<u64>, String> {
        let mut q: *mut hsa_queue_t = std::ptr::null_mut();
        let mut done = hsa_signal_t::default();
        // SAFETY: valid out-pointers; the callback takes no data.
        unsafe {
            check(
                "hsa_queue_create",
                hsa_queue_create(
                    gpu,
                    64,
                    HSA_QUEUE_TYPE_SINGLE,
                    Some(on_queue_error),
                    std::ptr::null_mut(),
                    u32::MAX,
                    u32::MAX,
                    &mut q,
                ),
            )?;
            check(
                "hsa_signal_create",
                hsa_signal_create(1, 0, std::ptr::null(), &mut done),
            )?;
            // Profiling is optional: without it the caller uses its own clock.
            hsa_amd_profiling_set_profiler_enabled(q, 1);
        }
        let packet = hsa_kernel_dispatch_packet_t {
            setup: aql::dispatch_setup(2),
            workgroup_size_x: wg[0],
            workgroup_size_y: wg[1],
            workgroup_size_z: 1,
            grid_size_x: grid[0],
            grid_size_y: grid[1],
            grid_size_z: 1,
            private_segment_size: k.private_size,
            group_segment_size: k.group_size,
            kernel_object: k.object,
            kernarg_address: kernarg,
            completion_signal: done,
            ..Default::default()
        };
        let header = aql::packet_header(
            HSA_PACKET_TYPE_KERNEL_DISPATCH,
            true,
            HSA_FENCE_SCOPE_SYSTEM,
            HSA_FENCE_SCOPE_SYSTEM,
        );
        // SAFETY: `q` is a live queue of at least 64 slots of 64-byte packets; the slot at
        // `index` belongs to this thread once the write index is reserved (nothing else
        // uses the queue). The header word is published last, atomically with release
        // ordering, so the packet processor never sees a half-written packet.
        let value = unsafe {
            let index = hsa_queue_add_write_index_scacq_screl(q, 1);
            let slot = (*q)
                .base_address
                .cast::<hsa_kernel_dispatch_packet_t>()
                .add((index % u64::from((*q).size)) as usize);
            std::ptr::addr_of_mut!((*slot).workgroup_size_x)
                .cast::<u8>()
                .copy_from_nonoverlapping(
                    std::ptr::addr_of!(packet.workgroup_size_x).cast(),
                    std::mem::size_of_val(&packet) - 4,
                );
            let word = &*slot.cast::<std::sync::atomic::AtomicU32>();
            word.store(
                aql::header_word(header, packet.setup),
                std::sync::atomic::Ordering::Release,
            );
            hsa_signal_store_screlease((*q).doorbell_signal, index as hsa_signal_value_t);
            let mut v = 1;
            for _ in 0..600 {
                v = hsa_signal_wait_scacquire(
                    done,
                    HSA_SIGNAL_CONDITION_LT,
                    1,
                    100_000_000,
                    HSA_WAIT_STATE_BLOCKED,
                );
                if v < 1 {
                    break;
                }
            }
            v
        };
        let mut times = hsa_amd_profiling_dispatch_time_t::default();
        let mut freq = 0u64;
        // SAFETY: live agent and signal; valid out-pointers.
        let timed = unsafe {
            hsa_amd_profiling_get_dispatch_time(gpu, done, &mut times) == HSA_STATUS_SUCCESS
                && hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, (&raw mut freq).cast())
                    == HSA_STATUS_SUCCESS
        };
        // SAFETY: the queue and signal are ours and no longer in use (or abandoned on error).
        unsafe {
            if value < 1 {
                hsa_signal_destroy(done);
            }
            hsa_queue_destroy(q);
        }
        if value >= 1 {
            return Err("the dispatch did not complete within a minute".into());
        }
        Ok((timed && freq > 0 && times.end > times.start)
            .then(|| ((times.end - times.start) as u128 * 1_000_000_000 / u128::from(freq)) as u64))
    }

    /// Wave instructions executed since this session began (the runtime runs in this process).
    pub fn wave_instructions(&self) -> Option<u64> {
        let now = softhsa_runtime::profiling::dispatch_totals().wave_instructions;
        Some(now - self.instructions_at_init)
    }
}

impl Drop for Hsa {
    fn drop(&mut self) {
        // SAFETY: each pointer / handle was created by this object and is used by nothing
        // else now (every dispatch was waited for).
        unsafe {
            for p in self.allocations.take() {
                hsa_amd_memory_pool_free(p);
            }
            for (exec, reader) in self.kernels.take() {
                hsa_executable_destroy(exec);
                hsa_code_object_reader_destroy(reader);
            }
            hsa_shut_down();
        }
    }
}
