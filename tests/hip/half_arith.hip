// Half precision arithmetic as hipcc compiles it: __hadd, __hsub, __hmul, __hfma and their
// half2 forms (v_add/sub/mul/fma_f16, v_pk_add/mul/fma_f16), bit for bit against an exact
// host reference: every f16 is an integer times 2^-24 or more, so a*b + c scaled by 2^48 is an
// exact 128-bit integer, rounded once to f16 (to nearest even). NaN results are compared as
// NaNs. Inputs: random bit patterns (every class), operands near each other (cancellation,
// exact zeros), and fmas whose product lies halfway between two f16 values with a tiny
// addend (where rounding twice, through f32, would go wrong). Then each form over 2^22
// elements (times in the dispatch trace).
#include <hip/hip_fp16.h>
#include <cstdint>
#include <vector>
#include "hip_check.h"

enum Op { ADD, SUB, MUL, FMA, NOP };
static const char* NAMES[NOP] = {"add", "sub", "mul", "fma"};

__global__ void scalar(int op, const __half* a, const __half* b, const __half* c, __half* r,
                       int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  switch (op) {
    case ADD: r[i] = __hadd(a[i], b[i]); break;
    case SUB: r[i] = __hsub(a[i], b[i]); break;
    case MUL: r[i] = __hmul(a[i], b[i]); break;
    default: r[i] = __hfma(a[i], b[i], c[i]); break;
  }
}

__global__ void packed(int op, const __half2* a, const __half2* b, const __half2* c, __half2* r,
                       int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  switch (op) {
    case ADD: r[i] = __hadd2(a[i], b[i]); break;
    case SUB: r[i] = __hsub2(a[i], b[i]); break;
    case MUL: r[i] = __hmul2(a[i], b[i]); break;
    default: r[i] = __hfma2(a[i], b[i], c[i]); break;
  }
}

typedef unsigned __int128 u128;

// An f16's value as (-1)^neg * k * 2^e, k < 2048; false for infinities and NaNs.
static bool decode(uint16_t h, bool& neg, uint32_t& k, int& e) {
  neg = h >> 15;
  int ex = h >> 10 & 31;
  uint32_t m = h & 1023;
  if (ex == 31) return false;
  k = ex ? 1024 + m : m;
  e = ex ? ex - 25 : -24;
  return true;
}

// The f16 nearest (ties to even) to (-1)^neg * M * 2^-48, M > 0.
static uint16_t round_f16(bool neg, u128 m) {
  int b = 0;
  for (u128 t = m; t; t >>= 1) b++;
  int ulp = b - 1 - 48 - 10;
  if (ulp < -24) ulp = -24;
  int shift = ulp + 48;  // >= 24
  u128 q = m >> shift, rem = m & (((u128)1 << shift) - 1), half = (u128)1 << (shift - 1);
  if (rem > half || (rem == half && (q & 1))) q++;
  while (q >= 2048) {
    q >>= 1;  // (even here: exact)
    ulp++;
  }
  uint16_t s = neg ? 0x8000 : 0;
  if (q < 1024) return s | (uint16_t)q;  // subnormal (ulp == -24)
  int ex = ulp + 25;
  if (ex >= 31) return s | 0x7c00;
  return s | (uint16_t)(ex << 10 | (q - 1024));
}

static float f16_to_float(uint16_t h) {
  bool neg;
  uint32_t k;
  int e;
  if (!decode(h, neg, k, e)) {
    if (h & 1023) return NAN;
    return neg ? -INFINITY : INFINITY;
  }
  float v = ldexpf((float)k, e);
  return neg ? -v : v;
}

// The exact result of op rounded to f16; 0x7e00 for any NaN.
static uint16_t reference(int op, uint16_t a, uint16_t b, uint16_t c) {
  if (op == SUB) b ^= 0x8000;
  // Infinities and NaNs: the host's float arithmetic (exact for these).
  bool fa, fb, fc = true;
  bool na, nb, nc = false;
  uint32_t ka, kb, kc = 0;
  int ea, eb, ec = -24;
  fa = decode(a, na, ka, ea);
  fb = decode(b, nb, kb, eb);
  if (op == FMA) fc = decode(c, nc, kc, ec);
  if (!fa || !fb || !fc) {
    float x = f16_to_float(a), y = f16_to_float(b), z = f16_to_float(c);
    float r = op == MUL ? x * y : op == FMA ? x * y + z : x + y;
    if (std::isnan(r)) return 0x7e00;
    if (std::isinf(r)) return r < 0 ? 0xfc00 : 0x7c00;
    // A finite result from infinite inputs cannot happen; from NaN inputs it is NaN.
    return 0x7e00;
  }
  // Terms scaled by 2^48: (sign, magnitude).
  bool s1, s2;
  u128 m1, m2;
  if (op == ADD || op == SUB) {
    s1 = na, m1 = (u128)ka << (ea + 48);
    s2 = nb, m2 = (u128)kb << (eb + 48);
  } else {
    s1 = na != nb, m1 = (u128)((uint64_t)ka * kb) << (ea + eb + 48);
    s2 = nc, m2 = (u128)kc << (ec + 48);
    if (op == MUL) s2 = s1;  // (m2 = 0: x*y's zero keeps the product's sign)
  }
  bool neg;
  u128 m;
  if (s1 == s2) {
    neg = s1, m = m1 + m2;
  } else if (m1 >= m2) {
    neg = s1, m = m1 - m2;
  } else {
    neg = s2, m = m2 - m1;
  }
  if (m == 0) return (s1 && s2) ? 0x8000 : 0;  // an exact zero: -0 only from two -0 terms
  return round_f16(neg, m);
}

