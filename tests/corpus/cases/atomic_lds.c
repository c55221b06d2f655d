#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t wg = 128, n = 20 * 128 + 100, groups = (n + wg - 1) / wg;
    uint32_t *in = corpus_alloc(c, n * 4), *hist = corpus_alloc(c, groups * 16 * 4);
    uint64_t *stats = corpus_alloc(c, groups * 32);
    uint32_t *hw = calloc(groups * 16, 4);
    uint64_t *sw = calloc(groups * 4, 8);
    for (uint32_t i = 0; i < n; i++)
        in[i] = corpus_rand(c);
    for (uint32_t g = 0; g < groups; g++) {
        uint32_t mn = 0xffffffffu, mx = 0, cas = 0;
        uint64_t sum = 0;
        for (uint32_t i = g * wg; i < (g + 1) * wg && i < n; i++) {
            hw[g * 16 + in[i] % 16]++;
            sum += (uint64_t)in[i] << 8;
            mn = in[i] < mn ? in[i] : mn;
            mx = in[i] > mx ? in[i] : mx;
            cas += in[i] & 0xff;
        }
        sw[4 * g] = sum;
        sw[4 * g + 1] = (uint64_t)mx << 32 | mn;
        sw[4 * g + 2] = cas;
        sw[4 * g + 3] = 1;
    }
    RUN1(c, "atomic_lds", n, wg, A_BUF(hist), A_BUF(stats), A_BUF(in), A_VAL(uint32_t, n));
    corpus_check_u32(c, "hist", hist, hw, groups * 16);
    corpus_check_u64(c, "stats", stats, sw, groups * 4);
    free(hw);
    free(sw);
}
