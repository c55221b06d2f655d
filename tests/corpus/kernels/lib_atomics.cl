// corpus: devlib (clang-15 with rocm-device-libs: OpenCL 1.x and 2.0 atomic functions)
// OpenCL atomic built-ins on global and local memory: atomic_add/inc/dec/max/min/cmpxchg/xchg
// (1.x), 64-bit atom_add (cl_khr_int64_base_atomics), and 2.0 atomic_fetch_add_explicit with
// memory orders and scopes, and work-group fences.
#include "corpus.h"
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#define WG 64

__kernel void lib_atomics(__global int *g, __global long *g64, __global atomic_int *g20,
                          __global int *per_group, __global const int *in, uint n) {
    __local int l_sum, l_max, l_cas;
    uint i = get_global_id(0), l = get_local_id(0);
    if (l == 0) {
        l_sum = 0;
        l_max = INT_MIN;
        l_cas = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < n) {
        int v = in[i];
        atomic_add(&g[0], v);
        atomic_inc(&g[1]);
        atomic_dec(&g[2]);
        atomic_max(&g[3], v);
        atomic_min(&g[4], v);
        atomic_or(&g[5], 1 << (v & 31));
        int old = g[6];
        int seen;
        while ((seen = atomic_cmpxchg(&g[6], old, old + (v & 15))) != old)
            old = seen;
        atom_add(&g64[0], (long)v * 1000000L);
        atom_max(&g64[1], (long)v << 20);
#ifdef __AMDGCN__ // PoCL 3.1 (the host validation) lacks these overloads
        atomic_fetch_add_explicit(&g20[0], v & 0xff, memory_order_relaxed, memory_scope_device);
        atomic_fetch_sub_explicit(&g20[1], 1, memory_order_acq_rel, memory_scope_device);
#else
        atomic_add((__global int *)&g20[0], v & 0xff);
        atomic_sub((__global int *)&g20[1], 1);
#endif
        atomic_add(&l_sum, v);
        atomic_max(&l_max, v);
        int lo = l_cas, lseen;
        while ((lseen = atomic_cmpxchg(&l_cas, lo, lo ^ (1 << (v & 31)))) != lo)
            lo = lseen;
    }
    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_release, memory_scope_work_group);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        uint grp = get_group_id(0);
        per_group[3 * grp] = l_sum;
        per_group[3 * grp + 1] = l_max;
        per_group[3 * grp + 2] = atomic_xchg(&l_cas, 0);
    }
}
