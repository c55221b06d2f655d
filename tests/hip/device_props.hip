// Device discovery and properties: one gfx906 device with wave64 and plausible limits, and
// hipDeviceGetAttribute / hipMemGetInfo agreeing with hipGetDeviceProperties.
#include "hip_check.h"

int main() {
  int count = 0;
  HIP_CHECK(hipGetDeviceCount(&count));
  EXPECT(count >= 1, "device count %d", count);
  if (count < 1) return finish("device_props");
  HIP_CHECK(hipSetDevice(0));
  int dev = -1;
  HIP_CHECK(hipGetDevice(&dev));
  EXPECT(dev == 0, "current device %d", dev);

  hipDeviceProp_t p;
  HIP_CHECK(hipGetDeviceProperties(&p, 0));
  printf("name '%s' arch '%s' gcnArch %d CUs %d clock %d kHz mem %zu MiB lds/block %zu\n", p.name,
         p.gcnArchName, p.gcnArch, p.multiProcessorCount, p.clockRate, p.totalGlobalMem >> 20,
         p.sharedMemPerBlock);
  EXPECT(strncmp(p.gcnArchName, "gfx906", 6) == 0, "gcnArchName '%s'", p.gcnArchName);
  EXPECT(p.gcnArch == 906, "gcnArch %d", p.gcnArch);
  EXPECT(p.warpSize == 64, "warpSize %d", p.warpSize);
  EXPECT(p.multiProcessorCount > 0, "multiProcessorCount %d", p.multiProcessorCount);
  EXPECT(p.sharedMemPerBlock >= 32 * 1024, "sharedMemPerBlock %zu", p.sharedMemPerBlock);
  EXPECT(p.maxThreadsPerBlock == 1024, "maxThreadsPerBlock %d", p.maxThreadsPerBlock);
  EXPECT(p.maxThreadsDim[0] == 1024 && p.maxThreadsDim[1] == 1024 && p.maxThreadsDim[2] == 1024,
         "maxThreadsDim %d %d %d", p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]);
  EXPECT(p.maxGridSize[0] > 0 && p.maxGridSize[1] > 0 && p.maxGridSize[2] > 0,
         "maxGridSize %d %d %d", p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
  EXPECT(p.clockRate > 0, "clockRate %d", p.clockRate);
  EXPECT(p.memoryClockRate > 0, "memoryClockRate %d", p.memoryClockRate);
  EXPECT(p.memoryBusWidth > 0, "memoryBusWidth %d", p.memoryBusWidth);
  EXPECT(p.totalGlobalMem >= (size_t)256 << 20, "totalGlobalMem %zu", p.totalGlobalMem);
  EXPECT(p.major == 9 && p.minor == 0, "compute capability %d.%d", p.major, p.minor);
  EXPECT(p.l2CacheSize >= 0, "l2CacheSize %d", p.l2CacheSize);

  struct {
    hipDeviceAttribute_t attr;
    long long want;
    const char* name;
  } attrs[] = {
      {hipDeviceAttributeWarpSize, p.warpSize, "WarpSize"},
      {hipDeviceAttributeMultiprocessorCount, p.multiProcessorCount, "MultiprocessorCount"},
      {hipDeviceAttributeMaxThreadsPerBlock, p.maxThreadsPerBlock, "MaxThreadsPerBlock"},
      {hipDeviceAttributeMaxSharedMemoryPerBlock, (long long)p.sharedMemPerBlock,
       "MaxSharedMemoryPerBlock"},
      {hipDeviceAttributeClockRate, p.clockRate, "ClockRate"},
      {hipDeviceAttributeMaxBlockDimX, p.maxThreadsDim[0], "MaxBlockDimX"},
      {hipDeviceAttributeMaxGridDimX, p.maxGridSize[0], "MaxGridDimX"},
      {hipDeviceAttributeComputeCapabilityMajor, p.major, "ComputeCapabilityMajor"},
  };
  for (auto& a : attrs) {
    int v = -1;
    HIP_CHECK(hipDeviceGetAttribute(&v, a.attr, 0));
    EXPECT(v == a.want, "attribute %s = %d, properties say %lld", a.name, v, a.want);
  }

  size_t free_b = 0, total_b = 0;
  HIP_CHECK(hipMemGetInfo(&free_b, &total_b));
  EXPECT(total_b > 0 && free_b <= total_b, "hipMemGetInfo free %zu total %zu", free_b, total_b);
  EXPECT(total_b == p.totalGlobalMem, "hipMemGetInfo total %zu vs totalGlobalMem %zu", total_b,
         p.totalGlobalMem);

  // A device allocation must show up in the free memory.
  void* d = nullptr;
  const size_t big = 64 << 20;
  HIP_CHECK(hipMalloc(&d, big));
  size_t free2 = 0, total2 = 0;
  HIP_CHECK(hipMemGetInfo(&free2, &total2));
  EXPECT(free2 + big <= free_b, "free before %zu after 64 MiB allocation %zu", free_b, free2);
  HIP_CHECK(hipFree(d));

  char name[256] = {0};
  HIP_CHECK(hipDeviceGetName(name, sizeof name, 0));
  EXPECT(name[0] != 0, "hipDeviceGetName empty");
  int driver = 0, runtime = 0;
  HIP_CHECK(hipDriverGetVersion(&driver));
  HIP_CHECK(hipRuntimeGetVersion(&runtime));
  EXPECT(runtime > 0, "runtime version %d", runtime);
  return finish("device_props");
}
