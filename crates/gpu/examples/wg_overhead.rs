//! Scheduler cost per work-group: an empty kernel (`s_endpgm`) over many work-groups, through
//! `Device::dispatch`, best of several runs (what the work-group scheduler and wave set-up cost
//! when the kernel does nothing).
//!
//! Usage: `cargo run --release -p softhsa-gpu --example wg_overhead [WORK_GROUPS [SIZE [RUNS]]]`
//! (default 200000 work-groups of 64, 5 runs; `SOFTHSA_JIT` selects the engine).

use softhsa_codeobj::KernelDescriptor;
use softhsa_gpu::{Device, DeviceConfig, DeviceEvents, Dispatch, Kernel, MemoryMap};
use std::ops::Range;

/// The kernel touches no memory.
struct NoMemory;
impl MemoryMap for NoMemory {
    fn lookup(&self, _addr: u64, _len: u64) -> Option<Range<u64>> {
        None
    }
}
struct NoEvents;
impl DeviceEvents for NoEvents {}

fn arg<T: std::str::FromStr>(i: usize, default: T) -> T {
    std::env::args()
        .nth(i)
        .map(|a| {
            a.parse()
                .unwrap_or_else(|_| panic!("argument {i}: a number"))
        })
        .unwrap_or(default)
}

fn main() {
    let (groups, size, runs): (u32, u16, u32) = (arg(1, 200_000), arg(2, 64), arg(3, 5));
    let kd = KernelDescriptor {
        pgm_rsrc1: 63 | 12 << 6,
        pgm_rsrc2: 2 << 1 | 1 << 7,
        ..KernelDescriptor::default()
    };
    let base = 0x7000_0000_0000;
    let s_endpgm = [0x00, 0x00, 0x81, 0xbf];
    let k = Kernel::new("empty", kd, base, &s_endpgm, base).expect("kernel");
    let dev = Device::new(DeviceConfig::default());
    let mut best = f64::MAX;
    for _ in 0..runs {
        let d = Dispatch {
            kernel: &k,
            grid_size: [groups * u32::from(size), 1, 1],
            workgroup_size: [size, 1, 1],
            dynamic_group_segment_size: 0,
            private_segment_size: 0,
            kernarg_address: 0,
            packet_address: 0,
            queue_address: 0,
            dispatch_id: 0,
            memory: &NoMemory,
            events: &NoEvents,
        };
        let s = dev.dispatch(&d).unwrap_or_else(|f| panic!("{f}"));
        assert_eq!(s.workgroups, u64::from(groups));
        best = best.min(s.elapsed_ns as f64 / f64::from(groups));
    }
    println!("{groups} work-groups of {size}: best {best:.1} ns per work-group");
}
