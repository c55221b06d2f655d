/* Matrix-core builtins (kernels/mfma.cl): every __builtin_amdgcn_mfma_* of the object's target
 * on random matrices, compared with host matrix products D = A·B + C.
 *
 * The host places the matrix elements in the registers of the instruction's layout (AMD's Matrix
 * Instruction Calculator documents it): for A and B, the 64 lanes form 64/M groups of M lanes,
 * blocks take consecutive groups and the K dimension the remaining ones, each lane packing
 * kl = K·blocks·M/64 consecutive k values low bits first; for 32-bit C/D, rows go in chunks of
 * four registers, chunk c = i/4 + (M/4)·block sitting in lane group c mod (64/N) and registers
 * 4·(c div (64/N)) + i mod 4; for f64 D, lane 16·(i mod 4) + N·block + j, register pair i/4.
 * CBSZ/ABID make each group of 2^CBSZ blocks read block ABID's A; BLGP remaps B's lanes.
 * Inputs are small integers (i8: any value), so the product is exact whatever the order of the
 * additions; the instructions' rounding is tested bit by bit in softhsa's own unit tests. */
#include "harness.h"

#include <stdlib.h>

enum fmt { F32, XF32, F16, BF16, I8, F64, FP8, BF8 };

struct mfma {
    const char *kernel;
    unsigned m, k, blocks;
    enum fmt a, b;
    unsigned out_bits; /* 32 or 64 */
    int integer;
    unsigned cbsz, abid, blgp;
    unsigned targets; /* 1: gfx908, 2: gfx90a, 4: gfx940 */
};

#define ALL 7
#define CDNA12 3
#define CDNA23 6
#define CDNA3 4

