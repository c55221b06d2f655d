// Mandelbrot escape-time iteration counts: ALU bound and divergent (each lane of a wave loops
// until its own point escapes, so a wave runs as long as its slowest lane).
#include "bench.h"

__kernel void mandelbrot(__global uint *out, uint w, uint h, float x0, float y0, float step,
                         uint max_iter) {
    uint x = c_gid(0), y = c_gid(1);
    if (x >= w || y >= h)
        return;
    float cr = x0 + (float)x * step, ci = y0 + (float)y * step;
    float zr = 0.0f, zi = 0.0f;
    uint it = 0;
    while (it < max_iter) {
        float zr2 = zr * zr, zi2 = zi * zi;
        if (zr2 + zi2 > 4.0f)
            break;
        zi = 2.0f * zr * zi + ci;
        zr = zr2 - zi2 + cr;
        it++;
    }
    out[y * w + x] = it;
}
