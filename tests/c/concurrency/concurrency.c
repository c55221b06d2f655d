/* Concurrency of AQL queues on softhsa, through plain HSA (Debian's hsa.h only):
 *
 *   concurrency CODE_OBJECT TEST...      (CODE_OBJECT: kernels.cl built for the agent)
 *
 *   inorder    500 dependent kernels with the barrier bit (some barrier-AND packets between):
 *              each starts only after the previous ended, whichever thread launches it
 *   overlap    a packet without the barrier bit overtakes a blocked one (it completes, the
 *              read index stays at the blocked one); one with the barrier bit never does
 *   gridsync   grid-wide barriers (GWS) across many more work-groups than workers
 *   spinlock   a global spin lock taken by every work-group, with and without s_sleep
 *   chain      work-group k waits for work-group k+1 (the first ones wait for unstarted ones)
 *   preempt    a kernel whose work-groups spin on every worker does not keep a kernel of
 *              another queue from completing
 *   priority   the same work on a low- and a high-priority queue: the high one ends first
 *   coop       cooperative queues: agent attribute, creation, queue type
 *   destroy    destroying a queue whose kernel never ends (spinning, on the processor or the
 *              workers) returns; the kernel is cancelled, its completion signal untouched
 *   multigrid  HIP's multi-grid sync over every GPU agent (SOFTHSA_GPUS=2)
 *
 * Every wait has a timeout: a scheduler that starves a participant fails the test instead of
 * hanging it. Prints "PASS <test>" per test; exit status 0 when all passed. */
#include "../common/aql_kernels.h"

#define TIMEOUT_NS 30000000000ull /* 30 s: generous for a loaded 2-core machine */

static int failures;
#define EXPECT(cond, ...)                                                                  \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            failures++;                                                                    \
            fprintf(stderr, "%s:%d: expected %s: ", __FILE__, __LINE__, #cond);            \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
        }                                                                                  \
    } while (0)

static hsa_queue_t *queue_on(unsigned g, uint32_t size) {
    hsa_queue_t *q;
    AK_CHECK(hsa_queue_create(ak_gpus[g], size, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                              UINT32_MAX, &q));
    return q;
}

static hsa_signal_t signal1(void) {
    hsa_signal_t s;
    AK_CHECK(hsa_signal_create(1, 0, NULL, &s));
    return s;
}

/* Waits up to `ns` for s < 1; returns whether it got there. */
static bool wait_done(hsa_signal_t s, uint64_t ns) {
    return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, ns,
                                     HSA_WAIT_STATE_BLOCKED) < 1;
}

static void set_flag(volatile uint32_t *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELEASE); }

/* Args of wait_flag(flag, out, value, sleep). */
static void *wait_flag_args(const struct ak_kernel *k, uint32_t *flag, uint32_t *out,
                            uint32_t value, uint32_t sleep) {
    struct {
        uint32_t *flag, *out;
        uint32_t value, sleep;
    } a = {flag, out, value, sleep};
    return ak_args(k, &a, sizeof a);
}

static void *store_value_args(const struct ak_kernel *k, uint32_t *out, uint32_t value) {
    struct {
        uint32_t *out;
        uint32_t value;
    } a = {out, value};
    return ak_args(k, &a, sizeof a);
}

