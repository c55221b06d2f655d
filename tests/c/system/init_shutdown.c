/* hsa_init / hsa_shut_down: NOT_INITIALIZED before init, reference counting, concurrent
 * init/shutdown from several threads, and stale handles after a re-initialisation. */
#include "check.h"
#include <pthread.h>

static hsa_status_t count_cb(hsa_agent_t a, void *data) {
  (void)a;
  (*(int *)data)++;
  return HSA_STATUS_SUCCESS;
}

#define THREADS 8
#define ROUNDS 200

static int thread_errors;

static void *init_loop(void *arg) {
  (void)arg;
  for (int i = 0; i < ROUNDS; i++) {
    if (hsa_init() != HSA_STATUS_SUCCESS) __atomic_add_fetch(&thread_errors, 1, __ATOMIC_RELAXED);
    /* While this thread holds a reference, the runtime must answer. */
    uint16_t major = 0;
    if (hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major) != HSA_STATUS_SUCCESS || major != 1)
      __atomic_add_fetch(&thread_errors, 1, __ATOMIC_RELAXED);
    int n = 0;
    if (hsa_iterate_agents(count_cb, &n) != HSA_STATUS_SUCCESS || n < 2)
      __atomic_add_fetch(&thread_errors, 1, __ATOMIC_RELAXED);
    if (hsa_shut_down() != HSA_STATUS_SUCCESS) __atomic_add_fetch(&thread_errors, 1, __ATOMIC_RELAXED);
  }
  return NULL;
}

int main(void) {
  /* Before hsa_init every runtime call says NOT_INITIALIZED. */
  int n = 0;
  uint64_t ts;
  void *p = NULL;
  hsa_agent_t none = {0};
  hsa_region_t no_region = {0};
  CHECK_STATUS(hsa_iterate_agents(count_cb, &n), HSA_STATUS_ERROR_NOT_INITIALIZED);
  CHECK_STATUS(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &ts), HSA_STATUS_ERROR_NOT_INITIALIZED);
  CHECK_STATUS(hsa_agent_get_info(none, HSA_AGENT_INFO_NAME, &ts), HSA_STATUS_ERROR_NOT_INITIALIZED);
  CHECK_STATUS(hsa_memory_allocate(no_region, 64, &p), HSA_STATUS_ERROR_NOT_INITIALIZED);
  CHECK_STATUS(hsa_memory_free(p), HSA_STATUS_ERROR_NOT_INITIALIZED);
  CHECK_STATUS(hsa_amd_memory_fill(&ts, 0, 1), HSA_STATUS_ERROR_NOT_INITIALIZED);
  CHECK_STATUS(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
  const char *text = NULL;
  CHECK_STATUS(hsa_status_string(HSA_STATUS_SUCCESS, &text), HSA_STATUS_ERROR_NOT_INITIALIZED);
  hsa_ext_image_t image = {0};
  CHECK_STATUS(hsa_ext_image_destroy(none, image), HSA_STATUS_ERROR_NOT_INITIALIZED);

  /* Reference counting: two inits need two shutdowns. */
  CHECK_OK(hsa_init());
  CHECK_OK(hsa_init());
  hsa_agent_t gpu = find_agent(HSA_DEVICE_TYPE_GPU, 0);
  CHECK(gpu.handle != 0);
  CHECK_OK(hsa_shut_down());
  char name[64];
  CHECK_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, name));
  CHECK_OK(hsa_shut_down());
  CHECK_STATUS(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, name), HSA_STATUS_ERROR_NOT_INITIALIZED);

  /* A handle from the previous runtime instance is stale after re-initialisation. */
  CHECK_OK(hsa_init());
  CHECK_STATUS(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, name), HSA_STATUS_ERROR_INVALID_AGENT);
  hsa_agent_t forged = {0x1234};
  CHECK_STATUS(hsa_agent_get_info(forged, HSA_AGENT_INFO_NAME, name), HSA_STATUS_ERROR_INVALID_AGENT);
  hsa_agent_t fresh = find_agent(HSA_DEVICE_TYPE_GPU, 0);
  CHECK_OK(hsa_agent_get_info(fresh, HSA_AGENT_INFO_NAME, name));
  CHECK(strcmp(name, "gfx906") == 0);

  /* Concurrent init/shutdown from several threads while one reference is held... */
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, init_loop, NULL);
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  CHECK(thread_errors == 0);
  CHECK_OK(hsa_shut_down());
  /* ...and with none held, so the runtime is built and torn down repeatedly. */
  for (int i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, init_loop, NULL);
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  CHECK(thread_errors == 0);
  CHECK_STATUS(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
  TEST_DONE();
}
