//! The work-group scheduler's claims in batches (`sched::job::batch`): every work-group runs
//! exactly once, a fault stops a dispatch whose runners hold claimed work-groups, and a
//! work-group waiting for a later one of the same batch lets it run.

mod common;
use common::*;
use softhsa_gpu::{Device, DeviceConfig, FaultKind};
use std::sync::mpsc;
use std::time::Duration;

fn device_with(workers: usize) -> Device {
    Device::new(DeviceConfig {
        worker_threads: workers,
        ..DeviceConfig::default()
    })
}

/// Each work-item adds 1 to `counts[work-group]`; work-group 777 first stores to address 0
/// when `s3` (the second kernarg dword pair's low half) is 1.
const COUNT: &str = "s_load_dwordx2 s[4:5], s[0:1], 0x0\ns_load_dword s3, s[0:1], 0x8\n\
    s_waitcnt lgkmcnt(0)\ns_cmp_eq_u32 s3, 1\ns_cbranch_scc0 count\ns_cmp_eq_u32 s2, 777\n\
    s_cbranch_scc0 count\nv_mov_b32 v1, 0\nv_mov_b32 v2, 0\nglobal_store_dword v[1:2], v1, off\n\
    s_waitcnt vmcnt(0)\ncount:\ns_lshl_b32 s6, s2, 2\nv_mov_b32 v1, s6\nv_mov_b32 v2, 1\n\
    global_atomic_add v1, v2, s[4:5]\ns_waitcnt vmcnt(0)\ns_endpgm\n";

#[test]
fn every_work_group_runs_once() {
    let k = kernel(COUNT, descriptor());
    for workers in [1, 2, 3] {
        let dev = device_with(workers);
        // Grids whose batches split unevenly, and a large one (batches of 64).
        for groups in [1u32, 7, 333, 50_001] {
            let map = Map::default();
            let mut counts = vec![0u32; groups as usize];
            let args = [map.add(&mut counts), 0];
            run(&dev, &k, &map, &args, [groups * 64, 1, 1], [64, 1, 1])
                .unwrap_or_else(|f| panic!("{f}"));
            let bad = counts.iter().position(|&c| c != 64);
            assert_eq!(bad, None, "{workers} workers, {groups} work-groups");
        }
    }
}

#[test]
fn a_fault_ends_a_dispatch_whose_runners_hold_batches() {
    let k = kernel(COUNT, descriptor());
    for workers in [1, 2, 3] {
        let dev = device_with(workers);
        let map = Map::default();
        let mut counts = vec![0u32; 50_000];
        let args = [map.add(&mut counts), 1];
        let f = run(&dev, &k, &map, &args, [50_000 * 64, 1, 1], [64, 1, 1]).unwrap_err();
        assert!(
            matches!(f.kind, FaultKind::MemoryViolation { .. }),
            "{workers} workers: {f}"
        );
        assert_eq!(f.workgroup, [777, 0, 0]);
    }
}

/// Work-groups 100..199 each wait (with `s_sleep`) for the next one's flag, then set their
/// own; the others set theirs at once.
const CHAIN: &str = "s_load_dwordx2 s[4:5], s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\n\
    s_cmp_lt_u32 s2, 100\ns_cbranch_scc1 done\ns_cmp_ge_u32 s2, 199\ns_cbranch_scc1 done\n\
    s_add_u32 s6, s2, 1\ns_lshl_b32 s6, s6, 2\nv_mov_b32 v3, s6\nwait:\n\
    global_load_dword v4, v3, s[4:5] glc\ns_waitcnt vmcnt(0)\nv_readfirstlane_b32 s7, v4\n\
    s_cmp_eq_u32 s7, 0\ns_cbranch_scc0 done\ns_sleep 1\ns_branch wait\ndone:\n\
    s_lshl_b32 s6, s2, 2\nv_mov_b32 v3, s6\nv_mov_b32 v5, 1\n\
    global_store_dword v3, v5, s[4:5]\ns_waitcnt vmcnt(0)\ns_endpgm\n";

#[test]
fn a_work_group_waiting_for_a_later_one_of_its_batch_lets_it_run() {
    for workers in [1, 2] {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let k = kernel(CHAIN, descriptor());
            let dev = device_with(workers);
            for _ in 0..5 {
                let map = Map::default();
                let mut flags = vec![0u32; 200];
                let args = [map.add(&mut flags)];
                let r = run(&dev, &k, &map, &args, [200 * 64, 1, 1], [64, 1, 1]);
                let _ = tx.send(
                    r.map(|_| flags.iter().all(|&f| f == 1))
                        .map_err(|f| f.to_string()),
                );
            }
        });
        for _ in 0..5 {
            let r = rx
                .recv_timeout(Duration::from_secs(120))
                .unwrap_or_else(|_| panic!("{workers} workers: the chain did not finish"));
            assert_eq!(r, Ok(true), "{workers} workers");
        }
    }
}

