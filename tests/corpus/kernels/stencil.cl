// A 1-D 5-point integer stencil with an LDS tile plus halo cells loaded by the edge work-items,
// a barrier, and clamping at the ends of the array. Launched as whole work-groups (the tile
// needs every work-item of its group); the items past the end only load.
#include "corpus.h"

#define WG 64
#define R 2

__kernel void stencil(__global int *out, __global const int *in, uint n) {
    __local int t[WG + 2 * R];
    uint l = c_lid(0), i = c_gid(0);
    int last = (int)n - 1;
    t[l + R] = in[C_MIN((int)i, last)];
    if (l < R) {
        t[l] = in[C_MAX((int)i - R, 0)];
        t[l + WG + R] = in[C_MIN((int)(i + WG), last)];
    }
    c_barrier();
    if (i < n)
        out[i] = t[l] - 2 * t[l + 1] + 5 * t[l + 2] - 2 * t[l + 3] + t[l + 4];
}
