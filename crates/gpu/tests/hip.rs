//! HIP device code built by Debian's hipcc (code object v4, -O3), unbundled with
//! clang-offload-bundler, run on the device and checked against the host.

mod common;
use common::image::{dispatch, load};
use common::Map;
use std::process::Command;

const SRC: &str = r#"
#include <hip/hip_runtime.h>
extern "C" __global__ void block_sum(const float* in, float* out, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  s[t] = g < n ? in[g] : 0.0f;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, s[0]);
}
extern "C" __global__ void scan_warp(const int* in, int* out) {
  int t = threadIdx.x;
  int v = in[blockIdx.x * 64 + t];
  for (int d = 1; d < 64; d <<= 1) {
    int o = __shfl_up(v, d);
    if (t >= d) v += o;
  }
  out[blockIdx.x * 64 + t] = v;
}
// Inclusive wave scan with DPP, as rocPRIM does it: row shifts, then row broadcasts.
extern "C" __global__ void dpp_scan(const int* in, int* out) {
  int g = blockIdx.x * 64 + threadIdx.x;
  int v = in[g];
  v += __builtin_amdgcn_update_dpp(0, v, 0x111, 0xf, 0xf, false); // row_shr:1
  v += __builtin_amdgcn_update_dpp(0, v, 0x112, 0xf, 0xf, false); // row_shr:2
  v += __builtin_amdgcn_update_dpp(0, v, 0x114, 0xf, 0xf, false); // row_shr:4
  v += __builtin_amdgcn_update_dpp(0, v, 0x118, 0xf, 0xf, false); // row_shr:8
  v += __builtin_amdgcn_update_dpp(0, v, 0x142, 0xa, 0xf, false); // row_bcast:15
  v += __builtin_amdgcn_update_dpp(0, v, 0x143, 0xc, 0xf, false); // row_bcast:31
  out[g] = v;
}
extern "C" __global__ void fenced(int* data, int* flags, long long* clocks) {
  int b = blockIdx.x;
  if (threadIdx.x == 0) {
    long long c0 = clock64();
    data[b] = b * 10;
    __threadfence();
    atomicAdd(flags, 1);
    clocks[b] = clock64() - c0;
  }
}
"#;

/// The unbundled gfx906 code object of `SRC` (built once per test process).
fn build() -> &'static [u8] {
    static CO: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    CO.get_or_init(compile)
}

fn compile() -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!("softhsa-gpu-hip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (src, bundle, co) = (dir.join("k.hip"), dir.join("k.bundle"), dir.join("k.co"));
    std::fs::write(&src, SRC).unwrap();
    let st = Command::new("hipcc")
        .args(["--genco", "--offload-arch=gfx906", "-O3", "-o"])
        .arg(&bundle)
        .arg(&src)
        .stderr(std::process::Stdio::null())
        .status()
        .expect("hipcc");
    assert!(st.success(), "hipcc failed");
    let st = Command::new("clang-offload-bundler-15")
        .args([
            "--unbundle",
            "--type=o",
            "--targets=hipv4-amdgcn-amd-amdhsa--gfx906",
        ])
        .arg(format!("--input={}", bundle.display()))
        .arg(format!("--output={}", co.display()))
        .status()
        .expect("clang-offload-bundler-15");
    assert!(st.success());
    std::fs::read(&co).unwrap()
}

#[test]
fn hip_block_sum_and_warp_scan() {
    let img = load(build());
    let n = 3000usize;
    let mut input: Vec<f32> = (0..n).map(|i| (i % 17) as f32).collect();
    let mut out = vec![0f32; 1];
    let map = Map::default();
    let args = [map.add(&mut input), map.add(&mut out), n as u64];
    dispatch(&img, "block_sum", &args, &map, 3072, 256);
    // Integer-valued floats: every partial sum is exact, whatever the order.
    assert_eq!(out[0], input.iter().sum::<f32>());

    let mut input: Vec<i32> = (0..256).map(|i| (i * 7 % 13) - 6).collect();
    let mut out = vec![0i32; 256];
    let map = Map::default();
    let args = [map.add(&mut input), map.add(&mut out)];
    dispatch(&img, "scan_warp", &args, &map, 256, 64);
    for w in 0..4 {
        let mut acc = 0;
        for t in 0..64 {
            acc += input[w * 64 + t];
            assert_eq!(out[w * 64 + t], acc, "wave {w} lane {t}");
        }
    }
}

#[test]
fn hip_dpp_wave_scan() {
    let img = load(build());
    let mut input: Vec<i32> = (0..256).map(|i| (i * 5 % 11) - 4).collect();
    let mut out = vec![0i32; 256];
    let map = Map::default();
    let args = [map.add(&mut input), map.add(&mut out)];
    dispatch(&img, "dpp_scan", &args, &map, 256, 64);
    for w in 0..4 {
        let mut acc = 0;
        for t in 0..64 {
            acc += input[w * 64 + t];
            assert_eq!(out[w * 64 + t], acc, "wave {w} lane {t}");
        }
    }
}

#[test]
fn hip_threadfence_and_clock64() {
    let img = load(build());
    let mut data = vec![0i32; 16];
    let mut flags = vec![0i32; 1];
    let mut clocks = vec![-1i64; 16];
    let map = Map::default();
    let args = [
        map.add(&mut data),
        map.add(&mut flags),
        map.add(&mut clocks),
    ];
    dispatch(&img, "fenced", &args, &map, 16 * 64, 64);
    assert_eq!(flags[0], 16);
    for b in 0..16 {
        assert_eq!(data[b], b as i32 * 10);
        assert!(clocks[b] >= 0, "clock64 went backwards in block {b}");
    }
}
