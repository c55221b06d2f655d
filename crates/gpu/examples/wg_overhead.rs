//! Scheduler cost per work-group, through `Device::dispatch`, best of several runs:
//! - `empty`: a kernel of one `s_endpgm` (what the work-group scheduler and wave set-up cost
//!   when the kernel does nothing);
//! - `saxpy`: `y[i] = a * x[i] + y[i]`, one element per work-item (a streaming kernel whose
//!   work-groups last about a microsecond under the JIT: the scheduler's shared counters show).
//!
//! Usage: `cargo run --release -p softhsa-gpu --example wg_overhead
//! [WORK_GROUPS [SIZE [RUNS [KERNEL [WORKERS]]]]]` (default 200000 work-groups of 64, 5 runs,
//! `empty`, all host cores; saxpy: 20000 of 256). WORKERS is a comma-separated list of worker counts (`1,2,4,8,16`):
//! each gets its own device and line, with the speed-up over the first. `SOFTHSA_JIT` selects
//! the engine. The saxpy result is checked against a host computation.

use softhsa_codeobj::KernelDescriptor;
use softhsa_gpu::{Device, DeviceConfig, DeviceEvents, Dispatch, Kernel, MemoryMap};
use std::ops::Range;

/// Host ranges the kernel may touch.
struct Ranges(Vec<Range<u64>>);
impl MemoryMap for Ranges {
    fn lookup(&self, addr: u64, len: u64) -> Option<Range<u64>> {
        let end = addr.checked_add(len)?;
        self.0
            .iter()
            .find(|r| r.start <= addr && end <= r.end)
            .cloned()
    }
}
struct NoEvents;
impl DeviceEvents for NoEvents {}

fn arg<T: std::str::FromStr>(i: usize, default: T) -> T {
    std::env::args()
        .nth(i)
        .map(|a| {
            a.parse()
                .unwrap_or_else(|_| panic!("argument {i}: bad value"))
        })
        .unwrap_or(default)
}

/// `s_endpgm`.
const EMPTY: &[u8] = &[0x00, 0x00, 0x81, 0xbf];

/// saxpy over work-groups of 256 (llvm-mc-15 -mcpu=gfx906), kernarg `{x, y, a}`:
/// ```text
/// s_load_dwordx4 s[4:7], s[0:1], 0x0
/// s_load_dword s8, s[0:1], 0x10
/// s_lshl_b32 s9, s2, 8
/// v_add_u32_e32 v1, s9, v0
/// v_lshlrev_b32_e32 v1, 2, v1
/// s_waitcnt lgkmcnt(0)
/// global_load_dword v2, v1, s[4:5]
/// global_load_dword v3, v1, s[6:7]
/// s_waitcnt vmcnt(0)
/// v_fma_f32 v3, s8, v2, v3
/// global_store_dword v1, v3, s[6:7]
/// s_endpgm
/// ```
const SAXPY: &[u8] = &[
    0x00, 0x01, 0x0a, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0xc0, 0x10, 0x00, 0x00, 0x00,
    0x02, 0x88, 0x09, 0x8e, 0x09, 0x00, 0x02, 0x68, 0x82, 0x02, 0x02, 0x24, 0x7f, 0xc0, 0x8c, 0xbf,
    0x00, 0x80, 0x50, 0xdc, 0x01, 0x00, 0x04, 0x02, 0x00, 0x80, 0x50, 0xdc, 0x01, 0x00, 0x06, 0x03,
    0x70, 0x0f, 0x8c, 0xbf, 0x03, 0x00, 0xcb, 0xd1, 0x08, 0x04, 0x0e, 0x04, 0x00, 0x80, 0x70, 0xdc,
    0x01, 0x03, 0x06, 0x00, 0x00, 0x00, 0x81, 0xbf,
];

fn main() {
    let name: String = arg(4, "empty".to_string());
    let saxpy = name == "saxpy";
    // saxpy: 20000 work-groups of 256 = 40 MB of data.
    let default_groups = if saxpy { 20_000 } else { 200_000 };
    let (groups, size, runs): (u32, u16, u32) = (arg(1, default_groups), arg(2, 64), arg(3, 5));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers: Vec<usize> = arg(5, cores.to_string())
        .split(',')
        .map(|w| w.parse().expect("WORKERS: numbers"))
        .collect();
    let size = if saxpy { 256 } else { size };
    // Kernarg pointer in s[0:1], work-group id X in s2, work-item id X in v0.
    let kd = KernelDescriptor {
        enable_sgpr_kernarg_segment_ptr: true,
        pgm_rsrc1: 63 | 12 << 6,
        pgm_rsrc2: 2 << 1 | 1 << 7,
        ..KernelDescriptor::default()
    };
    let base = 0x7000_0000_0000;
    let code = if saxpy { SAXPY } else { EMPTY };
    let k = Kernel::new(&name, kd, base, code, base).expect("kernel");
    let n = groups as usize * usize::from(size);
    let x: Vec<f32> = (0..if saxpy { n } else { 0 })
        .map(|i| (i % 1000) as f32 * 0.5)
        .collect();
    let mut y: Vec<f32> = (0..x.len()).map(|i| (i % 7) as f32).collect();
    let a = 3.0f32;
    let kernarg: [u64; 3] = [
        x.as_ptr() as u64,
        y.as_mut_ptr() as u64,
        u64::from(a.to_bits()),
    ];
    let span = |p: u64, bytes: usize| p..p + bytes as u64;
    let map = Ranges(vec![
        span(x.as_ptr() as u64, 4 * x.len()),
        span(y.as_ptr() as u64, 4 * y.len()),
        span(kernarg.as_ptr() as u64, 24),
    ]);
    let mut first = None;
    for &w in &workers {
        let dev = Device::new(DeviceConfig {
            worker_threads: w,
            ..DeviceConfig::default()
        });
        let mut best = f64::MAX;
        for _ in 0..runs {
            let d = Dispatch {
                kernel: &k,
                grid_size: [groups * u32::from(size), 1, 1],
                workgroup_size: [size, 1, 1],
                dynamic_group_segment_size: 0,
                private_segment_size: 0,
                kernarg_address: kernarg.as_ptr() as u64,
                packet_address: 0,
                queue_address: 0,
                dispatch_id: 0,
                memory: &map,
                events: &NoEvents,
            };
            let s = dev.dispatch(&d).unwrap_or_else(|f| panic!("{f}"));
            assert_eq!(s.workgroups, u64::from(groups));
            best = best.min(s.elapsed_ns as f64 / f64::from(groups));
        }
        let speedup = first.map_or(1.0, |f: f64| f / best);
        first.get_or_insert(best);
        println!(
            "{name}: {groups} work-groups of {size}, {w} workers: best {best:.1} ns per \
             work-group (x{speedup:.2})"
        );
    }
    if saxpy {
        // Every run added a * x once more (fused, as v_fma_f32).
        let times = runs as usize * workers.len();
        for (i, (&xi, &yi)) in x.iter().zip(&y).enumerate() {
            let want = (0..times).fold((i % 7) as f32, |acc, _| a.mul_add(xi, acc));
            assert_eq!(yi, want, "y[{i}]");
        }
        println!("saxpy results checked");
    }
}
