//! Runs OpenCL C kernels on the [`Device`]: compiled by Debian's clang with rocm-device-libs,
//! loaded into host memory, dispatched over 1-D grids with metadata-driven kernel arguments.
//! Used by the math-library tests, which check the VALU through real compiler output.

use crate::{Device, DeviceConfig, DeviceEvents, Dispatch, Fault, Kernel, MemoryMap};
use softhsa_codeobj::{CodeObject, ValueKind};
use std::ops::Range;
use std::process::Command;
use std::sync::Mutex;

/// Compiles `src` for gfx906 with `clang` (e.g. "clang-15"), `opt` ("-O2"/"-O0"), code object
/// version `cov` and `extra` flags; returns the code object bytes.
pub fn compile(src: &str, clang: &str, opt: &str, cov: u32, extra: &[&str]) -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!(
        "softhsa-valu-cl-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let cl = dir.join("k.cl");
    let out = dir.join("k.hsaco");
    std::fs::write(&cl, src).unwrap();
    let res = Command::new(clang)
        .args([
            "-target",
            "amdgcn-amd-amdhsa",
            "-mcpu=gfx906",
            "-cl-std=CL2.0",
        ])
        .args([
            "--rocm-path=/usr",
            "--rocm-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
        ])
        .arg(opt)
        .arg(format!("-mcode-object-version={cov}"))
        .args(extra)
        .arg("-o")
        .arg(&out)
        .arg(&cl)
        .output()
        .unwrap_or_else(|e| panic!("{clang}: {e}"));
    assert!(
        res.status.success(),
        "{clang} failed:\n{}",
        String::from_utf8_lossy(&res.stderr)
    );
    std::fs::read(&out).unwrap()
}

/// Host ranges the device may touch (the tests' allocation registry).
#[derive(Default)]
pub struct Ranges(Mutex<Vec<Range<u64>>>);

impl Ranges {
    /// Registers `v`, which the device writes, and returns its address. `&mut`: a pointer derived
    /// from a shared reference would let the compiler assume the buffer never changes.
    pub fn add<T>(&self, v: &mut [T]) -> u64 {
        let len = std::mem::size_of_val(v) as u64;
        self.register(v.as_mut_ptr() as u64, len)
    }

    /// Registers `v`, which the device only reads, and returns its address.
    pub fn add_readonly<T>(&self, v: &[T]) -> u64 {
        self.register(v.as_ptr() as u64, std::mem::size_of_val(v) as u64)
    }

    fn register(&self, a: u64, len: u64) -> u64 {
        self.0.lock().unwrap().push(a..a + len);
        a
    }
}

impl MemoryMap for Ranges {
    fn lookup(&self, addr: u64, len: u64) -> Option<Range<u64>> {
        let end = addr.checked_add(len)?;
        let rs = self.0.lock().unwrap();
        rs.iter().find(|r| r.start <= addr && end <= r.end).cloned()
    }
}

struct NoEvents;
impl DeviceEvents for NoEvents {}

/// A code object loaded into host memory.
pub struct Image {
    mem: Vec<u64>,
    base: u64,
    co: CodeObject,
    /// The text decoded once, shared by the image's kernels.
    program: std::sync::Arc<crate::Program>,
}

impl Image {
    pub fn load(elf: &[u8]) -> Image {
        let co = softhsa_codeobj::parse(elf).expect("code object parses");
        let size = co.plan.virtual_size;
        let align = co.plan.align.max(8);
        let mut mem = vec![0u64; ((size + align) / 8) as usize + 1];
        let raw = mem.as_mut_ptr() as u64;
        let base = raw.next_multiple_of(align);
        let off = (base - raw) as usize;
        // SAFETY: [base, base + size) lies inside `mem`, which was over-allocated by `align`.
        let image =
            unsafe { std::slice::from_raw_parts_mut((raw as *mut u8).add(off), size as usize) };
        co.plan.copy_segments(image).unwrap();
        co.plan
            .apply_relocations(image, base, &mut |_| None)
            .unwrap();
        // SAFETY: the image was fully written above and `mem` outlives this borrow.
        let code = unsafe { std::slice::from_raw_parts(base as *const u8, size as usize) };
        let program = std::sync::Arc::new(crate::Program::new(code, base));
        Image {
            mem,
            base,
            co,
            program,
        }
    }

    /// Runs kernel `name` over `n` work-items (work-groups of 64). `args` are the explicit
    /// arguments in order (pointers or scalars, each written with its metadata size).
    pub fn run(&self, name: &str, args: &[u64], n: u32, map: &Ranges) -> Result<(), Fault> {
        let ks = self.co.plan.kernel(name).expect("kernel exists");
        let kernel = Kernel::from_program(
            name,
            ks.descriptor.clone(),
            self.base + ks.descriptor_vaddr,
            self.program.clone(),
        )
        .unwrap();
        let md = ks.metadata.as_ref().expect("kernel metadata");
        let wg = 64u32;
        let mut kernarg = vec![0u8; md.kernarg_segment_size.max(256) as usize];
        let mut explicit = args.iter();
        for a in &md.args {
            let v = match &a.value_kind {
                ValueKind::HiddenBlockCountX => u64::from(n.div_ceil(wg)),
                ValueKind::HiddenBlockCountY | ValueKind::HiddenBlockCountZ => 1,
                ValueKind::HiddenGroupSizeX => u64::from(wg),
                ValueKind::HiddenGroupSizeY | ValueKind::HiddenGroupSizeZ => 1,
                ValueKind::HiddenRemainderX => u64::from(n % wg),
                ValueKind::HiddenGridDims => 1,
                k if k.is_hidden() => 0,
                _ => *explicit.next().expect("an explicit argument per parameter"),
            };
            let at = a.offset as usize;
            let len = (a.size as usize).min(8);
            kernarg[at..at + len].copy_from_slice(&v.to_le_bytes()[..len]);
        }
        map.add_readonly(&self.mem);
        let ka = map.add_readonly(&kernarg);
        // A dispatch packet: code object v4 reads the work-group size through the dispatch ptr.
        let mut packet = [0u32; 16];
        packet[0] = 1 << 16;
        packet[1] = wg | 1 << 16;
        packet[2] = 1;
        packet[3] = n;
        packet[4] = 1;
        packet[5] = 1;
        let pa = map.add_readonly(&packet);
        let d = Dispatch {
            kernel: &kernel,
            grid_size: [n, 1, 1],
            workgroup_size: [wg as u16, 1, 1],
            dynamic_group_segment_size: 0,
            private_segment_size: 0,
            kernarg_address: ka,
            packet_address: pa,
            queue_address: 0,
            dispatch_id: 0,
            memory: map,
            events: &NoEvents,
        };
        device().dispatch(&d).map(|_| ())
    }
}

/// The shared test device (`SOFTHSA_TRACE=isa` traces a wave when set).
pub fn device() -> &'static Device {
    static DEV: std::sync::OnceLock<Device> = std::sync::OnceLock::new();
    DEV.get_or_init(|| {
        Device::new(DeviceConfig {
            worker_threads: 2,
            wave_instruction_budget: 1 << 24,
            trace: crate::TraceConfig::from_env(),
            ..Default::default()
        })
    })
}
