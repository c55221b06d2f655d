// 64-bit integers: carries across halves, full multiplies, 64-bit division (a long expansion in
// the compiler), shifts by more than 32, rotates, comparisons.
#include "corpus.h"

__kernel void int64_ops(__global ulong *out, __global const ulong *a, __global const ulong *b,
                        uint n) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    ulong x = a[i], y = b[i];
    long sx = (long)x, sy = (long)y;
    __global ulong *o = out + 12 * i;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = y ? x / y : 7;
    o[4] = y ? x % y : 9;
    o[5] = (sy && !(sx == LONG_MIN && sy == -1)) ? (ulong)(sx / sy) : 11;
    o[6] = (sy && !(sx == LONG_MIN && sy == -1)) ? (ulong)(sx % sy) : 13;
    o[7] = x << (y & 63);
    o[8] = (ulong)(sx >> (y & 63));
    o[9] = (x >> (y & 63)) | (x << ((64 - (y & 63)) & 63));
    o[10] = (ulong)((sx < sy) | ((x < y) << 1) | ((x == y) << 2));
    o[11] = (x ^ ~y) + (x & 0xffffffffUL) * (y >> 32);
}
