// corpus: cdna
// Every matrix-core builtin (__builtin_amdgcn_mfma_*) the target has, one kernel each. A wave of
// 64 work-items passes the operands through registers in the instruction's own layout: `in`
// holds A's, B's and C's registers and `out` receives D's, register-major (register r of lane l
// at [r * 64 + l]), so the host places matrix elements itself. `mfma_target` says which
// instruction set the object was built for. A few kernels set CBSZ/ABID/BLGP.
#include "corpus.h"

typedef float v2f __attribute__((ext_vector_type(2)));
typedef float v4f __attribute__((ext_vector_type(4)));
typedef float v16f __attribute__((ext_vector_type(16)));
typedef float v32f __attribute__((ext_vector_type(32)));
typedef int v4i __attribute__((ext_vector_type(4)));
typedef int v16i __attribute__((ext_vector_type(16)));
typedef int v32i __attribute__((ext_vector_type(32)));
typedef double v4d __attribute__((ext_vector_type(4)));
typedef half v4h __attribute__((ext_vector_type(4)));
typedef short v2s __attribute__((ext_vector_type(2)));
typedef short v4s __attribute__((ext_vector_type(4)));

__kernel void mfma_target(__global uint *out) {
#if defined(__gfx908__)
    out[0] = 0x908;
#elif defined(__gfx90a__)
    out[0] = 0x90a;
#elif defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__)
    out[0] = 0x940;
#else
    out[0] = 0;
#endif
}

#define LANE c_lid(0)
#define R(n) in[(n) * 64 + LANE]
#define R2(n) ((uint2)(R(n), R((n) + 1)))

// Operands A and B: one register (32-bit types) or two (64-bit types).
#define OP_1(T, n) __builtin_astype(R(n), T)
#define OP_2(T, n) __builtin_astype(R2(n), T)
#define OP_F2(T, n) ((v2f)(as_float(R(n)), as_float(R((n) + 1))))

// C and D: NC elements of float/int (one register each) or double (two). The element loops are
// unrolled by the preprocessor: clang 14-16 at -O0 miscompile a dynamically indexed insert of a
// double into a vector on gfx90a (both halves written to the low register).
#define REP4(M, x, b) M(x, b, 0) M(x, b, 1) M(x, b, 2) M(x, b, 3)
#define REP16(M, x, b) REP4(M, x, b) M(x, b, 4) M(x, b, 5) M(x, b, 6) M(x, b, 7) M(x, b, 8)      \
    M(x, b, 9) M(x, b, 10) M(x, b, 11) M(x, b, 12) M(x, b, 13) M(x, b, 14) M(x, b, 15)
#define REP32(M, x, b) REP16(M, x, b) M(x, b, 16) M(x, b, 17) M(x, b, 18) M(x, b, 19)            \
    M(x, b, 20) M(x, b, 21) M(x, b, 22) M(x, b, 23) M(x, b, 24) M(x, b, 25) M(x, b, 26)         \
    M(x, b, 27) M(x, b, 28) M(x, b, 29) M(x, b, 30) M(x, b, 31)
#define GET_f(c, base, r) c[r] = as_float(R(base + r));
#define GET_i(c, base, r) c[r] = (int)R(base + r);
#define GET_d(c, base, r) c[r] = as_double(R2(base + 2 * r));
#define PUT_f(d, _, r) out[r * 64 + LANE] = as_uint(d[r]);
#define PUT_i(d, _, r) out[r * 64 + LANE] = (uint)d[r];
#define PUT_d(d, _, r)                                                                        \
    out[2 * r * 64 + LANE] = (uint)as_ulong(d[r]);                                            \
    out[(2 * r + 1) * 64 + LANE] = (uint)(as_ulong(d[r]) >> 32);
#define LOADC(CK, c, NC, base) REP##NC(GET_##CK, c, base)
#define STORE(CK, d, NC) REP##NC(PUT_##CK, d, 0)

