// Managed memory as on a discrete gfx906 with HMM: device attributes, hipMallocManaged used by
// kernels and the host in turn, hipMemAdvise, hipMemPrefetchAsync and hipMemRangeGetAttribute(s)
// reporting what was advised, and hipFree.
#include "hip_check.h"

__global__ void scale_add(int* v, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * k + i;
}

static int attr(hipMemRangeAttribute a, const void* p, size_t n) {
  int v = -7;
  HIP_CHECK(hipMemRangeGetAttribute(&v, sizeof v, a, p, n));
  return v;
}

int main() {
  int dev = 0;
  HIP_CHECK(hipSetDevice(dev));
  int managed = 0, concurrent = 0, pageable = 1, direct = 1;
  HIP_CHECK(hipDeviceGetAttribute(&managed, hipDeviceAttributeManagedMemory, dev));
  HIP_CHECK(hipDeviceGetAttribute(&concurrent, hipDeviceAttributeConcurrentManagedAccess, dev));
  HIP_CHECK(hipDeviceGetAttribute(&pageable, hipDeviceAttributePageableMemoryAccess, dev));
  HIP_CHECK(hipDeviceGetAttribute(&direct, hipDeviceAttributeDirectManagedMemAccessFromHost, dev));
  EXPECT(managed == 1 && concurrent == 1, "managed %d concurrent %d", managed, concurrent);
  EXPECT(pageable == 0 && direct == 0, "pageable %d direct %d", pageable, direct);

  const int n = 3 << 16;  // 768 KiB: many pages
  int* v = nullptr;
  HIP_CHECK(hipMallocManaged(&v, n * sizeof(int)));
  for (int i = 0; i < n; i++) v[i] = i ^ 0x5a5a;
  scale_add<<<(n + 255) / 256, 256>>>(v, n, 3);
  HIP_CHECK(hipDeviceSynchronize());
  int bad = 0;
  for (int i = 0; i < n && bad < 5; i++) {
    int want = (i ^ 0x5a5a) * 3 + i;
    if (v[i] != want) {
      bad++;
      EXPECT(false, "v[%d] = %d, want %d", i, v[i], want);
    }
  }
  // The host writes, the device reads it back (no copies: one memory).
  for (int i = 0; i < n; i++) v[i] = 1;
  scale_add<<<(n + 255) / 256, 256>>>(v, n, 2);
  HIP_CHECK(hipDeviceSynchronize());
  EXPECT(v[0] == 2 && v[n - 1] == 2 + n - 1, "second pass: %d %d", v[0], v[n - 1]);

  // Advice and what the range queries report.
  size_t half = n / 2 * sizeof(int);
  HIP_CHECK(hipMemAdvise(v, half, hipMemAdviseSetPreferredLocation, dev));
  HIP_CHECK(hipMemAdvise(v, n * sizeof(int), hipMemAdviseSetReadMostly, dev));
  EXPECT(attr(hipMemRangeAttributePreferredLocation, v, half) == dev, "preferred(first half)");
  EXPECT(attr(hipMemRangeAttributePreferredLocation, v, n * sizeof(int)) == hipInvalidDeviceId,
         "preferred(all) = %d (mixed)", attr(hipMemRangeAttributePreferredLocation, v, n * sizeof(int)));
  EXPECT(attr(hipMemRangeAttributeReadMostly, v, n * sizeof(int)) == 1, "read mostly");
  HIP_CHECK(hipMemAdvise(v, n * sizeof(int), hipMemAdviseUnsetReadMostly, dev));
  EXPECT(attr(hipMemRangeAttributeReadMostly, v, n * sizeof(int)) == 0, "read mostly unset");
  HIP_CHECK(hipMemAdvise(v, half, hipMemAdviseSetPreferredLocation, hipCpuDeviceId));
  EXPECT(attr(hipMemRangeAttributePreferredLocation, v, half) == hipCpuDeviceId, "preferred cpu");

  // Prefetches: recorded per range, the kernel after them sees the data.
  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));
  HIP_CHECK(hipMemPrefetchAsync(v, half, dev, s));
  HIP_CHECK(hipMemPrefetchAsync((char*)v + half, n * sizeof(int) - half, hipCpuDeviceId, s));
  scale_add<<<(n + 255) / 256, 256, 0, s>>>(v, n, 1);
  HIP_CHECK(hipStreamSynchronize(s));
  EXPECT(attr(hipMemRangeAttributeLastPrefetchLocation, v, half) == dev, "prefetch dev");
  EXPECT(attr(hipMemRangeAttributeLastPrefetchLocation, (char*)v + half, 4096) == hipCpuDeviceId,
         "prefetch cpu");
  EXPECT(v[1] == 2 + 1 + 1, "after prefetch: %d", v[1]);

  // Several attributes at once. HIP 5.2 (ROCclr's GetSvmAttributes) reads every answer from the
  // first pair ROCr returns (it never advances its index), so only the first attribute of a
  // multi-attribute query is meaningful there; the others are not checked.
  int rm = -1, pl = -1, lp = -1;
  void* data[] = {&rm, &pl, &lp};
  size_t sizes[] = {sizeof rm, sizeof pl, sizeof lp};
  hipMemRangeAttribute which[] = {hipMemRangeAttributeReadMostly,
                                  hipMemRangeAttributePreferredLocation,
                                  hipMemRangeAttributeLastPrefetchLocation};
  HIP_CHECK(hipMemRangeGetAttributes(data, sizes, which, 3, v, 4096));
  EXPECT(rm == 0, "attributes %d %d %d", rm, pl, lp);

  HIP_CHECK(hipStreamDestroy(s));
  HIP_CHECK(hipFree(v));
  // After the free, a fresh managed allocation works again.
  HIP_CHECK(hipMallocManaged(&v, 4096));
  v[0] = 5;
  scale_add<<<1, 1>>>(v, 1, 7);
  HIP_CHECK(hipDeviceSynchronize());
  EXPECT(v[0] == 35, "fresh allocation: %d", v[0]);
  HIP_CHECK(hipFree(v));
  return finish("managed_memory");
}
