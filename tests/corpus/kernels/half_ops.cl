// 16-bit float (cl_khr_fp16): add, sub, mul, min/max, compares, conversions to and from float
// and integers. Results are returned as raw bits.
#include "corpus.h"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void half_ops(__global ushort *out, __global const ushort *a, __global const ushort *b,
                       __global const float *f, uint n) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    half x = as_half(a[i]), y = as_half(b[i]);
    __global ushort *o = out + 9 * i;
    o[0] = as_ushort((half)(x + y));
    o[1] = as_ushort((half)(x - y));
    o[2] = as_ushort((half)(x * y));
    o[3] = as_ushort(x < y ? x : y);
    o[4] = as_ushort((half)f[i]);
    o[5] = (ushort)(short)(x * (half)8.0h);
    o[6] = as_ushort((half)(short)(a[i] >> 4));
    o[7] = (ushort)((x < y) | ((x == y) << 1) | ((x >= (half)0.0h) << 2));
    float fx = (float)x;
    float fy = (float)y;
    float prod = fx * fy;
    o[8] = (ushort)(as_uint(prod) >> 16);
}
