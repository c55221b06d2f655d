//! Cross-lane operations, scalar ALU results, atomics across work-groups, messages, tracing.

mod common;
use common::*;
use softhsa_gpu::{Device, DeviceConfig, Dispatch, TraceConfig};
use std::sync::{Arc, Mutex};

/// Runs a one-wave kernel whose result is v1 of each lane, stored to out[lane].
fn one_wave(body: &str) -> Vec<u32> {
    let asm = format!(
        "s_load_dwordx2 s[6:7], s[0:1], 0x0\n{body}\ns_mov_b64 exec, -1\nv_lshlrev_b32 v9, 2, v0\ns_waitcnt lgkmcnt(0)\nglobal_store_dword v9, v1, s[6:7]\ns_endpgm\n"
    );
    let k = kernel(&asm, descriptor());
    let mut out = vec![0u32; 64];
    let map = Map::default();
    let args = [map.add(&mut out)];
    run(&device(), &k, &map, &args, [64, 1, 1], [64, 1, 1]).unwrap();
    out
}

#[test]
fn dpp_row_shr_with_bound_ctrl() {
    let out = one_wave("v_add_u32 v2, 100, v0\nv_mov_b32 v1, 7\nv_mov_b32_dpp v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0");
    for l in 0..64u32 {
        let want = if l % 16 == 0 { 0 } else { 100 + l - 1 };
        assert_eq!(out[l as usize], want, "lane {l}");
    }
}

#[test]
fn readlane_writelane_readfirstlane() {
    let out = one_wave(
        "v_mul_u32_u24 v2, 3, v0\ns_mov_b32 s8, 5\nv_readlane_b32 s9, v2, s8\nv_mov_b32 v1, s9\n\
         v_writelane_b32 v1, s8, 63\n\
         s_mov_b64 exec, 0xff00\nv_readfirstlane_b32 s10, v2\ns_mov_b64 exec, -1\nv_writelane_b32 v1, s10, 0",
    );
    assert_eq!(out[0], 3 * 8); // first active lane of exec 0xff00 is lane 8
    for (l, &v) in out.iter().enumerate().take(63).skip(1) {
        assert_eq!(v, 15, "lane {l}");
    }
    assert_eq!(out[63], 5);
}

#[test]
fn ds_swizzle_and_bpermute() {
    // swizzle SWAP 1 (xor 1) then bpermute from lane 63 - l.
    let out = one_wave(
        "ds_swizzle_b32 v2, v0 offset:swizzle(SWAP,1)\n\
         v_sub_u32 v3, 63, v0\nv_lshlrev_b32 v3, 2, v3\nds_bpermute_b32 v1, v3, v2\ns_waitcnt lgkmcnt(0)",
    );
    for l in 0..64u32 {
        assert_eq!(out[l as usize], (63 - l) ^ 1, "lane {l}");
    }
}

