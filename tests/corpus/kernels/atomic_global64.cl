// 64-bit global atomics: add with returned values, and/or/xor, unsigned and signed min/max, and
// a 64-bit compare-and-swap loop; operands straddle the 32-bit halves.
#include "corpus.h"

// acc: [0] counter (+2^32+1 per item), [1] sum, [2] and, [3] or, [4] xor, [5] umin, [6] umax,
// [7] smin, [8] smax, [9..41) CAS buckets.
__kernel void atomic_global64(__global ulong *acc, __global ulong *ret, __global const ulong *in,
                              uint n) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    ulong v = in[i];
    ret[i] = __atomic_fetch_add(&acc[0], 0x100000001UL, __ATOMIC_RELAXED);
    __atomic_fetch_add(&acc[1], v, __ATOMIC_RELAXED);
    __atomic_fetch_and(&acc[2], v | 0x0f0f0f0f0f0f0f0fUL, __ATOMIC_RELAXED);
    __atomic_fetch_or(&acc[3], v & 0x1000100010001000UL, __ATOMIC_RELAXED);
    __atomic_fetch_xor(&acc[4], v, __ATOMIC_RELAXED);
    __atomic_fetch_min(&acc[5], v, __ATOMIC_RELAXED);
    __atomic_fetch_max(&acc[6], v, __ATOMIC_RELAXED);
    __atomic_fetch_min((__global long *)&acc[7], (long)v, __ATOMIC_RELAXED);
    __atomic_fetch_max((__global long *)&acc[8], (long)v, __ATOMIC_RELAXED);
    __global ulong *b = &acc[9 + (v & 31)];
    ulong old = __atomic_load_n(b, __ATOMIC_RELAXED), upd;
    do {
        upd = old + (v >> 40) + 0x100000000UL;
    } while (!__atomic_compare_exchange_n(b, &old, upd, false, __ATOMIC_ACQ_REL,
                                          __ATOMIC_RELAXED));
}
