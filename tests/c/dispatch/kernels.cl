// Kernels of the dispatch tests (fault.c, barrier_gate.c). They read the work-group size from
// the AQL packet (dispatch ptr), so they need no hidden kernel arguments at any code object
// version: barrier_gate.c stays a minimal plain-HSA program.

static uint gid(void) {
    const __constant ushort *p = (const __constant ushort *)__builtin_amdgcn_dispatch_ptr();
    return __builtin_amdgcn_workgroup_id_x() * p[2] + __builtin_amdgcn_workitem_id_x();
}

// out[i] = i * 3 + seed
__kernel void fill(__global uint *out, uint n, uint seed) {
    uint i = gid();
    if (i < n)
        out[i] = i * 3u + seed;
}

// out[i] = in[i] * 5 + 1
__kernel void scale(__global uint *out, __global const uint *in, uint n) {
    uint i = gid();
    if (i < n)
        out[i] = in[i] * 5u + 1u;
}

// Writes `offset` bytes past `out`: far outside every allocation.
__kernel void oob_write(__global uint *out, ulong offset, uint n) {
    uint i = gid();
    if (i < n)
        *(__global uint *)((__global char *)out + offset + 4 * i) = i;
}

// Work-item `which` traps (llvm.trap: s_trap 2 under the HSA trap handler ABI); the others write.
__kernel void trap_builtin(__global uint *out, uint which, uint n) {
    uint i = gid();
    if (i == which)
        __builtin_trap();
    if (i < n)
        out[i] = i;
}

// The same with the instruction written out.
__kernel void trap_asm(__global uint *out, uint which, uint n) {
    uint i = gid();
    if (i == which)
        __asm__ volatile("s_trap 2");
    if (i < n)
        out[i] = i;
}

// out[i] = a[i] * b[i] in f32, for products and factors below the normal range (fp_env.c).
__kernel void fmul(__global float *out, __global const float *a, __global const float *b, uint n) {
    uint i = gid();
    if (i < n)
        out[i] = a[i] * b[i];
}
