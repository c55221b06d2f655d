// Matrix products on the matrix cores (CDNA only: built for gfx908 and gfx90a). One wave computes
// one output tile with __builtin_amdgcn_mfma_*: f32 32x32x2 and f16 16x16x16 on both targets, and
// f64 16x16x4 on gfx90a. Inputs are small integers, so every product and partial sum is exact and
// the result equals the host product whatever order the hardware adds in.
// Register layouts (AMD's Matrix Instruction Calculator): for lane l and result register r,
//   32x32x2f32:  A lane 32k+i, B lane 32k+j; D[8*(r/4) + 4*(l/32) + r%4][l%32]
//   16x16x16f16: A lane 16*(k/4)+i, element k%4 (B alike); D[4*(l/16) + r][l%16]
//   16x16x4f64:  A lane 16k+i (B alike); D[4*r + l/16][l%16]
#include <string>
#include <vector>
#include "hip_check.h"

typedef float floatx16 __attribute__((ext_vector_type(16)));
typedef float floatx4 __attribute__((ext_vector_type(4)));
typedef _Float16 halfx4 __attribute__((ext_vector_type(4)));
typedef double doublex4 __attribute__((ext_vector_type(4)));

// C[M][N] = A[M][K] * B[K][N], row-major; one 64-lane block per 32x32 tile.
__global__ void gemm_f32(const float* A, const float* B, float* C, int N, int K) {
#if defined(__HIP_DEVICE_COMPILE__) && (defined(__gfx908__) || defined(__gfx90a__))
  int l = threadIdx.x, i0 = blockIdx.y * 32, j0 = blockIdx.x * 32;
  floatx16 acc = {};
  for (int k0 = 0; k0 < K; k0 += 2) {
    float a = A[(i0 + l % 32) * K + k0 + l / 32];
    float b = B[(k0 + l / 32) * N + j0 + l % 32];
    acc = __builtin_amdgcn_mfma_f32_32x32x2f32(a, b, acc, 0, 0, 0);
  }
  for (int r = 0; r < 16; r++) C[(i0 + 8 * (r / 4) + 4 * (l / 32) + r % 4) * N + j0 + l % 32] = acc[r];
#endif
}

// The same with f16 inputs and f32 results; 16x16 tiles.
__global__ void gemm_f16(const _Float16* A, const _Float16* B, float* C, int N, int K) {
#if defined(__HIP_DEVICE_COMPILE__) && (defined(__gfx908__) || defined(__gfx90a__))
  int l = threadIdx.x, i0 = blockIdx.y * 16, j0 = blockIdx.x * 16;
  floatx4 acc = {};
  for (int k0 = 0; k0 < K; k0 += 16) {
    halfx4 a, b;
    for (int e = 0; e < 4; e++) {
      int k = k0 + 4 * (l / 16) + e;
      a[e] = A[(i0 + l % 16) * K + k];
      b[e] = B[k * N + j0 + l % 16];
    }
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, acc, 0, 0, 0);
  }
  for (int r = 0; r < 4; r++) C[(i0 + 4 * (l / 16) + r) * N + j0 + l % 16] = acc[r];
#endif
}

// f64 (gfx90a's matrix cores); 16x16 tiles.
__global__ void gemm_f64(const double* A, const double* B, double* C, int N, int K) {
#if defined(__HIP_DEVICE_COMPILE__) && defined(__gfx90a__)
  int l = threadIdx.x, i0 = blockIdx.y * 16, j0 = blockIdx.x * 16;
  doublex4 acc = {};
  for (int k0 = 0; k0 < K; k0 += 4) {
    double a = A[(i0 + l % 16) * K + k0 + l / 16];
    double b = B[(k0 + l / 16) * N + j0 + l % 16];
    acc = __builtin_amdgcn_mfma_f64_16x16x4f64(a, b, acc, 0, 0, 0);
  }
  for (int r = 0; r < 4; r++) C[(i0 + 4 * r + l / 16) * N + j0 + l % 16] = acc[r];
#endif
}

// Runs `kernel` on M x N x K inputs of type In (results Out) and compares with the host.
template <typename In, typename Out, typename Kernel>
static void run(const char* what, Kernel kernel, int tile, int M, int N, int K) {
  std::vector<In> A(M * K), B(K * N);
  std::vector<Out> C(M * N), want(M * N, 0);
  for (int i = 0; i < M * K; i++) A[i] = (In)(float)((i * 7) % 13 - 6);
  for (int i = 0; i < K * N; i++) B[i] = (In)(float)((i * 5) % 11 - 5);
  for (int i = 0; i < M; i++)
    for (int k = 0; k < K; k++)
      for (int j = 0; j < N; j++)
        want[i * N + j] += (Out)(float)A[i * K + k] * (Out)(float)B[k * N + j];
  In *dA, *dB;
  Out* dC;
  HIP_CHECK(hipMalloc(&dA, A.size() * sizeof(In)));
  HIP_CHECK(hipMalloc(&dB, B.size() * sizeof(In)));
  HIP_CHECK(hipMalloc(&dC, C.size() * sizeof(Out)));
  HIP_CHECK(hipMemcpy(dA, A.data(), A.size() * sizeof(In), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dB, B.data(), B.size() * sizeof(In), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(dC, 0xff, C.size() * sizeof(Out)));
  kernel<<<dim3(N / tile, M / tile), 64>>>(dA, dB, dC, N, K);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(C.data(), dC, C.size() * sizeof(Out), hipMemcpyDeviceToHost));
  expect_equal(what, C.data(), want.data(), M * N);
  HIP_CHECK(hipFree(dA));
  HIP_CHECK(hipFree(dB));
  HIP_CHECK(hipFree(dC));
}

int main() {
  hipDeviceProp_t prop;
  HIP_CHECK(hipGetDeviceProperties(&prop, 0));
  std::string arch = prop.gcnArchName;
  EXPECT(arch.rfind("gfx908", 0) == 0 || arch.rfind("gfx90a", 0) == 0, "a CDNA device, got %s",
         arch.c_str());
  run<float, float>("f32 32x32x2: C[64x96] = A*B (K 40)", gemm_f32, 32, 64, 96, 40);
  run<_Float16, float>("f16 16x16x16: C[48x32] = A*B (K 64)", gemm_f16, 16, 48, 32, 64);
  if (arch.rfind("gfx90a", 0) == 0)
    run<double, double>("f64 16x16x4: C[32x48] = A*B (K 28)", gemm_f64, 16, 32, 48, 28);
  return finish("mfma");
}
