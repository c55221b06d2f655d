/* Host reference of OpenCL image semantics for the image tests (see image_ref.h). Written from
 * the OpenCL C and HSA specifications' format definitions: it shares no tables with softhsa. */
#include "image_ref.h"

#include <hsa/hsa_ext_amd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define T(x) HSA_EXT_IMAGE_CHANNEL_TYPE_##x
#define O(x) HSA_EXT_IMAGE_CHANNEL_ORDER_##x

static const uint32_t plain_types[] = {
    T(SNORM_INT8),      T(SNORM_INT16),      T(UNORM_INT8),    T(UNORM_INT16),
    T(SIGNED_INT8),     T(SIGNED_INT16),     T(SIGNED_INT32),  T(UNSIGNED_INT8),
    T(UNSIGNED_INT16),  T(UNSIGNED_INT32),   T(HALF_FLOAT),    T(FLOAT),
};
static const char *type_names[] = { "snorm8", "snorm16", "unorm8", "unorm16", "unorm24",
                                    "555",    "565",     "101010", "sint8",   "sint16",
                                    "sint32", "uint8",   "uint16", "uint32",  "half",
                                    "float" };
static const char *order_names[] = { "A",    "R",    "RX",   "RG",    "RGX",   "RA",   "RGB",
                                     "RGBX", "RGBA", "BGRA", "ARGB",  "ABGR",  "SRGB", "SRGBX",
                                     "SRGBA", "SBGRA", "INTENSITY", "LUMINANCE", "DEPTH",
                                     "DEPTH_STENCIL" };

static ref_format formats[128];
static unsigned nformats;

static void add(uint32_t order, uint32_t type) {
    static char names[128][32];
    unsigned i = nformats++;
    snprintf(names[i], sizeof names[0], "%s/%s", order_names[order], type_names[type]);
    formats[i] = (ref_format){ order, type, names[i] };
}

const ref_format *ref_formats(unsigned *n) {
    if (!nformats) {
        const uint32_t all[] = { O(A), O(R), O(RG), O(RA), O(RGBA) };
        for (unsigned o = 0; o < 5; o++)
            for (unsigned t = 0; t < 12; t++)
                add(all[o], plain_types[t]);
        add(O(RGB), T(UNORM_SHORT_555));
        add(O(RGB), T(UNORM_SHORT_565));
        add(O(RGB), T(UNORM_SHORT_101010));
        const uint32_t bytes4[] = { T(SNORM_INT8), T(UNORM_INT8), T(SIGNED_INT8),
                                    T(UNSIGNED_INT8) };
        for (unsigned t = 0; t < 4; t++) {
            add(O(BGRA), bytes4[t]);
            add(O(ARGB), bytes4[t]);
        }
        add(O(SRGBA), T(UNORM_INT8));
        const uint32_t lum[] = { T(SNORM_INT8), T(SNORM_INT16), T(UNORM_INT8), T(UNORM_INT16),
                                 T(HALF_FLOAT), T(FLOAT) };
        for (unsigned t = 0; t < 6; t++) {
            add(O(INTENSITY), lum[t]);
            add(O(LUMINANCE), lum[t]);
        }
        add(O(DEPTH), T(UNORM_INT16));
        add(O(DEPTH), T(FLOAT));
    }
    *n = nformats;
    return formats;
}

/* Channels stored per element, in memory order. */
static unsigned channels(uint32_t order) {
    switch (order) {
    case O(RG): case O(RA): return 2;
    case O(RGBA): case O(BGRA): case O(ARGB): case O(SRGBA): return 4;
    default: return 1;
    }
}

static unsigned type_bytes(uint32_t type) {
    switch (type) {
    case T(SNORM_INT8): case T(UNORM_INT8): case T(SIGNED_INT8): case T(UNSIGNED_INT8): return 1;
    case T(SIGNED_INT32): case T(UNSIGNED_INT32): case T(FLOAT): return 4;
    default: return 2;
    }
}

unsigned ref_elem_size(uint32_t order, uint32_t type) {
    if (type == T(UNORM_SHORT_555) || type == T(UNORM_SHORT_565))
        return 2;
    if (type == T(UNORM_SHORT_101010))
        return 4;
    return channels(order) * type_bytes(type);
}

int ref_kind(uint32_t type) {
    switch (type) {
    case T(SIGNED_INT8): case T(SIGNED_INT16): case T(SIGNED_INT32): return 1;
    case T(UNSIGNED_INT8): case T(UNSIGNED_INT16): case T(UNSIGNED_INT32): return 2;
    default: return 0;
    }
}

