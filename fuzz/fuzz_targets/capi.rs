//! The public C API: random sequences of calls (signals, signal groups, queues and their indices,
//! pools, allocations, locking, pointer info, fills, copies, every get_info, iterators whose
//! callbacks break or fail, readers, executables, symbols, deprecated code objects, init and
//! shut-down pairs), each handle argument live, stale (destroyed earlier), of another kind, zero
//! or forged, each output pointer valid or NULL.
//!
//! Oracles: no panic (libFuzzer's hook aborts on any, even one the C boundary catches), no
//! crash, a status that is never the generic HSA_STATUS_ERROR (what a caught internal error
//! returns), undersized `hsa_amd_pointer_info` outputs written only up to the size the caller
//! gave, and at the end of each input, with everything destroyed, a valid dispatch still works.
//! Pointers the API dereferences by contract (copy sources, lock ranges) are always valid: a
//! forged one there is the caller's undefined behaviour, in ROCm as here.
#![no_main]

use libfuzzer_sys::fuzz_target;
use softhsa_abi::*;
use softhsa_fuzz::ffi as hsa;
use softhsa_fuzz::{hsa, Bytes, Hsa, KERNELS};
use std::ffi::c_void;
use std::sync::Mutex;

/// Live and dead objects of one kind.
#[derive(Default)]
struct Pool {
    live: Vec<u64>,
    dead: Vec<u64>,
}

impl Pool {
    /// A new object: handles are reused (addresses, table slots), so it may have a dead one's.
    fn add(&mut self, h: u64) {
        self.dead.retain(|&x| x != h);
        self.live.push(h);
    }

    fn kill(&mut self, h: u64) {
        if let Some(i) = self.live.iter().position(|&x| x == h) {
            self.live.swap_remove(i);
            self.dead.push(h);
        }
    }
}

#[derive(Default)]
struct State {
    signals: Pool,
    groups: Pool,
    queues: Pool,
    allocs: Pool,
    readers: Pool,
    executables: Pool,
    code_objects: Pool,
    symbols: Vec<u64>,
    locked: Vec<(Vec<u8>, u64)>,
    inits: u32,
}

/// Output buffer with room for any attribute (names are 64 bytes; a few are arrays).
struct Out([u64; 512]);

impl State {
    /// A handle argument: live, stale, of another kind, 0 or forged.
    fn handle(&self, b: &mut Bytes, kind: fn(&State) -> &Pool) -> u64 {
        let p = kind(self);
        let from = |v: &Vec<u64>, b: &mut Bytes| v.get(b.below(v.len().max(1))).copied();
        match b.below(8) {
            0..=3 => from(&p.live, b),
            4 => from(&p.dead, b),
            5 => from(&self.signals.live, b).or(from(&self.executables.live, b)),
            6 => Some(0),
            _ => None,
        }
        .unwrap_or_else(|| b.u64())
    }

    fn agent(&self, rt: &Hsa, b: &mut Bytes) -> hsa_agent_t {
        let handle = match b.below(6) {
            0 | 1 => rt.gpu.handle,
            2 => rt.cpu.handle,
            3 => 0,
            4 => rt.host_pool.handle,
            _ => b.u64(),
        };
        hsa_agent_t { handle }
    }
}

/// `SOFTHSA_FUZZ_LOG=1`: every call's status on stderr (to read a reproducer).
fn log_calls() -> bool {
    static LOG: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *LOG.get_or_init(|| std::env::var_os("SOFTHSA_FUZZ_LOG").is_some())
}

/// A status that says an internal error was caught: a finding.
fn checked(what: &str, st: hsa_status_t) -> hsa_status_t {
    if log_calls() {
        eprintln!("{what} -> {st:#x}");
    }
    assert_ne!(
        st, HSA_STATUS_ERROR,
        "{what} returned the generic error (internal error)"
    );
    st
}

