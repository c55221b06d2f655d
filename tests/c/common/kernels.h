/* Kernels for the robustness tests (negative, stress, isolation): loads fuzz/assets/kernels.hsaco
 * (gfx906, built from kernels.cl beside it; the tests run in the repository root) and dispatches
 * its kernels: scale(out, in, n): out[i] = in[i] * 3 + 1; lds(out, dyn); scratch(out, k);
 * spin(out, count); poke(at, value, read): at[0] = value, or at[1] = at[0] when `read`.
 *
 * Needs check.h first. All helpers abort the test on a failed setup call. */
#ifndef SOFTHSA_TEST_KERNELS_H
#define SOFTHSA_TEST_KERNELS_H

#include <sched.h>
#include <time.h>
#include <unistd.h>

#define KERNELS_PATH "fuzz/assets/kernels.hsaco"

#define SETUP_OK(expr)                                                             \
  do {                                                                             \
    hsa_status_t st_ = (expr);                                                     \
    if (st_ != HSA_STATUS_SUCCESS) {                                               \
      fprintf(stderr, "%s:%d: setup %s failed: %s\n", __FILE__, __LINE__, #expr,  \
              status_text(st_));                                                   \
      exit(2);                                                                     \
    }                                                                              \
  } while (0)

typedef struct {
  uint64_t object;
  uint32_t kernarg_size, group_size, private_size;
} kernel_t;

typedef struct {
  hsa_agent_t gpu, cpu;
  hsa_amd_memory_pool_t host_pool, device_pool;
  hsa_executable_t exe;
  hsa_code_object_reader_t reader;
  kernel_t scale, lds, scratch, spin, poke;
} rig_t;

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static kernel_t rig_kernel(hsa_executable_t exe, hsa_agent_t gpu, const char *name) {
  hsa_executable_symbol_t sym;
  kernel_t k = {0};
  SETUP_OK(hsa_executable_get_symbol_by_name(exe, name, &gpu, &sym));
  SETUP_OK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &k.object));
  SETUP_OK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
                                          &k.kernarg_size));
  SETUP_OK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE,
                                          &k.group_size));
  SETUP_OK(hsa_executable_symbol_get_info(
      sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &k.private_size));
  return k;
}

/* Loads the kernels (hsa_init must have been called). */
static void rig_open(rig_t *r) {
  memset(r, 0, sizeof *r);
  r->gpu = find_agent(HSA_DEVICE_TYPE_GPU, 0);
  r->cpu = find_agent(HSA_DEVICE_TYPE_CPU, 0);
  if (!r->gpu.handle || !r->cpu.handle) {
    fprintf(stderr, "no GPU or CPU agent\n");
    exit(2);
  }
  r->host_pool = find_pool(r->cpu, HSA_AMD_SEGMENT_GLOBAL, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
  r->device_pool = find_pool(r->gpu, HSA_AMD_SEGMENT_GLOBAL, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
  FILE *f = fopen(KERNELS_PATH, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s (run from the repository root)\n", KERNELS_PATH);
    exit(2);
  }
  static char code[1 << 16];
  size_t n = fread(code, 1, sizeof code, f);
  fclose(f);
  SETUP_OK(hsa_code_object_reader_create_from_memory(code, n, &r->reader));
  SETUP_OK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
                                     &r->exe));
  SETUP_OK(hsa_executable_load_agent_code_object(r->exe, r->gpu, r->reader, NULL, NULL));
  SETUP_OK(hsa_executable_freeze(r->exe, NULL));
  r->scale = rig_kernel(r->exe, r->gpu, "scale.kd");
  r->lds = rig_kernel(r->exe, r->gpu, "lds.kd");
  r->scratch = rig_kernel(r->exe, r->gpu, "scratch.kd");
  r->spin = rig_kernel(r->exe, r->gpu, "spin.kd");
  r->poke = rig_kernel(r->exe, r->gpu, "poke.kd");
}

static void rig_close(rig_t *r) {
  SETUP_OK(hsa_executable_destroy(r->exe));
  SETUP_OK(hsa_code_object_reader_destroy(r->reader));
}

/* Fine-grained host memory the GPU may access, zero-filled. */
static void *rig_alloc(rig_t *r, size_t bytes) {
  void *p = NULL;
  SETUP_OK(hsa_amd_memory_pool_allocate(r->host_pool, bytes, 0, &p));
  SETUP_OK(hsa_amd_agents_allow_access(1, &r->gpu, NULL, p));
  memset(p, 0, bytes);
  return p;
}

