/* A plain-HSA program (Debian's hsa.h only): loads a code object of kernels.cl (argv[1]), and
 * writes four packets into one AQL queue before ringing the doorbell once:
 *   1. dispatch fill(A)                          -> A[i] = 3i + 7
 *   2. BARRIER_AND on a host signal `gate`
 *   3. dispatch scale(B, A)  (barrier bit set)   -> B[i] = 5 A[i] + 1
 *   4. dispatch scale(C, B)  (barrier bit set)   -> C[i] = 5 B[i] + 1
 * Packet 1 must complete while the gate is closed; B and C must stay untouched (and the last
 * completion signal unchanged) until the host opens the gate; then all results are exact.
 * Exit status 0 on success, 1 on a wrong result, 2 when the runtime refuses something. */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 5000
#define SENTINEL 0xa5a5a5a5u

#define CHECK(call)                                                                        \
    do {                                                                                   \
        hsa_status_t st_ = (call);                                                         \
        if (st_ != HSA_STATUS_SUCCESS) {                                                   \
            const char *s_ = "?";                                                          \
            hsa_status_string(st_, &s_);                                                   \
            fprintf(stderr, "barrier_gate: %s: status %#x (%s)\n", #call, (unsigned)st_, s_); \
            exit(2);                                                                       \
        }                                                                                  \
    } while (0)

static hsa_agent_t gpu, cpu;
static hsa_amd_memory_pool_t kernarg_pool, fine_pool;
static bool have_kernarg, have_fine;

static hsa_status_t find_agents(hsa_agent_t a, void *data) {
    (void)data;
    hsa_device_type_t t;
    CHECK(hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t));
    if (t == HSA_DEVICE_TYPE_GPU && !gpu.handle)
        gpu = a;
    if (t == HSA_DEVICE_TYPE_CPU && !cpu.handle)
        cpu = a;
    return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_pools(hsa_amd_memory_pool_t p, void *data) {
    (void)data;
    hsa_amd_segment_t seg;
    uint32_t flags;
    CHECK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg));
    if (seg != HSA_AMD_SEGMENT_GLOBAL)
        return HSA_STATUS_SUCCESS;
    CHECK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags));
    if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) && !have_kernarg) {
        kernarg_pool = p;
        have_kernarg = true;
    }
    if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) && !have_fine) {
        fine_pool = p;
        have_fine = true;
    }
    return HSA_STATUS_SUCCESS;
}

static void *alloc_shared(hsa_amd_memory_pool_t pool, size_t bytes) {
    void *p;
    CHECK(hsa_amd_memory_pool_allocate(pool, bytes, 0, &p));
    CHECK(hsa_amd_agents_allow_access(1, &gpu, NULL, p));
    return p;
}

struct kernel {
    uint64_t object;
    uint32_t kernarg_size, group_size, private_size;
};

static struct kernel get_kernel(hsa_executable_t exec, const char *name, bool v2) {
    char sym_name[64];
    snprintf(sym_name, sizeof sym_name, v2 ? "%s" : "%s.kd", name);
    hsa_executable_symbol_t sym;
    struct kernel k;
    CHECK(hsa_executable_get_symbol_by_name(exec, sym_name, &gpu, &sym));
    CHECK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
                                         &k.object));
    CHECK(hsa_executable_symbol_get_info(
        sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &k.kernarg_size));
    CHECK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE,
                                         &k.group_size));
    CHECK(hsa_executable_symbol_get_info(
        sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &k.private_size));
    return k;
}

/* Kernarg segment: explicit arguments as clang lays them out; the hidden ones (unused by these
 * kernels) stay zero. */
static void *kernargs(const struct kernel *k, const void *explicit_args, size_t size) {
    size_t total = k->kernarg_size > size ? k->kernarg_size : size;
    void *p = alloc_shared(kernarg_pool, total);
    memset(p, 0, total);
    memcpy(p, explicit_args, size);
    return p;
}

