// Several host threads use the device at once, each with its own stream, buffers and kernels,
// interleaving launches, async copies and synchronizations; each checks its own results.
#include <thread>
#include <vector>
#include "hip_check.h"

__global__ void step(unsigned* data, int n, unsigned salt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * 2654435761u + salt;
}

static int worker(int id) {
  const int n = 20000 + id * 1000, rounds = 12;
  hipStream_t s;
  if (hipStreamCreate(&s) != hipSuccess) return 1;
  unsigned *d, *h;
  if (hipMalloc(&d, n * sizeof(unsigned)) != hipSuccess) return 1;
  if (hipHostMalloc(&h, n * sizeof(unsigned)) != hipSuccess) return 1;
  std::vector<unsigned> want(n);
  for (int i = 0; i < n; i++) want[i] = h[i] = (unsigned)(i + id * 7919);
  int bad = 0;
  for (int r = 0; r < rounds; r++) {
    hipMemcpyAsync(d, h, n * sizeof(unsigned), hipMemcpyHostToDevice, s);
    step<<<(n + 255) / 256, 256, 0, s>>>(d, n, (unsigned)(id * 100 + r));
    step<<<(n + 127) / 128, 128, 0, s>>>(d, n, (unsigned)r);
    hipMemcpyAsync(h, d, n * sizeof(unsigned), hipMemcpyDeviceToHost, s);
    if (hipStreamSynchronize(s) != hipSuccess) return 1;
    for (int i = 0; i < n; i++) {
      want[i] = want[i] * 2654435761u + (unsigned)(id * 100 + r);
      want[i] = want[i] * 2654435761u + (unsigned)r;
      if (h[i] != want[i] && bad++ < 3)
        fprintf(stderr, "thread %d round %d item %d: got %u want %u\n", id, r, i, h[i], want[i]);
    }
  }
  hipFree(d);
  hipHostFree(h);
  hipStreamDestroy(s);
  return bad ? 1 : 0;
}

int main() {
  const int nthreads = 6;
  std::vector<int> result(nthreads, -1);
  std::vector<std::thread> threads;
  for (int t = 0; t < nthreads; t++) threads.emplace_back([&result, t] { result[t] = worker(t); });
  for (auto& th : threads) th.join();
  for (int t = 0; t < nthreads; t++) EXPECT(result[t] == 0, "host thread %d failed", t);
  HIP_CHECK(hipDeviceSynchronize());
  return finish("host_threads");
}
