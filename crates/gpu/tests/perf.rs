//! Throughput of the interpreter in wave instructions per second (run with `--ignored`; it
//! prints the figure, and checks the arithmetic of the loop against the host).

mod common;
use common::*;
use softhsa_gpu::{Device, DeviceConfig};

#[test]
#[ignore]
fn wave_instructions_per_second() {
    // Each work-item: x = id; 4096 times: x = x * 3 + 1 (mod 2^32); out[id] = x.
    let asm = r#"
  s_load_dwordx2 s[6:7], s[0:1], 0x0
  s_lshl_b32 s8, s2, 8
  v_add_u32 v1, s8, v0
  v_mov_b32 v2, v1
  s_movk_i32 s9, 0x1000
L:
  v_mul_lo_u32 v2, v2, 3
  v_add_u32 v2, 1, v2
  s_sub_u32 s9, s9, 1
  s_cmp_lg_u32 s9, 0
  s_cbranch_scc1 L
  v_lshlrev_b32 v3, 2, v1
  s_waitcnt lgkmcnt(0)
  global_store_dword v3, v2, s[6:7]
  s_endpgm
"#;
    let k = kernel(asm, descriptor());
    let n = 256 * 256;
    let out = vec![0u32; n];
    let map = Map::default();
    let args = [map.add(&out)];
    let dev = Device::new(DeviceConfig {
        worker_threads: 0,
        ..Default::default()
    });
    let s = run(&dev, &k, &map, &args, [n as u32, 1, 1], [256, 1, 1]).unwrap();
    for (i, &v) in out.iter().enumerate() {
        let mut x = i as u32;
        for _ in 0..4096 {
            x = x.wrapping_mul(3).wrapping_add(1);
        }
        assert_eq!(v, x, "item {i}");
    }
    let ips = s.instructions as f64 / (s.elapsed_ns as f64 / 1e9);
    println!(
        "{} wave instructions in {:.3} s: {:.1} M wave instructions/s",
        s.instructions,
        s.elapsed_ns as f64 / 1e9,
        ips / 1e6
    );
}
