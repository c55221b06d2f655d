// Texture objects over HIP arrays, pitched memory, 3D and layered arrays: tex2D, tex3D,
// tex2DLayered, tex2DLod and tex2Dgather with point and linear filtering, normalized and
// unnormalized coordinates, clamp / border / wrap / mirror addressing, element-type and
// normalized-float read modes. Expected values come from the texels the host wrote, filtered
// by the GFX9 texture unit's arithmetic (8 sub-texel bits, f32 accumulation; README.md).
#include "hip_check.h"

#include <vector>

// ---- host model of one texture read ----

// Wraps texel index i into [0, n) by HIP addressing mode; -1 selects the border (0).
static long wrap(long i, long n, hipTextureAddressMode m) {
  switch (m) {
    case hipAddressModeWrap: return ((i % n) + n) % n;
    case hipAddressModeMirror: {
      long k = ((i % (2 * n)) + 2 * n) % (2 * n);
      return k >= n ? 2 * n - 1 - k : k;
    }
    case hipAddressModeBorder: return i < 0 || i >= n ? -1 : i;
    default: return i < 0 ? 0 : i >= n ? n - 1 : i;
  }
}

// A single-channel float texture read at (x, y[, z]) over `size` texels per axis.
struct Model {
  const float* data;
  long size[3];
  int dims;
  bool normalized, linear;
  hipTextureAddressMode mode;

  float texel(const long* idx) const {
    long i = 0, stride = 1;
    for (int a = 0; a < dims; a++) {
      long k = wrap(idx[a], size[a], mode);
      if (k < 0) return 0.0f;
      i += k * stride;
      stride *= size[a];
    }
    return data[i];
  }

  float read(const float* c) const {
    long i0[3] = {0, 0, 0};
    unsigned f[3] = {0, 0, 0};
    for (int a = 0; a < dims; a++) {
      if (!linear) {
        // The device library snaps nearest reads to floor(c * size) first.
        i0[a] = (long)floorf(normalized ? c[a] * (float)size[a] : c[a]);
      } else {
        float u = normalized ? c[a] * (float)size[a] : c[a];
        long fx = (long)rint((double)u * 256.0) - 128;
        i0[a] = fx >> 8;
        f[a] = (unsigned)(fx & 255);
      }
    }
    if (!linear) return texel(i0);
    float acc = 0.0f;
    for (unsigned corner = 0; corner < (1u << dims); corner++) {
      unsigned w = 1;
      long idx[3];
      for (int a = 0; a < dims; a++) {
        int hi = corner >> a & 1;
        w *= hi ? f[a] : 256 - f[a];
        idx[a] = i0[a] + hi;
      }
      if (w) acc = acc + texel(idx) * (float)w;
    }
    return acc * ldexpf(1.0f, -8 * dims);
  }
};

// ---- kernels ----

__global__ void read2d(hipTextureObject_t t, const float2* c, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, c[i].x, c[i].y);
}

__global__ void read2d_lod(hipTextureObject_t t, const float2* c, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLod<float>(t, c[i].x, c[i].y, 0.0f);
}

__global__ void read2d_rgba(hipTextureObject_t t, const float2* c, float4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(t, c[i].x, c[i].y);
}

// HIP 5.2 numbers the components 1 = r, 2 = g, 3 = b and anything else = a
// (texture_indirect_functions.h); a one-channel texture gathers 1.0 for a.
__global__ void gather2d(hipTextureObject_t t, const float2* c, float4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2Dgather<float4>(t, c[i].x, c[i].y, 1);
}

__global__ void gather2d_a(hipTextureObject_t t, const float2* c, float4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2Dgather<float4>(t, c[i].x, c[i].y, 0);
}

__global__ void read3d(hipTextureObject_t t, const float4* c, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<float>(t, c[i].x, c[i].y, c[i].z);
}

__global__ void read2d_layered(hipTextureObject_t t, const float4* c, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLayered<float>(t, c[i].x, c[i].y, (int)c[i].z);
}

// ---- helpers ----

static unsigned g_seed = 12345;
static float frand(float lo, float hi) {
  g_seed = g_seed * 1103515245u + 12345u;
  return lo + (hi - lo) * (float)((g_seed >> 8) & 0xffff) / 65536.0f;
}

static hipTextureObject_t make_tex(const hipResourceDesc& res, bool normalized, bool linear,
                                   hipTextureAddressMode mode,
                                   hipTextureReadMode read = hipReadModeElementType) {
  hipTextureDesc td;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
  td.filterMode = linear ? hipFilterModeLinear : hipFilterModePoint;
  td.readMode = read;
  td.normalizedCoords = normalized;
  hipTextureObject_t t;
  HIP_CHECK(hipCreateTextureObject(&t, &res, &td, nullptr));
  return t;
}

