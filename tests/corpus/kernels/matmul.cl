// Tiled single-precision matrix multiply (C = A * B) with two 16x16 LDS tiles per step, partial
// tiles at the edges (zero-padded; the grid is whole work-groups). Inputs are small integers, so every partial sum is exact in float and the
// result does not depend on the order of the additions or on fma contraction.
#include "corpus.h"

#define T 16

__kernel void matmul(__global float *C, __global const float *A, __global const float *B,
                     uint M, uint N, uint K) {
    __local float as[T][T], bs[T][T];
    uint lx = c_lid(0), ly = c_lid(1);
    uint col = c_group(0) * T + lx, row = c_group(1) * T + ly;
    float acc = 0.0f;
    for (uint t0 = 0; t0 < K; t0 += T) {
        as[ly][lx] = (row < M && t0 + lx < K) ? A[row * K + t0 + lx] : 0.0f;
        bs[ly][lx] = (col < N && t0 + ly < K) ? B[(t0 + ly) * N + col] : 0.0f;
        c_barrier();
        for (uint k = 0; k < T; k++)
            acc += as[ly][k] * bs[k][lx];
        c_barrier();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
