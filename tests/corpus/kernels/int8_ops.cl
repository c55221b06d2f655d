// 8-bit integers: wrap-around, promotion to int, signed/unsigned division, shifts, compares.
#include "corpus.h"

__kernel void int8_ops(__global uchar *out, __global const char *a, __global const char *b,
                       uint n) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    char x = a[i], y = b[i];
    uchar ux = (uchar)x, uy = (uchar)y;
    __global uchar *o = out + 10 * i;
    o[0] = (uchar)(x + y);
    o[1] = (uchar)(x - y);
    o[2] = (uchar)(x * y);
    o[3] = y ? (uchar)(ux / uy) : 0x5a;
    o[4] = (y && !(x == -128 && y == -1)) ? (uchar)(x / y) : 0xa5;
    o[5] = (y && !(x == -128 && y == -1)) ? (uchar)(x % y) : 0x3c;
    o[6] = (uchar)(x >> (uy & 7));
    o[7] = (uchar)(ux >> (uy & 7));
    o[8] = (uchar)((x < y) | ((ux < uy) << 1) | ((x == y) << 2));
    o[9] = (uchar)((ux * uy) >> 8);
}
