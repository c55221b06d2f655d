//! OpenCL C kernels compiled by Debian's clang (15, 16, 19) for gfx900/gfx906 (code object v3 to
//! v5, -O0 and -O2), loaded with softhsa-codeobj and run on the device; results checked against
//! the host.

mod common;
use common::image::{dispatch, load, Image};
use common::Map;
use std::process::Command;

/// One build of the corpus: compiler, processor, optimization, code object version.
struct Build(&'static str, &'static str, &'static str, u32);

/// clang-15 at -O0/-O2 for v4/v5 on gfx906, plus clang-16 (v3, gfx900) and clang-19 (v5).
const CORPUS: [Build; 7] = [
    Build("clang-15", "gfx906", "-O2", 4),
    Build("clang-15", "gfx906", "-O0", 4),
    Build("clang-15", "gfx906", "-O2", 5),
    Build("clang-15", "gfx906", "-O0", 5),
    Build("clang-16", "gfx900", "-O2", 3),
    Build("clang-19", "gfx906", "-O2", 5),
    Build("clang-19", "gfx900", "-O0", 4),
];

fn compile(src: &str, b: &Build) -> Vec<u8> {
    let Build(cc, cpu, opt, cov) = *b;
    let dir = std::env::temp_dir().join(format!(
        "softhsa-gpu-cl-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let cl = dir.join("k.cl");
    let out = dir.join("k.hsaco");
    std::fs::write(&cl, src).unwrap();
    let st = Command::new(cc)
        .args(["-target", "amdgcn-amd-amdhsa", "-cl-std=CL2.0"])
        .arg(format!("-mcpu={cpu}"))
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
        .expect(cc);
    assert!(st.success(), "{cc} {cpu} {opt} v{cov} failed");
    std::fs::read(&out).unwrap()
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

/// The code objects of `SRC` (compiled once per test process, shared by the tests).
fn each_build(f: impl Fn(&Image)) {
    static BUILDS: std::sync::OnceLock<Vec<Image>> = std::sync::OnceLock::new();
    let builds = BUILDS.get_or_init(|| CORPUS.iter().map(|b| load(&compile(SRC, b))).collect());
    for img in builds {
        f(img);
    }
}

#[test]
fn saxpy_all_builds() {
    each_build(|img| {
        let n = 1000usize;
        let mut x: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
        let mut y: Vec<f32> = (0..n).map(|i| 1000.0 - i as f32).collect();
        let map = Map::default();
        let args = [
            map.add(&mut y),
            map.add(&mut x),
            u64::from(2.0f32.to_bits()) | 1000 << 32,
        ];
        dispatch(img, "saxpy", &args, &map, 1024, 256);
        for (i, &v) in y.iter().enumerate().take(n) {
            assert_eq!(
                v,
                2.0 * (i as f32 * 0.5) + (1000.0 - i as f32),
                "element {i}"
            );
        }
    });
}

#[test]
fn reduce_with_lds_and_barriers() {
    each_build(|img| {
        let mut input: Vec<i32> = (0..2048).map(|i| (i * 37 % 101) - 50).collect();
        let mut out = vec![0i32; 8];
        let map = Map::default();
        let args = [map.add(&mut input), map.add(&mut out)];
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
        let mut out = vec![0i32; 256];
        let map = Map::default();
        let args = [map.add(&mut out), k as u64];
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
        let mut out = vec![0i32; n];
        let mut d = vec![0f64; n];
        let mut f = vec![0f32; n];
        let mut t = vec![0i32; 4];
        let map = Map::default();
        let args = [
            map.add(&mut out),
            map.add(&mut d),
            map.add(&mut f),
            map.add(&mut t),
        ];
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
        let mut input: Vec<u32> = (0..n).map(|i| i.wrapping_mul(2654435761) >> 7).collect();
        let mut bins = vec![0u32; 16];
        let map = Map::default();
        let args = [map.add(&mut input), map.add(&mut bins), u64::from(n)];
        dispatch(img, "histo", &args, &map, 5120, 64);
        let mut want = [0u32; 16];
        for v in &input {
            want[(v % 16) as usize] += 1;
        }
        assert_eq!(bins, want);
    });
}
