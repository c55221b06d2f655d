// Events with timing: hipEventRecord around kernels of growing length, hipEventSynchronize,
// hipEventQuery and hipEventElapsedTime (real device timestamps: positive, ordered, and longer
// for longer kernels), plus events without timing and hipEventCreateWithFlags.
#include <chrono>
#include <vector>
#include "hip_check.h"

__global__ void spin(unsigned* out, int iters) {
  unsigned v = threadIdx.x + blockIdx.x;
  for (int k = 0; k < iters; k++) v = v * 1664525u + 1013904223u;
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

int main() {
  const int blocks = 64, threads = 256, n = blocks * threads;
  unsigned* d;
  HIP_CHECK(hipMalloc(&d, n * sizeof(unsigned)));
  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));
  hipEvent_t e0, e1, e2, e3;
  HIP_CHECK(hipEventCreate(&e0));
  HIP_CHECK(hipEventCreate(&e1));
  HIP_CHECK(hipEventCreate(&e2));
  HIP_CHECK(hipEventCreateWithFlags(&e3, hipEventDisableTiming));

  // Warm-up, so that one-time setup is not inside the timed region.
  spin<<<blocks, threads, 0, s>>>(d, 1);
  HIP_CHECK(hipStreamSynchronize(s));

  auto t0 = std::chrono::steady_clock::now();
  HIP_CHECK(hipEventRecord(e0, s));
  spin<<<blocks, threads, 0, s>>>(d, 100);
  HIP_CHECK(hipEventRecord(e1, s));
  spin<<<blocks, threads, 0, s>>>(d, 2000);
  HIP_CHECK(hipEventRecord(e2, s));
  HIP_CHECK(hipEventRecord(e3, s));
  HIP_CHECK(hipEventSynchronize(e2));
  auto t1 = std::chrono::steady_clock::now();
  double host_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  EXPECT(hipEventQuery(e2) == hipSuccess, "e2 not complete after hipEventSynchronize");
  HIP_CHECK(hipEventSynchronize(e3));
  EXPECT(hipEventQuery(e3) == hipSuccess, "e3 not complete");

  float short_ms = -1, long_ms = -1, total_ms = -1;
  HIP_CHECK(hipEventElapsedTime(&short_ms, e0, e1));
  HIP_CHECK(hipEventElapsedTime(&long_ms, e1, e2));
  HIP_CHECK(hipEventElapsedTime(&total_ms, e0, e2));
  printf("short kernel %.3f ms, long kernel %.3f ms, total %.3f ms, host %.3f ms\n", short_ms,
         long_ms, total_ms, host_ms);
  EXPECT(short_ms > 0 && long_ms > 0, "elapsed times %f %f not positive", short_ms, long_ms);
  EXPECT(long_ms > short_ms, "20x longer kernel took %f ms vs %f ms", long_ms, short_ms);
  EXPECT(close_to(total_ms, short_ms + long_ms, 0.05, 0.05), "total %f != %f + %f", total_ms,
         short_ms, long_ms);
  EXPECT(total_ms <= host_ms * 1.05 + 0.5, "device time %f ms exceeds host time %f ms", total_ms,
         host_ms);
  float dummy;
  EXPECT(hipEventElapsedTime(&dummy, e0, e3) != hipSuccess,
         "elapsed time with a hipEventDisableTiming event succeeded");

  // Results of the timed kernels are right too.
  std::vector<unsigned> h(n);
  HIP_CHECK(hipMemcpy(h.data(), d, n * sizeof(unsigned), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    unsigned v = (i % threads) + i / threads;
    for (int k = 0; k < 2000; k++) v = v * 1664525u + 1013904223u;
    if (h[i] != v) {
      EXPECT(h[i] == v, "spin[%d] = %u want %u", i, h[i], v);
      break;
    }
  }

  // An event recorded on the null stream after work on it.
  HIP_CHECK(hipEventRecord(e0, 0));
  spin<<<1, 64>>>(d, 10);
  HIP_CHECK(hipEventRecord(e1, 0));
  HIP_CHECK(hipEventSynchronize(e1));
  HIP_CHECK(hipEventElapsedTime(&short_ms, e0, e1));
  EXPECT(short_ms >= 0, "null-stream elapsed %f", short_ms);

  HIP_CHECK(hipEventDestroy(e0));
  HIP_CHECK(hipEventDestroy(e1));
  HIP_CHECK(hipEventDestroy(e2));
  HIP_CHECK(hipEventDestroy(e3));
  HIP_CHECK(hipStreamDestroy(s));
  HIP_CHECK(hipFree(d));
  return finish("events");
}
