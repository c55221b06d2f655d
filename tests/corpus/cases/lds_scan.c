#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t wg = 128, n = 33 * 128 + 5;
    uint32_t *in = corpus_alloc(c, n * 4);
    uint64_t *out = corpus_alloc(c, n * 8), *want = calloc(n, 8);
    for (uint32_t i = 0; i < n; i++)
        in[i] = corpus_rand(c);
    uint64_t run = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i % wg == 0)
            run = 0;
        run += in[i];
        want[i] = run;
    }
    RUN1(c, "lds_scan", n, wg, A_BUF(out), A_BUF(in), A_VAL(uint32_t, n));
    corpus_check_u64(c, "out", out, want, n);
    free(want);
}
