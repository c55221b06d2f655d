#include "harness.h"

typedef float float4_t __attribute__((vector_size(16)));

void corpus_case(corpus_t *c) {
    uint64_t *out = corpus_alloc(c, 16 * 8), *out2 = corpus_alloc(c, 8);
    uint32_t *marker = corpus_alloc(c, 4);
    marker[0] = 0xfeedbeefu;
    int8_t c8 = -5;
    int16_t s16 = -12345;
    int32_t i32 = -2000000000;
    int64_t i64 = -0x123456789abcLL;
    uint8_t u8 = 0xfe;
    float f32 = -3.25f;
    double f64 = 6.02214076e23;
    float4_t v4 = { 1.5f, -2.5f, 1e-3f, 7e7f };
    uint16_t u16 = 0xbeef;
    RUN1(c, "kernarg_layout", 64, 64, A_BUF(out), A_VAL(int8_t, c8), A_VAL(int16_t, s16),
         A_BUF(marker), A_VAL(int32_t, i32), A_VAL(int64_t, i64), A_VAL(uint8_t, u8),
         A_VAL(float, f32), A_VAL(double, f64), corpus_val(&v4, 16), A_VAL(uint16_t, u16),
         A_BUF(out2));
    uint64_t want[13];
    uint32_t u;
    want[0] = (uint64_t)(int64_t)c8;
    want[1] = (uint64_t)(int64_t)s16;
    want[2] = (uint64_t)(int64_t)i32;
    want[3] = (uint64_t)i64;
    want[4] = u8;
    memcpy(&u, &f32, 4);
    want[5] = u;
    memcpy(&want[6], &f64, 8);
    for (int k = 0; k < 4; k++) {
        float f = v4[k];
        memcpy(&u, &f, 4);
        want[7 + k] = u;
    }
    want[11] = u16;
    want[12] = 0xfeedbeefu;
    corpus_check_u64(c, "echo", out, want, 13);
    uint64_t w2 = 0x0123456789abcdefull;
    corpus_check_u64(c, "out2", out2, &w2, 1);
}
