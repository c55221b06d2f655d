/* hsa_amd_memory_async_copy and _rect: the copy waits for every dependency signal to reach 0,
 * then copies and decrements the completion signal; profiling records ordered start/end times;
 * ranges outside memory the runtime knows are refused. Exit 0 = pass. */
#include "aql.h"

static hsa_status_t first_pool(hsa_amd_memory_pool_t pool, void *out) {
  hsa_amd_segment_t seg;
  bool alloc = false;
  CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg) == HSA_STATUS_SUCCESS);
  hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
  if (seg == HSA_AMD_SEGMENT_GLOBAL && alloc) {
    *(hsa_amd_memory_pool_t *)out = pool;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_cpu(hsa_agent_t a, void *out) {
  hsa_device_type_t t;
  CHECK(hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t) == HSA_STATUS_SUCCESS);
  if (t == HSA_DEVICE_TYPE_CPU) { *(hsa_agent_t *)out = a; return HSA_STATUS_INFO_BREAK; }
  return HSA_STATUS_SUCCESS;
}

int main(void) {
  CHECK(hsa_init() == HSA_STATUS_SUCCESS);
  hsa_agent_t gpu = aql_gpu(), cpu = {0};
  hsa_iterate_agents(find_cpu, &cpu);
  CHECK(cpu.handle != 0);
  hsa_amd_memory_pool_t host_pool = {0}, dev_pool = {0};
  hsa_amd_agent_iterate_memory_pools(cpu, first_pool, &host_pool);
  hsa_amd_agent_iterate_memory_pools(gpu, first_pool, &dev_pool);
  CHECK(host_pool.handle != 0 && dev_pool.handle != 0);

  enum { N = 1 << 20 };
  uint32_t *src, *dst, *dev;
  CHECK(hsa_amd_memory_pool_allocate(host_pool, N * 4, 0, (void **)&src) == HSA_STATUS_SUCCESS);
  CHECK(hsa_amd_memory_pool_allocate(host_pool, N * 4, 0, (void **)&dst) == HSA_STATUS_SUCCESS);
  CHECK(hsa_amd_memory_pool_allocate(dev_pool, N * 4, 0, (void **)&dev) == HSA_STATUS_SUCCESS);
  hsa_agent_t both[2] = {cpu, gpu};
  CHECK(hsa_amd_agents_allow_access(2, both, NULL, dev) == HSA_STATUS_SUCCESS);
  for (uint32_t i = 0; i < N; i++) { src[i] = i * 2654435761u; dst[i] = 0; }

  CHECK(hsa_amd_profiling_async_copy_enable(true) == HSA_STATUS_SUCCESS);
  hsa_signal_t dep[2], up, down;
  CHECK(hsa_signal_create(1, 0, NULL, &dep[0]) == 0 && hsa_signal_create(2, 0, NULL, &dep[1]) == 0);
  CHECK(hsa_signal_create(1, 0, NULL, &up) == 0 && hsa_signal_create(1, 0, NULL, &down) == 0);
  /* host -> device waits on both dependencies; device -> host waits on the first copy. */
  CHECK(hsa_amd_memory_async_copy(dev, gpu, src, cpu, N * 4, 2, dep, up) == HSA_STATUS_SUCCESS);
  CHECK(hsa_amd_memory_async_copy(dst, cpu, dev, gpu, N * 4, 1, &up, down) == HSA_STATUS_SUCCESS);
  hsa_signal_store_screlease(dep[0], 0);
  CHECK(aql_wait_eq(down, 0, 30000000) == 1); /* dep[1] still holds both copies */
  CHECK(dst[N - 1] == 0);
  hsa_signal_subtract_screlease(dep[1], 2);
  CHECK(aql_wait_eq(down, 0, UINT64_MAX) == 0);
  for (uint32_t i = 0; i < N; i++) CHECK(dst[i] == i * 2654435761u);

  hsa_amd_profiling_async_copy_time_t t1, t2;
  CHECK(hsa_amd_profiling_get_async_copy_time(up, &t1) == HSA_STATUS_SUCCESS);
  CHECK(hsa_amd_profiling_get_async_copy_time(down, &t2) == HSA_STATUS_SUCCESS);
  CHECK(t1.start != 0 && t1.start <= t1.end && t1.end <= t2.start && t2.start <= t2.end);

  /* Rectangle: 3 rows of 16 bytes from a pitch-64 source at (8, 1) to a pitch-32 destination. */
  memset(dst, 0, 256);
  hsa_pitched_ptr_t ps = {src, 64, 64 * 4}, pd = {dst, 32, 32 * 4};
  hsa_dim3_t so = {8, 1, 0}, dof = {0, 0, 0}, range = {16, 3, 1};
  hsa_signal_store_relaxed(down, 1);
  CHECK(hsa_amd_memory_async_copy_rect(&pd, &dof, &ps, &so, &range, cpu, hsaHostToHost, 0, NULL, down) == HSA_STATUS_SUCCESS);
  CHECK(aql_wait_eq(down, 0, UINT64_MAX) == 0);
  for (int row = 0; row < 3; row++)
    CHECK(memcmp((char *)dst + row * 32, (char *)src + (1 + row) * 64 + 8, 16) == 0);
  CHECK(((uint32_t *)dst)[4] == 0); /* bytes 16..31 of row 0 untouched */

  /* Memory the runtime does not know is refused. */
  static uint32_t stray[16];
  CHECK(hsa_amd_memory_async_copy(stray, cpu, src, cpu, sizeof stray, 0, NULL, down) == HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_signal_t gone = {0x40};
  CHECK(hsa_amd_memory_async_copy(dst, cpu, src, cpu, 64, 1, &gone, down) == HSA_STATUS_ERROR_INVALID_SIGNAL);

  /* A copy whose dependency never resolves does not hold up hsa_shut_down. */
  hsa_signal_t stuck;
  CHECK(hsa_signal_create(1, 0, NULL, &stuck) == HSA_STATUS_SUCCESS);
  hsa_signal_store_relaxed(down, 1);
  CHECK(hsa_amd_memory_async_copy(dst, cpu, src, cpu, 64, 1, &stuck, down) == HSA_STATUS_SUCCESS);
  CHECK(aql_wait_eq(down, 0, 10000000) == 1);
  CHECK(hsa_shut_down() == HSA_STATUS_SUCCESS);
  printf("async_copy: ok\n");
  return 0;
}
