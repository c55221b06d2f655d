//! End-to-end kernels written in assembly, checked against host-computed results.

mod common;
use common::*;
use softhsa_gpu::FaultKind;

const VADD: &str = r#"
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_load_dwordx2 s[8:9], s[0:1], 0x10
  s_load_dword s10, s[0:1], 0x18
  s_lshl_b32 s3, s2, 6
  v_add_u32 v1, s3, v0
  s_waitcnt lgkmcnt(0)
  v_cmp_gt_u32 vcc, s10, v1
  s_and_saveexec_b64 s[12:13], vcc
  s_cbranch_execz BB_end
  v_lshlrev_b32 v2, 2, v1
  global_load_dword v3, v2, s[4:5]
  global_load_dword v4, v2, s[6:7]
  s_waitcnt vmcnt(0)
  v_add_u32 v3, v3, v4
  global_store_dword v2, v3, s[8:9]
BB_end:
  s_endpgm
"#;

#[test]
fn vector_add_with_partial_workgroup() {
    let k = kernel(VADD, descriptor());
    let n = 1000usize;
    let mut a: Vec<u32> = (0..n as u32).map(|i| i * 3 + 1).collect();
    let mut b: Vec<u32> = (0..n as u32).map(|i| i ^ 0x5555).collect();
    let mut c = vec![0xdead_beefu32; n];
    let map = Map::default();
    let args = [map.add(&mut a), map.add(&mut b), map.add(&mut c), n as u64];
    // Grid of 100: the second work-group has 36 work-items; EXEC must stop the rest.
    let stats = run(&device(), &k, &map, &args, [100, 1, 1], [64, 1, 1]).unwrap();
    assert_eq!((stats.workgroups, stats.waves), (2, 2));
    for i in 0..n {
        let want = if i < 100 {
            a[i].wrapping_add(b[i])
        } else {
            0xdead_beef
        };
        assert_eq!(c[i], want, "element {i}");
    }
    assert!(stats.instructions > 0);
}

#[test]
fn out_of_bounds_store_faults_with_address() {
    let k = kernel(VADD, descriptor());
    let n = 64usize;
    let mut a = vec![1u32; n];
    let mut b = vec![2u32; n];
    let mut c = vec![0u32; n - 1]; // one element short
    let map = Map::default();
    let args = [map.add(&mut a), map.add(&mut b), map.add(&mut c), n as u64];
    let f = run(&device(), &k, &map, &args, [64, 1, 1], [64, 1, 1]).unwrap_err();
    let end = c.as_ptr() as u64 + 4 * (n as u64 - 1);
    assert_eq!(
        f.kind,
        FaultKind::MemoryViolation {
            address: end,
            write: true
        }
    );
    assert_eq!(f.lane, Some(63));
    assert!(
        f.instruction.contains("global_store_dword"),
        "{}",
        f.instruction
    );
    let text = f.to_string();
    assert!(
        text.contains("memory violation") && text.contains("lane 63"),
        "{text}"
    );
}

#[test]
fn s_trap_and_budget_fault() {
    // s_trap 3 (llvm.debugtrap) continues without a debugger; s_trap 2 (llvm.trap) faults.
    let k = kernel("s_trap 3\ns_trap 2\ns_endpgm\n", descriptor());
    let f = run(&device(), &k, &Map::default(), &[], [64, 1, 1], [64, 1, 1]).unwrap_err();
    assert_eq!(f.kind, FaultKind::Trap { code: 2 });
    assert_eq!(f.pc, CODE_BASE + 4);

    let k = kernel("L: s_branch L\n", descriptor());
    let f = run(&device(), &k, &Map::default(), &[], [64, 1, 1], [64, 1, 1]).unwrap_err();
    assert_eq!(f.kind, FaultKind::InstructionBudget { limit: 1 << 20 });
}

#[test]
fn illegal_pc_faults() {
    // s_setpc to an address outside the code.
    let k = kernel("s_mov_b64 s[4:5], 0\ns_setpc_b64 s[4:5]\n", descriptor());
    let f = run(&device(), &k, &Map::default(), &[], [1, 1, 1], [1, 1, 1]).unwrap_err();
    assert_eq!(f.kind, FaultKind::IllegalInstruction);
}

