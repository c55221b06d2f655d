// Dynamic shared memory: sizes chosen at launch (extern __shared__ and HIP_DYNAMIC_SHARED),
// used together with static shared memory, checked by per-block reversals and prefix sums.
#include <vector>
#include "hip_check.h"

__global__ void reverse_blocks(const int* in, int* out) {
  extern __shared__ int buf[];
  __shared__ int block_tag;
  int t = threadIdx.x, n = blockDim.x, base = blockIdx.x * n;
  if (t == 0) block_tag = blockIdx.x * 100000;
  buf[t] = in[base + t];
  __syncthreads();
  out[base + t] = buf[n - 1 - t] + block_tag;
}

// Hillis-Steele inclusive scan of a block, double-buffered in dynamic shared memory.
__global__ void block_scan(const unsigned* in, unsigned* out) {
  HIP_DYNAMIC_SHARED(unsigned, tmp)
  int t = threadIdx.x, n = blockDim.x, base = blockIdx.x * n;
  int pout = 0, pin = 1;
  tmp[t] = in[base + t];
  __syncthreads();
  for (int step = 1; step < n; step *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    unsigned v = tmp[pin * n + t];
    if (t >= step) v += tmp[pin * n + t - step];
    tmp[pout * n + t] = v;
    __syncthreads();
  }
  out[base + t] = tmp[pout * n + t];
}

// Touches every word of the largest dynamic allocation: writes, barrier, reads another stripe.
__global__ void touch_all(int words, unsigned* out) {
  extern __shared__ unsigned all[];
  for (int i = threadIdx.x; i < words; i += blockDim.x) all[i] = (unsigned)i * 3u + blockIdx.x;
  __syncthreads();
  unsigned sum = 0;
  for (int i = threadIdx.x; i < words; i += blockDim.x) sum += all[words - 1 - i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

int main() {
  const int sizes[] = {64, 100, 256, 1024};
  for (int bs : sizes) {
    const int blocks = 13, n = bs * blocks;
    std::vector<int> in(n), out(n), want(n);
    for (int i = 0; i < n; i++) in[i] = i * 7 - 3;
    for (int b = 0; b < blocks; b++)
      for (int t = 0; t < bs; t++) want[b * bs + t] = in[b * bs + bs - 1 - t] + b * 100000;
    int *di, *dout;
    HIP_CHECK(hipMalloc(&di, n * sizeof(int)));
    HIP_CHECK(hipMalloc(&dout, n * sizeof(int)));
    HIP_CHECK(hipMemcpy(di, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
    reverse_blocks<<<blocks, bs, bs * sizeof(int)>>>(di, dout);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(out.data(), dout, n * sizeof(int), hipMemcpyDeviceToHost));
    expect_equal("reverse", out.data(), want.data(), n);

    std::vector<unsigned> uin(n), uout(n), uwant(n);
    for (int i = 0; i < n; i++) uin[i] = (unsigned)(i * 2654435761u) >> 20;
    for (int b = 0; b < blocks; b++) {
      unsigned acc = 0;
      for (int t = 0; t < bs; t++) uwant[b * bs + t] = acc += uin[b * bs + t];
    }
    HIP_CHECK(hipMemcpy(di, uin.data(), n * sizeof(int), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(block_scan, dim3(blocks), dim3(bs), 2 * bs * sizeof(unsigned), 0,
                       (const unsigned*)di, (unsigned*)dout);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(uout.data(), dout, n * sizeof(int), hipMemcpyDeviceToHost));
    expect_equal("scan", uout.data(), uwant.data(), n);
    HIP_CHECK(hipFree(di));
    HIP_CHECK(hipFree(dout));
  }

  // The largest dynamic allocation the device offers (sharedMemPerBlock) still works.
  hipDeviceProp_t p;
  HIP_CHECK(hipGetDeviceProperties(&p, 0));
  const int bs = 256, words = (int)(p.sharedMemPerBlock / sizeof(int));
  EXPECT(words >= bs, "sharedMemPerBlock %zu", p.sharedMemPerBlock);
  unsigned* dsum;
  HIP_CHECK(hipMalloc(&dsum, 2 * bs * sizeof(unsigned)));
  touch_all<<<2, bs, words * sizeof(unsigned)>>>(words, dsum);
  HIP_CHECK(hipGetLastError());
  std::vector<unsigned> sums(2 * bs), swant(2 * bs);
  HIP_CHECK(hipMemcpy(sums.data(), dsum, sums.size() * sizeof(unsigned), hipMemcpyDeviceToHost));
  for (int b = 0; b < 2; b++)
    for (int t = 0; t < bs; t++) {
      unsigned acc = 0;
      for (int i = t; i < words; i += bs) acc += (unsigned)(words - 1 - i) * 3u + b;
      swant[b * bs + t] = acc;
    }
  expect_equal("full LDS", sums.data(), swant.data(), sums.size());
  HIP_CHECK(hipFree(dsum));
  return finish("dynamic_shared");
}
