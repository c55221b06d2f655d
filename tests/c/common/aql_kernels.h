/* Plain-HSA helpers for programs that dispatch kernels of one code object (Debian's hsa.h only):
 * find the agents and pools, load a code object, look kernels up, fill kernel arguments and
 * write KERNEL_DISPATCH packets. Shared by the concurrency tests (tests/c/concurrency) and the
 * queue benchmark (benches/host/queue_bench.c). Any refused call is fatal (exit 2): these
 * programs test what happens after setup.
 *
 *   ak_init(path)                  hsa_init, first GPU agent, kernarg and fine-grained pools,
 *                                  the code object loaded and frozen
 *   ak_kernel(name)                a kernel's object and segment sizes
 *   ak_alloc(bytes)                fine-grained memory the GPU may use (zeroed)
 *   ak_args(k, args, size)         a kernarg segment: explicit arguments, hidden ones zero
 *   ak_dispatch(q, k, ...)         writes and publishes one 1-D dispatch packet, rings the doorbell
 */
#ifndef SOFTHSA_TEST_AQL_KERNELS_H
#define SOFTHSA_TEST_AQL_KERNELS_H

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define AK_CHECK(call)                                                                     \
    do {                                                                                   \
        hsa_status_t st_ = (call);                                                         \
        if (st_ != HSA_STATUS_SUCCESS) {                                                   \
            const char *s_ = "?";                                                          \
            hsa_status_string(st_, &s_);                                                   \
            fprintf(stderr, "%s:%d: %s: status %#x (%s)\n", __FILE__, __LINE__, #call,     \
                    (unsigned)st_, s_);                                                    \
            exit(2);                                                                       \
        }                                                                                  \
    } while (0)

struct ak_kernel {
    uint64_t object;
    uint32_t kernarg_size, group_size, private_size;
};

static hsa_agent_t ak_gpus[16];
static unsigned ak_ngpus;
static hsa_agent_t ak_cpu;
static hsa_amd_memory_pool_t ak_kernarg_pool, ak_fine_pool;
static bool ak_have_kernarg, ak_have_fine, ak_v2;
static hsa_executable_t ak_exec;
#define ak_gpu (ak_gpus[0])

static inline hsa_status_t ak_find_agents(hsa_agent_t a, void *data) {
    (void)data;
    hsa_device_type_t t;
    AK_CHECK(hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t));
    if (t == HSA_DEVICE_TYPE_GPU && ak_ngpus < 16)
        ak_gpus[ak_ngpus++] = a;
    if (t == HSA_DEVICE_TYPE_CPU && !ak_cpu.handle)
        ak_cpu = a;
    return HSA_STATUS_SUCCESS;
}

static inline hsa_status_t ak_find_pools(hsa_amd_memory_pool_t p, void *data) {
    (void)data;
    hsa_amd_segment_t seg;
    uint32_t flags;
    AK_CHECK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg));
    if (seg != HSA_AMD_SEGMENT_GLOBAL)
        return HSA_STATUS_SUCCESS;
    AK_CHECK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags));
    if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) && !ak_have_kernarg) {
        ak_kernarg_pool = p;
        ak_have_kernarg = true;
    }
    if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) && !ak_have_fine) {
        ak_fine_pool = p;
        ak_have_fine = true;
    }
    return HSA_STATUS_SUCCESS;
}

static inline void *ak_alloc_in(hsa_amd_memory_pool_t pool, size_t bytes) {
    void *p;
    AK_CHECK(hsa_amd_memory_pool_allocate(pool, bytes, 0, &p));
    AK_CHECK(hsa_amd_agents_allow_access(ak_ngpus, ak_gpus, NULL, p));
    memset(p, 0, bytes);
    return p;
}

/* Fine-grained system memory every GPU agent may use, zeroed. */
static inline void *ak_alloc(size_t bytes) { return ak_alloc_in(ak_fine_pool, bytes); }