#[test]
fn workitem_and_workgroup_ids_3d() {
    // out[flat global id] = x | y << 8 | z << 16 | wgx << 24, 3-D grid with partial groups.
    let asm = r#"
  s_load_dwordx2 s[6:7], s[0:1], 0x0
  s_load_dwordx2 s[8:9], s[0:1], 0x8      // grid x, y sizes
  v_lshlrev_b32 v3, 8, v1
  v_or_b32 v3, v3, v0
  v_lshlrev_b32 v4, 16, v2
  v_or_b32 v3, v3, v4
  s_lshl_b32 s10, s2, 24
  v_or_b32 v3, s10, v3
  // global x = wgx*4 + x, y = wgy*4 + y, z = wgz*2 + z
  s_lshl_b32 s11, s2, 2
  v_add_u32 v5, s11, v0
  s_lshl_b32 s11, s3, 2
  v_add_u32 v6, s11, v1
  s_lshl_b32 s11, s4, 1
  v_add_u32 v7, s11, v2
  s_waitcnt lgkmcnt(0)
  v_mul_lo_u32 v7, v7, s9
  v_add_u32 v6, v6, v7
  v_mul_lo_u32 v6, v6, s8
  v_add_u32 v5, v5, v6
  v_lshlrev_b32 v5, 2, v5
  global_store_dword v5, v3, s[6:7]
  s_endpgm
"#;
    let k = kernel(asm, descriptor());
    let (gx, gy, gz) = (10u32, 7u32, 3u32);
    let mut out = vec![u32::MAX; (gx * gy * gz) as usize];
    let map = Map::default();
    let args = [map.add(&mut out), u64::from(gx) | u64::from(gy) << 32];
    let stats = run(&device(), &k, &map, &args, [gx, gy, gz], [4, 4, 2]).unwrap();
    assert_eq!(stats.workgroups, 3 * 2 * 2);
    for z in 0..gz {
        for y in 0..gy {
            for x in 0..gx {
                let want = (x % 4) | (y % 4) << 8 | (z % 2) << 16 | (x / 4) << 24;
                assert_eq!(out[(x + gx * (y + gy * z)) as usize], want, "({x},{y},{z})");
            }
        }
    }
}

