#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t n = 700;
    uint64_t *a = corpus_alloc(c, n * 8), *b = corpus_alloc(c, n * 8);
    uint64_t *out = corpus_alloc(c, n * 12 * 8), *want = calloc(n * 12, 8);
    for (uint32_t i = 0; i < n; i++) {
        a[i] = (uint64_t)corpus_rand(c) << 32 | corpus_rand(c);
        uint64_t r = (uint64_t)corpus_rand(c) << 32 | corpus_rand(c);
        b[i] = i % 8 == 0 ? 0 : i % 15 == 0 ? ~0ull : r >> (i % 64);
        if (i % 50 == 1)
            a[i] = 1ull << 63;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint64_t x = a[i], y = b[i], *w = want + 12 * i;
        int64_t sx = (int64_t)x, sy = (int64_t)y;
        int ok = sy && !(sx == INT64_MIN && sy == -1);
        w[0] = x + y;
        w[1] = x - y;
        w[2] = x * y;
        w[3] = y ? x / y : 7;
        w[4] = y ? x % y : 9;
        w[5] = ok ? (uint64_t)(sx / sy) : 11;
        w[6] = ok ? (uint64_t)(sx % sy) : 13;
        w[7] = x << (y & 63);
        w[8] = (uint64_t)(sx >> (y & 63));
        w[9] = (x >> (y & 63)) | (x << ((64 - (y & 63)) & 63));
        w[10] = (uint64_t)((sx < sy) | ((x < y) << 1) | ((x == y) << 2));
        w[11] = (x ^ ~y) + (x & 0xffffffffull) * (y >> 32);
    }
    RUN1(c, "int64_ops", n, 64, A_BUF(out), A_BUF(a), A_BUF(b), A_VAL(uint32_t, n));
    corpus_check_u64(c, "out", out, want, n * 12);
    free(want);
}
