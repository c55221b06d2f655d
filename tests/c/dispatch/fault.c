/* Faulting kernels: an out-of-bounds store and s_trap (builtin and inline asm). For each: the
 * queue's error callback gets the right status, a fault report naming the kernel is printed on
 * stderr, the process lives on, and a dispatch on a NEW queue works. Built with the corpus
 * harness (tests/corpus/harness.c); argv[1] is a code object of kernels.cl. */
#include "harness.h"

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void check_fill(corpus_t *c, const char *when) {
    const uint32_t n = 300, seed = 0x1000;
    uint32_t *out = corpus_alloc(c, n * 4), want[300];
    for (uint32_t i = 0; i < n; i++)
        want[i] = i * 3 + seed;
    char what[64];
    snprintf(what, sizeof what, "fill %s", when);
    if (RUN1(c, "fill", n, 64, A_BUF(out), A_VAL(uint32_t, n), A_VAL(uint32_t, seed)) == 0)
        corpus_check_u32(c, what, out, want, n);
}

/* Runs a dispatch that must fault with stderr captured; returns the status. */
static int run_captured(corpus_t *c, const char *kernel, const corpus_arg *args, unsigned nargs,
                        char *text, size_t cap) {
    fflush(stderr);
    int saved = dup(2);
    FILE *tmp = tmpfile();
    if (saved < 0 || !tmp) {
        corpus_fail(c, "cannot capture stderr");
        return -1;
    }
    dup2(fileno(tmp), 2);
    int st = corpus_run(c, kernel, 1, (size_t[3]){ 256, 1, 1 }, (size_t[3]){ 64, 1, 1 }, args,
                        nargs);
    /* The report may be printed by another thread just after the callback: give it a moment. */
    usleep(100000);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t len = fread(text, 1, cap - 1, tmp);
    text[len] = 0;
    fclose(tmp);
    fprintf(stderr, "--- captured while running %s ---\n%s--- end ---\n", kernel, text);
    return st;
}

static void expect_fault(corpus_t *c, const char *kernel, const corpus_arg *args, unsigned nargs,
                         int status_a, int status_b) {
    static char text[1 << 16];
    int st = run_captured(c, kernel, args, nargs, text, sizeof text);
    if (st != status_a && st != status_b)
        corpus_fail(c, "%s: status %#x, want %#x or %#x", kernel, (unsigned)st,
                    (unsigned)status_a, (unsigned)status_b);
    if (!strstr(text, kernel))
        corpus_fail(c, "%s: no fault report naming the kernel on stderr", kernel);
    if (corpus_new_queue(c))
        corpus_fail(c, "%s: cannot create a new queue after the fault", kernel);
}

void corpus_case(corpus_t *c) {
    check_fill(c, "before any fault");

    uint32_t *out = corpus_alloc(c, 256 * 4);
    expect_fault(c, "oob_write",
                 CORPUS_ARGS(A_BUF(out), A_VAL(uint64_t, 1ull << 44), A_VAL(uint32_t, 256)),
                 HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION, HSA_STATUS_ERROR_MEMORY_FAULT);
    check_fill(c, "after the memory fault");

    expect_fault(c, "trap_builtin",
                 CORPUS_ARGS(A_BUF(out), A_VAL(uint32_t, 70), A_VAL(uint32_t, 256)),
                 HSA_STATUS_ERROR_EXCEPTION, HSA_STATUS_ERROR_EXCEPTION);
    check_fill(c, "after s_trap (builtin)");

    expect_fault(c, "trap_asm", CORPUS_ARGS(A_BUF(out), A_VAL(uint32_t, 3), A_VAL(uint32_t, 256)),
                 HSA_STATUS_ERROR_EXCEPTION, HSA_STATUS_ERROR_EXCEPTION);
    check_fill(c, "after s_trap (asm)");
}
