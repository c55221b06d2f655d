// Texture references (hipBindTextureToArray, tex2D / tex2DLayered through `texture<>`),
// surface objects (surf1Dwrite, surf2Dwrite/surf2Dread, surf3Dwrite on arrays) and mipmapped
// arrays as HIP 5.2 offers them (the runtime API refuses them; the driver API creates them and
// hands out level arrays). HIP 5.2's surface functions pass every value through a float4
// (amd_surface_functions.h converts integers numerically), so the surfaces here hold floats.
#include "hip_check.h"

#include <vector>

texture<float, hipTextureType2D, hipReadModeElementType> tex2d_ref;
texture<float4, hipTextureType2DLayered, hipReadModeElementType> tex2dl_ref;

__global__ void read_ref2d(float* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w) out[y * w + x] = tex2D(tex2d_ref, x + 0.5f, y + 0.5f);
}

__global__ void read_ref2dl(float4* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, l = blockIdx.z;
  if (x < w) out[(l * h + y) * w + x] = tex2DLayered(tex2dl_ref, x + 0.5f, y + 0.5f, l);
}

__global__ void surf_write2d(hipSurfaceObject_t s, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w) surf2Dwrite(make_float4(x, y, x * y, -1.0f - x), s, x * (int)sizeof(float4), y);
}

// Reads each texel, adds 0.5 to it and writes it to the mirrored column.
__global__ void surf_flip2d(hipSurfaceObject_t src, hipSurfaceObject_t dst, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= w) return;
  float4 v;
  surf2Dread(&v, src, x * (int)sizeof(float4), y);
  v.x += 0.5f;
  surf2Dwrite(v, dst, (w - 1 - x) * (int)sizeof(float4), y);
}

__global__ void surf_write1d(hipSurfaceObject_t s, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < w) surf1Dwrite((float)(x * 3 - 50), s, x * (int)sizeof(float));
}

__global__ void surf_write3d(hipSurfaceObject_t s, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
  if (x < w) surf3Dwrite(make_float2(x + 10 * y + 100 * z, -z), s, x * 8, y, z);
}

static void references() {
  const int W = 19, H = 6, L = 3;
  std::vector<float> data(W * H);
  for (int i = 0; i < W * H; i++) data[i] = i * 0.25f - 3.0f;
  hipChannelFormatDesc cd = hipCreateChannelDesc<float>();
  hipArray_t arr;
  HIP_CHECK(hipMallocArray(&arr, &cd, W, H));
  HIP_CHECK(hipMemcpy2DToArray(arr, 0, 0, data.data(), W * 4, W * 4, H, hipMemcpyHostToDevice));
  tex2d_ref.filterMode = hipFilterModePoint;
  tex2d_ref.normalized = false;
  tex2d_ref.addressMode[0] = tex2d_ref.addressMode[1] = hipAddressModeClamp;
  HIP_CHECK(hipBindTextureToArray(tex2d_ref, arr, cd));
  float* dout;
  HIP_CHECK(hipMalloc(&dout, W * H * sizeof(float)));
  hipLaunchKernelGGL(read_ref2d, dim3(1, H), dim3(32), 0, 0, dout, W, H);
  std::vector<float> got(W * H);
  HIP_CHECK(hipMemcpy(got.data(), dout, W * H * sizeof(float), hipMemcpyDeviceToHost));
  expect_equal("texture reference 2D", got.data(), data.data(), W * H);
  HIP_CHECK(hipUnbindTexture(tex2d_ref));
  HIP_CHECK(hipFree(dout));
  HIP_CHECK(hipFreeArray(arr));

  // A 2D layered array of float4 through a texture reference.
  std::vector<float4> d4(W * H * L);
  for (int i = 0; i < W * H * L; i++) d4[i] = make_float4(i, -i, i * 0.5f, 7.0f);
  hipChannelFormatDesc cd4 = hipCreateChannelDesc<float4>();
  HIP_CHECK(hipMalloc3DArray(&arr, &cd4, make_hipExtent(W, H, L), hipArrayLayered));
  hipMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = make_hipPitchedPtr(d4.data(), W * sizeof(float4), W, H);
  p.dstArray = arr;
  p.extent = make_hipExtent(W, H, L);
  p.kind = hipMemcpyHostToDevice;
  HIP_CHECK(hipMemcpy3D(&p));
  tex2dl_ref.filterMode = hipFilterModePoint;
  tex2dl_ref.normalized = false;
  HIP_CHECK(hipBindTextureToArray(tex2dl_ref, arr, cd4));
  float4* d4out;
  HIP_CHECK(hipMalloc(&d4out, W * H * L * sizeof(float4)));
  hipLaunchKernelGGL(read_ref2dl, dim3(1, H, L), dim3(32), 0, 0, d4out, W, H);
  std::vector<float4> g4(W * H * L);
  HIP_CHECK(hipMemcpy(g4.data(), d4out, W * H * L * sizeof(float4), hipMemcpyDeviceToHost));
  for (int i = 0; i < W * H * L; i++)
    EXPECT(memcmp(&g4[i], &d4[i], sizeof(float4)) == 0, "2D layered %d: got (%g %g %g %g)", i,
           g4[i].x, g4[i].y, g4[i].z, g4[i].w);
  HIP_CHECK(hipUnbindTexture(tex2dl_ref));
  HIP_CHECK(hipFree(d4out));
  HIP_CHECK(hipFreeArray(arr));
}

