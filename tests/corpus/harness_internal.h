/* State shared by the harness back ends (not for case programs). */
#ifndef CORPUS_HARNESS_INTERNAL_H
#define CORPUS_HARNESS_INTERNAL_H

#include "harness.h"

/* Every back end's `struct corpus` starts with this. */
struct corpus_base {
    const char *program; /* argv[0] basename, for messages */
    const char *object;  /* argv[1] */
    unsigned failures;
    uint64_t rng;
};

#define CORPUS_BASE(c) ((struct corpus_base *)(c))

/* Back-end entry points used by harness_common.c's main(). */
corpus_t *corpus_backend_open(const char *program, const char *object);
void corpus_backend_close(corpus_t *c);

#endif
