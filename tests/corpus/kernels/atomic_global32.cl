// 32-bit global atomics from every work-item: add (with returned tickets), sub, and/or/xor,
// signed and unsigned min/max, exchange, and a compare-and-swap loop.
#include "corpus.h"

// acc: [0] ticket counter, [1] sum, [2] sub, [3] and, [4] or, [5] xor, [6] umin, [7] umax,
// [8] smin, [9] smax, [10] exchange slot, [11..75) CAS-loop buckets.
__kernel void atomic_global32(__global uint *acc, __global uint *tickets, __global uint *swapped,
                              __global const uint *in, uint n) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    uint v = in[i];
    tickets[i] = __atomic_fetch_add(&acc[0], 1u, __ATOMIC_RELAXED);
    __atomic_fetch_add(&acc[1], v, __ATOMIC_RELAXED);
    __atomic_fetch_sub(&acc[2], v >> 4, __ATOMIC_RELAXED);
    __atomic_fetch_and(&acc[3], v | 0x00ff00ffu, __ATOMIC_RELAXED);
    __atomic_fetch_or(&acc[4], v & 0x11111111u, __ATOMIC_RELAXED);
    __atomic_fetch_xor(&acc[5], v, __ATOMIC_RELAXED);
    __atomic_fetch_min(&acc[6], v, __ATOMIC_RELAXED);
    __atomic_fetch_max(&acc[7], v, __ATOMIC_RELAXED);
    __atomic_fetch_min((__global int *)&acc[8], (int)v, __ATOMIC_RELAXED);
    __atomic_fetch_max((__global int *)&acc[9], (int)v, __ATOMIC_RELAXED);
    swapped[i] = __atomic_exchange_n(&acc[10], v, __ATOMIC_ACQ_REL);
    // A bucket update no single atomic instruction does: b = b * 3 + 1 (mod 2^32) does not
    // commute, so count the updates in the low byte of a packed word instead: +1 and +v>>24<<8.
    __global uint *b = &acc[11 + (v & 63)];
    uint old = __atomic_load_n(b, __ATOMIC_RELAXED), upd;
    do {
        upd = old + 1 + ((v >> 24) << 8);
    } while (!__atomic_compare_exchange_n(b, &old, upd, false, __ATOMIC_ACQ_REL,
                                          __ATOMIC_RELAXED));
}
