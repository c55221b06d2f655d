// Atomics of every kind on global and shared memory: add/sub/min/max/and/or/xor/exch/CAS/inc/dec
// on 32-bit, 64-bit add/min/max/and/or/xor/exch/CAS, float and double add. Every work-item
// contributes a known value, so the final values (and, for exchange chains, the set of returned
// old values) are computed on the host.
#include <algorithm>
#include <cstdint>
#include <vector>
#include "hip_check.h"

enum { A_ADD, A_SUB, A_MIN, A_MAX, A_AND, A_OR, A_XOR, A_INC, A_DEC, A_CASADD, A_UADD, A_UMIN,
       A_UMAX, N32 };
enum { L_ADD, L_MIN, L_MAX, L_AND, L_OR, L_XOR, L_CASADD, N64 };

__device__ int val32(int i) { return (i * 7919) % 2001 - 1000; }
__device__ unsigned long long val64(int i) {
  return ((unsigned long long)(i * 2654435761u) << 20) ^ (unsigned long long)i;
}

__global__ void global_atomics(int* r32, unsigned* ru, unsigned long long* r64, float* rf,
                               double* rd, int* exch_old, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = val32(i);
  atomicAdd(&r32[A_ADD], v);
  atomicSub(&r32[A_SUB], v);
  atomicMin(&r32[A_MIN], v);
  atomicMax(&r32[A_MAX], v);
  atomicAnd(&r32[A_AND], ~(1 << (i % 31)));
  atomicOr(&r32[A_OR], 1 << (i % 29));
  atomicXor(&r32[A_XOR], v);
  atomicInc(&ru[A_INC], 1000u);  // wraps to 0 after 1000
  atomicDec(&ru[A_DEC], 777u);
  int old = r32[A_CASADD], assumed;
  do {
    assumed = old;
    old = atomicCAS(&r32[A_CASADD], assumed, assumed + v * 3);
  } while (old != assumed);
  atomicAdd(&ru[A_UADD], (unsigned)v);
  atomicMin(&ru[A_UMIN], (unsigned)v);
  atomicMax(&ru[A_UMAX], (unsigned)v);
  exch_old[i] = atomicExch(&r32[N32], i);

  unsigned long long w = val64(i);
  atomicAdd(&r64[L_ADD], w);
  atomicMin(&r64[L_MIN], w);
  atomicMax(&r64[L_MAX], w);
  atomicAnd(&r64[L_AND], ~(1ull << (i % 63)));
  atomicOr(&r64[L_OR], 1ull << (i % 61));
  atomicXor(&r64[L_XOR], w);
  unsigned long long o = r64[L_CASADD], a;
  do {
    a = o;
    o = atomicCAS(&r64[L_CASADD], a, a + w);
  } while (o != a);

  atomicAdd(&rf[0], (float)(i % 8) * 0.25f);  // exact in float: sums of multiples of 1/4
  atomicAdd(&rd[0], (double)v * 0.5);
}

