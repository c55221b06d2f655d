// Launch latency of an empty kernel: launch + hipDeviceSynchronize, median (and 10th/90th
// percentiles) over many iterations after a warm-up, in microseconds.
// Usage: bench_launch [ITERATIONS]  (default 2000)
#include <algorithm>
#include <chrono>
#include <vector>
#include "hip_check.h"

__global__ void empty_kernel() {}

int main(int argc, char** argv) {
  int iters = argc > 1 ? atoi(argv[1]) : 2000;
  if (iters < 10) iters = 10;
  for (int i = 0; i < 50; i++) {
    empty_kernel<<<1, 64>>>();
    HIP_CHECK(hipDeviceSynchronize());
  }
  std::vector<double> us(iters);
  for (int i = 0; i < iters; i++) {
    auto t0 = std::chrono::steady_clock::now();
    empty_kernel<<<1, 64>>>();
    HIP_CHECK(hipDeviceSynchronize());
    auto t1 = std::chrono::steady_clock::now();
    us[i] = std::chrono::duration<double, std::micro>(t1 - t0).count();
  }
  HIP_CHECK(hipGetLastError());
  std::sort(us.begin(), us.end());
  double median = us[iters / 2];
  printf("empty kernel launch + hipDeviceSynchronize: median %.1f us (p10 %.1f, p90 %.1f) over %d\n",
         median, us[iters / 10], us[iters * 9 / 10], iters);
  EXPECT(median > 0 && median < 1e6, "median %.1f us", median);
  return finish("bench_launch");
}
