// Device globals and constant memory: __device__ and __constant__ variables written with
// hipMemcpyToSymbol (sync and async), read with hipMemcpyFromSymbol, hipGetSymbolAddress and
// hipGetSymbolSize, and a kernel that reads the constants and updates the global.
#include <vector>
#include "hip_check.h"

__constant__ float coeffs[16];
__device__ int hits[8];
__device__ double scale = 2.5;  // initialised in the code object

__global__ void apply(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = (float)(in[i] * coeffs[i & 15] * scale);
  atomicAdd(&hits[i & 7], 1);
}

int main() {
  const int n = 4000;
  float c[16];
  for (int k = 0; k < 16; k++) c[k] = 0.5f * k - 3.0f;
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(coeffs), c, sizeof c));
  int zero[8] = {0};
  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));
  HIP_CHECK(hipMemcpyToSymbolAsync(HIP_SYMBOL(hits), zero, sizeof zero, 0, hipMemcpyHostToDevice, s));
  HIP_CHECK(hipStreamSynchronize(s));

  double sc = 0;
  HIP_CHECK(hipMemcpyFromSymbol(&sc, HIP_SYMBOL(scale), sizeof sc));
  EXPECT(sc == 2.5, "initial value of scale %g", sc);
  size_t size = 0;
  HIP_CHECK(hipGetSymbolSize(&size, HIP_SYMBOL(hits)));
  EXPECT(size == sizeof zero, "hipGetSymbolSize(hits) = %zu", size);
  void* addr = nullptr;
  HIP_CHECK(hipGetSymbolAddress(&addr, HIP_SYMBOL(coeffs)));
  float c_back[16];
  HIP_CHECK(hipMemcpy(c_back, addr, sizeof c_back, hipMemcpyDeviceToHost));
  expect_equal("coeffs through hipGetSymbolAddress", c_back, c, 16);

  std::vector<float> in(n), out(n), want(n);
  for (int i = 0; i < n; i++) {
    in[i] = (float)(i % 100) * 0.5f;
    want[i] = (float)(in[i] * c[i & 15] * 2.5);
  }
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, n * 4));
  HIP_CHECK(hipMalloc(&dout, n * 4));
  HIP_CHECK(hipMemcpy(din, in.data(), n * 4, hipMemcpyHostToDevice));
  apply<<<(n + 255) / 256, 256>>>(din, dout, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(out.data(), dout, n * 4, hipMemcpyDeviceToHost));
  expect_equal("apply", out.data(), want.data(), n);
  int h[8];
  HIP_CHECK(hipMemcpyFromSymbolAsync(h, HIP_SYMBOL(hits), sizeof h, 0, hipMemcpyDeviceToHost, s));
  HIP_CHECK(hipStreamSynchronize(s));
  int wh[8];
  for (int k = 0; k < 8; k++) wh[k] = n / 8;
  expect_equal("hits", h, wh, 8);

  // Update a constant between launches: the next launch sees the new values.
  c[3] = 100.0f;
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(coeffs), &c[3], sizeof(float), 3 * sizeof(float)));
  apply<<<(n + 255) / 256, 256>>>(din, dout, n);
  HIP_CHECK(hipMemcpy(out.data(), dout, n * 4, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) want[i] = (float)(in[i] * c[i & 15] * 2.5);
  expect_equal("apply after constant update", out.data(), want.data(), n);
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  HIP_CHECK(hipStreamDestroy(s));
  return finish("globals");
}