int ref_has_alpha(uint32_t order) {
    switch (order) {
    case O(A): case O(RA): case O(RGBA): case O(BGRA): case O(ARGB): case O(SRGBA):
    case O(INTENSITY):
        return 1;
    default:
        return 0;
    }
}

static uint32_t fbits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float bitsf(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t load(const uint8_t *p, unsigned n) {
    uint32_t v = 0;
    memcpy(&v, p, n);
    return v;
}

/* One stored channel value -> register value. */
static uint32_t decode1(uint32_t type, uint32_t v) {
    switch (type) {
    case T(SNORM_INT8): return fbits(fmaxf((float)(int8_t)v / 127.0f, -1.0f));
    case T(SNORM_INT16): return fbits(fmaxf((float)(int16_t)v / 32767.0f, -1.0f));
    case T(UNORM_INT8): return fbits((float)v / 255.0f);
    case T(UNORM_INT16): return fbits((float)v / 65535.0f);
    case T(SIGNED_INT8): return (uint32_t)(int32_t)(int8_t)v;
    case T(SIGNED_INT16): return (uint32_t)(int32_t)(int16_t)v;
    case T(HALF_FLOAT): {
        _Float16 h;
        uint16_t b = (uint16_t)v;
        memcpy(&h, &b, 2);
        return fbits((float)h);
    }
    default: return v; /* 32-bit integers, float */
    }
}

static uint32_t rint_sat(double x, double lo, double hi) {
    if (isnan(x))
        return 0;
    return (uint32_t)(int64_t)rint(fmin(fmax(x, lo), hi));
}

/* Register value -> stored channel value (the write conversions). */
static uint32_t encode1(uint32_t type, uint32_t v) {
    double x = bitsf(v);
    switch (type) {
    case T(SNORM_INT8): return rint_sat(isnan(x) ? 0 : fmin(fmax(x, -1), 1) * 127, -127, 127) & 0xff;
    case T(SNORM_INT16):
        return rint_sat(isnan(x) ? 0 : fmin(fmax(x, -1), 1) * 32767, -32767, 32767) & 0xffff;
    case T(UNORM_INT8): return rint_sat(x * 255, 0, 255);
    case T(UNORM_INT16): return rint_sat(x * 65535, 0, 65535);
    case T(SIGNED_INT8): {
        int32_t i = (int32_t)v;
        return (uint32_t)(i < -128 ? -128 : i > 127 ? 127 : i) & 0xff;
    }
    case T(SIGNED_INT16): {
        int32_t i = (int32_t)v;
        return (uint32_t)(i < -32768 ? -32768 : i > 32767 ? 32767 : i) & 0xffff;
    }
    case T(UNSIGNED_INT8): return v > 255 ? 255 : v;
    case T(UNSIGNED_INT16): return v > 65535 ? 65535 : v;
    case T(HALF_FLOAT): {
        _Float16 h = (_Float16)bitsf(v);
        uint16_t b;
        memcpy(&b, &h, 2);
        return b;
    }
    default: return v;
    }
}

static float srgb_to_linear(float c) {
    double d = c;
    return (float)(d <= 0.04045 ? d / 12.92 : pow((d + 0.055) / 1.055, 2.4));
}

/* The packed RGB types: bits and shift of R, G, B (OpenCL: R in the top bits). */
static int packed(uint32_t type, unsigned bits[3], unsigned shift[3]) {
    switch (type) {
    case T(UNORM_SHORT_565):
        bits[0] = 5, bits[1] = 6, bits[2] = 5, shift[0] = 11, shift[1] = 5, shift[2] = 0;
        return 1;
    case T(UNORM_SHORT_555):
        bits[0] = bits[1] = bits[2] = 5, shift[0] = 10, shift[1] = 5, shift[2] = 0;
        return 1;
    case T(UNORM_SHORT_101010):
        bits[0] = bits[1] = bits[2] = 10, shift[0] = 20, shift[1] = 10, shift[2] = 0;
        return 1;
    default:
        return 0;
    }
}

void ref_decode(uint32_t order, uint32_t type, const uint8_t *p, uint32_t rgba[4]) {
    uint32_t one = ref_kind(type) ? 1 : fbits(1.0f), zero = 0;
    unsigned bits[3], shift[3];
    if (packed(type, bits, shift)) {
        uint32_t v = load(p, ref_elem_size(order, type));
        for (int i = 0; i < 3; i++) {
            uint32_t m = (1u << bits[i]) - 1;
            rgba[i] = fbits((float)((v >> shift[i]) & m) / (float)m);
        }
        rgba[3] = one;
        return;
    }
    unsigned n = channels(order), tb = type_bytes(type);
    uint32_t ch[4];
    for (unsigned i = 0; i < n; i++)
        ch[i] = decode1(type, load(p + i * tb, tb));
    switch (order) {
    case O(A): rgba[0] = rgba[1] = rgba[2] = zero; rgba[3] = ch[0]; break;
    case O(R): case O(DEPTH): rgba[0] = ch[0]; rgba[1] = rgba[2] = zero; rgba[3] = one; break;
    case O(RG): rgba[0] = ch[0]; rgba[1] = ch[1]; rgba[2] = zero; rgba[3] = one; break;
    case O(RA): rgba[0] = ch[0]; rgba[1] = rgba[2] = zero; rgba[3] = ch[1]; break;
    case O(BGRA): rgba[0] = ch[2]; rgba[1] = ch[1]; rgba[2] = ch[0]; rgba[3] = ch[3]; break;
    case O(ARGB): rgba[0] = ch[1]; rgba[1] = ch[2]; rgba[2] = ch[3]; rgba[3] = ch[0]; break;
    case O(INTENSITY): rgba[0] = rgba[1] = rgba[2] = rgba[3] = ch[0]; break;
    case O(LUMINANCE): rgba[0] = rgba[1] = rgba[2] = ch[0]; rgba[3] = one; break;
    case O(SRGBA):
        for (int i = 0; i < 3; i++)
            rgba[i] = fbits(srgb_to_linear(bitsf(ch[i])));
        rgba[3] = ch[3];
        break;
    default: memcpy(rgba, ch, 16); break; /* RGBA */
    }
}

void ref_encode(uint32_t order, uint32_t type, const uint32_t rgba[4], uint8_t *p) {
    unsigned bits[3], shift[3];
    if (packed(type, bits, shift)) {
        uint32_t v = 0;
        for (int i = 0; i < 3; i++) {
            uint32_t m = (1u << bits[i]) - 1;
            v |= rint_sat((double)bitsf(rgba[i]) * m, 0, m) << shift[i];
        }
        memcpy(p, &v, ref_elem_size(order, type));
        return;
    }
    uint32_t ch[4];
    switch (order) {
    case O(A): ch[0] = rgba[3]; break;
    case O(RA): ch[0] = rgba[0]; ch[1] = rgba[3]; break;
    case O(BGRA): ch[0] = rgba[2]; ch[1] = rgba[1]; ch[2] = rgba[0]; ch[3] = rgba[3]; break;
    case O(ARGB): ch[0] = rgba[3]; ch[1] = rgba[0]; ch[2] = rgba[1]; ch[3] = rgba[2]; break;
    default: memcpy(ch, rgba, 16); break;
    }
    unsigned n = channels(order), tb = type_bytes(type);
    for (unsigned i = 0; i < n; i++) {
        uint32_t v = encode1(type, ch[i]);
        memcpy(p + i * tb, &v, tb);
    }
}

/* ---- HSA objects ---- */

static hsa_status_t find_device_pool(hsa_amd_memory_pool_t pool, void *data) {
    hsa_amd_segment_t seg;
    uint32_t flags = 0;
    if (hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg) ||
        seg != HSA_AMD_SEGMENT_GLOBAL ||
        hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags))
        return HSA_STATUS_SUCCESS;
    if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) {
        *(hsa_amd_memory_pool_t *)data = pool;
        return HSA_STATUS_INFO_BREAK;
    }
    return HSA_STATUS_SUCCESS;
}

