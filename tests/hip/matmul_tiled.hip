// Tiled matrix multiply with the tile size chosen at run time, both tiles in one dynamic shared
// allocation; sizes that are not multiples of the tile. Checked against a host product (integer
// valued inputs, so float results are exact).
#include <vector>
#include "hip_check.h"

__global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  extern __shared__ float tiles[];
  const int T = blockDim.x;  // square blocks: T x T
  float* As = tiles;
  float* Bs = tiles + T * T;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += T) {
    As[ty * T + tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
    Bs[ty * T + tx] = (col < N && k0 + ty < K) ? B[(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < T; k++) acc += As[ty * T + k] * Bs[k * T + tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

static void run(int M, int N, int K, int T) {
  std::vector<float> A(M * K), B(K * N), C(M * N), want(M * N, 0.0f);
  for (int i = 0; i < M * K; i++) A[i] = (float)((i * 7) % 13 - 6);
  for (int i = 0; i < K * N; i++) B[i] = (float)((i * 5) % 11 - 5);
  for (int i = 0; i < M; i++)
    for (int k = 0; k < K; k++)
      for (int j = 0; j < N; j++) want[i * N + j] += A[i * K + k] * B[k * N + j];
  float *dA, *dB, *dC;
  HIP_CHECK(hipMalloc(&dA, A.size() * 4));
  HIP_CHECK(hipMalloc(&dB, B.size() * 4));
  HIP_CHECK(hipMalloc(&dC, C.size() * 4));
  HIP_CHECK(hipMemcpy(dA, A.data(), A.size() * 4, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dB, B.data(), B.size() * 4, hipMemcpyHostToDevice));
  dim3 block(T, T), grid((N + T - 1) / T, (M + T - 1) / T);
  matmul<<<grid, block, 2 * T * T * sizeof(float)>>>(dA, dB, dC, M, N, K);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(C.data(), dC, C.size() * 4, hipMemcpyDeviceToHost));
  char what[64];
  snprintf(what, sizeof what, "C[%dx%d] = A*B (K %d, tile %d)", M, N, K, T);
  expect_equal(what, C.data(), want.data(), M * N);
  HIP_CHECK(hipFree(dA));
  HIP_CHECK(hipFree(dB));
  HIP_CHECK(hipFree(dC));
}

int main() {
  run(64, 64, 64, 16);
  run(100, 75, 130, 16);
  run(33, 129, 47, 8);
  run(128, 96, 200, 32);
  return finish("matmul_tiled");
}