// The same operations on shared memory, per block, then written out per block.
__global__ void shared_atomics(int* out32, unsigned long long* out64, float* outf, int n) {
  __shared__ int s[N32];
  __shared__ unsigned long long l[N64];
  __shared__ float f;
  int t = threadIdx.x;
  if (t == 0) {
    s[A_ADD] = 0; s[A_SUB] = 0; s[A_MIN] = 1 << 30; s[A_MAX] = -(1 << 30);
    s[A_AND] = -1; s[A_OR] = 0; s[A_XOR] = 0; s[A_INC] = 0; s[A_DEC] = 500;
    s[A_CASADD] = 0; s[A_UADD] = 0; s[A_UMIN] = -1; s[A_UMAX] = 0;
    l[L_ADD] = 0; l[L_MIN] = ~0ull; l[L_MAX] = 0; l[L_AND] = ~0ull; l[L_OR] = 0; l[L_XOR] = 0;
    l[L_CASADD] = 0;
    f = 0;
  }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + t;
  if (i < n) {
    int v = val32(i);
    atomicAdd(&s[A_ADD], v);
    atomicSub(&s[A_SUB], v);
    atomicMin(&s[A_MIN], v);
    atomicMax(&s[A_MAX], v);
    atomicAnd(&s[A_AND], ~(1 << (i % 31)));
    atomicOr(&s[A_OR], 1 << (i % 29));
    atomicXor(&s[A_XOR], v);
    atomicInc((unsigned*)&s[A_INC], 100u);
    atomicDec((unsigned*)&s[A_DEC], 777u);
    int old = s[A_CASADD], assumed;
    do {
      assumed = old;
      old = atomicCAS(&s[A_CASADD], assumed, assumed + v * 3);
    } while (old != assumed);
    atomicAdd((unsigned*)&s[A_UADD], (unsigned)v);
    atomicMin((unsigned*)&s[A_UMIN], (unsigned)v);
    atomicMax((unsigned*)&s[A_UMAX], (unsigned)v);
    unsigned long long w = val64(i);
    atomicAdd(&l[L_ADD], w);
    atomicMin(&l[L_MIN], w);
    atomicMax(&l[L_MAX], w);
    atomicAnd(&l[L_AND], ~(1ull << (i % 63)));
    atomicOr(&l[L_OR], 1ull << (i % 61));
    atomicXor(&l[L_XOR], w);
    unsigned long long o = l[L_CASADD], a;
    do {
      a = o;
      o = atomicCAS(&l[L_CASADD], a, a + w);
    } while (o != a);
    atomicAdd(&f, (float)(i % 8) * 0.25f);
  }
  __syncthreads();
  if (t < N32) out32[blockIdx.x * N32 + t] = s[t];
  if (t < N64) out64[blockIdx.x * N64 + t] = l[t];
  if (t == 0) outf[blockIdx.x] = f;
}

static int hval32(int i) { return (i * 7919) % 2001 - 1000; }
static unsigned long long hval64(int i) {
  return ((unsigned long long)(i * 2654435761u) << 20) ^ (unsigned long long)i;
}

// Host model of a set of work-items [lo, hi) applied in any order (all operations commute).
static void model(int lo, int hi, int* r, unsigned long long* l, double* f, double* d,
                  unsigned inc_limit, unsigned dec_limit) {
  for (int i = lo; i < hi; i++) {
    int v = hval32(i);
    r[A_ADD] = (int)((unsigned)r[A_ADD] + (unsigned)v);
    r[A_SUB] = (int)((unsigned)r[A_SUB] - (unsigned)v);
    r[A_MIN] = std::min(r[A_MIN], v);
    r[A_MAX] = std::max(r[A_MAX], v);
    r[A_AND] &= ~(1 << (i % 31));
    r[A_OR] |= 1 << (i % 29);
    r[A_XOR] ^= v;
    unsigned u = (unsigned)r[A_INC];
    r[A_INC] = (int)(u >= inc_limit ? 0 : u + 1);
    u = (unsigned)r[A_DEC];
    r[A_DEC] = (int)((u == 0 || u > dec_limit) ? dec_limit : u - 1);
    r[A_CASADD] = (int)((unsigned)r[A_CASADD] + (unsigned)(v * 3));
    r[A_UADD] = (int)((unsigned)r[A_UADD] + (unsigned)v);
    r[A_UMIN] = (int)std::min((unsigned)r[A_UMIN], (unsigned)v);
    r[A_UMAX] = (int)std::max((unsigned)r[A_UMAX], (unsigned)v);
    unsigned long long w = hval64(i);
    l[L_ADD] += w;
    l[L_MIN] = std::min(l[L_MIN], w);
    l[L_MAX] = std::max(l[L_MAX], w);
    l[L_AND] &= ~(1ull << (i % 63));
    l[L_OR] |= 1ull << (i % 61);
    l[L_XOR] ^= w;
    l[L_CASADD] += w;
    *f += (double)(i % 8) * 0.25;
    if (d) *d += (double)v * 0.5;
  }
}