unsafe extern "C" fn iter_agent(_a: hsa_agent_t, d: *mut c_void) -> hsa_status_t {
    iter_status(d)
}
unsafe extern "C" fn iter_pool(_p: hsa_amd_memory_pool_t, d: *mut c_void) -> hsa_status_t {
    iter_status(d)
}
unsafe extern "C" fn iter_region(_p: hsa_region_t, d: *mut c_void) -> hsa_status_t {
    iter_status(d)
}
unsafe extern "C" fn iter_isa(_p: hsa_isa_t, d: *mut c_void) -> hsa_status_t {
    iter_status(d)
}
unsafe extern "C" fn iter_symbol(
    _e: hsa_executable_t,
    s: hsa_executable_symbol_t,
    d: *mut c_void,
) -> hsa_status_t {
    SYMBOLS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(s.handle);
    iter_status(d)
}
/// Symbols seen by the last iteration.
static SYMBOLS: Mutex<Vec<u64>> = Mutex::new(Vec::new());

/// The status an iteration callback returns: `d` points to a counter; the third call breaks,
/// the fifth fails with a non-generic error.
unsafe fn iter_status(d: *mut c_void) -> hsa_status_t {
    // SAFETY: every iteration below passes a `u32` counter.
    let n = unsafe { &mut *d.cast::<u32>() };
    *n += 1;
    match *n {
        3 => HSA_STATUS_INFO_BREAK,
        5 => HSA_STATUS_ERROR_INVALID_ARGUMENT,
        _ => HSA_STATUS_SUCCESS,
    }
}