/// Each work-item adds 1 to `counts[gy * width + gx]` (its global ids from the work-group
/// ids and sizes in the kernel arguments: the address, then `width | wg_x << 32`, then
/// `wg_y`).
const COVER: &str = "s_load_dwordx2 s[6:7], s[0:1], 0x0\ns_load_dwordx4 s[8:11], s[0:1], 0x8\n\
    s_waitcnt lgkmcnt(0)\ns_mul_i32 s12, s2, s9\nv_add_u32 v2, s12, v0\n\
    s_mul_i32 s13, s3, s10\nv_add_u32 v3, s13, v1\nv_mul_lo_u32 v4, v3, s8\n\
    v_add_u32 v4, v4, v2\nv_lshlrev_b32 v4, 2, v4\nv_mov_b32 v5, 1\n\
    global_atomic_add v4, v5, s[6:7]\ns_waitcnt vmcnt(0)\ns_endpgm\n";

/// A runner goes on with the next work-group of its batch itself where that one has the
/// ended one's shape (`workgroup::run_context`): in a 2-D grid whose rows of work-groups
/// end in narrower ones (and whose last row is lower), the narrower ones come between full
/// ones in index order. Every work-item must run once, and no lane past the grid's edge.
#[test]
fn work_groups_of_other_shapes_in_a_batch_run_with_their_own_shape() {
    let k = kernel(COVER, descriptor());
    let (width, height, wg) = (1000u32, 300u32, [16u16, 16, 1]);
    for workers in [1, 2] {
        let dev = device_with(workers);
        let map = Map::default();
        // Room past the grid's end: a lane past an edge would count there or twice inside.
        let mut counts = vec![0u32; (width * height) as usize + 64 * 1024];
        let args = [
            map.add(&mut counts),
            u64::from(width) | u64::from(wg[0]) << 32,
            u64::from(wg[1]),
        ];
        let stats =
            run(&dev, &k, &map, &args, [width, height, 1], wg).unwrap_or_else(|f| panic!("{f}"));
        let bad = counts.iter().enumerate().find(|&(i, &c)| {
            let inside = i < (width * height) as usize;
            c != u32::from(inside)
        });
        assert_eq!(bad, None, "{workers} workers: (index, count)");
        // 63 x 19 work-groups; the last column is 8 wide (two waves), the last row 12 high
        // (three), the corner 8 x 12 (two).
        let waves = 62 * 18 * 4 + 18 * 2 + 62 * 3 + 2;
        assert_eq!(stats.waves, waves, "{workers} workers");
    }
}

/// Writes -1 to s24..s31 (its descriptor allows every SGPR).
const DIRTY: &str = "s_mov_b64 s[24:25], -1\ns_mov_b64 s[26:27], -1\ns_mov_b64 s[28:29], -1\n\
    s_mov_b64 s[30:31], -1\ns_endpgm\n";

/// Stores s24..s31 as found at the wave's start (nothing writes them) to the address in the
/// kernel arguments.
const READ_START: &str = "s_load_dwordx2 s[4:5], s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\n\
    v_mov_b32 v1, 0\nv_mov_b32 v2, s24\nv_mov_b32 v3, s25\nv_mov_b32 v4, s26\n\
    v_mov_b32 v5, s27\nv_mov_b32 v6, s28\nv_mov_b32 v7, s29\nv_mov_b32 v8, s30\n\
    v_mov_b32 v9, s31\nglobal_store_dwordx4 v1, v[2:5], s[4:5]\n\
    global_store_dwordx4 v1, v[6:9], s[4:5] offset:16\ns_waitcnt vmcnt(0)\ns_endpgm\n";

/// A wave starts with the SGPRs its kernel's descriptor counts as its own as every wave of
/// that kernel does (zero where the hardware loads nothing), whatever the wave before it on
/// the same runner left there; only SGPRs past that count keep another wave's values.
#[test]
fn sgprs_a_kernel_counts_start_alike_after_another_kernel() {
    let dirty = kernel(DIRTY, descriptor());
    // GRANULATED_WAVEFRONT_SGPR_COUNT 2: 32 SGPRs (GFX9, a granule of 16).
    let mut kd = descriptor();
    kd.pgm_rsrc1 = kd.pgm_rsrc1 & !(0xf << 6) | 2 << 6;
    let read = kernel(READ_START, kd);
    let dev = device_with(1);
    for round in 0..3 {
        let map = Map::default();
        run(&dev, &dirty, &map, &[], [64, 1, 1], [64, 1, 1]).unwrap_or_else(|f| panic!("{f}"));
        let mut out = [7u32; 8];
        let args = [map.add(&mut out)];
        run(&dev, &read, &map, &args, [64, 1, 1], [64, 1, 1]).unwrap_or_else(|f| panic!("{f}"));
        assert_eq!(out, [0; 8], "round {round}");
    }
}
