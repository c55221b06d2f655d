/* Back-end-independent parts of the harness: main(), comparisons, deterministic inputs. */
#include "harness_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_REPORTED 8

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s CODE_OBJECT\n", argv[0]);
        return 2;
    }
    const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    corpus_t *c = corpus_backend_open(prog, argv[1]);
    if (!c)
        return 2;
    corpus_case(c);
    unsigned failures = CORPUS_BASE(c)->failures;
    corpus_backend_close(c);
    if (failures) {
        fprintf(stderr, "%s: FAIL (%u) %s\n", prog, failures, argv[1]);
        return 1;
    }
    return 0;
}

void corpus_fail(corpus_t *c, const char *fmt, ...) {
    struct corpus_base *b = CORPUS_BASE(c);
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", b->program);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    b->failures++;
}

int corpus_run_or_fail(corpus_t *c, const char *kernel, unsigned dims, const size_t grid[3],
                       const size_t wg[3], const corpus_arg *args, unsigned nargs) {
    int st = corpus_run(c, kernel, dims, grid, wg, args, nargs);
    if (st)
        corpus_fail(c, "dispatch of %s failed (status %#x)", kernel, (unsigned)st);
    return st;
}

corpus_arg corpus_buf(const void *p) {
    corpus_arg a;
    memset(&a, 0, sizeof a);
    a.kind = CORPUS_ARG_BUFFER;
    a.size = sizeof(void *);
    a.buf = p;
    return a;
}

corpus_arg corpus_val(const void *p, uint32_t size) {
    corpus_arg a;
    memset(&a, 0, sizeof a);
    a.kind = CORPUS_ARG_VALUE;
    a.size = size > sizeof a.val ? (uint32_t)sizeof a.val : size;
    memcpy(a.val.bytes, p, a.size);
    return a;
}

/* Mismatch reporting shared by the typed checks: `describe` prints element i of got/want. */
static int check_loop(corpus_t *c, const char *what, size_t n,
                      int (*same)(const void *, const void *, size_t, unsigned),
                      void (*describe)(const void *, const void *, size_t, char *, size_t),
                      const void *got, const void *want, unsigned ulps) {
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (same(got, want, i, ulps))
            continue;
        if (bad < MAX_REPORTED) {
            char text[160];
            describe(got, want, i, text, sizeof text);
            fprintf(stderr, "%s: %s[%zu]: %s\n", CORPUS_BASE(c)->program, what, i, text);
        }
        bad++;
    }
    if (bad) {
        corpus_fail(c, "%s: %zu of %zu elements differ", what, bad, n);
        return 0;
    }
    return 1;
}


int corpus_check_bytes(corpus_t *c, const char *what, const void *got, const void *want,
                       size_t elem, size_t n) {
    size_t bad = 0;
    const uint8_t *g = got, *w = want;
    for (size_t i = 0; i < n; i++) {
        if (memcmp(g + i * elem, w + i * elem, elem) == 0)
            continue;
        if (bad < MAX_REPORTED) {
            fprintf(stderr, "%s: %s[%zu]: got", CORPUS_BASE(c)->program, what, i);
            for (size_t k = 0; k < elem; k++)
                fprintf(stderr, " %02x", g[i * elem + k]);
            fprintf(stderr, ", want");
            for (size_t k = 0; k < elem; k++)
                fprintf(stderr, " %02x", w[i * elem + k]);
            fputc('\n', stderr);
        }
        bad++;
    }
    if (bad) {
        corpus_fail(c, "%s: %zu of %zu elements differ", what, bad, n);
        return 0;
    }
    return 1;
}

static int same_u32(const void *g, const void *w, size_t i, unsigned u) {
    (void)u;
    return ((const uint32_t *)g)[i] == ((const uint32_t *)w)[i];
}
static void desc_u32(const void *g, const void *w, size_t i, char *t, size_t n) {
    uint32_t a = ((const uint32_t *)g)[i], b = ((const uint32_t *)w)[i];
    snprintf(t, n, "got %#x (%d), want %#x (%d)", a, (int32_t)a, b, (int32_t)b);
}
int corpus_check_u32(corpus_t *c, const char *what, const uint32_t *got, const uint32_t *want,
                     size_t n) {
    return check_loop(c, what, n, same_u32, desc_u32, got, want, 0);
}

