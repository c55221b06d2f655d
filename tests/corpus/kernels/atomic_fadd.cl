// Floating-point accumulation through atomics: float and double add by compare-and-swap loops on
// the bit patterns, and float add through the atomic builtin (atomicrmw fadd: a native
// instruction or the compiler's own CAS loop). The addends are small integers, so every order of
// additions gives the same exact sum.
#include "corpus.h"

__kernel void atomic_fadd(__global float *fsum, __global double *dsum, __global const int *in,
                           uint n) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    float v = (float)in[i];
    __global uint *fb = (__global uint *)&fsum[in[i] & 7];
    uint old = __atomic_load_n(fb, __ATOMIC_RELAXED), upd;
    do {
        upd = as_uint(as_float(old) + v);
    } while (!__atomic_compare_exchange_n(fb, &old, upd, false, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED));
    __global ulong *db = (__global ulong *)&dsum[i & 3];
    ulong dold = __atomic_load_n(db, __ATOMIC_RELAXED), dupd;
    do {
        dupd = as_ulong(as_double(dold) + (double)in[i] * 0.5);
    } while (!__atomic_compare_exchange_n(db, &dold, dupd, false, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED));
    __atomic_fetch_add(&fsum[8 + (i & 1)], v, __ATOMIC_RELAXED);
}
