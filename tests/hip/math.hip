// The device math library in single, double and half precision against the host's libm, with
// tolerances of a few ulps (exact where the result is exactly defined).
#include <cstdint>
#include <vector>
#include <hip/hip_fp16.h>
#include "hip_check.h"

// rsqrtf is a device function only; the host reference is 1/sqrt in double, rounded once.
__host__ __device__ inline float rsqrt_any(float x) {
#if defined(__HIP_DEVICE_COMPILE__)
  return rsqrtf(x);
#else
  return (float)(1.0 / std::sqrt((double)x));
#endif
}

#define F32_FUNCS(X)                                                                        \
  X(sinf(a)) X(cosf(a)) X(tanf(a)) X(expf(a)) X(exp2f(a)) X(exp10f(a)) X(logf(fabsf(a) + 1e-3f)) \
  X(log2f(fabsf(a) + 1e-3f)) X(log10f(fabsf(a) + 1e-3f)) X(powf(fabsf(a), b))               \
  X(sqrtf(fabsf(a))) X(rsqrt_any(fabsf(a) + 1.0f)) X(cbrtf(a)) X(erff(a)) X(erfcf(a)) X(tanhf(a))  \
  X(sinhf(a)) X(coshf(a)) X(asinf(a / 8.0f)) X(acosf(a / 8.0f)) X(atanf(a)) X(atan2f(a, b))    \
  X(hypotf(a, b)) X(expm1f(a)) X(log1pf(fabsf(a))) X(fmaf(a, b, 0.3f)) X(fabsf(a))           \
  X(floorf(a)) X(ceilf(a)) X(roundf(a)) X(truncf(a)) X(fminf(a, b)) X(fmaxf(a, b))             \
  X(fmodf(a, b)) X(a / b) X(copysignf(a, b)) X(ldexpf(a, 3)) X(lgammaf(fabsf(a) + 0.5f))

#define F64_FUNCS(X)                                                                        \
  X(sin(a)) X(cos(a)) X(tan(a)) X(exp(a)) X(exp2(a)) X(log(fabs(a) + 1e-3))                 \
  X(log2(fabs(a) + 1e-3)) X(log10(fabs(a) + 1e-3)) X(pow(fabs(a), b)) X(sqrt(fabs(a)))        \
  X(cbrt(a)) X(erf(a)) X(tanh(a)) X(sinh(a)) X(cosh(a)) X(asin(a / 8.0)) X(acos(a / 8.0))      \
  X(atan(a)) X(atan2(a, b)) X(hypot(a, b)) X(expm1(a)) X(log1p(fabs(a))) X(fma(a, b, 0.3))    \
  X(fabs(a)) X(floor(a)) X(ceil(a)) X(round(a)) X(trunc(a)) X(fmin(a, b)) X(fmax(a, b))       \
  X(fmod(a, b)) X(a / b) X(a * b + a) X(ldexp(a, -5))

#define COUNT(expr) +1
constexpr int kF32 = 0 F32_FUNCS(COUNT);
constexpr int kF64 = 0 F64_FUNCS(COUNT);

// One output per (function, input): out[f * n + i].
__global__ void eval_f32(const float* xa, const float* xb, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = xa[i], b = xb[i];
  int f = 0;
#define EVAL(expr) out[(f++) * n + i] = (expr);
  F32_FUNCS(EVAL)
}
__global__ void eval_f64(const double* xa, const double* xb, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double a = xa[i], b = xb[i];
  int f = 0;
  F64_FUNCS(EVAL)
}
#undef EVAL

static const char* kF32Names[] = {
#define NAME(expr) #expr,
    F32_FUNCS(NAME)};
static const char* kF64Names[] = {F64_FUNCS(NAME)};
#undef NAME

