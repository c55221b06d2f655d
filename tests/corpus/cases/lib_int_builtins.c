#include "harness.h"

#include <stdlib.h>

static uint32_t clz32(uint32_t v) { return v ? (uint32_t)__builtin_clz(v) : 32; }
static uint32_t ctz32(uint32_t v) { return v ? (uint32_t)__builtin_ctz(v) : 32; }
static int64_t sat64(__int128 v) {
    return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (int64_t)v;
}
static int32_t sat32(int64_t v) {
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}
/* mad24/mul24 on 24-bit signed operands: sign-extend the low 24 bits. */
static int32_t s24(int32_t v) { return (int32_t)((uint32_t)v << 8) >> 8; }

void corpus_case(corpus_t *c) {
    const uint32_t n = 1200;
    int32_t *a = corpus_alloc(c, n * 4), *b = corpus_alloc(c, n * 4);
    uint32_t *out = corpus_alloc(c, n * 64), *want = calloc(n, 64);
    uint64_t *o64 = corpus_alloc(c, n * 24), *w64 = calloc(n, 24);
    for (uint32_t i = 0; i < n; i++) {
        a[i] = (int32_t)corpus_rand(c) >> (i % 32);
        b[i] = i % 11 == 0 ? INT32_MAX - 3 : (int32_t)corpus_rand(c) >> (i % 30);
    }
    for (uint32_t i = 0; i < n; i++) {
        int32_t x = a[i], y = b[i];
        uint32_t ux = (uint32_t)x, uy = (uint32_t)y, *o = want + 16 * i, r = uy & 31;
        o[0] = (uint32_t)__builtin_popcount(ux);
        o[1] = clz32(ux);
        o[2] = ctz32(ux);
        o[3] = r ? (ux << r) | (ux >> (32 - r)) : ux;
        o[4] = (uint32_t)(s24(x >> 8) * s24(y >> 8) + 12345);
        o[5] = (ux & 0xffffff) * (uy & 0xffffff);
        o[6] = (uint32_t)(((int64_t)x * y) >> 32);
        o[7] = (uint32_t)sat32((int64_t)x + y);
        o[8] = ux > uy ? ux - uy : 0;
        o[9] = (uint32_t)(int32_t)(((int64_t)x + y) >> 1);
        o[10] = (uint32_t)(((uint64_t)ux + uy + 1) >> 1);
        o[11] = (uint32_t)(x > y ? (int64_t)x - y : (int64_t)y - x);
        o[12] = (uint32_t)(x < -5000 ? -5000 : x > 70000 ? 70000 : x);
        o[13] = (ux & ~0x0ff00ff0u) | (uy & 0x0ff00ff0u);
        int32_t ss = (int16_t)x + (int16_t)y;
        o[14] = (uint32_t)(ss > 32767 ? 32767 : ss < -32768 ? -32768 : ss) & 0xffff;
        uint8_t ua = (uint8_t)x, ub = (uint8_t)y;
        int8_t ca = (int8_t)x, cb = (int8_t)y;
        uint32_t absb = (uint32_t)(uint8_t)(cb < 0 ? -cb : cb);
        uint32_t mx = (uint32_t)(uint8_t)(ca > cb ? ca : cb);
        o[15] = (uint32_t)(ua > ub ? ua - ub : 0) | absb << 8 | mx << 16;
        int64_t lx = (int64_t)x * (1 << 20), ly = (int64_t)y * 977;
        w64[3 * i] = (uint64_t)(int64_t)(((__int128)lx * ly) >> 64);
        w64[3 * i + 1] = (uint64_t)ux << 32 | uy;
        w64[3 * i + 2] = (uint64_t)sat64((__int128)(int64_t)((uint64_t)lx * 4096) +
                                         (int64_t)((uint64_t)ly * 65536 * 4096));
    }
    RUN1(c, "lib_int_builtins", n, 64, A_BUF(out), A_BUF(o64), A_BUF(a), A_BUF(b),
         A_VAL(uint32_t, n));
    corpus_check_u32(c, "out", out, want, n * 16);
    corpus_check_u64(c, "out64", o64, w64, n * 3);
    free(want);
    free(w64);
}
