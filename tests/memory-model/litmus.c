/* Memory-model litmus tests on softhsa (kernels in litmus.cl).
 *
 * Each test runs `iters` iterations x 64 lanes of one litmus shape between parties that are
 *   wg:     work-groups of one dispatch (device scope),
 *   agents: dispatches on two GPU agents, one queue per party (system scope; SOFTHSA_GPUS=2),
 *   host:   work-groups of a dispatch and host threads running the same roles in C11 atomics.
 * It counts every outcome, fails on an outcome the HSA memory model forbids, and reports whether
 * the parties really raced (more than one outcome seen).
 *
 * usage: litmus DEVICE_SCOPE.hsaco SYSTEM_SCOPE.hsaco [iters] [mode] [test]
 * Exit status: 0 when no forbidden outcome appeared (and the runtime accepted everything). */
#include "check.h"

#include <pthread.h>
#include <stdatomic.h>

enum { LANES = 64, MAX_PARTIES = 4, MAX_AGENTS = 2 };

struct test {
    const char *name;
    unsigned parties;
    /* The outcome of one instance from the roles' bits, and whether the model forbids it. */
    unsigned (*key)(const uint32_t *r);
    int (*forbidden)(const uint32_t *r);
    void (*host_role)(unsigned role, uint32_t v, _Atomic uint32_t *x, _Atomic uint32_t *y,
                      uint32_t *r);
    unsigned nkeys;
};

static unsigned key_r1(const uint32_t *r) { return r[1] & 3; }
static unsigned key_r0r1(const uint32_t *r) { return (r[0] & 1) | (r[1] & 1) << 1; }
static unsigned key_r0(const uint32_t *r) { return r[0] & 3; }
static unsigned key_iriw(const uint32_t *r) { return (r[2] & 3) | (r[3] & 3) << 2; }
static int bad_mp(const uint32_t *r) { return (r[1] & 3) == 1; }
static int bad_sb(const uint32_t *r) { return key_r0r1(r) == 0; }
static int bad_lb(const uint32_t *r) { return key_r0r1(r) == 3; }
static int bad_2p2w(const uint32_t *r) { return (r[0] & 3) == 3; }
/* corr: the second load older than the first; atom64: a torn 64-bit word. Both set bit 2. */
static int bad_corr(const uint32_t *r) { return (r[1] & 4) != 0; }
static int bad_iriw(const uint32_t *r) { return key_iriw(r) == 5; }

#define LD(p, o) atomic_load_explicit(p, memory_order_##o)
#define ST(p, v, o) atomic_store_explicit(p, v, memory_order_##o)

/* The host's side of each shape: the same accesses as litmus.cl, lane by lane. */
static void host_mp(unsigned role, uint32_t v, _Atomic uint32_t *x, _Atomic uint32_t *y,
                    uint32_t *r) {
    for (int l = 0; l < LANES; l++) {
        if (role == 0) { ST(&x[l], v, relaxed); ST(&y[l], v, release); r[l] = 0; }
        else { uint32_t f = LD(&y[l], acquire), d = LD(&x[l], relaxed); r[l] = (f >= v) | (d >= v) << 1; }
    }
}
static void host_sb(unsigned role, uint32_t v, _Atomic uint32_t *x, _Atomic uint32_t *y,
                    uint32_t *r) {
    for (int l = 0; l < LANES; l++) {
        if (role == 0) { ST(&x[l], v, seq_cst); r[l] = LD(&y[l], seq_cst) >= v; }
        else { ST(&y[l], v, seq_cst); r[l] = LD(&x[l], seq_cst) >= v; }
    }
}
static void host_lb(unsigned role, uint32_t v, _Atomic uint32_t *x, _Atomic uint32_t *y,
                    uint32_t *r) {
    for (int l = 0; l < LANES; l++) {
        if (role == 0) { r[l] = LD(&x[l], acquire) >= v; ST(&y[l], v, release); }
        else { r[l] = LD(&y[l], acquire) >= v; ST(&x[l], v, release); }
    }
}
/* 2+2W: role 1 is the only role a host thread takes (role 0 reads the final values). */
static void host_2p2w(unsigned role, uint32_t v, _Atomic uint32_t *x, _Atomic uint32_t *y,
                      uint32_t *r) {
    for (int l = 0; l < LANES; l++) {
        if (role == 1) { ST(&y[l], 2 * v, seq_cst); ST(&x[l], 2 * v + 1, seq_cst); }
        r[l] = 0;
    }
}
static void host_corr(unsigned role, uint32_t v, _Atomic uint32_t *x, _Atomic uint32_t *y,
                      uint32_t *r) {
    (void)y;
    for (int l = 0; l < LANES; l++) {
        if (role == 0) { ST(&x[l], v, relaxed); r[l] = 0; }
        else { uint32_t a = LD(&x[l], relaxed), b = LD(&x[l], relaxed); r[l] = (a >= v) | (b >= v) << 1 | (b < a) << 2; }
    }
}
static void host_iriw(unsigned role, uint32_t v, _Atomic uint32_t *x, _Atomic uint32_t *y,
                      uint32_t *r) {
    for (int l = 0; l < LANES; l++) {
        r[l] = 0;
        if (role == 0) ST(&x[l], v, seq_cst);
        else if (role == 1) ST(&y[l], v, seq_cst);
        else if (role == 2) { uint32_t a = LD(&x[l], seq_cst), b = LD(&y[l], seq_cst); r[l] = (a >= v) | (b >= v) << 1; }
        else { uint32_t a = LD(&y[l], seq_cst), b = LD(&x[l], seq_cst); r[l] = (a >= v) | (b >= v) << 1; }
    }
}

