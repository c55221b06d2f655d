// Inclusive prefix sum over each work-group of 128 in LDS (Hillis-Steele, double-buffered), with
// a barrier in every step of a loop; 64-bit running totals.
#include "corpus.h"

#define WG 128

__kernel void lds_scan(__global ulong *out, __global const uint *in, uint n) {
    __local ulong buf[2][WG];
    uint l = c_lid(0), i = c_gid(0);
    buf[0][l] = i < n ? in[i] : 0;
    c_barrier();
    uint src = 0;
    for (uint off = 1; off < WG; off <<= 1) {
        ulong v = buf[src][l];
        if (l >= off)
            v += buf[src][l - off];
        buf[1 - src][l] = v;
        src = 1 - src;
        c_barrier();
    }
    if (i < n)
        out[i] = buf[src][l];
}
