//! Loading real code objects (parsed by softhsa-codeobj) into host memory and dispatching
//! their kernels with an AQL packet and a kernarg segment in registered memory.

use super::{device, Events, Map};
use softhsa_gpu::{Dispatch, Kernel};

/// A loaded code object image (kept alive while its kernels run).
pub struct Image {
    pub mem: Vec<u64>,
    pub base: u64,
    pub size: u64,
    pub co: softhsa_codeobj::CodeObject,
}

pub fn load(elf: &[u8]) -> Image {
    let co = softhsa_codeobj::parse(elf).expect("parse");
    let size = co.plan.virtual_size;
    let align = co.plan.align.max(8);
    let mut mem = vec![0u64; ((size + align) / 8) as usize + 1];
    let raw = mem.as_mut_ptr() as u64;
    let base = raw.next_multiple_of(align);
    let off = (base - raw) as usize;
    // SAFETY: [base, base + size) lies inside `mem` (over-allocated by `align`).
    let image = unsafe { std::slice::from_raw_parts_mut((raw as *mut u8).add(off), size as usize) };
    co.plan.copy_segments(image).unwrap();
    co.plan
        .apply_relocations(image, base, &mut |_| None)
        .unwrap();
    Image {
        mem,
        base,
        size,
        co,
    }
}

impl Image {
    pub fn kernel(&self, name: &str) -> (Kernel, u32) {
        let ks = self.co.plan.kernel(name).expect("kernel");
        // SAFETY: the image is live for as long as `self`.
        let code =
            unsafe { std::slice::from_raw_parts(self.base as *const u8, self.size as usize) };
        let kernarg = ks
            .metadata
            .as_ref()
            .map_or(256, |m| m.kernarg_segment_size)
            .max(256);
        let k = Kernel::new(
            name,
            ks.descriptor.clone(),
            self.base + ks.descriptor_vaddr,
            code,
            self.base,
        )
        .unwrap();
        (k, kernarg)
    }
}

/// Dispatches with an AQL packet in memory (v4 reads sizes through the dispatch ptr) and a
/// kernarg segment of `kernarg_size` bytes starting with `args`.
pub fn dispatch(img: &Image, name: &str, args: &[u64], map: &Map, grid: u32, wg: u16) {
    let (k, kernarg_size) = img.kernel(name);
    map.add_readonly(&img.mem);
    let mut kernarg = vec![0u64; kernarg_size as usize / 8];
    kernarg[..args.len()].copy_from_slice(args);
    // v5 hidden arguments follow the explicit ones: block counts (u32 x3) and group sizes
    // (u16 x3) at the start of the implicit area, which starts at the 8-byte aligned end of
    // the explicit arguments (our args are all 8-byte slots).
    if img.co.version >= 5 {
        let hidden = args.len();
        kernarg[hidden] = u64::from(grid.div_ceil(u32::from(wg))) | 1 << 32;
        kernarg[hidden + 1] = 1 | u64::from(wg) << 32 | 1 << 48;
    }
    let ka = map.add(&mut kernarg);
    let mut packet = [0u32; 16];
    packet[0] = 1 << 16; // setup: 1 dimension
    packet[1] = u32::from(wg) | 1 << 16;
    packet[2] = 1;
    packet[3] = grid;
    packet[4] = 1;
    packet[5] = 1;
    let pa = map.add(&mut packet);
    let events = Events::default();
    let d = Dispatch {
        kernel: &k,
        grid_size: [grid, 1, 1],
        workgroup_size: [wg, 1, 1],
        dynamic_group_segment_size: 0,
        private_segment_size: 0,
        kernarg_address: ka,
        packet_address: pa,
        queue_address: 0,
        dispatch_id: 0,
        memory: map,
        events: &events,
    };
    device().dispatch(&d).unwrap_or_else(|f| panic!("{f}"));
}