/* 64-bit words: x holds 64 of them (x and y are allocated with room for that). */
static void host_atom64(unsigned role, uint32_t v, _Atomic uint32_t *x, _Atomic uint32_t *y,
                        uint32_t *r) {
    (void)y;
    _Atomic uint64_t *w = (_Atomic uint64_t *)x;
    for (int l = 0; l < LANES; l++) {
        if (role == 0) { ST(&w[l], (uint64_t)v << 32 | v, relaxed); r[l] = 0; }
        else {
            uint64_t a = LD(&w[l], relaxed), b = LD(&w[l], relaxed);
            r[l] = ((uint32_t)a >= v) | ((uint32_t)b >= v) << 1 |
                   ((uint32_t)a != (uint32_t)(a >> 32) || (uint32_t)b != (uint32_t)(b >> 32)) << 2;
        }
    }
}

static const struct test TESTS[] = {
    { "mp", 2, key_r1, bad_mp, host_mp, 4 },
    { "sb", 2, key_r0r1, bad_sb, host_sb, 4 },
    { "lb", 2, key_r0r1, bad_lb, host_lb, 4 },
    { "2p2w", 2, key_r0, bad_2p2w, host_2p2w, 4 },
    { "corr", 2, key_r1, bad_corr, host_corr, 4 },
    { "iriw", 4, key_iriw, bad_iriw, host_iriw, 16 },
    { "atom64", 2, key_r1, bad_corr, host_atom64, 4 },
};

/* ---- runtime plumbing ---- */

struct gpu {
    hsa_agent_t agent;
    hsa_executable_t exec[2]; /* device-scope and system-scope code objects */
    hsa_queue_t *queue[MAX_PARTIES];
};

static struct gpu gpus[MAX_AGENTS];
static unsigned ngpus;
static hsa_agent_t cpu;
static hsa_amd_memory_pool_t fine_pool, kernarg_pool;

static void *alloc_shared(size_t bytes, hsa_amd_memory_pool_t pool) {
    void *p = NULL;
    if (hsa_amd_memory_pool_allocate(pool, bytes, 0, &p) != HSA_STATUS_SUCCESS || !p) {
        fprintf(stderr, "litmus: cannot allocate %zu bytes\n", bytes);
        exit(2);
    }
    hsa_agent_t agents[MAX_AGENTS];
    for (unsigned i = 0; i < ngpus; i++) agents[i] = gpus[i].agent;
    if (hsa_amd_agents_allow_access(ngpus, agents, NULL, p) != HSA_STATUS_SUCCESS) exit(2);
    memset(p, 0, bytes);
    return p;
}

static hsa_executable_t load(hsa_agent_t agent, const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(2); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) exit(2);
    fclose(f);
    hsa_code_object_reader_t rd;
    hsa_executable_t ex;
    CHECK_OK(hsa_code_object_reader_create_from_memory(buf, (size_t)n, &rd));
    CHECK_OK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                       NULL, &ex));
    CHECK_OK(hsa_executable_load_agent_code_object(ex, agent, rd, NULL, NULL));
    CHECK_OK(hsa_executable_freeze(ex, NULL));
    return ex;
}

struct kernarg {
    void *x, *y, *sync, *out, *timeouts;
    uint32_t iters, parties, role_base, role_stride;
};

struct launch {
    hsa_queue_t *q;
    hsa_signal_t done;
};

