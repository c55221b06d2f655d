// Private arrays indexed with run-time values: the compiler must place them in scratch (private
// segment, buffer or flat scratch instructions) rather than registers. A per-work-item histogram,
// an insertion sort, and a 64-bit table lookup.
#include "corpus.h"

__kernel void private_array(__global uint *out, __global const uint *in, uint n) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    uint hist[32];
    uint keys[24];
    ulong table[20];
    for (uint k = 0; k < 32; k++)
        hist[k] = 0;
    for (uint k = 0; k < 20; k++)
        table[k] = ((ulong)in[(i + k) % n] << 32) | (k * 0x01010101u);
    for (uint k = 0; k < 24; k++) {
        uint v = in[(i * 7 + k) % n];
        hist[v & 31]++;
        keys[k] = v >> 8;
    }
    for (uint a = 1; a < 24; a++) {
        uint key = keys[a];
        int b = (int)a - 1;
        while (b >= 0 && keys[b] > key) {
            keys[b + 1] = keys[b];
            b--;
        }
        keys[b + 1] = key;
    }
    uint h = 0;
    for (uint k = 0; k < 32; k++)
        h = h * 31 + hist[k];
    ulong t = table[in[i] % 20] ^ table[(in[i] >> 5) % 20];
    __global uint *o = out + 5 * i;
    o[0] = h;
    o[1] = keys[0];
    o[2] = keys[in[i] % 24];
    o[3] = keys[23];
    o[4] = (uint)t ^ (uint)(t >> 32);
}
