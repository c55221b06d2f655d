// Wave (warp) intrinsics on wave64: __shfl with lane and width, __shfl_up/down/xor, __ballot,
// __any, __all, __activemask (partial waves), __ballot in divergent code, __popcll/__popc/__ffsll/__clzll, __lane_id,
// and a butterfly reduction; the host models a 64-lane wave.
#include <cstdint>
#include <vector>
#include "hip_check.h"

enum { SHFL, SHFL_W16, UP, UP_W32, DOWN, DOWN_W8, XOR, XOR_W16, REDUCE, NSHUF };

__global__ void shuffles(const int* in, int* out) {
  int t = threadIdx.x;
  int v = in[blockIdx.x * blockDim.x + t];
  int* o = out + (blockIdx.x * blockDim.x + t) * NSHUF;
  o[SHFL] = __shfl(v, (t * 7 + 3) % 64);
  o[SHFL_W16] = __shfl(v, (t % 64) % 5, 16);  // source lane within the 16-lane segment
  o[UP] = __shfl_up(v, 3);
  o[UP_W32] = __shfl_up(v, 5, 32);
  o[DOWN] = __shfl_down(v, 9);
  o[DOWN_W8] = __shfl_down(v, 2, 8);
  o[XOR] = __shfl_xor(v, 37);
  o[XOR_W16] = __shfl_xor(v, 6, 16);
  int s = v;
  for (int m = 32; m > 0; m >>= 1) s += __shfl_xor(s, m);
  o[REDUCE] = s;
}

// HIP 5.2's headers have no __activemask (later HIP defines it as the EXEC mask): read EXEC the
// same way.
#ifndef HIP_HAS_ACTIVEMASK
__device__ static inline unsigned long long activemask64() { return __builtin_amdgcn_read_exec(); }
#define __activemask activemask64
#endif

__device__ __attribute__((noinline)) unsigned long long ballot_in_callee(int predicate) {
  return __ballot(predicate);
}

struct Votes {
  unsigned long long ballot, active, active_in_branch;
  int any, all, any_none, all_true, popc, lane, ffs, clz;
};

__global__ void votes(const int* in, Votes* out) {
  int t = threadIdx.x;
  int v = in[blockIdx.x * blockDim.x + t];
  Votes r = {};
  r.ballot = __ballot(v > 0);
  r.any = __any(v > 90);
  r.all = __all(v > -95);
  r.any_none = __any(v > 1000);
  r.all_true = __all(v < 1000);
  r.active = __activemask();
  // A ballot inside a divergent branch counts only the lanes in the branch. It is made in a
  // called function: at -O3 the compiler otherwise if-converts the branch and takes the ballot
  // (or EXEC) over the whole wave, which hardware then faithfully reports.
  if (v % 3 == 0) r.active_in_branch = ballot_in_callee(v > 0);
  r.popc = __popcll(r.ballot) + 1000 * __popc((unsigned)v);
  r.lane = __lane_id();
  r.ffs = __ffsll((unsigned long long)r.ballot);
  r.clz = __clzll(r.ballot);
  out[blockIdx.x * blockDim.x + t] = r;
}

// A block of 100 work-items: its second wave has only 36 lanes, which EXEC must show.
__global__ void partial_wave_mask(unsigned long long* out) {
  out[threadIdx.x] = __activemask();
}

static int lane_src_shfl(int lane, int src, int width) {
  return (lane & ~(width - 1)) + (src & (width - 1));
}

