/* The queue benchmark (scripts/bench-queues.sh): how fast packets go through AQL queues.
 *
 *   queue_bench CODE_OBJECT [quick]
 *
 * CODE_OBJECT is benches/kernels/queue_kernels.cl built for the GPU agent. Three measurements,
 * each printed as one `QUEUE_BENCH name key=value...` line:
 *   roundtrip     an empty kernel (one work-group of 64): write the packet, ring the doorbell,
 *                 wait for its completion signal; median, p10 and p90 of many, after a warm-up
 *   back_to_back  empty dispatches without the barrier bit written one after another into one
 *                 queue (doorbell rung for each, as HIP does), the last one with the barrier bit
 *                 and a completion signal: dispatches per second from the first write to the end
 *   queues        Q host threads, each with its own queue, each submitting K small kernels (one
 *                 work-group, barrier bit set: in order), against one queue running all Q*K in
 *                 order: kernels per second of both and their ratio
 * Every small kernel's output is checked against a host computation; a wrong value fails the run
 * (exit 1). Environment: QUEUE_BENCH_QUEUES (default 16), QUEUE_BENCH_KERNELS (default 1000). */
#include "../../tests/c/common/aql_kernels.h"

#include <pthread.h>

static struct ak_kernel k_empty, k_small;
static uint32_t small_iters = 2000;
static int failures;

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static hsa_queue_t *new_queue(uint32_t size) {
    hsa_queue_t *q;
    AK_CHECK(hsa_queue_create(ak_gpu, size, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                              UINT32_MAX, &q));
    return q;
}

static void roundtrip(int iters) {
    hsa_queue_t *q = new_queue(256);
    hsa_signal_t s;
    AK_CHECK(hsa_signal_create(1, 0, NULL, &s));
    void *args = ak_args(&k_empty, NULL, 0);
    double *us = calloc((size_t)iters, sizeof *us);
    for (int i = -iters / 4; i < iters; i++) {
        hsa_signal_store_relaxed(s, 1);
        double t0 = ak_now_us();
        ak_dispatch(q, &k_empty, args, 64, 64, s, true);
        ak_wait(s);
        double t1 = ak_now_us();
        if (i >= 0)
            us[i] = t1 - t0;
    }
    qsort(us, (size_t)iters, sizeof *us, cmp_double);
    printf("QUEUE_BENCH roundtrip median_us=%.2f p10_us=%.2f p90_us=%.2f n=%d\n", us[iters / 2],
           us[iters / 10], us[iters * 9 / 10], iters);
    free(us);
    hsa_signal_destroy(s);
    hsa_queue_destroy(q);
}

static void back_to_back(int n) {
    hsa_queue_t *q = new_queue(4096);
    hsa_signal_t s;
    AK_CHECK(hsa_signal_create(1, 0, NULL, &s));
    void *args = ak_args(&k_empty, NULL, 0);
    double best = 0;
    for (int rep = 0; rep < 3; rep++) {
        hsa_signal_store_relaxed(s, 1);
        hsa_signal_t none = {0};
        double t0 = ak_now_us();
        for (int i = 0; i < n; i++) {
            bool last = i == n - 1;
            ak_dispatch(q, &k_empty, args, 64, 64, last ? s : none, last);
        }
        ak_wait(s);
        double rate = n / ((ak_now_us() - t0) / 1e6);
        if (rate > best)
            best = rate;
    }
    printf("QUEUE_BENCH back_to_back per_s=%.0f n=%d (best of 3)\n", best, n);
    hsa_signal_destroy(s);
    hsa_queue_destroy(q);
}

static uint32_t small_ref(uint32_t i, uint32_t seed) {
    uint32_t x = i * 2654435761u + seed;
    for (uint32_t k = 0; k < small_iters; k++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x += k;
    }
    return x;
}

struct stream {
    hsa_queue_t *q;
    int kernels;
    uint32_t *out; /* 64 words per kernel */
    void **args;
    hsa_signal_t done;
};

/* Submits the stream's kernels in order (barrier bit) and waits for the last. */
static void *run_stream(void *p) {
    struct stream *st = p;
    hsa_signal_t none = {0};
    for (int i = 0; i < st->kernels; i++) {
        bool last = i == st->kernels - 1;
        ak_dispatch(st->q, &k_small, st->args[i], 64, 64, last ? st->done : none, true);
    }
    ak_wait(st->done);
    return NULL;
}

