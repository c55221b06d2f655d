// 32-bit integer arithmetic: carries, multiply high parts, division, shifts, bit operations.
#include "corpus.h"

__kernel void int32_ops(__global uint *out, __global const uint *a, __global const uint *b,
                        uint n) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    uint x = a[i], y = b[i];
    int sx = (int)x, sy = (int)y;
    __global uint *o = out + 12 * i;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = (uint)(((ulong)x * (ulong)y) >> 32);
    o[4] = (uint)(((long)sx * (long)sy) >> 32);
    o[5] = y ? x / y : 0xdeadu;
    o[6] = y ? x % y : 0xbeefu;
    o[7] = (sy != 0 && !(sx == INT_MIN && sy == -1)) ? (uint)(sx / sy) : 1u;
    o[8] = (sy != 0 && !(sx == INT_MIN && sy == -1)) ? (uint)(sx % sy) : 2u;
    o[9] = (x << (y & 31)) ^ (x >> (y & 31));
    o[10] = (uint)(sx >> (y & 31));
    o[11] = (x & y) | (~x ^ (y >> 7));
}
