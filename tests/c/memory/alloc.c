/* Allocation, copy, fill, lock/register, pointer info, access grants, deallocation callbacks,
 * running out of device memory, double and foreign frees, from one and several threads. */
#include "check.h"
#include <pthread.h>

static hsa_amd_memory_pool_t dev_pool, fine_pool;
static hsa_agent_t cpu, gpu;

static int dealloc_calls;
static void *dealloc_ptr, *dealloc_data;
static void on_dealloc(void *ptr, void *data) {
  dealloc_calls++;
  dealloc_ptr = ptr;
  dealloc_data = data;
}

#define THREADS 4
#define PER_THREAD 64

static int thread_errors;

static void *alloc_loop(void *arg) {
  unsigned seed = (unsigned)(uintptr_t)arg;
  void *mine[PER_THREAD];
  for (int i = 0; i < PER_THREAD; i++) {
    size_t size = 4096 * (1 + rand_r(&seed) % 4);
    if (hsa_amd_memory_pool_allocate(dev_pool, size, 0, &mine[i]) != HSA_STATUS_SUCCESS) {
      __atomic_add_fetch(&thread_errors, 1, __ATOMIC_RELAXED);
      mine[i] = NULL;
      continue;
    }
    memset(mine[i], (int)(uintptr_t)arg, size);
  }
  for (int i = 0; i < PER_THREAD; i++) {
    if (!mine[i]) continue;
    if (((unsigned char *)mine[i])[4095] != (unsigned char)(uintptr_t)arg) __atomic_add_fetch(&thread_errors, 1, __ATOMIC_RELAXED);
    if (hsa_amd_memory_pool_free(mine[i]) != HSA_STATUS_SUCCESS) __atomic_add_fetch(&thread_errors, 1, __ATOMIC_RELAXED);
  }
  return NULL;
}