/* Packets 0 (blocked) and 1 written before the doorbell rings once. */
static void overlap_case(bool barrier, uint32_t sleep) {
    struct ak_kernel wf = ak_kernel("wait_flag"), sv = ak_kernel("store_value");
    hsa_queue_t *q = queue_on(0, 64);
    uint32_t *mem = ak_alloc(64);
    uint32_t *flag = &mem[0], *out0 = &mem[1], *out1 = &mem[2];
    hsa_signal_t s0 = signal1(), s1 = signal1();
    uint64_t i0 = ak_reserve(q), i1 = ak_reserve(q);
    ak_write(q, i0, &wf, wait_flag_args(&wf, flag, out0, 10, sleep), 64, 64, s0, false);
    ak_write(q, i1, &sv, store_value_args(&sv, out1, 20), 64, 64, s1, barrier);
    hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)i1);
    if (!barrier) {
        EXPECT(wait_done(s1, TIMEOUT_NS), "packet 1 (no barrier bit) completes first");
        EXPECT(__atomic_load_n(out1, __ATOMIC_ACQUIRE) == 20, "out1 %u", *out1);
        EXPECT(hsa_signal_load_scacquire(s0) == 1, "packet 0 still runs");
        EXPECT(hsa_queue_load_read_index_scacquire(q) == i0,
               "read index %lu stays at the running packet %lu",
               (unsigned long)hsa_queue_load_read_index_scacquire(q), (unsigned long)i0);
    } else {
        EXPECT(!wait_done(s1, 200000000ull), "packet 1 (barrier bit) waits for packet 0");
        EXPECT(*out1 == 0, "out1 untouched (%u)", *out1);
    }
    set_flag(flag);
    EXPECT(wait_done(s0, TIMEOUT_NS), "packet 0 completes once released");
    EXPECT(wait_done(s1, TIMEOUT_NS), "packet 1 completes");
    EXPECT(*out0 == 10 && *out1 == 20, "outputs %u %u", *out0, *out1);
    EXPECT(hsa_queue_load_read_index_scacquire(q) == i1 + 1, "read index past both");
    hsa_queue_destroy(q);
}

static void test_overlap(void) {
    overlap_case(false, 1);
    overlap_case(false, 0); /* the blocked kernel spins without s_sleep */
    overlap_case(true, 1);
}

static void test_inorder(void) {
    struct ak_kernel k = ak_kernel("add_one");
    const uint32_t n = 8 * 64, kernels = 500;
    uint32_t *buf = ak_alloc(n * 4);
    struct {
        uint32_t *buf;
    } a = {buf};
    void *args = ak_args(&k, &a, sizeof a);
    hsa_queue_t *q = queue_on(0, 128);
    hsa_signal_t done = signal1(), none = {0};
    for (uint32_t i = 0; i < kernels; i++) {
        ak_dispatch(q, &k, args, n, 64, i == kernels - 1 ? done : none, true);
        if (i % 50 == 25) { /* a packet for the processor in the middle of the chain */
            uint64_t idx = ak_reserve(q);
            hsa_barrier_and_packet_t *b =
                (hsa_barrier_and_packet_t *)((char *)q->base_address + (idx % q->size) * 64);
            memset((char *)b + 4, 0, 60);
            __atomic_store_n((uint32_t *)b, ak_header(HSA_PACKET_TYPE_BARRIER_AND, true),
                             __ATOMIC_RELEASE);
            hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
        }
    }
    EXPECT(wait_done(done, TIMEOUT_NS), "the chain completes");
    int bad = 0;
    for (uint32_t i = 0; i < n; i++)
        bad += buf[i] != kernels;
    EXPECT(bad == 0, "%d work-items counted wrong (buf[0] = %u, want %u)", bad, buf[0], kernels);
    EXPECT(hsa_queue_load_read_index_scacquire(q) == hsa_queue_load_write_index_scacquire(q),
           "every packet consumed");
    hsa_queue_destroy(q);
}

/* Runs gws_init(n) then `k` with n work-groups of `wg` on queue q (barrier bits set). */
static void coop_launch(hsa_queue_t *q, unsigned g, const struct ak_kernel *k, void *args,
                        uint32_t n, uint16_t wg, hsa_signal_t done) {
    struct ak_kernel init = ak_kernel_on(g, "gws_init");
    uint32_t count = n;
    hsa_signal_t none = {0};
    ak_dispatch(q, &init, ak_args(&init, &count, sizeof count), 1, 1, none, true);
    ak_dispatch(q, k, args, n * wg, wg, done, true);
}

static void test_gridsync(void) {
    struct ak_kernel k = ak_kernel("grid_rounds");
    const uint32_t n = 96, wg = 128, rounds = 4, total = n * wg;
    uint32_t *slots = ak_alloc(total * 4), *out = ak_alloc(total * 4);
    struct {
        uint32_t *slots, *out;
        uint32_t rounds;
    } a = {slots, out, rounds};
    hsa_queue_t *q = queue_on(0, 64);
    hsa_signal_t done = signal1();
    coop_launch(q, 0, &k, ak_args(&k, &a, sizeof a), n, wg, done);
    EXPECT(wait_done(done, TIMEOUT_NS), "grid_rounds completes");
    int bad = 0;
    for (uint32_t g = 0; g < total; g++) {
        uint32_t other = (g + 3 * wg + 1) % total, want = 0;
        for (uint32_t r = 0; r < rounds; r++)
            want += (r * 7919u + other) ^ r;
        if (out[g] != want && bad++ < 3)
            fprintf(stderr, "gridsync: out[%u] = %u, want %u\n", g, out[g], want);
    }
    EXPECT(bad == 0, "%d work-items read stale values across a grid sync", bad);
    hsa_queue_destroy(q);
}