static const struct mfma CASES[] = {
    { "mfma_f32_32x32x1f32", 32, 1, 2, F32, F32, 32, 0, 0, 0, 0, ALL },
    { "mfma_f32_16x16x1f32", 16, 1, 4, F32, F32, 32, 0, 0, 0, 0, ALL },
    { "mfma_f32_4x4x1f32", 4, 1, 16, F32, F32, 32, 0, 0, 0, 0, ALL },
    { "mfma_f32_32x32x2f32", 32, 2, 1, F32, F32, 32, 0, 0, 0, 0, ALL },
    { "mfma_f32_16x16x4f32", 16, 4, 1, F32, F32, 32, 0, 0, 0, 0, ALL },
    { "mfma_f32_32x32x4f16", 32, 4, 2, F16, F16, 32, 0, 0, 0, 0, ALL },
    { "mfma_f32_16x16x4f16", 16, 4, 4, F16, F16, 32, 0, 0, 0, 0, ALL },
    { "mfma_f32_4x4x4f16", 4, 4, 16, F16, F16, 32, 0, 0, 0, 0, ALL },
    { "mfma_f32_32x32x8f16", 32, 8, 1, F16, F16, 32, 0, 0, 0, 0, ALL },
    { "mfma_f32_16x16x16f16", 16, 16, 1, F16, F16, 32, 0, 0, 0, 0, ALL },
    { "mfma_i32_32x32x4i8", 32, 4, 2, I8, I8, 32, 1, 0, 0, 0, ALL },
    { "mfma_i32_16x16x4i8", 16, 4, 4, I8, I8, 32, 1, 0, 0, 0, ALL },
    { "mfma_i32_4x4x4i8", 4, 4, 16, I8, I8, 32, 1, 0, 0, 0, ALL },
    { "mfma_f32_4x4x1f32_cbsz2_abid3", 4, 1, 16, F32, F32, 32, 0, 2, 3, 0, ALL },
    { "mfma_f32_16x16x4f16_blgp5", 16, 4, 4, F16, F16, 32, 0, 0, 0, 5, ALL },
    { "mfma_i32_32x32x4i8_cbsz1_abid1_blgp3", 32, 4, 2, I8, I8, 32, 1, 1, 1, 3, ALL },
    { "mfma_i32_32x32x8i8", 32, 8, 1, I8, I8, 32, 1, 0, 0, 0, CDNA12 },
    { "mfma_i32_16x16x16i8", 16, 16, 1, I8, I8, 32, 1, 0, 0, 0, CDNA12 },
    { "mfma_f32_32x32x2bf16", 32, 2, 2, BF16, BF16, 32, 0, 0, 0, 0, CDNA12 },
    { "mfma_f32_16x16x2bf16", 16, 2, 4, BF16, BF16, 32, 0, 0, 0, 0, CDNA12 },
    { "mfma_f32_4x4x2bf16", 4, 2, 16, BF16, BF16, 32, 0, 0, 0, 0, CDNA12 },
    { "mfma_f32_32x32x4bf16", 32, 4, 1, BF16, BF16, 32, 0, 0, 0, 0, CDNA12 },
    { "mfma_f32_16x16x8bf16", 16, 8, 1, BF16, BF16, 32, 0, 0, 0, 0, CDNA12 },
    { "mfma_f32_32x32x4bf16_1k", 32, 4, 2, BF16, BF16, 32, 0, 0, 0, 0, CDNA23 },
    { "mfma_f32_16x16x4bf16_1k", 16, 4, 4, BF16, BF16, 32, 0, 0, 0, 0, CDNA23 },
    { "mfma_f32_4x4x4bf16_1k", 4, 4, 16, BF16, BF16, 32, 0, 0, 0, 0, CDNA23 },
    { "mfma_f32_32x32x8bf16_1k", 32, 8, 1, BF16, BF16, 32, 0, 0, 0, 0, CDNA23 },
    { "mfma_f32_16x16x16bf16_1k", 16, 16, 1, BF16, BF16, 32, 0, 0, 0, 0, CDNA23 },
    { "mfma_f64_16x16x4f64", 16, 4, 1, F64, F64, 64, 0, 0, 0, 0, CDNA23 },
    { "mfma_f64_4x4x4f64", 4, 4, 4, F64, F64, 64, 0, 0, 0, 0, CDNA23 },
    { "mfma_i32_32x32x16_i8", 32, 16, 1, I8, I8, 32, 1, 0, 0, 0, CDNA3 },
    { "mfma_i32_16x16x32_i8", 16, 32, 1, I8, I8, 32, 1, 0, 0, 0, CDNA3 },
    { "mfma_f32_16x16x8_xf32", 16, 8, 1, XF32, XF32, 32, 0, 0, 0, 0, CDNA3 },
    { "mfma_f32_32x32x4_xf32", 32, 4, 1, XF32, XF32, 32, 0, 0, 0, 0, CDNA3 },
    { "mfma_f32_16x16x32_bf8_bf8", 16, 32, 1, BF8, BF8, 32, 0, 0, 0, 0, CDNA3 },
    { "mfma_f32_16x16x32_bf8_fp8", 16, 32, 1, BF8, FP8, 32, 0, 0, 0, 0, CDNA3 },
    { "mfma_f32_16x16x32_fp8_bf8", 16, 32, 1, FP8, BF8, 32, 0, 0, 0, 0, CDNA3 },
    { "mfma_f32_16x16x32_fp8_fp8", 16, 32, 1, FP8, FP8, 32, 0, 0, 0, 0, CDNA3 },
    { "mfma_f32_32x32x16_bf8_bf8", 32, 16, 1, BF8, BF8, 32, 0, 0, 0, 0, CDNA3 },
    { "mfma_f32_32x32x16_bf8_fp8", 32, 16, 1, BF8, FP8, 32, 0, 0, 0, 0, CDNA3 },
    { "mfma_f32_32x32x16_fp8_bf8", 32, 16, 1, FP8, BF8, 32, 0, 0, 0, 0, CDNA3 },
    { "mfma_f32_32x32x16_fp8_fp8", 32, 16, 1, FP8, FP8, 32, 0, 0, 0, 0, CDNA3 },
};

static unsigned bits_of(enum fmt f) {
    switch (f) {
    case F64: return 64;
    case F32: case XF32: return 32;
    case F16: case BF16: return 16;
    default: return 8;
    }
}

/* Register, lane and bit offset of an element. */
struct loc {
    unsigned reg, lane, bit;
};

/* A[i][k] / B[k][j] (x = i or j) of block b. */
static struct loc ab_loc(const struct mfma *s, unsigned bits, unsigned x, unsigned k, unsigned b) {
    unsigned kl = s->k * s->blocks * s->m / 64;
    if (kl == 0)
        kl = 1;
    unsigned q = k % kl, per = bits >= 32 ? 1 : 32 / bits;
    struct loc l = { bits >= 32 ? q * bits / 32 : q / per, s->m * (b + s->blocks * (k / kl)) + x,
                     bits >= 32 ? 0 : (q % per) * bits };
    return l;
}