// Half precision: arithmetic (exact-input ranges, so the host reference is one rounding of an
// exact value), conversions, and a few functions.
__global__ void eval_f16(const float* xa, const float* xb, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half a = __float2half(xa[i]), b = __float2half(xb[i]);
  __half2 p = __halves2half2(a, b);
  __half2 q = __hmul2(p, p);
  out[0 * n + i] = __half2float(__hadd(a, b));
  out[1 * n + i] = __half2float(__hsub(a, b));
  out[2 * n + i] = __half2float(__hmul(a, b));
  out[3 * n + i] = __half2float(__hfma(a, b, __float2half(0.5f)));
  out[4 * n + i] = __half2float(__low2half(q));
  out[5 * n + i] = __half2float(__high2half(q));
  out[6 * n + i] = __half2float(hsqrt(__habs(a)));
  out[7 * n + i] = __half2float(hexp(__hmul(a, __float2half(0.25f))));
  out[8 * n + i] = __half2float(__hlt(a, b) ? a : b);
  out[9 * n + i] = __half2float(__float2half(xa[i] * 1.0009765625f));  // needs rounding
}

// Host float -> binary16 with round-to-nearest-even, back to float: the reference rounding.
static float round_to_half(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  uint32_t sign = u & 0x80000000u;
  float ax = std::fabs(x);
  if (ax >= 65520.0f) return sign ? -INFINITY : INFINITY;
  // Quantum of a half at this magnitude: 2^(e-10) for normals, 2^-24 for subnormals.
  int e;
  std::frexp(ax, &e);  // ax = m * 2^e, m in [0.5, 1)
  int exp_unbiased = e - 1;
  if (exp_unbiased < -14) exp_unbiased = -14;
  float quantum = std::ldexp(1.0f, exp_unbiased - 10);
  float r = std::nearbyint(ax / quantum) * quantum;  // default rounding mode: to nearest even
  return sign ? -r : r;
}

static void check(const char* kind, const char* name, int i, double got, double want, double rel,
                  double abs_tol, double a, double b) {
  if (!close_to(got, want, rel, abs_tol)) {
    if (++g_failures <= 25)
      fprintf(stderr, "%s %s: a=%.9g b=%.9g got %.17g want %.17g\n", kind, name, a, b, got, want);
  }
}

