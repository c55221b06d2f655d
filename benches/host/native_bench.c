/* The benchmarks in plain C: each kernel's computation written the way one would for a CPU
 * (loops over rows, OpenMP across all cores, inner loops left for gcc to vectorize), built with
 * gcc -O3 -march=native -fopenmp -ffp-contract=off (no contraction, like the kernels' pragma,
 * so that the float results are the same operations). Usage: native_bench KERNEL; sizes and
 * run counts as the other two programs (BENCH_QUICK, BENCH_RUNS); threads: OMP_NUM_THREADS. */
#include "bench_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RUNS 1000

typedef void (*compute_fn)(const bench_problem *p, const void *in1, const void *in2, void *out);

static void saxpy(const bench_problem *p, const void *xv, const void *yv, void *zv) {
    const float *x = xv, *y = yv;
    float *z = zv;
    const float a = BENCH_SAXPY_A;
#pragma omp parallel for simd schedule(static)
    for (uint32_t i = 0; i < p->n; i++)
        z[i] = a * x[i] + y[i];
}

static void mandelbrot(const bench_problem *p, const void *u1, const void *u2, void *outv) {
    (void)u1;
    (void)u2;
    uint32_t *out = outv;
    const float step = bench_mb_step(p);
#pragma omp parallel for schedule(dynamic, 1)
    for (uint32_t y = 0; y < p->n; y++) {
        const float ci = BENCH_MB_Y0 + (float)y * step;
        for (uint32_t x = 0; x < p->n; x++) {
            const float cr = BENCH_MB_X0 + (float)x * step;
            float zr = 0.0f, zi = 0.0f;
            uint32_t it = 0;
            while (it < p->iters) {
                float zr2 = zr * zr, zi2 = zi * zi;
                if (zr2 + zi2 > 4.0f)
                    break;
                zi = 2.0f * zr * zi + ci;
                zr = zr2 - zi2 + cr;
                it++;
            }
            out[y * p->n + x] = it;
        }
    }
}

/* Row-major i-k-j order: the inner loop streams a row of B and of C (vectorized). */
static void matmul(const bench_problem *p, const void *av, const void *bv, void *cv) {
    const float *a = av, *b = bv;
    float *c = cv;
    const size_t n = p->n;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        float *ci = c + i * n;
        for (size_t j = 0; j < n; j++)
            ci[j] = 0.0f;
        for (size_t k = 0; k < n; k++) {
            const float aik = a[i * n + k];
            const float *bk = b + k * n;
            for (size_t j = 0; j < n; j++)
                ci[j] += aik * bk[j];
        }
    }
}

static void reduce(const bench_problem *p, const void *inv, const void *u, void *partv) {
    (void)u;
    const uint32_t *in = inv;
    uint32_t *part = partv;
    const uint32_t chunk = BENCH_REDUCE_WG * BENCH_REDUCE_ITEMS, groups = bench_reduce_groups(p);
#pragma omp parallel for schedule(static)
    for (uint32_t g = 0; g < groups; g++) {
        uint32_t end = (g + 1) * chunk < p->n ? (g + 1) * chunk : p->n, sum = 0;
        for (uint32_t i = g * chunk; i < end; i++)
            sum += in[i];
        part[g] = sum;
    }
}

static void stencil(const bench_problem *p, const void *inv, const void *u, void *outv) {
    (void)u;
    const float *in = inv;
    float *out = outv;
    const size_t w = p->n, h = p->n;
#pragma omp parallel for schedule(static)
    for (size_t y = 0; y < h; y++) {
        const float *r = in + y * w;
        float *o = out + y * w;
        if (y == 0 || y == h - 1) {
            memcpy(o, r, w * sizeof *o);
            continue;
        }
        const float *up = r - w, *down = r + w;
        o[0] = r[0];
        for (size_t x = 1; x < w - 1; x++)
            o[x] = 0.2f * ((((r[x] + up[x]) + down[x]) + r[x - 1]) + r[x + 1]);
        o[w - 1] = r[w - 1];
    }
}

