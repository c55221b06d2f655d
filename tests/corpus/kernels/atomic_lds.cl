// LDS atomics: a 32-bit histogram per work-group, 64-bit add, min/max, exchange and a CAS loop on
// LDS words, then one work-item copies the group's results out after a barrier.
#include "corpus.h"

#define WG 128
#define BINS 16

__kernel void atomic_lds(__global uint *hist, __global ulong *stats, __global const uint *in,
                         uint n) {
    __local uint h[BINS];
    __local ulong wide_sum;
    __local uint mn, mx, cas_word, xchg;
    uint l = c_lid(0), i = c_gid(0);
    if (l < BINS)
        h[l] = 0;
    if (l == 0) {
        wide_sum = 0;
        mn = 0xffffffffu;
        mx = 0;
        cas_word = 0;
        xchg = 0;
    }
    c_barrier();
    if (i < n) {
        uint v = in[i];
        __atomic_fetch_add(&h[v % BINS], 1u, __ATOMIC_RELAXED);
        __atomic_fetch_add(&wide_sum, (ulong)v << 8, __ATOMIC_RELAXED);
        __atomic_fetch_min(&mn, v, __ATOMIC_RELAXED);
        __atomic_fetch_max(&mx, v, __ATOMIC_RELAXED);
        uint old = __atomic_load_n(&cas_word, __ATOMIC_RELAXED);
        while (!__atomic_compare_exchange_n(&cas_word, &old, old + (v & 0xff), false,
                                            __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            ;
        __atomic_exchange_n(&xchg, 1u, __ATOMIC_RELAXED);
    }
    c_barrier();
    uint g = c_group(0);
    if (l < BINS)
        hist[g * BINS + l] = h[l];
    if (l == 0) {
        stats[4 * g] = wide_sum;
        stats[4 * g + 1] = ((ulong)mx << 32) | mn;
        stats[4 * g + 2] = cas_word;
        stats[4 * g + 3] = xchg;
    }
}
