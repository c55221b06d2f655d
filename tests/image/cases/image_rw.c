/* Every format ROCm supports on gfx9 in every geometry it supports: images created in device
 * memory, filled with hsa_ext_image_import, read with integer coordinates (read_image{f,i,ui})
 * and written to a second image (write_image{f,i,ui}); the values read match the host's decode
 * of the texel bytes and the exported second image the host's encode of them. Then the image
 * queries (get_image_*), copy and clear. */
#include "../image_ref.h"

#include <stdio.h>
#include <stdlib.h>

#define G(x) HSA_EXT_IMAGE_GEOMETRY_##x

/* One output buffer for every dispatch (the harness keeps a bounded number of buffers). */
static uint32_t *out_buf;

struct geo {
    uint32_t g;
    const char *name;
    unsigned w, h, s;
};

static const struct geo geos[] = {
    { G(1D), "1d", 37, 1, 1 },   { G(1DB), "1db", 45, 1, 1 }, { G(1DA), "1da", 19, 1, 3 },
    { G(2D), "2d", 13, 7, 1 },   { G(2DA), "2da", 9, 5, 3 },  { G(3D), "3d", 7, 5, 4 },
    { G(2DDEPTH), "2dd", 11, 6, 1 }, { G(2DADEPTH), "2dad", 6, 5, 2 },
};

/* OpenCL's CLK_* values of the HSA orders and types (cl.h), which get_image_channel_* return. */
static const int cl_order[] = { 0x10B1, 0x10B0, 0x10BA, 0x10B2, 0x10BB, 0x10B3, 0x10B4,
                                0x10BC, 0x10B5, 0x10B6, 0x10B7, 0x10C3, 0x10BF, 0x10C0,
                                0x10C1, 0x10C2, 0x10B8, 0x10B9, 0x10BD, 0x10BE };
static const int cl_type[] = { 0x10D0, 0x10D1, 0x10D2, 0x10D3, 0x10DF, 0x10D5, 0x10D4, 0x10D6,
                               0x10D7, 0x10D8, 0x10D9, 0x10DA, 0x10DB, 0x10DC, 0x10DD, 0x10DE };

static int supported(corpus_t *c, uint32_t g, const ref_format *f, uint32_t *cap) {
    hsa_agent_t gpu = { corpus_hsa_gpu_agent(c) };
    hsa_ext_image_format_t fmt = { f->type, f->order };
    *cap = 0;
    if (hsa_ext_image_get_capability(gpu, g, &fmt, cap)) {
        corpus_fail(c, "hsa_ext_image_get_capability(%u, %s) failed", g, f->name);
        return 0;
    }
    return *cap != 0;
}

static void one(corpus_t *c, const struct geo *geo, const ref_format *f, uint32_t cap) {
    int depth = geo->g == G(2DDEPTH) || geo->g == G(2DADEPTH);
    int kind = ref_kind(f->type);
    /* Read-only formats (sRGB) are written to an RGBA8 image. */
    int ro = !(cap & HSA_EXT_IMAGE_CAPABILITY_WRITE_ONLY);
    uint32_t dorder = ro ? HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA : f->order;
    uint32_t dtype = ro ? HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8 : f->type;
    ref_image src, dst;
    if (ref_image_create(c, &src, geo->g, f->order, f->type, geo->w, geo->h, geo->s, 0, 0))
        return;
    if (ref_image_create(c, &dst, geo->g, dorder, dtype, geo->w, geo->h, geo->s, 0, 0)) {
        ref_image_destroy(c, &src);
        return;
    }
    unsigned n = src.w * src.h * src.s;
    uint32_t *out = out_buf;
    memset(out, 0, (size_t)n * 16);
    char kname[32];
    snprintf(kname, sizeof kname, "rw_%s_%s", geo->name,
             depth ? "f" : kind == 0 ? "f" : kind == 1 ? "i" : "ui");
    if (RUN3(c, kname, 3, ((size_t[3]){ src.w, src.h, src.s }), ((size_t[3]){ 8, 4, 1 }),
             A_VAL(uint64_t, src.handle.handle), A_VAL(uint64_t, dst.handle.handle), A_BUF(out),
             A_VAL(int32_t, (int32_t)src.w), A_VAL(int32_t, (int32_t)src.h)))
        corpus_new_queue(c);
    uint32_t *want = calloc(n, 16);
    uint8_t *wimg = calloc(n, dst.bpp), *got = calloc(n, dst.bpp);
    for (unsigned s = 0; s < src.s; s++)
        for (unsigned y = 0; y < src.h; y++)
            for (unsigned x = 0; x < src.w; x++) {
                unsigned i = (s * src.h + y) * src.w + x;
                uint32_t v[4];
                ref_decode(f->order, f->type, ref_texel(&src, x, y, s), v);
                if (depth)
                    want[i] = v[0];
                else
                    memcpy(want + 4 * i, v, 16);
                ref_encode(dorder, dtype, v, wimg + (size_t)i * dst.bpp);
            }
    char what[96];
    snprintf(what, sizeof what, "%s %s read", geo->name, f->name);
    corpus_check_u32(c, what, out, want, depth ? n : 4 * n);
    ref_image_export(c, &dst, got);
    snprintf(what, sizeof what, "%s %s written", geo->name, f->name);
    corpus_check_bytes(c, what, got, wimg, dst.bpp, n);
    free(want);
    free(wimg);
    free(got);
    ref_image_destroy(c, &dst);
    ref_image_destroy(c, &src);
}