static void nbody(const bench_problem *p, const void *posv, const void *u, void *accv) {
    (void)u;
    const float *pos = posv;
    float *acc = accv;
    const uint32_t n = p->n;
#pragma omp parallel for schedule(static)
    for (uint32_t i = 0; i < n; i++) {
        const float px = pos[4 * i], py = pos[4 * i + 1], pz = pos[4 * i + 2];
        float ax = 0.0f, ay = 0.0f, az = 0.0f;
        for (uint32_t j = 0; j < n; j++) {
            float dx = pos[4 * j] - px, dy = pos[4 * j + 1] - py, dz = pos[4 * j + 2] - pz;
            float r2 = dx * dx + dy * dy + dz * dz + BENCH_NBODY_EPS2;
            float inv = 1.0f / sqrtf(r2);
            float s = pos[4 * j + 3] * (inv * inv * inv);
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        acc[4 * i] = ax;
        acc[4 * i + 1] = ay;
        acc[4 * i + 2] = az;
        acc[4 * i + 3] = 0.0f;
    }
}

/* Each item's private histogram lives on the stack, as a CPU programmer would write it (its
 * own code, checked against bench_ref_histogram). */
static void histogram(const bench_problem *p, const void *u1, const void *u2, void *outv) {
    (void)u1;
    (void)u2;
    uint32_t *out = outv;
#pragma omp parallel for schedule(static)
    for (uint32_t i = 0; i < p->n; i++) {
        uint32_t hist[32] = { 0 };
        uint32_t x = i * 0x9e3779b9u + BENCH_HIST_SEED;
        for (uint32_t k = 1; k <= 64; k++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            hist[x & 31] += k;
        }
        uint32_t h = 0;
        for (uint32_t k = 0; k < 32; k++)
            h = h * 31u + hist[k];
        out[i] = h;
    }
}

/* Inputs, output and reference of one kernel, and how to compare. */
typedef struct {
    compute_fn fn;
    void *in1, *in2, *out, *want;
    size_t out_bytes, count;
    int kind; /* 0: u32 exact, 1: f32 exact, 2: f32 within a tolerance */
} job;

static int setup(const bench_problem *p, job *j) {
    size_t n = p->n, nn = n * n;
    const char *k = p->kernel;
    memset(j, 0, sizeof *j);
    if (!strcmp(k, "saxpy")) {
        j->fn = saxpy, j->count = n, j->kind = 1;
        j->in1 = malloc(n * 4), j->in2 = malloc(n * 4);
        bench_fill_saxpy(p, j->in1, j->in2);
    } else if (!strcmp(k, "mandelbrot")) {
        j->fn = mandelbrot, j->count = nn, j->kind = 0;
    } else if (!strcmp(k, "matmul")) {
        j->fn = matmul, j->count = nn, j->kind = 1;
        j->in1 = malloc(nn * 4), j->in2 = malloc(nn * 4);
        bench_fill_matmul(p, j->in1, j->in2);
    } else if (!strcmp(k, "reduce")) {
        j->fn = reduce, j->count = bench_reduce_groups(p), j->kind = 0;
        j->in1 = malloc(n * 4);
        bench_fill_reduce(p, j->in1);
    } else if (!strcmp(k, "stencil")) {
        j->fn = stencil, j->count = nn, j->kind = 1;
        j->in1 = malloc(nn * 4);
        bench_fill_stencil(p, j->in1);
    } else if (!strcmp(k, "nbody")) {
        j->fn = nbody, j->count = n * 4, j->kind = 2;
        j->in1 = malloc(n * 16);
        bench_fill_nbody(p, j->in1);
    } else if (!strcmp(k, "histogram")) {
        j->fn = histogram, j->count = n, j->kind = 0;
    } else {
        return -1;
    }
    j->out_bytes = j->count * 4;
    j->out = malloc(j->out_bytes), j->want = malloc(j->out_bytes);
    if (!strcmp(k, "saxpy"))
        bench_ref_saxpy(p, j->in1, j->in2, j->want);
    else if (!strcmp(k, "mandelbrot"))
        bench_ref_mandelbrot(p, j->want);
    else if (!strcmp(k, "matmul"))
        bench_ref_matmul(p, j->in1, j->in2, j->want);
    else if (!strcmp(k, "reduce"))
        bench_ref_reduce(p, j->in1, j->want);
    else if (!strcmp(k, "stencil"))
        bench_ref_stencil(p, j->in1, j->want);
    else if (!strcmp(k, "histogram"))
        bench_ref_histogram(p, j->want);
    else
        bench_ref_nbody(p, j->in1, j->want);
    return 0;
}

int main(int argc, char **argv) {
    const bench_problem *p = argc == 2 ? bench_problem_for(argv[1]) : NULL;
    if (!p) {
        fprintf(stderr, "usage: %s KERNEL (one of:", argv[0]);
        for (unsigned i = 0; i < BENCH_NKERNELS; i++)
            fprintf(stderr, " %s", bench_kernels[i]);
        fprintf(stderr, ")\n");
        return 2;
    }
    job j;
    if (setup(p, &j))
        return 2;
    unsigned runs = bench_runs() > MAX_RUNS ? MAX_RUNS : bench_runs();
    double ms[MAX_RUNS];
    for (unsigned r = 0; r <= runs; r++) { /* run 0 is the warm-up */
        memset(j.out, 0xA5, j.out_bytes);
        double t0 = bench_now_ms();
        j.fn(p, j.in1, j.in2, j.out);
        double t1 = bench_now_ms();
        if (r > 0)
            ms[r - 1] = t1 - t0;
    }
    bench_stats st;
    bench_stats_of(ms, runs, &st);
    bench_inject_fault(j.out, j.count);
    size_t bad = j.kind == 0   ? bench_check_u32(p->kernel, j.out, j.want, j.count)
                 : j.kind == 1 ? bench_check_f32_exact(p->kernel, j.out, j.want, j.count)
                               : bench_check_f32_rel(p->kernel, j.out, j.want, j.count, 1e-4f);
    bench_print(p, "native", &st, bad == 0);
    free(j.in1), free(j.in2), free(j.out), free(j.want);
    return bad ? 1 : 0;
}
