// Double precision in a loop: fma, mul, add, compares, conversions and floor per iteration,
// checked bit for bit against the same operations on the host (every multiply-add written as
// an explicit fma on both sides, so no contraction can differ), and timed (best of 5).
// Usage: f64_loop [WORK_ITEMS] [ITERATIONS]  (default 65536 16)
#include <chrono>
#include <vector>
#include "hip_check.h"

__host__ __device__ static double step(double x, double y, double z, int t, double* out_y,
                                       double* out_z) {
  x = fma(x, 0.999999, 1e-7);
  y = fma(y, x, z);
  z = fma(y, 1e-9, z * 0.5);
  if (x > y) z = z + 1e-3;          // an f64 compare
  if (t % 4 == 3) y = y - floor(y); // v_floor_f64
  *out_y = y;
  *out_z = z;
  return x;
}

__host__ __device__ static double run(int i, int iters, double a) {
  double x = a, y = fma((double)i, 1e-6, 1.0), z = 0.5; // v_cvt_f64_i32 (an explicit fma:
  // the device compiler contracts `1.0 + i * 1e-6`, the host's does not)
  for (int t = 0; t < iters; t++) x = step(x, y, z, t, &y, &z);
  return x + y + (double)(float)z; // v_cvt_f32_f64 and back
}

__global__ void f64_loop(double* out, const double* a, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = run(i, iters, a[i]);
}

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 65536;
  int iters = argc > 2 ? atoi(argv[2]) : 16;
  std::vector<double> a(n), out(n);
  for (int i = 0; i < n; i++) a[i] = (i % 1000) * 1e-3 - 0.5;
  double *da, *dout;
  HIP_CHECK(hipMalloc(&da, n * sizeof(double)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(double)));
  HIP_CHECK(hipMemcpy(da, a.data(), n * sizeof(double), hipMemcpyHostToDevice));
  int blocks = (n + 255) / 256;
  double best = 1e30;
  for (int r = 0; r < 6; r++) { // the first run compiles the kernel: not timed
    auto t0 = std::chrono::steady_clock::now();
    f64_loop<<<blocks, 256>>>(dout, da, n, iters);
    HIP_CHECK(hipDeviceSynchronize());
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (r > 0 && ms < best) best = ms;
  }
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(out.data(), dout, n * sizeof(double), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    double want = run(i, iters, a[i]);
    EXPECT(memcmp(&want, &out[i], sizeof(double)) == 0, "work-item %d: %a, host %a", i, out[i],
           want);
  }
  printf("f64 loop: %d work-items x %d iterations: best %.2f ms\n", n, iters, best);
  return finish("f64_loop");
}