static void run_one(const char *kernel, void *args, uint32_t n, uint16_t wg) {
    struct ak_kernel k = ak_kernel(kernel);
    hsa_queue_t *q = queue_on(0, 64);
    hsa_signal_t done = signal1();
    ak_dispatch(q, &k, args, n * wg, wg, done, true);
    EXPECT(wait_done(done, TIMEOUT_NS), "%s completes", kernel);
    hsa_queue_destroy(q);
}

static void test_spinlock(void) {
    struct ak_kernel k = ak_kernel("spin_lock");
    for (uint32_t sleep = 0; sleep < 2; sleep++) {
        const uint32_t n = 48, iters = 20;
        uint32_t *mem = ak_alloc(64);
        struct {
            uint32_t *lock, *counter;
            uint32_t iters, sleep;
        } a = {&mem[0], &mem[8], iters, sleep};
        run_one("spin_lock", ak_args(&k, &a, sizeof a), n, 64);
        EXPECT(mem[8] == n * iters, "counter %u, want %u (sleep %u)", mem[8], n * iters, sleep);
    }
}

static void test_chain(void) {
    struct ak_kernel k = ak_kernel("chain");
    for (uint32_t sleep = 0; sleep < 2; sleep++) {
        const uint32_t n = sleep ? 40 : 6;
        uint32_t *flags = ak_alloc(n * 4);
        struct {
            uint32_t *flags;
            uint32_t sleep;
        } a = {flags, sleep};
        run_one("chain", ak_args(&k, &a, sizeof a), n, 64);
        for (uint32_t i = 0; i < n; i++)
            EXPECT(flags[i] == i + 1, "flags[%u] = %u (sleep %u)", i, flags[i], sleep);
    }
}

/* Work-groups per host core for kernels that must occupy every worker. */
static uint32_t many_groups(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return (uint32_t)(cores > 0 ? cores : 1) * 4;
}

/* Every worker is taken by spinning (no s_sleep) work-groups of queue A: one wave each
 * (`wait_flag`), or two that meet at barriers between their looks (`wait_flag_barrier`,
 * whose rounds all end with a barrier every wave reached); queue B's kernel still runs. */
static void preempt_case(bool barriers) {
    struct ak_kernel wf = ak_kernel(barriers ? "wait_flag_barrier" : "wait_flag"),
                     sv = ak_kernel("store_value");
    hsa_queue_t *qa = queue_on(0, 64), *qb = queue_on(0, 64);
    uint32_t *mem = ak_alloc(64);
    hsa_signal_t sa = signal1(), sb = signal1();
    struct {
        uint32_t *flag, *out;
        uint32_t value;
    } ab = {&mem[0], &mem[1], 5};
    void *args = barriers ? ak_args(&wf, &ab, sizeof ab) : wait_flag_args(&wf, &mem[0], &mem[1], 5, 0);
    uint16_t wg = barriers ? 128 : 64;
    ak_dispatch(qa, &wf, args, many_groups() * wg, wg, sa, true);
    ak_dispatch(qb, &sv, store_value_args(&sv, &mem[2], 7), 64, 64, sb, true);
    EXPECT(wait_done(sb, TIMEOUT_NS), "queue B's kernel completes while A's spin (barriers: %d)",
           barriers);
    EXPECT(hsa_signal_load_scacquire(sa) == 1, "queue A's kernel still waits");
    EXPECT(mem[2] == 7, "B's output %u", mem[2]);
    set_flag(&mem[0]);
    EXPECT(wait_done(sa, TIMEOUT_NS), "queue A's kernel completes once released");
    EXPECT(mem[1] == 5, "A's output %u", mem[1]);
    hsa_queue_destroy(qa);
    hsa_queue_destroy(qb);
}

static void test_preempt(void) {
    preempt_case(false);
    preempt_case(true);
}

