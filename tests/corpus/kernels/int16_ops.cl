// 16-bit integers: wrap-around, multiply high halves, division, shifts, min/max via compares.
#include "corpus.h"

__kernel void int16_ops(__global ushort *out, __global const short *a, __global const short *b,
                        uint n) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    short x = a[i], y = b[i];
    ushort ux = (ushort)x, uy = (ushort)y;
    __global ushort *o = out + 10 * i;
    o[0] = (ushort)(x + y);
    o[1] = (ushort)(x - y);
    o[2] = (ushort)(ux * uy);
    o[3] = (ushort)(((int)x * (int)y) >> 16);
    o[4] = uy ? (ushort)(ux / uy) : 0x1234;
    o[5] = (y && !(x == -32768 && y == -1)) ? (ushort)(x % y) : 0x4321;
    o[6] = (ushort)(ux << (uy & 15));
    o[7] = (ushort)(x >> (uy & 15));
    o[8] = (ushort)(x < y ? x : y);
    o[9] = ux > uy ? ux : uy;
}
