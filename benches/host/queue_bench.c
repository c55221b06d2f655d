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
 *                 order: kernels per second of both and their ratio; QUEUE_BENCH_REPS pairs
 *                 (default 3, 1 when quick) run alternately after a warm-up, medians printed
 *   one_dispatch  the same Q*K work-groups as one dispatch: the workers' ceiling for the above
 * Every small kernel's output is checked against a host computation; a wrong value fails the run
 * (exit 1). Environment: QUEUE_BENCH_QUEUES (default 16), QUEUE_BENCH_KERNELS (default 1000),
 * QUEUE_BENCH_REPS, QUEUE_BENCH_CPU_USE (set: each many-queues run also prints how busy each CPU
 * was, the steal time and each stream's time), QUEUE_BENCH_PARTS (comma-separated names of the parts to run; default all;
 * also one_queue or many_queues: one side of `queues`, for profiles), QUEUE_BENCH_CHECK=0 (skip
 * the checks of the small kernels' results: diagnostics only). */
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

/* The stream's output, kernel arguments and completion signal, allocated once and reused by
 * every repetition (reset_stream). */
static void setup_stream(struct stream *st, hsa_queue_t *q, int kernels, uint32_t seed0) {
    st->q = q;
    st->kernels = kernels;
    st->out = ak_alloc((size_t)kernels * 64 * 4);
    st->args = calloc((size_t)kernels, sizeof(void *));
    /* The kernarg segments in one block (as a runtime's kernarg ring), not one allocation
     * each: tens of thousands of small allocations made the setup slow. Zeroed: hidden
     * arguments stay 0. */
    struct {
        uint32_t *out;
        uint32_t iters, seed;
    } a;
    size_t size = k_small.kernarg_size > sizeof a ? k_small.kernarg_size : sizeof a;
    size_t stride = (size + 63) & ~(size_t)63;
    char *block = ak_alloc_in(ak_kernarg_pool, (size_t)kernels * stride);
    for (int i = 0; i < kernels; i++) {
        a.out = st->out + 64 * i;
        a.iters = small_iters;
        a.seed = seed0 + (uint32_t)i;
        st->args[i] = block + (size_t)i * stride;
        memcpy(st->args[i], &a, sizeof a);
    }
    AK_CHECK(hsa_signal_create(1, 0, NULL, &st->done));
}

/* Clears the output (so a kernel that did not run is seen) and re-arms the signal. */
static void reset_stream(struct stream *st) {
    memset(st->out, 0, (size_t)st->kernels * 64 * 4);
    hsa_signal_store_screlease(st->done, 1);
}

static bool checking = true; /* QUEUE_BENCH_CHECK=0: diagnostics only, results unchecked */

/* One thread's share of a stream's check: kernels [from, to). */
struct check_part {
    const struct stream *st;
    uint32_t seed0;
    int from, to;
    int bad;
    int first_kernel; /* the first wrong value: kernel, lane, value, expected */
    uint32_t first_lane, first_got, first_want;
};

static void *check_range(void *p) {
    struct check_part *c = p;
    for (int i = c->from; i < c->to; i++)
        for (uint32_t l = 0; l < 64; l++) {
            uint32_t want = small_ref(l, c->seed0 + (uint32_t)i), got = c->st->out[64 * i + l];
            if (got != want && c->bad++ == 0) {
                c->first_kernel = i;
                c->first_lane = l;
                c->first_got = got;
                c->first_want = want;
            }
        }
    return NULL;
}

/* Every value of the stream against the host's (the host reference is 2,000 rounds of a hash
 * per lane: on one thread it was most of the benchmark's time, so the kernels are split over
 * the host's CPUs). */
static void check_stream(const struct stream *st, uint32_t seed0) {
    enum { MAX_PARTS = 64 };
    if (!checking)
        return;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int parts = cpus < 1 ? 1 : cpus > MAX_PARTS ? MAX_PARTS : (int)cpus;
    if (parts > st->kernels)
        parts = st->kernels > 0 ? st->kernels : 1;
    struct check_part part[MAX_PARTS];
    pthread_t th[MAX_PARTS];
    bool started[MAX_PARTS] = {false};
    for (int k = 0; k < parts; k++) {
        part[k] = (struct check_part){
            .st = st,
            .seed0 = seed0,
            .from = (int)((long)st->kernels * k / parts),
            .to = (int)((long)st->kernels * (k + 1) / parts),
        };
        /* Part 0 runs on this thread; a part whose thread cannot start runs here too. */
        started[k] = k > 0 && pthread_create(&th[k], NULL, check_range, &part[k]) == 0;
    }
    for (int k = 0; k < parts; k++)
        if (!started[k])
            check_range(&part[k]);
    int bad = 0, shown = 0;
    for (int k = 0; k < parts; k++) {
        if (started[k])
            pthread_join(th[k], NULL);
        bad += part[k].bad;
        if (part[k].bad && shown++ < 3)
            fprintf(stderr, "queue_bench: kernel %d lane %u: %#x, want %#x\n", part[k].first_kernel,
                    part[k].first_lane, part[k].first_got, part[k].first_want);
    }
    if (bad) {
        fprintf(stderr, "queue_bench: %d wrong values\n", bad);
        failures++;
    }
}

/* Kernels per second of the stream's kernels in order on its queue, submitted by this thread
 * (the ring holds 1024: it waits for room as HIP does). */
static double one_queue_rate(struct stream *one) {
    reset_stream(one);
    double t0 = ak_now_us();
    run_stream(one);
    return one->kernels / ((ak_now_us() - t0) / 1e6);
}

struct timed_stream {
    struct stream st;
    double t0, us; /* start of the run, this stream's time to its last completion */
};

static void *run_timed(void *p) {
    struct timed_stream *t = p;
    run_stream(&t->st);
    t->us = ak_now_us() - t->t0;
    return NULL;
}

/* Per-CPU jiffies from /proc/stat: busy (all but idle and iowait) and steal (time the
 * hypervisor gave the vCPU to someone else). Returns the CPUs read (0 without /proc/stat). */
#define MAX_CPUS 256
static int cpu_times(unsigned long long *busy, unsigned long long *steal) {
    FILE *f = fopen("/proc/stat", "r");
    if (!f)
        return 0;
    char line[512];
    int n = 0;
    while (n < MAX_CPUS && fgets(line, sizeof line, f)) {
        unsigned long long v[8] = {0};
        int cpu;
        if (strncmp(line, "cpu", 3) != 0 || line[3] < '0' || line[3] > '9')
            continue; /* the "cpu " total line, or another line */
        if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1], &v[2],
                   &v[3], &v[4], &v[5], &v[6], &v[7]) < 9)
            continue;
        busy[n] = v[0] + v[1] + v[2] + v[5] + v[6];
        steal[n] = v[7];
        n++;
    }
    fclose(f);
    return n;
}

