// corpus: devlib (clang-15 with rocm-device-libs: OCML math)
// Single-precision math functions from the device libraries, compared with the host's libm
// within the OpenCL 2.0 full-profile ulp bounds.
#include "corpus.h"

__kernel void lib_math_f32(__global float *out, __global const float *a, __global const float *b,
                           uint n) {
    uint i = get_global_id(0);
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    __global float *o = out + 14 * i;
    o[0] = sin(x);
    o[1] = cos(x);
    o[2] = tan(x);
    o[3] = exp(y);
    o[4] = exp2(y);
    o[5] = log(fabs(x) + 0.5f);
    o[6] = log2(fabs(x) + 0.5f);
    o[7] = pow(fabs(x) + 0.5f, y * 0.25f);
    o[8] = sqrt(fabs(x));
    o[9] = rsqrt(fabs(x) + 0.25f);
    o[10] = atan2(x, y);
    o[11] = tanh(y);
    o[12] = cbrt(x);
    o[13] = fma(x, y, 0.375f);
}