static void queries(corpus_t *c, const struct geo *geo, const ref_format *f) {
    ref_image img;
    if (ref_image_create(c, &img, geo->g, f->order, f->type, geo->w, geo->h, geo->s, 0, 0))
        return;
    int32_t *out = (int32_t *)out_buf;
    memset(out, 0, 64);
    char kname[32];
    snprintf(kname, sizeof kname, "q_%s", geo->g == G(2DDEPTH) ? "2dd" : geo->name);
    if (RUN1(c, kname, 1, 1, A_VAL(uint64_t, img.handle.handle), A_BUF(out)))
        corpus_new_queue(c);
    uint32_t g = geo->g;
    int two = !(g == G(1D) || g == G(1DB) || g == G(1DA));
    int32_t want[6] = { (int32_t)geo->w, two ? (int32_t)geo->h : -1,
                        g == G(3D) ? (int32_t)geo->s : -1,
                        (g == G(1DA) || g == G(2DA)) ? (int32_t)geo->s : -1,
                        cl_type[f->type], cl_order[f->order] };
    char what[64];
    snprintf(what, sizeof what, "%s %s queries", geo->name, f->name);
    corpus_check_u32(c, what, (uint32_t *)out, (uint32_t *)want, 6);
    ref_image_destroy(c, &img);
}

/* hsa_ext_image_copy between two images and hsa_ext_image_clear of a region. */
static void copy_and_clear(corpus_t *c) {
    hsa_agent_t gpu = { corpus_hsa_gpu_agent(c) };
    ref_image a, b;
    uint32_t o = HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA, t = HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8;
    if (ref_image_create(c, &a, G(2DA), o, t, 20, 9, 3, 0, 0))
        return;
    if (ref_image_create(c, &b, G(2DA), o, t, 20, 9, 3, 1, 256)) {
        ref_image_destroy(c, &a);
        return;
    }
    hsa_dim3_t so = { 2, 1, 0 }, dof = { 5, 3, 1 }, r = { 7, 4, 2 };
    if (hsa_ext_image_copy(gpu, a.handle, &so, b.handle, &dof, &r))
        corpus_fail(c, "hsa_ext_image_copy failed");
    for (unsigned s = 0; s < r.z; s++)
        for (unsigned y = 0; y < r.y; y++)
            memcpy((uint8_t *)ref_texel(&b, dof.x, dof.y + y, dof.z + s),
                   ref_texel(&a, so.x, so.y + y, so.z + s), (size_t)r.x * 4);
    /* Clear a region of b to (0.25, 0.5, 1.0, 0.0). */
    float colour[4] = { 0.25f, 0.5f, 1.0f, 0.0f };
    hsa_ext_image_region_t cr = { { 1, 0, 2 }, { 3, 2, 1 } };
    if (hsa_ext_image_clear(gpu, b.handle, colour, &cr))
        corpus_fail(c, "hsa_ext_image_clear failed");
    uint8_t texel[4];
    ref_encode(o, t, (const uint32_t *)colour, texel);
    for (unsigned y = 0; y < 2; y++)
        for (unsigned x = 0; x < 3; x++)
            memcpy((uint8_t *)ref_texel(&b, 1 + x, y, 2), texel, 4);
    uint8_t *got = malloc((size_t)20 * 9 * 3 * 4);
    ref_image_export(c, &b, got);
    corpus_check_bytes(c, "copy + clear", got, b.host, 4, 20 * 9 * 3);
    free(got);
    ref_image_destroy(c, &a);
    ref_image_destroy(c, &b);
}

void corpus_case(corpus_t *c) {
    unsigned nf;
    const ref_format *fs = ref_formats(&nf);
    unsigned tested = 0;
    out_buf = corpus_alloc(c, 64 * 1024);
    /* IMAGE_GEOS=2d,3d,... limits the geometries (debugging). */
    const char *only = getenv("IMAGE_GEOS");
    for (unsigned gi = 0; gi < sizeof geos / sizeof geos[0]; gi++)
        for (unsigned i = 0; i < nf && (!only || strstr(only, geos[gi].name)); i++) {
            uint32_t cap;
            if (!supported(c, geos[gi].g, &fs[i], &cap))
                continue;
            /* Depth orders are for depth images (OpenCL defines no colour read of them). */
            int depth_geo = geos[gi].g == G(2DDEPTH) || geos[gi].g == G(2DADEPTH);
            if ((fs[i].order == HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH) != depth_geo)
                continue;
            one(c, &geos[gi], &fs[i], cap);
            tested++;
            /* Queries of one format per order (and every type in 2D). */
            if (geos[gi].g != G(2DADEPTH) && (geos[gi].g == G(2D) || i % 5 == 0))
                queries(c, &geos[gi], &fs[i]);
        }
    copy_and_clear(c);
    fprintf(stderr, "image_rw: %u format/geometry pairs\n", tested);
}
