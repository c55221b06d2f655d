// A switch over many cases (a jump table or a compare tree, depending on the compiler), with
// fall-through, evaluated divergently across the lanes of a wave.
#include "corpus.h"

__kernel void switch_case(__global uint *out, __global const uint *in, uint n) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    uint v = in[i], r = 0;
    for (uint k = 0; k < 4; k++) {
        switch ((v >> (8 * k)) % 12) {
        case 0: r += 1; break;
        case 1: r *= 3; break;
        case 2: r ^= 0xf0f0u; // fall through
        case 3: r += 7; break;
        case 4: r = r << 1 | 1; break;
        case 5: r -= 11; break;
        case 6: r = ~r; break;
        case 7: r = r >> 3; break;
        case 8: r += v; // fall through
        case 9: r += k; break;
        case 10: r = r * r; break;
        default: r = r + 0x1000u; break;
        }
    }
    out[i] = r;
}
