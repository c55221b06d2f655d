/* Image kernels of the image tests: every geometry read and written with integer coordinates
 * (read_image{f,i,ui} / write_image{f,i,ui}), sampled with samplers, and queried. Built by
 * clang-15 with ROCm's device libraries (scripts/run-image-tests.sh). */

/* Read-write copies: out[i] = src[coord(i)]; dst[coord(i)] = out[i]. The grid is
 * (width, height or 1, slices or 1). */
#define RW(NAME, IMG, COORD_T, COORD, READ, WRITE, VT)                                     \
    kernel void NAME(read_only IMG src, write_only IMG dst, global VT *out, int w, int h) { \
        int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);               \
        COORD_T c = COORD;                                                                   \
        VT v = READ(src, c);                                                                 \
        out[(z * h + y) * w + x] = v;                                                        \
        WRITE(dst, c, v);                                                                    \
    }

#define RW_ALL(G, IMG, COORD_T, COORD)                                       \
    RW(rw_##G##_f, IMG, COORD_T, COORD, read_imagef, write_imagef, float4)  \
    RW(rw_##G##_i, IMG, COORD_T, COORD, read_imagei, write_imagei, int4)    \
    RW(rw_##G##_ui, IMG, COORD_T, COORD, read_imageui, write_imageui, uint4)

RW_ALL(1d, image1d_t, int, x)
RW_ALL(1db, image1d_buffer_t, int, x)
RW_ALL(1da, image1d_array_t, int2, ((int2)(x, z)))
RW_ALL(2d, image2d_t, int2, ((int2)(x, y)))
RW_ALL(2da, image2d_array_t, int4, ((int4)(x, y, z, 0)))
RW_ALL(3d, image3d_t, int4, ((int4)(x, y, z, 0)))
RW(rw_2dd_f, image2d_depth_t, int2, ((int2)(x, y)), read_imagef, write_imagef, float)
RW(rw_2dad_f, image2d_array_depth_t, int4, ((int4)(x, y, z, 0)), read_imagef, write_imagef,
   float)

/* Sampled reads: out[i] = read_image(img, s, coords[i]). */
#define SMP(NAME, IMG, CT, SWZ, READ, VT)                                                   \
    kernel void NAME(read_only IMG img, sampler_t s, global const float4 *co, global VT *out) { \
        int i = get_global_id(0);                                                            \
        out[i] = READ(img, s, co[i] SWZ);                                                    \
    }

#define SMP_ALL(G, IMG, SWZ)                                  \
    SMP(smp_##G##_f, IMG, float, SWZ, read_imagef, float4)   \
    SMP(smp_##G##_i, IMG, float, SWZ, read_imagei, int4)     \
    SMP(smp_##G##_ui, IMG, float, SWZ, read_imageui, uint4)

SMP_ALL(1d, image1d_t, .x)
SMP_ALL(1da, image1d_array_t, .xy)
SMP_ALL(2d, image2d_t, .xy)
SMP_ALL(2da, image2d_array_t, )
SMP_ALL(3d, image3d_t, )
SMP(smp_2dd_f, image2d_depth_t, float, .xy, read_imagef, float)

/* Queries: width, height, depth, array size, channel data type, channel order (-1: none). */
#define Q(NAME, IMG, H, D, A)                                               \
    kernel void NAME(read_only IMG img, global int *out) {                  \
        out[0] = get_image_width(img);                                      \
        out[1] = H;                                                         \
        out[2] = D;                                                         \
        out[3] = A;                                                         \
        out[4] = get_image_channel_data_type(img);                          \
        out[5] = get_image_channel_order(img);                              \
    }

Q(q_1d, image1d_t, -1, -1, -1)
Q(q_1db, image1d_buffer_t, -1, -1, -1)
Q(q_1da, image1d_array_t, -1, -1, (int)get_image_array_size(img))
Q(q_2d, image2d_t, get_image_height(img), -1, -1)
Q(q_2da, image2d_array_t, get_image_height(img), -1, (int)get_image_array_size(img))
Q(q_3d, image3d_t, get_image_height(img), get_image_depth(img), -1)
Q(q_2dd, image2d_depth_t, get_image_height(img), -1, -1)

/* Mip levels (cl_khr_mipmap_image): read_imagef with an explicit LOD, and the level count. */
#pragma OPENCL EXTENSION cl_khr_mipmap_image : enable
kernel void smp_2d_lod(read_only image2d_t img, sampler_t s, global const float4 *co,
                       global float4 *out) {
    int i = get_global_id(0);
    out[i] = read_imagef(img, s, co[i].xy, co[i].z);
}

kernel void q_2d_levels(read_only image2d_t img, global int *out) {
    out[0] = get_image_num_mip_levels(img);
}
