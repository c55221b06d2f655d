// A kernel that writes through a bad pointer. As on hardware, the queue error ends the program
// (HIP's queue callback aborts), after softhsa's fault report names the kernel, instruction and
// address on stderr; the runner checks both. Reaching the end of main is a failure.
#include "hip_check.h"

__global__ void bad_write(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i;
}

int main() {
  int* good;
  HIP_CHECK(hipMalloc(&good, 64 * sizeof(int)));
  bad_write<<<1, 64>>>(good, 64);
  HIP_CHECK(hipDeviceSynchronize());
  int h[64];
  HIP_CHECK(hipMemcpy(h, good, sizeof h, hipMemcpyDeviceToHost));
  for (int i = 0; i < 64; i++)
    if (h[i] != i) {
      printf("FAIL bad_pointer: the valid launch wrote %d at %d\n", h[i], i);
      return 1;
    }
  fprintf(stderr, "bad_pointer test: valid launch completed; now writing to 0xdead0000\n");
  bad_write<<<1, 64>>>((int*)0xdead0000ull, 64);
  hipError_t e = hipDeviceSynchronize();
  printf("FAIL bad_pointer: the program was not aborted (hipDeviceSynchronize returned %d %s)\n",
         e, hipGetErrorString(e));
  return 1;
}
