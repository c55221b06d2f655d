// SAXPY, out of place (z = a*x + y): memory bound, one load pair and one store per work-item.
// The host uses integer-valued inputs, so the result is exact with or without fma.
#include "bench.h"

__kernel void saxpy(__global float *z, __global const float *x, __global const float *y,
                    float a, uint n) {
    uint i = c_gid(0);
    if (i < n)
        z[i] = a * x[i] + y[i];
}