template <typename C, typename O>
static void launch(void (*k)(hipTextureObject_t, const C*, O*, int), hipTextureObject_t t,
                   const std::vector<C>& c, std::vector<O>& out) {
  C* dc;
  O* dout;
  int n = (int)c.size();
  HIP_CHECK(hipMalloc(&dc, n * sizeof(C)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(O)));
  HIP_CHECK(hipMemcpy(dc, c.data(), n * sizeof(C), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(k, dim3((n + 63) / 64), dim3(64), 0, 0, t, dc, dout, n);
  HIP_CHECK(hipGetLastError());
  out.resize(n);
  HIP_CHECK(hipMemcpy(out.data(), dout, n * sizeof(O), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(dc));
  HIP_CHECK(hipFree(dout));
}

static std::vector<float2> coords2d(int n, bool normalized, float w, float h) {
  std::vector<float2> c(n);
  for (int i = 0; i < n; i++)
    c[i] = normalized ? make_float2(frand(-0.4f, 1.4f), frand(-0.4f, 1.4f))
                      : make_float2(frand(-3.0f, w + 3), frand(-3.0f, h + 3));
  return c;
}

// 2D float array: every filter, coordinate and addressing mode.
static void array2d() {
  const int W = 13, H = 9, N = 256;
  std::vector<float> data(W * H);
  for (auto& v : data) v = frand(-8.0f, 8.0f);
  hipChannelFormatDesc cd = hipCreateChannelDesc<float>();
  hipArray_t arr;
  HIP_CHECK(hipMallocArray(&arr, &cd, W, H));
  HIP_CHECK(hipMemcpy2DToArray(arr, 0, 0, data.data(), W * sizeof(float), W * sizeof(float), H,
                               hipMemcpyHostToDevice));
  hipResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = hipResourceTypeArray;
  res.res.array.array = arr;
  const hipTextureAddressMode modes[] = {hipAddressModeClamp, hipAddressModeBorder,
                                         hipAddressModeWrap, hipAddressModeMirror};
  for (int norm = 0; norm < 2; norm++)
    for (int lin = 0; lin < 2; lin++)
      for (int m = 0; m < (norm ? 4 : 2); m++) {
        hipTextureObject_t t = make_tex(res, norm, lin, modes[m]);
        auto c = coords2d(N, norm, W, H);
        std::vector<float> got, want(N);
        launch(m == 3 ? read2d_lod : read2d, t, c, got);
        Model md{data.data(), {W, H, 1}, 2, (bool)norm, (bool)lin, modes[m]};
        for (int i = 0; i < N; i++) want[i] = md.read(&c[i].x);
        char what[64];
        snprintf(what, sizeof what, "2d norm=%d linear=%d mode=%d", norm, lin, m);
        expect_equal(what, got.data(), want.data(), N);
        HIP_CHECK(hipDestroyTextureObject(t));
      }
  // Gather: the four texels of the bilinear footprint (i0,j1), (i1,j1), (i1,j0), (i0,j0).
  hipTextureObject_t t = make_tex(res, true, true, hipAddressModeWrap);
  auto c = coords2d(N, true, W, H);
  std::vector<float4> got;
  launch(gather2d, t, c, got);
  for (int i = 0; i < N; i++) {
    long fx = (long)rint((double)(c[i].x * (float)W) * 256.0) - 128;
    long fy = (long)rint((double)(c[i].y * (float)H) * 256.0) - 128;
    long x0 = fx >> 8, y0 = fy >> 8;
    auto at = [&](long x, long y) { return data[wrap(y, H, hipAddressModeWrap) * W + wrap(x, W, hipAddressModeWrap)]; };
    float want[4] = {at(x0, y0 + 1), at(x0 + 1, y0 + 1), at(x0 + 1, y0), at(x0, y0)};
    EXPECT(got[i].x == want[0] && got[i].y == want[1] && got[i].z == want[2] &&
               got[i].w == want[3],
           "gather %d: got (%g %g %g %g), want (%g %g %g %g)", i, got[i].x, got[i].y, got[i].z,
           got[i].w, want[0], want[1], want[2], want[3]);
  }
  launch(gather2d_a, t, c, got);
  for (int i = 0; i < N; i++)
    EXPECT(got[i].x == 1.0f && got[i].y == 1.0f && got[i].z == 1.0f && got[i].w == 1.0f,
           "gather alpha %d: got (%g %g %g %g)", i, got[i].x, got[i].y, got[i].z, got[i].w);
  HIP_CHECK(hipDestroyTextureObject(t));
  HIP_CHECK(hipFreeArray(arr));
}

// uchar4 array read as normalized floats, and as integers; pitched linear memory.
static void rgba8_and_pitch() {
  const int W = 10, H = 6, N = W * H;
  std::vector<uchar4> data(N);
  for (int i = 0; i < N; i++)
    data[i] = make_uchar4(i * 7 % 256, i * 13 % 256, 255 - i, i * 29 % 256);
  // HIP 5.2's hipCreateChannelDesc<uchar4>() says "signed" (amd_channel_descriptor.h), which
  // makes a normalized read SNORM on any device; spell the unsigned format out.
  hipChannelFormatDesc cd = hipCreateChannelDesc(8, 8, 8, 8, hipChannelFormatKindUnsigned);
  hipArray_t arr;
  HIP_CHECK(hipMallocArray(&arr, &cd, W, H));
  HIP_CHECK(hipMemcpy2DToArray(arr, 0, 0, data.data(), W * 4, W * 4, H, hipMemcpyHostToDevice));
  hipResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = hipResourceTypeArray;
  res.res.array.array = arr;
  hipTextureObject_t t =
      make_tex(res, false, false, hipAddressModeClamp, hipReadModeNormalizedFloat);
  std::vector<float2> c(N);
  for (int i = 0; i < N; i++) c[i] = make_float2(i % W + 0.5f, i / W + 0.5f);
  std::vector<float4> got;
  launch(read2d_rgba, t, c, got);
  for (int i = 0; i < N; i++) {
    float4 w = make_float4(data[i].x / 255.0f, data[i].y / 255.0f, data[i].z / 255.0f,
                           data[i].w / 255.0f);
    EXPECT(got[i].x == w.x && got[i].y == w.y && got[i].z == w.z && got[i].w == w.w,
           "rgba8 %d: got (%g %g %g %g)", i, got[i].x, got[i].y, got[i].z, got[i].w);
  }
  HIP_CHECK(hipDestroyTextureObject(t));
  HIP_CHECK(hipFreeArray(arr));

  // Pitched device memory as a 2D texture.
  const int PW = 37, PH = 11;
  std::vector<float> pd(PW * PH);
  for (auto& v : pd) v = frand(0.0f, 1.0f);
  float* dp;
  size_t pitch;
  HIP_CHECK(hipMallocPitch((void**)&dp, &pitch, PW * sizeof(float), PH));
  HIP_CHECK(hipMemcpy2D(dp, pitch, pd.data(), PW * sizeof(float), PW * sizeof(float), PH,
                        hipMemcpyHostToDevice));
  memset(&res, 0, sizeof res);
  res.resType = hipResourceTypePitch2D;
  res.res.pitch2D.devPtr = dp;
  res.res.pitch2D.desc = hipCreateChannelDesc<float>();
  res.res.pitch2D.width = PW;
  res.res.pitch2D.height = PH;
  res.res.pitch2D.pitchInBytes = pitch;
  t = make_tex(res, true, true, hipAddressModeClamp);
  auto pc = coords2d(256, true, PW, PH);
  std::vector<float> pg, pw(256);
  launch(read2d, t, pc, pg);
  Model md{pd.data(), {PW, PH, 1}, 2, true, true, hipAddressModeClamp};
  for (int i = 0; i < 256; i++) pw[i] = md.read(&pc[i].x);
  expect_equal("pitch2D linear", pg.data(), pw.data(), 256);
  HIP_CHECK(hipDestroyTextureObject(t));
  HIP_CHECK(hipFree(dp));
}

// 3D arrays (trilinear) and 2D layered arrays.
static void array3d_and_layered() {
  const int W = 7, H = 5, D = 4, N = 256;
  std::vector<float> data(W * H * D);
  for (auto& v : data) v = frand(-1.0f, 1.0f);
  hipChannelFormatDesc cd = hipCreateChannelDesc<float>();
  for (int layered = 0; layered < 2; layered++) {
    hipArray_t arr;
    HIP_CHECK(hipMalloc3DArray(&arr, &cd, make_hipExtent(W, H, D),
                               layered ? hipArrayLayered : 0));
    hipMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_hipPitchedPtr(data.data(), W * sizeof(float), W, H);
    p.dstArray = arr;
    p.extent = make_hipExtent(W, H, D);
    p.kind = hipMemcpyHostToDevice;
    HIP_CHECK(hipMemcpy3D(&p));
    hipResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = hipResourceTypeArray;
    res.res.array.array = arr;
    hipTextureObject_t t = make_tex(res, true, true, hipAddressModeWrap);
    std::vector<float4> c(N);
    for (auto& v : c)
      v = make_float4(frand(-0.5f, 1.5f), frand(-0.5f, 1.5f),
                      layered ? (float)(int)frand(0.0f, (float)D) : frand(-0.5f, 1.5f), 0);
    std::vector<float> got, want(N);
    launch(layered ? read2d_layered : read3d, t, c, got);
    if (layered) {
      for (int i = 0; i < N; i++) {
        Model md{data.data() + (int)c[i].z * W * H, {W, H, 1}, 2, true, true, hipAddressModeWrap};
        want[i] = md.read(&c[i].x);
      }
    } else {
      Model md{data.data(), {W, H, D}, 3, true, true, hipAddressModeWrap};
      for (int i = 0; i < N; i++) want[i] = md.read(&c[i].x);
    }
    expect_equal(layered ? "2D layered" : "3D trilinear", got.data(), want.data(), N);
    HIP_CHECK(hipDestroyTextureObject(t));
    HIP_CHECK(hipFreeArray(arr));
  }
}

int main() {
  array2d();
  rgba8_and_pitch();
  array3d_and_layered();
  return finish("texture_object");
}
