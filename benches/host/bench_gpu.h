/* The benchmark body shared by the two programs that run the OpenCL C kernels through the corpus
 * harness (tests/corpus/harness.h): softhsa_bench.c (HSA back end, code objects) and
 * pocl_bench.c (OpenCL back end, sources). */
#ifndef BENCH_GPU_H
#define BENCH_GPU_H

#include "harness.h"

/* Runs the kernel named by $BENCH_KERNEL: fills its inputs, dispatches it once to warm up and
 * then bench_runs() times, each timed from dispatch to completion, checks the last run's output
 * against the host reference and prints the BENCH line for `backend`. A failed dispatch or check
 * is a failed case (exit status 1). */
void bench_gpu_case(corpus_t *c, const char *backend);

#endif