static uint32_t next(uint64_t& s) {
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  return (uint32_t)s;
}

static bool is_nan16(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 1023); }

int main() {
  const int n = 1 << 20;
  std::vector<uint16_t> a(n), b(n), c(n), r(n);
  uint64_t s = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < n; i++) {
    uint32_t kind = next(s) % 8;
    a[i] = next(s);
    b[i] = next(s);
    c[i] = next(s);
    if (kind == 0) {  // near each other: cancellation and exact zeros
      b[i] = (a[i] ^ (next(s) & 0x8000)) + next(s) % 5;
    } else if (kind == 1) {  // halfway products and tiny addends
      static const uint16_t as[] = {0x4200, 0x4500, 0x4700, 0xc200};
      static const uint16_t bs[] = {0x3c01, 0x3bff, 0x3c03};
      static const uint16_t cs[] = {0x0001, 0x8001, 0x0003, 0x8000, 0x0100};
      a[i] = as[next(s) % 4], b[i] = bs[next(s) % 3], c[i] = cs[next(s) % 5];
    } else if (kind == 2) {  // small operands: results below the normal range
      a[i] &= 0x9fff, b[i] &= 0x9fff;
    } else if (kind >= 3) {  // moderate exponents: ordinary arithmetic
      a[i] = (a[i] & 0x83ff) | (uint16_t)(9 + next(s) % 14) << 10;
      b[i] = (b[i] & 0x83ff) | (uint16_t)(9 + next(s) % 14) << 10;
      c[i] = (c[i] & 0x83ff) | (uint16_t)(5 + next(s) % 20) << 10;
    }
  }
  __half *da, *db, *dc, *dr;
  for (__half** p : {&da, &db, &dc, &dr}) HIP_CHECK(hipMalloc(p, n * 2));
  HIP_CHECK(hipMemcpy(da, a.data(), n * 2, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, b.data(), n * 2, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dc, c.data(), n * 2, hipMemcpyHostToDevice));
  for (int form = 0; form < 2; form++) {
    for (int op = 0; op < NOP; op++) {
      if (form == 0)
        scalar<<<n / 256, 256>>>(op, da, db, dc, dr, n);
      else
        packed<<<n / 2 / 256, 256>>>(op, (__half2*)da, (__half2*)db, (__half2*)dc,
                                     (__half2*)dr, n / 2);
      HIP_CHECK(hipGetLastError());
      HIP_CHECK(hipMemcpy(r.data(), dr, n * 2, hipMemcpyDeviceToHost));
      int bad = 0;
      for (int i = 0; i < n; i++) {
        uint16_t want = reference(op, a[i], b[i], c[i]);
        bool ok = is_nan16(want) ? is_nan16(r[i]) : r[i] == want;
        if (!ok && bad++ < 10)
          fprintf(stderr, "%s%s(%04x, %04x, %04x): got %04x, want %04x\n", NAMES[op],
                  form ? "2" : "", a[i], b[i], c[i], r[i], want);
      }
      EXPECT(bad == 0, "%s%s: %d of %d results off", NAMES[op], form ? "2" : "", bad, n);
      printf("%s%s: %d values\n", NAMES[op], form ? "2" : "", n);
    }
  }
  for (__half* p : {da, db, dc, dr}) HIP_CHECK(hipFree(p));

  // Each form at size: 2^22 elements, three times (times in the dispatch trace).
  const int m = 1 << 22;
  for (__half** p : {&da, &db, &dc, &dr}) HIP_CHECK(hipMalloc(p, m * 2));
  HIP_CHECK(hipMemset(da, 0x3c, m * 2));
  HIP_CHECK(hipMemset(db, 0x40, m * 2));
  HIP_CHECK(hipMemset(dc, 0x38, m * 2));
  for (int form = 0; form < 2; form++)
    for (int op = 0; op < NOP; op++)
      for (int k = 0; k < 3; k++) {
        if (form == 0)
          scalar<<<m / 256, 256>>>(op, da, db, dc, dr, m);
        else
          packed<<<m / 2 / 256, 256>>>(op, (__half2*)da, (__half2*)db, (__half2*)dc,
                                       (__half2*)dr, m / 2);
      }
  HIP_CHECK(hipDeviceSynchronize());
  for (__half* p : {da, db, dc, dr}) HIP_CHECK(hipFree(p));
  return finish("half_arith");
}
