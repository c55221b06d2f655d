#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t w = 101, h = 27, wx = 16, wy = 4, n = w * h;
    uint32_t *out = corpus_alloc(c, n * 4), *hits = corpus_alloc(c, n * 4);
    uint32_t *sizes = corpus_alloc(c, 5 * 4), *want = calloc(n, 4), *ones = calloc(n, 4);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            want[y * w + x] = (y / wy) << 24 | (x / wx) << 16 | (y % wy) << 8 | (x % wx);
            ones[y * w + x] = 1;
        }
    RUN3(c, "grid2d", 2, ((size_t[3]){ w, h, 1 }), ((size_t[3]){ wx, wy, 1 }), A_BUF(out),
         A_BUF(hits), A_BUF(sizes), A_VAL(uint32_t, w), A_VAL(uint32_t, h));
    corpus_check_u32(c, "ids", out, want, n);
    corpus_check_u32(c, "hits", hits, ones, n);
    uint32_t sw[5] = { w, h, wx, wy, 0 };
    /* The OpenCL validation back end rounds the grid up (PoCL has no partial work-groups): the
     * grid sizes and the out-of-grid count are only meaningful on HSA. */
    if (corpus_code_object_version(c) == 0) {
        sizes[0] = w;
        sizes[1] = h;
        sizes[4] = 0;
    }
    corpus_check_u32(c, "sizes", sizes, sw, 5);
    free(want);
    free(ones);
}
