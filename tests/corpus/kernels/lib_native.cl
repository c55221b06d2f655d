// corpus: devlib (clang-15 with rocm-device-libs: native_* and half_* functions)
// The fast hardware-backed functions: their precision is implementation-defined, so the case
// checks them against a relative/absolute bound rather than in ulps.
#include "corpus.h"

__kernel void lib_native(__global float *out, __global const float *a, uint n) {
    uint i = get_global_id(0);
    if (i >= n)
        return;
    float x = a[i], p = fabs(x) + 0.125f;
    __global float *o = out + 10 * i;
    o[0] = native_sin(x);
    o[1] = native_cos(x);
    o[2] = native_exp(x * 0.25f);
    o[3] = native_log(p);
    o[4] = native_recip(p);
    o[5] = native_rsqrt(p);
    o[6] = native_sqrt(p);
    o[7] = native_divide(x, p);
    o[8] = half_exp2(x * 0.25f);
    o[9] = native_powr(p, 0.75f);
}
