// Device assert: one work-item fails an assertion. As on hardware, HIP prints the device-side
// assertion message and the queue error aborts the process; the test runner expects that abort
// (see scripts/run-hip-tests.sh). Reaching the end of main is a failure.
#include <cassert>
#include "hip_check.h"

__global__ void check_positive(const int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) assert(v[i] > 0);
}

int main() {
  const int n = 256;
  int h[n];
  for (int i = 0; i < n; i++) h[i] = i == 77 ? -1 : i + 1;
  int* d;
  HIP_CHECK(hipMalloc(&d, sizeof h));
  HIP_CHECK(hipMemcpy(d, h, sizeof h, hipMemcpyHostToDevice));
  // First a launch whose assertions all hold: it must complete normally.
  check_positive<<<1, 64>>>(d, 64);
  HIP_CHECK(hipDeviceSynchronize());
  fprintf(stderr, "assert test: passing launch completed\n");
  check_positive<<<n / 64, 64>>>(d, n);
  hipError_t e = hipDeviceSynchronize();
  printf("FAIL assert: the program was not aborted (hipDeviceSynchronize returned %d %s)\n", e,
         hipGetErrorString(e));
  return 1;
}
