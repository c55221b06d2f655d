// Kernels the packet and C API fuzz targets and the robustness C tests dispatch (make.sh builds
// kernels.hsaco). Built without device libraries: ids come from builtins and the AQL packet.
// `scale` reads and writes through kernel-argument pointers (random kernarg pointers fault);
// `lds` uses static and dynamic group memory and a barrier; `scratch` uses private memory;
// `spin` loops for an argument-given count (long dispatches); `poke` writes one word at an
// address given as an argument (isolation tests).

static uint lid(void) { return __builtin_amdgcn_workitem_id_x(); }
static uint lsize(void) {
    const __constant ushort *p = (const __constant ushort *)__builtin_amdgcn_dispatch_ptr();
    return p[2];
}
static uint gid(void) { return __builtin_amdgcn_workgroup_id_x() * lsize() + lid(); }

kernel void scale(global uint *out, global const uint *in, uint n) {
    uint i = gid();
    if (i < n)
        out[i] = in[i] * 3u + 1u;
}

kernel void lds(global uint *out, local uint *dyn) {
    local uint tile[64];
    uint l = lid();
    tile[l % 64] = l;
    dyn[l] = l * 2u;
    __builtin_amdgcn_s_barrier();
    out[gid()] = tile[(l + 1) % 64] + dyn[(l + 1) % lsize()];
}

kernel void scratch(global uint *out, uint k) {
    volatile uint a[64];
    for (uint i = 0; i < 64; i++)
        a[i] = i * k;
    out[gid()] = a[(gid() + k) % 64];
}

kernel void spin(global uint *out, uint count) {
    uint x = 0;
    for (uint i = 0; i < count; i++)
        x = x * 1664525u + 1013904223u;
    out[gid()] = x;
}

kernel void poke(global uint *at, uint value, uint read) {
    if (gid() == 0) {
        if (read)
            at[1] = at[0];
        else
            at[0] = value;
    }
}
