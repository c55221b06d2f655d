// Kernels of the queue benchmark (benches/host/queue_bench.c, scripts/bench-queues.sh).
#include "bench.h"

// Does nothing: the round trip and dispatch rate measure the queue path alone.
__kernel void empty(void) {}

// A small kernel (one work-group in the benchmark): `iters` rounds of an integer hash per
// work-item, the result stored so the host can check it.
__kernel void small(__global uint *out, uint iters, uint seed) {
    uint i = c_gid(0);
    uint x = i * 2654435761u + seed;
    for (uint k = 0; k < iters; k++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x += k;
    }
    out[i] = x;
}