static struct loc d_loc(const struct mfma *s, unsigned i, unsigned j, unsigned b) {
    if (s->out_bits == 64) {
        struct loc l = { 2 * (i / 4), 16 * (i % 4) + s->m * b + j, 0 };
        return l;
    }
    unsigned groups = 64 / s->m, c = i / 4 + (s->m / 4) * b;
    struct loc l = { 4 * (c / groups) + i % 4, s->m * (c % groups) + j, 0 };
    return l;
}

static uint64_t get(const uint32_t *regs, struct loc l, unsigned bits) {
    const uint32_t *p = regs + l.reg * 64 + l.lane;
    if (bits == 64)
        return p[0] | (uint64_t)p[64] << 32;
    if (bits == 32)
        return p[0];
    return (p[0] >> l.bit) & ((1u << bits) - 1);
}

static void put(uint32_t *regs, struct loc l, unsigned bits, uint64_t v) {
    uint32_t *p = regs + l.reg * 64 + l.lane;
    if (bits == 64) {
        p[0] = (uint32_t)v;
        p[64] = (uint32_t)(v >> 32);
    } else if (bits == 32) {
        p[0] = (uint32_t)v;
    } else {
        uint32_t m = ((1u << bits) - 1) << l.bit;
        p[0] = (p[0] & ~m) | ((uint32_t)v << l.bit & m);
    }
}

/* Bits of the small integer v (|v| <= 3) in format f; the value of element bits x. */
static uint64_t encode(enum fmt f, int v) {
    float x = (float)v;
    uint32_t u;
    memcpy(&u, &x, 4);
    double d = v;
    uint64_t u64;
    memcpy(&u64, &d, 8);
    unsigned e = (u >> 23) & 0xff, neg = u >> 31, m = u & 0x7fffff;
    switch (f) {
    case F64: return u64;
    case F32: case XF32: return u;
    case BF16: return u >> 16;
    case I8: return (uint8_t)v;
    case F16: return v == 0 ? 0 : neg << 15 | (e - 127 + 15) << 10 | m >> 13;
    case FP8: return v == 0 ? 0 : neg << 7 | (e - 127 + 8) << 3 | m >> 20;
    case BF8: return v == 0 ? 0 : neg << 7 | (e - 127 + 16) << 2 | m >> 21;
    }
    return 0;
}

static double value(enum fmt f, uint64_t x) {
    switch (f) {
    case F64: { double d; memcpy(&d, &x, 8); return d; }
    case F32: case XF32: { uint32_t u = (uint32_t)x; float y; memcpy(&y, &u, 4); return y; }
    case BF16: { uint32_t u = (uint32_t)x << 16; float y; memcpy(&y, &u, 4); return y; }
    case I8: return (int8_t)x;
    default: break;
    }
    /* f16 / fp8 / bf8 normal numbers (the inputs are small integers). */
    unsigned p = f == F16 ? 10 : f == FP8 ? 3 : 2, bias = f == F16 ? 15 : f == FP8 ? 8 : 16;
    unsigned w = f == F16 ? 16 : 8, e = (x >> p) & ((1u << (w - 1 - p)) - 1);
    if (e == 0)
        return 0;
    double v = (double)((x & ((1u << p) - 1)) | 1u << p);
    for (int s = (int)e - (int)bias - (int)p; s > 0; s--)
        v *= 2;
    for (int s = (int)e - (int)bias - (int)p; s < 0; s++)
        v /= 2;
    return (x >> (w - 1)) & 1 ? -v : v;
}

static unsigned b_lane(unsigned l, unsigned blgp) {
    switch (blgp) {
    case 0: return l;
    case 1: return l % 32;
    case 2: return 32 + l % 32;
    case 3: return (l + 16) % 64;
    default: return 16 * (blgp - 4) + l % 16;
    }
}

/* Operand buffers, shared by every instruction (the largest: 2 x 2 registers of A and B, 32 of
 * C; 32 of D). */
static uint32_t *in, *out;

