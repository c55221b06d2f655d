#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t n = 900;
    int16_t *a = corpus_alloc(c, n * 2), *b = corpus_alloc(c, n * 2);
    uint16_t *out = corpus_alloc(c, n * 20), *want = calloc(n, 20);
    for (uint32_t i = 0; i < n; i++) {
        a[i] = (int16_t)corpus_rand(c);
        b[i] = i % 9 == 0 ? 0 : i % 10 == 0 ? -1 : (int16_t)(corpus_rand(c) >> (i % 16));
        if (i % 20 == 0)
            a[i] = -32768;
    }
    for (uint32_t i = 0; i < n; i++) {
        int16_t x = a[i], y = b[i];
        uint16_t ux = (uint16_t)x, uy = (uint16_t)y, *w = want + 10 * i;
        w[0] = (uint16_t)(x + y);
        w[1] = (uint16_t)(x - y);
        w[2] = (uint16_t)((uint32_t)ux * uy);
        w[3] = (uint16_t)(((int32_t)x * y) >> 16);
        w[4] = uy ? (uint16_t)(ux / uy) : 0x1234;
        w[5] = (y && !(x == -32768 && y == -1)) ? (uint16_t)(x % y) : 0x4321;
        w[6] = (uint16_t)(ux << (uy & 15));
        w[7] = (uint16_t)(x >> (uy & 15));
        w[8] = (uint16_t)(x < y ? x : y);
        w[9] = ux > uy ? ux : uy;
    }
    RUN1(c, "int16_ops", n, 64, A_BUF(out), A_BUF(a), A_BUF(b), A_VAL(uint32_t, n));
    corpus_check_bytes(c, "out", out, want, 2, n * 10);
    free(want);
}