static hipSurfaceObject_t surface_of(hipArray_t arr) {
  hipResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = hipResourceTypeArray;
  res.res.array.array = arr;
  hipSurfaceObject_t s;
  HIP_CHECK(hipCreateSurfaceObject(&s, &res));
  return s;
}

static void surfaces() {
  const int W = 21, H = 5;
  hipChannelFormatDesc cd = hipCreateChannelDesc<float4>();
  hipArray_t a, b;
  // HIP 5.2 refuses the hipArraySurfaceLoadStore flag on every device, yet binds surfaces to
  // any array.
  EXPECT(hipMallocArray(&a, &cd, W, H, hipArraySurfaceLoadStore) == hipErrorNotSupported,
         "hipArraySurfaceLoadStore should be unsupported in HIP 5.2");
  HIP_CHECK(hipMallocArray(&a, &cd, W, H));
  HIP_CHECK(hipMallocArray(&b, &cd, W, H));
  hipSurfaceObject_t sa = surface_of(a), sb = surface_of(b);
  hipLaunchKernelGGL(surf_write2d, dim3(1, H), dim3(32), 0, 0, sa, W, H);
  hipLaunchKernelGGL(surf_flip2d, dim3(1, H), dim3(32), 0, 0, sa, sb, W, H);
  HIP_CHECK(hipGetLastError());
  std::vector<float4> ga(W * H), gb(W * H);
  HIP_CHECK(hipMemcpy2DFromArray(ga.data(), W * 16, a, 0, 0, W * 16, H, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy2DFromArray(gb.data(), W * 16, b, 0, 0, W * 16, H, hipMemcpyDeviceToHost));
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      float4 w = make_float4(x, y, x * y, -1.0f - x), g = ga[y * W + x];
      EXPECT(memcmp(&g, &w, 16) == 0, "surf2Dwrite (%d,%d): (%g %g %g %g)", x, y, g.x, g.y, g.z,
             g.w);
      float4 f = gb[y * W + (W - 1 - x)];
      w.x += 0.5f;
      EXPECT(memcmp(&f, &w, 16) == 0, "surf2Dread/write (%d,%d): (%g %g %g %g)", x, y, f.x, f.y,
             f.z, f.w);
    }
  HIP_CHECK(hipDestroySurfaceObject(sa));
  HIP_CHECK(hipDestroySurfaceObject(sb));
  HIP_CHECK(hipFreeArray(a));
  HIP_CHECK(hipFreeArray(b));

  // 1D float and 3D float2 surfaces.
  const int N = 77;
  hipChannelFormatDesc ci = hipCreateChannelDesc<float>();
  HIP_CHECK(hipMallocArray(&a, &ci, N, 0));
  sa = surface_of(a);
  hipLaunchKernelGGL(surf_write1d, dim3(2), dim3(64), 0, 0, sa, N);
  std::vector<float> gi(N);
  HIP_CHECK(hipMemcpyFromArray(gi.data(), a, 0, 0, N * 4, hipMemcpyDeviceToHost));
  for (int x = 0; x < N; x++) EXPECT(gi[x] == x * 3 - 50, "surf1Dwrite %d: %g", x, gi[x]);
  HIP_CHECK(hipDestroySurfaceObject(sa));
  HIP_CHECK(hipFreeArray(a));

  const int X = 9, Y = 4, Z = 3;
  hipChannelFormatDesc cs = hipCreateChannelDesc<float2>();
  HIP_CHECK(hipMalloc3DArray(&a, &cs, make_hipExtent(X, Y, Z), 0));
  sa = surface_of(a);
  hipLaunchKernelGGL(surf_write3d, dim3(1, Y, Z), dim3(16), 0, 0, sa, X, Y);
  std::vector<float2> g3(X * Y * Z);
  hipMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcArray = a;
  p.dstPtr = make_hipPitchedPtr(g3.data(), X * 8, X, Y);
  p.extent = make_hipExtent(X, Y, Z);
  p.kind = hipMemcpyDeviceToHost;
  HIP_CHECK(hipMemcpy3D(&p));
  for (int z = 0; z < Z; z++)
    for (int y = 0; y < Y; y++)
      for (int x = 0; x < X; x++)
        EXPECT(g3[(z * Y + y) * X + x].x == x + 10 * y + 100 * z &&
                   g3[(z * Y + y) * X + x].y == -z,
               "surf3Dwrite (%d,%d,%d): %g", x, y, z, g3[(z * Y + y) * X + x].x);
  HIP_CHECK(hipDestroySurfaceObject(sa));
  HIP_CHECK(hipFreeArray(a));
}

