#include "harness.h"

#include <stdlib.h>

static uint64_t fbits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static uint64_t dbits(double d) {
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

void corpus_case(corpus_t *c) {
    const uint32_t n = 640;
    uint64_t *in = corpus_alloc(c, n * 8), *out = corpus_alloc(c, n * 96), *want = calloc(n, 96);
    for (uint32_t i = 0; i < n; i++)
        in[i] = ((uint64_t)corpus_rand(c) << 32 | corpus_rand(c)) >> (i % 61);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t v = in[i], *w = want + 12 * i;
        w[0] = (uint64_t)(int64_t)(int8_t)v;
        w[1] = (uint8_t)(v >> 8);
        w[2] = (uint64_t)(int64_t)(int16_t)(v >> 3);
        w[3] = (uint16_t)(v >> 17);
        w[4] = (uint64_t)(int64_t)(int32_t)(v >> 11);
        w[5] = (uint32_t)(v >> 29);
        w[6] = fbits((float)(int64_t)v);
        w[7] = dbits((double)v);
        w[8] = fbits((float)(uint32_t)v);
        w[9] = dbits((double)(int32_t)(v >> 32));
        float f = (float)(int32_t)v * 0.25f;
        w[10] = (uint64_t)(int64_t)f;
        double d = (double)(int64_t)v * 0.5;
        w[11] = (uint32_t)(int32_t)(d * 1e-10);
    }
    RUN1(c, "conversions", n, 64, A_BUF(out), A_BUF(in), A_VAL(uint32_t, n));
    corpus_check_u64(c, "out", out, want, n * 12);
    free(want);
}
