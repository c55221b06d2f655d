#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t n = 1300;
    int32_t *a = corpus_alloc(c, n * 4), *b = corpus_alloc(c, n * 4);
    uint32_t *out = corpus_alloc(c, n * 32), *want = calloc(n, 32);
    uint64_t *o64 = corpus_alloc(c, n * 16), *w64 = calloc(n, 16);
    float *of = corpus_alloc(c, n * 8), *wf = calloc(n, 8);
    for (uint32_t i = 0; i < n; i++) {
        a[i] = (int32_t)corpus_rand(c) >> (i % 31);
        b[i] = i % 9 == 0 ? a[i] : (int32_t)corpus_rand(c) >> (i % 29);
        if (i == 5)
            a[i] = INT32_MIN;
    }
    for (uint32_t i = 0; i < n; i++) {
        int32_t x = a[i], y = b[i];
        uint32_t ux = (uint32_t)x, uy = (uint32_t)y, *o = want + 8 * i;
        o[0] = (uint32_t)(x < y ? x : y);
        o[1] = ux > uy ? ux : uy;
        o[2] = x < 0 ? 0u - ux : ux;
        o[3] = (uint32_t)(x < -1000 ? -1000 : x > 1000 ? 1000 : x);
        o[4] = (x & 1) ? ux : uy;
        o[5] = x > y ? 0xffffffffu : 0;
        o[6] = ux - uy > 0x80000000u;
        uint32_t m = ux < uy ? ux : uy, M = ux < uy ? uy : ux, t = ux ^ 0x5555u;
        uint32_t inner = M < t ? M : t;
        o[7] = m > inner ? m : inner;
        int64_t lx = (int64_t)x * 100003, ly = (int64_t)y * 99991;
        w64[2 * i] = (uint64_t)(lx < ly ? lx : ly);
        w64[2 * i + 1] = (uint64_t)(lx < 0 ? -lx : lx);
        float fx = (float)x, fy = (float)y;
        wf[2 * i] = fx < fy ? fy : fx;
        wf[2 * i + 1] = fx > 0.0f ? fx : -fy;
    }
    RUN1(c, "select_minmax", n, 64, A_BUF(out), A_BUF(o64), A_BUF(of), A_BUF(a), A_BUF(b),
         A_VAL(uint32_t, n));
    corpus_check_u32(c, "out", out, want, n * 8);
    corpus_check_u64(c, "out64", o64, w64, n * 2);
    corpus_check_f32(c, "outf", of, wf, n * 2, 0);
    free(want);
    free(w64);
    free(wf);
}
