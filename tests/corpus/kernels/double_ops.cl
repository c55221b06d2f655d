// 64-bit float: add, sub, mul, fma (bit-exact), division (the v_div_scale/v_div_fmas/v_div_fixup
// sequence) and square root, min/max, conversions to and from 64- and 32-bit integers and float.
#include "corpus.h"

__kernel void double_ops(__global double *out, __global ulong *iout, __global const double *a,
                         __global const double *b, __global const double *cc, uint n) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    double x = a[i], y = b[i], z = cc[i];
    __global double *o = out + 8 * i;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = __builtin_fma(x, y, z);
    o[4] = x / y;
    o[5] = __builtin_sqrt(__builtin_fabs(x));
    o[6] = __builtin_fmin(x, y);
    o[7] = __builtin_fmax(x, z);
    __global ulong *io = iout + 6 * i;
    io[0] = (ulong)(long)(x * 1.0e6);
    io[1] = (ulong)(__builtin_fabs(y) * 1.0e9);
    io[2] = as_ulong((double)(long)(as_ulong(z) ^ 0x5a5a5a5a5a5a5a5aUL));
    io[3] = as_ulong((double)(as_ulong(x) >> 3));
    io[4] = (ulong)as_uint((float)x);
    io[5] = as_ulong((double)(int)(as_ulong(y) >> 20));
}
