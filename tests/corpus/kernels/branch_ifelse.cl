// Divergent if/else chains and nested conditions: lanes of one wave take different paths, so
// EXEC masking, s_cbranch_execz and the reconvergence of the masks are exercised.
#include "corpus.h"

__kernel void branch_ifelse(__global int *out, __global const int *in, uint n) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    int v = in[i];
    int r;
    if (v < 0) {
        if (v < -1000)
            r = v * 3;
        else
            r = -v;
    } else if ((v & 3) == 0) {
        r = v >> 2;
        if (i & 1)
            r += 17;
    } else if (v > 5000) {
        r = v - 5000;
    } else {
        r = v ^ 0x55;
        if ((r & 8) && (i % 3 == 0))
            r = ~r;
    }
    out[i] = (i & 2) ? r + (int)i : r;
}
