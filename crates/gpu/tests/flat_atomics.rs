//! FLAT atomics that land in the LDS (shared) and private (scratch) apertures, 32- and 64-bit,
//! with and without return, checked against host-computed values.

mod common;
use common::*;

#[test]
fn flat_atomics_in_lds_and_private_apertures() {
    // s[0:3] private segment buffer, s[4:5] kernarg (out pointer).
    let asm = r#"
  s_load_dwordx2 s[10:11], s[4:5], 0x0
  s_mov_b32 s8, src_shared_base
  s_mov_b32 s9, src_private_base
  v_mov_b32 v2, 0x100
  v_mov_b32 v3, s8
  v_mov_b32 v4, 0x80000001
  v_mov_b32 v5, 0
  flat_atomic_add_x2 v[6:7], v[2:3], v[4:5] glc
  v_lshlrev_b32 v8, 3, v0
  v_add_u32 v8, 0x200, v8
  v_mov_b32 v9, s8
  v_mov_b32 v10, v0
  v_mov_b32 v11, 0x55
  flat_store_dwordx2 v[8:9], v[10:11]
  v_mul_u32_u24 v12, 3, v0
  v_mov_b32 v13, 0x77
  v_mov_b32 v14, v0
  v_and_b32 v15, 1, v0
  v_add_u32 v15, 0x55, v15
  flat_atomic_cmpswap_x2 v[16:17], v[8:9], v[12:15] glc
  s_waitcnt vmcnt(0) lgkmcnt(0)
  flat_load_dwordx2 v[18:19], v[8:9]
  v_mov_b32 v20, 0x300
  v_mov_b32 v21, s8
  v_sub_u32 v22, 0, v0
  v_ashrrev_i32 v23, 31, v22
  flat_atomic_smin_x2 v[20:21], v[22:23]
  v_mov_b32 v24, 8
  v_mov_b32 v25, s9
  v_mov_b32 v26, -1
  v_mov_b32 v27, v0
  flat_store_dwordx2 v[24:25], v[26:27]
  v_mov_b32 v28, 1
  v_mov_b32 v29, 0
  flat_atomic_add_x2 v[30:31], v[24:25], v[28:29] glc
  flat_atomic_umax v[24:25], v0
  s_waitcnt vmcnt(0) lgkmcnt(0)
  flat_load_dwordx2 v[32:33], v[24:25]
  flat_load_dwordx2 v[34:35], v[2:3]
  flat_load_dwordx2 v[36:37], v[20:21]
  v_lshlrev_b32 v40, 6, v0
  s_waitcnt vmcnt(0) lgkmcnt(0)
  global_store_dwordx2 v40, v[6:7], s[10:11]
  global_store_dwordx4 v40, v[16:19], s[10:11] offset:8
  global_store_dwordx4 v40, v[30:33], s[10:11] offset:24
  global_store_dwordx4 v40, v[34:37], s[10:11] offset:40
  s_endpgm
"#;
    let mut kd = descriptor();
    kd.enable_sgpr_private_segment_buffer = true;
    kd.private_segment_fixed_size = 64;
    kd.group_segment_fixed_size = 1024;
    // USER_SGPR_COUNT = 6, SCRATCH_EN, work-group id X.
    kd.pgm_rsrc2 = 1 | 6 << 1 | 1 << 7;
    let k = kernel(asm, kd);
    let mut out = vec![0u32; 16 * 64];
    let map = Map::default();
    let args = [map.add(&mut out)];
    run_with(&device(), &k, &map, &args, [64, 1, 1], [64, 1, 1], 0, 64)
        .unwrap_or_else(|f| panic!("{f}"));
    let q = |l: usize, i: usize| u64::from(out[16 * l + i]) | u64::from(out[16 * l + i + 1]) << 32;
    let d = 0x8000_0001u64;
    // Returned old values of one shared counter: the prefix sums k*d, in some lane order.
    let mut olds: Vec<u64> = (0..64).map(|l| q(l, 0)).collect();
    olds.sort_unstable();
    assert_eq!(olds, (0..64).map(|k| k * d).collect::<Vec<_>>());
    for l in 0..64usize {
        let lane = l as u64;
        assert_eq!(q(l, 2), 0x55 << 32 | lane, "cmpswap_x2 old, lane {l}");
        let swapped = if l % 2 == 0 {
            (0x77 << 32) | (3 * lane)
        } else {
            0x55 << 32 | lane
        };
        assert_eq!(q(l, 4), swapped, "cmpswap_x2 memory, lane {l}");
        assert_eq!(
            q(l, 6),
            lane << 32 | 0xffff_ffff,
            "private add_x2 old, lane {l}"
        );
        assert_eq!(
            q(l, 8),
            (lane + 1) << 32 | lane,
            "private add_x2 + umax, lane {l}"
        );
        assert_eq!(q(l, 10), 64 * d, "lds add_x2 total");
        assert_eq!(q(l, 12) as i64, -63, "lds smin_x2");
    }
}