static uint16_t header(hsa_packet_type_t type, bool barrier) {
    return (uint16_t)((type << HSA_PACKET_HEADER_TYPE) |
                      ((barrier ? 1 : 0) << HSA_PACKET_HEADER_BARRIER) |
                      (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                      (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
}

static void publish(void *packet, uint16_t hdr, uint16_t setup) {
    __atomic_store_n((uint32_t *)packet, hdr | (uint32_t)setup << 16, __ATOMIC_RELEASE);
}

static void *slot(hsa_queue_t *q, uint64_t index) {
    return (char *)q->base_address + (index & (q->size - 1)) * 64;
}

static void dispatch(hsa_queue_t *q, uint64_t index, const struct kernel *k, void *args,
                     hsa_signal_t done, bool barrier) {
    hsa_kernel_dispatch_packet_t *p = slot(q, index);
    memset((char *)p + 4, 0, 60);
    p->workgroup_size_x = 64;
    p->workgroup_size_y = 1;
    p->workgroup_size_z = 1;
    p->grid_size_x = N;
    p->grid_size_y = 1;
    p->grid_size_z = 1;
    p->private_segment_size = k->private_size;
    p->group_segment_size = k->group_size;
    p->kernel_object = k->object;
    p->kernarg_address = args;
    p->completion_signal = done;
    publish(p, header(HSA_PACKET_TYPE_KERNEL_DISPATCH, barrier),
            1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
}

static int compare(const char *what, const uint32_t *got, const uint32_t *want) {
    for (uint32_t i = 0; i < N; i++)
        if (got[i] != want[i]) {
            fprintf(stderr, "barrier_gate: %s[%u] = %#x, want %#x\n", what, i, got[i], want[i]);
            return 1;
        }
    return 0;
}

static void on_queue_error(hsa_status_t status, hsa_queue_t *q, void *data) {
    (void)q;
    (void)data;
    fprintf(stderr, "barrier_gate: queue error %#x\n", (unsigned)status);
    exit(1);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: barrier_gate CODE_OBJECT\n");
        return 2;
    }
    unsigned char ident[16] = { 0 };
    FILE *f = fopen(argv[1], "rb");
    if (!f || fread(ident, 1, 16, f) != 16) {
        perror(argv[1]);
        return 2;
    }
    fclose(f);
    bool v2 = ident[8] == 0; /* EI_ABIVERSION 0: code object v2, symbols without ".kd" */

    CHECK(hsa_init());
    CHECK(hsa_iterate_agents(find_agents, NULL));
    if (!gpu.handle || !cpu.handle) {
        fprintf(stderr, "barrier_gate: no GPU or CPU agent\n");
        return 2;
    }
    CHECK(hsa_amd_agent_iterate_memory_pools(cpu, find_pools, NULL));
    if (!have_kernarg || !have_fine) {
        fprintf(stderr, "barrier_gate: no kernarg or fine-grained pool\n");
        return 2;
    }

    int fd = open(argv[1], O_RDONLY);
    hsa_code_object_reader_t reader;
    hsa_executable_t exec;
    CHECK(hsa_code_object_reader_create_from_file(fd, &reader));
    CHECK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                    NULL, &exec));
    CHECK(hsa_executable_load_agent_code_object(exec, gpu, reader, NULL, NULL));
    CHECK(hsa_executable_freeze(exec, NULL));
    struct kernel fill = get_kernel(exec, "fill", v2), scale = get_kernel(exec, "scale", v2);

    uint32_t *A = alloc_shared(fine_pool, N * 4), *B = alloc_shared(fine_pool, N * 4),
             *C = alloc_shared(fine_pool, N * 4);
    static uint32_t wa[N], wb[N], wc[N], untouched[N];
    for (uint32_t i = 0; i < N; i++) {
        A[i] = B[i] = C[i] = untouched[i] = SENTINEL;
        wa[i] = 3 * i + 7;
        wb[i] = wa[i] * 5 + 1;
        wc[i] = wb[i] * 5 + 1;
    }
    struct { void *out; uint32_t n, seed; } fill_args = { A, N, 7 };
    struct { void *out; const void *in; uint32_t n; } scale_b = { B, A, N }, scale_c = { C, B, N };

    hsa_queue_t *q;
    CHECK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, on_queue_error, NULL, UINT32_MAX,
                           UINT32_MAX, &q));
    hsa_signal_t gate, done_a, done_barrier, done_c;
    CHECK(hsa_signal_create(1, 0, NULL, &gate));
    CHECK(hsa_signal_create(1, 0, NULL, &done_a));
    CHECK(hsa_signal_create(1, 0, NULL, &done_barrier));
    CHECK(hsa_signal_create(1, 0, NULL, &done_c));

    uint64_t base = hsa_queue_add_write_index_scacq_screl(q, 4);
    dispatch(q, base, &fill, kernargs(&fill, &fill_args, sizeof fill_args), done_a, false);
    hsa_barrier_and_packet_t *b = slot(q, base + 1);
    memset((char *)b + 4, 0, 60);
    b->dep_signal[0] = gate;
    b->completion_signal = done_barrier;
    publish(b, header(HSA_PACKET_TYPE_BARRIER_AND, true), 0);
    dispatch(q, base + 2, &scale, kernargs(&scale, &scale_b, sizeof scale_b),
             (hsa_signal_t){ 0 }, true);
    dispatch(q, base + 3, &scale, kernargs(&scale, &scale_c, sizeof scale_c), done_c, true);
    hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)(base + 3));

    int bad = 0;
    /* The packet before the barrier runs while the gate is closed. */
    if (hsa_signal_wait_scacquire(done_a, HSA_SIGNAL_CONDITION_LT, 1, 10ull * 1000000000,
                                  HSA_WAIT_STATE_BLOCKED) != 0) {
        fprintf(stderr, "barrier_gate: the first dispatch did not complete\n");
        return 1;
    }
    bad |= compare("A", A, wa);
    /* Give a wrongly ungated queue every chance to run ahead, then look. */
    usleep(300000);
    bad |= compare("B before the gate opens", B, untouched);
    bad |= compare("C before the gate opens", C, untouched);
    if (hsa_signal_load_scacquire(done_barrier) != 1 || hsa_signal_load_scacquire(done_c) != 1) {
        fprintf(stderr, "barrier_gate: packets behind the closed gate completed\n");
        bad = 1;
    }
    hsa_signal_store_screlease(gate, 0);
    if (hsa_signal_wait_scacquire(done_c, HSA_SIGNAL_CONDITION_LT, 1, 10ull * 1000000000,
                                  HSA_WAIT_STATE_BLOCKED) != 0) {
        fprintf(stderr, "barrier_gate: the gated dispatches did not complete\n");
        return 1;
    }
    if (hsa_signal_load_scacquire(done_barrier) != 0) {
        fprintf(stderr, "barrier_gate: the barrier packet's completion signal was not decremented\n");
        bad = 1;
    }
    bad |= compare("B", B, wb);
    bad |= compare("C", C, wc);

    CHECK(hsa_queue_destroy(q));
    CHECK(hsa_executable_destroy(exec));
    CHECK(hsa_code_object_reader_destroy(reader));
    close(fd);
    CHECK(hsa_shut_down());
    if (!bad)
        printf("barrier_gate: ok\n");
    return bad;
}