fn step(rt: &Hsa, s: &mut State, b: &mut Bytes) {
    let mut out = Out([0; 512]);
    let o: *mut c_void = if b.below(8) == 0 {
        std::ptr::null_mut()
    } else {
        out.0.as_mut_ptr().cast()
    };
    match b.below(24) {
        0 => {
            let mut sig = hsa_signal_t { handle: 0 };
            let agents = [s.agent(rt, b), s.agent(rt, b)];
            let n = b.below(3) as u32;
            let consumers = if b.bool() {
                agents.as_ptr()
            } else {
                std::ptr::null()
            };
            // SAFETY: `consumers` is NULL or holds 2 agents; `sig` is writable.
            let st = unsafe { hsa::hsa_signal_create(b.u64() as i64, n, consumers, &mut sig) };
            if checked(&format!("hsa_signal_create {:#x}", sig.handle), st) == HSA_STATUS_SUCCESS {
                s.signals.add(sig.handle);
            }
        }
        1 => {
            let h = s.handle(b, |s| &s.signals);
            let st = hsa::hsa_signal_destroy(hsa_signal_t { handle: h });
            if checked(&format!("hsa_signal_destroy {h:#x}"), st) == HSA_STATUS_SUCCESS {
                s.signals.kill(h);
            }
        }
        2 => {
            let sig = hsa_signal_t {
                handle: s.handle(b, |s| &s.signals),
            };
            let v = b.u64() as i64;
            match b.below(9) {
                0 => drop(hsa::hsa_signal_load_scacquire(sig)),
                1 => hsa::hsa_signal_store_screlease(sig, v),
                2 => hsa::hsa_signal_add_scacq_screl(sig, v),
                3 => hsa::hsa_signal_subtract_relaxed(sig, v),
                4 => hsa::hsa_signal_and_acquire(sig, v),
                5 => hsa::hsa_signal_xor_release(sig, v),
                6 => drop(hsa::hsa_signal_exchange_scacq_screl(sig, v)),
                7 => drop(hsa::hsa_signal_cas_relaxed(sig, b.u64() as i64, v)),
                _ => hsa::hsa_signal_silent_store_relaxed(sig, v),
            }
        }
        3 => {
            let sig = hsa_signal_t {
                handle: s.handle(b, |s| &s.signals),
            };
            let cond = u32::from(b.u8() % 5);
            let hint = u32::from(b.u8() % 2);
            hsa::hsa_signal_wait_scacquire(sig, cond, b.u64() as i64, u64::from(b.u16()), hint);
        }
        4 => {
            let n = 1 + b.below(4);
            let sigs: Vec<hsa_signal_t> = (0..n)
                .map(|_| hsa_signal_t {
                    handle: s.handle(b, |s| &s.signals),
                })
                .collect();
            let conds: Vec<u32> = (0..n).map(|_| u32::from(b.u8() % 5)).collect();
            let values: Vec<i64> = (0..n).map(|_| b.u64() as i64).collect();
            let mut got = 0i64;
            // SAFETY: the three arrays hold `n` entries; `got` is writable.
            unsafe {
                hsa::hsa_amd_signal_wait_any(
                    n as u32,
                    sigs.as_ptr() as *mut _,
                    conds.as_ptr() as *mut _,
                    values.as_ptr() as *mut _,
                    u64::from(b.u16()),
                    HSA_WAIT_STATE_ACTIVE,
                    &mut got,
                )
            };
        }
        5 => {
            let n = b.below(4);
            let sigs: Vec<hsa_signal_t> = (0..n)
                .map(|_| hsa_signal_t {
                    handle: s.handle(b, |s| &s.signals),
                })
                .collect();
            let mut g = hsa_signal_group_t { handle: 0 };
            // SAFETY: `sigs` holds `n` signals; no consumers; `g` is writable.
            let st = unsafe {
                hsa::hsa_signal_group_create(n as u32, sigs.as_ptr(), 0, std::ptr::null(), &mut g)
            };
            if checked("hsa_signal_group_create", st) == HSA_STATUS_SUCCESS {
                s.groups.add(g.handle);
            }
        }
        6 => {
            let h = s.handle(b, |s| &s.groups);
            let st = hsa::hsa_signal_group_destroy(hsa_signal_group_t { handle: h });
            if checked("hsa_signal_group_destroy", st) == HSA_STATUS_SUCCESS {
                s.groups.kill(h);
            }
        }
        7 if s.queues.live.len() < 3 => {
            let agent = s.agent(rt, b);
            let size = match b.below(6) {
                0 => 0,
                1 => 3,
                2 => 1 << 20,
                3 => b.u32(),
                _ => 64,
            };
            let qtype = if b.below(4) == 0 {
                b.u32()
            } else {
                HSA_QUEUE_TYPE_MULTI
            };
            let mut q: *mut hsa_queue_t = std::ptr::null_mut();
            // SAFETY: `q` is writable.
            let st = unsafe {
                hsa::hsa_queue_create(
                    agent,
                    size,
                    qtype,
                    None,
                    std::ptr::null_mut(),
                    b.u32(),
                    b.u32(),
                    &mut q,
                )
            };
            if checked("hsa_queue_create", st) == HSA_STATUS_SUCCESS {
                s.queues.add(q as u64);
            }
        }
        8 => {
            let h = s.handle(b, |s| &s.queues);
            if b.bool() {
                let st = hsa::hsa_queue_destroy(h as *mut hsa_queue_t);
                if checked("hsa_queue_destroy", st) == HSA_STATUS_SUCCESS {
                    s.queues.kill(h);
                }
            } else {
                // An inactivated queue stays until destroyed.
                checked(
                    "hsa_queue_inactivate",
                    hsa::hsa_queue_inactivate(h as *mut hsa_queue_t),
                );
            }
        }
        9 => {
            let q = s.handle(b, |s| &s.queues) as *const hsa_queue_t;
            // Index operations on live, stale and forged queues (never moving a live queue's
            // write index, which would hand the processor uninitialized slots).
            match b.below(4) {
                0 => drop(hsa::hsa_queue_load_read_index_scacquire(q)),
                1 => drop(hsa::hsa_queue_load_write_index_relaxed(q)),
                2 if !s.queues.live.contains(&(q as u64)) => {
                    hsa::hsa_queue_store_write_index_relaxed(q, b.u64());
                }
                _ => {
                    let mut mask = [0u32; 16];
                    let bits = b.u32() % 1024;
                    // SAFETY: `mask` holds 16 words; the call reads at most bits / 32 of them.
                    let st = unsafe {
                        if b.bool() {
                            hsa::hsa_amd_queue_cu_set_mask(q, bits.min(512), mask.as_ptr())
                        } else {
                            hsa::hsa_amd_queue_cu_get_mask(q, bits.min(512), mask.as_mut_ptr())
                        }
                    };
                    checked("hsa_amd_queue_cu_*_mask", st);
                }
            }
        }
        10 => {
            let pool = match b.below(5) {
                0 => rt.device_pool.handle,
                1 => s.handle(b, |s| &s.signals),
                2 => b.u64(),
                _ => rt.host_pool.handle,
            };
            let size = match b.below(5) {
                0 => 0,
                1 => usize::MAX,
                2 => 1 << 40,
                3 => b.u32() as usize,
                _ => usize::from(b.u16()) + 1,
            };
            let mut p: *mut c_void = std::ptr::null_mut();
            let pp = if b.below(8) == 0 {
                std::ptr::null_mut()
            } else {
                &mut p
            };
            let st = hsa::hsa_amd_memory_pool_allocate(
                hsa_amd_memory_pool_t { handle: pool },
                size,
                u32::from(b.u8() & 1),
                pp,
            );
            if checked("hsa_amd_memory_pool_allocate", st) == HSA_STATUS_SUCCESS {
                s.allocs.add(p as u64);
            }
        }
        11 => {
            let h = match b.below(3) {
                0 => s.handle(b, |s| &s.allocs).wrapping_add(u64::from(b.u8())),
                _ => s.handle(b, |s| &s.allocs),
            };
            let st = hsa::hsa_amd_memory_pool_free(h as *mut c_void);
            if checked("hsa_amd_memory_pool_free", st) == HSA_STATUS_SUCCESS {
                s.allocs.kill(h);
            }
        }
        12 => {
            let p = s.handle(b, |s| &s.allocs).wrapping_add(u64::from(b.u8()));
            let count = match b.below(3) {
                0 => usize::MAX / 4,
                1 => b.u32() as usize % (1 << 20), // a filled GiB is slow, not wrong
                _ => usize::from(b.u8()),
            };
            checked(
                "hsa_amd_memory_fill",
                hsa::hsa_amd_memory_fill(p as *mut c_void, b.u32(), count),
            );
        }
        13 => {
            // Pointer info with a declared size anywhere from 0 to past the structure: the
            // bytes past the declared size stay untouched.
            let p = s.handle(b, |s| &s.allocs).wrapping_add(u64::from(b.u8()));
            let full = std::mem::size_of::<hsa_amd_pointer_info_t>();
            let declared = b.below(full + 8).max(4);
            let mut buf = vec![0xa5u8; full + 64];
            buf[..4].copy_from_slice(&(declared as u32).to_ne_bytes());
            let mut n = 0u32;
            let mut agents: *mut hsa_agent_t = std::ptr::null_mut();
            unsafe extern "C" fn alloc(n: usize) -> *mut c_void {
                // SAFETY: plain malloc, freed below.
                unsafe { libc_malloc(n) }
            }
            let st = hsa::hsa_amd_pointer_info(
                p as *const c_void,
                buf.as_mut_ptr().cast(),
                if b.bool() { Some(alloc) } else { None },
                &mut n,
                &mut agents,
            );
            checked("hsa_amd_pointer_info", st);
            let limit = declared.min(full);
            assert!(
                buf[limit..].iter().all(|&x| x == 0xa5),
                "hsa_amd_pointer_info wrote past the declared size {declared}"
            );
            if !agents.is_null() {
                // SAFETY: allocated by `alloc` above.
                unsafe { libc_free(agents.cast()) };
            }
        }
        14 => {
            let len = 1 + usize::from(b.u16());
            let mut host = vec![0u8; len];
            let agents = [s.agent(rt, b)];
            let mut agent_ptr: *mut c_void = std::ptr::null_mut();
            let n = b.below(2) as i32;
            // `host` holds `len` bytes and is kept until unlocked.
            let st = hsa::hsa_amd_memory_lock(
                host.as_mut_ptr().cast(),
                len,
                agents.as_ptr() as *mut _,
                n,
                &mut agent_ptr,
            );
            if checked("hsa_amd_memory_lock", st) == HSA_STATUS_SUCCESS {
                if b.bool() {
                    checked(
                        "hsa_amd_memory_fill(alias)",
                        hsa::hsa_amd_memory_fill(agent_ptr, b.u32(), len / 4),
                    );
                }
                s.locked.push((host, agent_ptr as u64));
            }
        }
        15 => {
            if let Some((host, _)) = s.locked.pop() {
                checked(
                    "hsa_amd_memory_unlock",
                    hsa::hsa_amd_memory_unlock(host.as_ptr() as *mut c_void),
                );
                // A second unlock of the same memory is an error, not a crash.
                checked(
                    "hsa_amd_memory_unlock (again)",
                    hsa::hsa_amd_memory_unlock(host.as_ptr() as *mut c_void),
                );
            }
        }
        16 => {
            let attr = info_attribute(b);
            let agent = s.agent(rt, b);
            checked(
                "hsa_agent_get_info",
                hsa::hsa_agent_get_info(agent, attr, o),
            );
        }
        17 => {
            let attr = u32::from(b.u8()) % 32;
            let pool = hsa_amd_memory_pool_t {
                handle: match b.below(3) {
                    0 => rt.device_pool.handle,
                    1 => rt.host_pool.handle,
                    _ => b.u64(),
                },
            };
            let agent = s.agent(rt, b);
            if b.bool() {
                checked(
                    "hsa_amd_memory_pool_get_info",
                    hsa::hsa_amd_memory_pool_get_info(pool, attr, o),
                );
            } else {
                checked(
                    "hsa_amd_agent_memory_pool_get_info",
                    hsa::hsa_amd_agent_memory_pool_get_info(agent, pool, attr, o),
                );
            }
            let region = hsa_region_t {
                handle: pool.handle,
            };
            checked(
                "hsa_region_get_info",
                hsa::hsa_region_get_info(region, attr, o),
            );
        }
        18 => {
            checked(
                "hsa_system_get_info",
                hsa::hsa_system_get_info(info_attribute(b), o),
            );
            let mut text: *const std::ffi::c_char = std::ptr::null();
            checked(
                "hsa_status_string",
                hsa::hsa_status_string(b.u32() % 0x5000, &mut text),
            );
        }
        19 => {
            let agent = s.agent(rt, b);
            let mut n = 0u32;
            let d = (&raw mut n).cast();
            let st = match b.below(5) {
                0 => hsa::hsa_iterate_agents(Some(iter_agent), d),
                1 => hsa::hsa_amd_agent_iterate_memory_pools(agent, Some(iter_pool), d),
                2 => hsa::hsa_agent_iterate_regions(agent, Some(iter_region), d),
                3 => hsa::hsa_agent_iterate_isas(agent, Some(iter_isa), d),
                _ => hsa::hsa_iterate_agents(None, d),
            };
            checked("an iteration", st);
        }
        20 => {
            let mut r = hsa_code_object_reader_t { handle: 0 };
            let mut code = KERNELS.to_vec();
            for _ in 0..b.below(4) {
                let at = b.u16() as usize % code.len();
                code[at] = b.u8();
            }
            let st = hsa::hsa_code_object_reader_create_from_memory(
                code.as_ptr().cast(),
                code.len(),
                &mut r,
            );
            // The reader keeps its own copy (the program may free its buffer at once).
            drop(code);
            if checked("hsa_code_object_reader_create_from_memory", st) == HSA_STATUS_SUCCESS {
                s.readers.add(r.handle);
            }
        }
        21 => {
            let h = s.handle(b, |s| &s.readers);
            let st = hsa::hsa_code_object_reader_destroy(hsa_code_object_reader_t { handle: h });
            if checked("hsa_code_object_reader_destroy", st) == HSA_STATUS_SUCCESS {
                s.readers.kill(h);
            }
        }
        22 => executable_step(rt, s, b, o),
        _ => {
            // A nested init / shut-down pair (the runtime stays up: the harness holds one).
            if b.bool() {
                if checked("hsa_init", hsa::hsa_init()) == HSA_STATUS_SUCCESS {
                    s.inits += 1;
                }
            } else if s.inits > 0 {
                checked("hsa_shut_down", hsa::hsa_shut_down());
                s.inits -= 1;
            }
        }
    }
}

