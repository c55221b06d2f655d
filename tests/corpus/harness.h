/* The corpus harness: one small API that every case program uses to allocate buffers, dispatch a
 * kernel by name and compare results with a host reference.
 *
 * Two back ends implement it:
 *  - harness.c: plain HSA against Debian's /usr/include/hsa (what the matrix runs on softhsa);
 *  - harness_ocl.c: OpenCL (PoCL), used only to validate the cases and their host references on
 *    the host CPU independently of softhsa (scripts/run-corpus.sh --validate-ocl).
 *
 * A case file defines `void corpus_case(corpus_t *c)`; the harness provides main(), which takes
 * the code object path (HSA) or the kernel source path (OpenCL) as argv[1].
 * Exit status: 0 all checks passed, 1 a check failed, 2 the runtime refused something. */
#ifndef CORPUS_HARNESS_H
#define CORPUS_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct corpus corpus_t;

enum corpus_arg_kind { CORPUS_ARG_VALUE = 0, CORPUS_ARG_BUFFER = 1 };

/* One explicit kernel argument: a buffer from corpus_alloc, or a scalar/vector passed by value. */
typedef struct {
    int kind;
    uint32_t size;
    const void *buf;
    union {
        uint8_t bytes[16];
        uint64_t u64[2];
    } val;
} corpus_arg;

/* Device-accessible, host-visible memory (zero-filled); freed at exit. NULL is fatal. */
void *corpus_alloc(corpus_t *c, size_t bytes);

corpus_arg corpus_buf(const void *p);
corpus_arg corpus_val(const void *p, uint32_t size);

#define A_BUF(p) corpus_buf(p)
/* A value argument of C type T, e.g. A_VAL(uint32_t, n). */
#define A_VAL(T, v) corpus_val(&(T){ v }, (uint32_t)sizeof(T))

/* Dispatches `kernel` over a `dims`-dimensional grid of work-items with the given work-group size
 * (entries beyond `dims` are ignored) and waits for completion. Returns 0 on success, else the
 * failing status (a queue error, a timeout, or a refused API call), already reported on stderr. */
int corpus_run(corpus_t *c, const char *kernel, unsigned dims, const size_t grid[3],
               const size_t wg[3], const corpus_arg *args, unsigned nargs);

#define CORPUS_ARGS(...) ((const corpus_arg[]){ __VA_ARGS__ }), \
    (unsigned)(sizeof((const corpus_arg[]){ __VA_ARGS__ }) / sizeof(corpus_arg))
/* RUN1(c, "k", n, wg, args...): a 1-D dispatch; a failed dispatch is a failed case. */
#define RUN1(c, k, n, w, ...) corpus_run_or_fail(c, k, 1, (size_t[3]){ (n), 1, 1 }, \
    (size_t[3]){ (w), 1, 1 }, CORPUS_ARGS(__VA_ARGS__))
#define RUN3(c, k, dims, grid, wg, ...) corpus_run_or_fail(c, k, dims, grid, wg, \
    CORPUS_ARGS(__VA_ARGS__))
int corpus_run_or_fail(corpus_t *c, const char *kernel, unsigned dims, const size_t grid[3],
                       const size_t wg[3], const corpus_arg *args, unsigned nargs);

/* Comparisons: each reports up to a few mismatching indices and marks the case failed.
 * Return 1 when everything matched. */
int corpus_check_bytes(corpus_t *c, const char *what, const void *got, const void *want,
                       size_t elem, size_t n);
int corpus_check_u32(corpus_t *c, const char *what, const uint32_t *got, const uint32_t *want,
                     size_t n);
int corpus_check_u64(corpus_t *c, const char *what, const uint64_t *got, const uint64_t *want,
                     size_t n);
/* Floats: within `ulps` units in the last place (0 = bit-exact; NaN matches NaN). */
int corpus_check_f32(corpus_t *c, const char *what, const float *got, const float *want, size_t n,
                     unsigned ulps);
int corpus_check_f64(corpus_t *c, const char *what, const double *got, const double *want,
                     size_t n, unsigned ulps);
/* A free-form failure. */
void corpus_fail(corpus_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Deterministic inputs: a xorshift generator seeded per case. */
uint32_t corpus_rand(corpus_t *c);
float corpus_randf(corpus_t *c, float lo, float hi);

/* Distance in ulps between two floats of the same sign class (huge for different signs). */
uint64_t corpus_ulps_f32(float a, float b);
uint64_t corpus_ulps_f64(double a, double b);

/* Replaces the queue with a new one (after a queue error, the old queue is unusable).
 * Returns 0 on success. */
int corpus_new_queue(corpus_t *c);

/* HSA back end: the GPU agent's handle (for extension APIs such as images); 0 for the OpenCL
 * back end. */
uint64_t corpus_hsa_gpu_agent(corpus_t *c);

/* The code object's version (2..5) from its ELF header; 0 for the OpenCL back end. */
unsigned corpus_code_object_version(corpus_t *c);

/* The case body, defined by each cases/<kernel>.c. */
void corpus_case(corpus_t *c);

#endif
