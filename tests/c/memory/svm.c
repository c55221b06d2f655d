/* SVM attributes as ROCm 5.2 exposes them on a discrete gfx906 with HMM: the system info HIP
 * reads, attributes set and queried over page ranges (uniform, mixed, defaults), access per
 * agent, prefetch with dependencies, and the refusals (bad attributes, agents, lengths,
 * unmapped memory, HSA allocations). */
#include "check.h"
#include <sys/mman.h>
#include <unistd.h>

#define PG 4096
static hsa_agent_t cpu, gpu;

static uint64_t get1(void *p, size_t n, uint64_t attr, uint64_t value, uint64_t *attr_out) {
  hsa_amd_svm_attribute_pair_t a = {attr, value};
  hsa_status_t s = hsa_amd_svm_attributes_get(p, n, &a, 1);
  if (s != HSA_STATUS_SUCCESS) { fprintf(stderr, "get %#lx: %#x\n", (unsigned long)attr, s); return ~0ull; }
  if (attr_out) *attr_out = a.attribute;
  return a.value;
}

static hsa_status_t set1(void *p, size_t n, uint64_t attr, uint64_t value) {
  hsa_amd_svm_attribute_pair_t a = {attr, value};
  return hsa_amd_svm_attributes_set(p, n, &a, 1);
}

static uint64_t access_of(void *p, size_t n, hsa_agent_t agent) {
  uint64_t attr = 0;
  get1(p, n, HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, agent.handle, &attr);
  return attr;
}

