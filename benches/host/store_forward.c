/* Store-to-load forwarding from plain and masked AVX-512 stores: why the JIT writes VGPR chunks
 * that are read again at once with whole 64-byte stores (docs/JIT.md, "Registers leave as whole
 * 64-byte stores"). Each round stores 16 dwords and reads them back (a loop-carried chain):
 *   mode 0: plain store, 64-byte load          mode 1: masked store (all lanes), 64-byte load
 *   mode 2: masked store, 4-byte load          mode 3: load, blend under the mask, plain store
 *   mode 4: plain store, 4-byte load of dword 15 (the upper half: no forwarding on Intel's
 *           AVX-512 cores)                     mode 5: plain store, 16-byte load, vpextrd
 * Build and run: gcc -O2 -mavx512f -o store_forward benches/host/store_forward.c && ./store_forward
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static uint32_t buf[16] __attribute__((aligned(64)));

int main(void) {
    __m512i v = _mm512_set1_epi32(1);
    const long n = 100000000;
    volatile __mmask16 all = 0xffff; /* not a constant: the compiler keeps the masked forms */
    __mmask16 m = all;
    for (int mode = 0; mode < 6; mode++) {
        double t = now();
        for (long i = 0; i < n; i++) {
            if (mode == 0 || mode >= 4)
                _mm512_store_si512((void *)buf, v);
            else if (mode == 1 || mode == 2)
                _mm512_mask_storeu_epi32(buf, m, v);
            else
                _mm512_store_si512((void *)buf,
                                   _mm512_mask_mov_epi32(_mm512_load_si512((void *)buf), m, v));
            if (mode == 2) {
                v = _mm512_add_epi32(v, _mm512_set1_epi32((int)buf[3]));
            } else if (mode == 4) {
                v = _mm512_add_epi32(v, _mm512_set1_epi32((int)*(volatile uint32_t *)&buf[15]));
            } else if (mode == 5) {
                __m128i q;
                /* (asm: the compiler would fold the load and extract into a 4-byte load) */
                __asm__ volatile("vmovdqu %1, %0" : "=x"(q) : "m"(*(__m128i *)&buf[12]));
                v = _mm512_add_epi32(v, _mm512_set1_epi32(_mm_extract_epi32(q, 3)));
            } else {
                v = _mm512_add_epi32(_mm512_load_si512((void *)buf), v);
            }
        }
        printf("mode %d: %.2f ns per round\n", mode, (now() - t) / n * 1e9);
    }
    return _mm512_reduce_add_epi32(v) == 12345; /* keeps the chain live */
}
