#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t n = 1500;
    uint32_t *in = corpus_alloc(c, n * 4), *out = corpus_alloc(c, n * 4), *want = calloc(n, 4);
    for (uint32_t i = 0; i < n; i++)
        in[i] = corpus_rand(c);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = in[i], r = 0;
        for (uint32_t k = 0; k < 4; k++) {
            switch ((v >> (8 * k)) % 12) {
            case 0: r += 1; break;
            case 1: r *= 3; break;
            case 2: r ^= 0xf0f0u; r += 7; break;
            case 3: r += 7; break;
            case 4: r = r << 1 | 1; break;
            case 5: r -= 11; break;
            case 6: r = ~r; break;
            case 7: r = r >> 3; break;
            case 8: r += v; r += k; break;
            case 9: r += k; break;
            case 10: r = r * r; break;
            default: r = r + 0x1000u; break;
            }
        }
        want[i] = r;
    }
    RUN1(c, "switch_case", n, 256, A_BUF(out), A_BUF(in), A_VAL(uint32_t, n));
    corpus_check_u32(c, "out", out, want, n);
    free(want);
}
