/* Stress: many threads creating and destroying queues, signals, signal groups, executables and
 * allocations at once, each checking what it made (a dispatch on its queue computes the right
 * results, a signal holds its value, an allocation its bytes); then thousands of queues and a
 * million signals alive at once; then device memory exhausted (the pool's size is small:
 * scripts set SOFTHSA_DEVICE_MEMORY) gives OUT_OF_RESOURCES and works again after frees. */
#include "check.h"
#include "kernels.h"

#include <pthread.h>

static rig_t rig;
static char code[1 << 16];
static size_t code_len;
static int failures;

#define FAIL(...)                                                                  \
  do {                                                                             \
    fprintf(stderr, __VA_ARGS__);                                                  \
    __atomic_add_fetch(&failures, 1, __ATOMIC_SEQ_CST);                            \
  } while (0)

static void *churn(void *arg) {
  unsigned seed = (unsigned)(uintptr_t)arg * 2654435761u;
  for (int round = 0; round < 12; round++) {
    seed = seed * 1103515245u + 12345u;
    hsa_signal_t sig[8];
    for (int i = 0; i < 8; i++) {
      if (hsa_signal_create(i + (int)seed % 97, 0, NULL, &sig[i]) != HSA_STATUS_SUCCESS) FAIL("signal_create\n");
    }
    hsa_signal_group_t g;
    if (hsa_signal_group_create(8, sig, 1, &rig.gpu, &g) != HSA_STATUS_SUCCESS) FAIL("group_create\n");
    void *p = NULL;
    size_t bytes = 4096u * (1 + seed % 16);
    if (hsa_amd_memory_pool_allocate(rig.host_pool, bytes, 0, &p) != HSA_STATUS_SUCCESS) FAIL("allocate\n");
    if (p) memset(p, (int)(seed & 0xff), bytes);

    hsa_code_object_reader_t r;
    hsa_executable_t e;
    if (hsa_code_object_reader_create_from_memory(code, code_len, &r) != HSA_STATUS_SUCCESS) FAIL("reader\n");
    if (hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &e) !=
            HSA_STATUS_SUCCESS ||
        hsa_executable_load_agent_code_object(e, rig.gpu, r, NULL, NULL) != HSA_STATUS_SUCCESS ||
        hsa_executable_freeze(e, NULL) != HSA_STATUS_SUCCESS)
      FAIL("executable\n");

    hsa_queue_t *q = NULL;
    if (hsa_queue_create(rig.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q) != HSA_STATUS_SUCCESS) {
      FAIL("queue_create\n");
    } else {
      /* Dispatch this thread's own executable's kernel. */
      rig_t mine = rig;
      mine.exe = e;
      mine.scale = rig_kernel(e, rig.gpu, "scale.kd");
      if (!rig_scale_works(&mine, q, 64 + seed % 500)) FAIL("dispatch on a churned queue\n");
      if (hsa_queue_destroy(q) != HSA_STATUS_SUCCESS) FAIL("queue_destroy\n");
    }
    for (int i = 0; i < 8; i++)
      if (hsa_signal_load_relaxed(sig[i]) != i + (int)seed % 97) FAIL("signal value changed\n");
    for (size_t i = 0; p && i < bytes; i += 512)
      if (((unsigned char *)p)[i] != (seed & 0xff)) {
        FAIL("allocation bytes changed\n");
        break;
      }
    if (hsa_executable_destroy(e) != HSA_STATUS_SUCCESS) FAIL("executable_destroy\n");
    if (hsa_code_object_reader_destroy(r) != HSA_STATUS_SUCCESS) FAIL("reader_destroy\n");
    if (hsa_amd_memory_pool_free(p) != HSA_STATUS_SUCCESS) FAIL("free\n");
    if (hsa_signal_group_destroy(g) != HSA_STATUS_SUCCESS) FAIL("group_destroy\n");
    for (int i = 0; i < 8; i++)
      if (hsa_signal_destroy(sig[i]) != HSA_STATUS_SUCCESS) FAIL("signal_destroy\n");
  }
  return NULL;
}

