/* See bench_gpu.h. Every dispatch goes through corpus_run (kernel arguments, AQL packet or
 * clEnqueueNDRangeKernel, wait), so both back ends are timed the way a host program sees them. */
#include "bench_gpu.h"

#include "bench_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RUNS 1000

/* One dispatch, described once and repeated. */
typedef struct {
    const char *kernel;
    unsigned dims;
    size_t grid[3], wg[3];
    corpus_arg args[8];
    unsigned nargs;
    void *out; /* poisoned before every run so that each run must write it */
    size_t out_bytes;
} launch;

static int time_launch(corpus_t *c, const launch *l, bench_stats *st) {
    size_t groups = 1, items = 1;
    for (unsigned d = 0; d < l->dims; d++) {
        groups *= (l->grid[d] + l->wg[d] - 1) / l->wg[d];
        items *= l->wg[d];
    }
    printf("GRID kernel=%s workgroups=%zu waves_per_group=%zu\n", l->kernel, groups,
           (items + 63) / 64);
    double ms[MAX_RUNS];
    unsigned runs = bench_runs();
    if (runs > MAX_RUNS)
        runs = MAX_RUNS;
    for (unsigned r = 0; r <= runs; r++) { /* run 0 is the warm-up */
        memset(l->out, 0xA5, l->out_bytes);
        double t0 = bench_now_ms();
        int status = corpus_run_or_fail(c, l->kernel, l->dims, l->grid, l->wg, l->args, l->nargs);
        double t1 = bench_now_ms();
        if (status)
            return status;
        if (r > 0)
            ms[r - 1] = t1 - t0;
    }
    bench_stats_of(ms, runs, st);
    bench_inject_fault(l->out, l->out_bytes / 4);
    return 0;
}

static void report(corpus_t *c, const bench_problem *p, const char *backend,
                   const bench_stats *st, size_t bad) {
    if (bad)
        corpus_fail(c, "%s: %zu wrong elements", p->kernel, bad);
    bench_print(p, backend, st, bad == 0);
}

static void run_saxpy(corpus_t *c, const bench_problem *p, const char *backend) {
    size_t bytes = (size_t)p->n * 4;
    float *x = corpus_alloc(c, bytes), *y = corpus_alloc(c, bytes), *z = corpus_alloc(c, bytes);
    float *want = malloc(bytes);
    bench_fill_saxpy(p, x, y);
    bench_ref_saxpy(p, x, y, want);
    launch l = { "saxpy", 1, { p->n, 1, 1 }, { 256, 1, 1 },
                 { A_BUF(z), A_BUF(x), A_BUF(y), A_VAL(float, BENCH_SAXPY_A),
                   A_VAL(uint32_t, p->n) }, 5, z, bytes };
    bench_stats st;
    if (time_launch(c, &l, &st) == 0)
        report(c, p, backend, &st, bench_check_f32_exact("z", z, want, p->n));
    free(want);
}

static void run_mandelbrot(corpus_t *c, const bench_problem *p, const char *backend) {
    size_t count = (size_t)p->n * p->n;
    uint32_t *out = corpus_alloc(c, count * 4), *want = malloc(count * 4);
    bench_ref_mandelbrot(p, want);
    launch l = { "mandelbrot", 2, { p->n, p->n, 1 }, { 16, 16, 1 },
                 { A_BUF(out), A_VAL(uint32_t, p->n), A_VAL(uint32_t, p->n),
                   A_VAL(float, BENCH_MB_X0), A_VAL(float, BENCH_MB_Y0),
                   A_VAL(float, bench_mb_step(p)), A_VAL(uint32_t, p->iters) },
                 7, out, count * 4 };
    bench_stats st;
    if (time_launch(c, &l, &st) == 0)
        report(c, p, backend, &st, bench_check_u32("iterations", out, want, count));
    free(want);
}

static void run_matmul(corpus_t *c, const bench_problem *p, const char *backend) {
    size_t bytes = (size_t)p->n * p->n * 4;
    float *a = corpus_alloc(c, bytes), *b = corpus_alloc(c, bytes), *m = corpus_alloc(c, bytes);
    float *want = malloc(bytes);
    bench_fill_matmul(p, a, b);
    bench_ref_matmul(p, a, b, want);
    launch l = { "matmul", 2, { p->n, p->n, 1 }, { 16, 16, 1 },
                 { A_BUF(m), A_BUF(a), A_BUF(b), A_VAL(uint32_t, p->n) }, 4, m, bytes };
    bench_stats st;
    if (time_launch(c, &l, &st) == 0)
        report(c, p, backend, &st, bench_check_f32_exact("C", m, want, (size_t)p->n * p->n));
    free(want);
}

