/* The host program's floating-point environment must not leak into kernels. A program built
 * with -ffast-math sets flush-to-zero and denormals-are-zero in MXCSR at startup (crtfastmath.o)
 * and threads inherit MXCSR from their creator, so the runtime's own threads start with them.
 * A GFX9 kernel whose MODE keeps f32 denormals must still produce them. This program sets both
 * bits before main (as crtfastmath.o does), then multiplies denormal factors and normal factors
 * with denormal products on the GPU; the expected bits are exact integer arithmetic on the
 * encodings (a denormal's bits are its multiple of 2^-149). Built with the corpus harness;
 * argv[1] is a code object of kernels.cl; run.sh runs it under each engine. */
#include "harness.h"

#include <stdint.h>
#include <string.h>

#define FTZ_DAZ 0x8040u

__attribute__((constructor)) static void fast_math_startup(void) {
    uint32_t csr;
    __asm__ volatile("stmxcsr %0" : "=m"(csr));
    csr |= FTZ_DAZ;
    __asm__ volatile("ldmxcsr %0" : : "m"(csr));
}

static float from_bits(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}

enum { N = 512 };

void corpus_case(corpus_t *c) {
    uint32_t csr;
    __asm__ volatile("stmxcsr %0" : "=m"(csr));
    if ((csr & FTZ_DAZ) != FTZ_DAZ)
        corpus_fail(c, "the host's MXCSR lost FTZ/DAZ (%#x): the test tests nothing", csr);

    float *a = corpus_alloc(c, N * 4), *b = corpus_alloc(c, N * 4), *out = corpus_alloc(c, N * 4);
    uint32_t want[N];
    for (uint32_t i = 0; i < N; i++) {
        if (i % 2 == 0) {
            /* A denormal factor times 2: the denormal's multiple of 2^-149 doubles. */
            uint32_t m = 1 + i * 977;
            a[i] = from_bits(m);
            b[i] = 2.0f;
            want[i] = 2 * m;
        } else {
            /* 2^-(60+k) * 2^-(70+j): a power of two in the denormal range, 2^-149 * 2^(19-k-j). */
            uint32_t k = i % 10, j = (i / 10) % 10;
            a[i] = from_bits((uint32_t)(127 - 60 - k) << 23);
            b[i] = from_bits((uint32_t)(127 - 70 - j) << 23);
            want[i] = 1u << (19 - k - j);
        }
    }
    if (RUN1(c, "fmul", N, 64, A_BUF(out), A_BUF(a), A_BUF(b), A_VAL(uint32_t, N)) == 0)
        corpus_check_u32(c, "denormal products under the host's FTZ/DAZ", (const uint32_t *)out,
                         want, N);
}
