// expf, logf, exp2f, log2f and powf as hipcc compiles them (the device library's range
// reductions around v_exp_f32 and v_log_f32), against the host's double-precision functions
// rounded to float: within the device library's documented error (1 ulp for exp, log and
// their base-2 forms, 2 for pow; 4 allowed here), special values exact (zeros, infinities,
// NaNs, negatives, denormals, overflow and underflow). Then the same maps over 2^22 elements,
// as a kernel doing real work with them runs (softmax, activations, log-likelihoods).
#include <cstdint>
#include <vector>
#include "hip_check.h"

enum Fn { EXP, LOG, EXP2, LOG2, POW, NFN };
static const char* NAMES[NFN] = {"expf", "logf", "exp2f", "log2f", "powf"};

__global__ void map(int fn, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  switch (fn) {
    case EXP: y[i] = expf(v); break;
    case LOG: y[i] = logf(v); break;
    case EXP2: y[i] = exp2f(v); break;
    case LOG2: y[i] = log2f(v); break;
    default: y[i] = powf(fabsf(v), 1.7f); break;
  }
}

static double reference(int fn, float v) {
  double d = v;
  switch (fn) {
    case EXP: return exp(d);
    case LOG: return log(d);
    case EXP2: return exp2(d);
    case LOG2: return log2(d);
    default: return pow(fabs(d), (double)1.7f);
  }
}

static float bits(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static uint32_t ubits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

// Distance in f32 steps between two finite floats of the same sign (or zero).
static int64_t ulps(float a, float b) {
  auto key = [](float f) {
    int64_t u = ubits(f);
    return u & 0x80000000 ? -(u & 0x7fffffff) : u;
  };
  int64_t d = key(a) - key(b);
  return d < 0 ? -d : d;
}

static uint32_t next(uint64_t& s) {
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  return (uint32_t)s;
}

int main() {
  std::vector<float> x;
  uint64_t s = 0x243f6a8885a308d3ull;
  // Every exponent with random mantissas and signs, values in exp's useful range, values
  // near 1 (log's cancellation), special values.
  for (int i = 0; i < 1 << 16; i++) x.push_back(bits(next(s)));
  for (int i = 0; i < 1 << 16; i++) x.push_back((float)((int)(next(s) % 400000) - 200000) / 1000.0f);
  for (int i = 0; i < 1 << 14; i++) x.push_back(1.0f + ((int)(next(s) % 2001) - 1000) * 1e-7f);
  const uint32_t special[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                              0x00000001, 0x007fffff, 0x00800000, 0x3f800000, 0xbf800000,
                              0x42b17218, 0x42b17217, 0xc2cff1b5, 0xc2ce8ed0, 0x43000000,
                              0xc3160000, 0x7f7fffff, 0x40000000, 0x3f000000};
  for (uint32_t u : special) x.push_back(bits(u));
  const int n = (int)x.size();
  float *dx, *dy;
  HIP_CHECK(hipMalloc(&dx, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dy, n * sizeof(float)));
  HIP_CHECK(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
  std::vector<float> y(n);
  for (int fn = 0; fn < NFN; fn++) {
    map<<<(n + 255) / 256, 256>>>(fn, dx, dy, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
    int bad = 0;
    int64_t worst = 0;
    for (int i = 0; i < n; i++) {
      float want = (float)reference(fn, x[i]);
      bool ok;
      if (std::isnan(want) || std::isinf(want) || want == 0.0f) {
        ok = std::isnan(want) ? std::isnan(y[i]) : ubits(y[i]) == ubits(want);
        // The device flushes results below the smallest normal toward zero within its
        // error bound; a tiny nonzero reference may meet a zero.
      } else if (fabsf(want) < 1.1754944e-38f) {
        ok = ulps(y[i], want) <= 4 || y[i] == 0.0f;
      } else {
        int64_t d = ulps(y[i], want);
        worst = d > worst ? d : worst;
        ok = d <= 4;
      }
      if (!ok && bad++ < 10)
        fprintf(stderr, "%s(%08x = %g): got %08x (%g), want %08x (%g)\n", NAMES[fn],
                ubits(x[i]), x[i], ubits(y[i]), y[i], ubits(want), want);
    }
    EXPECT(bad == 0, "%s: %d of %d results off", NAMES[fn], bad, n);
    printf("%s: %d values, worst error %lld ulp\n", NAMES[fn], n, (long long)worst);
  }
  HIP_CHECK(hipFree(dx));
  HIP_CHECK(hipFree(dy));

  // The maps at size: 2^22 elements each, three times (times in the dispatch trace).
  const int m = 1 << 22;
  std::vector<float> in(m), out(m);
  for (int i = 0; i < m; i++) in[i] = (float)(i % 2000) * 0.01f - 10.0f;
  HIP_CHECK(hipMalloc(&dx, m * sizeof(float)));
  HIP_CHECK(hipMalloc(&dy, m * sizeof(float)));
  HIP_CHECK(hipMemcpy(dx, in.data(), m * sizeof(float), hipMemcpyHostToDevice));
  for (int fn = 0; fn < NFN; fn++) {
    for (int r = 0; r < 3; r++) map<<<m / 256, 256>>>(fn, dx, dy, m);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(out.data(), dy, m * sizeof(float), hipMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < 2000; i++) {
      float want = (float)reference(fn, in[i]);
      bool ok = std::isnan(want) ? std::isnan(out[i]) : ulps(out[i], want) <= 4;
      bad += !ok;
    }
    EXPECT(bad == 0, "%s at size: %d of 2000 distinct inputs off", NAMES[fn], bad);
  }
  HIP_CHECK(hipFree(dx));
  HIP_CHECK(hipFree(dy));
  return finish("exp_log");
}
