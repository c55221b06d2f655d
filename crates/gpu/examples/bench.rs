//! Interpreter throughput and scaling over worker threads.
//!
//! Usage: `bench <kernel.bin> [threads...]` where kernel.bin is the raw .text of
//! `benches/loop.s` (assemble with `llvm-mc-15 -arch=amdgcn -mcpu=gfx906 -filetype=obj` and
//! `llvm-objcopy-15 -O binary -j .text`). Each work-item iterates x = x * 3 + 1 4096 times;
//! results are checked against the host, then wave instructions per second are printed.

use softhsa_codeobj::KernelDescriptor;
use softhsa_gpu::{Device, DeviceConfig, DeviceEvents, Dispatch, Kernel, MemoryMap};
use std::ops::Range;

struct OneBuffer(Range<u64>, Range<u64>);
impl MemoryMap for OneBuffer {
    fn lookup(&self, addr: u64, len: u64) -> Option<Range<u64>> {
        let end = addr.checked_add(len)?;
        [&self.0, &self.1]
            .into_iter()
            .find(|r| r.start <= addr && end <= r.end)
            .cloned()
    }
}
struct NoEvents;
impl DeviceEvents for NoEvents {}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: bench <kernel.bin> [threads...]");
    let code = std::fs::read(&path).expect("read kernel");
    let threads: Vec<usize> = args.map(|a| a.parse().expect("thread count")).collect();
    let kd = KernelDescriptor {
        enable_sgpr_kernarg_segment_ptr: true,
        pgm_rsrc1: 63 | 12 << 6,
        pgm_rsrc2: 2 << 1 | 1 << 7,
        ..KernelDescriptor::default()
    };
    let base = 0x7000_0000_0000;
    let k = Kernel::new("loop", kd, base, &code, base).expect("kernel");
    let n = 256 * 1024;
    let mut want = vec![0u32; n];
    for (i, w) in want.iter_mut().enumerate() {
        let mut x = i as u32;
        for _ in 0..4096 {
            x = x.wrapping_mul(3).wrapping_add(1);
        }
        *w = x;
    }
    for t in if threads.is_empty() { vec![0] } else { threads } {
        let out = vec![0u32; n];
        let kernarg = [out.as_ptr() as u64];
        let map = OneBuffer(
            out.as_ptr() as u64..out.as_ptr() as u64 + 4 * n as u64,
            kernarg.as_ptr() as u64..kernarg.as_ptr() as u64 + 8,
        );
        let dev = Device::new(DeviceConfig {
            worker_threads: t,
            ..Default::default()
        });
        let d = Dispatch {
            kernel: &k,
            grid_size: [n as u32, 1, 1],
            workgroup_size: [256, 1, 1],
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
        assert!(out == want, "results differ from the host");
        let secs = s.elapsed_ns as f64 / 1e9;
        println!(
            "threads {t:>3}: {} wave instructions in {secs:.3} s = {:.1} M wave instructions/s",
            s.instructions,
            s.instructions as f64 / secs / 1e6
        );
    }
}
