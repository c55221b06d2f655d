#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t nx = 19, ny = 11, nz = 7, wx = 8, wy = 4, wz = 2, n = nx * ny * nz;
    uint32_t *out = corpus_alloc(c, 2 * n * 4), *want = calloc(2 * n, 4);
    uint64_t *sum = corpus_alloc(c, 8), wsum = 0;
    for (uint32_t z = 0; z < nz; z++)
        for (uint32_t y = 0; y < ny; y++)
            for (uint32_t x = 0; x < nx; x++) {
                uint32_t idx = (z * ny + y) * nx + x;
                want[idx] = (z % wz) << 20 | (y % wy) << 10 | (x % wx);
                want[n + idx] = (z / wz) << 20 | (y / wy) << 10 | (x / wx);
                wsum += (uint64_t)x * 1000003u + (uint64_t)y * 1009u + (uint64_t)z * 7u + 1;
            }
    RUN3(c, "grid3d", 3, ((size_t[3]){ nx, ny, nz }), ((size_t[3]){ wx, wy, wz }), A_BUF(out),
         A_BUF(sum), A_VAL(uint32_t, nx), A_VAL(uint32_t, ny), A_VAL(uint32_t, nz));
    corpus_check_u32(c, "ids", out, want, 2 * n);
    corpus_check_u64(c, "sum", sum, &wsum, 1);
    free(want);
}
