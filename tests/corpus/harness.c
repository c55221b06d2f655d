/* The HSA back end of the corpus harness: plain HSA 1.x + AMD extensions, as a HIP or OpenCL
 * runtime would drive an AMD GPU, against Debian's /usr/include/hsa headers. */
#include "harness_internal.h"

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/amd_hsa_queue.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MAX_ALLOCS 64
#define MAX_KERNELS 64

struct kernel_info {
    char name[128];
    uint64_t object;
    uint32_t kernarg_size, group_size, private_size;
};

struct alloc {
    void *host;   /* what the case sees */
    void *device; /* what the kernel gets (== host unless CORPUS_MEM=coarse) */
    size_t bytes;
};

struct corpus {
    struct corpus_base base;
    hsa_agent_t gpu, cpu;
    hsa_amd_memory_pool_t kernarg_pool, fine_pool, coarse_pool;
    int have_kernarg, have_fine, have_coarse, coarse_mode;
    hsa_code_object_reader_t reader;
    hsa_executable_t exec;
    unsigned cov;
    hsa_queue_t *queue;
    volatile hsa_status_t queue_error;
    struct alloc allocs[MAX_ALLOCS];
    unsigned nallocs;
    struct kernel_info kernels[MAX_KERNELS];
    unsigned nkernels;
    double timeout_s;
};

static void report(const char *prog, const char *what, hsa_status_t st) {
    const char *text = NULL;
    if (hsa_status_string(st, &text) != HSA_STATUS_SUCCESS || !text)
        text = "?";
    fprintf(stderr, "%s: %s failed: status %#x (%s)\n", prog, what, (unsigned)st, text);
}

#define TRY(c, call)                                                                         \
    do {                                                                                     \
        hsa_status_t st_ = (call);                                                           \
        if (st_ != HSA_STATUS_SUCCESS) {                                                     \
            report((c)->base.program, #call, st_);                                           \
            return (int)st_;                                                                 \
        }                                                                                    \
    } while (0)

static hsa_status_t pick_agent(hsa_agent_t agent, void *data) {
    struct corpus *c = data;
    hsa_device_type_t type;
    hsa_status_t st = hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
    if (st != HSA_STATUS_SUCCESS)
        return st;
    if (type == HSA_DEVICE_TYPE_GPU && c->gpu.handle == 0)
        c->gpu = agent;
    if (type == HSA_DEVICE_TYPE_CPU && c->cpu.handle == 0)
        c->cpu = agent;
    return HSA_STATUS_SUCCESS;
}

/* CPU pools: the fine-grained KERNARG pool for kernargs and a fine-grained global pool for
 * buffers. GPU pools: a coarse-grained global pool (device memory). */
static hsa_status_t pick_pool(hsa_amd_memory_pool_t pool, void *data) {
    struct corpus *c = data;
    hsa_amd_segment_t seg;
    uint32_t flags = 0;
    bool alloc_ok = false;
    if (hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg) ||
        seg != HSA_AMD_SEGMENT_GLOBAL)
        return HSA_STATUS_SUCCESS;
    if (hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED,
                                     &alloc_ok) || !alloc_ok)
        return HSA_STATUS_SUCCESS;
    if (hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags))
        return HSA_STATUS_SUCCESS;
    if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) && !c->have_kernarg) {
        c->kernarg_pool = pool;
        c->have_kernarg = 1;
    }
    if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) && !c->have_fine) {
        c->fine_pool = pool;
        c->have_fine = 1;
    }
    if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) && !c->have_coarse) {
        c->coarse_pool = pool;
        c->have_coarse = 1;
    }
    return HSA_STATUS_SUCCESS;
}

/* The error callback of the queue: remembers the status so that the waiter gives up. */
static void queue_error_cb(hsa_status_t status, hsa_queue_t *q, void *data) {
    struct corpus *c = data;
    (void)q;
    const char *text = NULL;
    if (hsa_status_string(status, &text) != HSA_STATUS_SUCCESS || !text)
        text = "?";
    c->queue_error = status;
    fprintf(stderr, "%s: queue error callback: status %#x (%s)\n", c->base.program,
            (unsigned)status, text);
}

