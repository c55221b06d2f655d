#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t n = 3000;
    uint64_t *in = corpus_alloc(c, n * 8), *acc = corpus_alloc(c, 48 * 8),
             *ret = corpus_alloc(c, n * 8);
    uint64_t want[48] = { 0 };
    for (uint32_t i = 0; i < n; i++)
        in[i] = (uint64_t)corpus_rand(c) << 32 | corpus_rand(c);
    acc[0] = 0xfffffff0u; /* the low half carries into the high half during the run */
    acc[2] = ~0ull;
    acc[5] = ~0ull;
    acc[7] = INT64_MAX;
    acc[8] = (uint64_t)INT64_MIN;
    memcpy(want, acc, sizeof want);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t v = in[i];
        want[0] += 0x100000001ull;
        want[1] += v;
        want[2] &= v | 0x0f0f0f0f0f0f0f0full;
        want[3] |= v & 0x1000100010001000ull;
        want[4] ^= v;
        want[5] = v < want[5] ? v : want[5];
        want[6] = v > want[6] ? v : want[6];
        want[7] = (int64_t)v < (int64_t)want[7] ? v : want[7];
        want[8] = (int64_t)v > (int64_t)want[8] ? v : want[8];
        want[9 + (v & 31)] += (v >> 40) + 0x100000000ull;
    }
    uint64_t start = acc[0];
    RUN1(c, "atomic_global64", n, 128, A_BUF(acc), A_BUF(ret), A_BUF(in), A_VAL(uint32_t, n));
    corpus_check_u64(c, "acc", acc, want, 41);
    /* The returned counter values are start + k * (2^32 + 1) for every k < n, once each. */
    uint8_t *seen = calloc(n, 1);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t d = ret[i] - start;
        uint64_t k = d / 0x100000001ull;
        if (d % 0x100000001ull || k >= n || seen[k]++) {
            corpus_fail(c, "returned value %#llx of work-item %u is not a fresh counter value",
                        (unsigned long long)ret[i], i);
            break;
        }
    }
    free(seen);
}
