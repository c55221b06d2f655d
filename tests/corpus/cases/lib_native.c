#include "harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NF 10

void corpus_case(corpus_t *c) {
    const uint32_t n = 1024;
    float *a = corpus_alloc(c, n * 4), *out = corpus_alloc(c, n * NF * 4);
    for (uint32_t i = 0; i < n; i++)
        a[i] = corpus_randf(c, -12.0f, 12.0f);
    RUN1(c, "lib_native", n, 128, A_BUF(out), A_BUF(a), A_VAL(uint32_t, n));
    static const char *names[NF] = { "native_sin", "native_cos", "native_exp", "native_log",
                                     "native_recip", "native_rsqrt", "native_sqrt",
                                     "native_divide", "half_exp2", "native_powr" };
    unsigned bad[NF] = { 0 };
    for (uint32_t i = 0; i < n; i++) {
        double x = a[i], p = fabsf(a[i]) + 0.125f, w[NF];
        w[0] = sin(x);
        w[1] = cos(x);
        w[2] = exp(x * 0.25);
        w[3] = log(p);
        w[4] = 1.0 / p;
        w[5] = 1.0 / sqrt(p);
        w[6] = sqrt(p);
        w[7] = x / p;
        w[8] = exp2(x * 0.25);
        w[9] = pow(p, 0.75);
        for (int k = 0; k < NF; k++) {
            double got = out[NF * i + k], err = fabs(got - w[k]);
            /* sin/cos: absolute error (the hardware reduces the argument coarsely); the others:
             * relative error, 2^-11 for half_* and 2^-18 for native_*. */
            double bound = k < 2 ? 2e-4 : fabs(w[k]) * (k == 8 ? 0x1p-11 : 0x1p-18);
            if (!(err <= bound)) {
                if (bad[k]++ < 4)
                    fprintf(stderr, "%s(%a) = %a, want %a\n", names[k], a[i], got, w[k]);
            }
        }
    }
    for (int k = 0; k < NF; k++)
        if (bad[k])
            corpus_fail(c, "%s: %u of %u results out of bounds", names[k], bad[k], n);
}