int main(void) {
  setenv("SOFTHSA_DEVICE_MEMORY", "64M", 1);
  CHECK_OK(hsa_init());
  cpu = find_agent(HSA_DEVICE_TYPE_CPU, 0);
  gpu = find_agent(HSA_DEVICE_TYPE_GPU, 0);
  dev_pool = find_pool(gpu, HSA_AMD_SEGMENT_GLOBAL, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
  fine_pool = find_pool(cpu, HSA_AMD_SEGMENT_GLOBAL, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);

  /* Device allocation, as HIP does it: allocate, then allow every GPU. */
  void *a = NULL, *b = NULL;
  CHECK_OK(hsa_amd_memory_pool_allocate(dev_pool, 1 << 20, 0, &a));
  CHECK(a && ((uintptr_t)a & 4095) == 0);
  CHECK_OK(hsa_amd_agents_allow_access(1, &gpu, NULL, a));
  CHECK_STATUS(hsa_amd_agents_allow_access(0, &gpu, NULL, a), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_agent_t bad_agent = {77};
  CHECK_STATUS(hsa_amd_agents_allow_access(1, &bad_agent, NULL, a), HSA_STATUS_ERROR_INVALID_AGENT);

  /* Region allocation, copies and fills. */
  hsa_region_t fine_region = {fine_pool.handle};
  CHECK_OK(hsa_memory_allocate(fine_region, 1 << 20, &b));
  unsigned *src = malloc(1 << 20);
  for (unsigned i = 0; i < (1 << 18); i++) src[i] = i * 2654435761u;
  CHECK_OK(hsa_memory_copy(a, src, 1 << 20));
  CHECK_OK(hsa_memory_copy(b, a, 1 << 20));
  CHECK(memcmp(b, src, 1 << 20) == 0);
  CHECK_OK(hsa_amd_memory_fill((char *)a + 64, 0xdeadbeef, 100));
  unsigned *words = a;
  CHECK(words[15] == src[15] && words[16] == 0xdeadbeef && words[115] == 0xdeadbeef && words[116] == src[116]);
  CHECK_STATUS(hsa_amd_memory_fill((char *)a + 2, 1, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(hsa_amd_memory_fill((char *)a + (1 << 20) - 4, 1, 2), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(hsa_amd_memory_fill(src, 1, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT); /* unknown memory */
  CHECK_STATUS(hsa_memory_copy(NULL, src, 4), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_OK(hsa_memory_assign_agent(b, gpu, HSA_ACCESS_PERMISSION_RW));
  CHECK_STATUS(hsa_memory_assign_agent(b, gpu, (hsa_access_permission_t)9), HSA_STATUS_ERROR_INVALID_ARGUMENT);

  /* Pointer info of an allocation. */
  hsa_amd_pointer_info_t info;
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  uint32_t n = 0;
  hsa_agent_t *accessible = NULL;
  CHECK_OK(hsa_amd_pointer_info((char *)a + 12345, &info, malloc, &n, &accessible));
  CHECK(info.type == HSA_EXT_POINTER_TYPE_HSA && info.agentBaseAddress == a && info.hostBaseAddress == a);
  CHECK(info.sizeInBytes == (1 << 20) && info.agentOwner.handle == gpu.handle);
  CHECK(info.global_flags == HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
  CHECK(n == 1 && accessible && accessible[0].handle == gpu.handle);
  free(accessible);
  CHECK_OK(hsa_amd_pointer_info_set_userdata(a, (void *)0x1234));
  CHECK_OK(hsa_amd_pointer_info(a, &info, NULL, NULL, NULL));
  CHECK(info.userData == (void *)0x1234);
  /* An older, shorter structure is filled only up to its size. */
  struct { uint32_t size; uint32_t type; void *agent; void *host; size_t bytes; void *user; uint64_t canary; } small;
  memset(&small, 0, sizeof small);
  small.size = offsetof(hsa_amd_pointer_info_t, userData);
  small.user = (void *)0x5555;
  CHECK_OK(hsa_amd_pointer_info(a, (hsa_amd_pointer_info_t *)&small, NULL, NULL, NULL));
  CHECK(small.size == offsetof(hsa_amd_pointer_info_t, userData) && small.bytes == (1 << 20) && small.user == (void *)0x5555);
  /* Unknown memory. */
  CHECK_OK(hsa_amd_pointer_info(src, &info, NULL, NULL, NULL));
  CHECK(info.type == HSA_EXT_POINTER_TYPE_UNKNOWN);

  /* Locking host memory, nested; pointer info reports LOCKED with the agents given. */
  void *agent_ptr = NULL;
  /* The agent address is an alias (a discrete GPU's; lock_alias.c tests it in depth). */
  void *first = NULL;
  CHECK_OK(hsa_amd_memory_lock(src, 1 << 20, &gpu, 1, &first));
  CHECK(first != NULL && first != src);
  CHECK_OK(hsa_amd_memory_lock_to_pool(src, 1 << 20, &gpu, 1, fine_pool, 0, &agent_ptr));
  CHECK(agent_ptr == first); /* nested: the same alias */
  CHECK_OK(hsa_amd_pointer_info((char *)src + 100, &info, malloc, &n, &accessible));
  CHECK(info.type == HSA_EXT_POINTER_TYPE_LOCKED && info.hostBaseAddress == src && info.sizeInBytes == (1 << 20));
  CHECK(info.agentBaseAddress == first);
  CHECK(n == 2);
  free(accessible);
  CHECK_OK(hsa_amd_memory_fill(src, 7, 4)); /* locked memory is known memory */
  CHECK(src[3] == 7);
  CHECK_STATUS(hsa_amd_memory_lock_to_pool(src, 4096, &gpu, 1, dev_pool, 0, &agent_ptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  /* Pins may overlap (ROCclr keeps a page-rounded pin of a staging buffer, then hipHostRegister
   * pins the unaligned buffer inside it); each is released by its own start. */
  char *page = (char *)((uintptr_t)src & ~(uintptr_t)4095);
  void *inner = NULL;
  CHECK_OK(hsa_amd_memory_lock(page, (1 << 20) + 4096, &gpu, 1, &agent_ptr));
  CHECK_OK(hsa_amd_memory_lock((char *)src + 16, 64, &gpu, 1, &inner));
  CHECK(inner != NULL && inner != (char *)src + 16 && inner != agent_ptr);
  CHECK_OK(hsa_amd_pointer_info((char *)src + 20, &info, NULL, NULL, NULL));
  CHECK(info.hostBaseAddress == (char *)src + 16 && info.sizeInBytes == 64);
  CHECK(info.agentBaseAddress == inner);
  CHECK_OK(hsa_amd_memory_unlock((char *)src + 16));
  if (page != (char *)src) CHECK_OK(hsa_amd_memory_unlock(page));
  CHECK_OK(hsa_amd_memory_unlock(src));
  CHECK_OK(hsa_amd_memory_unlock(src));
  CHECK_OK(hsa_amd_pointer_info(src, &info, NULL, NULL, NULL));
  CHECK(info.type == HSA_EXT_POINTER_TYPE_UNKNOWN);
  CHECK_STATUS(hsa_amd_memory_unlock(src), HSA_STATUS_ERROR_INVALID_ARGUMENT);

  /* Registration. */
  CHECK_OK(hsa_memory_register(src, 4096));
  CHECK_OK(hsa_amd_memory_fill(src, 9, 1));
  CHECK(src[0] == 9);
  CHECK_OK(hsa_memory_deregister(src, 4096));
  CHECK_STATUS(hsa_memory_deregister(src, 4096), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(hsa_memory_register(NULL, 4096), HSA_STATUS_ERROR_INVALID_ARGUMENT);

  /* Deallocation callbacks run when the allocation is freed. */
  CHECK_OK(hsa_amd_register_deallocation_callback(b, on_dealloc, (void *)0x77));
  CHECK_STATUS(hsa_amd_register_deallocation_callback(src, on_dealloc, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_OK(hsa_memory_free(b));
  CHECK(dealloc_calls == 1 && dealloc_ptr == b && dealloc_data == (void *)0x77);

  /* Double free, foreign pointers, interior pointers. */
  CHECK_STATUS(hsa_memory_free(b), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  CHECK_STATUS(hsa_amd_memory_pool_free(src), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  CHECK_STATUS(hsa_amd_memory_pool_free((char *)a + 4096), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  CHECK_OK(hsa_memory_free(NULL));

  /* Exhausting the 64 MiB device budget, then recovering. */
  void *big = NULL, *more = NULL;
  CHECK_STATUS(hsa_amd_memory_pool_allocate(dev_pool, 64 << 20, 0, &big), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  CHECK_OK(hsa_amd_memory_pool_allocate(dev_pool, 63 << 20, 0, &big));
  CHECK_STATUS(hsa_amd_memory_pool_allocate(dev_pool, 4096, 0, &more), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  CHECK_STATUS(hsa_amd_memory_pool_allocate(dev_pool, 65 << 20, 0, &more), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  CHECK_STATUS(hsa_amd_memory_pool_allocate(dev_pool, 0, 0, &more), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_OK(hsa_amd_memory_pool_free(big));
  CHECK_OK(hsa_amd_memory_pool_free(a));
  hsa_amd_memory_pool_t group = find_pool(gpu, HSA_AMD_SEGMENT_GROUP, 0);
  CHECK_STATUS(hsa_amd_memory_pool_allocate(group, 64, 0, &more), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  hsa_amd_memory_pool_t forged = {99};
  CHECK_STATUS(hsa_amd_memory_pool_allocate(forged, 64, 0, &more), HSA_STATUS_ERROR_INVALID_MEMORY_POOL);

  /* Several threads allocating and freeing at once (4 x 64 x up to 16 KiB fits in 64 MiB). */
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, alloc_loop, (void *)(uintptr_t)(i + 1));
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  CHECK(thread_errors == 0);
  CHECK_OK(hsa_amd_memory_pool_allocate(dev_pool, 63 << 20, 0, &big)); /* everything was returned */
  CHECK_OK(hsa_amd_memory_pool_free(big));

  /* Coherency and migration. */
  hsa_amd_coherency_type_t ct = 9;
  CHECK_OK(hsa_amd_coherency_get_type(gpu, &ct));
  CHECK(ct == HSA_AMD_COHERENCY_TYPE_COHERENT);
  CHECK_STATUS(hsa_amd_coherency_get_type(cpu, &ct), HSA_STATUS_ERROR_INVALID_AGENT);
  bool can = true;
  CHECK_OK(hsa_amd_memory_pool_can_migrate(fine_pool, dev_pool, &can));
  CHECK(!can);
  free(src);
  CHECK_OK(hsa_shut_down());
  TEST_DONE();
}
