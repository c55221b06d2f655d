#include "harness.h"

#include <stdlib.h>

static uint64_t mix(uint64_t a, uint32_t b) { return (a ^ b) * 0x9E3779B97F4A7C15ULL + (a >> 29); }
static uint32_t level3(uint32_t v) { return v * 2654435761u; }
static uint32_t level2(uint32_t v) { return level3(v + 1) ^ level3(v >> 1); }
static uint32_t level1(uint32_t v) { return level2(v) + level2(~v); }

void corpus_case(corpus_t *c) {
    const uint32_t n = 600;
    uint32_t *in = corpus_alloc(c, n * 4);
    uint64_t *out = corpus_alloc(c, n * 32), *want = calloc(n, 32);
    for (uint32_t i = 0; i < n; i++)
        in[i] = corpus_rand(c);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = in[i], arr[40], len = 8 + v % 32, s = 0;
        uint64_t *w = want + 4 * i;
        w[0] = mix((uint64_t)v << 17 | i, v);
        for (uint32_t k = 0; k < len; k++)
            arr[k] = v * (k + 1) ^ (v >> k % 32);
        for (uint32_t k = 0; k < len; k++)
            s += arr[(k * 5) % len] * (k | 1);
        w[1] = (uint32_t)(s + arr[v % 8]);
        float x = (float)(v % 1000) * 0.5f;
        double y = (double)v * 0.25;
        uint64_t bi = (uint64_t)v * v, bj = (uint64_t)i << 40;
        w[2] = (uint32_t)(v + 2 * (v >> 1) + 3 * (v >> 2) + 4 * (v >> 3) + 5 * i + 6 * (i + 1) +
                          7 * (i + 2) + 8 * (v ^ i) + (uint32_t)(bi >> 3) + (uint32_t)(bj >> 7) +
                          (uint32_t)(int32_t)x + (uint32_t)(int64_t)y);
        w[3] = (v & 1) ? level1(v) : (uint64_t)level3(v) << 8;
    }
    RUN1(c, "noinline_call", n, 64, A_BUF(out), A_BUF(in), A_VAL(uint32_t, n));
    corpus_check_u64(c, "out", out, want, n * 4);
    free(want);
}