static void run_reduce(corpus_t *c, const bench_problem *p, const char *backend) {
    uint32_t groups = bench_reduce_groups(p);
    uint32_t *in = corpus_alloc(c, (size_t)p->n * 4), *part = corpus_alloc(c, groups * 4u);
    uint32_t *want = malloc(groups * 4u);
    bench_fill_reduce(p, in);
    bench_ref_reduce(p, in, want);
    launch l = { "reduce", 1, { (size_t)groups * BENCH_REDUCE_WG, 1, 1 },
                 { BENCH_REDUCE_WG, 1, 1 },
                 { A_BUF(part), A_BUF(in), A_VAL(uint32_t, p->n) }, 3, part, groups * 4u };
    bench_stats st;
    if (time_launch(c, &l, &st) == 0)
        report(c, p, backend, &st, bench_check_u32("partial", part, want, groups));
    free(want);
}

static void run_stencil(corpus_t *c, const bench_problem *p, const char *backend) {
    size_t bytes = (size_t)p->n * p->n * 4;
    float *in = corpus_alloc(c, bytes), *out = corpus_alloc(c, bytes), *want = malloc(bytes);
    bench_fill_stencil(p, in);
    bench_ref_stencil(p, in, want);
    launch l = { "stencil", 2, { p->n, p->n, 1 }, { 16, 16, 1 },
                 { A_BUF(out), A_BUF(in), A_VAL(uint32_t, p->n), A_VAL(uint32_t, p->n) }, 4,
                 out, bytes };
    bench_stats st;
    if (time_launch(c, &l, &st) == 0)
        report(c, p, backend, &st,
               bench_check_f32_exact("out", out, want, (size_t)p->n * p->n));
    free(want);
}

static void run_nbody(corpus_t *c, const bench_problem *p, const char *backend) {
    size_t bytes = (size_t)p->n * 16;
    float *pos = corpus_alloc(c, bytes), *acc = corpus_alloc(c, bytes), *want = malloc(bytes);
    bench_fill_nbody(p, pos);
    bench_ref_nbody(p, pos, want);
    /* Work-groups of one wave: 2048 bodies still make 32 groups to spread over the workers. */
    launch l = { "nbody", 1, { p->n, 1, 1 }, { 64, 1, 1 },
                 { A_BUF(acc), A_BUF(pos), A_VAL(uint32_t, p->n),
                   A_VAL(float, BENCH_NBODY_EPS2) }, 4, acc, bytes };
    bench_stats st;
    if (time_launch(c, &l, &st) == 0)
        report(c, p, backend, &st, bench_check_f32_rel("acc", acc, want, (size_t)p->n * 4, 1e-4f));
    free(want);
}

static void run_histogram(corpus_t *c, const bench_problem *p, const char *backend) {
    size_t bytes = (size_t)p->n * 4;
    uint32_t *out = corpus_alloc(c, bytes), *want = malloc(bytes);
    bench_ref_histogram(p, want);
    launch l = { "histogram", 1, { p->n, 1, 1 }, { 256, 1, 1 },
                 { A_BUF(out), A_VAL(uint32_t, p->n), A_VAL(uint32_t, BENCH_HIST_SEED) }, 3,
                 out, bytes };
    bench_stats st;
    if (time_launch(c, &l, &st) == 0)
        report(c, p, backend, &st, bench_check_u32("digest", out, want, p->n));
    free(want);
}

void bench_gpu_case(corpus_t *c, const char *backend) {
    const char *kernel = getenv("BENCH_KERNEL");
    const bench_problem *p = kernel ? bench_problem_for(kernel) : NULL;
    if (!p) {
        corpus_fail(c, "BENCH_KERNEL must name one of the benchmark kernels (got %s)",
                    kernel ? kernel : "nothing");
        return;
    }
    static const struct {
        const char *name;
        void (*run)(corpus_t *, const bench_problem *, const char *);
    } runners[] = {
        { "saxpy", run_saxpy },     { "mandelbrot", run_mandelbrot }, { "matmul", run_matmul },
        { "reduce", run_reduce },   { "stencil", run_stencil },       { "nbody", run_nbody },
        { "histogram", run_histogram },
    };
    for (unsigned i = 0; i < sizeof runners / sizeof runners[0]; i++)
        if (strcmp(runners[i].name, p->kernel) == 0)
            runners[i].run(c, p, backend);
}