static int create_queue(struct corpus *c) {
    uint32_t max_size = 0;
    TRY(c, hsa_agent_get_info(c->gpu, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &max_size));
    uint32_t size = max_size < 1024 ? max_size : 1024;
    c->queue_error = HSA_STATUS_SUCCESS;
    TRY(c, hsa_queue_create(c->gpu, size, HSA_QUEUE_TYPE_SINGLE, queue_error_cb, c, UINT32_MAX,
                            UINT32_MAX, &c->queue));
    return 0;
}

int corpus_new_queue(corpus_t *c) {
    if (c->queue)
        hsa_queue_destroy(c->queue);
    c->queue = NULL;
    return create_queue(c);
}

unsigned corpus_code_object_version(corpus_t *c) { return c->cov; }

uint64_t corpus_hsa_gpu_agent(corpus_t *c) { return c->gpu.handle; }

/* The code object version from the ELF header: EI_ABIVERSION 0..3 under ELFOSABI_AMDGPU_HSA is
 * v2..v5 (amd_hsa_elf.h). The harness needs it for the symbol name and the hidden arguments. */
static unsigned read_cov(const char *path) {
    unsigned char ident[16];
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(ident, 1, sizeof ident, f);
    fclose(f);
    if (n != sizeof ident || memcmp(ident, "\177ELF", 4) != 0 || ident[7] != 64)
        return 0;
    return ident[8] <= 3 ? ident[8] + 2u : 0;
}

static int load_object(struct corpus *c, const char *path) {
    c->cov = read_cov(path);
    if (!c->cov) {
        fprintf(stderr, "%s: %s is not an AMDGPU HSA code object\n", c->base.program, path);
        return 2;
    }
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        perror(path);
        return 2;
    }
    hsa_profile_t profile;
    hsa_status_t st = hsa_agent_get_info(c->gpu, HSA_AGENT_INFO_PROFILE, &profile);
    if (st == HSA_STATUS_SUCCESS)
        st = hsa_code_object_reader_create_from_file(fd, &c->reader);
    if (st == HSA_STATUS_SUCCESS)
        st = hsa_executable_create_alt(profile, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
                                       &c->exec);
    if (st == HSA_STATUS_SUCCESS)
        st = hsa_executable_load_agent_code_object(c->exec, c->gpu, c->reader, NULL, NULL);
    if (st == HSA_STATUS_SUCCESS)
        st = hsa_executable_freeze(c->exec, NULL);
    close(fd);
    if (st != HSA_STATUS_SUCCESS) {
        report(c->base.program, "loading the code object", st);
        return 2;
    }
    uint32_t result = 1;
    st = hsa_executable_validate(c->exec, &result);
    if (st != HSA_STATUS_SUCCESS || result != 0) {
        fprintf(stderr, "%s: hsa_executable_validate: status %#x, result %u\n", c->base.program,
                (unsigned)st, result);
        return 2;
    }
    return 0;
}

