/* Problem sizes, inputs, checks, timing and the result line shared by the three benchmark
 * programs (see bench_common.h). The serial references are in bench_reference.c. */
#include "bench_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *const bench_kernels[BENCH_NKERNELS] = {
    "saxpy", "mandelbrot", "matmul", "reduce", "stencil", "nbody", "histogram",
};

/* Full sizes keep one softhsa dispatch between about 5 ms (16 idle cores) and 1 s (2 busy ones)
 * while the data of saxpy and reduce (48 and 16 MiB) outgrow most caches; BENCH_SCALE enlarges
 * them. Quick sizes make the whole --quick run a smoke test of seconds. */
static const bench_problem full[BENCH_NKERNELS] = {
    { "saxpy", 1u << 22, 0 },  { "mandelbrot", 512, 256 }, { "matmul", 256, 0 },
    { "reduce", 1u << 22, 0 }, { "stencil", 1024, 0 },     { "nbody", 2048, 0 },
    { "histogram", 1u << 18, 0 },
};
static const bench_problem quick[BENCH_NKERNELS] = {
    { "saxpy", 1u << 18, 0 },  { "mandelbrot", 256, 64 }, { "matmul", 128, 0 },
    { "reduce", 1u << 18, 0 }, { "stencil", 256, 0 },     { "nbody", 512, 0 },
    { "histogram", 1u << 14, 0 },
};

static int is_quick(void) {
    const char *q = getenv("BENCH_QUICK");
    return q && *q && strcmp(q, "0") != 0;
}

/* BENCH_SCALE=k (1..16) multiplies the main dimension n: 1-D work grows k-fold, 2-D grids and
 * n-body k^2-fold, matmul k^3-fold. */
static uint32_t scale(void) {
    const char *s = getenv("BENCH_SCALE");
    int k = s ? atoi(s) : 1;
    return k >= 1 && k <= 16 ? (uint32_t)k : 1;
}

const bench_problem *bench_problem_for(const char *kernel) {
    static bench_problem scaled;
    const bench_problem *table = is_quick() ? quick : full;
    for (unsigned i = 0; i < BENCH_NKERNELS; i++)
        if (strcmp(table[i].kernel, kernel) == 0) {
            scaled = table[i];
            scaled.n *= scale();
            return &scaled;
        }
    return NULL;
}

void bench_describe(const bench_problem *p, char *text, size_t len) {
    const char *k = p->kernel;
    if (!strcmp(k, "saxpy"))
        snprintf(text, len, "%u floats", p->n);
    else if (!strcmp(k, "mandelbrot"))
        snprintf(text, len, "%ux%u/%u iters", p->n, p->n, p->iters);
    else if (!strcmp(k, "matmul"))
        snprintf(text, len, "%ux%u", p->n, p->n);
    else if (!strcmp(k, "reduce"))
        snprintf(text, len, "%u uints", p->n);
    else if (!strcmp(k, "stencil"))
        snprintf(text, len, "%ux%u", p->n, p->n);
    else if (!strcmp(k, "histogram"))
        snprintf(text, len, "%u items x 32 bins", p->n);
    else
        snprintf(text, len, "%u bodies", p->n);
}

unsigned bench_runs(void) {
    const char *r = getenv("BENCH_RUNS");
    if (r && *r && atoi(r) >= 0) /* 0: the warm-up only (scripts/bench.sh's counting runs) */
        return (unsigned)atoi(r);
    return is_quick() ? 3 : 5;
}

void bench_rng_seed(bench_rng *r, const char *kernel) {
    r->state = 0x9E3779B97F4A7C15ULL;
    for (const char *p = kernel; *p; p++)
        r->state = (r->state ^ (uint8_t)*p) * 0x100000001B3ULL;
}

uint32_t bench_rand(bench_rng *r) {
    uint64_t x = r->state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->state = x;
    return (uint32_t)((x * 0x2545F4914F6CDD1DULL) >> 32);
}

float bench_rand_int_f(bench_rng *r, int lo, int hi) {
    return (float)(lo + (int)(bench_rand(r) % (uint32_t)(hi - lo + 1)));
}

float bench_rand_f(bench_rng *r, float lo, float hi) {
    return lo + (hi - lo) * (float)(bench_rand(r) >> 8) * (1.0f / 16777216.0f);
}

void bench_fill_saxpy(const bench_problem *p, float *x, float *y) {
    bench_rng r;
    bench_rng_seed(&r, p->kernel);
    for (uint32_t i = 0; i < p->n; i++) {
        x[i] = bench_rand_int_f(&r, -1000, 1000);
        y[i] = bench_rand_int_f(&r, -1000, 1000);
    }
}

