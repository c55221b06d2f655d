//! Throughput of the interpreter in wave instructions per second (run with `--ignored`; it
//! prints the figure, and checks the arithmetic of the loop against the host).

mod common;
use common::*;
use softhsa_gpu::{Device, DeviceConfig};

#[test]
#[ignore]
fn wave_instructions_per_second() {
    // Each work-item: x = id; 4096 times: x = x * 3 + 1 (mod 2^32); out[id] = x.
    let asm = include_str!("../benches/loop.s");
    let k = kernel(asm, descriptor());
    let n = 256 * 256;
    let mut out = vec![0u32; n];
    let map = Map::default();
    let args = [map.add(&mut out)];
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

#[test]
#[ignore]
fn dispatch_latency() {
    // Empty kernels: the cost of splitting a dispatch and starting its workers.
    let mut kd = descriptor();
    kd.pgm_rsrc1 &= !63; // 4 VGPRs: the cost of zeroing registers stays out of the figure
    let k = kernel("s_endpgm\n", kd);
    let dev = Device::new(DeviceConfig::default());
    let map = Map::default();
    for (grid, label) in [(64u32, "1 work-group"), (64 * 1024, "1024 work-groups")] {
        let t = std::time::Instant::now();
        let n = 200;
        for _ in 0..n {
            let s = run(&dev, &k, &map, &[], [grid, 1, 1], [64, 1, 1]).unwrap();
            assert_eq!(s.workgroups, u64::from(grid / 64));
        }
        println!(
            "{label}: {:.1} us per dispatch",
            t.elapsed().as_secs_f64() * 1e6 / n as f64
        );
    }
}
