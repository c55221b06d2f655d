#include "harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t bits(double d) {
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

void corpus_case(corpus_t *c) {
    const uint32_t n = 1100;
    double *a = corpus_alloc(c, n * 8), *b = corpus_alloc(c, n * 8), *z = corpus_alloc(c, n * 8);
    double *out = corpus_alloc(c, n * 64), *want = calloc(n, 64);
    uint64_t *iout = corpus_alloc(c, n * 48), *iwant = calloc(n, 48);
    for (uint32_t i = 0; i < n; i++) {
        double lo = corpus_rand(c) * 0x1p-32;
        a[i] = (corpus_randf(c, -1000.0f, 1000.0f) + lo) * (i % 7 == 0 ? 1e100 : 1.0);
        b[i] = (corpus_randf(c, 0.001f, 100.0f) + lo * 1e-3) * (i & 1 ? -1.0 : 1.0);
        z[i] = corpus_randf(c, -50.0f, 50.0f) + lo;
    }
    for (uint32_t i = 0; i < n; i++) {
        double x = a[i], y = b[i], zz = z[i], *w = want + 8 * i, t;
        uint64_t *iw = iwant + 6 * i;
        float f;
        w[0] = x + y;
        w[1] = x - y;
        w[2] = x * y;
        w[3] = fma(x, y, zz);
        w[4] = x / y;
        w[5] = sqrt(fabs(x));
        w[6] = fmin(x, y);
        w[7] = fmax(x, zz);
        t = x * 1.0e6;
        iw[0] = fabs(t) < 9e18 ? (uint64_t)(int64_t)t : 0;
        t = fabs(y) * 1.0e9;
        iw[1] = (uint64_t)t;
        iw[2] = bits((double)(int64_t)(bits(zz) ^ 0x5a5a5a5a5a5a5a5aull));
        iw[3] = bits((double)(bits(x) >> 3));
        f = (float)x;
        uint32_t fu;
        memcpy(&fu, &f, 4);
        iw[4] = fu;
        iw[5] = bits((double)(int32_t)(uint32_t)(bits(y) >> 20));
    }
    RUN1(c, "double_ops", n, 64, A_BUF(out), A_BUF(iout), A_BUF(a), A_BUF(b), A_BUF(z),
         A_VAL(uint32_t, n));
    for (uint32_t k = 0; k < 8; k++) {
        double got[n], exp[n];
        for (uint32_t i = 0; i < n; i++) {
            got[i] = out[8 * i + k];
            exp[i] = want[8 * i + k];
        }
        char what[16];
        snprintf(what, sizeof what, "out.%u", k);
        /* Double division is correctly rounded by the div_scale/fmas/fixup sequence; sqrt is
         * within 1 ulp with clang < 17's plain v_sqrt_f64. */
        corpus_check_f64(c, what, got, exp, n, k == 5 ? 1 : 0);
    }
    /* io[0] of values beyond int64 range is undefined in C: skip those. */
    for (uint32_t i = 0; i < n; i++)
        if (iwant[6 * i] == 0 && fabs(a[i] * 1.0e6) >= 9e18)
            iout[6 * i] = 0;
    corpus_check_u64(c, "iout", iout, iwant, n * 6);
    free(want);
    free(iwant);
}