int main() {
  const int n = 512;
  std::vector<float> fa(n), fb(n);
  std::vector<double> da(n), db(n);
  for (int i = 0; i < n; i++) {
    da[i] = -7.9 + 15.8 * i / (n - 1) + 1e-3;  // [-7.9, 7.9], avoiding 0 exactly
    db[i] = 0.37 + 2.9 * ((i * 37) % n) / n;   // (0.37, 3.27]
    if (i % 5 == 0) db[i] = -db[i];
    fa[i] = (float)da[i];
    fb[i] = (float)db[i];
  }

  float *dfa, *dfb, *dfo;
  HIP_CHECK(hipMalloc(&dfa, n * 4));
  HIP_CHECK(hipMalloc(&dfb, n * 4));
  HIP_CHECK(hipMalloc(&dfo, (size_t)n * kF32 * 4));
  HIP_CHECK(hipMemcpy(dfa, fa.data(), n * 4, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dfb, fb.data(), n * 4, hipMemcpyHostToDevice));
  eval_f32<<<(n + 127) / 128, 128>>>(dfa, dfb, dfo, n);
  HIP_CHECK(hipGetLastError());
  std::vector<float> fo((size_t)n * kF32);
  HIP_CHECK(hipMemcpy(fo.data(), dfo, fo.size() * 4, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    float a = fa[i], b = fb[i];
    double want[kF32];
    int f = 0;
#define HOST(expr) want[f++] = (expr);
    F32_FUNCS(HOST)
    for (f = 0; f < kF32; f++) {
      const char* name = kF32Names[f];
      // The exact operations must match bit for bit; the rest within a few ulps (absolute
      // tolerance near zeros of the function).
      bool exact = strstr(name, "fabsf") == name || strstr(name, "floorf") == name ||
                   strstr(name, "ceilf") == name || strstr(name, "roundf") == name ||
                   strstr(name, "truncf") == name || strstr(name, "fmin") == name ||
                   strstr(name, "fmax") == name || strstr(name, "fmodf") == name ||
                   strstr(name, "copysign") == name || strstr(name, "ldexp") == name ||
                   strstr(name, "fmaf") == name;
      check("f32", name, i, fo[(size_t)f * n + i], want[f], exact ? 0 : 4e-6,
            exact ? 0 : 2e-6, a, b);
    }
  }

  double *dda, *ddb, *ddo;
  HIP_CHECK(hipMalloc(&dda, n * 8));
  HIP_CHECK(hipMalloc(&ddb, n * 8));
  HIP_CHECK(hipMalloc(&ddo, (size_t)n * kF64 * 8));
  HIP_CHECK(hipMemcpy(dda, da.data(), n * 8, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(ddb, db.data(), n * 8, hipMemcpyHostToDevice));
  eval_f64<<<(n + 63) / 64, 64>>>(dda, ddb, ddo, n);
  HIP_CHECK(hipGetLastError());
  std::vector<double> dout((size_t)n * kF64);
  HIP_CHECK(hipMemcpy(dout.data(), ddo, dout.size() * 8, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    double a = da[i], b = db[i];
    double want[kF64];
    int f = 0;
    F64_FUNCS(HOST)
    for (f = 0; f < kF64; f++) {
      const char* name = kF64Names[f];
      bool exact = strncmp(name, "fabs", 4) == 0 || strncmp(name, "floor", 5) == 0 ||
                   strncmp(name, "ceil", 4) == 0 || strncmp(name, "round", 5) == 0 ||
                   strncmp(name, "trunc", 5) == 0 || strncmp(name, "fmin", 4) == 0 ||
                   strncmp(name, "fmax", 4) == 0 || strncmp(name, "fmod", 4) == 0 ||
                   strncmp(name, "fma(", 4) == 0 || strncmp(name, "a / b", 5) == 0 ||
                   strncmp(name, "ldexp", 5) == 0 || strncmp(name, "sqrt", 4) == 0;
      check("f64", name, i, dout[(size_t)f * n + i], want[f], exact ? 0 : 1e-14,
            exact ? 0 : 1e-15, a, b);
    }
  }
#undef HOST

  // Half: inputs are multiples of 1/64 in [-8, 8], exactly representable in half.
  const int kF16 = 10;
  std::vector<float> ha(n), hb(n), ho((size_t)n * kF16);
  for (int i = 0; i < n; i++) {
    ha[i] = (float)((i * 7) % 1024 - 512) / 64.0f;
    hb[i] = (float)((i * 13) % 1000 - 500) / 64.0f;
  }
  HIP_CHECK(hipMemcpy(dfa, ha.data(), n * 4, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dfb, hb.data(), n * 4, hipMemcpyHostToDevice));
  eval_f16<<<(n + 255) / 256, 256>>>(dfa, dfb, dfo, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(ho.data(), dfo, ho.size() * 4, hipMemcpyDeviceToHost));
  const char* hnames[kF16] = {"__hadd", "__hsub", "__hmul", "__hfma", "__hmul2.lo",
                              "__hmul2.hi", "hsqrt", "hexp", "__hlt select", "__float2half"};
  for (int i = 0; i < n; i++) {
    double a = ha[i], b = hb[i];
    double want[kF16] = {round_to_half(a + b),
                         round_to_half(a - b),
                         round_to_half(a * b),
                         round_to_half(a * b + 0.5),
                         round_to_half(a * a),
                         round_to_half(b * b),
                         round_to_half(std::sqrt(std::fabs(a))),
                         std::exp(round_to_half(a * 0.25)),
                         a < b ? a : b,
                         round_to_half(ha[i] * 1.0009765625f)};
    for (int f = 0; f < kF16; f++) {
      // Arithmetic and conversions are exactly rounded; sqrt within one half ulp, exp within
      // half precision (about 1e-3 relative).
      double rel = f == 6 ? 1e-3 : f == 7 ? 2e-3 : 0;
      check("f16", hnames[f], i, ho[(size_t)f * n + i], want[f], rel, 0, a, b);
    }
  }

  HIP_CHECK(hipFree(dfa));
  HIP_CHECK(hipFree(dfb));
  HIP_CHECK(hipFree(dfo));
  HIP_CHECK(hipFree(dda));
  HIP_CHECK(hipFree(ddb));
  HIP_CHECK(hipFree(ddo));
  return finish("math");
}