int main(void) {
  CHECK_OK(hsa_init());
  cpu = find_agent(HSA_DEVICE_TYPE_CPU, 0);
  gpu = find_agent(HSA_DEVICE_TYPE_GPU, 0);
  bool b = false;
  CHECK_OK(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED, &b));
  CHECK(b);
  b = true;
  CHECK_OK(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT, &b));
  CHECK(!b);
  b = true;
  CHECK_OK(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS, &b));
  CHECK(!b);

  char *m = mmap(NULL, 8 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(m != MAP_FAILED);
  /* Defaults (what KFD gives pages it has no record of). */
  CHECK(get1(m, 8 * PG, HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, 0, NULL) == HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED);
  CHECK(get1(m, 8 * PG, HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY, 0, NULL) == 9);
  CHECK(get1(m, 8 * PG, HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, 7, NULL) == 0);
  CHECK(get1(m, 8 * PG, HSA_AMD_SVM_ATTRIB_READ_MOSTLY, 7, NULL) == 0);
  CHECK(access_of(m, 8 * PG, gpu) == HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS);
  CHECK(access_of(m, 8 * PG, cpu) == HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE);
  hsa_amd_pointer_info_t info = {.size = sizeof info};
  CHECK_OK(hsa_amd_pointer_info(m, &info, NULL, NULL, NULL));
  CHECK(info.type == HSA_EXT_POINTER_TYPE_UNKNOWN);

  /* Access for pages 2..5 (an unaligned start widens to its page). */
  CHECK_OK(set1(m + 2 * PG + 100, 4 * PG - 100, HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, gpu.handle));
  CHECK(access_of(m + 2 * PG, 4 * PG, gpu) == HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE);
  CHECK(access_of(m + 3 * PG, 1, gpu) == HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE);
  CHECK(access_of(m, 8 * PG, gpu) == HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS);
  CHECK(access_of(m + 6 * PG, 2 * PG, gpu) == HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS);
  CHECK_OK(set1(m + 5 * PG, PG, HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE, gpu.handle));
  CHECK(access_of(m + 5 * PG, PG, gpu) == HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE);
  CHECK(access_of(m + 2 * PG, 4 * PG, gpu) == HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE);
  /* SVM memory stays unknown to pointer info (HIP's test for HMM memory). */
  CHECK_OK(hsa_amd_pointer_info(m + 3 * PG, &info, NULL, NULL, NULL));
  CHECK(info.type == HSA_EXT_POINTER_TYPE_UNKNOWN);

  /* Preferred location on 0..3: uniform there, undefined over everything. */
  CHECK_OK(set1(m, 4 * PG, HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, gpu.handle));
  CHECK(get1(m, 2 * PG, HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, 0, NULL) == gpu.handle);
  CHECK(get1(m, 8 * PG, HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, 0, NULL) == 0);
  CHECK_OK(set1(m, 8 * PG, HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, cpu.handle));
  CHECK(get1(m, 8 * PG, HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, 0, NULL) == cpu.handle);

  /* Coherence: coarse on 4..7. */
  CHECK_OK(set1(m + 4 * PG, 4 * PG, HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED));
  CHECK(get1(m + 4 * PG, 4 * PG, HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, 0, NULL) == HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED);
  CHECK(get1(m, 8 * PG, HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, 0, NULL) == HSA_AMD_SVM_GLOBAL_FLAG_INDETERMINATE);

  /* Several attributes at once, and flags reported only when set on every page. */
  hsa_amd_svm_attribute_pair_t many[] = {
      {HSA_AMD_SVM_ATTRIB_READ_MOSTLY, 1},
      {HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY, 30},
      {HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, cpu.handle},
  };
  CHECK_OK(hsa_amd_svm_attributes_set(m + PG, PG, many, 3));
  CHECK(get1(m + PG, PG, HSA_AMD_SVM_ATTRIB_READ_MOSTLY, 0, NULL) == 1);
  CHECK(get1(m + PG, PG, HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY, 0, NULL) == 18);
  CHECK(get1(m, 8 * PG, HSA_AMD_SVM_ATTRIB_READ_MOSTLY, 0, NULL) == 0);
  CHECK(get1(m, 8 * PG, HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY, 0, NULL) == 9);

  /* Prefetch: recorded for its pages, completed after its dependency. */
  hsa_signal_t dep, done;
  CHECK_OK(hsa_signal_create(1, 0, NULL, &dep));
  CHECK_OK(hsa_signal_create(1, 0, NULL, &done));
  CHECK_OK(hsa_amd_svm_prefetch_async(m, 4 * PG, gpu, 1, &dep, done));
  usleep(50 * 1000);
  CHECK(hsa_signal_load_scacquire(done) == 1);
  hsa_signal_store_screlease(dep, 0);
  CHECK(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 5ull * 1000 * 1000 * 1000,
                                  HSA_WAIT_STATE_BLOCKED) == 0);
  CHECK(get1(m, 4 * PG, HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION, 0, NULL) == gpu.handle);
  CHECK(get1(m, 8 * PG, HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION, 0, NULL) == 0);
  hsa_signal_store_screlease(done, 1);
  CHECK_OK(hsa_amd_svm_prefetch_async(m + 4 * PG, 4 * PG, cpu, 0, NULL, done));
  CHECK(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 5ull * 1000 * 1000 * 1000,
                                  HSA_WAIT_STATE_BLOCKED) == 0);
  CHECK(get1(m + 4 * PG, 4 * PG, HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION, 0, NULL) == cpu.handle);

  /* Refusals. */
  hsa_agent_t bad = {12345};
  CHECK_STATUS(set1(m, PG, HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION, gpu.handle), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(set1(m, PG, HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, gpu.handle), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(set1(m, PG, HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, 7), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(set1(m, PG, 0x999, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(set1(m, PG, HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, bad.handle), HSA_STATUS_ERROR_INVALID_AGENT);
  CHECK_STATUS(set1(m, 0, HSA_AMD_SVM_ATTRIB_READ_MOSTLY, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(set1(NULL, PG, HSA_AMD_SVM_ATTRIB_READ_MOSTLY, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_amd_svm_attribute_pair_t twice[] = {{HSA_AMD_SVM_ATTRIB_READ_MOSTLY, 1}, {HSA_AMD_SVM_ATTRIB_READ_MOSTLY, 0}};
  CHECK_STATUS(hsa_amd_svm_attributes_set(m, PG, twice, 2), HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
  hsa_amd_svm_attribute_pair_t agent_twice[] = {{HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, gpu.handle},
                                                {HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS, gpu.handle}};
  CHECK_STATUS(hsa_amd_svm_attributes_set(m, PG, agent_twice, 2), HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
  hsa_amd_svm_attribute_pair_t q = {HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, gpu.handle};
  CHECK_STATUS(hsa_amd_svm_attributes_get(m, PG, &q, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(hsa_amd_svm_attributes_get(m, PG, NULL, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(hsa_amd_svm_prefetch_async(m, PG, bad, 0, NULL, done), HSA_STATUS_ERROR_INVALID_AGENT);
  CHECK_STATUS(hsa_amd_svm_prefetch_async(m, PG, gpu, 0, NULL, (hsa_signal_t){0}), HSA_STATUS_ERROR_INVALID_SIGNAL);
  /* Memory of an HSA pool is not SVM. */
  hsa_amd_memory_pool_t pool = find_pool(gpu, HSA_AMD_SEGMENT_GLOBAL, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
  void *a = NULL;
  CHECK_OK(hsa_amd_memory_pool_allocate(pool, 2 * PG, 0, &a));
  CHECK_STATUS(set1(a, PG, HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, gpu.handle), HSA_STATUS_ERROR);
  CHECK_OK(hsa_amd_memory_pool_free(a));
  /* Unmapped memory: refused, and its records go when the memory does. */
  CHECK(munmap(m, 8 * PG) == 0);
  CHECK_STATUS(set1(m, PG, HSA_AMD_SVM_ATTRIB_READ_MOSTLY, 1), HSA_STATUS_ERROR);
  CHECK_STATUS(hsa_amd_svm_attributes_get(m, PG, many, 1), HSA_STATUS_ERROR);
  char *again = mmap(m, 8 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  CHECK(again == m);
  /* A pin of the new memory at the same address is accepted. */
  void *agent_ptr = NULL;
  CHECK_OK(hsa_amd_memory_lock(again, 8 * PG, &gpu, 1, &agent_ptr));
  CHECK_OK(hsa_amd_memory_unlock(again));
  munmap(again, 8 * PG);
  CHECK_OK(hsa_signal_destroy(dep));
  CHECK_OK(hsa_signal_destroy(done));
  CHECK_OK(hsa_shut_down());
  TEST_DONE();
}
