//! The rarer DS and control instructions, per instruction against host computations:
//! ds_append/consume, src2 forms, addtid, condxchg, GDS, GWS across work-groups, fork/join,
//! VSKIP, LDS_DIRECT, s_sethalt, s_rfe, s_scratch_*, and three VALU odds.

mod common;
use common::*;
use softhsa_gpu::FaultKind;

/// `grid` lanes in work-groups of `wg` running `body`; s[20:21] = `out`, s[22:23] = `inp`.
fn group(
    body: &str,
    lds: u32,
    grid: u32,
    wg: u16,
    out: &mut [u32],
    inp: &mut [u32],
) -> Result<(), softhsa_gpu::Fault> {
    run_two_buffers(body, lds, grid, wg, out, inp).map(|_| ())
}

/// Stores v1 of each lane at out[lane] (global_store through s[20:21]).
const STORE_V1: &str = "v_lshlrev_b32 v9, 2, v0\nglobal_store_dword v9, v1, s[20:21]\n";

fn wave64(body: &str, lds: u32, inp: &mut [u32]) -> Vec<u32> {
    let mut out = vec![0u32; 64];
    group(&format!("{body}\n{STORE_V1}"), lds, 64, 64, &mut out, inp)
        .unwrap_or_else(|f| panic!("{f}"));
    out
}

#[test]
fn append_and_consume_return_the_counter_before_the_wave() {
    // Counter at LDS 0x40 = 1000; odd lanes append (32), then all lanes consume (64).
    let out = wave64(
        "v_mov_b32 v2, 0x40\nv_mov_b32 v3, 1000\nds_write_b32 v2, v3\ns_waitcnt lgkmcnt(0)\n\
         s_mov_b32 m0, 0x30\ns_mov_b32 exec_lo, 0xaaaaaaaa\ns_mov_b32 exec_hi, 0xaaaaaaaa\nds_append v4 offset:16\n\
         s_mov_b64 exec, -1\ns_waitcnt lgkmcnt(0)\nds_consume v5 offset:16\ns_waitcnt lgkmcnt(0)\n\
         ds_read_b32 v6, v2\ns_waitcnt lgkmcnt(0)\n\
         v_lshlrev_b32 v1, 16, v5\nv_or_b32 v1, v1, v6\nv_and_b32 v7, 1, v0\n\
         v_cmp_eq_u32 vcc, 1, v7\nv_cndmask_b32 v8, 0, v4, vcc\nv_add_u32 v1, v1, v8",
        256,
        &mut [0],
    );
    for (l, &v) in out.iter().enumerate() {
        let appended = if l % 2 == 1 { 1000 } else { 0 };
        // consume saw 1032; the counter ends at 1032 - 64 = 968.
        assert_eq!(v, (1032 << 16 | 968) + appended, "lane {l}");
    }
}

#[test]
fn src2_ops_combine_two_lds_locations() {
    // LDS dword i = 3 * i + 1. Immediate mode: A = 4 * lane, B = A + 4 * 16 (offset 16):
    // ds_add_src2_u32. Per-lane mode (offset1[7] set): addr = A | (delta << 17) with delta =
    // -lane: ds_min_src2_u32 of dword 64 + lane and dword 64.
    let init: Vec<u32> = (0..256).map(|i| 3 * i + 1).collect();
    let mut inp = init.clone();
    let out = wave64(
        "v_lshlrev_b32 v2, 2, v0\nglobal_load_dword v3, v2, s[22:23]\nglobal_load_dword v4, v2, s[22:23] offset:256\n\
         s_waitcnt vmcnt(0)\nds_write_b32 v2, v3\nds_write_b32 v2, v4 offset:256\ns_waitcnt lgkmcnt(0)\n\
         ds_add_src2_u32 v2 offset:16\ns_waitcnt lgkmcnt(0)\nds_read_b32 v5, v2\n\
         v_sub_u32 v8, 0, v0\nv_lshlrev_b32 v8, 17, v8\nv_add_u32 v6, 0x100, v2\nv_or_b32 v6, v6, v8\n\
         ds_min_src2_u32 v6 offset:32768\ns_waitcnt lgkmcnt(0)\nv_add_u32 v10, 0x100, v2\n\
         ds_read_b32 v11, v10\ns_waitcnt lgkmcnt(0)\nv_lshlrev_b32 v1, 16, v11\nv_or_b32 v1, v1, v5",
        1024,
        &mut inp,
    );
    // ds_add_src2: A = dword l, B = dword l + 16 (read before lane l + 16 updates it).
    let mem: Vec<u32> = (0..64).map(|l| init[l] + init[l + 16]).collect();
    // ds_min_src2 per lane: A = dword 64 + l, B = A - 4l = dword 64 for every lane.
    let hi: Vec<u32> = (0..64).map(|l| init[64 + l].min(init[64])).collect();
    for l in 0..64 {
        assert_eq!(out[l], hi[l] << 16 | (mem[l] & 0xffff), "lane {l}");
    }
}

