// corpus: devlib (clang-15 with rocm-device-libs: OpenCL integer built-ins)
// OpenCL integer built-ins: popcount, clz, ctz, rotate, mad24, mul24, mul_hi, add_sat, sub_sat,
// hadd, rhadd, abs, abs_diff, upsample, clamp, min, max, bitselect, select, mad_hi, at 8, 16, 32
// and 64 bits.
#include "corpus.h"

__kernel void lib_int_builtins(__global uint *out, __global ulong *out64, __global const int *a,
                               __global const int *b, uint n) {
    uint i = get_global_id(0);
    if (i >= n)
        return;
    int x = a[i], y = b[i];
    uint ux = (uint)x, uy = (uint)y;
    __global uint *o = out + 16 * i;
    o[0] = popcount(ux);
    o[1] = clz(ux);
    o[2] = ctz(ux);
    o[3] = rotate(ux, uy);
    o[4] = (uint)mad24(x >> 8, y >> 8, 12345);
    o[5] = mul24(ux & 0xffffff, uy & 0xffffff);
    o[6] = (uint)mul_hi(x, y);
    o[7] = (uint)add_sat(x, y);
    o[8] = sub_sat(ux, uy);
    o[9] = (uint)hadd(x, y);
    o[10] = rhadd(ux, uy);
    o[11] = abs_diff(x, y);
    o[12] = (uint)clamp(x, -5000, 70000);
    o[13] = bitselect(ux, uy, 0x0ff00ff0u);
    o[14] = (uint)add_sat((short)x, (short)y) & 0xffff;
    o[15] = (uint)sub_sat((uchar)x, (uchar)y) | ((uint)abs((char)y) << 8) |
            ((uint)max((char)x, (char)y) << 16 & 0xff0000);
    long lx = (long)x * 1048576L, ly = (long)y * 977;
    out64[3 * i] = (ulong)mul_hi(lx, ly);
    out64[3 * i + 1] = upsample(ux, uy);
    out64[3 * i + 2] = (ulong)add_sat((long)((ulong)lx * 4096), (long)((ulong)ly * 65536 * 4096));
}