/* Loads the code object at `path` for every GPU agent. */
static inline void ak_init(const char *path) {
    unsigned char ident[16] = {0};
    FILE *f = fopen(path, "rb");
    if (!f || fread(ident, 1, 16, f) != 16) {
        perror(path);
        exit(2);
    }
    fclose(f);
    ak_v2 = ident[8] == 0; /* EI_ABIVERSION 0: code object v2, symbols without ".kd" */
    AK_CHECK(hsa_init());
    AK_CHECK(hsa_iterate_agents(ak_find_agents, NULL));
    if (!ak_ngpus || !ak_cpu.handle) {
        fprintf(stderr, "no GPU or CPU agent\n");
        exit(2);
    }
    AK_CHECK(hsa_amd_agent_iterate_memory_pools(ak_cpu, ak_find_pools, NULL));
    if (!ak_have_kernarg || !ak_have_fine) {
        fprintf(stderr, "no kernarg or fine-grained pool\n");
        exit(2);
    }
    AK_CHECK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                       NULL, &ak_exec));
    for (unsigned g = 0; g < ak_ngpus; g++) {
        int fd = open(path, O_RDONLY);
        hsa_code_object_reader_t reader;
        AK_CHECK(hsa_code_object_reader_create_from_file(fd, &reader));
        AK_CHECK(hsa_executable_load_agent_code_object(ak_exec, ak_gpus[g], reader, NULL, NULL));
    }
    AK_CHECK(hsa_executable_freeze(ak_exec, NULL));
}

/* Kernel `name` as loaded for GPU agent `g`. */
static inline struct ak_kernel ak_kernel_on(unsigned g, const char *name) {
    char sym_name[128];
    snprintf(sym_name, sizeof sym_name, ak_v2 ? "%s" : "%s.kd", name);
    hsa_executable_symbol_t sym;
    struct ak_kernel k;
    AK_CHECK(hsa_executable_get_symbol_by_name(ak_exec, sym_name, &ak_gpus[g], &sym));
    AK_CHECK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
                                            &k.object));
    AK_CHECK(hsa_executable_symbol_get_info(
        sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &k.kernarg_size));
    AK_CHECK(hsa_executable_symbol_get_info(
        sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &k.group_size));
    AK_CHECK(hsa_executable_symbol_get_info(
        sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &k.private_size));
    return k;
}

static inline struct ak_kernel ak_kernel(const char *name) { return ak_kernel_on(0, name); }

/* A kernarg segment: the explicit arguments as clang lays them out, hidden ones zero. */
static inline void *ak_args(const struct ak_kernel *k, const void *explicit_args, size_t size) {
    size_t total = k->kernarg_size > size ? k->kernarg_size : size;
    if (total == 0)
        total = 8;
    void *p = ak_alloc_in(ak_kernarg_pool, total);
    if (size)
        memcpy(p, explicit_args, size);
    return p;
}

static inline uint16_t ak_header(hsa_packet_type_t type, bool barrier) {
    return (uint16_t)((type << HSA_PACKET_HEADER_TYPE) |
                      ((barrier ? 1 : 0) << HSA_PACKET_HEADER_BARRIER) |
                      (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                      (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
}

/* Reserves the next slot of `q` (waiting while the ring is full); returns its index. */
static inline uint64_t ak_reserve(hsa_queue_t *q) {
    uint64_t idx = hsa_queue_add_write_index_screlease(q, 1);
    while (idx - hsa_queue_load_read_index_scacquire(q) >= q->size) {
    }
    return idx;
}

/* Writes a 1-D dispatch of `grid` work-items in work-groups of `wg` into slot `idx` and
 * publishes it (header last, release), without ringing the doorbell. */
static inline void ak_write(hsa_queue_t *q, uint64_t idx, const struct ak_kernel *k, void *args,
                     uint32_t grid, uint16_t wg, hsa_signal_t done, bool barrier) {
    hsa_kernel_dispatch_packet_t *p =
        (hsa_kernel_dispatch_packet_t *)((char *)q->base_address + (idx & (q->size - 1)) * 64);
    memset((char *)p + 4, 0, 60);
    p->workgroup_size_x = wg;
    p->workgroup_size_y = 1;
    p->workgroup_size_z = 1;
    p->grid_size_x = grid;
    p->grid_size_y = 1;
    p->grid_size_z = 1;
    p->private_segment_size = k->private_size;
    p->group_segment_size = k->group_size;
    p->kernel_object = k->object;
    p->kernarg_address = args;
    p->completion_signal = done;
    uint16_t setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
    __atomic_store_n((uint32_t *)p,
                     ak_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, barrier) | (uint32_t)setup << 16,
                     __ATOMIC_RELEASE);
}

/* Reserves, writes and publishes one dispatch, then rings the doorbell; returns its index. */
static inline uint64_t ak_dispatch(hsa_queue_t *q, const struct ak_kernel *k, void *args, uint32_t grid,
                            uint16_t wg, hsa_signal_t done, bool barrier) {
    uint64_t idx = ak_reserve(q);
    ak_write(q, idx, k, args, grid, wg, done, barrier);
    hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
    return idx;
}

/* Waits until `s` < 1 (no timeout); returns its value. */
static inline hsa_signal_value_t ak_wait(hsa_signal_t s) {
    return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
                                     HSA_WAIT_STATE_ACTIVE);
}

static inline double ak_now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

#endif