#[test]
fn addtid_and_condxchg_follow_the_isa() {
    let out = wave64(
        "s_mov_b32 m0, 0x40\nv_mul_u32_u24 v2, 7, v0\nds_write_addtid_b32 v2 offset:0x20\ns_waitcnt lgkmcnt(0)\n\
         v_lshlrev_b32 v3, 2, v0\nds_read_b32 v4, v3 offset:0x60\n\
         s_mov_b32 m0, 0x64\nds_read_addtid_b32 v5 offset:0\ns_waitcnt lgkmcnt(0)\n\
         v_mov_b32 v6, 0x800\nv_mov_b32 v7, 0x55\nv_mov_b32 v8, 0x66\n\
         ds_write_b64 v6, v[7:8]\ns_waitcnt lgkmcnt(0)\n\
         v_mov_b32 v10, 0x80000123\nv_mov_b32 v11, 0x456\nv_mov_b32 v12, 0x803\n\
         s_mov_b64 exec, 1\nds_condxchg32_rtn_b64 v[13:14], v12, v[10:11] offset:2\ns_waitcnt lgkmcnt(0)\n\
         ds_read_b64 v[15:16], v6\ns_waitcnt lgkmcnt(0)\ns_mov_b64 exec, -1\n\
         v_readfirstlane_b32 s40, v13\nv_readfirstlane_b32 s41, v14\nv_readfirstlane_b32 s42, v15\n\
         v_readfirstlane_b32 s43, v16\nv_add_u32 v1, v4, v5\n\
         v_writelane_b32 v1, s40, 60\nv_writelane_b32 v1, s41, 61\nv_writelane_b32 v1, s42, 62\nv_writelane_b32 v1, s43, 63",
        4096,
        &mut [0],
    );
    // write_addtid: LDS[0x40 + 0x20 + 4l] = 7l; read back at 0x60 + 4l. read_addtid at
    // 0x64 + 4l reads 7(l + 1) (0 past the last lane).
    for l in 0..60u32 {
        let next = if l < 63 { 7 * (l + 1) } else { 0 };
        assert_eq!(out[l as usize], 7 * l + next, "lane {l}");
    }
    // condxchg at (0x803 + 2) & 0xfff8 = 0x800: bit 31 set -> 0x123 written; bit 63 clear.
    assert_eq!(&out[60..64], &[0x55, 0x66, 0x123, 0x66]);
}

#[test]
fn gds_accesses_are_range_errors_without_gds() {
    let mut out = vec![0u32; 64];
    let f = group(
        "v_mov_b32 v1, 8\nv_mov_b32 v2, 1\ns_mov_b32 m0, 0x10000\nds_add_u32 v1, v2 offset:4 gds",
        0,
        64,
        64,
        &mut out,
        &mut [0],
    )
    .unwrap_err();
    assert_eq!(
        f.kind,
        FaultKind::MemoryViolation {
            address: 13,
            write: true
        }
    );
}

