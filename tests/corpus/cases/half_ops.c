#include "harness.h"

#include <stdlib.h>

/* The host reference computes each half operation in float, whose 24-bit significand makes a
 * single add/sub/mul exact before the one rounding to half: the same as correctly rounded half. */
static float h2f(uint16_t h) {
    _Float16 v;
    memcpy(&v, &h, 2);
    return (float)v;
}
static uint16_t f2h(float f) {
    _Float16 v = (_Float16)f;
    uint16_t h;
    memcpy(&h, &v, 2);
    return h;
}

void corpus_case(corpus_t *c) {
    const uint32_t n = 1000;
    uint16_t *a = corpus_alloc(c, n * 2), *b = corpus_alloc(c, n * 2);
    float *f = corpus_alloc(c, n * 4);
    uint16_t *out = corpus_alloc(c, n * 18), *want = calloc(n, 18);
    for (uint32_t i = 0; i < n; i++) {
        float s = i & 1 ? -1.0f : 1.0f;
        a[i] = f2h(s * corpus_randf(c, 0.5f, 120.0f));
        b[i] = i % 10 == 3 ? a[i] : f2h(-s * corpus_randf(c, 0.5f, 60.0f));
        f[i] = corpus_randf(c, -3000.0f, 3000.0f);
    }
    for (uint32_t i = 0; i < n; i++) {
        float x = h2f(a[i]), y = h2f(b[i]), r;
        uint16_t *w = want + 9 * i;
        r = x + y;
        w[0] = f2h(r);
        r = x - y;
        w[1] = f2h(r);
        r = x * y;
        w[2] = f2h(r);
        w[3] = x < y ? a[i] : b[i];
        w[4] = f2h(f[i]);
        r = x * 8.0f;
        w[5] = (uint16_t)(int16_t)h2f(f2h(r));
        w[6] = f2h((float)(int16_t)(a[i] >> 4));
        w[7] = (uint16_t)((x < y) | ((x == y) << 1) | ((x >= 0.0f) << 2));
        r = x * y;
        uint32_t u;
        memcpy(&u, &r, 4);
        w[8] = (uint16_t)(u >> 16);
    }
    RUN1(c, "half_ops", n, 64, A_BUF(out), A_BUF(a), A_BUF(b), A_BUF(f), A_VAL(uint32_t, n));
    corpus_check_bytes(c, "out", out, want, 2, n * 9);
    free(want);
}
