// Wide and scattered global accesses, checked bit for bit against the host and timed (best of
// 5): doubles and float4s by consecutive work-items (a whole wave's dword pairs and quads
// transposed with the registers), the same under a partial EXEC (every third work-item
// idle), and loads through an index array (64-bit values, signed bytes and unsigned shorts:
// scattered lanes, gathered), an index of the last element included.
// Usage: wide_access [WORK_ITEMS]  (default 1048613: a partial last wave)
#include <chrono>
#include <functional>
#include <vector>
#include "hip_check.h"

__global__ void daxpy(int n, double a, const double* x, double* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void float4_mix(int n, const float4* x, float4* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % 3 != 0) {
    float4 v = x[i];
    y[i] = make_float4(v.x * 2.f, v.y + 1.f, v.z - v.w, v.w);
  }
}

__global__ void float4_half(int n, const float4* x, float4* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 v = x[i];
    y[i] = make_float4(v.w * 0.5f, v.z, v.y, -v.x);
  }
}

__global__ void gather(int n, const int* idx, const long long* x, const signed char* b,
                       const unsigned short* s, long long* y, int* bs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int k = idx[i];
    y[i] = x[k];
    bs[i] = b[k] * 65536 + s[k];
  }
}

static double best_ms(const std::function<void()>& launch) {
  double best = 1e30;
  for (int r = 0; r < 6; r++) { // the first run compiles the kernel: not timed
    auto t0 = std::chrono::steady_clock::now();
    launch();
    HIP_CHECK(hipDeviceSynchronize());
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (r > 0 && ms < best) best = ms;
  }
  HIP_CHECK(hipGetLastError());
  return best;
}

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : (1 << 20) + 37;
  std::vector<double> hx(n), hy(n);
  std::vector<float> hf(4 * (size_t)n);
  std::vector<int> hidx(n);
  std::vector<long long> hl(n);
  std::vector<signed char> hb(n);
  std::vector<unsigned short> hs(n);
  for (int i = 0; i < n; i++) {
    hx[i] = i * 0.5 - 1000.25;
    hy[i] = 1.0 / (i + 1);
    hidx[i] = i % 7 == 0 ? n - 1 : (int)((i * 2654435761u) % (unsigned)n);
    hl[i] = (long long)i * 0x100000001LL ^ 0x5555aaaa5555aaaaLL;
    hb[i] = (signed char)(i * 37);
    hs[i] = (unsigned short)(i * 40503u);
  }
  for (size_t i = 0; i < hf.size(); i++) hf[i] = i * 0.25f - 3.0f;
  double *x, *y;
  float4 *fx, *fy, *fh;
  int *idx, *bs;
  long long *l, *ly;
  signed char* b;
  unsigned short* s;
  HIP_CHECK(hipMalloc(&x, n * sizeof(double)));
  HIP_CHECK(hipMalloc(&y, n * sizeof(double)));
  HIP_CHECK(hipMalloc(&fx, n * sizeof(float4)));
  HIP_CHECK(hipMalloc(&fy, n * sizeof(float4)));
  HIP_CHECK(hipMalloc(&fh, n * sizeof(float4)));
  HIP_CHECK(hipMalloc(&idx, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&bs, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&l, n * sizeof(long long)));
  HIP_CHECK(hipMalloc(&ly, n * sizeof(long long)));
  HIP_CHECK(hipMalloc(&b, n));
  HIP_CHECK(hipMalloc(&s, n * sizeof(unsigned short)));
  HIP_CHECK(hipMemcpy(x, hx.data(), n * sizeof(double), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(fx, hf.data(), n * sizeof(float4), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(fy, 0, n * sizeof(float4)));
  HIP_CHECK(hipMemcpy(idx, hidx.data(), n * sizeof(int), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(l, hl.data(), n * sizeof(long long), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(b, hb.data(), n, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(s, hs.data(), n * sizeof(unsigned short), hipMemcpyHostToDevice));
  int blocks = (n + 255) / 256;
  // daxpy runs once more after each timed run: y is reset before every run.
  double t_daxpy = best_ms([&] {
    HIP_CHECK(hipMemcpy(y, hy.data(), n * sizeof(double), hipMemcpyHostToDevice));
    daxpy<<<blocks, 256>>>(n, 1.5, x, y);
  });
  double t_f4 = best_ms([&] { float4_half<<<blocks, 256>>>(n, fx, fh); });
  double t_f4_mix = best_ms([&] { float4_mix<<<blocks, 256>>>(n, fx, fy); });
  double t_gather = best_ms([&] { gather<<<blocks, 256>>>(n, idx, l, b, s, ly, bs); });
  std::vector<double> ry(n);
  std::vector<float> rf(4 * (size_t)n), rh(4 * (size_t)n);
  std::vector<long long> rl(n);
  std::vector<int> rbs(n);
  HIP_CHECK(hipMemcpy(ry.data(), y, n * sizeof(double), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(rf.data(), fy, n * sizeof(float4), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(rh.data(), fh, n * sizeof(float4), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(rl.data(), ly, n * sizeof(long long), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(rbs.data(), bs, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    double want = fma(1.5, hx[i], hy[i]); // the device contracts a * x + y
    double plain = 1.5 * hx[i] + hy[i];
    EXPECT(ry[i] == want || ry[i] == plain, "daxpy %d: %a, host %a", i, ry[i], want);
    const float* v = &hf[4 * (size_t)i];
    float w[4] = {v[0] * 2.f, v[1] + 1.f, v[2] - v[3], v[3]};
    if (i % 3 == 0) w[0] = w[1] = w[2] = w[3] = 0.f;
    EXPECT(memcmp(w, &rf[4 * (size_t)i], sizeof w) == 0, "float4 (every third idle) %d", i);
    float h[4] = {v[3] * 0.5f, v[2], v[1], -v[0]};
    EXPECT(memcmp(h, &rh[4 * (size_t)i], sizeof h) == 0, "float4 %d", i);
    int k = hidx[i];
    EXPECT(rl[i] == hl[k], "gather %d: %llx, host %llx", i, rl[i], hl[k]);
    EXPECT(rbs[i] == hb[k] * 65536 + hs[k], "narrow gather %d: %x", i, rbs[i]);
  }
  printf("wide access: %d work-items: daxpy %.2f ms, float4 %.2f ms, float4 (every third idle) "
         "%.2f ms, gather %.2f ms (best of 5)\n",
         n, t_daxpy, t_f4, t_f4_mix, t_gather);
  return finish("wide_access");
}