static struct launch dispatch(struct gpu *g, unsigned slot, int system, const char *kernel,
                              unsigned groups, const struct kernarg *ka) {
    char name[64];
    snprintf(name, sizeof name, "%s.kd", kernel);
    hsa_executable_symbol_t sym;
    uint64_t object = 0;
    uint32_t priv = 0, group = 0;
    CHECK_OK(hsa_executable_get_symbol_by_name(g->exec[system], name, &g->agent, &sym));
    hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &object);
    hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &priv);
    hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &group);
    void *args = NULL;
    CHECK_OK(hsa_amd_memory_pool_allocate(kernarg_pool, sizeof *ka, 0, &args));
    CHECK_OK(hsa_amd_agents_allow_access(1, &g->agent, NULL, args));
    memcpy(args, ka, sizeof *ka);
    if (!g->queue[slot])
        CHECK_OK(hsa_queue_create(g->agent, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX,
                                  UINT32_MAX, &g->queue[slot]));
    hsa_queue_t *q = g->queue[slot];
    struct launch l = { q, { 0 } };
    CHECK_OK(hsa_signal_create(1, 0, NULL, &l.done));
    uint64_t idx = hsa_queue_add_write_index_relaxed(q, 1);
    hsa_kernel_dispatch_packet_t *p = (hsa_kernel_dispatch_packet_t *)q->base_address + (idx % q->size);
    memset((char *)p + 4, 0, sizeof *p - 4);
    p->setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
    p->workgroup_size_x = LANES;
    p->workgroup_size_y = p->workgroup_size_z = 1;
    p->grid_size_x = groups * LANES;
    p->grid_size_y = p->grid_size_z = 1;
    p->private_segment_size = priv;
    p->group_segment_size = group;
    p->kernel_object = object;
    p->kernarg_address = args;
    p->completion_signal = l.done;
    uint16_t header = HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE |
                      HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_ACQUIRE_FENCE_SCOPE |
                      HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_RELEASE_FENCE_SCOPE;
    __atomic_store_n((uint32_t *)p, header | (uint32_t)p->setup << 16, __ATOMIC_RELEASE);
    hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
    return l;
}

static void wait_done(struct launch l) {
    hsa_signal_value_t v = hsa_signal_wait_scacquire(l.done, HSA_SIGNAL_CONDITION_LT, 1,
                                                     60ull * 1000000000ull, HSA_WAIT_STATE_BLOCKED);
    CHECK(v == 0);
    hsa_signal_destroy(l.done);
}

/* A host party: meets the kernel parties at the same counter, then plays its role. */
struct host_party {
    const struct test *t;
    unsigned role, iters, parties;
    _Atomic uint32_t *x, *y, *sync, *timeouts;
    uint32_t *out;
};

static void host_meet(struct host_party *h, unsigned round) {
    atomic_fetch_add_explicit(h->sync, 1, memory_order_acq_rel);
    uint32_t target = h->parties * (round + 1);
    for (uint32_t spins = 0; atomic_load_explicit(h->sync, memory_order_acquire) < target;) {
        if (++spins == (1u << 24)) { atomic_fetch_add(h->timeouts, 1); break; }
    }
}

static void *host_main(void *arg) {
    struct host_party *h = arg;
    unsigned m = 0;
    for (unsigned i = 0; i < h->iters; i++) {
        uint32_t v = i + 1;
        host_meet(h, m++);
        h->t->host_role(h->role, v, h->x, h->y, h->out + ((size_t)h->role * h->iters + i) * LANES);
        if (h->t->host_role == host_2p2w) host_meet(h, m++);
    }
    return NULL;
}

