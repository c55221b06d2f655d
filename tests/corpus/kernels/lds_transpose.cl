// Tiled matrix transpose through LDS on a 2-D grid: 16x16 work-groups, a padded tile against bank
// conflicts, edge tiles partly outside the matrix (launched as whole work-groups).
#include "corpus.h"

#define TILE 16

__kernel void lds_transpose(__global uint *dst, __global const uint *src, uint w, uint h) {
    __local uint tile[TILE][TILE + 1];
    uint lx = c_lid(0), ly = c_lid(1);
    uint x = c_group(0) * TILE + lx, y = c_group(1) * TILE + ly;
    if (x < w && y < h)
        tile[ly][lx] = src[y * w + x];
    c_barrier();
    uint tx = c_group(1) * TILE + lx, ty = c_group(0) * TILE + ly;
    if (tx < h && ty < w)
        dst[ty * h + tx] = tile[lx][ly];
}
