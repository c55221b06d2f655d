// Code object built on its own (hipcc --genco) and loaded by module_load.hip at run time.
#include <hip/hip_runtime.h>

__device__ int module_counter;
__constant__ float module_table[4] = {1.0f, 10.0f, 100.0f, 1000.0f};

extern "C" __global__ void scale_add(const float* in, float* out, int n, float k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * k + module_table[i & 3];
}

extern "C" __global__ void count_items(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&module_counter, 1);
}
