#pragma OPENCL EXTENSION cl_khr_fp16 : enable
// A kernel mix for the disassembler test: global/LDS/scratch memory, atomics, barriers,
// branches, float/double/half math and integer ops.
__kernel void mix(__global float *a, __global const float *b, __global int *c, __global double *d,
                  __global half *h, int n) {
    __local float tile[256];
    int gid = get_global_id(0);
    int lid = get_local_id(0);
    float priv[17];
    for (int i = 0; i < 17; i++)
        priv[i] = b[(gid + i) % n] * (float)i;
    tile[lid] = a[gid] / (b[gid] + 1.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
    float acc = 0.0f;
    for (int i = 0; i < 8; i++)
        acc += tile[(lid + i) & 255] * priv[(gid + i) % 17];
    if (acc > 3.0f)
        atomic_add(&c[gid & 15], (int)acc);
    else
        atomic_min(&c[16 + (gid & 15)], gid);
    d[gid] = sqrt((double)acc) + d[gid] * 0.5;
    h[gid] = (half)(acc * 0.25f) + h[gid];
    a[gid] = native_sin(acc) + rsqrt(fabs(acc) + 1.0f) + (float)(gid >> 3 ^ lid * 7);
}

__kernel void reduce(__global const uint *in, __global ulong *out, uint n) {
    __local uint s[64];
    uint lid = get_local_id(0);
    uint v = 0;
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        v += popcount(in[i]) + clz(in[i]) + (in[i] * 2654435761u >> 7);
    s[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 32; k > 0; k >>= 1) {
        if (lid < k)
            s[lid] += s[lid + k];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        atom_add(out, (ulong)s[0] * 3ul + mul_hi(v, n));
}