static int fail_status(corpus_t *c, const char *what, hsa_status_t st) {
    const char *s = NULL;
    hsa_status_string(st, &s);
    corpus_fail(c, "%s: %s", what, s ? s : "?");
    return (int)st;
}

int ref_image_create(corpus_t *c, ref_image *img, uint32_t geometry, uint32_t order,
                     uint32_t type, unsigned w, unsigned h, unsigned s, int linear,
                     size_t row_pitch) {
    hsa_agent_t gpu = { corpus_hsa_gpu_agent(c) };
    memset(img, 0, sizeof *img);
    int is3d = geometry == HSA_EXT_IMAGE_GEOMETRY_3D;
    int arr = geometry == HSA_EXT_IMAGE_GEOMETRY_1DA || geometry == HSA_EXT_IMAGE_GEOMETRY_2DA ||
              geometry == HSA_EXT_IMAGE_GEOMETRY_2DADEPTH;
    int one_d = geometry == HSA_EXT_IMAGE_GEOMETRY_1D || geometry == HSA_EXT_IMAGE_GEOMETRY_1DA ||
                geometry == HSA_EXT_IMAGE_GEOMETRY_1DB;
    img->desc = (hsa_ext_image_descriptor_t){ .geometry = geometry,
                                              .width = w,
                                              .height = one_d ? 0 : h,
                                              .depth = is3d ? s : 0,
                                              .array_size = arr ? s : 0,
                                              .format = { type, order } };
    img->w = w;
    img->h = one_d ? 1 : h;
    img->s = (is3d || arr) ? s : 1;
    img->bpp = ref_elem_size(order, type);
    hsa_ext_image_data_info_t info;
    hsa_status_t st =
        linear ? hsa_ext_image_data_get_info_with_layout(gpu, &img->desc, HSA_ACCESS_PERMISSION_RW,
                                                         HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR,
                                                         row_pitch, 0, &info)
               : hsa_ext_image_data_get_info(gpu, &img->desc, HSA_ACCESS_PERMISSION_RW, &info);
    if (st)
        return fail_status(c, "hsa_ext_image_data_get_info", st);
    hsa_amd_memory_pool_t pool = { 0 };
    hsa_amd_agent_iterate_memory_pools(gpu, find_device_pool, &pool);
    if (!pool.handle)
        return fail_status(c, "no device memory pool", HSA_STATUS_ERROR);
    st = hsa_amd_memory_pool_allocate(pool, info.size, 0, &img->data);
    if (st)
        return fail_status(c, "allocating image memory", st);
    st = linear ? hsa_ext_image_create_with_layout(gpu, &img->desc, img->data,
                                                   HSA_ACCESS_PERMISSION_RW,
                                                   HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, row_pitch, 0,
                                                   &img->handle)
                : hsa_ext_image_create(gpu, &img->desc, img->data, HSA_ACCESS_PERMISSION_RW,
                                       &img->handle);
    if (st)
        return fail_status(c, "hsa_ext_image_create", st);
    size_t n = (size_t)img->w * img->h * img->s * img->bpp;
    img->host = malloc(n);
    for (size_t i = 0; i < n; i++)
        img->host[i] = (uint8_t)corpus_rand(c);
    /* No NaN or infinity in float images (NaN payloads and filtering of infinities are not
     * what these tests are about); halves too. */
    if (type == T(FLOAT))
        for (size_t i = 0; i < n; i += 4) {
            float f = corpus_randf(c, -4.0f, 4.0f);
            memcpy(img->host + i, &f, 4);
        }
    if (type == T(HALF_FLOAT))
        for (size_t i = 0; i < n; i += 2) {
            _Float16 f = (_Float16)corpus_randf(c, -4.0f, 4.0f);
            memcpy(img->host + i, &f, 2);
        }
    hsa_ext_image_region_t r = { { 0, 0, 0 }, { img->w, one_d ? (arr ? img->s : 1) : img->h,
                                                 one_d ? 1 : img->s } };
    st = hsa_ext_image_import(gpu, img->host, 0, 0, img->handle, &r);
    if (st)
        return fail_status(c, "hsa_ext_image_import", st);
    return 0;
}

