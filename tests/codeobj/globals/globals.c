/* Program-scope globals across kernels and code objects, through the public HSA C API.
 * One executable loads a.hsaco (defines `counter[64]`, zero-initialised, and `table[16]`,
 * initialised) and then b.hsaco (declares both extern; the loader must resolve them to A's).
 *   1. the variable symbols: VARIABLE_ADDRESS/SIZE, and table's bytes equal its initialiser;
 *   2. get (A) before any write: counter is all zero, table is the initialiser;
 *   3. set (A) writes counter[i] = BASE + i*i; get (A) reads it back;
 *   4. mix (B): out[i] = counter[i]*7 + table[i%16], and counter[i] = -counter[i];
 *   5. get (A) again sees B's negation (both code objects share one storage).
 * Usage: globals A.hsaco B.hsaco. Exit 0 on success, 1 on a wrong result, 2 when the runtime
 * refuses something. */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 64
#define BASE 1000
static const int64_t table_init[16] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3 };

#define CHECK(call)                                                                        \
    do {                                                                                   \
        hsa_status_t st_ = (call);                                                         \
        if (st_ != HSA_STATUS_SUCCESS) {                                                   \
            const char *s_ = "?";                                                          \
            hsa_status_string(st_, &s_);                                                   \
            fprintf(stderr, "globals: %s: status %#x (%s)\n", #call, (unsigned)st_, s_);   \
            exit(2);                                                                       \
        }                                                                                  \
    } while (0)

static hsa_agent_t gpu, cpu;
static hsa_amd_memory_pool_t kernarg_pool, fine_pool;
static bool have_kernarg, have_fine;
static hsa_queue_t *queue;
static int bad;

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

static struct kernel get_kernel(hsa_executable_t exec, const char *name) {
    char sym_name[64];
    snprintf(sym_name, sizeof sym_name, "%s.kd", name);
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

static void on_queue_error(hsa_status_t status, hsa_queue_t *q, void *data) {
    (void)q;
    (void)data;
    fprintf(stderr, "globals: queue error %#x\n", (unsigned)status);
    exit(1);
}

/* One workgroup of N work-items; waits for completion. Explicit arguments as clang lays them
 * out; hidden arguments (unused here) stay zero. */
static void run(const char *what, const struct kernel *k, const void *args, size_t size) {
    size_t total = k->kernarg_size > size ? k->kernarg_size : size;
    void *ka = alloc_shared(kernarg_pool, total);
    memset(ka, 0, total);
    memcpy(ka, args, size);
    hsa_signal_t done;
    CHECK(hsa_signal_create(1, 0, NULL, &done));

    uint64_t index = hsa_queue_add_write_index_scacq_screl(queue, 1);
    hsa_kernel_dispatch_packet_t *p =
        (hsa_kernel_dispatch_packet_t *)((char *)queue->base_address +
                                         (index & (queue->size - 1)) * 64);
    memset((char *)p + 4, 0, 60);
    p->workgroup_size_x = N;
    p->workgroup_size_y = 1;
    p->workgroup_size_z = 1;
    p->grid_size_x = N;
    p->grid_size_y = 1;
    p->grid_size_z = 1;
    p->private_segment_size = k->private_size;
    p->group_segment_size = k->group_size;
    p->kernel_object = k->object;
    p->kernarg_address = ka;
    p->completion_signal = done;
    uint16_t hdr = (uint16_t)((HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE) |
                              (1 << HSA_PACKET_HEADER_BARRIER) |
                              (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                              (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
    uint16_t setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
    __atomic_store_n((uint32_t *)p, hdr | (uint32_t)setup << 16, __ATOMIC_RELEASE);
    hsa_signal_store_screlease(queue->doorbell_signal, (hsa_signal_value_t)index);
    if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, 10ull * 1000000000,
                                  HSA_WAIT_STATE_BLOCKED) != 0) {
        fprintf(stderr, "globals: dispatch of %s did not complete\n", what);
        exit(1);
    }
    CHECK(hsa_signal_destroy(done));
    CHECK(hsa_amd_memory_pool_free(ka));
}

static void expect(const char *what, int i, long long got, long long want) {
    if (got != want) {
        fprintf(stderr, "globals: %s[%d] = %lld, want %lld\n", what, i, got, want);
        bad = 1;
    }
}

/* Runs get (A) and compares counter with want_counter and table with the initialiser. */
static void check_get(const char *when, const struct kernel *get, const int32_t *want_counter) {
    int32_t *counts = alloc_shared(fine_pool, N * 4);
    int64_t *tab = alloc_shared(fine_pool, 16 * 8);
    memset(counts, 0xa5, N * 4);
    memset(tab, 0xa5, 16 * 8);
    struct { void *counts, *tab; } args = { counts, tab };
    run(when, get, &args, sizeof args);
    char what[96];
    snprintf(what, sizeof what, "counter (%s)", when);
    for (int i = 0; i < N; i++)
        expect(what, i, counts[i], want_counter[i]);
    snprintf(what, sizeof what, "table*1000+i (%s)", when);
    for (int i = 0; i < 16; i++)
        expect(what, i, tab[i], table_init[i] * 1000 + i);
    CHECK(hsa_amd_memory_pool_free(counts));
    CHECK(hsa_amd_memory_pool_free(tab));
}

/* The variable symbol `name`: its type, size, and an address whose bytes are read back. */
static uint64_t check_variable(hsa_executable_t exec, const char *name, uint32_t want_size) {
    hsa_executable_symbol_t sym;
    hsa_symbol_kind_t kind;
    uint64_t address = 0;
    uint32_t size = 0;
    CHECK(hsa_executable_get_symbol_by_name(exec, name, &gpu, &sym));
    CHECK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind));
    CHECK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS,
                                         &address));
    CHECK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE, &size));
    if (kind != HSA_SYMBOL_KIND_VARIABLE) {
        fprintf(stderr, "globals: %s has symbol kind %d, want VARIABLE\n", name, (int)kind);
        bad = 1;
    }
    if (size != want_size) {
        fprintf(stderr, "globals: %s has VARIABLE_SIZE %u, want %u\n", name, size, want_size);
        bad = 1;
    }
    if (address == 0) {
        fprintf(stderr, "globals: %s has VARIABLE_ADDRESS 0\n", name);
        bad = 1;
    }
    return address;
}