#[test]
fn gws_barrier_and_semaphores_synchronize_work_groups() {
    // Dispatch 1: init resource 5 as a barrier of 4 waves (value 3) and resource 6 as a
    // semaphore at 0. Dispatch 2, four work-groups: each writes its id + 1 to slot[wg], meets
    // the others at the barrier, then sums all slots (every wave must see all four). Group 0
    // then releases three semaphore counts; groups 1-3 wait on them (sema_p) and store the
    // sum again.
    let dev = device();
    let map = Map::default();
    let mut slots = vec![0u32; 64];
    let init = kernel(
        "s_mov_b32 m0, 0\nv_mov_b32 v1, 3\nds_gws_init v1 offset:5 gds\ns_waitcnt lgkmcnt(0)\n\
         v_mov_b32 v1, 0\nds_gws_init v1 offset:6 gds\ns_waitcnt lgkmcnt(0)\ns_endpgm\n",
        descriptor(),
    );
    run(&dev, &init, &map, &[], [64, 1, 1], [64, 1, 1]).unwrap();
    let k = kernel(
        "s_load_dwordx2 s[20:21], s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\ns_mov_b32 m0, 0\n\
         s_add_u32 s3, s2, 1\ns_lshl_b32 s4, s2, 2\nv_mov_b32 v1, s3\nv_mov_b32 v2, s4\n\
         s_mov_b64 exec, 1\nglobal_store_dword v2, v1, s[20:21]\ns_waitcnt vmcnt(0)\n\
         v_mov_b32 v3, 3\nds_gws_barrier v3 offset:5 gds\ns_waitcnt lgkmcnt(0)\n\
         global_load_dwordx4 v[4:7], v0, s[20:21] glc\ns_waitcnt vmcnt(0)\n\
         v_add3_u32 v8, v4, v5, v6\nv_add_u32 v8, v8, v7\nglobal_store_dword v2, v8, s[20:21] offset:16\n\
         s_cmp_eq_u32 s2, 0\ns_cbranch_scc0 wait\nv_mov_b32 v9, 3\nds_gws_sema_br v9 offset:6 gds\n\
         s_waitcnt lgkmcnt(0)\ns_endpgm\n\
         wait:\nds_gws_sema_p offset:6 gds\ns_waitcnt lgkmcnt(0)\n\
         global_load_dwordx4 v[4:7], v0, s[20:21] glc\ns_waitcnt vmcnt(0)\nv_add3_u32 v8, v4, v5, v6\n\
         v_add_u32 v8, v8, v7\nglobal_store_dword v2, v8, s[20:21] offset:32\ns_endpgm\n",
        descriptor(),
    );
    let args = [map.add(&mut slots)];
    run(&dev, &k, &map, &args, [256, 1, 1], [64, 1, 1]).unwrap_or_else(|f| panic!("{f}"));
    assert_eq!(&slots[..4], &[1, 2, 3, 4]);
    assert_eq!(&slots[4..8], &[10, 10, 10, 10], "sums after the barrier");
    assert_eq!(
        &slots[9..12],
        &[10, 10, 10],
        "consumers released by sema_br"
    );
}

#[test]
fn fork_and_join_run_both_sides_with_their_lanes() {
    // Even lanes (mask in s[4:5]) add 100, odd ones 1000: with equal counts the fork runs the
    // pass side first and pushes the other; the first join pops it, the second goes on (with
    // the last side's EXEC: the program restores its own) and every lane adds 1.
    let out = wave64(
        "v_mov_b32 v1, v0\ns_mov_b32 s4, 0x55555555\ns_mov_b32 s5, 0x55555555\ns_mov_b64 s[10:11], exec\n\
         s_getreg_b32 s8, hwreg(HW_REG_MODE, 29, 3)\n\
         s_cbranch_i_fork s[4:5], pass\nv_add_u32 v1, 1000, v1\ns_branch join\n\
         pass:\nv_add_u32 v1, 100, v1\n\
         join:\ns_cbranch_join s8\ns_mov_b64 exec, s[10:11]\nv_add_u32 v1, 1, v1",
        0,
        &mut [0],
    );
    for (l, &v) in out.iter().enumerate() {
        let add = if l % 2 == 0 { 100 } else { 1000 };
        assert_eq!(v, l as u32 + add + 1, "lane {l}");
    }
}

