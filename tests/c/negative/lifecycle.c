/* Negative lifecycle tests: double destroy of every handle kind, every get_info attribute with a
 * NULL output (and outputs never overrun), queue creation with invalid arguments, a full queue,
 * a queue destroyed with packets in flight (blocked barrier, running kernel). Statuses are the
 * ones hsa.h / hsa_ext_amd.h name and ROCm 5.2 returns (hsa.cpp checks IS_BAD_PTR → INVALID_ARGUMENT
 * and IS_VALID → the handle kind's INVALID_* status; freeing an unknown pointer is
 * INVALID_ALLOCATION). After each, a bystander queue, signal and allocation still work. */
#include "check.h"
#include "kernels.h"

#include <hsa/amd_hsa_queue.h>

static rig_t rig;
static hsa_queue_t *healthy;
static hsa_signal_t bystander;
static uint32_t *kept;

static void nothing_lost(const char *after) {
  int ok = rig_scale_works(&rig, healthy, 300) && hsa_signal_load_relaxed(bystander) == 7 &&
           kept[0] == 0x1234 && kept[1023] == 0x5678;
  if (!ok) fprintf(stderr, "something was lost after: %s\n", after);
  CHECK(ok);
}

static void double_destroy(void) {
  hsa_signal_t s = rig_signal(0);
  CHECK_OK(hsa_signal_destroy(s));
  CHECK_STATUS(hsa_signal_destroy(s), HSA_STATUS_ERROR_INVALID_SIGNAL);

  hsa_signal_t members[2] = {rig_signal(1), rig_signal(1)};
  hsa_signal_group_t g;
  /* hsa.h: num_consumers 0 or consumers NULL is INVALID_ARGUMENT. */
  CHECK_STATUS(hsa_signal_group_create(2, members, 0, NULL, &g), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(hsa_signal_group_create(0, members, 1, &rig.gpu, &g), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_OK(hsa_signal_group_create(2, members, 1, &rig.gpu, &g));
  CHECK_OK(hsa_signal_group_destroy(g));
  CHECK_STATUS(hsa_signal_group_destroy(g), HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP);
  CHECK_OK(hsa_signal_destroy(members[0]));
  CHECK_OK(hsa_signal_destroy(members[1]));

  hsa_queue_t *q = rig_queue(&rig, 64, NULL);
  /* A queue's doorbell is the runtime's: destroying it is refused, the queue keeps working. */
  CHECK_STATUS(hsa_signal_destroy(q->doorbell_signal), HSA_STATUS_ERROR_INVALID_SIGNAL);
  CHECK_STATUS(hsa_signal_destroy(((amd_queue_t *)q)->queue_inactive_signal), HSA_STATUS_ERROR_INVALID_SIGNAL);
  CHECK(rig_scale_works(&rig, q, 64));
  CHECK_OK(hsa_queue_destroy(q));
  CHECK_STATUS(hsa_queue_destroy(q), HSA_STATUS_ERROR_INVALID_QUEUE);
  CHECK_STATUS(hsa_queue_inactivate(q), HSA_STATUS_ERROR_INVALID_QUEUE);

  hsa_executable_t e;
  CHECK_OK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &e));
  CHECK_OK(hsa_executable_load_agent_code_object(e, rig.gpu, rig.reader, NULL, NULL));
  CHECK_OK(hsa_executable_freeze(e, NULL));
  hsa_executable_symbol_t sym;
  CHECK_OK(hsa_executable_get_symbol_by_name(e, "spin.kd", &rig.gpu, &sym));
  CHECK_OK(hsa_executable_destroy(e));
  CHECK_STATUS(hsa_executable_destroy(e), HSA_STATUS_ERROR_INVALID_EXECUTABLE);
  uint64_t object = 0;
  CHECK_STATUS(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &object),
               HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL);

  static char code[1 << 16];
  FILE *f = fopen(KERNELS_PATH, "rb");
  size_t n = f ? fread(code, 1, sizeof code, f) : 0;
  if (f) fclose(f);
  hsa_code_object_reader_t r;
  CHECK_OK(hsa_code_object_reader_create_from_memory(code, n, &r));
  CHECK_OK(hsa_code_object_reader_destroy(r));
  CHECK_STATUS(hsa_code_object_reader_destroy(r), HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER);

  hsa_code_object_t co;
  CHECK_OK(hsa_code_object_deserialize(code, n, NULL, &co));
  CHECK_OK(hsa_code_object_destroy(co));
  CHECK_STATUS(hsa_code_object_destroy(co), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);

  void *p = NULL;
  CHECK_OK(hsa_amd_memory_pool_allocate(rig.device_pool, 4096, 0, &p));
  CHECK_OK(hsa_amd_memory_pool_free(p));
  CHECK_STATUS(hsa_amd_memory_pool_free(p), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  CHECK_STATUS(hsa_amd_memory_pool_free((char *)kept + 8), HSA_STATUS_ERROR_INVALID_ALLOCATION);

  hsa_region_t region = {0};
  hsa_agent_iterate_regions(rig.cpu, NULL, NULL); /* NULL callback: an error, not a crash */
  CHECK_STATUS(hsa_agent_iterate_regions(rig.cpu, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  (void)region;

  static char host[8192];
  void *agent_ptr = NULL;
  CHECK_OK(hsa_amd_memory_lock(host, sizeof host, &rig.gpu, 1, &agent_ptr));
  CHECK_OK(hsa_amd_memory_unlock(host));
  /* ROCm documents only success for unlock; softhsa says a second unlock is INVALID_ARGUMENT. */
  CHECK_STATUS(hsa_amd_memory_unlock(host), HSA_STATUS_ERROR_INVALID_ARGUMENT);

  CHECK_OK(hsa_memory_register(host, sizeof host));
  CHECK_OK(hsa_memory_deregister(host, sizeof host));
  CHECK(hsa_memory_deregister(host, sizeof host) != HSA_STATUS_SUCCESS);
  nothing_lost("double destroy");
}

/* Fills `buf` with 0xa5 and returns how many leading bytes of it the call wrote at most. */
static size_t written(const unsigned char *buf, size_t cap) {
  size_t last = 0;
  for (size_t i = 0; i < cap; i++)
    if (buf[i] != 0xa5) last = i + 1;
  return last;
}

static int null_failures, overruns, attributes_ok;

static void probe(const char *what, uint32_t attr, hsa_status_t (*call)(uint32_t, void *)) {
  static unsigned char buf[4096];
  hsa_status_t st = call(attr, NULL);
  if (st != HSA_STATUS_ERROR_INVALID_ARGUMENT) {
    null_failures++;
    fprintf(stderr, "%s attribute %#x with a NULL output: %#x (%s)\n", what, attr, (unsigned)st,
            status_text(st));
  }
  memset(buf, 0xa5, sizeof buf);
  if (call(attr, buf) == HSA_STATUS_SUCCESS) {
    attributes_ok++;
    /* The largest documented output is 128 bytes (HSA_AGENT_INFO_EXTENSIONS). */
    if (written(buf, sizeof buf) > 128) {
      overruns++;
      fprintf(stderr, "%s attribute %#x wrote %zu bytes\n", what, attr, written(buf, sizeof buf));
    }
  }
}

static hsa_status_t sys_info(uint32_t a, void *v) { return hsa_system_get_info(a, v); }
static hsa_status_t gpu_info(uint32_t a, void *v) { return hsa_agent_get_info(rig.gpu, a, v); }
static hsa_status_t cpu_info(uint32_t a, void *v) { return hsa_agent_get_info(rig.cpu, a, v); }
static hsa_status_t pool_info(uint32_t a, void *v) { return hsa_amd_memory_pool_get_info(rig.device_pool, a, v); }
static hsa_status_t host_pool_info(uint32_t a, void *v) { return hsa_amd_memory_pool_get_info(rig.host_pool, a, v); }
static hsa_status_t agent_pool_info(uint32_t a, void *v) {
  return hsa_amd_agent_memory_pool_get_info(rig.gpu, rig.host_pool, a, v);
}
static hsa_status_t region_info(uint32_t a, void *v) {
  hsa_region_t r = {rig.host_pool.handle};
  return hsa_region_get_info(r, a, v);
}
static hsa_isa_t isa;
static hsa_status_t isa_cb(hsa_isa_t i, void *d) { (void)d; isa = i; return HSA_STATUS_INFO_BREAK; }
static hsa_status_t isa_info(uint32_t a, void *v) { return hsa_isa_get_info_alt(isa, a, v); }
static hsa_wavefront_t wave;
static hsa_status_t wave_cb(hsa_wavefront_t w, void *d) { (void)d; wave = w; return HSA_STATUS_INFO_BREAK; }
static hsa_status_t wave_info(uint32_t a, void *v) { return hsa_wavefront_get_info(wave, a, v); }
static hsa_cache_t cache;
static hsa_status_t cache_cb(hsa_cache_t c, void *d) { (void)d; cache = c; return HSA_STATUS_INFO_BREAK; }
static hsa_status_t cache_info(uint32_t a, void *v) { return hsa_cache_get_info(cache, a, v); }
static hsa_status_t exe_info(uint32_t a, void *v) { return hsa_executable_get_info(rig.exe, a, v); }
static hsa_executable_symbol_t symbol;
static hsa_status_t symbol_info(uint32_t a, void *v) { return hsa_executable_symbol_get_info(symbol, a, v); }
static hsa_code_object_t code_object;
static hsa_status_t co_info(uint32_t a, void *v) { return hsa_code_object_get_info(code_object, a, v); }

static void get_info_outputs(void) {
  CHECK_OK(hsa_agent_iterate_isas(rig.gpu, isa_cb, NULL) == HSA_STATUS_INFO_BREAK ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR);
  hsa_isa_iterate_wavefronts(isa, wave_cb, NULL);
  hsa_agent_iterate_caches(rig.gpu, cache_cb, NULL);
  CHECK_OK(hsa_executable_get_symbol_by_name(rig.exe, "scale.kd", &rig.gpu, &symbol));
  static char code[1 << 16];
  FILE *f = fopen(KERNELS_PATH, "rb");
  size_t n = f ? fread(code, 1, sizeof code, f) : 0;
  if (f) fclose(f);
  CHECK_OK(hsa_code_object_deserialize(code, n, NULL, &code_object));

  for (uint32_t a = 0; a < 0x40; a++) {
    probe("system", a, sys_info);
    probe("system", 0x200 + a, sys_info);
    probe("GPU agent", a, gpu_info);
    probe("CPU agent", a, cpu_info);
    probe("GPU agent", 0xA000 + a, gpu_info);
    probe("CPU agent", 0xA000 + a, cpu_info);
    probe("GPU agent", 0xA100 + a, gpu_info);
    probe("device pool", a, pool_info);
    probe("host pool", a, host_pool_info);
    probe("agent pool", a, agent_pool_info);
    probe("region", a, region_info);
    probe("isa", a, isa_info);
    probe("wavefront", a, wave_info);
    probe("cache", a, cache_info);
    probe("executable", a, exe_info);
    probe("symbol", a, symbol_info);
    probe("code object", a, co_info);
  }
  CHECK(null_failures == 0);
  CHECK(overruns == 0);
  CHECK(attributes_ok > 100); /* the probe reached real attributes */
  printf("get_info: %d attributes answered, none overran, every NULL output refused\n", attributes_ok);
  CHECK_OK(hsa_code_object_destroy(code_object));

  /* hsa_amd_pointer_info with an undersized structure: only `size` bytes are written. */
  unsigned char info[sizeof(hsa_amd_pointer_info_t) + 16];
  for (uint32_t size = 4; size <= sizeof(hsa_amd_pointer_info_t); size += 4) {
    memset(info, 0xa5, sizeof info);
    memcpy(info, &size, 4);
    CHECK_OK(hsa_amd_pointer_info(kept, (hsa_amd_pointer_info_t *)info, NULL, NULL, NULL));
    CHECK(written(info, sizeof info) <= size);
  }
  CHECK_STATUS(hsa_amd_pointer_info(kept, NULL, NULL, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  nothing_lost("get_info");
}

static void queue_creation(void) {
  hsa_queue_t *q = NULL;
  uint32_t max = 0;
  CHECK_OK(hsa_agent_get_info(rig.gpu, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &max));
  CHECK_STATUS(hsa_queue_create(rig.gpu, 0, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
               HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(hsa_queue_create(rig.gpu, 100, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
               HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(hsa_queue_create(rig.gpu, max * 2, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
               HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(hsa_queue_create(rig.gpu, 64, 7, NULL, NULL, 0, 0, &q), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(hsa_queue_create(rig.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, NULL),
               HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_agent_t forged = {0xdeadbeef};
  CHECK_STATUS(hsa_queue_create(forged, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
               HSA_STATUS_ERROR_INVALID_AGENT);
  hsa_status_t st = hsa_queue_create(rig.cpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q);
  CHECK(st != HSA_STATUS_SUCCESS); /* no packet processor on the CPU agent */
  nothing_lost("queue creation");
}

/* A queue filled to its size behind a blocked barrier: the processor waits, the producer sees
 * it full, nothing is consumed early; released, every packet completes in order, then the ring
 * wraps around twice more. */
static void full_queue(void) {
  uint32_t min = 0;
  CHECK_OK(hsa_agent_get_info(rig.gpu, HSA_AGENT_INFO_QUEUE_MIN_SIZE, &min));
  uint32_t size = min < 16 ? 16 : min;
  struct queue_errors errors = {0};
  hsa_queue_t *q = rig_queue(&rig, size, &errors);
  hsa_signal_t gate = rig_signal(1), done = rig_signal(size * 3 - 1);
  hsa_barrier_and_packet_t b;
  memset(&b, 0, sizeof b);
  b.header = rig_header(HSA_PACKET_TYPE_BARRIER_AND);
  b.dep_signal[0] = gate;
  b.completion_signal = done;
  rig_submit(q, &b);
  b.dep_signal[0].handle = 0;
  for (uint32_t i = 1; i < size; i++) rig_submit(q, &b);
  CHECK(hsa_queue_load_write_index_scacquire(q) - hsa_queue_load_read_index_scacquire(q) == size);
  usleep(50000);
  CHECK(hsa_queue_load_read_index_scacquire(q) == 0);
  CHECK(hsa_signal_load_scacquire(done) == (hsa_signal_value_t)(size * 3 - 1));
  hsa_signal_store_screlease(gate, 0);
  for (uint32_t i = size; i < size * 3 - 1; i++) rig_submit(q, &b); /* waits for room */
  CHECK(rig_wait(done, 20000) == 0);
  CHECK(hsa_queue_load_read_index_scacquire(q) == size * 3 - 1);
  CHECK(errors.count == 0);
  CHECK(rig_scale_works(&rig, q, 100));
  CHECK_OK(hsa_queue_destroy(q));
  CHECK_OK(hsa_signal_destroy(gate));
  CHECK_OK(hsa_signal_destroy(done));
  nothing_lost("full queue");
}

/* Destroying a queue whose processor is blocked on a barrier, with dispatches behind it, and one
 * running a long kernel: the destroy returns, pending completion signals stay untouched. */
static void destroy_in_flight(void) {
  hsa_queue_t *q = rig_queue(&rig, 64, NULL);
  hsa_signal_t gate = rig_signal(1), done = rig_signal(1);
  hsa_barrier_and_packet_t b;
  memset(&b, 0, sizeof b);
  b.header = rig_header(HSA_PACKET_TYPE_BARRIER_AND);
  b.dep_signal[0] = gate;
  rig_submit(q, &b);
  uint32_t *out = rig_alloc(&rig, 64 * 64 * 4);
  struct { void *out; uint32_t count; } *args = rig_alloc(&rig, 64);
  args->out = out;
  args->count = 10;
  hsa_kernel_dispatch_packet_t p = rig_packet(&rig.spin, 64, 64, args, done);
  for (int i = 0; i < 10; i++) rig_submit(q, &p);
  usleep(20000);
  uint64_t t0 = now_ns();
  CHECK_OK(hsa_queue_destroy(q));
  CHECK(now_ns() - t0 < 2000000000ull);
  hsa_signal_store_screlease(gate, 0);
  usleep(20000);
  CHECK(hsa_signal_load_scacquire(done) == 1);

  /* A long-running kernel (64 waves of about 2^20 instructions): the destroy waits for it to
   * end (softhsa does not preempt a running dispatch) and returns. */
  q = rig_queue(&rig, 64, NULL);
  args->count = 1u << 18;
  p = rig_packet(&rig.spin, 64 * 64, 64, args, done);
  rig_submit(q, &p);
  usleep(50000);
  t0 = now_ns();
  CHECK_OK(hsa_queue_destroy(q));
  printf("destroying a queue with a running kernel took %.1f ms\n", (now_ns() - t0) / 1e6);
  CHECK_OK(hsa_signal_destroy(gate));
  CHECK_OK(hsa_signal_destroy(done));
  rig_free(args);
  rig_free(out);
  nothing_lost("destroy in flight");
}

int main(void) {
  CHECK_OK(hsa_init());
  rig_open(&rig);
  healthy = rig_queue(&rig, 64, NULL);
  bystander = rig_signal(7);
  kept = rig_alloc(&rig, 4096);
  kept[0] = 0x1234;
  kept[1023] = 0x5678;

  double_destroy();
  get_info_outputs();
  queue_creation();
  full_queue();
  destroy_in_flight();

  CHECK_OK(hsa_queue_destroy(healthy));
  CHECK_OK(hsa_signal_destroy(bystander));
  rig_free(kept);
  rig_close(&rig);
  CHECK_OK(hsa_shut_down());
  CHECK_STATUS(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
  TEST_DONE();
}