static void read_variable(uint64_t address, void *dst, size_t bytes) {
    CHECK(hsa_memory_copy(dst, (const void *)(uintptr_t)address, bytes));
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: globals A.hsaco B.hsaco\n");
        return 2;
    }
    CHECK(hsa_init());
    CHECK(hsa_iterate_agents(find_agents, NULL));
    if (!gpu.handle || !cpu.handle) {
        fprintf(stderr, "globals: no GPU or CPU agent\n");
        return 2;
    }
    CHECK(hsa_amd_agent_iterate_memory_pools(cpu, find_pools, NULL));
    if (!have_kernarg || !have_fine) {
        fprintf(stderr, "globals: no kernarg or fine-grained pool\n");
        return 2;
    }

    hsa_executable_t exec;
    CHECK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                    NULL, &exec));
    hsa_code_object_reader_t readers[2];
    int fds[2];
    for (int i = 0; i < 2; i++) { /* A first: B's undefined symbols resolve to A's definitions */
        fds[i] = open(argv[1 + i], O_RDONLY);
        if (fds[i] < 0) {
            perror(argv[1 + i]);
            return 2;
        }
        CHECK(hsa_code_object_reader_create_from_file(fds[i], &readers[i]));
        CHECK(hsa_executable_load_agent_code_object(exec, gpu, readers[i], NULL, NULL));
    }
    CHECK(hsa_executable_freeze(exec, NULL));
    uint32_t valid = 1;
    CHECK(hsa_executable_validate(exec, &valid));
    if (valid != 0) {
        fprintf(stderr, "globals: hsa_executable_validate says %u\n", valid);
        bad = 1;
    }
    struct kernel set = get_kernel(exec, "set"), get = get_kernel(exec, "get"),
                  mix = get_kernel(exec, "mix");

    /* 1. The variables as the host sees them. */
    uint64_t counter_addr = check_variable(exec, "counter", N * 4);
    uint64_t table_addr = check_variable(exec, "table", 16 * 8);
    if (counter_addr && table_addr && counter_addr < table_addr + 16 * 8 &&
        table_addr < counter_addr + N * 4) {
        fprintf(stderr, "globals: counter (%#llx) and table (%#llx) overlap\n",
                (unsigned long long)counter_addr, (unsigned long long)table_addr);
        bad = 1;
    }
    int64_t host_table[16];
    int32_t host_counter[N], want[N];
    if (table_addr) {
        read_variable(table_addr, host_table, sizeof host_table);
        for (int i = 0; i < 16; i++)
            expect("table at VARIABLE_ADDRESS", i, host_table[i], table_init[i]);
    }
    if (counter_addr) {
        read_variable(counter_addr, host_counter, sizeof host_counter);
        for (int i = 0; i < N; i++)
            expect("counter at VARIABLE_ADDRESS (before set)", i, host_counter[i], 0);
    }
    if (bad)
        return 1;

    CHECK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, on_queue_error, NULL, UINT32_MAX,
                           UINT32_MAX, &queue));

    /* 2. Before any write: counter is zero (.bss), table is its initialiser. */
    memset(want, 0, sizeof want);
    check_get("before set", &get, want);

    /* 3. set writes counter; get, another kernel of A, reads it back; so does the host. */
    int32_t base = BASE;
    run("set", &set, &base, sizeof base);
    for (int i = 0; i < N; i++)
        want[i] = BASE + i * i;
    check_get("after set", &get, want);
    if (counter_addr) {
        read_variable(counter_addr, host_counter, sizeof host_counter);
        for (int i = 0; i < N; i++)
            expect("counter at VARIABLE_ADDRESS (after set)", i, host_counter[i], want[i]);
    }

    /* 4. mix, in code object B, reads A's counter and table through its extern declarations. */
    int64_t *out = alloc_shared(fine_pool, N * 8);
    memset(out, 0xa5, N * 8);
    run("mix", &mix, &out, sizeof out);
    for (int i = 0; i < N; i++)
        expect("mix out", i, out[i], (int64_t)want[i] * 7 + table_init[i % 16]);

    /* 5. B's writes landed in A's storage. */
    for (int i = 0; i < N; i++)
        want[i] = -want[i];
    check_get("after mix", &get, want);

    CHECK(hsa_amd_memory_pool_free(out));
    CHECK(hsa_queue_destroy(queue));
    CHECK(hsa_executable_destroy(exec));
    for (int i = 0; i < 2; i++) {
        CHECK(hsa_code_object_reader_destroy(readers[i]));
        close(fds[i]);
    }
    CHECK(hsa_shut_down());
    if (!bad)
        printf("globals: ok\n");
    return bad;
}
