// Explicit kernel arguments of every size and alignment (char, short, int, long, float, double,
// a float4 aligned to 16, pointers between them): checks that the runtime and the kernel agree
// on the kernarg segment layout. One work-item echoes them all.
#include "corpus.h"

__kernel void kernarg_layout(__global ulong *out, char c8, short s16, __global uint *marker,
                             int i32, long i64, uchar u8, float f32, double f64, float4 v4,
                             ushort u16, __global ulong *out2) {
    if (c_gid(0) != 0)
        return;
    out[0] = (ulong)(long)c8;
    out[1] = (ulong)(long)s16;
    out[2] = (ulong)(long)i32;
    out[3] = (ulong)i64;
    out[4] = u8;
    out[5] = as_uint(f32);
    out[6] = as_ulong(f64);
    out[7] = as_uint(v4.x);
    out[8] = as_uint(v4.y);
    out[9] = as_uint(v4.z);
    out[10] = as_uint(v4.w);
    out[11] = u16;
    out[12] = marker[0];
    out2[0] = 0x0123456789abcdefUL;
}
