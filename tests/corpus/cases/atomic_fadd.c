#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t n = 4000;
    int32_t *in = corpus_alloc(c, n * 4);
    float *fsum = corpus_alloc(c, 10 * 4);
    double *dsum = corpus_alloc(c, 4 * 8);
    float fw[10] = { 0 };
    double dw[4] = { 0 };
    for (uint32_t i = 0; i < n; i++)
        in[i] = (int32_t)(corpus_rand(c) % 2001) - 1000;
    for (uint32_t i = 0; i < n; i++) {
        fw[in[i] & 7] += (float)in[i];
        dw[i & 3] += (double)in[i] * 0.5;
        fw[8 + (i & 1)] += (float)in[i];
    }
    RUN1(c, "atomic_fadd", n, 64, A_BUF(fsum), A_BUF(dsum), A_BUF(in), A_VAL(uint32_t, n));
    corpus_check_f32(c, "fsum", fsum, fw, 10, 0);
    corpus_check_f64(c, "dsum", dsum, dw, 4, 0);
}
