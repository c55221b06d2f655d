/* Image test support: HSA image creation over device memory, and an independent host reference
 * of OpenCL image semantics (texel formats in memory, read and write conversions, addressing
 * and filtering) with the arithmetic softhsa's GFX9 model defines (README.md). */
#ifndef IMAGE_REF_H
#define IMAGE_REF_H

#include "../corpus/harness.h"

#include <hsa/hsa.h>
#include <hsa/hsa_ext_image.h>

/* A format of the test matrix. */
typedef struct {
    uint32_t order, type;
    const char *name;
} ref_format;

/* Every (order, type) ROCm supports on gfx9, with its name; `n` receives the count. */
const ref_format *ref_formats(unsigned *n);

/* Bytes per element (0: unsupported). */
unsigned ref_elem_size(uint32_t order, uint32_t type);
/* 0 float (normalized or float), 1 signed integer, 2 unsigned integer. */
int ref_kind(uint32_t type);
/* Whether the order has an alpha channel (border colour (0,0,0,0) rather than (0,0,0,1)). */
int ref_has_alpha(uint32_t order);

/* Element bytes -> RGBA as read_image{f,i,ui} returns it (float bits or integers). */
void ref_decode(uint32_t order, uint32_t type, const uint8_t *p, uint32_t rgba[4]);
/* RGBA -> element bytes as write_image{f,i,ui} stores it. */
void ref_encode(uint32_t order, uint32_t type, const uint32_t rgba[4], uint8_t *p);

/* A test image: its HSA handle, and a packed host copy of its texels (x fastest, then y, then
 * the slice: 3D depth or array layer; a 1D array's layers are its rows' slices). */
typedef struct {
    hsa_ext_image_t handle;
    hsa_ext_image_descriptor_t desc;
    void *data;       /* device memory */
    uint8_t *host;    /* packed copy */
    unsigned w, h, s; /* width, height (1 for 1D), slices (depth or layers, 1 otherwise) */
    unsigned bpp;
} ref_image;

/* Creates an image of `geometry` over new device memory (opaque layout, or linear with
 * `row_pitch` when `linear`), fills it with random bytes through hsa_ext_image_import and keeps
 * the bytes in `host`. Returns 0, or the failing status (reported as a case failure). */
int ref_image_create(corpus_t *c, ref_image *img, uint32_t geometry, uint32_t order,
                     uint32_t type, unsigned w, unsigned h, unsigned s, int linear,
                     size_t row_pitch);
/* Reads the image back with hsa_ext_image_export into `out` (packed). */
int ref_image_export(corpus_t *c, ref_image *img, uint8_t *out);
void ref_image_destroy(corpus_t *c, ref_image *img);

/* Creates a sampler; returns its handle (0 on failure, reported). */
uint64_t ref_sampler(corpus_t *c, uint32_t coord, uint32_t filter, uint32_t addr);

/* The element of the packed host copy at (x, y, slice). */
const uint8_t *ref_texel(const ref_image *img, unsigned x, unsigned y, unsigned s);

/* read_image{f,i,ui}(img, sampler, coord): the expected RGBA (float bits, or integers for
 * integer formats). `coord` holds x, y, z (3D) or the array layer after the used axes. */
void ref_sample(const ref_image *img, uint32_t coord_mode, uint32_t filter, uint32_t addr,
                const float coord[4], uint32_t out[4]);

#endif
