#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t wg = 256, n = 40 * 256 + 77, groups = (n + wg - 1) / wg;
    uint32_t *in = corpus_alloc(c, n * 4), *sums = corpus_alloc(c, groups * 12);
    uint64_t *wide = corpus_alloc(c, groups * 8);
    uint32_t *ws = calloc(groups, 12);
    uint64_t *ww = calloc(groups, 8);
    for (uint32_t i = 0; i < n; i++)
        in[i] = corpus_rand(c);
    for (uint32_t g = 0; g < groups; g++) {
        uint32_t s = 0, mn = 0xffffffffu, mx = 0;
        uint64_t w = 0;
        for (uint32_t i = g * wg; i < (g + 1) * wg && i < n; i++) {
            s += in[i];
            mn = in[i] < mn ? in[i] : mn;
            mx = in[i] > mx ? in[i] : mx;
            w += (uint64_t)in[i] * (in[i] >> 7);
        }
        ws[3 * g] = s;
        ws[3 * g + 1] = mn;
        ws[3 * g + 2] = mx;
        ww[g] = w;
    }
    RUN1(c, "lds_reduce", n, wg, A_BUF(sums), A_BUF(wide), A_BUF(in), A_VAL(uint32_t, n));
    corpus_check_u32(c, "sums", sums, ws, groups * 3);
    corpus_check_u64(c, "wide", wide, ww, groups);
    free(ws);
    free(ww);
}