/* Runs one test in one mode; returns the number of forbidden outcomes (or -1: not runnable). */
static long run(const struct test *t, const char *mode, unsigned iters) {
    if (!strcmp(mode, "agents") && ngpus < 2) return -1;
    size_t cells = (size_t)t->parties * iters * LANES;
    _Atomic uint32_t *x = alloc_shared(LANES * 8, fine_pool), *y = alloc_shared(LANES * 8, fine_pool);
    _Atomic uint32_t *sync = alloc_shared(64, fine_pool), *timeouts = alloc_shared(64, fine_pool);
    uint32_t *out = alloc_shared(cells * 4, fine_pool);
    char kname[32];
    snprintf(kname, sizeof kname, "litmus_%s", t->name);
    struct kernarg ka = { (void *)x, (void *)y, (void *)sync, out, (void *)timeouts, iters,
                          t->parties, 0, 1 };
    struct launch ls[MAX_PARTIES];
    unsigned nl = 0;
    pthread_t threads[MAX_PARTIES];
    struct host_party hp[MAX_PARTIES];
    unsigned nh = 0;
    if (!strcmp(mode, "wg")) {
        ls[nl++] = dispatch(&gpus[0], 0, 0, kname, t->parties, &ka);
    } else if (!strcmp(mode, "agents")) {
        for (unsigned r = 0; r < t->parties; r++) {
            ka.role_base = r;
            ka.role_stride = 0;
            ls[nl++] = dispatch(&gpus[r % 2], r / 2, 1, kname, 1, &ka);
        }
    } else {
        /* Even roles on the GPU, odd roles on host threads. */
        ka.role_stride = 2;
        ls[nl++] = dispatch(&gpus[0], 0, 1, kname, t->parties / 2, &ka);
        for (unsigned r = 1; r < t->parties; r += 2) {
            hp[nh] = (struct host_party){ t, r, iters, t->parties, x, y, sync, timeouts, out };
            pthread_create(&threads[nh], NULL, host_main, &hp[nh]);
            nh++;
        }
    }
    for (unsigned i = 0; i < nl; i++) wait_done(ls[i]);
    for (unsigned i = 0; i < nh; i++) pthread_join(threads[i], NULL);

    unsigned long counts[16] = { 0 };
    long bad = 0;
    for (unsigned i = 0; i < iters; i++) {
        for (unsigned l = 0; l < LANES; l++) {
            uint32_t r[MAX_PARTIES] = { 0 };
            for (unsigned p = 0; p < t->parties; p++) r[p] = out[((size_t)p * iters + i) * LANES + l];
            counts[t->key(r)]++;
            if (t->forbidden(r)) {
                if (bad < 3) fprintf(stderr, "  forbidden: %s/%s iteration %u lane %u\n", t->name, mode, i, l);
                bad++;
            }
        }
    }
    unsigned distinct = 0;
    printf("%-5s %-6s %8lu runs  outcomes:", t->name, mode, (unsigned long)iters * LANES);
    for (unsigned k = 0; k < t->nkeys; k++) {
        if (counts[k]) { printf(" %x=%lu", k, counts[k]); distinct++; }
    }
    printf("  forbidden=%ld  waits-timed-out=%u  %s\n", bad, atomic_load(timeouts),
           distinct > 1 ? "raced" : "did not race");
    CHECK(bad == 0);
    hsa_amd_memory_pool_free((void *)x);
    hsa_amd_memory_pool_free((void *)y);
    hsa_amd_memory_pool_free((void *)sync);
    hsa_amd_memory_pool_free((void *)timeouts);
    hsa_amd_memory_pool_free(out);
    return bad;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s DEVICE.hsaco SYSTEM.hsaco [iters] [wg|agents|host|all] [test]\n", argv[0]);
        return 2;
    }
    unsigned iters = argc > 3 ? (unsigned)atoi(argv[3]) : 2048;
    const char *only_mode = argc > 4 ? argv[4] : "all";
    const char *only_test = argc > 5 ? argv[5] : NULL;
    CHECK_OK(hsa_init());
    cpu = find_agent(HSA_DEVICE_TYPE_CPU, 0);
    for (int g = 0; g < MAX_AGENTS; g++) {
        hsa_agent_t a = find_agent(HSA_DEVICE_TYPE_GPU, g);
        if (a.handle) gpus[ngpus++].agent = a;
    }
    if (!ngpus || !cpu.handle) { fprintf(stderr, "litmus: no GPU/CPU agent\n"); return 2; }
    kernarg_pool = find_pool(cpu, HSA_AMD_SEGMENT_GLOBAL, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT);
    fine_pool = find_pool(cpu, HSA_AMD_SEGMENT_GLOBAL, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
    if (!fine_pool.handle || !kernarg_pool.handle) { fprintf(stderr, "litmus: no pools\n"); return 2; }
    for (unsigned g = 0; g < ngpus; g++) {
        gpus[g].exec[0] = load(gpus[g].agent, argv[1]);
        gpus[g].exec[1] = load(gpus[g].agent, argv[2]);
    }
    const char *modes[] = { "wg", "agents", "host" };
    for (size_t t = 0; t < sizeof TESTS / sizeof TESTS[0]; t++) {
        if (only_test && strcmp(only_test, TESTS[t].name)) continue;
        for (int m = 0; m < 3; m++) {
            if (strcmp(only_mode, "all") && strcmp(only_mode, modes[m])) continue;
            if (run(&TESTS[t], modes[m], iters) < 0)
                printf("%-5s %-6s skipped (needs SOFTHSA_GPUS=2)\n", TESTS[t].name, modes[m]);
        }
    }
    for (unsigned g = 0; g < ngpus; g++)
        for (int s = 0; s < MAX_PARTIES; s++)
            if (gpus[g].queue[s]) hsa_queue_destroy(gpus[g].queue[s]);
    hsa_shut_down();
    TEST_DONE();
}
