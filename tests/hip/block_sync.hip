// Work-group barriers: __syncthreads between phases that read other waves' shared-memory writes,
// cooperative groups this_thread_block().sync() and thread_rank(), tiled partitions, and
// __syncthreads_count/_and/_or, checked against the host.
#include "hip_check.h"  // hip_runtime.h must come before the cooperative groups header
#include <hip/hip_cooperative_groups.h>
#include <vector>

namespace cg = cooperative_groups;

// Many rounds of "every item writes, barrier, every item reads a neighbour from another wave".
__global__ void rotate_rounds(const int* in, int* out, int rounds) {
  __shared__ int buf[1024];
  int t = threadIdx.x, n = blockDim.x;
  int v = in[blockIdx.x * n + t];
  for (int r = 0; r < rounds; r++) {
    buf[t] = v;
    __syncthreads();
    v = buf[(t + 67) % n] + r;
    __syncthreads();
  }
  out[blockIdx.x * n + t] = v;
}

__global__ void cg_rotate(const int* in, int* out, int rounds) {
  __shared__ int buf[1024];
  cg::thread_block block = cg::this_thread_block();
  unsigned t = block.thread_rank(), n = block.size();
  int v = in[blockIdx.x * n + t];
  for (int r = 0; r < rounds; r++) {
    buf[t] = v;
    block.sync();
    v = buf[(t + 67) % n] * 3 - r;
    cg::sync(block);
  }
  out[blockIdx.x * n + t] = v;
}

__global__ void sync_votes(const int* in, int* out) {
  int t = threadIdx.x;
  int v = in[blockIdx.x * blockDim.x + t];
  int c = __syncthreads_count(v > 0);
  int a = __syncthreads_and(v > -100);
  int o = __syncthreads_or(v == 42);
  out[(blockIdx.x * blockDim.x + t) * 3 + 0] = c;
  out[(blockIdx.x * blockDim.x + t) * 3 + 1] = a != 0;
  out[(blockIdx.x * blockDim.x + t) * 3 + 2] = o != 0;
}

// A 2-D block where thread_rank() must be x + y * dim.x.
__global__ void rank2d(int* out) {
  cg::thread_block b = cg::this_thread_block();
  int lin = threadIdx.x + threadIdx.y * blockDim.x;
  out[blockIdx.x * b.size() + lin] = (int)b.thread_rank() * 10 + (b.group_index().x == blockIdx.x);
}

int main() {
  const int bs = 320, blocks = 5, n = bs * blocks, rounds = 9;
  std::vector<int> in(n), out(n), want(n);
  for (int i = 0; i < n; i++) in[i] = (i * 131) % 257 - 128;
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, 3 * n * sizeof(int)));
  HIP_CHECK(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));

  for (int pass = 0; pass < 2; pass++) {
    if (pass == 0)
      rotate_rounds<<<blocks, bs>>>(din, dout, rounds);
    else
      cg_rotate<<<blocks, bs>>>(din, dout, rounds);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(out.data(), dout, n * sizeof(int), hipMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
      std::vector<int> v(in.begin() + b * bs, in.begin() + (b + 1) * bs), nv(bs);
      for (int r = 0; r < rounds; r++) {
        for (int t = 0; t < bs; t++)
          nv[t] = pass == 0 ? v[(t + 67) % bs] + r : v[(t + 67) % bs] * 3 - r;
        v = nv;
      }
      for (int t = 0; t < bs; t++) want[b * bs + t] = v[t];
    }
    expect_equal(pass == 0 ? "__syncthreads rounds" : "cooperative groups sync rounds",
                 out.data(), want.data(), n);
  }

  in[bs + 17] = 42;  // block 1 has a 42, the others do not
  in[2 * bs + 5] = -150;  // block 2 fails the "and"
  HIP_CHECK(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  sync_votes<<<blocks, bs>>>(din, dout);
  HIP_CHECK(hipGetLastError());
  std::vector<int> votes(3 * n), wv(3 * n);
  HIP_CHECK(hipMemcpy(votes.data(), dout, 3 * n * sizeof(int), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    int c = 0, a = 1, o = 0;
    for (int t = 0; t < bs; t++) {
      int v = in[b * bs + t];
      c += v > 0;
      a &= v > -100;
      o |= v == 42;
    }
    for (int t = 0; t < bs; t++) {
      wv[(b * bs + t) * 3 + 0] = c;
      wv[(b * bs + t) * 3 + 1] = a;
      wv[(b * bs + t) * 3 + 2] = o;
    }
  }
  expect_equal("__syncthreads_count/and/or", votes.data(), wv.data(), 3 * n);

  rank2d<<<3, dim3(16, 12)>>>(dout);
  HIP_CHECK(hipGetLastError());
  std::vector<int> ranks(3 * 192), wr(3 * 192);
  HIP_CHECK(hipMemcpy(ranks.data(), dout, ranks.size() * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < 3 * 192; i++) wr[i] = (i % 192) * 10 + 1;
  expect_equal("thread_rank in 2-D blocks", ranks.data(), wr.data(), ranks.size());
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  return finish("block_sync");
}