void bench_fill_matmul(const bench_problem *p, float *a, float *b) {
    bench_rng r;
    bench_rng_seed(&r, p->kernel);
    size_t nn = (size_t)p->n * p->n;
    /* |a|,|b| <= 16 and n <= 4096: every partial sum is below 2^24, hence exact. */
    for (size_t i = 0; i < nn; i++)
        a[i] = bench_rand_int_f(&r, -16, 16);
    for (size_t i = 0; i < nn; i++)
        b[i] = bench_rand_int_f(&r, -16, 16);
}

void bench_fill_reduce(const bench_problem *p, uint32_t *in) {
    bench_rng r;
    bench_rng_seed(&r, p->kernel);
    for (uint32_t i = 0; i < p->n; i++)
        in[i] = bench_rand(&r);
}

void bench_fill_stencil(const bench_problem *p, float *in) {
    bench_rng r;
    bench_rng_seed(&r, p->kernel);
    size_t nn = (size_t)p->n * p->n;
    for (size_t i = 0; i < nn; i++)
        in[i] = bench_rand_f(&r, -1.0f, 1.0f);
}

void bench_fill_nbody(const bench_problem *p, float *pos4) {
    bench_rng r;
    bench_rng_seed(&r, p->kernel);
    for (uint32_t i = 0; i < p->n; i++) {
        pos4[4 * i + 0] = bench_rand_f(&r, -10.0f, 10.0f);
        pos4[4 * i + 1] = bench_rand_f(&r, -10.0f, 10.0f);
        pos4[4 * i + 2] = bench_rand_f(&r, -10.0f, 10.0f);
        pos4[4 * i + 3] = bench_rand_f(&r, 0.5f, 1.5f); /* mass */
    }
}

uint32_t bench_reduce_groups(const bench_problem *p) {
    uint32_t chunk = BENCH_REDUCE_WG * BENCH_REDUCE_ITEMS;
    return (p->n + chunk - 1) / chunk;
}

float bench_mb_step(const bench_problem *p) { return BENCH_MB_SPAN / (float)p->n; }

#define MAX_REPORTED 5

size_t bench_check_u32(const char *what, const uint32_t *got, const uint32_t *want, size_t n) {
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i] && bad++ < MAX_REPORTED)
            fprintf(stderr, "%s[%zu]: got %u, want %u\n", what, i, got[i], want[i]);
    return bad;
}

size_t bench_check_f32_exact(const char *what, const float *got, const float *want, size_t n) {
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        if (memcmp(&got[i], &want[i], 4) != 0 && bad++ < MAX_REPORTED)
            fprintf(stderr, "%s[%zu]: got %a (%.9g), want %a (%.9g)\n", what, i, got[i], got[i],
                    want[i], want[i]);
    return bad;
}

size_t bench_check_f32_rel(const char *what, const float *got, const float *want, size_t n,
                           float rel) {
    float scale = 0.0f;
    for (size_t i = 0; i < n; i++)
        scale = fmaxf(scale, fabsf(want[i]));
    float tol = rel * scale;
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(got[i] - want[i]) <= tol) && bad++ < MAX_REPORTED)
            fprintf(stderr, "%s[%zu]: got %.9g, want %.9g (tolerance %.3g)\n", what, i, got[i],
                    want[i], tol);
    return bad;
}

void bench_inject_fault(void *out, size_t count) {
    const char *f = getenv("BENCH_FAULT");
    if (!f || strcmp(f, "1") != 0 || count == 0)
        return;
    uint32_t *word = (uint32_t *)out + count / 2;
    *word ^= 1u << 30; /* an exponent bit of a float, a large value of an integer */
}

double bench_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_stats_of(double *ms, unsigned n, bench_stats *out) {
    qsort(ms, n, sizeof *ms, cmp_double);
    out->runs = n;
    out->min_ms = n ? ms[0] : 0.0;
    out->median_ms = n == 0 ? 0.0 : n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
}

void bench_print(const bench_problem *p, const char *backend, const bench_stats *s, int ok) {
    char size[64];
    bench_describe(p, size, sizeof size);
    printf("BENCH kernel=%s backend=%s runs=%u median_ms=%.4f min_ms=%.4f check=%s size=%s\n",
           p->kernel, backend, s->runs, s->median_ms, s->min_ms, ok ? "ok" : "FAIL", size);
    fflush(stdout);
}