corpus_t *corpus_backend_open(const char *program, const char *object) {
    struct corpus *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->base.program = program;
    c->base.object = object;
    c->base.rng = 0x9E3779B97F4A7C15ULL;
    for (const char *p = program; *p; p++)
        c->base.rng = (c->base.rng ^ (uint8_t)*p) * 0x100000001B3ULL;
    const char *t = getenv("CORPUS_TIMEOUT");
    c->timeout_s = t ? atof(t) : 120.0;
    const char *mem = getenv("CORPUS_MEM");
    c->coarse_mode = mem && strcmp(mem, "coarse") == 0;

    hsa_status_t st = hsa_init();
    if (st != HSA_STATUS_SUCCESS) {
        report(program, "hsa_init", st);
        free(c);
        return NULL;
    }
    int bad = 0;
    if (hsa_iterate_agents(pick_agent, c) != HSA_STATUS_SUCCESS || !c->gpu.handle ||
        !c->cpu.handle) {
        fprintf(stderr, "%s: no GPU and CPU agent\n", program);
        bad = 1;
    }
    if (!bad && (hsa_amd_agent_iterate_memory_pools(c->cpu, pick_pool, c) ||
                 !c->have_kernarg || !c->have_fine)) {
        fprintf(stderr, "%s: no kernarg or fine-grained pool on the CPU agent\n", program);
        bad = 1;
    }
    if (!bad && c->coarse_mode) {
        c->have_coarse = 0;
        if (hsa_amd_agent_iterate_memory_pools(c->gpu, pick_pool, c) || !c->have_coarse) {
            fprintf(stderr, "%s: no coarse-grained pool on the GPU agent\n", program);
            bad = 1;
        }
    }
    if (bad || load_object(c, object) || create_queue(c)) {
        corpus_backend_close(c);
        return NULL;
    }
    return c;
}

void corpus_backend_close(corpus_t *c) {
    for (unsigned i = 0; i < c->nallocs; i++) {
        if (c->allocs[i].device != c->allocs[i].host)
            hsa_amd_memory_pool_free(c->allocs[i].device);
        hsa_amd_memory_pool_free(c->allocs[i].host);
    }
    if (c->queue)
        hsa_queue_destroy(c->queue);
    if (c->exec.handle)
        hsa_executable_destroy(c->exec);
    if (c->reader.handle)
        hsa_code_object_reader_destroy(c->reader);
    hsa_shut_down();
    free(c);
}

void *corpus_alloc(corpus_t *c, size_t bytes) {
    if (c->nallocs == MAX_ALLOCS) {
        fprintf(stderr, "%s: too many buffers\n", c->base.program);
        exit(2);
    }
    struct alloc *a = &c->allocs[c->nallocs];
    size_t rounded = (bytes + 255) & ~(size_t)255;
    hsa_status_t st = hsa_amd_memory_pool_allocate(c->fine_pool, rounded, 0, &a->host);
    if (st == HSA_STATUS_SUCCESS)
        st = hsa_amd_agents_allow_access(1, &c->gpu, NULL, a->host);
    a->device = a->host;
    if (st == HSA_STATUS_SUCCESS && c->coarse_mode)
        st = hsa_amd_memory_pool_allocate(c->coarse_pool, rounded, 0, &a->device);
    if (st != HSA_STATUS_SUCCESS) {
        report(c->base.program, "allocating a buffer", st);
        exit(2);
    }
    memset(a->host, 0, rounded);
    a->bytes = rounded;
    c->nallocs++;
    return a->host;
}

static struct alloc *find_alloc(struct corpus *c, const void *host) {
    for (unsigned i = 0; i < c->nallocs; i++)
        if (c->allocs[i].host == host)
            return &c->allocs[i];
    return NULL;
}

/* Coarse mode: device copies of every buffer, synchronised around each dispatch. */
static int sync_buffers(struct corpus *c, int to_device) {
    if (!c->coarse_mode)
        return 0;
    for (unsigned i = 0; i < c->nallocs; i++) {
        struct alloc *a = &c->allocs[i];
        TRY(c, hsa_memory_copy(to_device ? a->device : a->host, to_device ? a->host : a->device,
                               a->bytes));
    }
    return 0;
}

