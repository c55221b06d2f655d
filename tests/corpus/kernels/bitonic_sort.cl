// Bitonic sort of 256 keys per work-group in LDS: nested loops with a barrier after every
// compare-exchange step, and data-dependent swaps.
#include "corpus.h"

#define N 256

__kernel void bitonic_sort(__global uint *data) {
    __local uint k[N];
    uint l = c_lid(0), base = c_group(0) * N;
    k[l] = data[base + l];
    c_barrier();
    for (uint size = 2; size <= N; size <<= 1) {
        for (uint stride = size >> 1; stride > 0; stride >>= 1) {
            uint partner = l ^ stride;
            if (partner > l) {
                uint a = k[l], b = k[partner];
                int up = (l & size) == 0;
                if ((a > b) == up) {
                    k[l] = b;
                    k[partner] = a;
                }
            }
            c_barrier();
        }
    }
    data[base + l] = k[l];
}
