// Selects and min/max/abs/clamp written with the conditional operator, which compilers turn into
// v_cndmask, v_min/v_max, v_med3 and compare-with-mask sequences, in 32- and 64-bit, signed and
// unsigned, integer and float.
#include "corpus.h"

__kernel void select_minmax(__global uint *out, __global ulong *out64, __global float *outf,
                            __global const int *a, __global const int *b, uint n) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    uint ux = (uint)x, uy = (uint)y;
    __global uint *o = out + 8 * i;
    o[0] = (uint)(x < y ? x : y);
    o[1] = ux > uy ? ux : uy;
    o[2] = (uint)(x < 0 ? -x : x);
    o[3] = (uint)(x < -1000 ? -1000 : x > 1000 ? 1000 : x);
    o[4] = (x & 1) ? ux : uy;
    o[5] = (x > y) ? 0xffffffffu : 0;
    o[6] = (uint)(ux - uy > 0x80000000u);
    uint m = ux < uy ? ux : uy;
    uint M = ux < uy ? uy : ux;
    o[7] = C_MAX(m, C_MIN(M, ux ^ 0x5555u));
    long lx = (long)x * 100003, ly = (long)y * 99991;
    out64[2 * i] = (ulong)(lx < ly ? lx : ly);
    out64[2 * i + 1] = (ulong)(lx < 0 ? -lx : lx);
    float fx = (float)x, fy = (float)y;
    outf[2 * i] = fx < fy ? fy : fx;
    outf[2 * i + 1] = fx > 0.0f ? fx : -fy;
}
