// Several streams at once, each with its own H2D copy -> kernel -> D2H copy chain on pinned
// memory; hipStreamSynchronize, hipStreamQuery, non-blocking streams and stream priorities.
#include <vector>
#include "hip_check.h"

__global__ void mix(int* data, int n, int stream_id, int rounds) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = data[i];
  for (int r = 0; r < rounds; r++) v = v * 3 + stream_id + r;
  data[i] = v;
}

static int host_mix(int v, int sid, int rounds) {
  for (int r = 0; r < rounds; r++) v = (int)((unsigned)v * 3u + (unsigned)(sid + r));
  return v;
}

int main() {
  const int ns = 4, n = 50000, rounds = 20;
  hipStream_t st[ns];
  int* host[ns];
  int* dev[ns];
  for (int s = 0; s < ns; s++) {
    if (s == 1)
      HIP_CHECK(hipStreamCreateWithFlags(&st[s], hipStreamNonBlocking));
    else if (s == 2) {
      int lo, hi;
      HIP_CHECK(hipDeviceGetStreamPriorityRange(&lo, &hi));
      HIP_CHECK(hipStreamCreateWithPriority(&st[s], hipStreamDefault, hi));
    } else
      HIP_CHECK(hipStreamCreate(&st[s]));
    HIP_CHECK(hipHostMalloc(&host[s], n * sizeof(int)));
    HIP_CHECK(hipMalloc(&dev[s], n * sizeof(int)));
    for (int i = 0; i < n; i++) host[s][i] = i + s * 1000000;
  }
  for (int s = 0; s < ns; s++) {
    HIP_CHECK(hipMemcpyAsync(dev[s], host[s], n * sizeof(int), hipMemcpyHostToDevice, st[s]));
    mix<<<(n + 255) / 256, 256, 0, st[s]>>>(dev[s], n, s, rounds);
    HIP_CHECK(hipGetLastError());
    mix<<<(n + 63) / 64, 64, 0, st[s]>>>(dev[s], n, s + 10, 1);
    HIP_CHECK(hipMemcpyAsync(host[s], dev[s], n * sizeof(int), hipMemcpyDeviceToHost, st[s]));
  }
  for (int s = ns - 1; s >= 0; s--) {
    HIP_CHECK(hipStreamSynchronize(st[s]));
    EXPECT(hipStreamQuery(st[s]) == hipSuccess, "stream %d not idle after synchronize", s);
    int bad = 0;
    for (int i = 0; i < n; i++) {
      int want = host_mix(host_mix(i + s * 1000000, s, rounds), s + 10, 1);
      if (host[s][i] != want && bad++ < 3)
        fprintf(stderr, "stream %d item %d: got %d want %d\n", s, i, host[s][i], want);
    }
    if (bad) g_failures++;
  }

  // Work on the null stream waits for the blocking streams (legacy default-stream semantics
  // are not required; an explicit device synchronize is).
  for (int s = 0; s < ns; s++) mix<<<(n + 255) / 256, 256, 0, st[s]>>>(dev[s], n, 0, 1);
  HIP_CHECK(hipDeviceSynchronize());
  for (int s = 0; s < ns; s++) {
    EXPECT(hipStreamQuery(st[s]) == hipSuccess, "stream %d busy after device sync", s);
    std::vector<int> back(n);
    HIP_CHECK(hipMemcpy(back.data(), dev[s], n * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; i += 997)
      EXPECT(back[i] == host_mix(host[s][i], 0, 1), "stream %d item %d after device sync", s, i);
  }
  for (int s = 0; s < ns; s++) {
    HIP_CHECK(hipStreamDestroy(st[s]));
    HIP_CHECK(hipHostFree(host[s]));
    HIP_CHECK(hipFree(dev[s]));
  }
  return finish("streams");
}
