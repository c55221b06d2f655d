// 32-bit float: the correctly rounded operations (add, sub, mul, fma), division and square root
// (within a few ulps), min/max, comparisons, conversions to and from integers. One operation per
// statement, so that the compiler's contraction of a*b+c into fma cannot change a result.
#include "corpus.h"

__kernel void float_ops(__global float *out, __global uint *iout, __global const float *a,
                        __global const float *b, __global const float *cc, uint n) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    float x = a[i], y = b[i], z = cc[i];
    __global float *o = out + 8 * i;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = __builtin_fmaf(x, y, z);
    o[4] = x / y;
    o[5] = __builtin_sqrtf(__builtin_fabsf(x));
    o[6] = __builtin_fminf(x, y);
    o[7] = __builtin_fmaxf(x, z);
    __global uint *io = iout + 6 * i;
    io[0] = (uint)(int)(x * 1000.0f);
    io[1] = (uint)(__builtin_fabsf(y) * 1000.0f);
    io[2] = as_uint((float)(int)(as_uint(z) ^ 0x5a5a5a5au));
    io[3] = as_uint((float)(as_uint(x) >> 1));
    io[4] = (uint)((x < y) | ((x <= z) << 1) | ((y == z) << 2) | ((x != x) << 3));
    io[5] = as_uint(-__builtin_fabsf(z));
}
