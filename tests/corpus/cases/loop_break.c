#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t n = 1234;
    uint32_t *in = corpus_alloc(c, n * 4), *steps = corpus_alloc(c, n * 4),
             *found = corpus_alloc(c, n * 4);
    uint32_t *ws = calloc(n, 4), *wf = calloc(n, 4);
    for (uint32_t i = 0; i < n; i++)
        in[i] = 1 + (corpus_rand(c) >> (i % 24));
    for (uint32_t i = 0; i < n; i++) {
        uint64_t x = in[i];
        uint32_t s = 0;
        while (x != 1 && s < 500) {
            s++;
            x = (x & 1) ? 3 * x + 1 : x >> 1;
        }
        ws[i] = s;
        wf[i] = 0xffffffffu;
        for (uint32_t k = 0; k < 64; k++)
            if ((((in[i] >> (k & 31)) ^ k) & 0xf) == 0xa) {
                wf[i] = k;
                break;
            }
    }
    RUN1(c, "loop_break", n, 64, A_BUF(steps), A_BUF(found), A_BUF(in), A_VAL(uint32_t, n));
    corpus_check_u32(c, "steps", steps, ws, n);
    corpus_check_u32(c, "found", found, wf, n);
    free(ws);
    free(wf);
}
