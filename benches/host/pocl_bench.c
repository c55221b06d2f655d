/* The benchmarks on PoCL (the host CPU as an OpenCL device): the corpus harness's OpenCL back
 * end (tests/corpus/harness_ocl.c) builds argv[1], the same .cl source softhsa runs compiled,
 * with -DCORPUS_OPENCL, and dispatches with clEnqueueNDRangeKernel on all cores. */
#include "bench_gpu.h"

void corpus_case(corpus_t *c) { bench_gpu_case(c, "pocl"); }