int main() {
  const int waves = 6, n = waves * 64;
  std::vector<int> in(n);
  for (int i = 0; i < n; i++) in[i] = (int)((i * 2654435761u) >> 7) % 201 - 100;
  int *din, *dout;
  Votes* dv;
  HIP_CHECK(hipMalloc(&din, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, n * NSHUF * sizeof(int)));
  HIP_CHECK(hipMalloc(&dv, n * sizeof(Votes)));
  HIP_CHECK(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  // Blocks of two waves each, so the wave is a proper subset of the block.
  shuffles<<<waves / 2, 128>>>(din, dout);
  HIP_CHECK(hipGetLastError());
  votes<<<waves / 2, 128>>>(din, dv);
  HIP_CHECK(hipGetLastError());
  std::vector<int> out(n * NSHUF);
  std::vector<Votes> got(n);
  HIP_CHECK(hipMemcpy(out.data(), dout, out.size() * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(got.data(), dv, n * sizeof(Votes), hipMemcpyDeviceToHost));

  std::vector<int> want(n * NSHUF);
  for (int w = 0; w < waves; w++) {
    const int* v = &in[w * 64];
    int sum = 0;
    for (int l = 0; l < 64; l++) sum += v[l];
    for (int l = 0; l < 64; l++) {
      int* o = &want[(w * 64 + l) * NSHUF];
      o[SHFL] = v[(l * 7 + 3) % 64];
      o[SHFL_W16] = v[lane_src_shfl(l, l % 5, 16)];
      // shfl_up/down keep the caller's value when the source falls outside its width segment.
      o[UP] = l >= 3 ? v[l - 3] : v[l];
      o[UP_W32] = (l % 32) >= 5 ? v[l - 5] : v[l];
      o[DOWN] = l + 9 < 64 ? v[l + 9] : v[l];
      o[DOWN_W8] = (l % 8) + 2 < 8 ? v[l + 2] : v[l];
      o[XOR] = v[l ^ 37];
      o[XOR_W16] = v[l ^ 6];
      o[REDUCE] = sum;
    }
  }
  for (int i = 0; i < n * NSHUF; i++)
    EXPECT(out[i] == want[i], "lane %d shuffle kind %d: got %d want %d", i / NSHUF, i % NSHUF,
           out[i], want[i]);

  for (int w = 0; w < waves; w++) {
    const int* v = &in[w * 64];
    unsigned long long ballot = 0, branch = 0;  // branch: lanes with v % 3 == 0 and v > 0
    int any = 0, all = 1;
    for (int l = 0; l < 64; l++) {
      if (v[l] > 0) ballot |= 1ull << l;
      if (v[l] % 3 == 0 && v[l] > 0) branch |= 1ull << l;
      any |= v[l] > 90;
      all &= v[l] > -95;
    }
    for (int l = 0; l < 64; l++) {
      const Votes& r = got[w * 64 + l];
      EXPECT(r.ballot == ballot, "wave %d lane %d ballot %llx want %llx", w, l, r.ballot, ballot);
      EXPECT(!!r.any == !!any && !!r.all == !!all, "wave %d lane %d any/all %d %d want %d %d", w,
             l, r.any, r.all, any, all);
      EXPECT(r.any_none == 0 && r.all_true != 0, "wave %d lane %d any_none %d all_true %d", w, l,
             r.any_none, r.all_true);
      EXPECT(r.active == ~0ull, "wave %d lane %d activemask %llx", w, l, r.active);
      unsigned long long wb = v[l] % 3 == 0 ? branch : 0;
      EXPECT(r.active_in_branch == wb, "wave %d lane %d ballot in branch %llx want %llx", w,
             l, r.active_in_branch, wb);
      int popc = __builtin_popcountll(ballot) + 1000 * __builtin_popcount((unsigned)v[l]);
      EXPECT(r.popc == popc, "wave %d lane %d popc %d want %d", w, l, r.popc, popc);
      EXPECT(r.lane == l, "wave %d lane %d __lane_id %d", w, l, r.lane);
      int ffs = ballot ? __builtin_ctzll(ballot) + 1 : 0;
      int clz = ballot ? __builtin_clzll(ballot) : 64;
      EXPECT(r.ffs == ffs && r.clz == clz, "wave %d lane %d ffs %d clz %d want %d %d", w, l, r.ffs,
             r.clz, ffs, clz);
    }
  }
  unsigned long long* dm;
  HIP_CHECK(hipMalloc(&dm, 100 * sizeof(unsigned long long)));
  partial_wave_mask<<<1, 100>>>(dm);
  HIP_CHECK(hipGetLastError());
  unsigned long long masks[100];
  HIP_CHECK(hipMemcpy(masks, dm, sizeof masks, hipMemcpyDeviceToHost));
  for (int t = 0; t < 100; t++) {
    unsigned long long want_mask = t < 64 ? ~0ull : (1ull << 36) - 1;
    EXPECT(masks[t] == want_mask, "partial wave, item %d: activemask %llx want %llx", t, masks[t],
           want_mask);
  }
  HIP_CHECK(hipFree(dm));
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  HIP_CHECK(hipFree(dv));
  return finish("wave_intrinsics");
}
