// Template kernels: instantiated for several element types, with a functor type parameter and a
// non-type (block size) parameter, each checked against the same template run on the host.
#include <cstdint>
#include <vector>
#include "hip_check.h"

struct Square {
  template <typename T>
  __host__ __device__ T operator()(T v) const { return v * v; }
};
struct AffineOp {
  int a, b;
  template <typename T>
  __host__ __device__ T operator()(T v) const { return v * (T)a + (T)b; }
};

template <typename T, typename Op>
__global__ void transform(const T* in, T* out, int n, Op op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = op(in[i]);
}

// Block-size as a template parameter: a static shared array of that size, summed per block.
template <typename T, int BS>
__global__ void block_sum(const T* in, T* out) {
  __shared__ T s[BS];
  s[threadIdx.x] = in[blockIdx.x * BS + threadIdx.x];
  __syncthreads();
  for (int stride = BS / 2; stride > 0; stride /= 2) {
    if ((int)threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

template <typename T, typename Op>
static void check_transform(const char* name, Op op) {
  const int n = 3001;
  std::vector<T> in(n), out(n), want(n);
  for (int i = 0; i < n; i++) in[i] = (T)(i % 97) - (T)13;
  for (int i = 0; i < n; i++) want[i] = op(in[i]);
  T *di, *dout;
  HIP_CHECK(hipMalloc(&di, n * sizeof(T)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(T)));
  HIP_CHECK(hipMemcpy(di, in.data(), n * sizeof(T), hipMemcpyHostToDevice));
  transform<T, Op><<<(n + 127) / 128, 128>>>(di, dout, n, op);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(out.data(), dout, n * sizeof(T), hipMemcpyDeviceToHost));
  expect_equal(name, out.data(), want.data(), n);
  HIP_CHECK(hipFree(di));
  HIP_CHECK(hipFree(dout));
}

template <typename T, int BS>
static void check_block_sum(const char* name) {
  const int blocks = 9, n = blocks * BS;
  std::vector<T> in(n), out(blocks), want(blocks, (T)0);
  for (int i = 0; i < n; i++) in[i] = (T)((i * 5) % 11);
  for (int i = 0; i < n; i++) want[i / BS] += in[i];
  T *di, *dout;
  HIP_CHECK(hipMalloc(&di, n * sizeof(T)));
  HIP_CHECK(hipMalloc(&dout, blocks * sizeof(T)));
  HIP_CHECK(hipMemcpy(di, in.data(), n * sizeof(T), hipMemcpyHostToDevice));
  block_sum<T, BS><<<blocks, BS>>>(di, dout);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(out.data(), dout, blocks * sizeof(T), hipMemcpyDeviceToHost));
  expect_equal(name, out.data(), want.data(), blocks);
  HIP_CHECK(hipFree(di));
  HIP_CHECK(hipFree(dout));
}

int main() {
  check_transform<int>("square<int>", Square{});
  check_transform<float>("square<float>", Square{});
  check_transform<double>("square<double>", Square{});
  check_transform<int64_t>("affine<int64>", AffineOp{1000003, -7});
  check_transform<int16_t>("affine<int16>", AffineOp{3, 5});
  check_transform<uint8_t>("affine<uint8>", AffineOp{7, 1});
  check_block_sum<int, 64>("block_sum<int,64>");
  check_block_sum<float, 128>("block_sum<float,128>");
  check_block_sum<double, 256>("block_sum<double,256>");
  check_block_sum<uint64_t, 512>("block_sum<u64,512>");
  return finish("templates");
}
