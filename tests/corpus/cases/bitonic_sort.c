#include "harness.h"

#include <stdlib.h>

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

void corpus_case(corpus_t *c) {
    const uint32_t groups = 24, n = groups * 256;
    uint32_t *data = corpus_alloc(c, n * 4), *want = calloc(n, 4);
    for (uint32_t i = 0; i < n; i++)
        data[i] = corpus_rand(c) % (i < 256 ? 50 : 0xffffffffu); /* group 0: many duplicates */
    memcpy(want, data, n * 4);
    for (uint32_t g = 0; g < groups; g++)
        qsort(want + g * 256, 256, 4, cmp_u32);
    RUN1(c, "bitonic_sort", n, 256, A_BUF(data));
    corpus_check_u32(c, "data", data, want, n);
    free(want);
}
