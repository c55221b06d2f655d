//! Test harness: assemble GFX9 snippets with llvm-mc, run them on a `Device` over Vec-backed
//! buffers registered in a test `MemoryMap`.
#![allow(dead_code)]

pub mod image;

use softhsa_codeobj::KernelDescriptor;
use softhsa_gpu::{
    Device, DeviceConfig, DeviceEvents, Dispatch, DispatchStats, Fault, Kernel, MemoryMap,
};
use std::ops::Range;
use std::process::Command;
use std::sync::Mutex;

/// Where test code is "loaded" (only getpc/fault reports see it).
pub const CODE_BASE: u64 = 0x7000_0000_0000;

/// Assembles `asm` for gfx906 and returns the bytes of .text.
pub fn assemble(asm: &str) -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!(
        "softhsa-gpu-test-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let s = dir.join("k.s");
    let o = dir.join("k.o");
    let b = dir.join("k.bin");
    std::fs::write(&s, asm).unwrap();
    let st = Command::new("llvm-mc-15")
        .args(["-arch=amdgcn", "-mcpu=gfx906", "-filetype=obj", "-o"])
        .arg(&o)
        .arg(&s)
        .status()
        .expect("llvm-mc-15");
    assert!(st.success(), "llvm-mc failed on:\n{asm}");
    let st = Command::new("llvm-objcopy-15")
        .args(["-O", "binary", "-j", ".text"])
        .arg(&o)
        .arg(&b)
        .status()
        .expect("llvm-objcopy-15");
    assert!(st.success());
    std::fs::read(&b).unwrap()
}

/// A descriptor for hand-written code: kernarg pointer in s[0:1] (2 user SGPRs), then the
/// work-group ids, v0..v2 work-item ids.
pub fn descriptor() -> KernelDescriptor {
    KernelDescriptor {
        enable_sgpr_kernarg_segment_ptr: true,
        pgm_rsrc1: 63 | 12 << 6 | 3 << 18 | 1 << 21 | 1 << 23,
        // USER_SGPR_COUNT = 2, work-group id X/Y/Z, work-item ids X/Y/Z.
        pgm_rsrc2: 2 << 1 | 1 << 7 | 1 << 8 | 1 << 9 | 2 << 11,
        ..KernelDescriptor::default()
    }
}

pub fn kernel(asm: &str, kd: KernelDescriptor) -> Kernel {
    let code = assemble(asm);
    Kernel::new("test_kernel", kd, CODE_BASE, &code, CODE_BASE).unwrap()
}

/// Registered host buffers.
#[derive(Default)]
pub struct Map {
    ranges: Mutex<Vec<Range<u64>>>,
}

impl Map {
    /// Registers a buffer the device may read and write. It takes `&mut` because the device
    /// writes through the returned address: a pointer derived from a shared reference would let
    /// the compiler assume the buffer never changes (and fold reads of it away).
    pub fn add<T>(&self, v: &mut [T]) -> u64 {
        let len = std::mem::size_of_val(v) as u64;
        self.register(v.as_mut_ptr() as u64, len)
    }

    /// Registers a buffer the device only reads (code, constant inputs).
    pub fn add_readonly<T>(&self, v: &[T]) -> u64 {
        self.register(v.as_ptr() as u64, std::mem::size_of_val(v) as u64)
    }

    fn register(&self, a: u64, len: u64) -> u64 {
        self.ranges.lock().unwrap().push(a..a + len);
        a
    }
}

impl MemoryMap for Map {
    fn lookup(&self, addr: u64, len: u64) -> Option<Range<u64>> {
        let end = addr.checked_add(len)?;
        self.ranges
            .lock()
            .unwrap()
            .iter()
            .find(|r| r.start <= addr && end <= r.end)
            .cloned()
    }
}

#[derive(Default)]
pub struct Events {
    pub interrupts: Mutex<Vec<u32>>,
}

impl DeviceEvents for Events {
    fn interrupt(&self, m0: u32) {
        self.interrupts.lock().unwrap().push(m0);
    }
}

/// SOFTHSA_TRACE=isa traces a wave of any test kernel (handy when one fails).
pub fn device() -> Device {
    Device::new(DeviceConfig {
        worker_threads: 4,
        wave_instruction_budget: 1 << 20,
        trace: softhsa_gpu::TraceConfig::from_env(),
        ..Default::default()
    })
}

/// Dispatches `k` with kernarg bytes `args` (registered here).
pub fn run(
    dev: &Device,
    k: &Kernel,
    map: &Map,
    args: &[u64],
    grid: [u32; 3],
    wg: [u16; 3],
) -> Result<DispatchStats, Fault> {
    run_with(dev, k, map, args, grid, wg, 0, 0)
}

#[allow(clippy::too_many_arguments)]
pub fn run_with(
    dev: &Device,
    k: &Kernel,
    map: &Map,
    args: &[u64],
    grid: [u32; 3],
    wg: [u16; 3],
    dynamic_lds: u32,
    private: u32,
) -> Result<DispatchStats, Fault> {
    let mut kernarg = args.to_vec();
    let ka = map.add(&mut kernarg);
    let events = Events::default();
    let d = Dispatch {
        kernel: k,
        grid_size: grid,
        workgroup_size: wg,
        dynamic_group_segment_size: dynamic_lds,
        private_segment_size: private,
        kernarg_address: ka,
        packet_address: 0,
        queue_address: 0,
        dispatch_id: 7,
        memory: map,
        events: &events,
    };
    dev.dispatch(&d)
}

/// Runs `body` after loading the kernel arguments (the addresses of `a` and `b`) into s[20:23],
/// on `grid` work-items in work-groups of `wg`, with `lds` bytes of LDS; waits for the wave's
/// memory accesses and ends.
pub fn run_two_buffers(
    body: &str,
    lds: u32,
    grid: u32,
    wg: u16,
    a: &mut [u32],
    b: &mut [u32],
) -> Result<DispatchStats, Fault> {
    let asm = format!(
        "s_load_dwordx4 s[20:23], s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\n{body}\n\
         s_waitcnt vmcnt(0) lgkmcnt(0)\ns_endpgm\n"
    );
    let mut kd = descriptor();
    kd.group_segment_fixed_size = lds;
    let k = kernel(&asm, kd);
    let map = Map::default();
    let args = [map.add(a), map.add(b)];
    run(&device(), &k, &map, &args, [grid, 1, 1], [wg, 1, 1])
}
