use super::*;
use crate::topology::InfoValue;
use softhsa_gpu::MemoryMap;
use std::ffi::c_void;

fn setup(device_memory: u64, gpus: u32) -> (Topology, Memory) {
    let cfg = Config {
        device_memory,
        gpu_count: gpus,
        ..Config::default()
    };
    let topo = Topology::new(&cfg).unwrap();
    let mem = Memory::new(&cfg, &topo).unwrap();
    (topo, mem)
}

fn device_pool(mem: &Memory) -> u64 {
    mem.pools()
        .iter()
        .find(|p| p.kind == PoolKind::Device)
        .unwrap()
        .handle
}

#[test]
fn pools_per_agent_match_hip_requirements() {
    let (topo, mem) = setup(1 << 30, 1);
    let cpu: Vec<_> = mem.agent_pools(0).collect();
    assert_eq!(cpu.len(), 2);
    let flags = |p: &Pool| p.pool_info(HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS).unwrap();
    assert_eq!(
        flags(cpu[0]),
        InfoValue::U32(1 | 2),
        "fine-grained with KERNARG"
    );
    assert_eq!(flags(cpu[1]), InfoValue::U32(4), "coarse-grained");
    let gpu: Vec<_> = mem.agent_pools(1).collect();
    assert_eq!(
        gpu[0].pool_info(HSA_AMD_MEMORY_POOL_INFO_SIZE).unwrap(),
        InfoValue::U64(1 << 30)
    );
    assert_eq!(
        gpu[1].pool_info(HSA_AMD_MEMORY_POOL_INFO_SEGMENT).unwrap(),
        InfoValue::U32(HSA_AMD_SEGMENT_GROUP)
    );
    assert_eq!(
        gpu[1].pool_info(HSA_AMD_MEMORY_POOL_INFO_SIZE).unwrap(),
        InfoValue::U64(65536)
    );
    assert_eq!(
        gpu[1]
            .pool_info(HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED)
            .unwrap(),
        InfoValue::Bool(false)
    );
    assert_eq!(
        cpu[0].pool_info(HSA_AMD_MEMORY_POOL_INFO_SIZE).unwrap(),
        InfoValue::U64(topo.host().memory_bytes / 4096 * 4096)
    );
    // Access: the CPU sees device memory only after allow_access (not NEVER: "large BAR").
    assert_eq!(
        mem.agent_pool_info(0, gpu[0].handle, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS)
            .unwrap(),
        InfoValue::U32(2)
    );
    assert_eq!(
        mem.agent_pool_info(1, gpu[0].handle, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS)
            .unwrap(),
        InfoValue::U32(1)
    );
    assert_eq!(
        mem.agent_pool_info(0, gpu[1].handle, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS)
            .unwrap(),
        InfoValue::U32(0)
    );
    assert_eq!(
        mem.agent_pool_info(
            1,
            cpu[0].handle,
            HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS
        )
        .unwrap(),
        InfoValue::U32(1)
    );
    let InfoValue::Bytes(link) = mem
        .agent_pool_info(1, cpu[0].handle, HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO)
        .unwrap()
    else {
        panic!()
    };
    assert_eq!(link.len(), 28);
}

#[test]
fn pool_and_region_handles_are_checked() {
    let (_t, mem) = setup(1 << 30, 1);
    let (_t2, other) = setup(1 << 30, 1);
    let stale = other.pools()[0].handle;
    assert_eq!(
        mem.pool(stale).unwrap_err().status,
        HSA_STATUS_ERROR_INVALID_MEMORY_POOL
    );
    assert_eq!(
        mem.region(stale).unwrap_err().status,
        HSA_STATUS_ERROR_INVALID_REGION
    );
    assert_eq!(
        mem.pool(0).unwrap_err().status,
        HSA_STATUS_ERROR_INVALID_MEMORY_POOL
    );
    assert!(mem.region(mem.pools()[3].handle).is_ok());
}

