#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t n = 2000;
    int32_t *in = corpus_alloc(c, n * 4), *out = corpus_alloc(c, n * 4), *want = calloc(n, 4);
    for (uint32_t i = 0; i < n; i++)
        in[i] = (int32_t)(corpus_rand(c) % 20000) - 8000;
    for (uint32_t i = 0; i < n; i++) {
        int32_t v = in[i], r;
        if (v < 0)
            r = v < -1000 ? v * 3 : -v;
        else if ((v & 3) == 0)
            r = (v >> 2) + (i & 1 ? 17 : 0);
        else if (v > 5000)
            r = v - 5000;
        else {
            r = v ^ 0x55;
            if ((r & 8) && i % 3 == 0)
                r = ~r;
        }
        want[i] = (i & 2) ? r + (int32_t)i : r;
    }
    RUN1(c, "branch_ifelse", n, 128, A_BUF(out), A_BUF(in), A_VAL(uint32_t, n));
    corpus_check_u32(c, "out", (uint32_t *)out, (uint32_t *)want, n);
    free(want);
}
