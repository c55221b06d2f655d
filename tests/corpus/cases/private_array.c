#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t n = 700;
    uint32_t *in = corpus_alloc(c, n * 4), *out = corpus_alloc(c, n * 20), *want = calloc(n, 20);
    for (uint32_t i = 0; i < n; i++)
        in[i] = corpus_rand(c);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t hist[32] = { 0 }, keys[24];
        uint64_t table[20];
        for (uint32_t k = 0; k < 20; k++)
            table[k] = ((uint64_t)in[(i + k) % n] << 32) | (k * 0x01010101u);
        for (uint32_t k = 0; k < 24; k++) {
            uint32_t v = in[(i * 7 + k) % n];
            hist[v & 31]++;
            keys[k] = v >> 8;
        }
        for (uint32_t a = 1; a < 24; a++) /* any correct sort gives the same sequence */
            for (uint32_t b = a; b > 0 && keys[b - 1] > keys[b]; b--) {
                uint32_t t = keys[b];
                keys[b] = keys[b - 1];
                keys[b - 1] = t;
            }
        uint32_t h = 0;
        for (uint32_t k = 0; k < 32; k++)
            h = h * 31 + hist[k];
        uint64_t t = table[in[i] % 20] ^ table[(in[i] >> 5) % 20];
        uint32_t *w = want + 5 * i;
        w[0] = h;
        w[1] = keys[0];
        w[2] = keys[in[i] % 24];
        w[3] = keys[23];
        w[4] = (uint32_t)t ^ (uint32_t)(t >> 32);
    }
    RUN1(c, "private_array", n, 64, A_BUF(out), A_BUF(in), A_VAL(uint32_t, n));
    corpus_check_u32(c, "out", out, want, n * 5);
    free(want);
}
