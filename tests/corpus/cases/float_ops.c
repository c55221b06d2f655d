#include "harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t n = 1500;
    float *a = corpus_alloc(c, n * 4), *b = corpus_alloc(c, n * 4), *z = corpus_alloc(c, n * 4);
    float *out = corpus_alloc(c, n * 32), *want = calloc(n, 32);
    uint32_t *iout = corpus_alloc(c, n * 24), *iwant = calloc(n, 24);
    for (uint32_t i = 0; i < n; i++) {
        a[i] = corpus_randf(c, -1000.0f, 1000.0f);
        b[i] = corpus_randf(c, 0.001f, 100.0f) * (i & 1 ? -1.0f : 1.0f);
        z[i] = i % 16 == 5 ? b[i] : corpus_randf(c, -50.0f, 50.0f);
    }
    for (uint32_t i = 0; i < n; i++) {
        float x = a[i], y = b[i], zz = z[i], *w = want + 8 * i, t;
        uint32_t *iw = iwant + 6 * i, u;
        w[0] = x + y;
        w[1] = x - y;
        w[2] = x * y;
        w[3] = fmaf(x, y, zz);
        w[4] = x / y;
        w[5] = sqrtf(fabsf(x));
        w[6] = fminf(x, y);
        w[7] = fmaxf(x, zz);
        t = x * 1000.0f;
        iw[0] = (uint32_t)(int32_t)t;
        t = fabsf(y) * 1000.0f;
        iw[1] = (uint32_t)t;
        memcpy(&u, &zz, 4);
        t = (float)(int32_t)(u ^ 0x5a5a5a5au);
        memcpy(&iw[2], &t, 4);
        memcpy(&u, &x, 4);
        t = (float)(u >> 1);
        memcpy(&iw[3], &t, 4);
        iw[4] = (uint32_t)((x < y) | ((x <= zz) << 1) | ((y == zz) << 2));
        t = -fabsf(zz);
        memcpy(&iw[5], &t, 4);
    }
    RUN1(c, "float_ops", n, 256, A_BUF(out), A_BUF(iout), A_BUF(a), A_BUF(b), A_BUF(z),
         A_VAL(uint32_t, n));
    /* add, sub, mul, fma, min, max: correctly rounded, bit-exact. OpenCL allows 2.5 ulp for x/y
     * and 3 ulp for sqrt (clang emits the fast v_rcp/v_sqrt forms). */
    for (uint32_t k = 0; k < 8; k++) {
        float got[n], exp[n];
        for (uint32_t i = 0; i < n; i++) {
            got[i] = out[8 * i + k];
            exp[i] = want[8 * i + k];
        }
        char what[16];
        snprintf(what, sizeof what, "out.%u", k);
        corpus_check_f32(c, what, got, exp, n, k == 4 ? 3 : k == 5 ? 3 : 0);
    }
    corpus_check_u32(c, "iout", iout, iwant, n * 6);
    free(want);
    free(iwant);
}
