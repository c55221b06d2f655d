/* What the three benchmark programs (softhsa, PoCL, native C) share, so that they run the same
 * problems: the problem sizes, the deterministic inputs, the serial host references, the result
 * checks, the timing statistics and the one result line that scripts/bench.sh parses.
 *
 * Result line (stdout), one per kernel and backend:
 *   BENCH kernel=<name> backend=<softhsa|pocl|native> runs=<n> median_ms=<x> min_ms=<x>
 *         check=<ok|FAIL> size=<text to the end of the line>
 * The two programs that dispatch kernels also print, before it, the dispatch's shape:
 *   GRID kernel=<name> workgroups=<n> waves_per_group=<n>
 * Environment: BENCH_QUICK=1 (small sizes), BENCH_RUNS=<n> timed runs after one warm-up,
 * BENCH_SCALE=<k> larger problems (see bench_problem_for). */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* The kernels, in table order. */
#define BENCH_NKERNELS 7
extern const char *const bench_kernels[BENCH_NKERNELS];

/* One problem: `n` is the main dimension (elements, bodies, matrix or grid side); `iters` is the
 * Mandelbrot iteration limit. */
typedef struct {
    const char *kernel;
    uint32_t n;
    uint32_t iters;
} bench_problem;

/* The problem for `kernel` at the size BENCH_QUICK and BENCH_SCALE select (a static copy, valid
 * until the next call); NULL for an unknown kernel. */
const bench_problem *bench_problem_for(const char *kernel);
/* A short human description ("4194304 floats", "1024x1024, 256 iters"). */
void bench_describe(const bench_problem *p, char *text, size_t len);
/* Timed runs (BENCH_RUNS, default 5, 3 with BENCH_QUICK; 0 runs the warm-up only). */
unsigned bench_runs(void);

/* Deterministic inputs (xorshift64*, seeded per kernel name): the same on every backend. */
typedef struct {
    uint64_t state;
} bench_rng;
void bench_rng_seed(bench_rng *r, const char *kernel);
uint32_t bench_rand(bench_rng *r);
/* An integer-valued float in [lo, hi]: sums and products of these stay exact. */
float bench_rand_int_f(bench_rng *r, int lo, int hi);
/* A float in [lo, hi). */
float bench_rand_f(bench_rng *r, float lo, float hi);

/* Mandelbrot view: the same for every size (the grid samples it more or less densely). */
#define BENCH_MB_X0 (-2.25f)
#define BENCH_MB_Y0 (-1.5f)
#define BENCH_MB_SPAN 3.0f
#define BENCH_REDUCE_WG 256u
#define BENCH_REDUCE_ITEMS 16u
#define BENCH_NBODY_EPS2 0.01f
#define BENCH_SAXPY_A 3.0f
#define BENCH_HIST_SEED 12345u

/* Inputs of every kernel, filled by bench_fill_* into caller-provided arrays. */
void bench_fill_saxpy(const bench_problem *p, float *x, float *y);
void bench_fill_matmul(const bench_problem *p, float *a, float *b);
void bench_fill_reduce(const bench_problem *p, uint32_t *in);
void bench_fill_stencil(const bench_problem *p, float *in);
void bench_fill_nbody(const bench_problem *p, float *pos4);
uint32_t bench_reduce_groups(const bench_problem *p);
float bench_mb_step(const bench_problem *p);

/* Serial host references (compiled without contraction: see scripts/bench.sh). */
void bench_ref_saxpy(const bench_problem *p, const float *x, const float *y, float *z);
void bench_ref_mandelbrot(const bench_problem *p, uint32_t *out);
void bench_ref_matmul(const bench_problem *p, const float *a, const float *b, float *c);
void bench_ref_reduce(const bench_problem *p, const uint32_t *in, uint32_t *partial);
void bench_ref_stencil(const bench_problem *p, const float *in, float *out);
void bench_ref_nbody(const bench_problem *p, const float *pos4, float *acc4);
/* The histogram kernel's digests (no input: each work-item hashes its index and the seed). */
void bench_ref_histogram(const bench_problem *p, uint32_t *out);

/* Checks: print up to a few mismatches on stderr and return how many elements differ. */
size_t bench_check_u32(const char *what, const uint32_t *got, const uint32_t *want, size_t n);
/* Bit-exact floats. */
size_t bench_check_f32_exact(const char *what, const float *got, const float *want, size_t n);
/* Floats within rel * max|want| (for results whose rounding differs by backend: n-body's square
 * root and reciprocal are not correctly rounded on the GPU). */
size_t bench_check_f32_rel(const char *what, const float *got, const float *want, size_t n,
                           float rel);

/* The checks' self-test: with BENCH_FAULT=1, flips a high bit of the middle 32-bit element of
 * `out` (after the timed runs, before the check), which every check must then report. */
void bench_inject_fault(void *out, size_t count);

/* Timing: milliseconds of a monotonic clock, and the median/min of a sample set. */
double bench_now_ms(void);
typedef struct {
    double median_ms, min_ms;
    unsigned runs;
} bench_stats;
void bench_stats_of(double *ms, unsigned n, bench_stats *out);
void bench_print(const bench_problem *p, const char *backend, const bench_stats *s, int ok);

#endif