#[test]
fn allocate_free_and_budget() {
    let (_t, mem) = setup(1 << 20, 1);
    let dev = device_pool(&mem);
    let a = mem.allocate(dev, 1000, 0).unwrap();
    assert_eq!(a as u64 % 4096, 0);
    assert_eq!(
        mem.registry().lookup(a as u64 + 4092, 4),
        Some(a as u64..a as u64 + 4096)
    );
    // SAFETY: a is a live 4 KiB allocation.
    unsafe { a.add(4095).write(9) };
    // 1 MiB budget: 255 pages remain.
    assert_eq!(
        mem.allocate(dev, 256 * 4096, 0).unwrap_err().status,
        HSA_STATUS_ERROR_OUT_OF_RESOURCES
    );
    let b = mem.allocate(dev, 255 * 4096, 0).unwrap();
    assert_eq!(
        mem.allocate(dev, 1, 0).unwrap_err().status,
        HSA_STATUS_ERROR_OUT_OF_RESOURCES
    );
    mem.free(b as u64).unwrap();
    assert_eq!(
        mem.free(b as u64).unwrap_err().status,
        HSA_STATUS_ERROR_INVALID_ALLOCATION,
        "double free"
    );
    let mut local = 0u64;
    assert_eq!(
        mem.free(&mut local as *mut u64 as u64).unwrap_err().status,
        HSA_STATUS_ERROR_INVALID_ALLOCATION
    );
    assert_eq!(
        mem.free(a as u64 + 8).unwrap_err().status,
        HSA_STATUS_ERROR_INVALID_ALLOCATION,
        "interior"
    );
    assert!(
        mem.allocate(dev, 255 * 4096, 0).is_ok(),
        "freed budget is reusable"
    );
    assert_eq!(
        mem.allocate(dev, 0, 0).unwrap_err().status,
        HSA_STATUS_ERROR_INVALID_ARGUMENT
    );
    assert_eq!(
        mem.allocate(dev, 2 << 20, 0).unwrap_err().status,
        HSA_STATUS_ERROR_INVALID_ALLOCATION
    );
    let group = mem
        .pools()
        .iter()
        .find(|p| p.kind == PoolKind::Group)
        .unwrap()
        .handle;
    assert_eq!(
        mem.allocate(group, 64, 0).unwrap_err().status,
        HSA_STATUS_ERROR_INVALID_ALLOCATION
    );
    mem.free(0).unwrap();
}

#[test]
fn concurrent_allocations_never_exceed_the_budget() {
    let (_t, mem) = setup(64 * 4096, 1);
    let dev = device_pool(&mem);
    let got = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..40 {
                    if mem.allocate(dev, 4096, 0).is_ok() {
                        got.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                }
            });
        }
    });
    assert_eq!(got.into_inner(), 64);
}

/// What HIP 5.2's hipHostRegister/hipHostUnregister need (see alias.rs): the agent address of
/// locked memory differs from the host address, and everything the runtime does through it
/// reaches the host bytes.
#[test]
fn aliased_locks_translate_and_release() {
    let (_t, mem) = setup(1 << 30, 1);
    assert!(
        mem.lock_alias,
        "the default for a discrete (base profile) board"
    );
    let mut host = vec![0u32; 5000];
    let p = host.as_mut_ptr() as u64;
    let len = 5000 * 4;
    let a = mem.lock(p, len, &[], None).unwrap();
    assert_ne!(a, p, "a distinct agent address");
    assert_eq!(a % 4096, p % 4096, "same page offset");
    assert_eq!(
        mem.lock(p, len, &[], None).unwrap(),
        a,
        "nested lock, same alias"
    );
    // Both addresses are known; pointer info names both sides.
    for q in [p + 40, a + 40] {
        let info = mem.pointer_info(q).unwrap();
        assert_eq!(
            (info.kind, info.base, info.host_base, info.size),
            (HSA_EXT_POINTER_TYPE_LOCKED, a, p, len)
        );
    }
    // The runtime's own accesses through the alias land in the host bytes.
    mem.fill(a + 8, 0x5eed, 2).unwrap();
    assert_eq!(&host[..4], &[0, 0, 0x5eed, 0x5eed]);
    assert_eq!(mem.registry().resolve(a + 4, 8), Some(p + 4));
    assert_eq!(mem.registry().resolve(a + len - 4, 8), None, "past the end");
    // The GPU's translating lookup gives the delta; the plain one refuses the alias, so a GPU
    // that does not translate faults instead of touching the reservation.
    let (range, delta) = mem.registry().translate(a + 16, 4).unwrap();
    assert_eq!((range, a.wrapping_add(delta)), (a..a + len, p));
    assert_eq!(mem.lookup(a + 16, 4), None);
    assert_eq!(mem.lookup(p + 16, 4), Some(p..p + len));
    // Unlocking by the host address: the alias lives until the last reference goes.
    mem.unlock(p).unwrap();
    assert_eq!(mem.registry().resolve(a, 4), Some(p));
    mem.unlock(p).unwrap();
    assert_eq!(mem.registry().resolve(a, 4), None);
    assert!(mem.pointer_info(a).is_none() && mem.pointer_info(p).is_none());
    assert!(mem.fill(a, 1, 1).is_err());
    // A later lock of the same bytes gets a working alias again; unlocking by the alias works.
    let b = mem.lock(p, 64, &[], None).unwrap();
    mem.fill(b, 7, 1).unwrap();
    assert_eq!(host[0], 7);
    mem.unlock(b).unwrap();
    assert!(mem.registry().is_empty());
    // Memory inside a pool allocation is already device memory: no alias.
    let dev = device_pool(&mem);
    let d = mem.allocate(dev, 8192, 0).unwrap() as u64;
    assert_eq!(mem.lock(d + 4096, 100, &[], None).unwrap(), d + 4096);
    mem.unlock(d + 4096).unwrap();
    mem.free(d).unwrap();
}

