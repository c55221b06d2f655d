// 2-D and 3-D copies (sync and async, host<->device and device<->device) between pitched
// layouts, checked element by element against the host's own sub-array copy; then the pitched
// allocators hipMallocPitch and hipMalloc3D, filled by a kernel and by hipMemset2D/3D.
#include <vector>
#include "hip_check.h"

__global__ void fill_pitched(float* base, size_t pitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    float* row = (float*)((char*)base + y * pitch);
    row[x] = (float)(y * 1000 + x);
  }
}

static void copies_2d(hipStream_t s) {
  // A w x h window of a host matrix (row length hw) into device rows of pitch_a bytes, then
  // device-to-device into rows of pitch_b bytes, and back.
  const int hw = 301, hh = 90, w = 250, h = 70, x0 = 17, y0 = 9;
  const size_t pitch_a = 1024 + 12, pitch_b = 1280;
  std::vector<int> host(hw * hh), back(w * h, -1), want(w * h);
  for (int i = 0; i < hw * hh; i++) host[i] = i * 3 + 1;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) want[y * w + x] = host[(y + y0) * hw + x + x0];
  char *pa, *pb;
  HIP_CHECK(hipMalloc(&pa, pitch_a * h));
  HIP_CHECK(hipMalloc(&pb, pitch_b * h));
  HIP_CHECK(hipMemcpy2D(pa, pitch_a, &host[y0 * hw + x0], hw * sizeof(int), w * sizeof(int), h,
                        hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy2D(pb, pitch_b, pa, pitch_a, w * sizeof(int), h, hipMemcpyDeviceToDevice));
  HIP_CHECK(hipMemcpy2D(back.data(), w * sizeof(int), pb, pitch_b, w * sizeof(int), h,
                        hipMemcpyDeviceToHost));
  expect_equal("memcpy2D sync", back.data(), want.data(), w * h);

  std::fill(back.begin(), back.end(), -1);
  HIP_CHECK(hipMemsetAsync(pb, 0, pitch_b * h, s));
  HIP_CHECK(hipMemcpy2DAsync(pb, pitch_b, pa, pitch_a, w * sizeof(int), h,
                             hipMemcpyDeviceToDevice, s));
  HIP_CHECK(hipMemcpy2DAsync(back.data(), w * sizeof(int), pb, pitch_b, w * sizeof(int), h,
                             hipMemcpyDeviceToHost, s));
  HIP_CHECK(hipStreamSynchronize(s));
  expect_equal("memcpy2D async", back.data(), want.data(), w * h);
  HIP_CHECK(hipFree(pa));
  HIP_CHECK(hipFree(pb));
}