static void rig_free(void *p) { SETUP_OK(hsa_amd_memory_pool_free(p)); }

static hsa_signal_t rig_signal(hsa_signal_value_t v) {
  hsa_signal_t s;
  SETUP_OK(hsa_signal_create(v, 0, NULL, &s));
  return s;
}

/* A queue's error callback records here (data = a struct queue_errors *). */
struct queue_errors {
  volatile int count;
  volatile hsa_status_t last;
  hsa_queue_t *volatile queue;
};

static void rig_on_error(hsa_status_t status, hsa_queue_t *q, void *data) {
  struct queue_errors *e = data;
  e->last = status;
  e->queue = q;
  __atomic_add_fetch(&e->count, 1, __ATOMIC_SEQ_CST);
}

static hsa_queue_t *rig_queue(rig_t *r, uint32_t size, struct queue_errors *errors) {
  hsa_queue_t *q = NULL;
  SETUP_OK(hsa_queue_create(r->gpu, size, HSA_QUEUE_TYPE_MULTI, errors ? rig_on_error : NULL, errors,
                            UINT32_MAX, UINT32_MAX, &q));
  return q;
}

static uint16_t rig_header(uint16_t type) {
  return (uint16_t)(type | 1 << HSA_PACKET_HEADER_BARRIER |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
}

/* Writes a 64-byte packet into the next slot (waiting for room), its first 32-bit word last
 * with release, and rings the doorbell. Returns the packet's index. */
static uint64_t rig_submit(hsa_queue_t *q, const void *packet) {
  uint64_t idx = hsa_queue_add_write_index_screlease(q, 1);
  while (idx - hsa_queue_load_read_index_scacquire(q) >= q->size) sched_yield();
  uint32_t *slot = (uint32_t *)((char *)q->base_address + (idx % q->size) * 64);
  const uint32_t *w = packet;
  memcpy(slot + 1, w + 1, 60);
  __atomic_store_n(slot, w[0], __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
  return idx;
}

/* A kernel dispatch packet of `k` over a 1-D grid. */
static hsa_kernel_dispatch_packet_t rig_packet(const kernel_t *k, uint32_t grid, uint16_t wg,
                                               void *kernarg, hsa_signal_t done) {
  hsa_kernel_dispatch_packet_t p;
  memset(&p, 0, sizeof p);
  p.header = rig_header(HSA_PACKET_TYPE_KERNEL_DISPATCH);
  p.setup = 1;
  p.workgroup_size_x = wg;
  p.workgroup_size_y = p.workgroup_size_z = 1;
  p.grid_size_x = grid;
  p.grid_size_y = p.grid_size_z = 1;
  p.kernel_object = k->object;
  p.kernarg_address = kernarg;
  p.private_segment_size = k->private_size;
  p.group_segment_size = k->group_size;
  p.completion_signal = done;
  return p;
}

/* Waits for a signal to reach 0 (up to `ms` milliseconds); returns its last value. */
static hsa_signal_value_t rig_wait(hsa_signal_t s, uint64_t ms) {
  return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, ms * 1000000u,
                                   HSA_WAIT_STATE_BLOCKED);
}

/* Waits up to `ms` for the error count to pass `before`; returns 1 when it did. */
static int rig_wait_error(struct queue_errors *e, int before, uint64_t ms) {
  uint64_t end = now_ns() + ms * 1000000u;
  while (__atomic_load_n(&e->count, __ATOMIC_SEQ_CST) == before && now_ns() < end) usleep(200);
  return e->count != before;
}

/* Runs scale over n work-items on q and checks every result; returns 1 when all matched. */
static int rig_scale_works(rig_t *r, hsa_queue_t *q, uint32_t n) {
  uint32_t *in = rig_alloc(r, n * 4u), *out = rig_alloc(r, n * 4u);
  for (uint32_t i = 0; i < n; i++) in[i] = i * 7u + 3u;
  struct { void *out, *in; uint32_t n; } *args = rig_alloc(r, 64);
  args->out = out;
  args->in = in;
  args->n = n;
  hsa_signal_t done = rig_signal(1);
  hsa_kernel_dispatch_packet_t p = rig_packet(&r->scale, n, 64, args, done);
  rig_submit(q, &p);
  int ok = rig_wait(done, 20000) == 0;
  for (uint32_t i = 0; ok && i < n; i++) ok = out[i] == in[i] * 3u + 1u;
  hsa_signal_destroy(done);
  rig_free(args);
  rig_free(out);
  rig_free(in);
  return ok;
}

#endif