/// An attribute: the standard ones, AMD's (0xA000...), or anything.
fn info_attribute(b: &mut Bytes) -> u32 {
    match b.below(3) {
        0 => u32::from(b.u8()) % 32,
        1 => 0xA000 + u32::from(b.u8()) % 32,
        _ => b.u32(),
    }
}

fn executable_step(rt: &Hsa, s: &mut State, b: &mut Bytes, o: *mut c_void) {
    match b.below(9) {
        0 => {
            let mut e = hsa_executable_t { handle: 0 };
            let st = hsa::hsa_executable_create_alt(
                u32::from(b.u8() % 3),
                u32::from(b.u8() % 4),
                std::ptr::null(),
                &mut e,
            );
            if checked("hsa_executable_create_alt", st) == HSA_STATUS_SUCCESS {
                s.executables.add(e.handle);
            }
        }
        1 => {
            let h = s.handle(b, |s| &s.executables);
            let st = hsa::hsa_executable_destroy(hsa_executable_t { handle: h });
            if checked("hsa_executable_destroy", st) == HSA_STATUS_SUCCESS {
                s.executables.kill(h);
            }
        }
        2 => {
            let e = hsa_executable_t {
                handle: s.handle(b, |s| &s.executables),
            };
            let r = hsa_code_object_reader_t {
                handle: s.handle(b, |s| &s.readers),
            };
            let agent = s.agent(rt, b);
            checked(
                "hsa_executable_load_agent_code_object",
                hsa::hsa_executable_load_agent_code_object(
                    e,
                    agent,
                    r,
                    std::ptr::null(),
                    std::ptr::null_mut(),
                ),
            );
        }
        3 => {
            let e = hsa_executable_t {
                handle: s.handle(b, |s| &s.executables),
            };
            checked(
                "hsa_executable_freeze",
                hsa::hsa_executable_freeze(e, std::ptr::null()),
            );
        }
        4 => {
            let e = hsa_executable_t {
                handle: s.handle(b, |s| &s.executables),
            };
            let mut n = 0u32;
            SYMBOLS.lock().unwrap_or_else(|e| e.into_inner()).clear();
            checked(
                "hsa_executable_iterate_symbols",
                hsa::hsa_executable_iterate_symbols(e, Some(iter_symbol), (&raw mut n).cast()),
            );
            let found = SYMBOLS.lock().unwrap_or_else(|e| e.into_inner()).clone();
            s.symbols.extend(found);
            checked(
                "hsa_executable_get_info",
                hsa::hsa_executable_get_info(e, u32::from(b.u8() % 4), o),
            );
        }
        5 => {
            let sym = match b.below(3) {
                0 => b.u64(),
                _ => {
                    let v = &s.symbols;
                    v.get(b.below(v.len().max(1))).copied().unwrap_or(0)
                }
            };
            checked(
                "hsa_executable_symbol_get_info",
                hsa::hsa_executable_symbol_get_info(
                    hsa_executable_symbol_t { handle: sym },
                    u32::from(b.u8() % 32),
                    o,
                ),
            );
        }
        6 => {
            let e = hsa_executable_t {
                handle: s.handle(b, |s| &s.executables),
            };
            let names: [&[u8]; 4] = [b"scale.kd\0", b"spin\0", b"\0", b"lds.kd\0"];
            let name = b.pick(&names);
            let agent = s.agent(rt, b);
            let mut sym = hsa_executable_symbol_t { handle: 0 };
            let name_ptr = if b.below(8) == 0 {
                std::ptr::null()
            } else {
                name.as_ptr().cast()
            };
            let st = hsa::hsa_executable_get_symbol_by_name(e, name_ptr, &agent, &mut sym);
            if checked("hsa_executable_get_symbol_by_name", st) == HSA_STATUS_SUCCESS {
                s.symbols.push(sym.handle);
            }
            let mut result = 0u32;
            checked(
                "hsa_executable_validate",
                hsa::hsa_executable_validate(e, &mut result),
            );
        }
        7 => {
            let mut co = hsa_code_object_t { handle: 0 };
            let st = hsa::hsa_code_object_deserialize(
                KERNELS.as_ptr() as *mut c_void,
                KERNELS.len() - b.below(2) * 100,
                std::ptr::null(),
                &mut co,
            );
            if checked("hsa_code_object_deserialize", st) == HSA_STATUS_SUCCESS {
                s.code_objects.add(co.handle);
            }
        }
        _ => {
            let h = s.handle(b, |s| &s.code_objects);
            let co = hsa_code_object_t { handle: h };
            checked(
                "hsa_code_object_get_info",
                hsa::hsa_code_object_get_info(co, u32::from(b.u8() % 12), o),
            );
            if b.bool() {
                let st = hsa::hsa_code_object_destroy(co);
                if checked("hsa_code_object_destroy", st) == HSA_STATUS_SUCCESS {
                    s.code_objects.kill(h);
                }
            }
        }
    }
}

