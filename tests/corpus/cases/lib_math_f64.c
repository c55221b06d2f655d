#include "harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NF 10

void corpus_case(corpus_t *c) {
    const uint32_t n = 1500;
    double *a = corpus_alloc(c, n * 8), *b = corpus_alloc(c, n * 8);
    double *out = corpus_alloc(c, n * NF * 8), *want = calloc(n * NF, 8);
    for (uint32_t i = 0; i < n; i++) {
        a[i] = corpus_randf(c, -20.0f, 20.0f) + corpus_rand(c) * 0x1p-40;
        b[i] = corpus_randf(c, -10.0f, 10.0f) + corpus_rand(c) * 0x1p-40;
    }
    for (uint32_t i = 0; i < n; i++) {
        double x = a[i], y = b[i], *w = want + NF * i;
        w[0] = sin(x);
        w[1] = cos(x);
        w[2] = exp(y);
        w[3] = log(fabs(x) + 0.5);
        w[4] = pow(fabs(x) + 0.5, y * 0.25);
        w[5] = sqrt(fabs(x));
        w[6] = atan(x);
        w[7] = cbrt(x);
        w[8] = fma(x, y, 0.375);
        w[9] = x / y;
    }
    RUN1(c, "lib_math_f64", n, 64, A_BUF(out), A_BUF(a), A_BUF(b), A_VAL(uint32_t, n));
    /* OpenCL bounds for double, plus 1 ulp for the host libm's own error; sqrt, fma and
     * division are correctly rounded. */
    static const unsigned ulps[NF] = { 5, 5, 4, 4, 17, 0, 6, 3, 0, 0 };
    static const char *names[NF] = { "sin", "cos", "exp", "log", "pow",
                                     "sqrt", "atan", "cbrt", "fma", "div" };
    double *got = calloc(n, 8), *exp_ = calloc(n, 8);
    for (uint32_t k = 0; k < NF; k++) {
        for (uint32_t i = 0; i < n; i++) {
            got[i] = out[NF * i + k];
            exp_[i] = want[NF * i + k];
        }
        corpus_check_f64(c, names[k], got, exp_, n, ulps[k]);
    }
    free(got);
    free(exp_);
    free(want);
}