#[test]
fn vskip_skips_vector_instructions_only() {
    let out = wave64(
        "v_mov_b32 v1, 5\nv_lshlrev_b32 v2, 2, v0\nds_write_b32 v2, v1\ns_mov_b32 s6, 1\n\
         s_setvskip s6, 0\nv_mov_b32 v1, 7\ns_add_u32 s7, 40, 2\nv_mov_b32 v3, 9\n\
         ds_write_b32 v2, v3\ns_setvskip 0, 0\nds_read_b32 v4, v2\ns_waitcnt lgkmcnt(0)\n\
         v_add_u32 v1, s7, v1\nv_add_u32 v1, v1, v4",
        256,
        &mut [0],
    );
    // v1 stays 5, the skipped ds_write leaves 5 in LDS, s7 = 42: 5 + 42 + 5.
    assert!(out.iter().all(|&v| v == 52), "{out:?}");
}

#[test]
fn lds_direct_reads_by_data_type() {
    // LDS bytes at 0x10: f1 f0 81 80. Lane k of v1 gets the read with M0 = cases[k].
    let cases = [
        (0x0_0010u32, 0xf1u32),
        (0x1_0012, 0x8081),
        (0x2_0010, 0x8081_f0f1),
        (0x4_0011, 0xffff_fff0),
        (0x5_0012, 0xffff_8081),
    ];
    let mut body = String::from(
        "v_mov_b32 v2, 0\nv_mov_b32 v3, 0x8081f0f1\nds_write_b32 v2, v3 offset:16\n\
         s_waitcnt lgkmcnt(0)\nv_mov_b32 v1, 0\n",
    );
    for (k, (m0, _)) in cases.iter().enumerate() {
        // VOP1 and VOP2 both take LDS_DIRECT as src0.
        let op = if k % 2 == 0 {
            "v_mov_b32 v4, src_lds_direct"
        } else {
            "v_add_u32 v4, src_lds_direct, v2"
        };
        body += &format!(
            "s_mov_b32 m0, {m0:#x}\n{op}\nv_readfirstlane_b32 s10, v4\nv_writelane_b32 v1, s10, {k}\n"
        );
    }
    let out = wave64(&body, 256, &mut [0]);
    for (k, (_, want)) in cases.iter().enumerate() {
        assert_eq!(out[k], *want, "M0 {:#x}", cases[k].0);
    }
}

#[test]
fn wide_sad_pkaccum_and_screen_partition() {
    let mut inp: Vec<u32> = (0..64).map(|i| (i * 0x0103_0507) ^ 0x1122_3344).collect();
    let out = wave64(
        "v_lshlrev_b32 v2, 2, v0\nglobal_load_dword v3, v2, s[22:23]\ns_waitcnt vmcnt(0)\n\
         v_mov_b32 v4, 0x00ff0a00\nv_mov_b32 v10, 1\nv_mov_b32 v11, 2\nv_mov_b32 v12, 3\nv_mov_b32 v13, 0xffffffff\n\
         v_mqsad_u32_u8 v[14:17], v[3:4], v0, v[10:13]\n\
         v_mov_b32 v18, 0x11223344\nv_cvt_f32_u32 v19, v0\nv_mul_f32 v19, 4.0, v19\n\
         v_cvt_pkaccum_u8_f32 v18, v19, 2\nv_screen_partition_4se_b32 v20, v0\n\
         v_xor_b32 v1, v14, v15\nv_xor_b32 v1, v1, v16\nv_xor_b32 v1, v1, v17\n\
         v_xor_b32 v1, v1, v18\nv_xor_b32 v1, v1, v20",
        0,
        &mut inp,
    );
    let sad = |w: u32, r: u32| -> u32 {
        (0..4)
            .map(|i| {
                let (x, y) = ((w >> (8 * i)) & 0xff, (r >> (8 * i)) & 0xff);
                if y == 0 {
                    0
                } else {
                    x.abs_diff(y)
                }
            })
            .sum()
    };
    // The manual's screen partition table, first rows (index = v0 = lane).
    let table = [
        0x1, 0x3, 0x7, 0xf, 0x5, 0xf, 0xf, 0xf, 0x7, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x2,
        0x6, 0xe, 0xf, 0xa, 0xf, 0xf, 0xf, 0xb, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xd, 0xf, 0x4, 0xc,
        0xf, 0xf, 0x5, 0xf, 0xf, 0xf, 0xd, 0xf, 0xf, 0xf, 0xf, 0xf, 0x9, 0xb, 0xf, 0x8, 0xf, 0xf,
        0xf, 0xa, 0xf, 0xf, 0xf, 0xe, 0xf, 0xf, 0xf, 0xf,
    ];
    for l in 0..64u32 {
        let s0 = u64::from(inp[l as usize]) | 0x00ff_0a00u64 << 32;
        let acc = [1u32, 2, 3, 0xffff_ffff];
        let d: Vec<u32> = (0..4)
            .map(|k| acc[k].wrapping_add(sad((s0 >> (8 * k)) as u32, l)))
            .collect();
        let byte = ((l as f32 * 4.0).round_ties_even().clamp(0.0, 255.0)) as u32;
        let pk = (0x1122_3344 & !(0xff << 16)) | byte << 16;
        let want = d[0] ^ d[1] ^ d[2] ^ d[3] ^ pk ^ table[l as usize];
        assert_eq!(out[l as usize], want, "lane {l}");
    }
}

