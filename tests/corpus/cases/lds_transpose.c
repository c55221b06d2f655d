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
    /* The grid covers the source: w x h work-items (the kernel's tile indices come from the
     * work-group ids, so the last row and column of groups are partial). */
    RUN3(c, "lds_transpose", 2, ((size_t[3]){ w, h, 1 }), ((size_t[3]){ 16, 16, 1 }),
         A_BUF(dst), A_BUF(src), A_VAL(uint32_t, w), A_VAL(uint32_t, h));
    corpus_check_u32(c, "dst", dst, want, w * h);
    free(want);
}
