// f32 and f64 division as hipcc compiles `a / b` (v_div_scale, v_rcp, fmas, v_div_fmas,
// v_div_fixup): correctly rounded, so every quotient must equal the host's IEEE one, bit for
// bit, for ordinary operands and for the ones the helpers treat specially (zeros, infinities,
// NaNs, denormals, exponents near the ends of the range, quotients that overflow or
// underflow). Then a loop of dependent divisions, as a kernel doing real work with them runs.
#include <cstdint>
#include <vector>
#include "hip_check.h"

__global__ void quotients(const float* a, const float* b, float* q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) q[i] = a[i] / b[i];
}

__global__ void quotients64(const double* a, const double* b, double* q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) q[i] = a[i] / b[i];
}

__global__ void division_loop(const float* in, float* out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i], y = in[i] * 0.25f + 3.0f;
  for (int k = 0; k < iters; k++) x = x / (y + (float)k) + 1.0f;
  out[i] = x;
}

static float bits(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static double bits64(uint64_t u) {
  double f;
  memcpy(&f, &u, 8);
  return f;
}

static uint64_t ubits64(double f) {
  uint64_t u;
  memcpy(&u, &f, 8);
  return u;
}

static uint32_t ubits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

// A small xorshift generator: the same operands on every run.
static uint32_t next(uint64_t& s) {
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  return (uint32_t)s;
}

int main() {
  // Operands: mostly ordinary, then every pair of special values, then exponents at the
  // edges of div_scale's and div_fixup's ordinary range (and of the gap between them).
  std::vector<float> a, b;
  uint64_t s = 0x9e3779b97f4a7c15ull;
  auto with_exp = [&](uint32_t e) {
    return bits((next(s) & 0x80000000u) | (e & 0xff) << 23 | (next(s) & 0x7fffff));
  };
  for (int i = 0; i < 1 << 16; i++) {
    a.push_back(with_exp(100 + next(s) % 51));
    b.push_back(with_exp(100 + next(s) % 51));
  }
  const uint32_t special[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                              0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff, 0x3f800000,
                              0xbf800000, 0x0b800000, 0x73800000};
  for (uint32_t x : special)
    for (uint32_t y : special) {
      a.push_back(bits(x));
      b.push_back(bits(y));
    }
  const uint32_t edges[] = {0, 1, 2, 23, 24, 25, 126, 127, 128, 251, 252, 253, 254};
  for (uint32_t e1 : edges)
    for (uint32_t e2 : edges)
      for (int k = 0; k < 8; k++) {
        a.push_back(with_exp(e2));
        b.push_back(with_exp(e1));
      }
  const int gaps[] = {94, 95, 96, 97, -124, -125, -126, -127, -149, -150, -151, -152, -153};
  for (int g : gaps)
    for (int k = 0; k < 64; k++) {
      int e1 = g > 0 ? 20 + (int)(next(s) % 130) : 160 + (int)(next(s) % 90);
      a.push_back(with_exp((uint32_t)(e1 + g)));
      b.push_back(with_exp((uint32_t)e1));
    }
  const int n = (int)a.size();
  std::vector<float> q(n), want(n);
  for (int i = 0; i < n; i++) want[i] = a[i] / b[i];

  float *da, *db, *dq;
  HIP_CHECK(hipMalloc(&da, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&db, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dq, n * sizeof(float)));
  HIP_CHECK(hipMemcpy(da, a.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, b.data(), n * sizeof(float), hipMemcpyHostToDevice));
  quotients<<<(n + 255) / 256, 256>>>(da, db, dq, n);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(q.data(), dq, n * sizeof(float), hipMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    bool same = ubits(q[i]) == ubits(want[i]) || (std::isnan(q[i]) && std::isnan(want[i]));
    if (!same && bad++ < 10)
      fprintf(stderr, "%08x / %08x: got %08x, want %08x\n", ubits(a[i]), ubits(b[i]),
              ubits(q[i]), ubits(want[i]));
  }
  EXPECT(bad == 0, "%d of %d quotients differ", bad, n);

  // f64: the same kinds of operands, with f64's exponent edges.
  std::vector<double> a64, b64;
  auto with_exp64 = [&](uint32_t e) {
    uint64_t hi = (next(s) & 0x80000000u) | (uint64_t)(e & 0x7ff) << 20 | (next(s) & 0xfffff);
    return bits64(hi << 32 | next(s));
  };
  for (int i = 0; i < 1 << 15; i++) {
    a64.push_back(with_exp64(900 + next(s) % 251));
    b64.push_back(with_exp64(900 + next(s) % 251));
  }
  const uint64_t special64[] = {0, 1ull << 63, 0x7ff0000000000000ull, 0xfff0000000000000ull,
                                0x7ff8000000000000ull, 1, 0x800fffffffffffffull,
                                0x0010000000000000ull, 0x7fefffffffffffffull,
                                0x3ff0000000000000ull};
  for (uint64_t x : special64)
    for (uint64_t y : special64) {
      a64.push_back(bits64(x));
      b64.push_back(bits64(y));
    }
  const uint32_t edges64[] = {0, 1, 2, 53, 54, 55, 1022, 1023, 1024, 2043, 2044, 2045, 2046};
  for (uint32_t e1 : edges64)
    for (uint32_t e2 : edges64)
      for (int k = 0; k < 8; k++) {
        a64.push_back(with_exp64(e2));
        b64.push_back(with_exp64(e1));
      }
  const int gaps64[] = {766, 767, 768, -1020, -1021, -1022, -1074, -1075, -1076, -1077};
  for (int g : gaps64)
    for (int k = 0; k < 64; k++) {
      int e1 = g > 0 ? 100 + (int)(next(s) % 900) : 1100 + (int)(next(s) % 900);
      a64.push_back(with_exp64((uint32_t)(e1 + g)));
      b64.push_back(with_exp64((uint32_t)e1));
    }
  const int n64 = (int)a64.size();
  std::vector<double> q64(n64);
  double *da64, *db64, *dq64;
  HIP_CHECK(hipMalloc(&da64, n64 * sizeof(double)));
  HIP_CHECK(hipMalloc(&db64, n64 * sizeof(double)));
  HIP_CHECK(hipMalloc(&dq64, n64 * sizeof(double)));
  HIP_CHECK(hipMemcpy(da64, a64.data(), n64 * sizeof(double), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db64, b64.data(), n64 * sizeof(double), hipMemcpyHostToDevice));
  quotients64<<<(n64 + 255) / 256, 256>>>(da64, db64, dq64, n64);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(q64.data(), dq64, n64 * sizeof(double), hipMemcpyDeviceToHost));
  bad = 0;
  for (int i = 0; i < n64; i++) {
    double want64 = a64[i] / b64[i];
    bool same = ubits64(q64[i]) == ubits64(want64) || (std::isnan(q64[i]) && std::isnan(want64));
    if (!same && bad++ < 10)
      fprintf(stderr, "%016llx / %016llx: got %016llx, want %016llx\n",
              (unsigned long long)ubits64(a64[i]), (unsigned long long)ubits64(b64[i]),
              (unsigned long long)ubits64(q64[i]), (unsigned long long)ubits64(want64));
  }
  EXPECT(bad == 0, "%d of %d f64 quotients differ", bad, n64);
  HIP_CHECK(hipFree(da64));
  HIP_CHECK(hipFree(db64));
  HIP_CHECK(hipFree(dq64));

  // The loop: each work-item's chain of 200 divisions, against the host's.
  const int m = 1 << 16, iters = 200;
  std::vector<float> in(m), out(m), chain(m);
  for (int i = 0; i < m; i++) {
    in[i] = (float)(i % 1000) + 1.0f;
    float x = in[i], y = in[i] * 0.25f + 3.0f;
    for (int k = 0; k < iters; k++) x = x / (y + (float)k) + 1.0f;
    chain[i] = x;
  }
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, m * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, m * sizeof(float)));
  HIP_CHECK(hipMemcpy(din, in.data(), m * sizeof(float), hipMemcpyHostToDevice));
  for (int r = 0; r < 3; r++) division_loop<<<m / 256, 256>>>(din, dout, iters);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemcpy(out.data(), dout, m * sizeof(float), hipMemcpyDeviceToHost));
  expect_equal("division_loop", out.data(), chain.data(), m);

  HIP_CHECK(hipFree(da));
  HIP_CHECK(hipFree(db));
  HIP_CHECK(hipFree(dq));
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  return finish("float_division");
}