static void setup_stream(struct stream *st, hsa_queue_t *q, int kernels, uint32_t seed0) {
    st->q = q;
    st->kernels = kernels;
    st->out = ak_alloc((size_t)kernels * 64 * 4);
    st->args = calloc((size_t)kernels, sizeof(void *));
    for (int i = 0; i < kernels; i++) {
        struct {
            uint32_t *out;
            uint32_t iters, seed;
        } a = {st->out + 64 * i, small_iters, seed0 + (uint32_t)i};
        st->args[i] = ak_args(&k_small, &a, sizeof a);
    }
    AK_CHECK(hsa_signal_create(1, 0, NULL, &st->done));
}

static void check_stream(const struct stream *st, uint32_t seed0) {
    int bad = 0;
    for (int i = 0; i < st->kernels; i++)
        for (uint32_t l = 0; l < 64; l++) {
            uint32_t want = small_ref(l, seed0 + (uint32_t)i), got = st->out[64 * i + l];
            if (got != want && bad++ < 3)
                fprintf(stderr, "queue_bench: kernel %d lane %u: %#x, want %#x\n", i, l, got, want);
        }
    if (bad) {
        fprintf(stderr, "queue_bench: %d wrong values\n", bad);
        failures++;
    }
}

static void queues(int nq, int per_queue) {
    /* One queue, every kernel in order. */
    struct stream one;
    hsa_queue_t *q1 = new_queue(1024);
    int total = nq * per_queue;
    setup_stream(&one, q1, total, 1);
    double t0 = ak_now_us();
    for (int i = 0; i < total; i++) { /* the ring holds 1024: wait for room as HIP does */
        bool last = i == total - 1;
        hsa_signal_t none = {0};
        ak_dispatch(q1, &k_small, one.args[i], 64, 64, last ? one.done : none, true);
    }
    ak_wait(one.done);
    double one_rate = total / ((ak_now_us() - t0) / 1e6);
    check_stream(&one, 1);

    /* nq queues, one host thread each. */
    struct stream *st = calloc((size_t)nq, sizeof *st);
    pthread_t *th = calloc((size_t)nq, sizeof *th);
    for (int i = 0; i < nq; i++)
        setup_stream(&st[i], new_queue(1024), per_queue, 1000000u * (uint32_t)(i + 1));
    t0 = ak_now_us();
    for (int i = 0; i < nq; i++)
        pthread_create(&th[i], NULL, run_stream, &st[i]);
    for (int i = 0; i < nq; i++)
        pthread_join(th[i], NULL);
    double many_rate = total / ((ak_now_us() - t0) / 1e6);
    for (int i = 0; i < nq; i++)
        check_stream(&st[i], 1000000u * (uint32_t)(i + 1));
    printf("QUEUE_BENCH queues queues=%d kernels=%d one_queue_per_s=%.0f many_queues_per_s=%.0f "
           "ratio=%.2f\n",
           nq, per_queue, one_rate, many_rate, many_rate / one_rate);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: queue_bench CODE_OBJECT [quick]\n");
        return 2;
    }
    bool quick = argc > 2 && strcmp(argv[2], "quick") == 0;
    ak_init(argv[1]);
    k_empty = ak_kernel("empty");
    k_small = ak_kernel("small");
    const char *e = getenv("QUEUE_BENCH_QUEUES");
    int nq = e ? atoi(e) : 16;
    e = getenv("QUEUE_BENCH_KERNELS");
    int per_queue = e ? atoi(e) : (quick ? 100 : 1000);
    if (nq < 1 || per_queue < 1) {
        fprintf(stderr, "queue_bench: bad QUEUE_BENCH_QUEUES/KERNELS\n");
        return 2;
    }
    roundtrip(quick ? 2000 : 20000);
    back_to_back(quick ? 5000 : 50000);
    queues(nq, per_queue);
    if (failures) {
        printf("QUEUE_BENCH check=FAIL\n");
        return 1;
    }
    printf("QUEUE_BENCH check=ok\n");
    return 0;
}
