// A 3-D grid with partial work-groups in all three dimensions: flattened ids, and a 64-bit
// checksum of coordinates accumulated with an atomic.
#include "corpus.h"

__kernel void grid3d(__global uint *out, __global ulong *sum, uint nx, uint ny, uint nz) {
    uint x = c_gid(0), y = c_gid(1), z = c_gid(2);
    if (x >= nx || y >= ny || z >= nz)
        return;
    uint idx = (z * ny + y) * nx + x;
    out[idx] = (c_lid(2) << 20) | (c_lid(1) << 10) | c_lid(0);
    out[nx * ny * nz + idx] = (c_group(2) << 20) | (c_group(1) << 10) | c_group(0);
    __atomic_fetch_add(sum, (ulong)x * 1000003UL + (ulong)y * 1009UL + (ulong)z * 7UL + 1,
                       __ATOMIC_RELAXED);
}
