// Data-dependent loops with break and continue: Collatz step counts (capped), and a search loop
// that leaves early. Lanes of a wave iterate different numbers of times.
#include "corpus.h"

__kernel void loop_break(__global uint *steps, __global uint *found, __global const uint *in,
                         uint n) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    ulong x = in[i];
    uint s = 0;
    while (x != 1) {
        if (s >= 500)
            break;
        s++;
        if (x & 1) {
            x = 3 * x + 1;
            continue;
        }
        x >>= 1;
    }
    steps[i] = s;
    uint f = 0xffffffffu;
    for (uint k = 0; k < 64; k++) {
        uint probe = (in[i] >> (k & 31)) ^ k;
        if ((probe & 0xf) == 0xa) {
            f = k;
            break;
        }
    }
    found[i] = f;
}