#[test]
fn scalar_alu_matches_host() {
    // Each SALU result goes to lane k of v1 via v_writelane.
    type Op = (&'static str, fn(u32, u32) -> u32);
    let ops: [Op; 13] = [
        ("s_add_u32 s10, s20, s21", |a: u32, b: u32| {
            a.wrapping_add(b)
        }),
        ("s_sub_u32 s10, s20, s21", |a: u32, b: u32| {
            a.wrapping_sub(b)
        }),
        ("s_mul_i32 s10, s20, s21", |a: u32, b: u32| {
            a.wrapping_mul(b)
        }),
        ("s_lshl_b32 s10, s20, s21", |a: u32, b: u32| a << (b & 31)),
        ("s_ashr_i32 s10, s20, s21", |a: u32, b: u32| {
            ((a as i32) >> (b & 31)) as u32
        }),
        ("s_bfe_u32 s10, s20, s21", |a: u32, b: u32| {
            let (o, w) = (b & 31, (b >> 16) & 0x7f);
            if w == 0 {
                0
            } else {
                ((u64::from(a) >> o) & ((1u64 << w.min(32)) - 1)) as u32
            }
        }),
        ("s_min_i32 s10, s20, s21", |a: u32, b: u32| {
            (a as i32).min(b as i32) as u32
        }),
        ("s_max_u32 s10, s20, s21", |a: u32, b: u32| a.max(b)),
        ("s_xnor_b32 s10, s20, s21", |a: u32, b: u32| !(a ^ b)),
        ("s_mul_hi_u32 s10, s20, s21", |a: u32, b: u32| {
            ((u64::from(a) * u64::from(b)) >> 32) as u32
        }),
        ("s_absdiff_i32 s10, s20, s21", |a: u32, b: u32| {
            (a as i32).wrapping_sub(b as i32).unsigned_abs()
        }),
        ("s_lshl2_add_u32 s10, s20, s21", |a: u32, b: u32| {
            (a << 2).wrapping_add(b)
        }),
        ("s_pack_lh_b32_b16 s10, s20, s21", |a: u32, b: u32| {
            (a & 0xffff) | (b & 0xffff_0000)
        }),
    ];
    let inputs = [
        (0x8000_0005u32, 0x0004_0003u32),
        (7, 0xffff_fff0),
        (0x1234_5678, 9),
    ];
    for (a, b) in inputs {
        let mut body = format!("s_mov_b32 s20, {a:#x}\ns_mov_b32 s21, {b:#x}\nv_mov_b32 v1, 0\n");
        for (k, (op, _)) in ops.iter().enumerate() {
            body += &format!("{op}\nv_writelane_b32 v1, s10, {k}\n");
        }
        let out = one_wave(&body);
        for (k, (op, f)) in ops.iter().enumerate() {
            assert_eq!(out[k], f(a, b), "{op} with {a:#x}, {b:#x}");
        }
    }
}

#[test]
fn global_atomics_across_workgroups() {
    // Every work-item: atomic add 1 to counter[0], atomic max of its id to counter[1].
    let asm = r#"
  s_load_dwordx2 s[6:7], s[0:1], 0x0
  s_lshl_b32 s8, s2, 6
  v_add_u32 v1, s8, v0
  v_mov_b32 v2, 1
  v_mov_b32 v3, 0
  s_waitcnt lgkmcnt(0)
  global_atomic_add v3, v2, s[6:7]
  global_atomic_umax v3, v1, s[6:7] offset:4
  global_atomic_add v4, v3, v2, s[6:7] offset:8 glc
  s_waitcnt vmcnt(0)
  v_lshlrev_b32 v5, 2, v1
  global_store_dword v5, v4, s[6:7] offset:16
  s_endpgm
"#;
    let k = kernel(asm, descriptor());
    let n = 64 * 64;
    let mut buf = vec![0u32; 4 + n];
    let map = Map::default();
    let args = [map.add(&mut buf)];
    run(&device(), &k, &map, &args, [n as u32, 1, 1], [64, 1, 1]).unwrap();
    assert_eq!(buf[0], n as u32);
    assert_eq!(buf[1], n as u32 - 1);
    assert_eq!(buf[2], n as u32);
    // The returned old values are a permutation of 0..n.
    let mut olds: Vec<u32> = buf[4..].to_vec();
    olds.sort_unstable();
    assert!(olds.iter().enumerate().all(|(i, &v)| v == i as u32));
}

#[test]
fn sendmsg_interrupt_reaches_events() {
    let k = kernel(
        "s_mov_b32 m0, 0x2a\ns_sendmsg sendmsg(MSG_INTERRUPT)\ns_endpgm\n",
        descriptor(),
    );
    let map = Map::default();
    let events = Events::default();
    let d = Dispatch {
        kernel: &k,
        grid_size: [128, 1, 1],
        workgroup_size: [64, 1, 1],
        dynamic_group_segment_size: 0,
        private_segment_size: 0,
        kernarg_address: 0,
        packet_address: 0,
        queue_address: 0,
        dispatch_id: 0,
        memory: &map,
        events: &events,
    };
    device().dispatch(&d).unwrap();
    assert_eq!(*events.interrupts.lock().unwrap(), vec![0x2a, 0x2a]);
}

#[test]
fn isa_trace_names_changed_registers() {
    let sink = Arc::new(Mutex::new(String::new()));
    let cfg = DeviceConfig {
        worker_threads: 2,
        trace: Some(TraceConfig {
            workgroup: [1, 0, 0],
            wave: 0,
            sink: Some(sink.clone()),
        }),
        ..Default::default()
    };
    let dev = Device::new(cfg);
    let k = kernel(
        "s_mov_b32 s5, 0x1234\nv_mov_b32 v3, s2\ns_endpgm\n",
        descriptor(),
    );
    run(&dev, &k, &Map::default(), &[], [192, 1, 1], [64, 1, 1]).unwrap();
    let text = sink.lock().unwrap().clone();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[0].contains("s_mov_b32") && lines[0].contains("s5=0x1234"),
        "{text}"
    );
    // Work-group 1: s2 = 1 in every lane of v3.
    assert!(
        lines[1].contains("v3[64 lanes]") && lines[1].contains("l0=0x1"),
        "{text}"
    );
}