/* Runs `busy` with `iters` rounds over n work-groups on q; returns the milliseconds it took. */
static double busy_ms(hsa_queue_t *q, const struct ak_kernel *k, uint32_t *out, uint32_t n,
                      uint32_t iters) {
    struct {
        uint32_t *out;
        uint32_t iters;
    } a = {out, iters};
    hsa_signal_t s = signal1();
    double t0 = ak_now_us();
    ak_dispatch(q, k, ak_args(k, &a, sizeof a), n * 64, 64, s, true);
    EXPECT(wait_done(s, TIMEOUT_NS), "calibration run completes");
    hsa_signal_destroy(s);
    return (ak_now_us() - t0) / 1000;
}

static void test_priority(void) {
    struct ak_kernel k = ak_kernel("busy");
    hsa_queue_t *lo = queue_on(0, 64), *hi = queue_on(0, 64);
    AK_CHECK(hsa_amd_queue_set_priority(lo, HSA_AMD_QUEUE_PRIORITY_LOW));
    AK_CHECK(hsa_amd_queue_set_priority(hi, HSA_AMD_QUEUE_PRIORITY_HIGH));
    const uint32_t n = many_groups() * 4;
    uint32_t *out_lo = ak_alloc(n * 256), *out_hi = ak_alloc(n * 256);
    /* Long enough (about 300 ms each, whatever the engine and the cores) that the high-priority
     * kernel arrives while the low one still has most of its work-groups to run. */
    busy_ms(lo, &k, out_lo, n, 2000); /* the first dispatch also compiles the kernel */
    double ms = busy_ms(lo, &k, out_lo, n, 2000);
    double scale = ms > 0 ? 300 / ms : 100;
    uint32_t iters = (uint32_t)(2000 * (scale < 1 ? 1 : scale > 1000 ? 1000 : scale));
    struct {
        uint32_t *out;
        uint32_t iters;
    } alo = {out_lo, iters}, ahi = {out_hi, iters};
    hsa_signal_t s_lo = signal1(), s_hi = signal1();
    void *args_lo = ak_args(&k, &alo, sizeof alo), *args_hi = ak_args(&k, &ahi, sizeof ahi);
    /* The low-priority queue gets its work first. */
    ak_dispatch(lo, &k, args_lo, n * 64, 64, s_lo, true);
    ak_dispatch(hi, &k, args_hi, n * 64, 64, s_hi, true);
    EXPECT(wait_done(s_hi, TIMEOUT_NS), "the high-priority kernel completes");
    hsa_signal_value_t lo_then = hsa_signal_load_scacquire(s_lo);
    EXPECT(wait_done(s_lo, TIMEOUT_NS), "the low-priority kernel completes");
    EXPECT(lo_then == 1, "the low-priority kernel, started first, ends after the high one "
                         "(%u iterations)", iters);
    EXPECT(memcmp(out_lo, out_hi, n * 256) == 0, "both computed the same");
    hsa_queue_destroy(lo);
    hsa_queue_destroy(hi);
}

static void test_coop(void) {
    bool coop = false;
    AK_CHECK(hsa_agent_get_info(ak_gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES,
                                &coop));
    EXPECT(coop, "HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES is true");
    hsa_queue_t *q;
    hsa_status_t st = hsa_queue_create(ak_gpu, 64, HSA_QUEUE_TYPE_COOPERATIVE, NULL, NULL,
                                       UINT32_MAX, UINT32_MAX, &q);
    EXPECT(st == HSA_STATUS_SUCCESS, "cooperative queue created (status %#x)", (unsigned)st);
    if (st != HSA_STATUS_SUCCESS)
        return;
    EXPECT(q->type == HSA_QUEUE_TYPE_COOPERATIVE, "queue type %u", (unsigned)q->type);
    /* A grid sync on it, as a cooperative launch does. */
    struct ak_kernel k = ak_kernel("grid_rounds");
    const uint32_t n = 8, wg = 64, total = n * wg;
    uint32_t *slots = ak_alloc(total * 4), *out = ak_alloc(total * 4);
    struct {
        uint32_t *slots, *out;
        uint32_t rounds;
    } a = {slots, out, 1};
    hsa_signal_t done = signal1();
    coop_launch(q, 0, &k, ak_args(&k, &a, sizeof a), n, wg, done);
    EXPECT(wait_done(done, TIMEOUT_NS), "grid sync on a cooperative queue completes");
    for (uint32_t g = 0; g < total; g++) {
        uint32_t other = (g + 3 * wg + 1) % total;
        EXPECT(out[g] == other, "out[%u] = %u", g, out[g]);
        if (out[g] != other)
            break;
    }
    hsa_queue_destroy(q);
}

