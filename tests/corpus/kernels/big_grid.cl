// Over a million work-items (1-D, 256 per group, a partial last group): each hashes its index;
// a per-group LDS reduction feeds one 64-bit global atomic, so that every item's result counts.
#include "corpus.h"

__kernel void big_grid(__global uint *out, __global ulong *total, uint n) {
    __local uint part[4];
    uint i = c_gid(0), l = c_lid(0);
    uint h = i * 0x9E3779B1u;
    h ^= h >> 15;
    h *= 0x85EBCA77u;
    h ^= h >> 13;
    if (l < 4)
        part[l] = 0;
    c_barrier();
    if (i < n) {
        out[i] = h;
        __atomic_fetch_add(&part[l & 3], h & 0xffff, __ATOMIC_RELAXED);
    }
    c_barrier();
    if (l == 0)
        __atomic_fetch_add(total, (ulong)part[0] + part[1] + part[2] + part[3], __ATOMIC_RELAXED);
}
