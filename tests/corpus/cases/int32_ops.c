#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t n = 1000; /* not a multiple of the work-group size: a partial last group */
    uint32_t *a = corpus_alloc(c, n * 4), *b = corpus_alloc(c, n * 4);
    uint32_t *out = corpus_alloc(c, n * 12 * 4), *want = calloc(n * 12, 4);
    for (uint32_t i = 0; i < n; i++) {
        a[i] = corpus_rand(c);
        b[i] = i % 7 == 0 ? 0 : i % 11 == 0 ? 0xffffffffu : corpus_rand(c) >> (i % 29);
        if (i == 3)
            a[i] = 0x80000000u;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x = a[i], y = b[i];
        int32_t sx = (int32_t)x, sy = (int32_t)y;
        uint32_t *w = want + 12 * i;
        int sdiv_ok = sy != 0 && !(sx == INT32_MIN && sy == -1);
        w[0] = x + y;
        w[1] = x - y;
        w[2] = x * y;
        w[3] = (uint32_t)(((uint64_t)x * y) >> 32);
        w[4] = (uint32_t)(((int64_t)sx * sy) >> 32);
        w[5] = y ? x / y : 0xdeadu;
        w[6] = y ? x % y : 0xbeefu;
        w[7] = sdiv_ok ? (uint32_t)(sx / sy) : 1u;
        w[8] = sdiv_ok ? (uint32_t)(sx % sy) : 2u;
        w[9] = (x << (y & 31)) ^ (x >> (y & 31));
        w[10] = (uint32_t)(sx >> (y & 31));
        w[11] = (x & y) | (~x ^ (y >> 7));
    }
    RUN1(c, "int32_ops", n, 64, A_BUF(out), A_BUF(a), A_BUF(b), A_VAL(uint32_t, n));
    corpus_check_u32(c, "out", out, want, n * 12);
    free(want);
}
