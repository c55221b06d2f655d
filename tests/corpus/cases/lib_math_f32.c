#include "harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NF 14

void corpus_case(corpus_t *c) {
    const uint32_t n = 2000;
    float *a = corpus_alloc(c, n * 4), *b = corpus_alloc(c, n * 4);
    float *out = corpus_alloc(c, n * NF * 4), *want = calloc(n * NF, 4);
    for (uint32_t i = 0; i < n; i++) {
        a[i] = corpus_randf(c, -20.0f, 20.0f);
        b[i] = corpus_randf(c, -10.0f, 10.0f);
    }
    /* The reference: the function in double precision, rounded once to float. */
    for (uint32_t i = 0; i < n; i++) {
        double x = a[i], y = b[i], ax = fabs(x) + 0.5;
        float *w = want + NF * i;
        w[0] = (float)sin(x);
        w[1] = (float)cos(x);
        w[2] = (float)tan(x);
        w[3] = (float)exp(y);
        w[4] = (float)exp2(y);
        w[5] = (float)log((double)(fabsf(a[i]) + 0.5f));
        w[6] = (float)log2((double)(fabsf(a[i]) + 0.5f));
        w[7] = (float)pow((double)(fabsf(a[i]) + 0.5f), (double)(b[i] * 0.25f));
        w[8] = (float)sqrt(fabs(x));
        w[9] = (float)(1.0 / sqrt((double)(fabsf(a[i]) + 0.25f)));
        w[10] = (float)atan2(x, y);
        w[11] = (float)tanh(y);
        w[12] = (float)cbrt(x);
        w[13] = fmaf(a[i], b[i], 0.375f);
        (void)ax;
    }
    RUN1(c, "lib_math_f32", n, 64, A_BUF(out), A_BUF(a), A_BUF(b), A_VAL(uint32_t, n));
    /* OpenCL 2.0 section 7.4 ulp bounds for float (full profile). */
    static const unsigned ulps[NF] = { 4, 4, 5, 3, 3, 3, 3, 16, 3, 2, 6, 5, 2, 0 };
    static const char *names[NF] = { "sin", "cos", "tan", "exp", "exp2", "log", "log2",
                                     "pow", "sqrt", "rsqrt", "atan2", "tanh", "cbrt", "fma" };
    float *got = calloc(n, 4), *exp_ = calloc(n, 4);
    for (uint32_t k = 0; k < NF; k++) {
        for (uint32_t i = 0; i < n; i++) {
            got[i] = out[NF * i + k];
            exp_[i] = want[NF * i + k];
        }
        corpus_check_f32(c, names[k], got, exp_, n, ulps[k]);
    }
    free(got);
    free(exp_);
    free(want);
}
