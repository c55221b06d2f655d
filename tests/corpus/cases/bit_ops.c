#include "harness.h"

#include <stdlib.h>

static uint32_t rev32(uint32_t v) {
    uint32_t r = 0;
    for (int k = 0; k < 32; k++)
        r |= ((v >> k) & 1u) << (31 - k);
    return r;
}

void corpus_case(corpus_t *c) {
    const uint32_t n = 1024 + 31;
    uint32_t *in = corpus_alloc(c, n * 4), *out = corpus_alloc(c, n * 48), *want = calloc(n, 48);
    for (uint32_t i = 0; i < n; i++)
        in[i] = i % 37 == 0 ? 0 : corpus_rand(c) >> (i % 32);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = in[i], *o = want + 12 * i, pc = 0, pcw = 0, clz = 32, ctz = 32, clzw = 64;
        uint64_t w = (uint64_t)v << 32 | in[(i + 1) % n];
        for (int k = 0; k < 32; k++) {
            pc += (v >> k) & 1;
            if (((v >> k) & 1) && ctz == 32)
                ctz = (uint32_t)k;
            if ((v >> (31 - k)) & 1 && clz == 32)
                clz = (uint32_t)k;
        }
        for (int k = 0; k < 64; k++) {
            pcw += (w >> k) & 1;
            if ((w >> (63 - k)) & 1 && clzw == 64)
                clzw = (uint32_t)k;
        }
        o[0] = pc;
        o[1] = clz;
        o[2] = ctz;
        o[3] = rev32(v);
        o[4] = (v >> 24) | ((v >> 8) & 0xff00) | ((v << 8) & 0xff0000) | (v << 24);
        o[5] = (v << (i & 31)) | (v >> ((32 - (i & 31)) & 31));
        o[6] = pcw;
        o[7] = clzw;
        o[8] = rev32((uint32_t)(w >> 32)); /* low half of the 64-bit reverse */
        o[9] = (v & 0xffffff) * (in[(i + 3) % n] & 0xffffff);
        o[10] = (v >> (i % 20)) & ((1u << (1 + i % 12)) - 1);
        o[11] = (v & ~(0xffu << 8)) | ((in[(i + 2) % n] & 0xff) << 8);
    }
    RUN1(c, "bit_ops", n, 64, A_BUF(out), A_BUF(in), A_VAL(uint32_t, n));
    corpus_check_u32(c, "out", out, want, n * 12);
    free(want);
}
