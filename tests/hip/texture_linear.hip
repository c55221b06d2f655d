// Textures over linear device memory (buffer images, read with typed buffer loads): tex1Dfetch
// through a texture object (hipResourceTypeLinear, element and normalized-float read modes)
// and through a texture reference bound with hipBindTexture.
#include "hip_check.h"

#include <vector>

texture<float, hipTextureType1D, hipReadModeElementType> lin_ref;

__global__ void fetch_obj(hipTextureObject_t t, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, i);
}

__global__ void fetch_obj4(hipTextureObject_t t, float4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float4>(t, n - 1 - i);
}

__global__ void fetch_ref(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch(lin_ref, i) * 2.0f;
}

int main() {
  const int N = 1000;
  std::vector<float> data(N);
  for (int i = 0; i < N; i++) data[i] = i * 0.75f - 100.0f;
  float *d, *out;
  HIP_CHECK(hipMalloc(&d, N * sizeof(float)));
  HIP_CHECK(hipMalloc(&out, N * 4 * sizeof(float)));
  HIP_CHECK(hipMemcpy(d, data.data(), N * sizeof(float), hipMemcpyHostToDevice));

  hipResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = hipResourceTypeLinear;
  res.res.linear.devPtr = d;
  res.res.linear.desc = hipCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = N * sizeof(float);
  hipTextureDesc td;
  memset(&td, 0, sizeof td);
  td.readMode = hipReadModeElementType;
  hipTextureObject_t t;
  HIP_CHECK(hipCreateTextureObject(&t, &res, &td, nullptr));
  hipLaunchKernelGGL(fetch_obj, dim3((N + 255) / 256), dim3(256), 0, 0, t, out, N);
  std::vector<float> got(N);
  HIP_CHECK(hipMemcpy(got.data(), out, N * sizeof(float), hipMemcpyDeviceToHost));
  expect_equal("tex1Dfetch object", got.data(), data.data(), N);
  HIP_CHECK(hipDestroyTextureObject(t));

  // Bytes read as normalized float4 (RGBA8 UNORM), fetched in reverse.
  const int M = N / 4;
  std::vector<unsigned char> bytes(M * 4);
  for (int i = 0; i < M * 4; i++) bytes[i] = (unsigned char)(i * 37);
  HIP_CHECK(hipMemcpy(d, bytes.data(), M * 4, hipMemcpyHostToDevice));
  res.res.linear.desc = hipCreateChannelDesc(8, 8, 8, 8, hipChannelFormatKindUnsigned);
  res.res.linear.sizeInBytes = M * 4;
  td.readMode = hipReadModeNormalizedFloat;
  HIP_CHECK(hipCreateTextureObject(&t, &res, &td, nullptr));
  hipLaunchKernelGGL(fetch_obj4, dim3((M + 255) / 256), dim3(256), 0, 0, t, (float4*)out, M);
  std::vector<float4> got4(M);
  HIP_CHECK(hipMemcpy(got4.data(), out, M * sizeof(float4), hipMemcpyDeviceToHost));
  for (int i = 0; i < M; i++) {
    const unsigned char* b = &bytes[(M - 1 - i) * 4];
    EXPECT(got4[i].x == b[0] / 255.0f && got4[i].y == b[1] / 255.0f &&
               got4[i].z == b[2] / 255.0f && got4[i].w == b[3] / 255.0f,
           "rgba8 fetch %d: (%g %g %g %g)", i, got4[i].x, got4[i].y, got4[i].z, got4[i].w);
  }
  HIP_CHECK(hipDestroyTextureObject(t));

  // A texture reference over linear memory.
  HIP_CHECK(hipMemcpy(d, data.data(), N * sizeof(float), hipMemcpyHostToDevice));
  hipChannelFormatDesc cd = hipCreateChannelDesc<float>();
  size_t offset = 0;
  HIP_CHECK(hipBindTexture(&offset, lin_ref, d, cd, N * sizeof(float)));
  hipLaunchKernelGGL(fetch_ref, dim3((N + 255) / 256), dim3(256), 0, 0, out, N);
  HIP_CHECK(hipMemcpy(got.data(), out, N * sizeof(float), hipMemcpyDeviceToHost));
  std::vector<float> want(N);
  for (int i = 0; i < N; i++) want[i] = data[i] * 2.0f;
  expect_equal("tex1Dfetch reference", got.data(), want.data(), N);
  HIP_CHECK(hipUnbindTexture(lin_ref));
  HIP_CHECK(hipFree(d));
  HIP_CHECK(hipFree(out));
  return finish("texture_linear");
}
