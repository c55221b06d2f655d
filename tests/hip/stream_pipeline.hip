// A three-stage pipeline over three streams: stage 1 uploads and transforms a chunk, stage 2
// (another stream, ordered by an event) copies it device-to-device and transforms it again,
// stage 3 (a third stream) downloads it; events time the device-to-device copies.
#include <vector>
#include "hip_check.h"

__global__ void affine(float* d, int n, float a, float b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = d[i] * a + b;
}

int main() {
  const int chunks = 6, n = 1 << 16;
  hipStream_t st[3];
  for (auto& s : st) HIP_CHECK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
  float* host;
  HIP_CHECK(hipHostMalloc(&host, (size_t)chunks * n * sizeof(float)));
  for (int i = 0; i < chunks * n; i++) host[i] = (float)(i % 1000) * 0.5f;
  std::vector<float> out((size_t)chunks * n, -1.0f);
  float *stage1, *stage2;
  HIP_CHECK(hipMalloc(&stage1, (size_t)chunks * n * sizeof(float)));
  HIP_CHECK(hipMalloc(&stage2, (size_t)chunks * n * sizeof(float)));
  hipEvent_t done1[chunks], done2[chunks], t0[chunks], t1[chunks];
  for (int c = 0; c < chunks; c++) {
    HIP_CHECK(hipEventCreateWithFlags(&done1[c], hipEventDisableTiming));
    HIP_CHECK(hipEventCreateWithFlags(&done2[c], hipEventDisableTiming));
    HIP_CHECK(hipEventCreate(&t0[c]));
    HIP_CHECK(hipEventCreate(&t1[c]));
  }
  for (int c = 0; c < chunks; c++) {
    float* s1 = stage1 + (size_t)c * n;
    float* s2 = stage2 + (size_t)c * n;
    HIP_CHECK(hipMemcpyAsync(s1, host + (size_t)c * n, n * sizeof(float), hipMemcpyHostToDevice,
                             st[0]));
    affine<<<n / 256, 256, 0, st[0]>>>(s1, n, 2.0f, (float)c);
    HIP_CHECK(hipEventRecord(done1[c], st[0]));

    HIP_CHECK(hipStreamWaitEvent(st[1], done1[c], 0));
    HIP_CHECK(hipEventRecord(t0[c], st[1]));
    HIP_CHECK(hipMemcpyAsync(s2, s1, n * sizeof(float), hipMemcpyDeviceToDevice, st[1]));
    HIP_CHECK(hipEventRecord(t1[c], st[1]));
    affine<<<n / 128, 128, 0, st[1]>>>(s2, n, -1.0f, 3.0f);
    HIP_CHECK(hipEventRecord(done2[c], st[1]));

    HIP_CHECK(hipStreamWaitEvent(st[2], done2[c], 0));
    HIP_CHECK(hipMemcpyAsync(out.data() + (size_t)c * n, s2, n * sizeof(float),
                             hipMemcpyDeviceToHost, st[2]));
  }
  HIP_CHECK(hipStreamSynchronize(st[2]));
  for (int c = 0; c < chunks; c++) {
    int bad = 0;
    for (int i = 0; i < n; i++) {
      float want = -(host[(size_t)c * n + i] * 2.0f + (float)c) + 3.0f;
      if (out[(size_t)c * n + i] != want && bad++ < 3)
        fprintf(stderr, "chunk %d item %d: got %g want %g\n", c, i, out[(size_t)c * n + i], want);
    }
    if (bad) g_failures++;
    float ms = -1;
    HIP_CHECK(hipEventElapsedTime(&ms, t0[c], t1[c]));
    EXPECT(ms >= 0 && ms < 10000, "chunk %d device-to-device copy took %f ms", c, ms);
  }
  for (int c = 0; c < chunks; c++) {
    HIP_CHECK(hipEventDestroy(done1[c]));
    HIP_CHECK(hipEventDestroy(done2[c]));
    HIP_CHECK(hipEventDestroy(t0[c]));
    HIP_CHECK(hipEventDestroy(t1[c]));
  }
  for (auto& s : st) HIP_CHECK(hipStreamDestroy(s));
  HIP_CHECK(hipFree(stage1));
  HIP_CHECK(hipFree(stage2));
  HIP_CHECK(hipHostFree(host));
  return finish("stream_pipeline");
}
