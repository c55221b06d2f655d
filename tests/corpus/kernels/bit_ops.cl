// Bit manipulation through clang builtins (no device library): popcount, count leading and
// trailing zeros, bit reverse, byte swap, rotates, 24-bit multiply, bit-field extract/insert.
#include "corpus.h"

__kernel void bit_ops(__global uint *out, __global const uint *in, uint n) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    uint v = in[i];
    ulong w = ((ulong)v << 32) | in[(i + 1) % n];
    __global uint *o = out + 12 * i;
    o[0] = __builtin_popcount(v);
    o[1] = v ? __builtin_clz(v) : 32;
    o[2] = v ? __builtin_ctz(v) : 32;
    o[3] = __builtin_bitreverse32(v);
    o[4] = __builtin_bswap32(v);
    o[5] = (v << (i & 31)) | (v >> ((32 - (i & 31)) & 31));
    o[6] = __builtin_popcountl(w);
    o[7] = w ? __builtin_clzl(w) : 64;
    o[8] = (uint)__builtin_bitreverse64(w);
    o[9] = (v & 0xffffff) * (in[(i + 3) % n] & 0xffffff);
    o[10] = (v >> (i % 20)) & ((1u << (1 + i % 12)) - 1);
    o[11] = (v & ~(0xffu << 8)) | ((in[(i + 2) % n] & 0xff) << 8);
}