static void copies_3d(hipStream_t s) {
  // A host box into a device box with padded rows, device-to-device into a second, and back.
  const int nx = 37, ny = 11, nz = 6;
  const size_t pitch = 256, slice_rows = ny + 2;  // padded rows and padded slices
  std::vector<float> box(nx * ny * nz), box_back(nx * ny * nz, -1.0f);
  for (int i = 0; i < nx * ny * nz; i++) box[i] = 0.5f * i - 100.0f;
  hipExtent ext = make_hipExtent(nx * sizeof(float), ny, nz);
  char *v1, *v2;
  HIP_CHECK(hipMalloc(&v1, pitch * slice_rows * nz));
  HIP_CHECK(hipMalloc(&v2, pitch * slice_rows * nz));
  hipPitchedPtr p1 = make_hipPitchedPtr(v1, pitch, nx, slice_rows);
  hipPitchedPtr p2 = make_hipPitchedPtr(v2, pitch, nx, slice_rows);

  hipMemcpy3DParms up = {};
  up.srcPtr = make_hipPitchedPtr(box.data(), nx * sizeof(float), nx, ny);
  up.dstPtr = p1;
  up.extent = ext;
  up.kind = hipMemcpyHostToDevice;
  HIP_CHECK(hipMemcpy3D(&up));
  hipMemcpy3DParms d2d = {};
  d2d.srcPtr = p1;
  d2d.dstPtr = p2;
  d2d.extent = ext;
  d2d.kind = hipMemcpyDeviceToDevice;
  HIP_CHECK(hipMemcpy3D(&d2d));
  hipMemcpy3DParms down = {};
  down.srcPtr = p2;
  down.dstPtr = make_hipPitchedPtr(box_back.data(), nx * sizeof(float), nx, ny);
  down.extent = ext;
  down.kind = hipMemcpyDeviceToHost;
  HIP_CHECK(hipMemcpy3D(&down));
  expect_equal("memcpy3D sync", box_back.data(), box.data(), nx * ny * nz);

  // Asynchronously, only an inner sub-box (positions on both sides) into a zeroed box.
  std::fill(box_back.begin(), box_back.end(), -1.0f);
  HIP_CHECK(hipMemsetAsync(v2, 0, pitch * slice_rows * nz, s));
  hipMemcpy3DParms sub = {};
  sub.srcPtr = p1;
  sub.srcPos = make_hipPos(2 * sizeof(float), 1, 1);
  sub.dstPtr = p2;
  sub.dstPos = make_hipPos(2 * sizeof(float), 1, 1);
  sub.extent = make_hipExtent((nx - 4) * sizeof(float), ny - 2, nz - 2);
  sub.kind = hipMemcpyDeviceToDevice;
  HIP_CHECK(hipMemcpy3DAsync(&sub, s));
  HIP_CHECK(hipMemcpy3DAsync(&down, s));
  HIP_CHECK(hipStreamSynchronize(s));
  std::vector<float> sub_want(nx * ny * nz, 0.0f);
  for (int z = 1; z < nz - 1; z++)
    for (int y = 1; y < ny - 1; y++)
      for (int x = 2; x < nx - 2; x++) sub_want[(z * ny + y) * nx + x] = box[(z * ny + y) * nx + x];
  expect_equal("memcpy3D async sub-box", box_back.data(), sub_want.data(), nx * ny * nz);
  HIP_CHECK(hipFree(v1));
  HIP_CHECK(hipFree(v2));
}

static void pitched_allocators() {
  const int w = 333, h = 77;
  float* pd = nullptr;
  size_t pitch = 0;
  HIP_CHECK(hipMallocPitch((void**)&pd, &pitch, w * sizeof(float), h));
  EXPECT(pitch >= w * sizeof(float), "pitch %zu < row %zu", pitch, w * sizeof(float));
  dim3 blk(32, 8);
  dim3 grd((w + blk.x - 1) / blk.x, (h + blk.y - 1) / blk.y);
  fill_pitched<<<grd, blk>>>(pd, pitch, w, h);
  HIP_CHECK(hipGetLastError());
  std::vector<float> out(w * h, -1.0f), want(w * h);
  HIP_CHECK(hipMemcpy2D(out.data(), w * sizeof(float), pd, pitch, w * sizeof(float), h,
                        hipMemcpyDeviceToHost));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) want[y * w + x] = (float)(y * 1000 + x);
  expect_equal("hipMallocPitch + kernel", out.data(), want.data(), w * h);
  HIP_CHECK(hipFree(pd));

  const int nx = 20, ny = 9, nz = 4;
  hipExtent ext = make_hipExtent(nx, ny, nz);  // bytes
  hipPitchedPtr v;
  HIP_CHECK(hipMalloc3D(&v, ext));
  EXPECT(v.pitch >= (size_t)nx, "hipMalloc3D pitch %zu", v.pitch);
  HIP_CHECK(hipMemset3D(v, 0x3c, ext));
  std::vector<unsigned char> bytes(nx * ny * nz, 0), bwant(nx * ny * nz, 0x3c);
  hipMemcpy3DParms down = {};
  down.srcPtr = v;
  down.dstPtr = make_hipPitchedPtr(bytes.data(), nx, nx, ny);
  down.extent = ext;
  down.kind = hipMemcpyDeviceToHost;
  HIP_CHECK(hipMemcpy3D(&down));
  expect_equal("hipMalloc3D + hipMemset3D", bytes.data(), bwant.data(), bytes.size());
  HIP_CHECK(hipFree(v.ptr));
}

int main() {
  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));
  copies_2d(s);
  copies_3d(s);
  pitched_allocators();
  HIP_CHECK(hipStreamDestroy(s));
  return finish("memcpy_2d_3d");
}