/* How the CPUs were used between two cpu_times readings: the least and most busy CPU and the
 * most stolen one, in percent of the elapsed time (a CPU idle while streams lag: threads
 * stacked on others; every CPU busy: slower CPUs). */
static void print_cpu_use(const char *what, unsigned long long *b0, unsigned long long *s0, int n,
                          double us) {
    unsigned long long b1[MAX_CPUS], s1[MAX_CPUS];
    if (n == 0 || cpu_times(b1, s1) != n)
        return;
    double hz = (double)sysconf(_SC_CLK_TCK), ticks = us / 1e6 * hz;
    double lo = 1e9, hi = 0, st = 0;
    char all[2048] = "";
    for (int i = 0; i < n; i++) {
        double b = 100.0 * (double)(b1[i] - b0[i]) / ticks, t = 100.0 * (double)(s1[i] - s0[i]) / ticks;
        lo = b < lo ? b : lo;
        hi = b > hi ? b : hi;
        st = t > st ? t : st;
        size_t len = strlen(all);
        snprintf(all + len, sizeof all - len, "%s%.0f", i ? "," : "", b);
    }
    printf("QUEUE_BENCH cpu_use %s busy_min=%.0f%% busy_max=%.0f%% steal_max=%.0f%% busy=%s\n",
           what, lo, hi, st, all);
}


