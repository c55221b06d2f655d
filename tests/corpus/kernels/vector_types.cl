// OpenCL vector types: int4/uint4 arithmetic, float4 mul/add, uchar16 byte shuffles through
// component access, long2, swizzles, vector compares (-1 for true) and vector loads/stores
// through vector pointers.
#include "corpus.h"

__kernel void vector_types(__global uint4 *o4, __global float4 *of, __global uchar16 *ob,
                           __global long2 *ol, __global const uint4 *a, __global const uint4 *b,
                           uint n) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    uint4 x = a[i], y = b[i];
    o4[3 * i] = x * y + (x >> 3);
    o4[3 * i + 1] = x.wzyx ^ y.xxyy;
    o4[3 * i + 2] = as_uint4((int4)(x.x, x.y, x.z, x.w) < (int4)(y.x, y.y, y.z, y.w));
    float4 fx = __builtin_convertvector(x & (uint4)0xffff, float4);
    float4 fy = __builtin_convertvector(y & (uint4)0xff, float4);
    float4 prod = fx * fy;
    of[i] = prod + fy.yzwx;
    uchar16 bx = as_uchar16(x), by = as_uchar16(y);
    uchar16 r;
    r.s0123 = bx.sfedc;
    r.s4567 = by.s0246;
    r.s89ab = bx.s89ab + by.s89ab;
    r.scdef = (uchar4)(bx.s1, by.s3, bx.s5, by.s7) * (uchar4)3;
    ob[i] = r;
    long2 lx = as_long2(x), ly = as_long2(y);
    ol[i] = lx - ly + (long2)(lx.y >> 7, ly.x << 3);
}
