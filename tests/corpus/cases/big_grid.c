#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t n = (1u << 20) + 4321;
    uint32_t *out = corpus_alloc(c, (size_t)n * 4), *want = malloc((size_t)n * 4);
    uint64_t *total = corpus_alloc(c, 8), wt = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t h = i * 0x9E3779B1u;
        h ^= h >> 15;
        h *= 0x85EBCA77u;
        h ^= h >> 13;
        want[i] = h;
        wt += h & 0xffff;
    }
    RUN1(c, "big_grid", n, 256, A_BUF(out), A_BUF(total), A_VAL(uint32_t, n));
    corpus_check_u32(c, "out", out, want, n);
    corpus_check_u64(c, "total", total, &wt, 1);
    free(want);
}
