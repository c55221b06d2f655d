// Reductions: a two-pass shared-memory tree reduction (sum of ints and doubles, max of floats),
// a wave-shuffle reduction finished with atomics, over sizes with partial blocks.
#include <algorithm>
#include <cstdint>
#include <vector>
#include "hip_check.h"

template <typename T, typename Op>
__global__ void reduce_pass(const T* in, T* out, size_t n, T identity, Op op) {
  extern __shared__ unsigned char smem[];
  T* s = reinterpret_cast<T*>(smem);
  unsigned t = threadIdx.x;
  size_t i = blockIdx.x * (size_t)blockDim.x * 2 + t;
  T v = identity;
  if (i < n) v = in[i];
  if (i + blockDim.x < n) v = op(v, in[i + blockDim.x]);
  s[t] = v;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] = op(s[t], s[t + stride]);
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

struct Add {
  template <typename T>
  __host__ __device__ T operator()(T a, T b) const { return a + b; }
};
struct Max {
  template <typename T>
  __host__ __device__ T operator()(T a, T b) const { return a > b ? a : b; }
};

// Shuffle reduction in each wave, one atomic per wave.
__global__ void wave_sum(const int* in, unsigned long long* total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  long long v = i < n ? in[i] : 0;
  for (int m = 32; m > 0; m >>= 1) v += __shfl_xor(v, m);
  if (__lane_id() == 0) atomicAdd(total, (unsigned long long)v);
}

template <typename T, typename Op>
static T device_reduce(const std::vector<T>& h, T identity, Op op, int bs) {
  size_t n = h.size();
  T *a, *b;
  HIP_CHECK(hipMalloc(&a, n * sizeof(T)));
  HIP_CHECK(hipMalloc(&b, ((n + 2 * bs - 1) / (2 * bs) + 1) * sizeof(T)));
  HIP_CHECK(hipMemcpy(a, h.data(), n * sizeof(T), hipMemcpyHostToDevice));
  while (n > 1) {
    size_t blocks = (n + 2 * bs - 1) / (2 * bs);
    reduce_pass<T, Op><<<blocks, bs, bs * sizeof(T)>>>(a, b, n, identity, op);
    HIP_CHECK(hipGetLastError());
    std::swap(a, b);
    n = blocks;
  }
  T r;
  HIP_CHECK(hipMemcpy(&r, a, sizeof(T), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(a));
  HIP_CHECK(hipFree(b));
  return r;
}

int main() {
  const size_t sizes[] = {1, 63, 1000, 65536, 1000003};
  for (size_t n : sizes) {
    std::vector<int> vi(n);
    std::vector<double> vd(n);
    std::vector<float> vf(n);
    for (size_t i = 0; i < n; i++) {
      vi[i] = (int)((i * 2654435761u) % 2001) - 1000;
      vd[i] = vi[i] * 0.125;  // exact in any order
      vf[i] = (float)((i * 40503u) % 100000) * 0.01f - 300.0f;
    }
    long long si = 0;
    double sd = 0;
    float mf = -INFINITY;
    for (size_t i = 0; i < n; i++) {
      si += vi[i];
      sd += vd[i];
      mf = std::max(mf, vf[i]);
    }
    int gi = device_reduce<int>(vi, 0, Add{}, 256);
    EXPECT(gi == (int)si, "int sum of %zu: %d want %lld", n, gi, si);
    double gd = device_reduce<double>(vd, 0.0, Add{}, 128);
    EXPECT(gd == sd, "double sum of %zu: %.17g want %.17g", n, gd, sd);
    float gf = device_reduce<float>(vf, -INFINITY, Max{}, 512);
    EXPECT(gf == mf, "float max of %zu: %g want %g", n, gf, mf);

    int* d;
    unsigned long long* tot;
    HIP_CHECK(hipMalloc(&d, n * sizeof(int)));
    HIP_CHECK(hipMalloc(&tot, sizeof *tot));
    HIP_CHECK(hipMemcpy(d, vi.data(), n * sizeof(int), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(tot, 0, sizeof *tot));
    wave_sum<<<(n + 255) / 256, 256>>>(d, tot, (int)n);
    HIP_CHECK(hipGetLastError());
    unsigned long long t;
    HIP_CHECK(hipMemcpy(&t, tot, sizeof t, hipMemcpyDeviceToHost));
    EXPECT((long long)t == si, "wave shuffle sum of %zu: %lld want %lld", n, (long long)t, si);
    HIP_CHECK(hipFree(d));
    HIP_CHECK(hipFree(tot));
  }
  return finish("reduction");
}