// K: kernel name; B: builtin; AK: operand kind (1, 2, F2); AT: operand type; NA: its registers;
// CT: accumulator vector type; CK: element kind (f, i, d); NC: its elements; then CBSZ, ABID,
// BLGP.
#define MFMA(K, B, AK, AT, NA, CT, CK, NC, CBSZ, ABID, BLGP)                                   \
    __kernel void K(__global uint *out, __global const uint *in) {                           \
        AT a = OP_##AK(AT, 0), b = OP_##AK(AT, NA);                                           \
        CT c;                                                                                 \
        LOADC(CK, c, NC, 2 * NA)                                                              \
        CT d = __builtin_amdgcn_mfma_##B(a, b, c, CBSZ, ABID, BLGP);                          \
        STORE(CK, d, NC)                                                                      \
    }

#if defined(__gfx908__) || defined(__gfx90a__) || defined(__gfx940__) || defined(__gfx941__) ||  \
    defined(__gfx942__)
MFMA(mfma_f32_32x32x1f32, f32_32x32x1f32, 1, float, 1, v32f, f, 32, 0, 0, 0)
MFMA(mfma_f32_16x16x1f32, f32_16x16x1f32, 1, float, 1, v16f, f, 16, 0, 0, 0)
MFMA(mfma_f32_4x4x1f32, f32_4x4x1f32, 1, float, 1, v4f, f, 4, 0, 0, 0)
MFMA(mfma_f32_32x32x2f32, f32_32x32x2f32, 1, float, 1, v16f, f, 16, 0, 0, 0)
MFMA(mfma_f32_16x16x4f32, f32_16x16x4f32, 1, float, 1, v4f, f, 4, 0, 0, 0)
MFMA(mfma_f32_32x32x4f16, f32_32x32x4f16, 2, v4h, 2, v32f, f, 32, 0, 0, 0)
MFMA(mfma_f32_16x16x4f16, f32_16x16x4f16, 2, v4h, 2, v16f, f, 16, 0, 0, 0)
MFMA(mfma_f32_4x4x4f16, f32_4x4x4f16, 2, v4h, 2, v4f, f, 4, 0, 0, 0)
MFMA(mfma_f32_32x32x8f16, f32_32x32x8f16, 2, v4h, 2, v16f, f, 16, 0, 0, 0)
MFMA(mfma_f32_16x16x16f16, f32_16x16x16f16, 2, v4h, 2, v4f, f, 4, 0, 0, 0)
MFMA(mfma_i32_32x32x4i8, i32_32x32x4i8, 1, int, 1, v32i, i, 32, 0, 0, 0)
MFMA(mfma_i32_16x16x4i8, i32_16x16x4i8, 1, int, 1, v16i, i, 16, 0, 0, 0)
MFMA(mfma_i32_4x4x4i8, i32_4x4x4i8, 1, int, 1, v4i, i, 4, 0, 0, 0)
// Broadcast and lane-group modifiers.
MFMA(mfma_f32_4x4x1f32_cbsz2_abid3, f32_4x4x1f32, 1, float, 1, v4f, f, 4, 2, 3, 0)
MFMA(mfma_f32_16x16x4f16_blgp5, f32_16x16x4f16, 2, v4h, 2, v16f, f, 16, 0, 0, 5)
MFMA(mfma_i32_32x32x4i8_cbsz1_abid1_blgp3, i32_32x32x4i8, 1, int, 1, v32i, i, 32, 1, 1, 3)
#endif

#if defined(__gfx908__) || defined(__gfx90a__)
// gfx940 drops these (its i8 instructions take 8 values per lane; its bf16 ones are the _1k).
MFMA(mfma_f32_32x32x2bf16, f32_32x32x2bf16, 1, v2s, 1, v32f, f, 32, 0, 0, 0)
MFMA(mfma_f32_16x16x2bf16, f32_16x16x2bf16, 1, v2s, 1, v16f, f, 16, 0, 0, 0)
MFMA(mfma_f32_4x4x2bf16, f32_4x4x2bf16, 1, v2s, 1, v4f, f, 4, 0, 0, 0)
MFMA(mfma_f32_32x32x4bf16, f32_32x32x4bf16, 1, v2s, 1, v16f, f, 16, 0, 0, 0)
MFMA(mfma_f32_16x16x8bf16, f32_16x16x8bf16, 1, v2s, 1, v4f, f, 4, 0, 0, 0)
MFMA(mfma_i32_32x32x8i8, i32_32x32x8i8, 1, int, 1, v16i, i, 16, 0, 0, 0)
MFMA(mfma_i32_16x16x16i8, i32_16x16x16i8, 1, int, 1, v4i, i, 4, 0, 0, 0)
#endif