extern "C" {
    #[link_name = "malloc"]
    fn libc_malloc(n: usize) -> *mut c_void;
    #[link_name = "free"]
    fn libc_free(p: *mut c_void);
}

/// Destroys everything the input created (in an order that also destroys executables before
/// their readers' code is gone), checking that each live object goes exactly once.
fn cleanup(s: &mut State) {
    for h in s.queues.live.drain(..) {
        assert_eq!(
            hsa::hsa_queue_destroy(h as *mut hsa_queue_t),
            HSA_STATUS_SUCCESS
        );
    }
    for h in s.executables.live.drain(..) {
        let st = hsa::hsa_executable_destroy(hsa_executable_t { handle: h });
        assert_eq!(st, HSA_STATUS_SUCCESS);
    }
    for h in s.readers.live.drain(..) {
        let st = hsa::hsa_code_object_reader_destroy(hsa_code_object_reader_t { handle: h });
        assert_eq!(st, HSA_STATUS_SUCCESS);
    }
    for h in s.code_objects.live.drain(..) {
        let st = hsa::hsa_code_object_destroy(hsa_code_object_t { handle: h });
        assert_eq!(st, HSA_STATUS_SUCCESS);
    }
    for h in s.groups.live.drain(..) {
        let st = hsa::hsa_signal_group_destroy(hsa_signal_group_t { handle: h });
        assert_eq!(st, HSA_STATUS_SUCCESS);
    }
    for h in s.signals.live.drain(..) {
        assert_eq!(
            hsa::hsa_signal_destroy(hsa_signal_t { handle: h }),
            HSA_STATUS_SUCCESS
        );
    }
    for h in s.allocs.live.drain(..) {
        let st = hsa::hsa_amd_memory_pool_free(h as *mut c_void);
        assert_eq!(st, HSA_STATUS_SUCCESS);
    }
    for (host, _) in s.locked.drain(..) {
        let st = hsa::hsa_amd_memory_unlock(host.as_ptr() as *mut c_void);
        assert_eq!(st, HSA_STATUS_SUCCESS);
    }
    for _ in 0..s.inits {
        assert_eq!(hsa::hsa_shut_down(), HSA_STATUS_SUCCESS);
    }
}

fuzz_target!(|data: &[u8]| {
    let rt = hsa();
    let mut b = Bytes::new(data);
    let mut s = State::default();
    let mut steps = 0;
    while !b.is_empty() && steps < 64 {
        step(rt, &mut s, &mut b);
        steps += 1;
    }
    cleanup(&mut s);
    // The runtime still works: a dispatch on a new queue computes the right results.
    let mut q: *mut hsa_queue_t = std::ptr::null_mut();
    // SAFETY: `q` is writable.
    let st = unsafe {
        hsa::hsa_queue_create(
            rt.gpu,
            64,
            HSA_QUEUE_TYPE_MULTI,
            None,
            std::ptr::null_mut(),
            0,
            0,
            &mut q,
        )
    };
    assert_eq!(st, HSA_STATUS_SUCCESS);
    softhsa_fuzz::track_queue(q);
    rt.check_alive(q);
    assert_eq!(hsa::hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
    softhsa_fuzz::forget_queue(q);
});