#[test]
fn lds_and_barrier_reverse() {
    // Work-group of 256 (4 waves): lds[t] = t * 7; barrier; out[g] = lds[255 - t].
    let asm = r#"
  s_load_dwordx2 s[6:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  v_mul_u32_u24 v2, 7, v0
  ds_write_b32 v1, v2
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_sub_u32 v3, 255, v0
  v_lshlrev_b32 v3, 2, v3
  ds_read_b32 v4, v3
  s_lshl_b32 s8, s2, 8
  v_add_u32 v5, s8, v0
  v_lshlrev_b32 v5, 2, v5
  s_waitcnt lgkmcnt(0)
  global_store_dword v5, v4, s[6:7]
  s_endpgm
"#;
    let mut kd = descriptor();
    kd.group_segment_fixed_size = 1024;
    let k = kernel(asm, kd);
    let mut out = vec![0u32; 1024];
    let map = Map::default();
    let args = [map.add(&mut out)];
    run(&device(), &k, &map, &args, [1024, 1, 1], [256, 1, 1]).unwrap();
    for g in 0..1024u32 {
        assert_eq!(out[g as usize], (255 - g % 256) * 7, "item {g}");
    }
}

#[test]
fn scratch_buffer_and_flat_scratch_agree() {
    // s[0:3] private segment buffer, s[4:5] kernarg, s6 wg id x, s7 wave offset.
    // Store v0 * 3 via the swizzled buffer at offset 16, read it back with scratch_load and
    // with a flat load through the private aperture; out[t] = both values.
    let asm = r#"
  v_mul_u32_u24 v1, 3, v0
  buffer_store_dword v1, off, s[0:3], s7 offset:16
  s_waitcnt vmcnt(0)
  s_mov_b32 s8, 0
  scratch_load_dword v2, off, s8 offset:16
  s_mov_b32 s9, src_private_base
  v_mov_b32 v10, 16
  v_mov_b32 v11, s9
  flat_load_dword v3, v[10:11]
  s_load_dwordx2 s[10:11], s[4:5], 0x0
  v_lshlrev_b32 v4, 3, v0
  s_waitcnt vmcnt(0) lgkmcnt(0)
  global_store_dwordx2 v4, v[2:3], s[10:11]
  s_endpgm
"#;
    let mut kd = descriptor();
    kd.enable_sgpr_private_segment_buffer = true;
    kd.private_segment_fixed_size = 64;
    // USER_SGPR_COUNT = 6, SCRATCH_EN, work-group id X.
    kd.pgm_rsrc2 = 1 | 6 << 1 | 1 << 7;
    let k = kernel(asm, kd);
    let mut out = vec![0u32; 2 * 128];
    let map = Map::default();
    let args = [map.add(&mut out)];
    run_with(&device(), &k, &map, &args, [128, 1, 1], [128, 1, 1], 0, 64).unwrap();
    for t in 0..128u32 {
        assert_eq!(out[2 * t as usize], 3 * t, "scratch_load lane {t}");
        assert_eq!(out[2 * t as usize + 1], 3 * t, "flat load lane {t}");
    }
}

#[test]
fn gfx906_only_instructions_are_illegal_on_gfx900() {
    use softhsa_gpu::{Device, DeviceConfig, GfxVersion};
    let k = kernel("v_fmac_f32 v1, v2, v3\ns_endpgm\n", descriptor());
    let map = Map::default();
    let on = |gfx| {
        let dev = Device::new(DeviceConfig {
            gfx,
            worker_threads: 1,
            ..Default::default()
        });
        run(&dev, &k, &map, &[], [64, 1, 1], [64, 1, 1])
    };
    assert!(on(GfxVersion::Gfx906).is_ok());
    let f = on(GfxVersion::Gfx900).unwrap_err();
    assert_eq!(f.kind, FaultKind::IllegalInstruction);
    assert!(f.instruction.contains("v_fmac_f32"), "{}", f.instruction);
    // The CDNA processors have this gfx906 instruction too.
    for gfx in [
        GfxVersion::Gfx908,
        GfxVersion::Gfx90a,
        GfxVersion::Gfx940,
        GfxVersion::Gfx942,
    ] {
        assert!(on(gfx).is_ok(), "{gfx:?}");
    }
}

#[test]
fn scratch_beyond_private_segment_faults() {
    // 64 bytes of private segment: offset 60 is the last dword, 64 is past it.
    let mut kd = descriptor();
    kd.private_segment_fixed_size = 64;
    kd.pgm_rsrc2 |= 1; // SCRATCH_EN
    let ok = kernel(
        "s_mov_b32 s8, 0\nscratch_store_dword off, v0, s8 offset:60\ns_endpgm\n",
        kd.clone(),
    );
    run_with(
        &device(),
        &ok,
        &Map::default(),
        &[],
        [64, 1, 1],
        [64, 1, 1],
        0,
        64,
    )
    .unwrap();
    let bad = kernel(
        "s_mov_b32 s8, 0\nscratch_load_dword v1, off, s8 offset:64\ns_endpgm\n",
        kd,
    );
    let f = run_with(
        &device(),
        &bad,
        &Map::default(),
        &[],
        [64, 1, 1],
        [64, 1, 1],
        0,
        64,
    )
    .unwrap_err();
    let a = softhsa_gpu::PRIVATE_APERTURE_BASE + 64;
    assert_eq!(
        f.kind,
        FaultKind::MemoryViolation {
            address: a,
            write: false
        }
    );
    assert_eq!(f.lane, Some(0));
}

#[test]
fn concurrent_dispatches_share_the_pool() {
    let k = kernel(VADD, descriptor());
    let dev = device();
    std::thread::scope(|s| {
        for t in 0..4u32 {
            let (k, dev) = (&k, &dev);
            s.spawn(move || {
                for round in 0..5u32 {
                    let n = 64 * 40;
                    let mut a: Vec<u32> = (0..n).map(|i| i * t + round).collect();
                    let mut b: Vec<u32> = (0..n).map(|i| i ^ t).collect();
                    let mut c = vec![0u32; n as usize];
                    let map = Map::default();
                    let args = [
                        map.add(&mut a),
                        map.add(&mut b),
                        map.add(&mut c),
                        u64::from(n),
                    ];
                    run(dev, k, &map, &args, [n, 1, 1], [64, 1, 1]).unwrap();
                    for i in 0..n as usize {
                        assert_eq!(
                            c[i],
                            a[i].wrapping_add(b[i]),
                            "thread {t} round {round} item {i}"
                        );
                    }
                }
            });
        }
    });
}

/// `Map` plus an alias of one buffer at another address (as the runtime maps locked host
/// memory for the agent): accesses through the alias reach the buffer.
struct AliasMap {
    inner: Map,
    alias: std::ops::Range<u64>,
    delta: u64,
}

impl softhsa_gpu::MemoryMap for AliasMap {
    fn lookup(&self, addr: u64, len: u64) -> Option<std::ops::Range<u64>> {
        self.inner.lookup(addr, len)
    }
    fn translate(&self, addr: u64, len: u64) -> Option<(std::ops::Range<u64>, u64)> {
        if addr >= self.alias.start && addr + len <= self.alias.end {
            return Some((self.alias.clone(), self.delta));
        }
        self.lookup(addr, len).map(|r| (r, 0))
    }
}

#[test]
fn aliased_host_memory_is_translated() {
    let k = kernel(VADD, descriptor());
    let n = 256usize;
    let a: Vec<u32> = (0..n as u32).collect();
    let b: Vec<u32> = (0..n as u32).map(|i| i * 1000).collect();
    let mut c = vec![0u32; n];
    let inner = Map::default();
    let (pa, pb, pc) = (
        inner.add_readonly(&a),
        inner.add_readonly(&b),
        c.as_mut_ptr() as u64,
    );
    // `c` is reachable only through its alias 1 TiB higher.
    let alias = pc + (1 << 40);
    let map = AliasMap {
        inner,
        alias: alias..alias + 4 * n as u64,
        delta: 0u64.wrapping_sub(1 << 40),
    };
    let args = [pa, pb, alias, n as u64];
    let kernarg = args.to_vec();
    let ka = map.inner.add_readonly(&kernarg);
    let events = Events::default();
    let d = softhsa_gpu::Dispatch {
        kernel: &k,
        grid_size: [n as u32, 1, 1],
        workgroup_size: [64, 1, 1],
        dynamic_group_segment_size: 0,
        private_segment_size: 0,
        kernarg_address: ka,
        packet_address: 0,
        queue_address: 0,
        dispatch_id: 0,
        memory: &map,
        events: &events,
    };
    device().dispatch(&d).unwrap();
    for i in 0..n {
        assert_eq!(c[i], a[i] + b[i], "item {i}");
    }
}

#[test]
fn one_faulting_workgroup_stops_the_dispatch() {
    // Work-group 700 of 1024 stores through a null pointer; the report names it.
    let asm = r#"
  s_cmpk_eq_u32 s2, 700
  s_cbranch_scc0 BB_end
  v_mov_b32 v1, 0
  v_mov_b32 v2, 0
  flat_store_dword v[1:2], v0
BB_end:
  s_endpgm
"#;
    let k = kernel(asm, descriptor());
    let f = run(
        &device(),
        &k,
        &Map::default(),
        &[],
        [64 * 1024, 1, 1],
        [64, 1, 1],
    )
    .unwrap_err();
    assert_eq!(
        f.kind,
        FaultKind::MemoryViolation {
            address: 0,
            write: true
        }
    );
    assert_eq!((f.workgroup, f.wave, f.lane), ([700, 0, 0], 0, Some(0)));
    assert!(
        f.instruction.contains("flat_store_dword"),
        "{}",
        f.instruction
    );
}
