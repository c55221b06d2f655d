// Allocation kinds: hipMalloc (sizes, alignment, no overlap), hipHostMalloc (mapped, read and
// written by a kernel), hipHostRegister of malloc'd memory (kernel through
// hipHostGetDevicePointer) and hipHostUnregister. (hipMallocPitch: memcpy_2d_3d.hip.)
#include <vector>
#include "hip_check.h"

__global__ void add_index(int* p, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += i * k;
}

int main() {
  const int n = 5000;

  // hipMalloc: many sizes, distinct non-overlapping pointers, freed again.
  std::vector<void*> ptrs;
  std::vector<size_t> sizes = {1, 7, 64, 4096, 4097, 1 << 20, 3 << 20};
  for (size_t s : sizes) {
    void* p = nullptr;
    HIP_CHECK(hipMalloc(&p, s));
    EXPECT(p != nullptr, "hipMalloc(%zu) gave null", s);
    EXPECT(((uintptr_t)p & 255) == 0, "hipMalloc(%zu) = %p not 256-byte aligned", s, p);
    ptrs.push_back(p);
  }
  for (size_t i = 0; i < ptrs.size(); i++)
    for (size_t j = 0; j < ptrs.size(); j++)
      if (i != j) {
        char* a = (char*)ptrs[i];
        char* b = (char*)ptrs[j];
        EXPECT(a + sizes[i] <= b || b + sizes[j] <= a, "allocations %zu and %zu overlap", i, j);
      }
  hipPointerAttribute_t attr;
  HIP_CHECK(hipPointerGetAttributes(&attr, ptrs[3]));
  EXPECT(attr.memoryType == hipMemoryTypeDevice, "hipMalloc memoryType %d", attr.memoryType);
  for (void* p : ptrs) HIP_CHECK(hipFree(p));
  HIP_CHECK(hipFree(nullptr));

  // hipHostMalloc: mapped pinned memory written by the host, updated by a kernel in place.
  int* hm = nullptr;
  HIP_CHECK(hipHostMalloc((void**)&hm, n * sizeof(int), hipHostMallocDefault));
  for (int i = 0; i < n; i++) hm[i] = 7;
  int* hm_dev = nullptr;
  HIP_CHECK(hipHostGetDevicePointer((void**)&hm_dev, hm, 0));
  add_index<<<(n + 255) / 256, 256>>>(hm_dev, n, 2);
  HIP_CHECK(hipDeviceSynchronize());
  for (int i = 0; i < n; i++) EXPECT(hm[i] == 7 + 2 * i, "hipHostMalloc[%d] = %d", i, hm[i]);
  HIP_CHECK(hipPointerGetAttributes(&attr, hm));
  EXPECT(attr.memoryType == hipMemoryTypeHost, "hipHostMalloc memoryType %d", attr.memoryType);
  HIP_CHECK(hipHostFree(hm));

  // hipHostRegister: ordinary heap memory made visible to the device.
  std::vector<int> reg(n);
  for (int i = 0; i < n; i++) reg[i] = -i;
  HIP_CHECK(hipHostRegister(reg.data(), n * sizeof(int), hipHostRegisterMapped));
  int* reg_dev = nullptr;
  HIP_CHECK(hipHostGetDevicePointer((void**)&reg_dev, reg.data(), 0));
  add_index<<<(n + 127) / 128, 128>>>(reg_dev, n, 3);
  HIP_CHECK(hipDeviceSynchronize());
  for (int i = 0; i < n; i++) EXPECT(reg[i] == 2 * i, "hipHostRegister[%d] = %d", i, reg[i]);
  HIP_CHECK(hipHostUnregister(reg.data()));

  return finish("host_memory");
}
