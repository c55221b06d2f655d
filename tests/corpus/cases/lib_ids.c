#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t nx = 21, ny = 10, nz = 5, wx = 8, wy = 4, wz = 2, n = nx * ny * nz;
    uint32_t *out = corpus_alloc(c, n * 64), *want = calloc(n, 64);
    const uint32_t gx = (nx + wx - 1) / wx, gy = (ny + wy - 1) / wy, gz = (nz + wz - 1) / wz;
    for (uint32_t z = 0; z < nz; z++)
        for (uint32_t y = 0; y < ny; y++)
            for (uint32_t x = 0; x < nx; x++) {
                uint32_t lin = (z * ny + y) * nx + x, *o = want + 16 * lin;
                /* The size of this item's group: partial in the last group of a dimension. */
                uint32_t sx = x / wx == gx - 1 ? nx - (gx - 1) * wx : wx;
                uint32_t sy = y / wy == gy - 1 ? ny - (gy - 1) * wy : wy;
                uint32_t sz = z / wz == gz - 1 ? nz - (gz - 1) * wz : wz;
                o[0] = 3;
                o[1] = x | y << 10 | z << 20;
                o[2] = (x % wx) | (y % wy) << 10 | (z % wz) << 20;
                o[3] = (x / wx) | (y / wy) << 10 | (z / wz) << 20;
                o[4] = sx | sy << 10 | sz << 20;
                o[5] = wx | wy << 10 | wz << 20;
                o[6] = gx | gy << 10 | gz << 20;
                o[7] = nx | ny << 10 | nz << 20;
                o[8] = 0;
                /* ROCm's device library (ockl) computes the local linear id from the enqueued
                 * group sizes (packet / hidden_group_size), not the partial ones. */
                o[9] = ((z % wz) * wy + (y % wy)) * wx + (x % wx);
                o[10] = lin;
            }
    RUN3(c, "lib_ids", 3, ((size_t[3]){ nx, ny, nz }), ((size_t[3]){ wx, wy, wz }), A_BUF(out),
         A_VAL(uint32_t, nx), A_VAL(uint32_t, ny), A_VAL(uint32_t, nz));
    /* The OpenCL validation back end rounds the grid up (PoCL has no partial work-groups), which
     * changes the sizes and linear ids; only the other fields are comparable there. */
    if (corpus_code_object_version(c) == 0)
        for (uint32_t i = 0; i < n; i++)
            for (int k = 4; k <= 10; k += k == 4 ? 3 : k == 7 ? 2 : 1)
                out[16 * i + k] = want[16 * i + k];
    corpus_check_u32(c, "ids", out, want, n * 16);
    free(want);
}