#[test]
fn scalar_unary_and_sopk_match_host() {
    // Results go to lanes of v1; 64-bit results as two lanes.
    let a: u32 = 0x00f0_1380;
    let b: u64 = 0x8000_0000_0001_0000;
    let body = format!(
        "s_mov_b32 s20, {a:#x}\ns_mov_b32 s22, {:#x}\ns_mov_b32 s23, {:#x}\nv_mov_b32 v1, 0\n\
         s_brev_b32 s10, s20\nv_writelane_b32 v1, s10, 0\n\
         s_ff1_i32_b32 s10, s20\nv_writelane_b32 v1, s10, 1\n\
         s_flbit_i32_b32 s10, s20\nv_writelane_b32 v1, s10, 2\n\
         s_bcnt1_i32_b64 s10, s[22:23]\nv_writelane_b32 v1, s10, 3\n\
         s_sext_i32_i16 s10, s20\nv_writelane_b32 v1, s10, 4\n\
         s_mov_b32 s10, s20\ns_addk_i32 s10, 0x7fff\nv_writelane_b32 v1, s10, 5\n\
         s_mov_b32 s10, s20\ns_mulk_i32 s10, 0xfff0\nv_writelane_b32 v1, s10, 6\n\
         s_cmpk_lt_i32 s20, 0x1000\ns_cselect_b32 s10, 1, 2\nv_writelane_b32 v1, s10, 7\n\
         s_cmpk_gt_u32 s20, 0x1000\ns_cselect_b32 s10, 1, 2\nv_writelane_b32 v1, s10, 8\n\
         s_lshr_b64 s[12:13], s[22:23], 12\nv_writelane_b32 v1, s12, 9\nv_writelane_b32 v1, s13, 10\n\
         s_bfe_i64 s[12:13], s[22:23], 0x100010\nv_writelane_b32 v1, s12, 11\nv_writelane_b32 v1, s13, 12\n\
         s_not_b64 s[12:13], s[22:23]\nv_writelane_b32 v1, s12, 13\nv_writelane_b32 v1, s13, 14\n\
         s_movk_i32 s10, 0x8001\nv_writelane_b32 v1, s10, 15",
        b as u32,
        (b >> 32) as u32
    );
    let out = one_wave(&body);
    let lshr = b >> 12;
    let bfe = ((b >> 16) & 0xffff) as u16 as i16 as i64 as u64;
    let want = [
        a.reverse_bits(),
        a.trailing_zeros(),
        a.leading_zeros(),
        b.count_ones(),
        a as u16 as i16 as i32 as u32,
        (a as i32).wrapping_add(0x7fff) as u32,
        (a as i32).wrapping_mul(0xfff0u16 as i16 as i32) as u32,
        if (a as i32) < 0x1000 { 1 } else { 2 },
        if a > 0x1000 { 1 } else { 2 },
        lshr as u32,
        (lshr >> 32) as u32,
        bfe as u32,
        (bfe >> 32) as u32,
        !b as u32,
        (!b >> 32) as u32,
        0x8001u16 as i16 as i32 as u32,
    ];
    for (k, &w) in want.iter().enumerate() {
        assert_eq!(out[k], w, "result {k}");
    }
}
