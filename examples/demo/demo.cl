// The kernel of `softhsa demo`: the Mandelbrot set in Q4.28 fixed point, so that the host can
// recompute every pixel bit-exactly (no float rounding or denormal modes involved). Each
// work-item iterates one pixel (divergent loop lengths across a wave) and stores its count.
// The work-group size comes from the AQL packet, so the kernel needs no hidden arguments.

#define FRAC 28

static uint gid(uint d) {
    const __constant ushort *p = (const __constant ushort *)__builtin_amdgcn_dispatch_ptr();
    uint lid = d == 0 ? __builtin_amdgcn_workitem_id_x() : __builtin_amdgcn_workitem_id_y();
    uint group = d == 0 ? __builtin_amdgcn_workgroup_id_x() : __builtin_amdgcn_workgroup_id_y();
    return group * p[2 + d] + lid; // workgroup_size_x/y at bytes 4 and 6 of the packet
}

__kernel void mandelbrot(__global uint *counts, uint width, uint height, int x0, int y0,
                         int step, uint max_iter) {
    uint px = gid(0), py = gid(1);
    if (px >= width || py >= height)
        return;
    long cx = (long)x0 + (long)px * step;
    long cy = (long)y0 + (long)py * step;
    long x = 0, y = 0;
    uint n = 0;
    while (n < max_iter) {
        long x2 = (x * x) >> FRAC, y2 = (y * y) >> FRAC;
        if (x2 + y2 > (4L << FRAC))
            break;
        y = ((x * y) >> (FRAC - 1)) + cy;
        x = x2 - y2 + cx;
        n++;
    }
    counts[py * width + px] = n;
}