#if defined(__gfx90a__) || defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__)
MFMA(mfma_f32_32x32x4bf16_1k, f32_32x32x4bf16_1k, 2, v4s, 2, v32f, f, 32, 0, 0, 0)
MFMA(mfma_f32_16x16x4bf16_1k, f32_16x16x4bf16_1k, 2, v4s, 2, v16f, f, 16, 0, 0, 0)
MFMA(mfma_f32_4x4x4bf16_1k, f32_4x4x4bf16_1k, 2, v4s, 2, v4f, f, 4, 0, 0, 0)
MFMA(mfma_f32_32x32x8bf16_1k, f32_32x32x8bf16_1k, 2, v4s, 2, v16f, f, 16, 0, 0, 0)
MFMA(mfma_f32_16x16x16bf16_1k, f32_16x16x16bf16_1k, 2, v4s, 2, v4f, f, 4, 0, 0, 0)
MFMA(mfma_f64_16x16x4f64, f64_16x16x4f64, 2, double, 2, v4d, d, 4, 0, 0, 0)
__kernel void mfma_f64_4x4x4f64(__global uint *out, __global const uint *in) {
    double a = as_double(R2(0)), b = as_double(R2(2)), c = as_double(R2(4));
    double d = __builtin_amdgcn_mfma_f64_4x4x4f64(a, b, c, 0, 0, 0);
    ulong x = as_ulong(d);
    out[LANE] = (uint)x;
    out[64 + LANE] = (uint)(x >> 32);
}
#endif

#if defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__)
MFMA(mfma_i32_32x32x16_i8, i32_32x32x16_i8, 2, long, 2, v16i, i, 16, 0, 0, 0)
MFMA(mfma_i32_16x16x32_i8, i32_16x16x32_i8, 2, long, 2, v4i, i, 4, 0, 0, 0)
MFMA(mfma_f32_16x16x8_xf32, f32_16x16x8_xf32, F2, v2f, 2, v4f, f, 4, 0, 0, 0)
MFMA(mfma_f32_32x32x4_xf32, f32_32x32x4_xf32, F2, v2f, 2, v16f, f, 16, 0, 0, 0)
MFMA(mfma_f32_16x16x32_bf8_bf8, f32_16x16x32_bf8_bf8, 2, long, 2, v4f, f, 4, 0, 0, 0)
MFMA(mfma_f32_16x16x32_bf8_fp8, f32_16x16x32_bf8_fp8, 2, long, 2, v4f, f, 4, 0, 0, 0)
MFMA(mfma_f32_16x16x32_fp8_bf8, f32_16x16x32_fp8_bf8, 2, long, 2, v4f, f, 4, 0, 0, 0)
MFMA(mfma_f32_16x16x32_fp8_fp8, f32_16x16x32_fp8_fp8, 2, long, 2, v4f, f, 4, 0, 0, 0)
MFMA(mfma_f32_32x32x16_bf8_bf8, f32_32x32x16_bf8_bf8, 2, long, 2, v16f, f, 16, 0, 0, 0)
MFMA(mfma_f32_32x32x16_bf8_fp8, f32_32x32x16_bf8_fp8, 2, long, 2, v16f, f, 16, 0, 0, 0)
MFMA(mfma_f32_32x32x16_fp8_bf8, f32_32x32x16_fp8_bf8, 2, long, 2, v16f, f, 16, 0, 0, 0)
MFMA(mfma_f32_32x32x16_fp8_fp8, f32_32x32x16_fp8_fp8, 2, long, 2, v16f, f, 16, 0, 0, 0)
#endif
