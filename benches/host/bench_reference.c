/* Serial host references of the benchmark kernels: plain loops, the obvious algorithm, no
 * tiling and no threads, written independently of the kernels and of native_bench.c. Built with
 * -ffp-contract=off so that float expressions round exactly as written (like the kernels, which
 * say `#pragma OPENCL FP_CONTRACT OFF`). */
#include "bench_common.h"

#include <math.h>
#include <stdlib.h>

void bench_ref_saxpy(const bench_problem *p, const float *x, const float *y, float *z) {
    for (uint32_t i = 0; i < p->n; i++)
        z[i] = BENCH_SAXPY_A * x[i] + y[i];
}

void bench_ref_mandelbrot(const bench_problem *p, uint32_t *out) {
    float step = bench_mb_step(p);
    for (uint32_t y = 0; y < p->n; y++)
        for (uint32_t x = 0; x < p->n; x++) {
            float cr = BENCH_MB_X0 + (float)x * step, ci = BENCH_MB_Y0 + (float)y * step;
            float zr = 0.0f, zi = 0.0f;
            uint32_t it = 0;
            for (; it < p->iters; it++) {
                float zr2 = zr * zr, zi2 = zi * zi;
                if (zr2 + zi2 > 4.0f)
                    break;
                zi = 2.0f * zr * zi + ci;
                zr = zr2 - zi2 + cr;
            }
            out[y * p->n + x] = it;
        }
}

/* In 64-bit integers: the inputs are small integers, so this is the exact product. */
void bench_ref_matmul(const bench_problem *p, const float *a, const float *b, float *c) {
    uint32_t n = p->n;
    int64_t *row = malloc(sizeof *row * n);
    for (uint32_t i = 0; i < n; i++) {
        for (uint32_t j = 0; j < n; j++)
            row[j] = 0;
        for (uint32_t k = 0; k < n; k++) {
            int64_t aik = (int64_t)a[(size_t)i * n + k];
            for (uint32_t j = 0; j < n; j++)
                row[j] += aik * (int64_t)b[(size_t)k * n + j];
        }
        for (uint32_t j = 0; j < n; j++)
            c[(size_t)i * n + j] = (float)row[j];
    }
    free(row);
}

/* Group g sums elements [g*chunk, (g+1)*chunk) of the input (modulo 2^32). */
void bench_ref_reduce(const bench_problem *p, const uint32_t *in, uint32_t *partial) {
    uint32_t chunk = BENCH_REDUCE_WG * BENCH_REDUCE_ITEMS, groups = bench_reduce_groups(p);
    for (uint32_t g = 0; g < groups; g++) {
        uint32_t sum = 0;
        for (uint32_t i = g * chunk; i < (g + 1) * chunk && i < p->n; i++)
            sum += in[i];
        partial[g] = sum;
    }
}

void bench_ref_stencil(const bench_problem *p, const float *in, float *out) {
    uint32_t w = p->n, h = p->n;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            size_t i = (size_t)y * w + x;
            if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
                out[i] = in[i];
            else
                out[i] = 0.2f * ((((in[i] + in[i - w]) + in[i + w]) + in[i - 1]) + in[i + 1]);
        }
}

/* In double precision: the reference the float results are compared with, within a tolerance. */
void bench_ref_nbody(const bench_problem *p, const float *pos4, float *acc4) {
    for (uint32_t i = 0; i < p->n; i++) {
        double a[3] = { 0, 0, 0 };
        for (uint32_t j = 0; j < p->n; j++) {
            double d[3], r2 = BENCH_NBODY_EPS2;
            for (int k = 0; k < 3; k++) {
                d[k] = (double)pos4[4 * j + k] - (double)pos4[4 * i + k];
                r2 += d[k] * d[k];
            }
            double s = pos4[4 * j + 3] / (r2 * sqrt(r2));
            for (int k = 0; k < 3; k++)
                a[k] += d[k] * s;
        }
        for (int k = 0; k < 3; k++)
            acc4[4 * i + k] = (float)a[k];
        acc4[4 * i + 3] = 0.0f;
    }
}

/* benches/kernels/histogram.cl for work-item i: 64 xorshift values into 32 private bins, then
 * a digest of the bins. */
static uint32_t histogram_item(uint32_t i) {
    uint32_t hist[32] = { 0 };
    uint32_t x = i * 0x9e3779b9u + BENCH_HIST_SEED;
    for (uint32_t k = 0; k < 64; k++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        hist[x & 31] += k + 1;
    }
    uint32_t h = 0;
    for (uint32_t k = 0; k < 32; k++)
        h = h * 31u + hist[k];
    return h;
}

void bench_ref_histogram(const bench_problem *p, uint32_t *out) {
    for (uint32_t i = 0; i < p->n; i++)
        out[i] = histogram_item(i);
}
