//! OpenCL C kernels compiled by Debian's clang for gfx906 (code object v4 and v5, -O0 and -O2),
//! loaded with softhsa-codeobj and run on the device; results checked against the host.

mod common;
use common::*;
use softhsa_gpu::{Dispatch, Kernel};
use std::process::Command;

/// A loaded code object image (kept alive while its kernels run).
struct Image {
    mem: Vec<u64>,
    base: u64,
    size: u64,
    co: softhsa_codeobj::CodeObject,
}

fn compile(src: &str, opt: &str, cov: u32) -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!(
        "softhsa-gpu-cl-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let cl = dir.join("k.cl");
    let out = dir.join("k.hsaco");
    std::fs::write(&cl, src).unwrap();
    let st = Command::new("clang-15")
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
        .arg("-o")
        .arg(&out)
        .arg(&cl)
        .status()
        .expect("clang-15");
    assert!(st.success());
    std::fs::read(&out).unwrap()
}

fn load(elf: &[u8]) -> Image {
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
    fn kernel(&self, name: &str) -> (Kernel, u32) {
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
fn dispatch(img: &Image, name: &str, args: &[u64], map: &Map, grid: u32, wg: u16) {
    let (k, kernarg_size) = img.kernel(name);
    map.add(&img.mem);
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
    let ka = map.add(&kernarg);
    let mut packet = [0u32; 16];
    packet[0] = 1 << 16; // setup: 1 dimension
    packet[1] = u32::from(wg) | 1 << 16;
    packet[2] = 1;
    packet[3] = grid;
    packet[4] = 1;
    packet[5] = 1;
    let pa = map.add(&packet);
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

const SRC: &str = r#"
__kernel void saxpy(__global float* y, __global const float* x, float a, int n) {
  int i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}
__kernel void reduce(__global const int* in, __global int* out) {
  __local int tmp[256];
  int l = get_local_id(0);
  int n = get_local_size(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = n / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = tmp[0];
}
__kernel void priv(__global int* out, int k) {
  int a[32];
  int g = get_global_id(0);
  for (int i = 0; i < 32; i++) a[i] = g * i + k;
  out[g] = a[(g + k) & 31] + a[k & 31];
}
__attribute__((noinline)) int mix(int a, int b, __global int* t) {
  int x = a / (b | 1) + a % 7;
  t[a & 3] += 0;
  return x * 3 - b;
}
__kernel void calls(__global int* out, __global double* d, __global float* f, __global int* t) {
  int g = get_global_id(0);
  out[g] = mix(g * 1000 - 77777, g + 3, t);
  d[g] = sqrt((double)g) * 0.5 + (double)g / 3.0;
  f[g] = sqrt((float)g) + (float)g * 0.25f;
}
__kernel void histo(__global const uint* in, __global uint* bins, uint n) {
  uint i = get_global_id(0);
  if (i < n) atomic_inc(&bins[in[i] % 16]);
}
"#;

fn each_build(f: impl Fn(&Image)) {
    for (opt, cov) in [("-O2", 4), ("-O0", 4), ("-O2", 5), ("-O0", 5)] {
        let img = load(&compile(SRC, opt, cov));
        f(&img);
    }
}

#[test]
fn saxpy_all_builds() {
    each_build(|img| {
        let n = 1000usize;
        let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
        let y: Vec<f32> = (0..n).map(|i| 1000.0 - i as f32).collect();
        let map = Map::default();
        let args = [
            map.add(&y),
            map.add(&x),
            u64::from(2.0f32.to_bits()) | 1000 << 32,
        ];
        dispatch(img, "saxpy", &args, &map, 1024, 256);
        for i in 0..n {
            assert_eq!(
                y[i],
                2.0 * (i as f32 * 0.5) + (1000.0 - i as f32),
                "element {i}"
            );
        }
    });
}

#[test]
fn reduce_with_lds_and_barriers() {
    each_build(|img| {
        let input: Vec<i32> = (0..2048).map(|i| (i * 37 % 101) - 50).collect();
        let out = vec![0i32; 8];
        let map = Map::default();
        let args = [map.add(&input), map.add(&out)];
        dispatch(img, "reduce", &args, &map, 2048, 256);
        for g in 0..8 {
            let want: i32 = input[g * 256..(g + 1) * 256].iter().sum();
            assert_eq!(out[g], want, "group {g}");
        }
    });
}

#[test]
fn private_array_uses_scratch() {
    each_build(|img| {
        let k = 5i32;
        let out = vec![0i32; 256];
        let map = Map::default();
        let args = [map.add(&out), k as u64];
        dispatch(img, "priv", &args, &map, 256, 128);
        for g in 0..256i32 {
            let want = (g * ((g + k) & 31) + k) + (g * (k & 31) + k);
            assert_eq!(out[g as usize], want, "item {g}");
        }
    });
}

#[test]
fn calls_division_and_sqrt() {
    each_build(|img| {
        let n = 256usize;
        let out = vec![0i32; n];
        let d = vec![0f64; n];
        let f = vec![0f32; n];
        let t = vec![0i32; 4];
        let map = Map::default();
        let args = [map.add(&out), map.add(&d), map.add(&f), map.add(&t)];
        dispatch(img, "calls", &args, &map, n as u32, 64);
        for g in 0..n as i32 {
            let a = g * 1000 - 77777;
            let b = g + 3;
            let x = a / (b | 1) + a % 7;
            assert_eq!(out[g as usize], x * 3 - b, "int item {g}");
            let want = (g as f64).sqrt() * 0.5 + g as f64 / 3.0;
            assert_eq!(d[g as usize], want, "f64 item {g}");
            // OpenCL allows 3 ulp for single-precision sqrt, and the compiler may contract
            // the multiply-add into one fma.
            let wf = (g as f32).sqrt() + g as f32 * 0.25;
            let got = f[g as usize];
            let ulp = (wf.to_bits() as i64 - got.to_bits() as i64).abs();
            assert!(ulp <= 3, "f32 item {g}: {got} vs {wf}");
        }
    });
}

#[test]
fn atomic_histogram() {
    each_build(|img| {
        let n = 5000u32;
        let input: Vec<u32> = (0..n).map(|i| i.wrapping_mul(2654435761) >> 7).collect();
        let bins = vec![0u32; 16];
        let map = Map::default();
        let args = [map.add(&input), map.add(&bins), u64::from(n)];
        dispatch(img, "histo", &args, &map, 5120, 64);
        let mut want = [0u32; 16];
        for v in &input {
            want[(v % 16) as usize] += 1;
        }
        assert_eq!(bins, want);
    });
}
