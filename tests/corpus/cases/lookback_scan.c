#include "harness.h"

#include <stdio.h>
#include <stdlib.h>

/* Decoupled look-back scans and stream compactions (kernels/lookback_scan.cl) over 8- to 128-bit
 * elements, with packed 32/64-bit and split (fenced) tile states, against host results.
 * Sizes: 1, 1000, 3 tiles + 17, and 2^k for k up to CORPUS_LOOKBACK_MAX_LOG2 (default 14; the
 * memory-model suite runs 26 for 32-bit elements; other widths stop at 22 to bound memory). */

enum { WG = 256, TILE = 1024, SPLIT_VALUES = 4 << 20 };

struct kern {
    const char *name;
    unsigned bytes;
    int select;
};

static const struct kern KERNS[] = {
    { "scan_uchar_p32", 1, 0 },   { "scan_uchar_p64", 1, 0 },  { "scan_uchar_split", 1, 0 },
    { "scan_ushort_p32", 2, 0 },  { "scan_ushort_p64", 2, 0 }, { "scan_ushort_split", 2, 0 },
    { "scan_uint_p64", 4, 0 },    { "scan_uint_split", 4, 0 }, { "scan_ulong_split", 8, 0 },
    { "scan_u128_split", 16, 0 }, { "select_uchar_p64", 1, 1 }, { "select_ushort_p64", 2, 1 },
    { "select_uint_p32", 4, 1 },  { "select_uint_p64", 4, 1 }, { "select_ulong_p64", 8, 1 },
    { "select_u128_p64", 16, 1 },
};

/* The element's low 32 bits and a wrapping add in the element's width (u128: four lanes). */
static uint32_t lo32(const uint8_t *e, unsigned bytes) {
    uint32_t v = 0;
    memcpy(&v, e, bytes < 4 ? bytes : 4);
    return v;
}

static void add(uint8_t *acc, const uint8_t *e, unsigned bytes) {
    if (bytes == 16) {
        for (int k = 0; k < 4; k++) {
            uint32_t a, b;
            memcpy(&a, acc + 4 * k, 4);
            memcpy(&b, e + 4 * k, 4);
            a += b;
            memcpy(acc + 4 * k, &a, 4);
        }
        return;
    }
    uint64_t a = 0, b = 0;
    memcpy(&a, acc, bytes);
    memcpy(&b, e, bytes);
    a += b;
    memcpy(acc, &a, bytes);
}

struct bufs {
    uint8_t *in, *out, *state;
    uint32_t *counter, *count;
};

static void run_one(corpus_t *c, const struct kern *k, uint32_t n, const struct bufs *b) {
    size_t bytes = (size_t)n * k->bytes;
    uint8_t *in = b->in, *out = b->out, *state = b->state;
    uint32_t *counter = b->counter, *count = b->count;
    uint8_t *want = malloc(bytes);
    memset(out, 0, bytes);
    for (size_t i = 0; i < bytes; i += 4) {
        uint32_t r = corpus_rand(c);
        memcpy(in + i, &r, bytes - i < 4 ? bytes - i : 4);
    }
    uint32_t tiles = (n + TILE - 1) / TILE;
    memset(state, 0, (size_t)tiles * 8);
    *counter = 0;
    *count = 0xffffffffu;
    char what[80];
    snprintf(what, sizeof what, "%s n=%u", k->name, n);
    size_t kept = 0;
    if (!k->select) {
        uint8_t acc[16] = { 0 };
        for (uint32_t i = 0; i < n; i++) {
            add(acc, in + (size_t)i * k->bytes, k->bytes);
            memcpy(want + (size_t)i * k->bytes, acc, k->bytes);
        }
        if (RUN1(c, k->name, (size_t)tiles * WG, WG, A_BUF(in), A_BUF(out), A_VAL(uint32_t, n),
                 A_BUF(counter), A_BUF(state)) == 0)
            corpus_check_bytes(c, what, out, want, k->bytes, n);
    } else {
        for (uint32_t i = 0; i < n; i++) {
            if (lo32(in + (size_t)i * k->bytes, k->bytes) % 3 == 0)
                memcpy(want + kept++ * k->bytes, in + (size_t)i * k->bytes, k->bytes);
        }
        if (RUN1(c, k->name, (size_t)tiles * WG, WG, A_BUF(in), A_BUF(out), A_VAL(uint32_t, n),
                 A_BUF(counter), A_BUF(state), A_BUF(count)) == 0) {
            if (*count != kept)
                corpus_fail(c, "%s: count %u, want %zu", what, *count, kept);
            else
                corpus_check_bytes(c, what, out, want, k->bytes, kept);
        }
    }
    if (*counter != tiles)
        corpus_fail(c, "%s: %u tile tickets, want %u", what, *counter, tiles);
    free(want);
}

void corpus_case(corpus_t *c) {
    const char *e = getenv("CORPUS_LOOKBACK_MAX_LOG2");
    unsigned max_log2 = e ? (unsigned)atoi(e) : 14;
    if (max_log2 > 26) max_log2 = 26;
    unsigned wide_log2 = max_log2 < 22 ? max_log2 : 22;
    size_t most = (size_t)4 << max_log2 > (size_t)16 << wide_log2 ? (size_t)4 << max_log2
                                                                   : (size_t)16 << wide_log2;
    struct bufs b = { corpus_alloc(c, most), corpus_alloc(c, most),
                      corpus_alloc(c, SPLIT_VALUES + 2 * (1u << 20) * 16), corpus_alloc(c, 4),
                      corpus_alloc(c, 4) };
    for (size_t i = 0; i < sizeof KERNS / sizeof KERNS[0]; i++) {
        const struct kern *k = &KERNS[i];
        uint32_t sizes[] = { 1, 1000, 3 * TILE + 17 };
        for (size_t s = 0; s < 3; s++) run_one(c, k, sizes[s], &b);
        unsigned top = k->bytes == 4 ? max_log2 : wide_log2;
        for (unsigned lg = 12; lg <= top; lg += lg + 4 <= top && top > 20 ? 4 : 2)
            run_one(c, k, 1u << lg, &b);
    }
}
