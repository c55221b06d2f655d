// Stream priorities (hsa_amd_queue_set_priority underneath): three streams of low, normal and
// high priority get the same work at once (a host-to-device copy, several kernels of many
// blocks, a device-to-host copy), enqueued lowest priority first. The workers serve the
// highest priority first, so the streams' work finishes in priority order: high, normal, low.
// When each stream's work ended is read on the device (the last block of its last kernel, by
// clock64), so the host's and the runtime threads' own scheduling on a busy machine does not
// blur it.
#include <chrono>
#include <vector>
#include "hip_check.h"

__global__ void busy(const unsigned* in, unsigned* out, int iters,
                     unsigned long long* done_at) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = in[i];
  for (int k = 0; k < iters; k++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    x += k;
  }
  out[i] = x;
  __syncthreads();
  if (threadIdx.x == 0) atomicMax(done_at, (unsigned long long)clock64());
}

static unsigned busy_ref(unsigned x, int iters, int rounds) {
  for (int r = 0; r < rounds; r++)
    for (int k = 0; k < iters; k++) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      x += k;
    }
  return x;
}

int main() {
  int least = 0, greatest = 0;
  HIP_CHECK(hipDeviceGetStreamPriorityRange(&least, &greatest));
  EXPECT(greatest < least, "priority range [%d, %d]", least, greatest);
  const int prios[3] = {least, (least + greatest) / 2, greatest};  // low, normal, high
  const char* names[3] = {"low", "normal", "high"};
  const int blocks = 64, threads = 256, n = blocks * threads, kernels = 6;
  hipStream_t s[3];
  unsigned *host[3], *a[3], *b[3];
  unsigned long long* done_at;  // per stream: when its last block ended (device clock)
  HIP_CHECK(hipHostMalloc(&done_at, 4 * sizeof(unsigned long long)));
  memset(done_at, 0, 4 * sizeof(unsigned long long));
  for (int i = 0; i < 3; i++) {
    HIP_CHECK(hipStreamCreateWithPriority(&s[i], hipStreamNonBlocking, prios[i]));
    int got = 99;
    HIP_CHECK(hipStreamGetPriority(s[i], &got));
    EXPECT(got == prios[i], "%s stream has priority %d, want %d", names[i], got, prios[i]);
    HIP_CHECK(hipHostMalloc(&host[i], n * sizeof(unsigned)));
    HIP_CHECK(hipMalloc(&a[i], n * sizeof(unsigned)));
    HIP_CHECK(hipMalloc(&b[i], n * sizeof(unsigned)));
    for (int j = 0; j < n; j++) host[i][j] = (unsigned)(j * 2654435761u);
  }
  HIP_CHECK(hipDeviceSynchronize());
  // Kernels of about 50 ms whatever the engine and the cores: long enough that every stream
  // has its work enqueued while the low-priority one has most of its work still to do.
  int iters = 1500;
  for (int run = 0; run < 2; run++) {  // the first run also compiles the kernel: time the second
    auto t0 = std::chrono::steady_clock::now();
    hipLaunchKernelGGL(busy, dim3(blocks), dim3(threads), 0, s[0], a[0], b[0], iters,
                       &done_at[3]);
    HIP_CHECK(hipStreamSynchronize(s[0]));
    if (run == 0) continue;
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                    .count();
    double scale = ms > 0 ? 50 / ms : 100;
    iters = (int)(iters * (scale < 1 ? 1 : scale > 1000 ? 1000 : scale));
  }
  // The same work on every stream, the low-priority one first.
  for (int i = 0; i < 3; i++) {
    HIP_CHECK(hipMemcpyAsync(a[i], host[i], n * sizeof(unsigned), hipMemcpyHostToDevice, s[i]));
    for (int k = 0; k < kernels; k++) {
      unsigned* from = k % 2 ? b[i] : a[i];
      unsigned* to = k % 2 ? a[i] : b[i];
      hipLaunchKernelGGL(busy, dim3(blocks), dim3(threads), 0, s[i], from, to, iters,
                         &done_at[i]);
    }
    unsigned* last = kernels % 2 ? b[i] : a[i];
    HIP_CHECK(hipMemcpyAsync(host[i], last, n * sizeof(unsigned), hipMemcpyDeviceToHost, s[i]));
  }
  HIP_CHECK(hipDeviceSynchronize());
  std::vector<unsigned> want(n);
  for (int j = 0; j < n; j++) want[j] = busy_ref((unsigned)(j * 2654435761u), iters, kernels);
  for (int i = 0; i < 3; i++) {
    int bad = 0;
    for (int j = 0; j < n; j++) bad += host[i][j] != want[j];
    EXPECT(bad == 0, "%s stream: %d wrong results", names[i], bad);
  }
  // Device clock ticks (clock64: s_memtime) between the streams' ends.
  auto ticks = [&](int later, int earlier) { return (long long)(done_at[later] - done_at[earlier]); };
  long long high_to_normal = ticks(1, 2), normal_to_low = ticks(0, 1);
  printf("%d iterations per kernel: high finished %lld ticks before normal, normal %lld ticks "
         "before low\n", iters, high_to_normal, normal_to_low);
  EXPECT(high_to_normal > 0, "the high-priority stream finished %lld ticks after the normal one",
         -high_to_normal);
  EXPECT(normal_to_low > 0, "the normal-priority stream finished %lld ticks after the low one",
         -normal_to_low);
  for (int i = 0; i < 3; i++) {
    HIP_CHECK(hipStreamDestroy(s[i]));
    HIP_CHECK(hipHostFree(host[i]));
    HIP_CHECK(hipFree(a[i]));
    HIP_CHECK(hipFree(b[i]));
  }
  HIP_CHECK(hipHostFree(done_at));
  return finish("stream_priorities");
}