#[test]
fn scalar_scratch_access_scales_the_sgpr_offset() {
    // s_scratch_store at base + 2 * 64 (SGPR offset 2), then s_scratch_load at base + 128
    // (immediate byte offset): the same dword.
    let mut buf = vec![0u32; 64];
    let out = wave64(
        "s_mov_b64 s[30:31], s[22:23]\ns_mov_b32 s4, 2\ns_mov_b32 s5, 0xabcd1234\n\
         s_scratch_store_dword s5, s[30:31], s4\ns_waitcnt lgkmcnt(0)\n\
         s_scratch_load_dword s6, s[30:31], 0x80\ns_waitcnt lgkmcnt(0)\nv_mov_b32 v1, s6",
        0,
        &mut buf,
    );
    assert_eq!(buf[32], 0xabcd_1234);
    assert!(out.iter().all(|&v| v == 0xabcd_1234));
}

#[test]
fn sethalt_faults_and_rfe_jumps() {
    let mut out = vec![0u32; 64];
    let f = group("s_sethalt 0\ns_sethalt 1", 0, 64, 64, &mut out, &mut [0]).unwrap_err();
    assert_eq!(f.kind, FaultKind::Halted);
    let out = wave64(
        "v_mov_b32 v1, 1\ns_getpc_b64 s[4:5]\ns_add_u32 s4, s4, 16\ns_addc_u32 s5, s5, 0\n\
         s_rfe_b64 s[4:5]\nv_mov_b32 v1, 2\nv_add_u32 v1, 40, v1",
        0,
        &mut [0],
    );
    // s_getpc gives the address after itself; +16 skips s_add, s_addc, s_rfe (4 + 4 + 4) and
    // v_mov (4): execution goes on at the v_add.
    assert!(out.iter().all(|&v| v == 41), "{:?}", &out[..4]);
}

#[test]
fn vskip_skips_a_lone_lds_store() {
    // A block holding nothing but an LDS store between the two s_setvskip.
    let out = wave64(
        "v_mov_b32 v1, 5\nv_lshlrev_b32 v2, 2, v0\nds_write_b32 v2, v1\nv_mov_b32 v3, 9\n\
         s_mov_b32 s6, 1\ns_setvskip s6, 0\nds_write_b32 v2, v3\ns_setvskip 0, 0\n\
         ds_read_b32 v1, v2\ns_waitcnt lgkmcnt(0)",
        256,
        &mut [0],
    );
    assert!(out.iter().all(|&v| v == 5), "{out:?}");
}
