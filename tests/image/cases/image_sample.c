/* Sampled reads (read_image{f,i,ui} with a sampler) over every geometry, a format of each
 * class, every addressing mode, nearest and linear filtering, normalized and unnormalized
 * coordinates, with coordinates inside and outside the image; compared bit for bit with the
 * host model of the hardware's fixed-point filtering (image_ref.c). */
#include "../image_ref.h"

#include <stdio.h>
#include <stdlib.h>

#define G(x) HSA_EXT_IMAGE_GEOMETRY_##x
#define O(x) HSA_EXT_IMAGE_CHANNEL_ORDER_##x
#define T(x) HSA_EXT_IMAGE_CHANNEL_TYPE_##x
#define N 128

struct geo {
    uint32_t g;
    const char *name;
    unsigned w, h, s, dims;
};

static const struct geo geos[] = {
    { G(1D), "1d", 23, 1, 1, 1 },  { G(1DA), "1da", 17, 1, 4, 1 },
    { G(2D), "2d", 11, 9, 1, 2 },  { G(2DA), "2da", 7, 6, 3, 2 },
    { G(3D), "3d", 6, 5, 4, 3 },   { G(2DDEPTH), "2dd", 9, 7, 1, 2 },
};

static const struct {
    uint32_t order, type;
    const char *name;
} fmts[] = {
    { O(RGBA), T(UNORM_INT8), "rgba8" },     { O(R), T(FLOAT), "r32f" },
    { O(RG), T(SNORM_INT16), "rg16snorm" },  { O(RGBA), T(HALF_FLOAT), "rgba16f" },
    { O(BGRA), T(UNORM_INT8), "bgra8" },     { O(SRGBA), T(UNORM_INT8), "srgba8" },
    { O(LUMINANCE), T(UNORM_INT16), "l16" }, { O(RGB), T(UNORM_SHORT_565), "565" },
    { O(INTENSITY), T(FLOAT), "i32f" },      { O(A), T(UNORM_INT8), "a8" },
    { O(RGBA), T(SIGNED_INT16), "rgba16i" }, { O(RGBA), T(UNSIGNED_INT8), "rgba8ui" },
    { O(DEPTH), T(FLOAT), "d32f" },          { O(DEPTH), T(UNORM_INT16), "d16" },
};

static const uint32_t addrs[] = {
    HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE,
    HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER,
    HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT,
    HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT,
};

static float *coords;
static uint32_t *out;

static void run(corpus_t *c, const struct geo *geo, ref_image *img, const char *fname,
                uint32_t norm, uint32_t filter, uint32_t addr) {
    int kind = ref_kind(img->desc.format.channel_type);
    int depth = geo->g == G(2DDEPTH);
    uint64_t s = ref_sampler(c, norm, filter, addr);
    if (!s)
        return;
    float size[3] = { (float)geo->w, (float)geo->h, (float)geo->s };
    for (unsigned i = 0; i < N; i++) {
        float *co = coords + 4 * i;
        memset(co, 0, 16);
        for (unsigned a = 0; a < geo->dims; a++)
            co[a] = norm ? corpus_randf(c, -0.3f, 1.3f) : corpus_randf(c, -3.0f, size[a] + 3);
        if (geo->s > 1 && geo->g != G(3D))
            co[geo->dims] = corpus_randf(c, -1.0f, (float)geo->s + 0.8f);
        /* Some coordinates on exact texel centres and edges. */
        if (i % 8 == 0)
            co[0] = norm ? (float)(i % 7) / size[0] : (float)(i % 7) + 0.5f * (i % 2);
    }
    char kname[32];
    snprintf(kname, sizeof kname, "smp_%s_%s", geo->name,
             depth ? "f" : kind == 0 ? "f" : kind == 1 ? "i" : "ui");
    memset(out, 0, N * 16);
    if (RUN1(c, kname, N, 64, A_VAL(uint64_t, img->handle.handle), A_VAL(uint64_t, s),
             A_BUF(coords), A_BUF(out)))
        corpus_new_queue(c);
    uint32_t want[N * 4];
    for (unsigned i = 0; i < N; i++) {
        uint32_t v[4];
        ref_sample(img, norm, filter, addr, coords + 4 * i, v);
        if (depth)
            want[i] = v[0];
        else
            memcpy(want + 4 * i, v, 16);
    }
    char what[128];
    snprintf(what, sizeof what, "%s %s %s %s addr %u", geo->name, fname,
             norm ? "normalized" : "unnormalized", filter ? "linear" : "nearest", addr);
    corpus_check_u32(c, what, out, want, depth ? N : 4 * N);
    hsa_agent_t gpu = { corpus_hsa_gpu_agent(c) };
    hsa_ext_sampler_destroy(gpu, (hsa_ext_sampler_t){ s });
}

void corpus_case(corpus_t *c) {
    coords = corpus_alloc(c, N * 16);
    out = corpus_alloc(c, N * 16);
    unsigned tested = 0;
    for (unsigned gi = 0; gi < sizeof geos / sizeof geos[0]; gi++)
        for (unsigned fi = 0; fi < sizeof fmts / sizeof fmts[0]; fi++) {
            const struct geo *geo = &geos[gi];
            int depth_fmt = fmts[fi].order == O(DEPTH);
            if (depth_fmt != (geo->g == G(2DDEPTH)))
                continue;
            ref_image img;
            if (ref_image_create(c, &img, geo->g, fmts[fi].order, fmts[fi].type, geo->w, geo->h,
                                 geo->s, 0, 0))
                continue;
            int integer = ref_kind(fmts[fi].type) != 0;
            for (uint32_t norm = 0; norm <= 1; norm++)
                for (uint32_t filter = 0; filter <= (integer ? 0u : 1u); filter++)
                    for (unsigned ai = 0; ai < (norm ? 4u : 2u); ai++) {
                        run(c, geo, &img, fmts[fi].name, norm, filter, addrs[ai]);
                        tested++;
                    }
            ref_image_destroy(c, &img);
        }
    fprintf(stderr, "image_sample: %u configurations of %d samples\n", tested, N);
}
