#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t M = 37, N = 50, K = 41;
    float *A = corpus_alloc(c, M * K * 4), *B = corpus_alloc(c, K * N * 4);
    float *C = corpus_alloc(c, M * N * 4), *want = calloc(M * N, 4);
    for (uint32_t i = 0; i < M * K; i++)
        A[i] = (float)((int32_t)(corpus_rand(c) % 41) - 20);
    for (uint32_t i = 0; i < K * N; i++)
        B[i] = (float)((int32_t)(corpus_rand(c) % 33) - 16);
    for (uint32_t r = 0; r < M; r++)
        for (uint32_t col = 0; col < N; col++) {
            int64_t acc = 0;
            for (uint32_t k = 0; k < K; k++)
                acc += (int64_t)A[r * K + k] * (int64_t)B[k * N + col];
            want[r * N + col] = (float)acc;
        }
    /* Whole 16x16 groups: every work-item loads one element of each LDS tile. */
    RUN3(c, "matmul", 2, ((size_t[3]){ (N + 15) / 16 * 16, (M + 15) / 16 * 16, 1 }), ((size_t[3]){ 16, 16, 1 }), A_BUF(C),
         A_BUF(A), A_BUF(B), A_VAL(uint32_t, M), A_VAL(uint32_t, N), A_VAL(uint32_t, K));
    corpus_check_f32(c, "C", C, want, M * N, 0);
    free(want);
}