static void run_case(corpus_t *c, const struct mfma *s) {
    unsigned abits = bits_of(s->a);
    unsigned na = (s->m * s->k * s->blocks * abits + 2047) / 2048;
    unsigned nd = s->m * s->m * s->blocks * s->out_bits / 2048;
    for (unsigned i = 0; i < (2 * na + nd) * 64; i++)
        in[i] = corpus_rand(c); /* bits the instruction must ignore */
    uint32_t *a = in, *b = in + na * 64, *cc = in + 2 * na * 64;
    for (unsigned blk = 0; blk < s->blocks; blk++)
        for (unsigned i = 0; i < s->m; i++) {
            for (unsigned k = 0; k < s->k; k++) {
                int va = s->a == I8 ? (int8_t)corpus_rand(c) : (int)(corpus_rand(c) % 7) - 3;
                int vb = s->b == I8 ? (int8_t)corpus_rand(c) : (int)(corpus_rand(c) % 7) - 3;
                put(a, ab_loc(s, abits, i, k, blk), abits, encode(s->a, va));
                put(b, ab_loc(s, bits_of(s->b), i, k, blk), bits_of(s->b), encode(s->b, vb));
            }
            for (unsigned j = 0; j < s->m; j++) {
                int v = (int)(corpus_rand(c) % 7) - 3;
                uint64_t x = s->integer ? corpus_rand(c) : encode(s->out_bits == 64 ? F64 : F32, v);
                put(cc, d_loc(s, i, j, blk), s->out_bits, x);
            }
        }
    if (RUN1(c, s->kernel, 64, 64, A_BUF(out), A_BUF(in)))
        return;
    unsigned mask = (1u << s->cbsz) - 1, bad = 0;
    for (unsigned blk = 0; blk < s->blocks && bad < 4; blk++)
        for (unsigned i = 0; i < s->m; i++)
            for (unsigned j = 0; j < s->m; j++) {
                struct loc dl = d_loc(s, i, j, blk);
                uint64_t cv = get(cc, dl, s->out_bits), want;
                unsigned ablk = (blk & ~mask) | (s->abid & mask);
                if (s->integer) {
                    int32_t acc = (int32_t)cv;
                    for (unsigned k = 0; k < s->k; k++) {
                        struct loc bl = ab_loc(s, 8, j, k, blk);
                        bl.lane = b_lane(bl.lane, s->blgp);
                        acc = (int32_t)((uint32_t)acc +
                                        (uint32_t)((int8_t)get(a, ab_loc(s, 8, i, k, ablk), 8) *
                                                   (int8_t)get(b, bl, 8)));
                    }
                    want = (uint32_t)acc;
                } else {
                    double acc = value(s->out_bits == 64 ? F64 : F32, cv);
                    for (unsigned k = 0; k < s->k; k++) {
                        struct loc bl = ab_loc(s, bits_of(s->b), j, k, blk);
                        bl.lane = b_lane(bl.lane, s->blgp);
                        acc += value(s->a, get(a, ab_loc(s, abits, i, k, ablk), abits)) *
                               value(s->b, get(b, bl, bits_of(s->b)));
                    }
                    if (s->out_bits == 64) {
                        memcpy(&want, &acc, 8);
                    } else {
                        float f = (float)acc;
                        uint32_t u;
                        memcpy(&u, &f, 4);
                        want = u;
                    }
                }
                uint64_t got = get(out, dl, s->out_bits);
                if (got != want && bad++ < 4)
                    corpus_fail(c, "%s: D[%u][%u] block %u = %#llx, want %#llx", s->kernel, i, j, blk,
                                (unsigned long long)got, (unsigned long long)want);
            }
}

void corpus_case(corpus_t *c) {
    uint32_t *t = corpus_alloc(c, 4);
    in = corpus_alloc(c, 36 * 256);
    out = corpus_alloc(c, 32 * 256);
    if (RUN1(c, "mfma_target", 1, 1, A_BUF(t)))
        return;
    unsigned target = t[0] == 0x908 ? 1 : t[0] == 0x90a ? 2 : t[0] == 0x940 ? 4 : 0, ran = 0;
    if (!target) {
        corpus_fail(c, "mfma_target: unknown target %#x", t[0]);
        return;
    }
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        if (CASES[i].targets & target) {
            run_case(c, &CASES[i]);
            ran++;
        }
    unsigned want = target == 1 ? 23 : target == 2 ? 30 : 35;
    if (ran != want)
        corpus_fail(c, "ran %u instructions, want %u", ran, want);
}
