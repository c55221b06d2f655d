// All-pairs n-body accelerations (softened gravity): float math with a square root and a
// division per interaction, O(n^2) work over an O(n) input that stays in cache.
#include "bench.h"

__kernel void nbody(__global float4 *acc, __global const float4 *pos, uint n, float eps2) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    float4 p = pos[i];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (uint j = 0; j < n; j++) {
        float4 q = pos[j];
        float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
        float r2 = dx * dx + dy * dy + dz * dz + eps2;
        float inv = 1.0f / B_SQRT(r2);
        float s = q.w * (inv * inv * inv);
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
    }
    acc[i] = (float4)(ax, ay, az, 0.0f);
}
