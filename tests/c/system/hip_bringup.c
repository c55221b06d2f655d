/* Debian's HIP runtime (libamdhip64.so.5, loaded with dlopen) brings its device up on softhsa's
 * topology and memory, as hip-bringup.md describes: one gfx906 device with the configured CU
 * count and memory size, and hipMalloc/hipFree served by the GPU's coarse-grained pool (the
 * allocation shows in hsa_amd_pointer_info), and a hipMemcpy round trip through it.
 * Needs packages libamdhip64-5 and libamdhip64-dev. */
#define __HIP_PLATFORM_AMD__
#include "check.h"
#include <dlfcn.h>
#include <hip/hip_runtime_api.h>

int main(void) {
  setenv("SOFTHSA_DEVICE_MEMORY", "1G", 1);
  setenv("SOFTHSA_CUS", "12", 1);
  void *hip = dlopen("libamdhip64.so.5", RTLD_NOW);
  if (!hip) {
    fprintf(stderr, "cannot load HIP: %s\n", dlerror());
    return 1;
  }
  hipError_t (*get_count)(int *) = (hipError_t(*)(int *))dlsym(hip, "hipGetDeviceCount");
  hipError_t (*get_props)(hipDeviceProp_t *, int) = (hipError_t(*)(hipDeviceProp_t *, int))dlsym(hip, "hipGetDeviceProperties");
  hipError_t (*hip_malloc)(void **, size_t) = (hipError_t(*)(void **, size_t))dlsym(hip, "hipMalloc");
  hipError_t (*hip_free)(void *) = (hipError_t(*)(void *))dlsym(hip, "hipFree");
  hipError_t (*hip_memcpy)(void *, const void *, size_t, hipMemcpyKind) =
      (hipError_t(*)(void *, const void *, size_t, hipMemcpyKind))dlsym(hip, "hipMemcpy");
  CHECK(get_count && get_props && hip_malloc && hip_free && hip_memcpy);
  if (!get_count || !get_props || !hip_malloc || !hip_free || !hip_memcpy) TEST_DONE();

  int n = -1;
  CHECK(get_count(&n) == hipSuccess);
  CHECK(n == 1);
  hipDeviceProp_t p;
  memset(&p, 0, sizeof p);
  CHECK(get_props(&p, 0) == hipSuccess);
  CHECK(strstr(p.name, "softhsa") != NULL);
  CHECK(strcmp(p.gcnArchName, "gfx906:sramecc-:xnack-") == 0);
  CHECK(p.multiProcessorCount == 12);
  CHECK(p.totalGlobalMem == (size_t)1 << 30);
  CHECK(p.warpSize == 64);
  CHECK(p.maxThreadsPerBlock == 1024);
  CHECK(p.sharedMemPerBlock == 65536);

  void *d = NULL;
  CHECK(hip_malloc(&d, 3 << 20) == hipSuccess);
  /* HIP holds a runtime reference; the HSA API of the same library sees its allocation. */
  CHECK_OK(hsa_init());
  hsa_amd_pointer_info_t info;
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  CHECK_OK(hsa_amd_pointer_info(d, &info, NULL, NULL, NULL));
  CHECK(info.type == HSA_EXT_POINTER_TYPE_HSA && info.sizeInBytes >= (3u << 20));
  CHECK(info.agentOwner.handle == find_agent(HSA_DEVICE_TYPE_GPU, 0).handle);
  CHECK(info.global_flags == HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
  /* A round trip through device memory: ROCclr pins the pageable buffers (page-rounded) with
   * hsa_amd_memory_lock_to_pool and copies through the runtime. */
  size_t bytes = 3 << 20;
  unsigned char *in = malloc(bytes), *out = calloc(1, bytes);
  for (size_t i = 0; i < bytes; i++) in[i] = (unsigned char)(i * 131 + 7);
  CHECK(hip_memcpy(d, in, bytes, hipMemcpyHostToDevice) == hipSuccess);
  CHECK(hip_memcpy(out, d, bytes, hipMemcpyDeviceToHost) == hipSuccess);
  CHECK(memcmp(in, out, bytes) == 0);
  free(in);
  free(out);
  CHECK(hip_free(d) == hipSuccess);
  CHECK_OK(hsa_amd_pointer_info(d, &info, NULL, NULL, NULL));
  CHECK(info.type == HSA_EXT_POINTER_TYPE_UNKNOWN);
  void *too_big = NULL;
  CHECK(hip_malloc(&too_big, (size_t)2 << 30) != hipSuccess);
  CHECK_OK(hsa_shut_down());
  TEST_DONE();
}
