// Cross-stream ordering and host callbacks: hipStreamWaitEvent makes stream B consume what a long
// kernel in stream A produces; hipStreamAddCallback runs in stream order after the preceding work
// (and sees its results); hipStreamQuery reports not-ready work and then success.
#include <atomic>
#include <vector>
#include "hip_check.h"

__global__ void produce(int* buf, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = i;
  for (int k = 0; k < iters; k++) v = (v * 5 + 1) & 0xffff;
  buf[i] = v;
}

__global__ void consume(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * 2 + 1;
}

__global__ void spin_on_flag(volatile int* flag, int* seen) {
  // Waits (bounded) for the host to set the flag in mapped memory, so the stream stays busy.
  long k = 0;
  while (*flag == 0 && k < 50000000L) {
    __builtin_amdgcn_s_sleep(2);
    k++;
  }
  *seen = *flag;
}

static int host_produce(int i, int iters) {
  int v = i;
  for (int k = 0; k < iters; k++) v = (v * 5 + 1) & 0xffff;
  return v;
}

struct CallbackLog {
  std::atomic<int> calls{0};
  int order[8];
  int* pinned_result;  // read inside the callback: the preceding copy must be complete
  int seen_value[8];
  hipError_t status[8];
};

static void on_done(hipStream_t, hipError_t status, void* user) {
  auto* arg = static_cast<std::pair<CallbackLog*, int>*>(user);
  CallbackLog* log = arg->first;
  int idx = log->calls.fetch_add(1);
  if (idx < 8) {
    log->order[idx] = arg->second;
    log->seen_value[idx] = log->pinned_result[arg->second];
    log->status[idx] = status;
  }
}

int main() {
  const int n = 1 << 16, iters = 300;
  hipStream_t a, b;
  HIP_CHECK(hipStreamCreateWithFlags(&a, hipStreamNonBlocking));
  HIP_CHECK(hipStreamCreateWithFlags(&b, hipStreamNonBlocking));
  int *buf, *out;
  HIP_CHECK(hipMalloc(&buf, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&out, n * sizeof(int)));
  HIP_CHECK(hipMemset(buf, 0, n * sizeof(int)));
  hipEvent_t produced;
  HIP_CHECK(hipEventCreateWithFlags(&produced, hipEventDisableTiming));

  produce<<<n / 256, 256, 0, a>>>(buf, n, iters);
  HIP_CHECK(hipEventRecord(produced, a));
  HIP_CHECK(hipStreamWaitEvent(b, produced, 0));
  consume<<<n / 256, 256, 0, b>>>(buf, out, n);
  std::vector<int> h(n);
  HIP_CHECK(hipMemcpyAsync(h.data(), out, n * sizeof(int), hipMemcpyDeviceToHost, b));
  HIP_CHECK(hipStreamSynchronize(b));
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (h[i] != host_produce(i, iters) * 2 + 1 && bad++ < 3)
      fprintf(stderr, "waited consume[%d] = %d want %d\n", i, h[i], host_produce(i, iters) * 2 + 1);
  if (bad) g_failures++;

  // Callbacks: each sees the copy queued before it, and they run in stream order.
  CallbackLog log;
  int* pinned;
  HIP_CHECK(hipHostMalloc(&pinned, 4 * sizeof(int)));
  memset(pinned, 0, 4 * sizeof(int));
  log.pinned_result = pinned;
  std::pair<CallbackLog*, int> args[4] = {{&log, 0}, {&log, 1}, {&log, 2}, {&log, 3}};
  for (int k = 0; k < 4; k++) {
    produce<<<n / 256, 256, 0, a>>>(buf, n, iters + k);
    HIP_CHECK(hipMemcpyAsync(&pinned[k], &buf[1234], sizeof(int), hipMemcpyDeviceToHost, a));
    HIP_CHECK(hipStreamAddCallback(a, on_done, &args[k], 0));
  }
  HIP_CHECK(hipStreamSynchronize(a));
  EXPECT(log.calls.load() == 4, "%d callbacks ran, want 4", log.calls.load());
  for (int k = 0; k < 4 && k < log.calls.load(); k++) {
    EXPECT(log.order[k] == k, "callback %d ran in position %d", log.order[k], k);
    EXPECT(log.status[k] == hipSuccess, "callback %d got status %d", k, log.status[k]);
    EXPECT(log.seen_value[k] == host_produce(1234, iters + log.order[k]),
           "callback %d saw %d, want %d", k, log.seen_value[k],
           host_produce(1234, iters + log.order[k]));
  }

  // hipStreamQuery: a kernel held by a host flag keeps the stream not ready until released.
  int *flag, *seen;
  HIP_CHECK(hipHostMalloc(&flag, sizeof(int)));
  HIP_CHECK(hipHostMalloc(&seen, sizeof(int)));
  *flag = 0;
  *seen = -1;
  spin_on_flag<<<1, 1, 0, b>>>(flag, seen);
  hipError_t q = hipStreamQuery(b);
  EXPECT(q == hipErrorNotReady, "hipStreamQuery of a busy stream gave %d (%s)", q,
         hipGetErrorString(q));
  __atomic_store_n(flag, 42, __ATOMIC_RELEASE);
  HIP_CHECK(hipStreamSynchronize(b));
  EXPECT(hipStreamQuery(b) == hipSuccess, "stream not ready after synchronize");
  EXPECT(*seen == 42, "kernel saw flag %d, want 42", *seen);

  HIP_CHECK(hipHostFree(flag));
  HIP_CHECK(hipHostFree(seen));
  HIP_CHECK(hipHostFree(pinned));
  HIP_CHECK(hipEventDestroy(produced));
  HIP_CHECK(hipStreamDestroy(a));
  HIP_CHECK(hipStreamDestroy(b));
  HIP_CHECK(hipFree(buf));
  HIP_CHECK(hipFree(out));
  return finish("stream_sync");
}
