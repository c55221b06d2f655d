#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t n = 777;
    int8_t *a = corpus_alloc(c, n), *b = corpus_alloc(c, n);
    uint8_t *out = corpus_alloc(c, n * 10), *want = calloc(n, 10);
    for (uint32_t i = 0; i < n; i++) {
        a[i] = (int8_t)corpus_rand(c);
        b[i] = i % 13 == 0 ? 0 : i % 17 == 0 ? -1 : (int8_t)corpus_rand(c);
        if (i % 34 == 0)
            a[i] = -128;
    }
    for (uint32_t i = 0; i < n; i++) {
        int8_t x = a[i], y = b[i];
        uint8_t ux = (uint8_t)x, uy = (uint8_t)y, *w = want + 10 * i;
        int ok = y && !(x == -128 && y == -1);
        w[0] = (uint8_t)(x + y);
        w[1] = (uint8_t)(x - y);
        w[2] = (uint8_t)(x * y);
        w[3] = y ? (uint8_t)(ux / uy) : 0x5a;
        w[4] = ok ? (uint8_t)(x / y) : 0xa5;
        w[5] = ok ? (uint8_t)(x % y) : 0x3c;
        w[6] = (uint8_t)(x >> (uy & 7));
        w[7] = (uint8_t)(ux >> (uy & 7));
        w[8] = (uint8_t)((x < y) | ((ux < uy) << 1) | ((x == y) << 2));
        w[9] = (uint8_t)((ux * uy) >> 8);
    }
    RUN1(c, "int8_ops", n, 128, A_BUF(out), A_BUF(a), A_BUF(b), A_VAL(uint32_t, n));
    corpus_check_bytes(c, "out", out, want, 1, n * 10);
    free(want);
}
