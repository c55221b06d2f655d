// corpus: devlib (clang-15 with rocm-device-libs: OpenCL work-item functions)
// The OpenCL work-item functions as the device library implements them: from the AQL packet for
// code object v2-v4, from the implicit kernel arguments (block counts, group sizes, remainders,
// grid dims) for v5. A 3-D grid with partial groups, so get_local_size differs from
// get_enqueued_local_size at the edges.
#include "corpus.h"

__kernel void lib_ids(__global uint *out, uint nx, uint ny, uint nz) {
    uint x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    if (x >= nx || y >= ny || z >= nz)
        return;
    __global uint *o = out + 16 * ((z * ny + y) * nx + x);
    o[0] = get_work_dim();
    o[1] = x | y << 10 | z << 20;
    o[2] = get_local_id(0) | get_local_id(1) << 10 | get_local_id(2) << 20;
    o[3] = get_group_id(0) | get_group_id(1) << 10 | get_group_id(2) << 20;
    o[4] = get_local_size(0) | get_local_size(1) << 10 | get_local_size(2) << 20;
    o[5] = get_enqueued_local_size(0) | get_enqueued_local_size(1) << 10 |
           get_enqueued_local_size(2) << 20;
    o[6] = get_num_groups(0) | get_num_groups(1) << 10 | get_num_groups(2) << 20;
    o[7] = get_global_size(0) | get_global_size(1) << 10 | get_global_size(2) << 20;
    o[8] = get_global_offset(0) + get_global_offset(1) + get_global_offset(2);
    o[9] = get_local_linear_id();
    o[10] = get_global_linear_id();
}
