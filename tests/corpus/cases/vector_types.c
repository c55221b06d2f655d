#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t n = 500;
    uint32_t *a = corpus_alloc(c, n * 16), *b = corpus_alloc(c, n * 16);
    uint32_t *o4 = corpus_alloc(c, n * 48), *w4 = calloc(n, 48);
    float *of = corpus_alloc(c, n * 16), *wf = calloc(n, 16);
    uint8_t *ob = corpus_alloc(c, n * 16), *wb = calloc(n, 16);
    int64_t *ol = corpus_alloc(c, n * 16), *wl = calloc(n, 16);
    for (uint32_t i = 0; i < n * 4; i++) {
        a[i] = corpus_rand(c);
        b[i] = corpus_rand(c);
    }
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t *x = a + 4 * i, *y = b + 4 * i;
        uint32_t *w = w4 + 12 * i;
        for (int k = 0; k < 4; k++) {
            w[k] = x[k] * y[k] + (x[k] >> 3);
            w[4 + k] = x[3 - k] ^ y[k / 2];
            w[8 + k] = (int32_t)x[k] < (int32_t)y[k] ? 0xffffffffu : 0;
        }
        for (int k = 0; k < 4; k++) {
            float fx = (float)(x[k] & 0xffff), fy = (float)(y[k] & 0xff);
            float fyn = (float)(y[(k + 1) % 4] & 0xff);
            float p = fx * fy;
            wf[4 * i + k] = p + fyn;
        }
        const uint8_t *bx = (const uint8_t *)x, *by = (const uint8_t *)y;
        uint8_t *r = wb + 16 * i;
        for (int k = 0; k < 4; k++) {
            r[k] = bx[15 - k];
            r[4 + k] = by[2 * k];
            r[8 + k] = (uint8_t)(bx[8 + k] + by[8 + k]);
        }
        r[12] = (uint8_t)(bx[1] * 3);
        r[13] = (uint8_t)(by[3] * 3);
        r[14] = (uint8_t)(bx[5] * 3);
        r[15] = (uint8_t)(by[7] * 3);
        int64_t lx[2], ly[2];
        memcpy(lx, x, 16);
        memcpy(ly, y, 16);
        wl[2 * i] = (int64_t)((uint64_t)lx[0] - (uint64_t)ly[0] + (uint64_t)(lx[1] >> 7));
        wl[2 * i + 1] = (int64_t)((uint64_t)lx[1] - (uint64_t)ly[1] + ((uint64_t)ly[0] << 3));
    }
    RUN1(c, "vector_types", n, 64, A_BUF(o4), A_BUF(of), A_BUF(ob), A_BUF(ol), A_BUF(a),
         A_BUF(b), A_VAL(uint32_t, n));
    corpus_check_u32(c, "uint4", o4, w4, n * 12);
    corpus_check_f32(c, "float4", of, wf, n * 4, 0);
    corpus_check_bytes(c, "uchar16", ob, wb, 1, n * 16);
    corpus_check_u64(c, "long2", (uint64_t *)ol, (uint64_t *)wl, n * 2);
    free(w4);
    free(wf);
    free(wb);
    free(wl);
}