static void many_objects(void) {
  /* Thousands of queues (each has a processor thread that sleeps until its doorbell rings). */
  enum { QUEUES = 2000 };
  static hsa_queue_t *qs[QUEUES];
  uint32_t max_queues = 0;
  hsa_agent_get_info(rig.gpu, HSA_AGENT_INFO_QUEUES_MAX, &max_queues);
  int made = 0;
  for (int i = 0; i < QUEUES; i++) {
    if (hsa_queue_create(rig.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &qs[i]) != HSA_STATUS_SUCCESS) break;
    made++;
  }
  printf("%d queues alive at once (HSA_AGENT_INFO_QUEUES_MAX %u)\n", made, max_queues);
  CHECK(made == QUEUES || (uint32_t)made == max_queues);
  CHECK(rig_scale_works(&rig, qs[made / 2], 100));
  CHECK(rig_scale_works(&rig, qs[made - 1], 100));
  for (int i = 0; i < made; i++) CHECK_OK(hsa_queue_destroy(qs[i]));

  /* A million signals. */
  enum { SIGNALS = 1000000 };
  hsa_signal_t *s = malloc(sizeof *s * SIGNALS);
  int ok = 1;
  for (int i = 0; i < SIGNALS && ok; i++) ok = hsa_signal_create(i, 0, NULL, &s[i]) == HSA_STATUS_SUCCESS;
  CHECK(ok);
  for (int i = 0; i < SIGNALS && ok; i += 9973) ok = hsa_signal_load_relaxed(s[i]) == i;
  CHECK(ok);
  for (int i = 0; i < SIGNALS; i++) ok &= hsa_signal_destroy(s[i]) == HSA_STATUS_SUCCESS;
  CHECK(ok);
  free(s);
  printf("a million signals created, read and destroyed\n");
}

static void exhaust_device_memory(void) {
  size_t size = 0;
  CHECK_OK(hsa_amd_memory_pool_get_info(rig.device_pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size));
  if (size > (512u << 20)) {
    printf("device pool of %zu bytes: exhaustion skipped (set SOFTHSA_DEVICE_MEMORY small)\n", size);
    return;
  }
  enum { MAX = 4096 };
  static void *blocks[MAX];
  size_t chunk = size / 16;
  int n = 0;
  hsa_status_t st = HSA_STATUS_SUCCESS;
  while (n < MAX && (st = hsa_amd_memory_pool_allocate(rig.device_pool, chunk, 0, &blocks[n])) == HSA_STATUS_SUCCESS) n++;
  CHECK(st == HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  CHECK(n >= 8 && n <= 16);
  void *p = NULL;
  CHECK_STATUS(hsa_amd_memory_pool_allocate(rig.device_pool, chunk, 0, &p), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  /* Still working while exhausted: host memory, signals, dispatches. */
  hsa_queue_t *q = rig_queue(&rig, 64, NULL);
  CHECK(rig_scale_works(&rig, q, 256));
  for (int i = 0; i < n; i++) CHECK_OK(hsa_amd_memory_pool_free(blocks[i]));
  int again = 0;
  while (again < MAX && hsa_amd_memory_pool_allocate(rig.device_pool, chunk, 0, &blocks[again]) == HSA_STATUS_SUCCESS) again++;
  CHECK(again == n); /* everything came back */
  for (int i = 0; i < again; i++) CHECK_OK(hsa_amd_memory_pool_free(blocks[i]));
  CHECK_OK(hsa_queue_destroy(q));
  printf("device pool of %zu bytes: %d blocks of %zu, then OUT_OF_RESOURCES, then all again\n", size, n, chunk);
}

int main(void) {
  setenv("SOFTHSA_DEVICE_MEMORY", "64M", 0); /* small enough to exhaust */
  CHECK_OK(hsa_init());
  rig_open(&rig);
  FILE *f = fopen(KERNELS_PATH, "rb");
  code_len = f ? fread(code, 1, sizeof code, f) : 0;
  if (f) fclose(f);

  enum { THREADS = 16 };
  pthread_t t[THREADS];
  uint64_t t0 = now_ns();
  for (int i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, churn, (void *)(uintptr_t)(i + 1));
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  printf("%d threads x 12 rounds of create/use/destroy: %d failures, %.0f ms\n", THREADS, failures,
         (now_ns() - t0) / 1e6);
  CHECK(failures == 0);

  many_objects();
  exhaust_device_memory();
  rig_close(&rig);
  CHECK_OK(hsa_shut_down());
  TEST_DONE();
}
