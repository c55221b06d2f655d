// Stream memory operations: hipStreamWriteValue32/64 into device and pinned host memory, and
// hipStreamWaitValue32/64 holding a stream until the host (or another stream) writes a value:
// the work queued behind the wait must not run before, and must run after.
#include <unistd.h>
#include <cstdint>
#include "hip_check.h"

__global__ void record(int* out, int v) { *out = v; }

int main() {
  int supported = 0;
  HIP_CHECK(hipDeviceGetAttribute(&supported, hipDeviceAttributeCanUseStreamWaitValue, 0));
  printf("hipDeviceAttributeCanUseStreamWaitValue = %d\n", supported);

  hipStream_t s, t;
  HIP_CHECK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
  HIP_CHECK(hipStreamCreateWithFlags(&t, hipStreamNonBlocking));
  uint32_t* flag32;
  uint64_t* flag64;
  int* seen;
  HIP_CHECK(hipHostMalloc(&flag32, sizeof *flag32));
  HIP_CHECK(hipHostMalloc(&flag64, sizeof *flag64));
  HIP_CHECK(hipHostMalloc(&seen, 2 * sizeof *seen));
  *flag32 = 0;
  *flag64 = 0;
  seen[0] = seen[1] = -1;

  // Writes, in stream order, into device memory and into pinned host memory.
  uint32_t* d32;
  uint64_t* d64;
  HIP_CHECK(hipMalloc(&d32, sizeof *d32));
  HIP_CHECK(hipMalloc(&d64, sizeof *d64));
  HIP_CHECK(hipStreamWriteValue32(s, d32, 0xC0FFEE01u, 0));
  HIP_CHECK(hipStreamWriteValue64(s, d64, 0x123456789ABCDEF0ull, 0));
  HIP_CHECK(hipStreamWriteValue32(s, flag32, 7u, 0));
  HIP_CHECK(hipStreamSynchronize(s));
  uint32_t h32 = 0;
  uint64_t h64 = 0;
  HIP_CHECK(hipMemcpy(&h32, d32, sizeof h32, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&h64, d64, sizeof h64, hipMemcpyDeviceToHost));
  EXPECT(h32 == 0xC0FFEE01u, "hipStreamWriteValue32 to device memory wrote %x", h32);
  EXPECT(h64 == 0x123456789ABCDEF0ull, "hipStreamWriteValue64 wrote %llx",
         (unsigned long long)h64);
  EXPECT(*flag32 == 7u, "hipStreamWriteValue32 to host memory wrote %u", *flag32);

  // A stream held by a 32-bit wait (>= 10) on host memory, released by the host.
  HIP_CHECK(hipStreamWaitValue32(s, flag32, 10u, hipStreamWaitValueGte, 0xFFFFFFFFu));
  record<<<1, 1, 0, s>>>(&seen[0], 1);
  HIP_CHECK(hipGetLastError());
  // A stream held by a 64-bit wait (== value under a mask), released by stream s writing it.
  HIP_CHECK(hipStreamWaitValue64(t, flag64, 0xAB00000000ull, hipStreamWaitValueEq,
                                 0xFF00000000ull));
  record<<<1, 1, 0, t>>>(&seen[1], 2);
  HIP_CHECK(hipGetLastError());
  for (int k = 0; k < 20 && seen[0] == -1; k++) usleep(5000);
  EXPECT(seen[0] == -1 && seen[1] == -1, "work behind the waits ran early: %d %d", seen[0],
         seen[1]);
  EXPECT(hipStreamQuery(s) == hipErrorNotReady, "waiting stream reports idle");
  __atomic_store_n(flag32, 12u, __ATOMIC_RELEASE);
  HIP_CHECK(hipStreamWriteValue64(s, flag64, 0x11AB00000022ull, 0));
  HIP_CHECK(hipStreamSynchronize(s));
  HIP_CHECK(hipStreamSynchronize(t));
  EXPECT(seen[0] == 1, "kernel behind the 32-bit wait saw %d", seen[0]);
  EXPECT(seen[1] == 2, "kernel behind the 64-bit wait saw %d", seen[1]);

  HIP_CHECK(hipFree(d32));
  HIP_CHECK(hipFree(d64));
  HIP_CHECK(hipHostFree(flag32));
  HIP_CHECK(hipHostFree(flag64));
  HIP_CHECK(hipHostFree(seen));
  HIP_CHECK(hipStreamDestroy(s));
  HIP_CHECK(hipStreamDestroy(t));
  return finish("stream_values");
}
