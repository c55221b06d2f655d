/* Work-item indexing and synchronisation for the corpus kernels.
 *
 * Built for amdgcn with -nogpulib (every compiler, no device library): the amdgcn builtins below,
 * which read the work-item VGPRs, the work-group SGPRs, the AQL dispatch packet (dispatch ptr)
 * and, for code object v5 on clang >= 15, the implicit kernel arguments.
 * Built with -DCORPUS_OPENCL (validation on PoCL, or kernels using the device libraries): the
 * OpenCL built-ins. */
#ifndef CORPUS_KERNEL_H
#define CORPUS_KERNEL_H

#if defined(__AMDGCN__) && !defined(CORPUS_OPENCL)

static inline uint c_lid(uint d) {
    return d == 0 ? __builtin_amdgcn_workitem_id_x()
         : d == 1 ? __builtin_amdgcn_workitem_id_y() : __builtin_amdgcn_workitem_id_z();
}
static inline uint c_group(uint d) {
    return d == 0 ? __builtin_amdgcn_workgroup_id_x()
         : d == 1 ? __builtin_amdgcn_workgroup_id_y() : __builtin_amdgcn_workgroup_id_z();
}
/* The enqueued work-group size (the packet's, not the partial size at an edge). */
static inline uint c_lsize(uint d) {
    return d == 0 ? __builtin_amdgcn_workgroup_size_x()
         : d == 1 ? __builtin_amdgcn_workgroup_size_y() : __builtin_amdgcn_workgroup_size_z();
}
/* grid_size_{x,y,z} of the AQL kernel dispatch packet (bytes 12, 16, 20). */
static inline uint c_gsize(uint d) {
    const __constant uint *p = (const __constant uint *)__builtin_amdgcn_dispatch_ptr();
    return p[3 + d];
}
static inline void c_barrier(void) {
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

#else

static inline uint c_lid(uint d) { return (uint)get_local_id(d); }
static inline uint c_group(uint d) { return (uint)get_group_id(d); }
static inline uint c_lsize(uint d) { return (uint)get_enqueued_local_size(d); }
static inline uint c_gsize(uint d) { return (uint)get_global_size(d); }
static inline void c_barrier(void) { barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); }

#endif

/* min/max without the OpenCL built-ins (which live in the device library). */
#define C_MIN(a, b) ((a) < (b) ? (a) : (b))
#define C_MAX(a, b) ((a) > (b) ? (a) : (b))

static inline uint c_gid(uint d) { return c_group(d) * c_lsize(d) + c_lid(d); }

#endif
