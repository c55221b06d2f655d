// 2-D and 3-D copies (sync and async, host<->device and device<->device) on pitched memory,
// checked element by element against the host's own sub-array copy.
#include <vector>
#include "hip_check.h"

int main() {
  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));

  // 2-D: a w x h window of a host matrix (row length hw) into pitched device memory and back.
  const int hw = 301, hh = 90, w = 250, h = 70, x0 = 17, y0 = 9;
  std::vector<int> host(hw * hh), back(w * h, -1), want(w * h);
  for (int i = 0; i < hw * hh; i++) host[i] = i * 3 + 1;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) want[y * w + x] = host[(y + y0) * hw + x + x0];
  int *pa, *pb;
  size_t pitch_a, pitch_b;
  HIP_CHECK(hipMallocPitch((void**)&pa, &pitch_a, w * sizeof(int), h));
  HIP_CHECK(hipMallocPitch((void**)&pb, &pitch_b, (w + 10) * sizeof(int), h));
  HIP_CHECK(hipMemcpy2D(pa, pitch_a, &host[y0 * hw + x0], hw * sizeof(int), w * sizeof(int), h,
                        hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy2D(pb, pitch_b, pa, pitch_a, w * sizeof(int), h, hipMemcpyDeviceToDevice));
  HIP_CHECK(hipMemcpy2D(back.data(), w * sizeof(int), pb, pitch_b, w * sizeof(int), h,
                        hipMemcpyDeviceToHost));
  expect_equal("memcpy2D sync", back.data(), want.data(), w * h);

  std::fill(back.begin(), back.end(), -1);
  HIP_CHECK(hipMemset2DAsync(pb, pitch_b, 0, w * sizeof(int), h, s));
  HIP_CHECK(hipMemcpy2DAsync(pb, pitch_b, pa, pitch_a, w * sizeof(int), h,
                             hipMemcpyDeviceToDevice, s));
  HIP_CHECK(hipMemcpy2DAsync(back.data(), w * sizeof(int), pb, pitch_b, w * sizeof(int), h,
                             hipMemcpyDeviceToHost, s));
  HIP_CHECK(hipStreamSynchronize(s));
  expect_equal("memcpy2D async", back.data(), want.data(), w * h);

  // 3-D: a host box into a hipMalloc3D allocation, device-to-device into a second, and back.
  const int nx = 37, ny = 11, nz = 6;
  std::vector<float> box(nx * ny * nz), box_back(nx * ny * nz, -1.0f);
  for (int i = 0; i < nx * ny * nz; i++) box[i] = 0.5f * i - 100.0f;
  hipExtent ext = make_hipExtent(nx * sizeof(float), ny, nz);
  hipPitchedPtr v1, v2;
  HIP_CHECK(hipMalloc3D(&v1, ext));
  HIP_CHECK(hipMalloc3D(&v2, ext));
  EXPECT(v1.pitch >= nx * sizeof(float), "3-D pitch %zu", v1.pitch);

  hipMemcpy3DParms up = {};
  up.srcPtr = make_hipPitchedPtr(box.data(), nx * sizeof(float), nx, ny);
  up.dstPtr = v1;
  up.extent = ext;
  up.kind = hipMemcpyHostToDevice;
  HIP_CHECK(hipMemcpy3D(&up));
  hipMemcpy3DParms d2d = {};
  d2d.srcPtr = v1;
  d2d.dstPtr = v2;
  d2d.extent = ext;
  d2d.kind = hipMemcpyDeviceToDevice;
  HIP_CHECK(hipMemcpy3D(&d2d));
  hipMemcpy3DParms down = {};
  down.srcPtr = v2;
  down.dstPtr = make_hipPitchedPtr(box_back.data(), nx * sizeof(float), nx, ny);
  down.extent = ext;
  down.kind = hipMemcpyDeviceToHost;
  HIP_CHECK(hipMemcpy3D(&down));
  expect_equal("memcpy3D sync", box_back.data(), box.data(), nx * ny * nz);

  // The same, asynchronously, copying only an inner sub-box with positions.
  std::fill(box_back.begin(), box_back.end(), -1.0f);
  HIP_CHECK(hipMemset3D(v2, 0, ext));
  hipMemcpy3DParms sub = {};
  sub.srcPtr = v1;
  sub.srcPos = make_hipPos(2 * sizeof(float), 1, 1);
  sub.dstPtr = v2;
  sub.dstPos = make_hipPos(2 * sizeof(float), 1, 1);
  sub.extent = make_hipExtent((nx - 4) * sizeof(float), ny - 2, nz - 2);
  sub.kind = hipMemcpyDeviceToDevice;
  HIP_CHECK(hipMemcpy3DAsync(&sub, s));
  down.srcPtr = v2;
  HIP_CHECK(hipMemcpy3DAsync(&down, s));
  HIP_CHECK(hipStreamSynchronize(s));
  std::vector<float> sub_want(nx * ny * nz, 0.0f);
  for (int z = 1; z < nz - 1; z++)
    for (int y = 1; y < ny - 1; y++)
      for (int x = 2; x < nx - 2; x++) sub_want[(z * ny + y) * nx + x] = box[(z * ny + y) * nx + x];
  expect_equal("memcpy3D async sub-box", box_back.data(), sub_want.data(), nx * ny * nz);

  HIP_CHECK(hipFree(pa));
  HIP_CHECK(hipFree(pb));
  HIP_CHECK(hipFree(v1.ptr));
  HIP_CHECK(hipFree(v2.ptr));
  HIP_CHECK(hipStreamDestroy(s));
  return finish("memcpy_2d_3d");
}
