/* Do two CPUs of this machine share a core? For each CPU j, a loop runs on CPU 0 alone, then on
 * CPU 0 and CPU j at once, and the pair's slow-down is printed. Two loops:
 *   vec: AVX-512 FMAs on 8 independent accumulators (throughput-bound, like the JIT's code);
 *   lat: a chain of dependent integer multiplies (latency-bound, like much scalar C).
 * Last, the loops run on every CPU at once (all cores busy: lower clocks, shared caches), with
 * two more: vec256, the same FMAs on 256-bit registers, and int512, 512-bit integer adds: whether
 * the slow-down of all cores busy follows the vector width or the floating-point work.
 * CORE_PAIRS_ALL_ONLY=1 skips the pairs.
 * Hardware threads of one core slow the vector loop down about 2x and the latency chain little;
 * separate cores slow neither. A virtual machine whose vCPUs the host places on hyperthread
 * siblings shows that too, even where its lscpu says one thread per core (docs/BENCHMARKS.md).
 * Build and run: gcc -O2 -mavx512f -mfma -pthread -o core_pairs benches/host/core_pairs.c && ./core_pairs
 */
#define _GNU_SOURCE
#include <immintrin.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

typedef struct {
    int cpu, kind;
    double secs;
    double sink;
} job;

static void *run(void *p) {
    job *j = p;
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(j->cpu, &s);
    if (sched_setaffinity(0, sizeof s, &s) != 0)
        j->secs = -1;
    const long n = 20000000;
    double t = now();
    if (j->kind == 0) {
        __m512 a[8], b = _mm512_set1_ps(0.999f), c = _mm512_set1_ps(0.001f);
        for (int k = 0; k < 8; k++)
            a[k] = _mm512_set1_ps((float)k);
        for (long i = 0; i < n; i++)
            for (int k = 0; k < 8; k++)
                a[k] = _mm512_fmadd_ps(a[k], b, c);
        float out[16];
        __m512 sum = a[0];
        for (int k = 1; k < 8; k++)
            sum = _mm512_add_ps(sum, a[k]);
        _mm512_storeu_ps(out, sum);
        j->sink = out[0];
    } else if (j->kind == 2) {
        __m256 a[8], b = _mm256_set1_ps(0.999f), c = _mm256_set1_ps(0.001f);
        for (int k = 0; k < 8; k++)
            a[k] = _mm256_set1_ps((float)k);
        for (long i = 0; i < n; i++)
            for (int k = 0; k < 8; k++)
                a[k] = _mm256_fmadd_ps(a[k], b, c);
        float out[8];
        __m256 sum = a[0];
        for (int k = 1; k < 8; k++)
            sum = _mm256_add_ps(sum, a[k]);
        _mm256_storeu_ps(out, sum);
        j->sink = out[0];
    } else if (j->kind == 3) {
        __m512i a[8], b = _mm512_set1_epi32(3);
        for (int k = 0; k < 8; k++)
            a[k] = _mm512_set1_epi32(k);
        for (long i = 0; i < n; i++)
            for (int k = 0; k < 8; k++)
                a[k] = _mm512_add_epi32(a[k], b);
        int out[16];
        __m512i sum = a[0];
        for (int k = 1; k < 8; k++)
            sum = _mm512_xor_si512(sum, a[k]);
        _mm512_storeu_si512(out, sum);
        j->sink = out[0];
    } else {
        uint64_t x = 12345;
        for (long i = 0; i < 4 * n; i++)
            x = x * 6364136223846793005ull + 1;
        j->sink = (double)x;
    }
    if (j->secs >= 0)
        j->secs = now() - t;
    return NULL;
}

static double alone(int cpu, int kind) {
    job j = {cpu, kind, 0, 0};
    run(&j);
    return j.secs;
}

static void pair(int a, int b, int kind, double *ta, double *tb) {
    job ja = {a, kind, 0, 0}, jb = {b, kind, 0, 0};
    pthread_t t;
    pthread_create(&t, NULL, run, &jb);
    run(&ja);
    pthread_join(t, NULL);
    *ta = ja.secs;
    *tb = jb.secs;
}

int main(void) {
    int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    const char *names[4] = {"vec", "lat", "vec256", "int512"};
    bool pairs = !getenv("CORE_PAIRS_ALL_ONLY");
    if (pairs)
        printf("cpu0 with cpu j: time of the pair's loops over cpu0's alone (1.00 = no sharing)\n");
    for (int kind = 0; pairs && kind < 2; kind++) {
        double base = alone(0, kind);
        printf("%s alone %.3f s:", names[kind], base);
        for (int j = 1; j < cpus; j++) {
            double ta, tb;
            pair(0, j, kind, &ta, &tb);
            if (ta < 0 || tb < 0) {
                printf(" %d:n/a", j);
                continue;
            }
            printf(" %d:%.2f/%.2f", j, ta / base, tb / base);
        }
        printf("\n");
    }
    for (int kind = 0; kind < 4; kind++) {
        double base = alone(0, kind);
        job js[1024];
        pthread_t ts[1024];
        int n = cpus < 1024 ? cpus : 1024;
        for (int j = 0; j < n; j++) {
            js[j] = (job){j, kind, 0, 0};
            pthread_create(&ts[j], NULL, run, &js[j]);
        }
        printf("%s (alone %.3f s) on all %d CPUs at once, each over cpu0's alone:", names[kind],
               base, n);
        for (int j = 0; j < n; j++) {
            pthread_join(ts[j], NULL);
            printf(" %.2f", js[j].secs / base);
        }
        printf("\n");
    }
    return 0;
}
