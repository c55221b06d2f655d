// What a work-item learns about its dispatch on a 1-D grid with a partial last group: local id,
// group id, enqueued group size, grid size (from the AQL packet), and, at code object v5, the
// same sizes through the implicit kernel arguments.
#include "corpus.h"

__kernel void workgroup_info(__global uint *out, uint n) {
    uint i = c_gid(0);
    if (i >= n)
        return;
    __global uint *o = out + 4 * i;
    o[0] = c_lid(0);
    o[1] = c_group(0);
    o[2] = c_lsize(0);
    o[3] = c_gsize(0);
}