int ref_image_export(corpus_t *c, ref_image *img, uint8_t *out) {
    hsa_agent_t gpu = { corpus_hsa_gpu_agent(c) };
    int one_d = img->h == 1 && img->desc.height == 0;
    int arr1 = img->desc.geometry == HSA_EXT_IMAGE_GEOMETRY_1DA;
    hsa_ext_image_region_t r = { { 0, 0, 0 },
                                 { img->w, arr1 ? img->s : img->h, one_d ? 1 : img->s } };
    hsa_status_t st = hsa_ext_image_export(gpu, img->handle, out, 0, 0, &r);
    return st ? fail_status(c, "hsa_ext_image_export", st) : 0;
}

void ref_image_destroy(corpus_t *c, ref_image *img) {
    hsa_agent_t gpu = { corpus_hsa_gpu_agent(c) };
    if (img->handle.handle && hsa_ext_image_destroy(gpu, img->handle))
        corpus_fail(c, "hsa_ext_image_destroy failed");
    if (img->data)
        hsa_amd_memory_pool_free(img->data);
    free(img->host);
    memset(img, 0, sizeof *img);
}

uint64_t ref_sampler(corpus_t *c, uint32_t coord, uint32_t filter, uint32_t addr) {
    hsa_agent_t gpu = { corpus_hsa_gpu_agent(c) };
    hsa_ext_sampler_descriptor_t d = { coord, filter, addr };
    hsa_ext_sampler_t s = { 0 };
    hsa_status_t st = hsa_ext_sampler_create(gpu, &d, &s);
    if (st)
        fail_status(c, "hsa_ext_sampler_create", st);
    return s.handle;
}

