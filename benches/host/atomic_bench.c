/* The atomics benchmark (scripts/bench-atomics.sh): a 256-bin histogram of N random keys' low
 * bytes with atomics, as GPU programs count, through plain HSA (no HIP needed).
 *
 *   atomic_bench CODE_OBJECT [KEYS]
 *
 * CODE_OBJECT is benches/kernels/atomic_kernels.cl built for the GPU agent; KEYS defaults to
 * 2^22. Two kernels: histogram_local (256 work-groups of 256 count into bins in LDS with
 * `ds_add_u32`, then add them to the global bins with `global_atomic_add`) and
 * histogram_global (one `global_atomic_add` per key, one work-item per key). Each runs once to
 * compile, then 9 times; prints one `ATOMIC_BENCH kernel=... best_ms=... median_ms=...` line per
 * kernel and checks every run's bins against the host's count (exit 1 on a difference). */
#include "../../tests/c/common/aql_kernels.h"

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: atomic_bench CODE_OBJECT [KEYS]\n");
        return 2;
    }
    uint32_t n = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 1u << 22;
    if (n < 256 || n > 1u << 28) {
        fprintf(stderr, "atomic_bench: KEYS must be 256..2^28\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    ak_init(argv[1]);
    uint32_t *keys = ak_alloc((size_t)n * 4), *bins = ak_alloc(256 * 4);
    uint32_t want[256] = {0}, x = 1;
    for (uint32_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        keys[i] = x;
        want[x & 255]++;
    }
    hsa_queue_t *q;
    AK_CHECK(hsa_queue_create(ak_gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX,
                              &q));
    hsa_signal_t done;
    AK_CHECK(hsa_signal_create(1, 0, NULL, &done));
    struct {
        uint32_t *keys, *bins;
        uint32_t n;
    } a = {keys, bins, n};
    int failures = 0;
    const char *names[] = {"histogram_local", "histogram_global"};
    for (int k = 0; k < 2; k++) {
        struct ak_kernel kern = ak_kernel(names[k]);
        void *args = ak_args(&kern, &a, sizeof a);
        uint32_t grid = k == 0 ? 256 * 256 : (n + 255) / 256 * 256;
        double ms[10];
        for (int r = 0; r < 10; r++) {
            memset(bins, 0, 256 * 4);
            hsa_signal_store_relaxed(done, 1);
            double t0 = ak_now_us();
            ak_dispatch(q, &kern, args, grid, 256, done, true);
            ak_wait(done);
            ms[r] = (ak_now_us() - t0) / 1e3;
            if (memcmp(bins, want, sizeof want) != 0)
                failures++;
        }
        /* (Run 0 compiled the kernel.) */
        qsort(ms + 1, 9, sizeof *ms, cmp_double);
        printf("ATOMIC_BENCH kernel=%s keys=%u best_ms=%.3f median_ms=%.3f check=%s\n", names[k], n,
               ms[1], ms[5], failures ? "FAIL" : "ok");
    }
    return failures ? 1 : 0;
}
