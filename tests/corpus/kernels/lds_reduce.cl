// Work-group tree reduction in LDS with barriers (sum, min, max of 32-bit and a 64-bit sum), one
// result per work-group. Work-group size 256 = 4 waves that meet at every s_barrier. The last
// group is partial: its missing work-items never write their LDS slots, so only slots of
// existing work-items are combined.
#include "corpus.h"

#define WG 256

__kernel void lds_reduce(__global uint *sums, __global ulong *wide, __global const uint *in,
                         uint n) {
    __local uint s_sum[WG], s_min[WG], s_max[WG];
    __local ulong s_wide[WG];
    uint l = c_lid(0), i = c_gid(0), base = c_group(0) * WG;
    uint v = i < n ? in[i] : 0;
    s_sum[l] = v;
    s_min[l] = i < n ? v : 0xffffffffu;
    s_max[l] = v;
    s_wide[l] = (ulong)v * (ulong)(v >> 7);
    c_barrier();
    for (uint s = WG / 2; s > 0; s >>= 1) {
        if (l < s && base + l + s < n) {
            s_sum[l] += s_sum[l + s];
            s_min[l] = C_MIN(s_min[l], s_min[l + s]);
            s_max[l] = C_MAX(s_max[l], s_max[l + s]);
            s_wide[l] += s_wide[l + s];
        }
        c_barrier();
    }
    if (l == 0) {
        uint g = c_group(0);
        sums[3 * g] = s_sum[0];
        sums[3 * g + 1] = s_min[0];
        sums[3 * g + 2] = s_max[0];
        wide[g] = s_wide[0];
    }
}
