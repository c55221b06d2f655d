/* The images extension's API contract: capability and size queries, the statuses of bad input
 * (unknown geometry, unsupported formats and sizes, bad pitches, misaligned or unknown data,
 * stale and forged handles), the extension table, hsa_amd_image_get_info_max_dim, and an image
 * with mip levels made from AMD metadata (hsa_amd_image_create) sampled at explicit LODs with
 * point and linear mip filtering (read_imagef(..., lod)). */
#include "../image_ref.h"

#include <hsa/hsa_ext_amd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define G(x) HSA_EXT_IMAGE_GEOMETRY_##x
#define O(x) HSA_EXT_IMAGE_CHANNEL_ORDER_##x
#define T(x) HSA_EXT_IMAGE_CHANNEL_TYPE_##x

#define EXPECT_STATUS(c, call, want)                                                       \
    do {                                                                                   \
        hsa_status_t st_ = (call);                                                         \
        if (st_ != (hsa_status_t)(want))                                                   \
            corpus_fail(c, "%s: status %#x, want %#x (%s)", #call, (unsigned)st_,          \
                        (unsigned)(want), #want);                                          \
    } while (0)

static hsa_status_t find_cpu(hsa_agent_t a, void *data) {
    hsa_device_type_t t;
    hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
    if (t == HSA_DEVICE_TYPE_CPU) {
        *(hsa_agent_t *)data = a;
        return HSA_STATUS_INFO_BREAK;
    }
    return HSA_STATUS_SUCCESS;
}

static void queries_and_errors(corpus_t *c) {
    hsa_agent_t gpu = { corpus_hsa_gpu_agent(c) }, cpu = { 0 };
    hsa_iterate_agents(find_cpu, &cpu);
    hsa_ext_image_format_t rgba8 = { T(UNORM_INT8), O(RGBA) }, rgb8 = { T(UNORM_INT8), O(RGB) };
    uint32_t cap = 99;
    EXPECT_STATUS(c, hsa_ext_image_get_capability(gpu, G(2D), &rgba8, &cap), HSA_STATUS_SUCCESS);
    if (cap != 7)
        corpus_fail(c, "RGBA8 2D capability %#x, want 7 (RO|WO|RW)", cap);
    EXPECT_STATUS(c, hsa_ext_image_get_capability(gpu, G(2D), &rgb8, &cap), HSA_STATUS_SUCCESS);
    if (cap != 0)
        corpus_fail(c, "RGB/UNORM8 capability %#x, want 0", cap);
    EXPECT_STATUS(c, hsa_ext_image_get_capability(cpu, G(2D), &rgba8, &cap), HSA_STATUS_SUCCESS);
    if (cap != 0)
        corpus_fail(c, "CPU agent capability %#x, want 0", cap);
    EXPECT_STATUS(c, hsa_ext_image_get_capability(gpu, 9, &rgba8, &cap),
                  HSA_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_STATUS(c, hsa_ext_image_get_capability(gpu, G(2D), NULL, &cap),
                  HSA_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_STATUS(c, hsa_ext_image_get_capability_with_layout(gpu, G(2D), &rgba8,
                                                              HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, &cap),
                  HSA_STATUS_SUCCESS);
    EXPECT_STATUS(c, hsa_ext_image_get_capability_with_layout(gpu, G(2D), &rgba8,
                                                              HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE, &cap),
                  HSA_STATUS_ERROR_INVALID_ARGUMENT);

    hsa_ext_image_descriptor_t d = { G(2D), 100, 7, 0, 0, rgba8 };
    hsa_ext_image_data_info_t info;
    EXPECT_STATUS(c, hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info),
                  HSA_STATUS_SUCCESS);
    /* Linear rows of 256-byte multiples: 128 texels of 4 bytes. */
    if (info.size != 512 * 7 || info.alignment != 256)
        corpus_fail(c, "100x7 RGBA8: size %zu alignment %zu, want 3584 / 256", info.size,
                    info.alignment);
    EXPECT_STATUS(c, hsa_ext_image_data_get_info(gpu, &d, 0, &info),
                  HSA_STATUS_ERROR_INVALID_ARGUMENT);
    d.format = rgb8;
    EXPECT_STATUS(c, hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info),
                  HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);
    d.format = rgba8;
    d.width = 16385;
    EXPECT_STATUS(c, hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info),
                  HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED);
    d.width = 100;
    EXPECT_STATUS(c, hsa_ext_image_data_get_info_with_layout(
                         gpu, &d, HSA_ACCESS_PERMISSION_RW, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR,
                         1024, 0, &info),
                  HSA_STATUS_SUCCESS);
    if (info.size != 1024 * 7)
        corpus_fail(c, "row pitch 1024: size %zu, want 7168", info.size);
    EXPECT_STATUS(c, hsa_ext_image_data_get_info_with_layout(
                         gpu, &d, HSA_ACCESS_PERMISSION_RW, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR,
                         400, 0, &info),
                  HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED);
    hsa_ext_image_descriptor_t d3 = { G(3D), 64, 4, 3, 0, rgba8 };
    EXPECT_STATUS(c, hsa_ext_image_data_get_info_with_layout(
                         gpu, &d3, HSA_ACCESS_PERMISSION_RW, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR,
                         256, 2048, &info),
                  HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED);
    EXPECT_STATUS(c, hsa_ext_image_data_get_info_with_layout(
                         gpu, &d3, HSA_ACCESS_PERMISSION_RW, HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR,
                         256, 1024, &info),
                  HSA_STATUS_SUCCESS);

    /* Creation over bad memory. */
    uint8_t *mem = corpus_alloc(c, 8192);
    hsa_ext_image_t img;
    EXPECT_STATUS(c, hsa_ext_image_create(gpu, &d, mem + 16, HSA_ACCESS_PERMISSION_RW, &img),
                  HSA_STATUS_ERROR_INVALID_ARGUMENT);
    void *unknown = aligned_alloc(256, 8192);
    EXPECT_STATUS(c, hsa_ext_image_create(gpu, &d, unknown, HSA_ACCESS_PERMISSION_RW, &img),
                  HSA_STATUS_ERROR_INVALID_ARGUMENT);
    free(unknown);
    EXPECT_STATUS(c, hsa_ext_image_create(gpu, &d, mem, HSA_ACCESS_PERMISSION_RW, &img),
                  HSA_STATUS_SUCCESS);
    /* Regions outside the image; copies between different formats. */
    hsa_ext_image_region_t r = { { 90, 0, 0 }, { 20, 1, 1 } };
    EXPECT_STATUS(c, hsa_ext_image_import(gpu, mem + 4096, 0, 0, img, &r),
                  HSA_STATUS_ERROR_INVALID_ARGUMENT);
    hsa_ext_image_descriptor_t df = { G(2D), 100, 7, 0, 0, { T(FLOAT), O(R) } };
    uint8_t *mem2 = corpus_alloc(c, 4096);
    hsa_ext_image_t img2;
    EXPECT_STATUS(c, hsa_ext_image_create(gpu, &df, mem2, HSA_ACCESS_PERMISSION_RW, &img2),
                  HSA_STATUS_SUCCESS);
    hsa_dim3_t o = { 0, 0, 0 }, rng = { 4, 4, 1 };
    EXPECT_STATUS(c, hsa_ext_image_copy(gpu, img, &o, img2, &o, &rng),
                  HSA_STATUS_ERROR_INVALID_ARGUMENT);
    /* The object holds what the device libraries read: channel type, order, width. */
    const uint32_t *obj = (const uint32_t *)img.handle;
    if (obj[8] != T(UNORM_INT8) || obj[9] != O(RGBA) || obj[10] != 100)
        corpus_fail(c, "image object words 8..10: %u %u %u", obj[8], obj[9], obj[10]);
    EXPECT_STATUS(c, hsa_ext_image_destroy(gpu, img), HSA_STATUS_SUCCESS);
    EXPECT_STATUS(c, hsa_ext_image_destroy(gpu, img), HSA_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_STATUS(c, hsa_ext_image_destroy(gpu, (hsa_ext_image_t){ 0x1234 }),
                  HSA_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_STATUS(c, hsa_ext_image_destroy(gpu, img2), HSA_STATUS_SUCCESS);

    /* Samplers. */
    hsa_ext_sampler_descriptor_t sd = { HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED,
                                        HSA_EXT_SAMPLER_FILTER_MODE_LINEAR, 9 };
    hsa_ext_sampler_t s;
    EXPECT_STATUS(c, hsa_ext_sampler_create(gpu, &sd, &s), HSA_STATUS_ERROR_INVALID_ARGUMENT);
    sd.address_mode = HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT;
    EXPECT_STATUS(c, hsa_ext_sampler_create(cpu, &sd, &s), HSA_STATUS_ERROR_INVALID_AGENT);
    EXPECT_STATUS(c, hsa_ext_sampler_create(gpu, &sd, &s), HSA_STATUS_SUCCESS);
    EXPECT_STATUS(c, hsa_ext_image_destroy(gpu, (hsa_ext_image_t){ s.handle }),
                  HSA_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_STATUS(c, hsa_ext_sampler_destroy(gpu, s), HSA_STATUS_SUCCESS);
    EXPECT_STATUS(c, hsa_ext_sampler_destroy(gpu, s), HSA_STATUS_ERROR_INVALID_ARGUMENT);

    /* Limits: hsa_amd_image_get_info_max_dim agrees with hsa_agent_get_info. */
    uint32_t dims[3] = { 0, 0, 0 }, info3[3] = { 1, 1, 1 };
    EXPECT_STATUS(c, hsa_amd_image_get_info_max_dim(gpu, HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS,
                                                    dims),
                  HSA_STATUS_SUCCESS);
    hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS, info3);
    if (dims[0] != 16384 || dims[1] != 16384 || dims[2] != 8192 || memcmp(dims, info3, 12))
        corpus_fail(c, "3D limits %u %u %u / agent info %u %u %u", dims[0], dims[1], dims[2],
                    info3[0], info3[1], info3[2]);

    /* The extension table. */
    bool ok = false;
    uint16_t minor = 99;
    hsa_system_major_extension_supported(HSA_EXTENSION_IMAGES, 1, &minor, &ok);
    if (!ok)
        corpus_fail(c, "HSA_EXTENSION_IMAGES 1.x not supported");
    hsa_ext_images_1_pfn_t t;
    memset(&t, 0, sizeof t);
    EXPECT_STATUS(c, hsa_system_get_major_extension_table(HSA_EXTENSION_IMAGES, 1, sizeof t, &t),
                  HSA_STATUS_SUCCESS);
    if (!t.hsa_ext_image_data_get_info_with_layout || !t.hsa_ext_image_get_capability) {
        corpus_fail(c, "image extension table incomplete");
    } else {
        cap = 0;
        EXPECT_STATUS(c, t.hsa_ext_image_get_capability(gpu, G(3D), &rgba8, &cap),
                      HSA_STATUS_SUCCESS);
        if (cap != 7)
            corpus_fail(c, "capability through the table: %#x", cap);
    }
}

/* An R32F 16x8 image with 4 mip levels from AMD metadata, sampled at explicit LODs. */
#define W 16
#define H 8
#define LEVELS 4
#define NS 128

static void mip_levels(corpus_t *c) {
    hsa_agent_t gpu = { corpus_hsa_gpu_agent(c) };
    uint32_t chip = 0;
    hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CHIP_ID, &chip);
    /* Linear layout: 256-byte rows, level l at row 8 + 4 + ... (heights 8, 4, 2, 1). */
    const unsigned row0[LEVELS] = { 0, 8, 12, 14 };
    uint8_t *data = corpus_alloc(c, 15 * 256);
    ref_image lv[LEVELS];
    for (unsigned l = 0; l < LEVELS; l++) {
        memset(&lv[l], 0, sizeof lv[l]);
        lv[l].desc.geometry = G(2D);
        lv[l].desc.format = (hsa_ext_image_format_t){ T(FLOAT), O(R) };
        lv[l].w = W >> l;
        lv[l].h = H >> l;
        lv[l].s = 1;
        lv[l].bpp = 4;
        lv[l].host = malloc((size_t)lv[l].w * lv[l].h * 4);
        for (unsigned y = 0; y < lv[l].h; y++)
            for (unsigned x = 0; x < lv[l].w; x++) {
                float v = corpus_randf(c, -1.0f, 1.0f) + 10.0f * l;
                memcpy(lv[l].host + (y * lv[l].w + x) * 4, &v, 4);
                memcpy(data + (row0[l] + y) * 256 + x * 4, &v, 4);
            }
    }
    /* version, device id, then the T#: FMT_32/FLOAT, width/height - 1, last level 3, 2D,
     * pitch 64, 4 mips. */
    uint32_t meta[10] = { 1, 0x1002u << 16 | chip, 0, 4u << 20 | 7u << 26, (W - 1) | (H - 1) << 14,
                          (LEVELS - 1) << 16 | 9u << 28, 63u << 13, (LEVELS - 1) << 28, 0, 0 };
    hsa_ext_image_descriptor_t d = { G(2D), W, H, 0, 0, { T(FLOAT), O(R) } };
    hsa_ext_image_t img;
    uint32_t bad[10];
    memcpy(bad, meta, sizeof bad);
    bad[0] = 2;
    EXPECT_STATUS(c, hsa_amd_image_create(gpu, &d, (hsa_amd_image_descriptor_t *)bad, data,
                                          HSA_ACCESS_PERMISSION_RO, &img),
                  HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);
    memcpy(bad, meta, sizeof bad);
    bad[5] |= 9u << 20; /* a tiled swizzle mode */
    EXPECT_STATUS(c, hsa_amd_image_create(gpu, &d, (hsa_amd_image_descriptor_t *)bad, data,
                                          HSA_ACCESS_PERMISSION_RO, &img),
                  HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);
    hsa_status_t st = hsa_amd_image_create(gpu, &d, (hsa_amd_image_descriptor_t *)meta, data,
                                           HSA_ACCESS_PERMISSION_RO, &img);
    if (st) {
        corpus_fail(c, "hsa_amd_image_create: %#x", (unsigned)st);
        return;
    }
    int32_t *levels = corpus_alloc(c, 64);
    RUN1(c, "q_2d_levels", 1, 1, A_VAL(uint64_t, img.handle), A_BUF(levels));
    /* The device library answers the T#'s LAST_LEVEL. */
    if (levels[0] != LEVELS - 1)
        corpus_fail(c, "get_image_num_mip_levels: %d, want %d", levels[0], LEVELS - 1);

    uint64_t sh = ref_sampler(c, HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED,
                              HSA_EXT_SAMPLER_FILTER_MODE_LINEAR,
                              HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE);
    uint32_t *samp = corpus_alloc(c, 32);
    float *co = corpus_alloc(c, NS * 16);
    uint32_t *out = corpus_alloc(c, NS * 16);
    for (int mip = 1; mip <= 2; mip++) {
        /* The runtime's S# with MIP_FILTER (word 2, bits 27:26) set to point or linear. */
        memcpy(samp, (const void *)sh, 32);
        samp[2] = (samp[2] & ~(3u << 26)) | (uint32_t)mip << 26;
        for (unsigned i = 0; i < NS; i++) {
            co[4 * i] = corpus_randf(c, 0.0f, 1.0f);
            co[4 * i + 1] = corpus_randf(c, 0.0f, 1.0f);
            co[4 * i + 2] = corpus_randf(c, -0.5f, 4.5f);
            co[4 * i + 3] = 0;
        }
        memset(out, 0, NS * 16);
        RUN1(c, "smp_2d_lod", NS, 64, A_VAL(uint64_t, img.handle), A_BUF(samp), A_BUF(co),
             A_BUF(out));
        uint32_t want[NS * 4];
        for (unsigned i = 0; i < NS; i++) {
            float lod = co[4 * i + 2];
            long q = (long)rint((double)(lod < 0 ? 0 : lod) * 256.0);
            uint32_t a[4], b[4];
            if (mip == 1) {
                long l = (q + 128) >> 8;
                ref_sample(&lv[l > LEVELS - 1 ? LEVELS - 1 : l], 1, 1,
                           HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE, co + 4 * i, want + 4 * i);
                continue;
            }
            long l0 = q >> 8;
            unsigned f = (unsigned)(q & 255);
            if (l0 >= LEVELS - 1 || f == 0) {
                ref_sample(&lv[l0 > LEVELS - 1 ? LEVELS - 1 : l0], 1, 1,
                           HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE, co + 4 * i, want + 4 * i);
                continue;
            }
            ref_sample(&lv[l0], 1, 1, HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE, co + 4 * i, a);
            ref_sample(&lv[l0 + 1], 1, 1, HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE,
                       co + 4 * i, b);
            for (int k = 0; k < 4; k++) {
                float x, y, r;
                memcpy(&x, &a[k], 4);
                memcpy(&y, &b[k], 4);
                r = (x * (float)(256 - f) + y * (float)f) * (1.0f / 256.0f);
                memcpy(&want[4 * i + k], &r, 4);
            }
        }
        corpus_check_u32(c, mip == 1 ? "mip point" : "mip linear", out, want, NS * 4);
    }
    hsa_ext_sampler_destroy(gpu, (hsa_ext_sampler_t){ sh });
    hsa_ext_image_destroy(gpu, img);
    for (unsigned l = 0; l < LEVELS; l++)
        free(lv[l].host);
}

void corpus_case(corpus_t *c) {
    queries_and_errors(c);
    mip_levels(c);
}
