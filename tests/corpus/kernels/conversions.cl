// Conversions between every integer width and float/double: sign and zero extension,
// truncation, float<->int rounding toward zero, int->float rounding to nearest.
#include "corpus.h"

__kernel void conversions(__global ulong *out, __global const ulong *in, uint n) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    ulong v = in[i];
    __global ulong *o = out + 12 * i;
    o[0] = (ulong)(long)(char)v;
    o[1] = (ulong)(uchar)(v >> 8);
    o[2] = (ulong)(long)(short)(v >> 3);
    o[3] = (ulong)(ushort)(v >> 17);
    o[4] = (ulong)(long)(int)(v >> 11);
    o[5] = (ulong)(uint)(v >> 29);
    o[6] = (ulong)as_uint((float)(long)v);
    o[7] = as_ulong((double)v);
    o[8] = (ulong)as_uint((float)(uint)v);
    o[9] = as_ulong((double)(int)(v >> 32));
    float f = (float)(int)v * 0.25f;
    o[10] = (ulong)(long)f;
    double d = (double)(long)v * 0.5;
    o[11] = (ulong)(uint)(int)(d * 1e-10);
}
