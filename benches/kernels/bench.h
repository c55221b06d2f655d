/* Shared by the benchmark kernels: work-item indexing from the corpus (amdgcn builtins under
 * -nogpulib, OpenCL built-ins under -DCORPUS_OPENCL for PoCL), plus the few math functions the
 * benchmarks need, which otherwise live in the device library. The path is relative to this
 * directory, which is also what PoCL gets as its include path (-I). */
#ifndef BENCH_KERNEL_H
#define BENCH_KERNEL_H

#include "../../tests/corpus/kernels/corpus.h"

/* Every backend computes the same IEEE single-precision operations in the same order, so the
 * integer results (Mandelbrot iteration counts) and the stencil are bit-exact everywhere. */
#pragma OPENCL FP_CONTRACT OFF

#if defined(__AMDGCN__) && !defined(CORPUS_OPENCL)
#define B_SQRT(x) __builtin_sqrtf(x)
#else
#define B_SQRT(x) sqrt(x)
#endif

#endif
