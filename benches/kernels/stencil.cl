// One Jacobi step of a 5-point 2-D stencil over a w x h float grid (2-D dispatch, 16x16
// work-groups); border cells are copied. Fixed summation order and no contraction: bit-exact.
#include "bench.h"

__kernel void stencil(__global float *out, __global const float *in, uint w, uint h) {
    uint x = c_gid(0), y = c_gid(1);
    if (x >= w || y >= h)
        return;
    uint i = y * w + x;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        out[i] = in[i];
        return;
    }
    out[i] = 0.2f * ((((in[i] + in[i - w]) + in[i + w]) + in[i - 1]) + in[i + 1]);
}