/* Kernels per second of `nq` streams, each on its own queue with its own host thread, running
 * their kernels in order; `spread` gets the slowest stream's time over the fastest one's. */
static double many_queues_rate(struct timed_stream *st, int nq, double *spread) {
    pthread_t *th = calloc((size_t)nq, sizeof *th);
    int total = 0;
    for (int i = 0; i < nq; i++) {
        reset_stream(&st[i].st);
        total += st[i].st.kernels;
    }
    unsigned long long b0[MAX_CPUS], s0[MAX_CPUS];
    int ncpu = cpu_times(b0, s0);
    double t0 = ak_now_us();
    for (int i = 0; i < nq; i++) {
        st[i].t0 = t0;
        pthread_create(&th[i], NULL, run_timed, &st[i]);
    }
    for (int i = 0; i < nq; i++)
        pthread_join(th[i], NULL);
    double us = ak_now_us() - t0, rate = total / (us / 1e6);
    if (getenv("QUEUE_BENCH_CPU_USE")) {
        print_cpu_use("many_queues", b0, s0, ncpu, us);
        char times[1024] = "";
        for (int i = 0; i < nq; i++) {
            size_t len = strlen(times);
            snprintf(times + len, sizeof times - len, "%s%.1f", i ? "," : "", st[i].us / 1e3);
        }
        printf("QUEUE_BENCH stream_ms %s\n", times);
    }
    double lo = 1e300, hi = 0;
    for (int i = 0; i < nq; i++) {
        lo = st[i].us < lo ? st[i].us : lo;
        hi = st[i].us > hi ? st[i].us : hi;
    }
    *spread = hi / lo;
    free(th);
    return rate;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One queue running nq*per_queue kernels in order against nq queues running per_queue each,
 * `reps` times alternately after a warm-up (which compiles the kernel); medians and every
 * sample are printed, every repetition's results checked. */
static void queues(int nq, int per_queue, int reps, bool do_one, bool do_many) {
    int total = nq * per_queue;
    struct stream one, warm;
    setup_stream(&one, new_queue(1024), total, 1);
    setup_stream(&warm, one.q, per_queue < 100 ? per_queue : 100, 7);
    struct timed_stream *st = calloc((size_t)nq, sizeof *st);
    for (int i = 0; i < nq; i++)
        setup_stream(&st[i].st, new_queue(1024), per_queue, 1000000u * (uint32_t)(i + 1));
    one_queue_rate(&warm);
    check_stream(&warm, 7);
    double *one_r = calloc((size_t)reps, sizeof *one_r);
    double *many_r = calloc((size_t)reps, sizeof *many_r);
    double *spread = calloc((size_t)reps, sizeof *spread);
    char samples[512] = "";
    for (int r = 0; r < reps; r++) {
        one_r[r] = many_r[r] = 1;
        if (do_one) {
            one_r[r] = one_queue_rate(&one);
            check_stream(&one, 1);
        }
        if (do_many) {
            many_r[r] = many_queues_rate(st, nq, &spread[r]);
            for (int i = 0; i < nq; i++)
                check_stream(&st[i].st, 1000000u * (uint32_t)(i + 1));
        }
        size_t len = strlen(samples);
        snprintf(samples + len, sizeof samples - len, "%s%.0f/%.0f/%.2f", r ? "," : "", one_r[r],
                 many_r[r], spread[r]);
    }
    double one_med = median(one_r, reps), many_med = median(many_r, reps);
    printf("QUEUE_BENCH queues queues=%d kernels=%d one_queue_per_s=%.0f many_queues_per_s=%.0f "
           "ratio=%.2f reps=%d samples(one/many/stream_spread)=%s\n",
           nq, per_queue, one_med, many_med, many_med / one_med, reps, samples);
    fflush(stdout);
    for (int i = 0; i < nq; i++)
        hsa_queue_destroy(st[i].st.q);
    hsa_queue_destroy(one.q);
    free(st);
    free(one_r);
    free(many_r);
    free(spread);
}

/* The same nq*per_queue work-groups as one dispatch of one queue: what the workers sustain
 * without any per-kernel cost (the ceiling of the queues figure; SOFTHSA_WORKERS=1 gives the
 * serial cost of one work-group). */
static void one_dispatch(int total) {
    hsa_queue_t *q = new_queue(256);
    uint32_t *out = ak_alloc((size_t)total * 64 * 4);
    struct {
        uint32_t *out;
        uint32_t iters, seed;
    } a = {out, small_iters, 5};
    void *args = ak_args(&k_small, &a, sizeof a);
    hsa_signal_t s;
    AK_CHECK(hsa_signal_create(1, 0, NULL, &s));
    double best = 0;
    for (int rep = 0; rep < 3; rep++) {
        hsa_signal_store_relaxed(s, 1);
        double t0 = ak_now_us();
        ak_dispatch(q, &k_small, args, (uint32_t)total * 64, 64, s, true);
        ak_wait(s);
        double rate = total / ((ak_now_us() - t0) / 1e6);
        best = rate > best ? rate : best;
    }
    int bad = 0;
    for (int i = 0; i < total * 64; i++)
        if (out[i] != small_ref((uint32_t)i, 5) && bad++ < 3)
            fprintf(stderr, "queue_bench: one dispatch: item %d: %#x, want %#x\n", i, out[i],
                    small_ref((uint32_t)i, 5));
    if (bad)
        failures++;
    printf("QUEUE_BENCH one_dispatch workgroups=%d per_s=%.0f (best of 3)\n", total, best);
    fflush(stdout);
    hsa_signal_destroy(s);
    hsa_queue_destroy(q);
}

static bool part(const char *parts, const char *name) {
    if (!parts)
        return true;
    size_t n = strlen(name);
    for (const char *p = parts; (p = strstr(p, name)) != NULL; p += n)
        if ((p == parts || p[-1] == ',') && (p[n] == 0 || p[n] == ','))
            return true;
    return false;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: queue_bench CODE_OBJECT [quick]\n");
        return 2;
    }
    bool quick = argc > 2 && strcmp(argv[2], "quick") == 0;
    setvbuf(stdout, NULL, _IOLBF, 0); /* each figure out as it is measured */
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
    e = getenv("QUEUE_BENCH_REPS");
    int reps = e ? atoi(e) : (quick ? 1 : 3);
    if (reps < 1 || reps > 20) {
        fprintf(stderr, "queue_bench: bad QUEUE_BENCH_REPS\n");
        return 2;
    }
    const char *parts = getenv("QUEUE_BENCH_PARTS");
    if (part(parts, "roundtrip"))
        roundtrip(quick ? 2000 : 20000);
    if (part(parts, "back_to_back"))
        back_to_back(quick ? 5000 : 50000);
    e = getenv("QUEUE_BENCH_CHECK");
    checking = !e || strcmp(e, "0") != 0;
    bool both = part(parts, "queues");
    bool do_one = both || part(parts, "one_queue"), do_many = both || part(parts, "many_queues");
    if (do_one || do_many)
        queues(nq, per_queue, reps, do_one, do_many);
    if (part(parts, "one_dispatch"))
        one_dispatch(nq * per_queue);
    if (failures) {
        printf("QUEUE_BENCH check=FAIL\n");
        return 1;
    }
    printf("QUEUE_BENCH check=ok\n");
    return 0;
}
