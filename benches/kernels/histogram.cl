// A private array per work-item, indexed by data, so the compiler keeps it in scratch memory:
// a 32-bin histogram of 64 xorshift values, then a digest. The shape of unit tests whose
// threads each fill an array of their own (and of -O0 code, whose variables all live there).
#include "bench.h"

__kernel void histogram(__global uint *out, uint n, uint seed) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    uint hist[32];
    for (uint k = 0; k < 32; k++)
        hist[k] = 0;
    uint x = i * 0x9e3779b9u + seed;
    for (uint k = 0; k < 64; k++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        hist[x & 31] += k + 1;
    }
    uint h = 0;
    for (uint k = 0; k < 32; k++)
        h = h * 31u + hist[k];
    out[i] = h;
}
