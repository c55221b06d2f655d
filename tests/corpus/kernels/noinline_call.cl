// Real function calls (noinline): arguments and results in registers and on the stack, a callee
// taking a pointer to the caller's private array (scratch across the call), a callee with many
// arguments, calls from divergent code, and a call chain three deep.
#include "corpus.h"

__attribute__((noinline)) static ulong mix(ulong a, uint b) {
    return (a ^ b) * 0x9E3779B97F4A7C15UL + (a >> 29);
}

__attribute__((noinline)) static uint fill_and_sum(uint *arr, uint len, uint seed) {
    for (uint k = 0; k < len; k++)
        arr[k] = seed * (k + 1) ^ (seed >> k % 32);
    uint s = 0;
    for (uint k = 0; k < len; k++)
        s += arr[(k * 5) % len] * (k | 1);
    return s;
}

__attribute__((noinline)) static uint many_args(uint a, uint b, uint c, uint d, uint e, uint f,
                                                uint g, uint h, ulong i, ulong j, float x,
                                                double y) {
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + (uint)(i >> 3) +
           (uint)(j >> 7) + (uint)(int)x + (uint)(long)y;
}

__attribute__((noinline)) static uint level3(uint v) { return v * 2654435761u; }
__attribute__((noinline)) static uint level2(uint v) { return level3(v + 1) ^ level3(v >> 1); }
__attribute__((noinline)) static uint level1(uint v) { return level2(v) + level2(~v); }

__kernel void noinline_call(__global ulong *out, __global const uint *in, uint n) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    uint v = in[i];
    uint arr[40];
    __global ulong *o = out + 4 * i;
    o[0] = mix((ulong)v << 17 | i, v);
    o[1] = fill_and_sum(arr, 8 + v % 32, v) + arr[v % 8];
    o[2] = many_args(v, v >> 1, v >> 2, v >> 3, i, i + 1, i + 2, v ^ i, (ulong)v * v,
                     (ulong)i << 40, (float)(v % 1000) * 0.5f, (double)v * 0.25);
    o[3] = (v & 1) ? level1(v) : (ulong)level3(v) << 8;
}