/// Without aliases (an APU, or SOFTHSA_LOCK_ALIAS=0) the agent address is the host address.
#[test]
fn lock_register_and_pointer_info() {
    let cfg = Config {
        lock_alias: false,
        ..Config::default()
    };
    let topo = Topology::new(&cfg).unwrap();
    let mem = Memory::new(&cfg, &topo).unwrap();
    let mut host = vec![0u32; 1024];
    let p = host.as_mut_ptr() as u64;
    assert!(mem.pointer_info(p).is_none());
    assert_eq!(mem.lock(p, 4096, &[1], None).unwrap(), p);
    assert_eq!(mem.lock(p, 4096, &[1], None).unwrap(), p, "nested");
    let info = mem.pointer_info(p + 100).unwrap();
    assert_eq!(
        (info.kind, info.base, info.host_base, info.size, info.owner),
        (HSA_EXT_POINTER_TYPE_LOCKED, p, p, 4096, 0)
    );
    assert_eq!(info.accessible, vec![0, 1]);
    // An overlapping pin (as hipHostRegister of a buffer ROCclr already pinned page-rounded).
    assert_eq!(mem.lock(p + 8, 16, &[], None).unwrap(), p + 8);
    assert_eq!(
        mem.pointer_info(p + 9).unwrap().base,
        p + 8,
        "innermost pin"
    );
    mem.unlock(p + 8).unwrap();
    assert_eq!(mem.pointer_info(p + 9).unwrap().base, p);
    mem.unlock(p).unwrap();
    assert!(mem.pointer_info(p).is_some(), "still locked once");
    mem.unlock(p).unwrap();
    assert!(mem.pointer_info(p).is_none());
    assert_eq!(
        mem.unlock(p).unwrap_err().status,
        HSA_STATUS_ERROR_INVALID_ARGUMENT
    );

    mem.register(p, 4096).unwrap();
    mem.fill(p + 4, 0xabcd_0123, 3).unwrap();
    assert_eq!(&host[..5], &[0, 0xabcd_0123, 0xabcd_0123, 0xabcd_0123, 0]);
    assert_eq!(
        mem.fill(p + 4092, 1, 2).unwrap_err().status,
        HSA_STATUS_ERROR_INVALID_ARGUMENT,
        "past the end"
    );
    assert_eq!(
        mem.fill(p + 2, 1, 1).unwrap_err().status,
        HSA_STATUS_ERROR_INVALID_ARGUMENT,
        "unaligned"
    );
    mem.deregister(p).unwrap();
    assert!(mem.fill(p, 1, 1).is_err(), "no longer known");

    // The runtime's own memory (signals, queues, loaded code) is not the program's to fill
    // (the capi fuzz target overwrote a live signal this way: fuzz/corpus/capi/regress-*).
    for kind in [RangeKind::Signal, RangeKind::Queue, RangeKind::CodeObject] {
        mem.register_range(p, 4096, kind, 0).unwrap();
        assert_eq!(
            mem.fill(p, 0xdead, 4).unwrap_err().status,
            HSA_STATUS_ERROR_INVALID_ARGUMENT,
            "{kind:?}"
        );
        assert_eq!(host[0], 0, "{kind:?} range left untouched");
        mem.unregister_range(p).unwrap();
    }

    let dev = device_pool(&mem);
    let a = mem.allocate(dev, 8192, 0).unwrap() as u64;
    mem.lock(a + 4096, 100, &[], None).unwrap();
    mem.unlock(a + 4096).unwrap();
    mem.set_user_data(a + 8, 77).unwrap();
    mem.allow_access(a, &[0]).unwrap();
    let info = mem.pointer_info(a + 8191).unwrap();
    assert_eq!(
        (info.kind, info.base, info.size, info.user_data, info.owner),
        (HSA_EXT_POINTER_TYPE_HSA, a, 8192, 77, 1)
    );
    assert_eq!(
        info.global_flags,
        HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED
    );
    assert_eq!(info.accessible, vec![0, 1]);
}

