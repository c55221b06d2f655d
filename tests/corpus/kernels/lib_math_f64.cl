// corpus: devlib (clang-15 with rocm-device-libs: OCML math)
// Double-precision math functions from the device libraries against the host's libm.
#include "corpus.h"

__kernel void lib_math_f64(__global double *out, __global const double *a,
                           __global const double *b, uint n) {
    uint i = get_global_id(0);
    if (i >= n)
        return;
    double x = a[i], y = b[i];
    __global double *o = out + 10 * i;
    o[0] = sin(x);
    o[1] = cos(x);
    o[2] = exp(y);
    o[3] = log(fabs(x) + 0.5);
    o[4] = pow(fabs(x) + 0.5, y * 0.25);
    o[5] = sqrt(fabs(x));
    o[6] = atan(x);
    o[7] = cbrt(x);
    o[8] = fma(x, y, 0.375);
    o[9] = x / y;
}
