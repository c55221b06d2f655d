#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t wg = 64, n = 30 * 64 + 17, groups = (n + wg - 1) / wg;
    int32_t *in = corpus_alloc(c, n * 4), *g = corpus_alloc(c, 8 * 4), *g20 = corpus_alloc(c, 8);
    int64_t *g64 = corpus_alloc(c, 16);
    int32_t *pg = corpus_alloc(c, groups * 12), *wpg = calloc(groups, 12);
    int32_t wg_[7] = { 0 }, w20[2];
    int64_t w64[2];
    for (uint32_t i = 0; i < n; i++)
        in[i] = (int32_t)(corpus_rand(c) % 200001) - 100000;
    g[2] = 1000000;
    g[3] = INT32_MIN;
    g[4] = INT32_MAX;
    g64[1] = INT64_MIN;
    g20[1] = 5;
    memcpy(wg_, g, sizeof wg_);
    w64[0] = g64[0];
    w64[1] = g64[1];
    w20[0] = g20[0];
    w20[1] = g20[1];
    for (uint32_t i = 0; i < n; i++) {
        int32_t v = in[i];
        wg_[0] += v;
        wg_[1] += 1;
        wg_[2] -= 1;
        wg_[3] = v > wg_[3] ? v : wg_[3];
        wg_[4] = v < wg_[4] ? v : wg_[4];
        wg_[5] |= (int32_t)(1u << (v & 31));
        wg_[6] += v & 15;
        w64[0] += (int64_t)v * 1000000;
        int64_t s = (int64_t)v * (1 << 20);
        w64[1] = s > w64[1] ? s : w64[1];
        w20[0] += v & 0xff;
        w20[1] -= 1;
        uint32_t grp = i / wg;
        if (i % wg == 0) {
            wpg[3 * grp] = 0;
            wpg[3 * grp + 1] = INT32_MIN;
            wpg[3 * grp + 2] = 0;
        }
        wpg[3 * grp] += v;
        wpg[3 * grp + 1] = v > wpg[3 * grp + 1] ? v : wpg[3 * grp + 1];
        wpg[3 * grp + 2] ^= (int32_t)(1u << (v & 31));
    }
    RUN1(c, "lib_atomics", n, wg, A_BUF(g), A_BUF(g64), A_BUF(g20), A_BUF(pg), A_BUF(in),
         A_VAL(uint32_t, n));
    corpus_check_u32(c, "g", (uint32_t *)g, (uint32_t *)wg_, 7);
    corpus_check_u64(c, "g64", (uint64_t *)g64, (uint64_t *)w64, 2);
    corpus_check_u32(c, "g20", (uint32_t *)g20, (uint32_t *)w20, 2);
    corpus_check_u32(c, "per_group", (uint32_t *)pg, (uint32_t *)wpg, groups * 3);
    free(wpg);
}
