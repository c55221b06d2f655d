/* The benchmarks on softhsa: the corpus harness's HSA back end (tests/corpus/harness.c) loads
 * argv[1], a gfx906 code object, through libhsa-runtime64.so.1 and dispatches on a GPU agent's
 * queue. $SOFTHSA_WORKERS sets softhsa's worker threads (scripts/bench.sh --workers). */
#include "bench_gpu.h"

void corpus_case(corpus_t *c) { bench_gpu_case(c, "softhsa"); }
