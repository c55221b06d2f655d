// Thousands of small launches queued without synchronizing (more packets than the 4096-entry AQL
// ring holds, so the ring wraps and HIP waits for room), on the null stream and on two streams,
// each adding to a counter array; the totals are checked.
#include <vector>
#include "hip_check.h"

__global__ void bump(unsigned* c, unsigned k) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] += k + i;
}

int main() {
  const int launches = 10000, n = 128;
  unsigned *a, *b;
  HIP_CHECK(hipMalloc(&a, n * sizeof(unsigned)));
  HIP_CHECK(hipMalloc(&b, n * sizeof(unsigned)));
  HIP_CHECK(hipMemset(a, 0, n * sizeof(unsigned)));
  HIP_CHECK(hipMemset(b, 0, n * sizeof(unsigned)));
  for (int r = 0; r < launches; r++) bump<<<2, 64>>>(a, (unsigned)r);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());

  hipStream_t s1, s2;
  HIP_CHECK(hipStreamCreate(&s1));
  HIP_CHECK(hipStreamCreate(&s2));
  for (int r = 0; r < launches / 2; r++) {
    bump<<<1, 64, 0, s1>>>(b, (unsigned)r);       // first half of b
    bump<<<1, 64, 0, s2>>>(b + 64, (unsigned)r);  // second half, on the other stream
  }
  HIP_CHECK(hipStreamSynchronize(s1));
  HIP_CHECK(hipStreamSynchronize(s2));

  std::vector<unsigned> ha(n), hb(n), wa(n), wb(n);
  HIP_CHECK(hipMemcpy(ha.data(), a, n * sizeof(unsigned), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(hb.data(), b, n * sizeof(unsigned), hipMemcpyDeviceToHost));
  unsigned long long sum_k = (unsigned long long)launches * (launches - 1) / 2;
  unsigned long long half = launches / 2;
  unsigned long long sum_half = half * (half - 1) / 2;
  for (int i = 0; i < n; i++) {
    wa[i] = (unsigned)(sum_k + (unsigned long long)launches * i);
    wb[i] = (unsigned)(sum_half + half * (unsigned long long)(i % 64));
  }
  expect_equal("null-stream counters", ha.data(), wa.data(), n);
  expect_equal("two-stream counters", hb.data(), wb.data(), n);
  HIP_CHECK(hipStreamDestroy(s1));
  HIP_CHECK(hipStreamDestroy(s2));
  HIP_CHECK(hipFree(a));
  HIP_CHECK(hipFree(b));
  return finish("many_launches");
}
