// A 2-D grid whose size is not a multiple of the work-group size in either dimension: every
// work-item inside the grid writes its coordinates, local ids and group ids once; none outside.
#include "corpus.h"

__kernel void grid2d(__global uint *out, __global uint *hits, __global uint *sizes, uint w,
                     uint h) {
    uint x = c_gid(0), y = c_gid(1);
    if (x >= w || y >= h) {
        __atomic_fetch_add(&sizes[4], 1u, __ATOMIC_RELAXED); // outside the grid: must not run
        return;
    }
    uint idx = y * w + x;
    out[idx] = (c_group(1) << 24) | (c_group(0) << 16) | (c_lid(1) << 8) | c_lid(0);
    __atomic_fetch_add(&hits[idx], 1u, __ATOMIC_RELAXED);
    if (x == 0 && y == 0) {
        sizes[0] = c_gsize(0);
        sizes[1] = c_gsize(1);
        sizes[2] = c_lsize(0);
        sizes[3] = c_lsize(1);
    }
}