int main() {
  const int n = 10000, bs = 256, blocks = (n + bs - 1) / bs;
  int* r32;
  unsigned long long* r64;
  float* rf;
  double* rd;
  int* exch_old;
  HIP_CHECK(hipMalloc(&r32, (N32 + 1) * sizeof(int)));
  HIP_CHECK(hipMalloc(&r64, N64 * sizeof(unsigned long long)));
  HIP_CHECK(hipMalloc(&rf, sizeof(float)));
  HIP_CHECK(hipMalloc(&rd, sizeof(double)));
  HIP_CHECK(hipMalloc(&exch_old, n * sizeof(int)));
  int init32[N32 + 1] = {0, 0, 1 << 30, -(1 << 30), -1, 0, 0, 0, 500, 0, 0, -1, 0, -1};
  unsigned long long init64[N64] = {0, ~0ull, 0, ~0ull, 0, 0, 0};
  float zf = 0;
  double zd = 0;
  HIP_CHECK(hipMemcpy(r32, init32, sizeof init32, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(r64, init64, sizeof init64, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(rf, &zf, sizeof zf, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(rd, &zd, sizeof zd, hipMemcpyHostToDevice));
  global_atomics<<<blocks, bs>>>(r32, (unsigned*)r32, r64, rf, rd, exch_old, n);
  HIP_CHECK(hipGetLastError());

  int got32[N32 + 1];
  unsigned long long got64[N64];
  float gotf;
  double gotd;
  HIP_CHECK(hipMemcpy(got32, r32, sizeof got32, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(got64, r64, sizeof got64, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&gotf, rf, sizeof gotf, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&gotd, rd, sizeof gotd, hipMemcpyDeviceToHost));
  // Inc/dec wrap depends on order only through the count, so the model is order-free here.
  int want32[N32 + 1];
  unsigned long long want64[N64];
  memcpy(want32, init32, sizeof init32);
  memcpy(want64, init64, sizeof init64);
  double wantf = 0, wantd = 0;
  model(0, n, want32, want64, &wantf, &wantd, 1000u, 777u);
  expect_equal("global 32-bit atomics", got32, want32, N32);
  expect_equal("global 64-bit atomics", got64, want64, N64);
  EXPECT(gotf == (float)wantf, "global float atomicAdd %.9g want %.9g", gotf, wantf);
  EXPECT(gotd == wantd, "global double atomicAdd %.17g want %.17g", gotd, wantd);

  // atomicExch: the old values returned plus the final one are exactly {-1, 0, ..., n-1}.
  std::vector<int> olds(n);
  HIP_CHECK(hipMemcpy(olds.data(), exch_old, n * sizeof(int), hipMemcpyDeviceToHost));
  olds.push_back(got32[N32]);
  std::sort(olds.begin(), olds.end());
  bool chain_ok = true;
  for (int k = 0; k <= n; k++) chain_ok &= olds[k] == k - 1;
  EXPECT(chain_ok, "atomicExch old values are not a permutation of -1..n-1");

  int* s32;
  unsigned long long* s64;
  float* sf;
  HIP_CHECK(hipMalloc(&s32, blocks * N32 * sizeof(int)));
  HIP_CHECK(hipMalloc(&s64, blocks * N64 * sizeof(unsigned long long)));
  HIP_CHECK(hipMalloc(&sf, blocks * sizeof(float)));
  shared_atomics<<<blocks, bs>>>(s32, s64, sf, n);
  HIP_CHECK(hipGetLastError());
  std::vector<int> g32(blocks * N32);
  std::vector<unsigned long long> g64(blocks * N64);
  std::vector<float> gf(blocks);
  HIP_CHECK(hipMemcpy(g32.data(), s32, g32.size() * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(g64.data(), s64, g64.size() * 8, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(gf.data(), sf, gf.size() * sizeof(float), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    int w32[N32] = {0, 0, 1 << 30, -(1 << 30), -1, 0, 0, 0, 500, 0, 0, -1, 0};
    unsigned long long w64[N64] = {0, ~0ull, 0, ~0ull, 0, 0, 0};
    double wf = 0;
    model(b * bs, std::min(n, (b + 1) * bs), w32, w64, &wf, nullptr, 100u, 777u);
    char what[64];
    snprintf(what, sizeof what, "shared 32-bit atomics, block %d", b);
    expect_equal(what, &g32[b * N32], w32, N32);
    snprintf(what, sizeof what, "shared 64-bit atomics, block %d", b);
    expect_equal(what, &g64[b * N64], w64, N64);
    EXPECT(gf[b] == (float)wf, "shared float atomicAdd block %d: %.9g want %.9g", b, gf[b], wf);
  }
  HIP_CHECK(hipFree(r32));
  HIP_CHECK(hipFree(r64));
  HIP_CHECK(hipFree(rf));
  HIP_CHECK(hipFree(rd));
  HIP_CHECK(hipFree(exch_old));
  HIP_CHECK(hipFree(s32));
  HIP_CHECK(hipFree(s64));
  HIP_CHECK(hipFree(sf));
  return finish("atomics");
}
