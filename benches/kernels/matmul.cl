// Tiled matrix multiply C = A * B (n x n, n a multiple of 16): each 16x16 work-group stages a
// tile of A and of B in LDS per step, with two barriers per step. Integer-valued inputs keep
// every partial sum exact, so the result does not depend on fma or summation order.
#include "bench.h"

#define TILE 16

__kernel void matmul(__global float *C, __global const float *A, __global const float *B,
                     uint n) {
    __local float ta[TILE][TILE], tb[TILE][TILE];
    uint lx = c_lid(0), ly = c_lid(1);
    uint col = c_group(0) * TILE + lx, row = c_group(1) * TILE + ly;
    float acc = 0.0f;
    for (uint t = 0; t < n; t += TILE) {
        ta[ly][lx] = A[row * n + t + lx];
        tb[ly][lx] = B[(t + ly) * n + col];
        c_barrier();
        for (uint k = 0; k < TILE; k++)
            acc += ta[ly][k] * tb[k][lx];
        c_barrier();
    }
    C[row * n + col] = acc;
}