static int same_u64(const void *g, const void *w, size_t i, unsigned u) {
    (void)u;
    return ((const uint64_t *)g)[i] == ((const uint64_t *)w)[i];
}
static void desc_u64(const void *g, const void *w, size_t i, char *t, size_t n) {
    uint64_t a = ((const uint64_t *)g)[i], b = ((const uint64_t *)w)[i];
    snprintf(t, n, "got %#llx (%lld), want %#llx (%lld)", (unsigned long long)a, (long long)a,
             (unsigned long long)b, (long long)b);
}
int corpus_check_u64(corpus_t *c, const char *what, const uint64_t *got, const uint64_t *want,
                     size_t n) {
    return check_loop(c, what, n, same_u64, desc_u64, got, want, 0);
}

/* Maps a float's bits onto a monotonic integer line so that ulp distance is a subtraction. */
static int64_t ordered32(float f) {
    int32_t i;
    memcpy(&i, &f, 4);
    return i < 0 ? (int64_t)INT32_MIN - i : i;
}
static __int128 ordered64(double f) {
    int64_t i;
    memcpy(&i, &f, 8);
    return i < 0 ? (__int128)INT64_MIN - i : i;
}
uint64_t corpus_ulps_f32(float a, float b) {
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b) ? 0 : UINT64_MAX;
    int64_t d = ordered32(a) - ordered32(b);
    return (uint64_t)(d < 0 ? -d : d);
}
uint64_t corpus_ulps_f64(double a, double b) {
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b) ? 0 : UINT64_MAX;
    __int128 d = ordered64(a) - ordered64(b);
    if (d < 0)
        d = -d;
    return d > (__int128)UINT64_MAX ? UINT64_MAX : (uint64_t)d;
}

static int same_f32(const void *g, const void *w, size_t i, unsigned u) {
    return corpus_ulps_f32(((const float *)g)[i], ((const float *)w)[i]) <= u;
}
static void desc_f32(const void *g, const void *w, size_t i, char *t, size_t n) {
    float a = ((const float *)g)[i], b = ((const float *)w)[i];
    snprintf(t, n, "got %a (%.9g), want %a (%.9g), %llu ulps", a, a, b, b,
             (unsigned long long)corpus_ulps_f32(a, b));
}
int corpus_check_f32(corpus_t *c, const char *what, const float *got, const float *want, size_t n,
                     unsigned ulps) {
    return check_loop(c, what, n, same_f32, desc_f32, got, want, ulps);
}

static int same_f64(const void *g, const void *w, size_t i, unsigned u) {
    return corpus_ulps_f64(((const double *)g)[i], ((const double *)w)[i]) <= u;
}
static void desc_f64(const void *g, const void *w, size_t i, char *t, size_t n) {
    double a = ((const double *)g)[i], b = ((const double *)w)[i];
    snprintf(t, n, "got %a (%.17g), want %a (%.17g), %llu ulps", a, a, b, b,
             (unsigned long long)corpus_ulps_f64(a, b));
}
int corpus_check_f64(corpus_t *c, const char *what, const double *got, const double *want,
                     size_t n, unsigned ulps) {
    return check_loop(c, what, n, same_f64, desc_f64, got, want, ulps);
}

uint32_t corpus_rand(corpus_t *c) {
    /* xorshift64*: deterministic per case, so a failure reproduces. */
    uint64_t x = CORPUS_BASE(c)->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    CORPUS_BASE(c)->rng = x;
    return (uint32_t)((x * 0x2545F4914F6CDD1DULL) >> 32);
}

float corpus_randf(corpus_t *c, float lo, float hi) {
    return lo + (hi - lo) * (float)(corpus_rand(c) >> 8) * (1.0f / 16777216.0f);
}
