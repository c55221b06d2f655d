#include "harness.h"

#include <stdlib.h>

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

void corpus_case(corpus_t *c) {
    const uint32_t n = 5000;
    uint32_t *in = corpus_alloc(c, n * 4), *acc = corpus_alloc(c, 80 * 4);
    uint32_t *tickets = corpus_alloc(c, n * 4), *swapped = corpus_alloc(c, n * 4);
    uint32_t want[80] = { 0 };
    for (uint32_t i = 0; i < n; i++)
        in[i] = corpus_rand(c);
    acc[2] = 0x12345678u;
    acc[3] = 0xffffffffu;
    acc[6] = 0xffffffffu;
    acc[8] = 0x7fffffffu;
    acc[9] = 0x80000000u;
    acc[10] = 0xabcdef01u;
    memcpy(want, acc, sizeof want);
    want[0] = n;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = in[i];
        want[1] += v;
        want[2] -= v >> 4;
        want[3] &= v | 0x00ff00ffu;
        want[4] |= v & 0x11111111u;
        want[5] ^= v;
        want[6] = v < want[6] ? v : want[6];
        want[7] = v > want[7] ? v : want[7];
        want[8] = (int32_t)v < (int32_t)want[8] ? v : want[8];
        want[9] = (int32_t)v > (int32_t)want[9] ? v : want[9];
        want[11 + (v & 63)] += 1 + ((v >> 24) << 8);
    }
    uint32_t initial_swap = acc[10];
    RUN1(c, "atomic_global32", n, 256, A_BUF(acc), A_BUF(tickets), A_BUF(swapped), A_BUF(in),
         A_VAL(uint32_t, n));
    /* The exchange slot ends with one of the values; check it separately below. */
    want[10] = acc[10];
    corpus_check_u32(c, "acc", acc, want, 75);
    /* Tickets: every value 0..n-1 exactly once. */
    uint8_t *seen = calloc(n, 1);
    for (uint32_t i = 0; i < n; i++) {
        if (tickets[i] >= n || seen[tickets[i]]++) {
            corpus_fail(c, "ticket %u of work-item %u is out of range or repeated", tickets[i], i);
            break;
        }
    }
    /* Exchange: the returned values plus the final one are the initial value plus all inputs. */
    uint32_t *got = calloc(n + 1, 4), *exp = calloc(n + 1, 4);
    memcpy(got, swapped, n * 4);
    got[n] = acc[10];
    memcpy(exp, in, n * 4);
    exp[n] = initial_swap;
    qsort(got, n + 1, 4, cmp_u32);
    qsort(exp, n + 1, 4, cmp_u32);
    corpus_check_u32(c, "exchanged values (sorted)", got, exp, n + 1);
    free(got);
    free(exp);
    free(seen);
}
