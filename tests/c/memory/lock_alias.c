/* Locked host memory and its agent address, as HIP 5.2's hipHostRegister/hipHostUnregister use
 * them: lock_to_pool a malloc'd buffer, use the agent pointer for copies and fills, unlock by
 * the host pointer. HIP removes both pointers from its map, so by default (a discrete GPU) they
 * must differ; with SOFTHSA_LOCK_ALIAS=0 (or the full profile, an APU) they are equal. */
#include "check.h"

static hsa_agent_t cpu, gpu;

static void pointer_info(void *p, hsa_amd_pointer_info_t *info) {
  memset(info, 0, sizeof *info);
  info->size = sizeof *info;
  CHECK_OK(hsa_amd_pointer_info(p, info, NULL, NULL, NULL));
}

static void copy(void *dst, hsa_agent_t dst_agent, const void *src, hsa_agent_t src_agent, size_t n) {
  hsa_signal_t done;
  CHECK_OK(hsa_signal_create(1, 0, NULL, &done));
  CHECK_OK(hsa_amd_memory_async_copy(dst, dst_agent, src, src_agent, n, 0, NULL, done));
  CHECK(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                  HSA_WAIT_STATE_BLOCKED) == 0);
  CHECK_OK(hsa_signal_destroy(done));
}

/* One hipHostRegister ... hipHostUnregister cycle; returns whether the agent pointer differed. */
static int register_cycle(void) {
  const size_t n = 5000;
  int *host = malloc(n * sizeof(int)); /* heap memory, not page aligned in general */
  for (size_t i = 0; i < n; i++) host[i] = -(int)i;
  hsa_amd_memory_pool_t coarse = find_pool(cpu, HSA_AMD_SEGMENT_GLOBAL,
                                           HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
  hsa_amd_memory_pool_t dev = find_pool(gpu, HSA_AMD_SEGMENT_GLOBAL,
                                        HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
  int *agent_ptr = NULL;
  CHECK_OK(hsa_amd_memory_lock_to_pool(host, n * sizeof(int), NULL, 0, coarse, 0, (void **)&agent_ptr));
  CHECK(agent_ptr != NULL);
  CHECK(((uintptr_t)agent_ptr & 4095) == ((uintptr_t)host & 4095));

  hsa_amd_pointer_info_t info;
  void *probes[2] = {host + 10, agent_ptr + 10};
  for (int k = 0; k < 2; k++) {
    pointer_info(probes[k], &info);
    CHECK(info.type == HSA_EXT_POINTER_TYPE_LOCKED);
    CHECK(info.agentBaseAddress == agent_ptr);
    CHECK(info.hostBaseAddress == host);
    CHECK(info.sizeInBytes == n * sizeof(int));
  }

  /* Device buffer <- agent pointer, then agent pointer <- device buffer (a blit's view). */
  int *d = NULL;
  CHECK_OK(hsa_amd_memory_pool_allocate(dev, n * sizeof(int), 0, (void **)&d));
  CHECK_OK(hsa_amd_agents_allow_access(1, &gpu, NULL, d));
  copy(d, gpu, agent_ptr, cpu, n * sizeof(int));
  for (size_t i = 0; i < n; i++) d[i] = d[i] * 3 + 1; /* host stands in for a kernel */
  copy(agent_ptr, cpu, d, gpu, n * sizeof(int));
  int bad = 0;
  for (size_t i = 0; i < n; i++) bad += host[i] != -3 * (int)i + 1;
  CHECK(bad == 0);
  /* hsa_memory_copy through the agent pointer reaches the host bytes too. */
  int word = 99;
  CHECK_OK(hsa_memory_copy(agent_ptr + 7, &word, sizeof word));
  CHECK_OK(hsa_memory_copy(&word, agent_ptr + 8, sizeof word));
  CHECK(host[7] == 99 && word == -3 * 8 + 1);
  host[7] = -3 * 7 + 1;
  CHECK_OK(hsa_amd_memory_fill(agent_ptr + 4, 0x1234, 2));
  CHECK(host[3] == -8 && host[4] == 0x1234 && host[5] == 0x1234 && host[6] == -17);
  /* Past the end of the locked range is not known memory. */
  CHECK(hsa_amd_memory_fill(agent_ptr + n - 1, 0, 2) == HSA_STATUS_ERROR_INVALID_ARGUMENT);

  int distinct = (void *)agent_ptr != (void *)host;
  CHECK_OK(hsa_amd_memory_unlock(host));
  pointer_info(host + 10, &info);
  CHECK(info.type == HSA_EXT_POINTER_TYPE_UNKNOWN);
  if (distinct) {
    pointer_info(agent_ptr + 10, &info);
    CHECK(info.type == HSA_EXT_POINTER_TYPE_UNKNOWN);
    CHECK(hsa_amd_memory_fill(agent_ptr, 0, 1) == HSA_STATUS_ERROR_INVALID_ARGUMENT);
  }
  CHECK_OK(hsa_amd_memory_pool_free(d));
  free(host);
  return distinct;
}

static void init(void) {
  CHECK_OK(hsa_init());
  cpu = find_agent(HSA_DEVICE_TYPE_CPU, 0);
  gpu = find_agent(HSA_DEVICE_TYPE_GPU, 0);
}

int main(void) {
  unsetenv("SOFTHSA_LOCK_ALIAS");
  unsetenv("SOFTHSA_PROFILE");
  init();
  CHECK(register_cycle() == 1); /* default: a discrete GPU's distinct agent address */
  CHECK(register_cycle() == 1); /* and again, after the first alias was released */
  CHECK_OK(hsa_shut_down());

  setenv("SOFTHSA_PROFILE", "full", 1);
  init();
  CHECK(register_cycle() == 0); /* an APU: agent pointer == host pointer */
  CHECK_OK(hsa_shut_down());

  unsetenv("SOFTHSA_PROFILE");
  setenv("SOFTHSA_LOCK_ALIAS", "0", 1);
  init();
  CHECK(register_cycle() == 0);
  CHECK_OK(hsa_shut_down());
  TEST_DONE();
}
