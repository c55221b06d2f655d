#include "harness.h"

#include <stdlib.h>

void corpus_case(corpus_t *c) {
    const uint32_t n = 1000, wg = 96; /* 96: one full wave and one half wave per group */
    uint32_t *out = corpus_alloc(c, n * 16), *want = calloc(n, 16);
    for (uint32_t i = 0; i < n; i++) {
        want[4 * i] = i % wg;
        want[4 * i + 1] = i / wg;
        want[4 * i + 2] = wg;
        want[4 * i + 3] = n;
    }
    RUN1(c, "workgroup_info", n, wg, A_BUF(out), A_VAL(uint32_t, n));
    if (corpus_code_object_version(c) == 0) /* OpenCL validation: the grid was rounded up */
        for (uint32_t i = 0; i < n; i++)
            out[4 * i + 3] = n;
    corpus_check_u32(c, "info", out, want, n * 4);
    free(want);
}
