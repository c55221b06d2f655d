// Work-group sum reduction: each work-item adds ITEMS strided elements of its group's chunk
// (coalesced loads), then the group halves a 256-entry LDS array with a barrier per step and
// writes one partial sum. Unsigned sums are exact (modulo 2^32) in any order.
#include "bench.h"

#define WG 256
#define ITEMS 16

__kernel void reduce(__global uint *partial, __global const uint *in, uint n) {
    __local uint s[WG];
    uint lid = c_lid(0);
    uint base = c_group(0) * WG * ITEMS + lid;
    uint sum = 0;
    for (uint k = 0; k < ITEMS; k++) {
        uint i = base + k * WG;
        if (i < n)
            sum += in[i];
    }
    s[lid] = sum;
    c_barrier();
    for (uint span = WG / 2; span > 0; span >>= 1) {
        if (lid < span)
            s[lid] += s[lid + span];
        c_barrier();
    }
    if (lid == 0)
        partial[c_group(0)] = s[0];
}