static void mipmaps() {
  // HIP 5.2 over ROCm has no mipmapped arrays on any device: the runtime API says so, and the
  // driver API's creation fails because ROCclr's ROCm back end never enables
  // cl_khr_mipmap_image (texture objects of mipmapped arrays are refused likewise).
  hipMipmappedArray_t m = nullptr;
  hipChannelFormatDesc cd = hipCreateChannelDesc<float>();
  EXPECT(hipMallocMipmappedArray(&m, &cd, make_hipExtent(16, 16, 0), 4, 0) ==
             hipErrorNotSupported,
         "hipMallocMipmappedArray should be unsupported in HIP 5.2");
  HIP_ARRAY3D_DESCRIPTOR d;
  memset(&d, 0, sizeof d);
  d.Width = 16;
  d.Height = 8;
  d.Format = HIP_AD_FORMAT_FLOAT;
  d.NumChannels = 1;
  EXPECT(hipMipmappedArrayCreate(&m, &d, 3) == hipErrorInvalidValue,
         "hipMipmappedArrayCreate should fail in HIP 5.2 over ROCm");
  // One level is an ordinary array.
  HIP_CHECK(hipMipmappedArrayCreate(&m, &d, 0));
  hipArray_t level;
  HIP_CHECK(hipMipmappedArrayGetLevel(&level, m, 0));
  std::vector<float> in(16 * 8), out(16 * 8);
  for (int i = 0; i < 16 * 8; i++) in[i] = i * 1.5f;
  HIP_CHECK(hipMemcpy2DToArray(level, 0, 0, in.data(), 64, 64, 8, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy2DFromArray(out.data(), 64, level, 0, 0, 64, 8, hipMemcpyDeviceToHost));
  expect_equal("mipmapped array level 0", out.data(), in.data(), 16 * 8);
  HIP_CHECK(hipMipmappedArrayDestroy(m));
}

int main() {
  references();
  surfaces();
  mipmaps();
  return finish("texture_surface");
}