static int find_kernel(struct corpus *c, const char *name, struct kernel_info **out) {
    for (unsigned i = 0; i < c->nkernels; i++)
        if (strcmp(c->kernels[i].name, name) == 0) {
            *out = &c->kernels[i];
            return 0;
        }
    if (c->nkernels == MAX_KERNELS || strlen(name) + 4 > sizeof c->kernels[0].name)
        return (int)HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    struct kernel_info *k = &c->kernels[c->nkernels];
    char symbol[sizeof k->name];
    /* v3+ name the kernel descriptor symbol "<kernel>.kd"; v2 names the kernel itself. */
    snprintf(symbol, sizeof symbol, c->cov >= 3 ? "%s.kd" : "%s", name);
    hsa_executable_symbol_t sym;
    TRY(c, hsa_executable_get_symbol_by_name(c->exec, symbol, &c->gpu, &sym));
    TRY(c, hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
                                          &k->object));
    TRY(c, hsa_executable_symbol_get_info(
               sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &k->kernarg_size));
    TRY(c, hsa_executable_symbol_get_info(
               sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &k->group_size));
    TRY(c, hsa_executable_symbol_get_info(
               sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &k->private_size));
    strcpy(k->name, name);
    c->nkernels++;
    *out = k;
    return 0;
}

/* Writes `size` bytes at `off` if the kernel's kernarg segment has room for them (clang omits
 * trailing hidden arguments a kernel does not use). */
static void put(uint8_t *seg, uint32_t seg_size, uint32_t off, const void *v, uint32_t size) {
    if (off + size <= seg_size)
        memcpy(seg + off, v, size);
}

/* Fills the kernarg segment: explicit arguments at their natural alignment (as clang lays them
 * out), then the hidden arguments clang appends at the next 8-byte boundary. v2-v4: global
 * offsets x/y/z, printf/hostcall, default queue, completion action, multigrid sync - all zero for
 * these kernels. v5: the 256-byte implicit-argument block (AMDGPUUsage, "Code Object V5
 * Metadata"). Returns the hidden-argument offset. */
