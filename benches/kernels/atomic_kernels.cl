// The atomics benchmark's kernels (benches/host/atomic_bench.c): a 256-bin histogram of the
// keys' low bytes with atomics, in shared memory (per-work-group bins added to the global
// ones at the end) and straight into global memory. Work-groups of 256.
#include "bench.h"

__kernel void histogram_local(__global const uint *keys, __global uint *bins, uint n) {
    __local uint h[256];
    uint t = c_lid(0);
    h[t] = 0;
    c_barrier();
    uint step = c_gsize(0);
    for (uint i = c_group(0) * 256 + t; i < n; i += step)
        __atomic_fetch_add(&h[keys[i] & 255], 1u, __ATOMIC_RELAXED);
    c_barrier();
    __atomic_fetch_add(&bins[t], h[t], __ATOMIC_RELAXED);
}

__kernel void histogram_global(__global const uint *keys, __global uint *bins, uint n) {
    uint i = c_gid(0);
    if (i < n)
        __atomic_fetch_add(&bins[keys[i] & 255], 1u, __ATOMIC_RELAXED);
}