static void test_destroy(void) {
    struct ak_kernel wf = ak_kernel("wait_flag");
    for (uint32_t groups = 1; groups <= many_groups(); groups *= many_groups()) {
        for (uint32_t sleep = 0; sleep < 2; sleep++) {
            hsa_queue_t *q = queue_on(0, 64);
            uint32_t *mem = ak_alloc(64);
            hsa_signal_t s = signal1();
            ak_dispatch(q, &wf, wait_flag_args(&wf, &mem[0], &mem[1], 5, sleep), groups * 64, 64,
                        s, true);
            EXPECT(!wait_done(s, 50000000ull), "the kernel waits for its flag");
            alarm(60); /* a destroy that never returns ends the test */
            AK_CHECK(hsa_queue_destroy(q));
            alarm(0);
            EXPECT(hsa_signal_load_scacquire(s) == 1, "a cancelled kernel does not complete");
            EXPECT(mem[1] == 0, "the kernel never saw its flag");
        }
    }
}

static void test_multigrid(void) {
    unsigned grids = ak_ngpus;
    EXPECT(grids >= 2, "multigrid needs SOFTHSA_GPUS=2 or more (%u agents)", grids);
    if (grids < 2)
        return;
    const uint32_t n = 12, wg = 64, rounds = 3;
    uint32_t *stamps = ak_alloc(grids * n * 4), *mem = ak_alloc(64);
    hsa_queue_t *q[16];
    hsa_signal_t done[16];
    for (unsigned g = 0; g < grids; g++) {
        struct ak_kernel k = ak_kernel_on(g, "multi_grid");
        struct {
            uint32_t *stamps, *counter, *errors;
            uint32_t grid, grids, rounds;
        } a = {stamps, &mem[0], &mem[8], g, grids, rounds};
        q[g] = queue_on(g, 64);
        done[g] = signal1();
        coop_launch(q[g], g, &k, ak_args(&k, &a, sizeof a), n, wg, done[g]);
    }
    for (unsigned g = 0; g < grids; g++)
        EXPECT(wait_done(done[g], TIMEOUT_NS), "grid %u completes", g);
    EXPECT(mem[8] == 0, "%u stale stamps seen after a multi-grid sync", mem[8]);
    EXPECT(mem[0] == grids * rounds * 2, "counter %u", mem[0]);
    for (uint32_t i = 0; i < grids * n; i++)
        EXPECT(stamps[i] == rounds, "stamps[%u] = %u", i, stamps[i]);
    for (unsigned g = 0; g < grids; g++)
        hsa_queue_destroy(q[g]);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: concurrency CODE_OBJECT TEST...\n");
        return 2;
    }
    ak_init(argv[1]);
    static const struct {
        const char *name;
        void (*run)(void);
    } tests[] = {
        {"inorder", test_inorder},   {"overlap", test_overlap},   {"gridsync", test_gridsync}, {"spinlock", test_spinlock},
        {"chain", test_chain},       {"preempt", test_preempt},   {"priority", test_priority},
        {"coop", test_coop},         {"destroy", test_destroy},   {"multigrid", test_multigrid},
    };
    for (int i = 2; i < argc; i++) {
        bool found = false;
        for (size_t t = 0; t < sizeof tests / sizeof tests[0]; t++) {
            if (strcmp(argv[i], tests[t].name) != 0)
                continue;
            found = true;
            int before = failures;
            double t0 = ak_now_us();
            tests[t].run();
            printf("%s %s (%.0f ms)\n", failures == before ? "PASS" : "FAIL", argv[i],
                   (ak_now_us() - t0) / 1000);
            fflush(stdout);
        }
        if (!found) {
            fprintf(stderr, "concurrency: unknown test %s\n", argv[i]);
            return 2;
        }
    }
    hsa_shut_down();
    return failures ? 1 : 0;
}