#[test]
fn deallocation_callbacks_run_at_free() {
    use std::sync::atomic::{AtomicU64, Ordering};
    static SEEN: AtomicU64 = AtomicU64::new(0);
    unsafe extern "C" fn cb(ptr: *mut c_void, data: *mut c_void) {
        SEEN.store(ptr as u64 ^ data as u64, Ordering::SeqCst);
    }
    unsafe extern "C" fn other(_: *mut c_void, _: *mut c_void) {}
    let (_t, mem) = setup(1 << 30, 1);
    let a = mem.allocate(mem.kernarg_pool().handle, 64, 0).unwrap();
    mem.add_dealloc_callback(
        a as u64 + 4,
        DeallocCallback {
            func: cb,
            user_data: 0x55,
        },
    )
    .unwrap();
    assert!(mem.remove_dealloc_callback(a as u64, other).is_err());
    mem.free(a as u64).unwrap();
    assert_eq!(SEEN.load(Ordering::SeqCst), a as u64 ^ 0x55);
    let mut x = 0u8;
    assert!(mem
        .add_dealloc_callback(
            &mut x as *mut u8 as u64,
            DeallocCallback {
                func: cb,
                user_data: 0
            }
        )
        .is_err());
}

#[test]
fn runtime_ranges_register_and_unregister() {
    let (_t, mem) = setup(1 << 30, 1);
    mem.register_range(0x7000_0000, 0x100, RangeKind::Signal, 0)
        .unwrap();
    assert_eq!(mem.lookup(0x7000_0010, 8), Some(0x7000_0000..0x7000_0100));
    assert_eq!(
        mem.pointer_info(0x7000_0000).unwrap().kind,
        HSA_EXT_POINTER_TYPE_HSA
    );
    assert_eq!(
        mem.unregister_range(0x7000_0000).unwrap().kind,
        RangeKind::Signal
    );
    assert!(mem.unregister_range(0x7000_0000).is_err());
    let a = mem.allocate(device_pool(&mem), 4096, 0).unwrap();
    assert!(
        mem.unregister_range(a as u64).is_err(),
        "allocations are freed, not unregistered"
    );
}

#[test]
fn coherency_is_per_gpu() {
    let (_t, mem) = setup(1 << 30, 1);
    assert_eq!(mem.coherency(1).unwrap(), HSA_AMD_COHERENCY_TYPE_COHERENT);
    mem.set_coherency(1, HSA_AMD_COHERENCY_TYPE_NONCOHERENT)
        .unwrap();
    assert_eq!(
        mem.coherency(1).unwrap(),
        HSA_AMD_COHERENCY_TYPE_NONCOHERENT
    );
    assert_eq!(
        mem.coherency(0).unwrap_err().status,
        HSA_STATUS_ERROR_INVALID_AGENT
    );
    assert!(mem.set_coherency(1, 7).is_err());
}