static uint32_t write_kernargs(struct corpus *c, const struct kernel_info *k, uint8_t *seg,
                               uint32_t seg_size, unsigned dims, const uint32_t grid[3],
                               const uint16_t wg[3], const corpus_arg *args, unsigned nargs) {
    uint32_t off = 0;
    for (unsigned i = 0; i < nargs; i++) {
        uint32_t align = args[i].size >= 16 ? 16 : args[i].size >= 8 ? 8 : args[i].size >= 4 ? 4
                         : args[i].size >= 2 ? 2 : 1;
        off = (off + align - 1) & ~(align - 1);
        if (args[i].kind == CORPUS_ARG_BUFFER) {
            struct alloc *a = find_alloc(c, args[i].buf);
            uint64_t p = (uint64_t)(uintptr_t)(a ? a->device : args[i].buf);
            put(seg, seg_size, off, &p, 8);
        } else {
            put(seg, seg_size, off, args[i].val.bytes, args[i].size);
        }
        off += args[i].size;
    }
    uint32_t hidden = (off + 7) & ~7u;
    if (c->cov < 5)
        return hidden;
    for (unsigned d = 0; d < 3; d++) {
        uint32_t blocks = grid[d] / wg[d];
        uint16_t rem = (uint16_t)(grid[d] % wg[d]);
        put(seg, seg_size, hidden + 4 * d, &blocks, 4);      /* hidden_block_count_{x,y,z} */
        put(seg, seg_size, hidden + 12 + 2 * d, &wg[d], 2);  /* hidden_group_size_{x,y,z} */
        put(seg, seg_size, hidden + 18 + 2 * d, &rem, 2);    /* hidden_remainder_{x,y,z} */
    }
    uint16_t gd = (uint16_t)dims;
    put(seg, seg_size, hidden + 64, &gd, 2); /* hidden_grid_dims; global offsets stay 0 */
    uint32_t dyn_lds = 0;
    put(seg, seg_size, hidden + 120, &dyn_lds, 4); /* hidden_dynamic_lds_size */
    const amd_queue_t *aq = (const amd_queue_t *)c->queue;
    put(seg, seg_size, hidden + 192, &aq->private_segment_aperture_base_hi, 4);
    put(seg, seg_size, hidden + 196, &aq->group_segment_aperture_base_hi, 4);
    uint64_t qp = (uint64_t)(uintptr_t)c->queue;
    put(seg, seg_size, hidden + 200, &qp, 8); /* hidden_queue_ptr */
    (void)k;
    return hidden;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int corpus_run(corpus_t *c, const char *kernel, unsigned dims, const size_t grid_in[3],
               const size_t wg_in[3], const corpus_arg *args, unsigned nargs) {
    struct kernel_info *k;
    int r = find_kernel(c, kernel, &k);
    if (r)
        return r;
    uint32_t grid[3] = { 1, 1, 1 };
    uint16_t wg[3] = { 1, 1, 1 };
    for (unsigned d = 0; d < dims && d < 3; d++) {
        grid[d] = (uint32_t)grid_in[d];
        wg[d] = (uint16_t)wg_in[d];
    }
    /* At least the explicit arguments plus the largest hidden block, whatever the metadata says,
     * so that a short kernarg_segment_size cannot make us write past the allocation. */
    uint32_t seg_size = k->kernarg_size;
    void *seg = NULL;
    TRY(c, hsa_amd_memory_pool_allocate(c->kernarg_pool, seg_size + 512, 0, &seg));
    TRY(c, hsa_amd_agents_allow_access(1, &c->gpu, NULL, seg));
    memset(seg, 0, seg_size + 512);
    write_kernargs(c, k, seg, seg_size, dims, grid, wg, args, nargs);
    if ((r = sync_buffers(c, 1)))
        return r;

    hsa_signal_t done;
    TRY(c, hsa_signal_create(1, 0, NULL, &done));
    hsa_queue_t *q = c->queue;
    uint64_t index = hsa_queue_add_write_index_scacq_screl(q, 1);
    while (index - hsa_queue_load_read_index_scacquire(q) >= q->size)
        ;
    hsa_kernel_dispatch_packet_t *p =
        (hsa_kernel_dispatch_packet_t *)q->base_address + (index & (q->size - 1));
    memset((uint8_t *)p + 4, 0, sizeof *p - 4);
    p->workgroup_size_x = wg[0];
    p->workgroup_size_y = wg[1];
    p->workgroup_size_z = wg[2];
    p->grid_size_x = grid[0];
    p->grid_size_y = grid[1];
    p->grid_size_z = grid[2];
    p->private_segment_size = k->private_size;
    p->group_segment_size = k->group_size;
    p->kernel_object = k->object;
    p->kernarg_address = seg;
    p->completion_signal = done;
    uint16_t header = (HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE) |
                      (1 << HSA_PACKET_HEADER_BARRIER) |
                      (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                      (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
    uint16_t setup = (uint16_t)(dims << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
    /* Header and setup last, in one release store: the packet becomes valid atomically. */
    __atomic_store_n((uint32_t *)p, header | ((uint32_t)setup << 16), __ATOMIC_RELEASE);
    hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)index);

    double start = now_s();
    int status = 0;
    while (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, 100000000ull,
                                     HSA_WAIT_STATE_BLOCKED) >= 1) {
        if (c->queue_error != HSA_STATUS_SUCCESS) {
            status = (int)c->queue_error;
            break;
        }
        if (now_s() - start > c->timeout_s) {
            fprintf(stderr, "%s: %s did not complete in %.0f s\n", c->base.program, kernel,
                    c->timeout_s);
            status = (int)HSA_STATUS_ERROR;
            break;
        }
    }
    if (getenv("CORPUS_VERBOSE"))
        fprintf(stderr, "%s: %s took %.3f ms\n", c->base.program, kernel,
                (now_s() - start) * 1e3);
    if (status == 0)
        status = sync_buffers(c, 0);
    /* After a fault the packet processor may still own the signal and kernargs: leak them. */
    if (status == 0) {
        hsa_signal_destroy(done);
        hsa_amd_memory_pool_free(seg);
    }
    return status;
}