const uint8_t *ref_texel(const ref_image *img, unsigned x, unsigned y, unsigned s) {
    return img->host + (((size_t)s * img->h + y) * img->w + x) * img->bpp;
}

/* ---- sampling: softhsa's GFX9 model (README.md) ---- */

/* Wraps index i into [0, n) by the HSA addressing mode; -1: the border colour. */
static long wrap(long i, long n, uint32_t addr) {
    switch (addr) {
    case HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE: return i < 0 ? 0 : i >= n ? n - 1 : i;
    case HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER: return i < 0 || i >= n ? -1 : i;
    case HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT: {
        long m = ((i % (2 * n)) + 2 * n) % (2 * n);
        return m >= n ? 2 * n - 1 - m : m;
    }
    default: return ((i % n) + n) % n; /* repeat, and undefined (ROCm: repeat) */
    }
}

void ref_sample(const ref_image *img, uint32_t coord_mode, uint32_t filter, uint32_t addr,
                const float coord[4], uint32_t out[4]) {
    uint32_t g = img->desc.geometry;
    unsigned dims = g == HSA_EXT_IMAGE_GEOMETRY_3D                                    ? 3
                    : (g == HSA_EXT_IMAGE_GEOMETRY_1D || g == HSA_EXT_IMAGE_GEOMETRY_1DA) ? 1
                                                                                         : 2;
    int arr = g == HSA_EXT_IMAGE_GEOMETRY_1DA || g == HSA_EXT_IMAGE_GEOMETRY_2DA ||
              g == HSA_EXT_IMAGE_GEOMETRY_2DADEPTH;
    long size[3] = { img->w, img->h, img->s };
    unsigned layer = 0;
    if (arr) {
        float l = rintf(coord[dims]);
        layer = l < 0 ? 0 : l > (float)(img->s - 1) ? img->s - 1 : (unsigned)l;
    }
    int norm = coord_mode == HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED;
    int lin = filter == HSA_EXT_SAMPLER_FILTER_MODE_LINEAR &&
              ref_kind(img->desc.format.channel_type) == 0;
    long i0[3] = { 0, 0, 0 };
    unsigned f[3] = { 0, 0, 0 };
    for (unsigned a = 0; a < dims; a++) {
        float c = coord[a];
        if (!lin) {
            /* The device library snaps nearest-filtered coordinates to floor(c * size) before
             * the hardware's fixed-point conversion, so the texel is exactly that. */
            i0[a] = (long)floorf(norm ? c * (float)size[a] : c);
        } else {
            float u = norm ? c * (float)size[a] : c;
            long fx = (long)rint((double)u * 256.0) - 128;
            i0[a] = fx >> 8;
            f[a] = (unsigned)(fx & 255);
        }
    }
    uint32_t border[4] = { 0, 0, 0, 0 };
    if (!ref_has_alpha(img->desc.format.channel_order))
        border[3] = ref_kind(img->desc.format.channel_type) ? 1 : fbits(1.0f);
    if (!lin) {
        long idx[3] = { 0, 0, 0 };
        int b = 0;
        for (unsigned a = 0; a < dims; a++)
            if ((idx[a] = wrap(i0[a], size[a], addr)) < 0)
                b = 1;
        if (b) {
            memcpy(out, border, 16);
            return;
        }
        ref_decode(img->desc.format.channel_order, img->desc.format.channel_type,
                   ref_texel(img, idx[0], idx[1], dims == 3 ? idx[2] : layer), out);
        return;
    }
    float acc[4] = { 0, 0, 0, 0 };
    for (unsigned corner = 0; corner < (1u << dims); corner++) {
        unsigned wgt = 1;
        long idx[3] = { 0, 0, 0 };
        int b = 0;
        for (unsigned a = 0; a < dims; a++) {
            int hi = corner >> a & 1;
            wgt *= hi ? f[a] : 256 - f[a];
            if ((idx[a] = wrap(i0[a] + hi, size[a], addr)) < 0)
                b = 1;
        }
        if (!wgt)
            continue;
        uint32_t t[4];
        if (b)
            memcpy(t, border, 16);
        else
            ref_decode(img->desc.format.channel_order, img->desc.format.channel_type,
                       ref_texel(img, idx[0], idx[1], dims == 3 ? idx[2] : layer), t);
        for (int k = 0; k < 4; k++)
            acc[k] = acc[k] + bitsf(t[k]) * (float)wgt;
    }
    float scale = ldexpf(1.0f, -8 * (int)dims);
    for (int k = 0; k < 4; k++)
        out[k] = fbits(acc[k] * scale);
}
