#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t w = 83, h = 45; /* neither a multiple of 16 */
    uint32_t *src = corpus_alloc(c, w * h * 4), *dst = corpus_alloc(c, w * h * 4);
    uint32_t *want = calloc(w * h, 4);
    for (uint32_t i = 0; i < w * h; i++)
        src[i] = corpus_rand(c);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            want[x * h + y] = src[y * w + x];
    /* Whole 16x16 groups over the source: a work-item writes the transposed element of another
     * one, so every group needs all its work-items; the kernel bound-checks the edge tiles. */
    RUN3(c, "lds_transpose", 2, ((size_t[3]){ (w + 15) / 16 * 16, (h + 15) / 16 * 16, 1 }), ((size_t[3]){ 16, 16, 1 }),
         A_BUF(dst), A_BUF(src), A_VAL(uint32_t, w), A_VAL(uint32_t, h));
    corpus_check_u32(c, "dst", dst, want, w * h);
    free(want);
}
