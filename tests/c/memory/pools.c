/* Regions and AMD memory pools as hip-bringup.md describes them, and agent-pool access. */
#include "check.h"

struct list { int n; uint64_t h[16]; };

static hsa_status_t pool_cb(hsa_amd_memory_pool_t p, void *data) {
  struct list *l = data;
  if (l->n < 16) l->h[l->n++] = p.handle;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t region_cb(hsa_region_t r, void *data) {
  struct list *l = data;
  if (l->n < 16) l->h[l->n++] = r.handle;
  return HSA_STATUS_SUCCESS;
}

static uint64_t mem_total_bytes(void) {
  char buf[4096];
  if (read_text("/proc/meminfo", buf, sizeof buf)) return 0;
  return strtoull(strstr(buf, "MemTotal:") + 9, NULL, 10) * 1024;
}

int main(void) {
  setenv("SOFTHSA_DEVICE_MEMORY", "2G", 1);
  CHECK_OK(hsa_init());
  hsa_agent_t cpu = find_agent(HSA_DEVICE_TYPE_CPU, 0), gpu = find_agent(HSA_DEVICE_TYPE_GPU, 0);

  /* CPU: exactly one of FINE or COARSE per pool; KERNARG only on the fine one. */
  struct list cp = {0};
  CHECK_OK(hsa_amd_agent_iterate_memory_pools(cpu, pool_cb, &cp));
  CHECK(cp.n == 2);
  int fine = 0, coarse = 0;
  for (int i = 0; i < cp.n; i++) {
    hsa_amd_memory_pool_t p = {cp.h[i]};
    uint32_t seg = 9, flags = 0;
    size_t size = 0, granule = 0, align = 0;
    bool alloc = false, all = false;
    CHECK_OK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg));
    CHECK_OK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags));
    CHECK_OK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size));
    CHECK_OK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc));
    CHECK_OK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE, &granule));
    CHECK_OK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT, &align));
    CHECK_OK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL, &all));
    CHECK(seg == HSA_AMD_SEGMENT_GLOBAL && alloc && granule == 4096 && align == 4096 && all);
    CHECK(size <= mem_total_bytes() && size + 4096 > mem_total_bytes());
    bool is_fine = flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED;
    bool is_coarse = flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED;
    CHECK(is_fine != is_coarse);
    CHECK(!(flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) || is_fine);
    fine += is_fine && (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT);
    coarse += is_coarse;
    hsa_amd_memory_pool_access_t access = 9;
    CHECK_OK(hsa_amd_agent_memory_pool_get_info(cpu, p, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access));
    CHECK(access == HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT);
    CHECK_OK(hsa_amd_agent_memory_pool_get_info(gpu, p, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access));
    CHECK(access != HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED);
    uint32_t hops = 9;
    CHECK_OK(hsa_amd_agent_memory_pool_get_info(gpu, p, HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS, &hops));
    CHECK(hops == 1);
    hsa_amd_memory_pool_link_info_t link[1];
    memset(link, 0, sizeof link);
    CHECK_OK(hsa_amd_agent_memory_pool_get_info(gpu, p, HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO, link));
    CHECK(link[0].link_type == HSA_AMD_LINK_INFO_TYPE_PCIE && link[0].atomic_support_64bit);
  }
  CHECK(fine == 1 && coarse == 1);

  /* GPU: a GLOBAL coarse pool of the configured size, and a GROUP pool of 64 KiB. */
  hsa_amd_memory_pool_t dev = find_pool(gpu, HSA_AMD_SEGMENT_GLOBAL, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
  hsa_amd_memory_pool_t group = find_pool(gpu, HSA_AMD_SEGMENT_GROUP, 0);
  CHECK(dev.handle && group.handle);
  size_t size = 0;
  bool alloc = true, all = true;
  CHECK_OK(hsa_amd_memory_pool_get_info(dev, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size));
  CHECK(size == 2ull << 30);
  CHECK_OK(hsa_amd_memory_pool_get_info(dev, HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE, &size));
  CHECK(size == 2ull << 30);
  CHECK_OK(hsa_amd_memory_pool_get_info(dev, HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL, &all));
  CHECK(!all);
  CHECK_OK(hsa_amd_memory_pool_get_info(group, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size));
  CHECK(size == 65536);
  CHECK_OK(hsa_amd_memory_pool_get_info(group, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc));
  CHECK(!alloc);
  hsa_amd_memory_pool_access_t access = 9;
  CHECK_OK(hsa_amd_agent_memory_pool_get_info(gpu, dev, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access));
  CHECK(access == HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT);
  CHECK_OK(hsa_amd_agent_memory_pool_get_info(cpu, dev, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access));
  CHECK(access == HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT); /* "large BAR" */
  CHECK_OK(hsa_amd_agent_memory_pool_get_info(cpu, group, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access));
  CHECK(access == HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED);
  uint32_t hops = 9;
  CHECK_OK(hsa_amd_agent_memory_pool_get_info(gpu, dev, HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS, &hops));
  CHECK(hops == 0);

  /* Regions are the same objects, with the core attributes. */
  struct list cr = {0}, gr = {0}, gp = {0};
  CHECK_OK(hsa_agent_iterate_regions(cpu, region_cb, &cr));
  CHECK_OK(hsa_agent_iterate_regions(gpu, region_cb, &gr));
  CHECK_OK(hsa_amd_agent_iterate_memory_pools(gpu, pool_cb, &gp));
  CHECK(cr.n == 2 && gr.n == 2 && gp.n == 2);
  int kernarg = 0;
  for (int i = 0; i < cr.n; i++) {
    hsa_region_t r = {cr.h[i]};
    uint32_t seg = 9, flags = 0;
    bool ok = false;
    size_t granule = 0, max = 0;
    CHECK_OK(hsa_region_get_info(r, HSA_REGION_INFO_SEGMENT, &seg));
    CHECK_OK(hsa_region_get_info(r, HSA_REGION_INFO_GLOBAL_FLAGS, &flags));
    CHECK_OK(hsa_region_get_info(r, HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED, &ok));
    CHECK_OK(hsa_region_get_info(r, HSA_REGION_INFO_RUNTIME_ALLOC_GRANULE, &granule));
    CHECK_OK(hsa_region_get_info(r, HSA_REGION_INFO_ALLOC_MAX_SIZE, &max));
    CHECK(seg == HSA_REGION_SEGMENT_GLOBAL && ok && granule == 4096 && max > 0);
    kernarg += (flags & HSA_REGION_GLOBAL_FLAG_KERNARG) != 0;
    CHECK(cr.h[i] == cp.h[i]);
  }
  CHECK(kernarg == 1);
  uint32_t seg = 9;
  hsa_region_t gregion = {gr.h[1]};
  CHECK_OK(hsa_region_get_info(gregion, HSA_REGION_INFO_SEGMENT, &seg));
  CHECK(seg == HSA_REGION_SEGMENT_GROUP);
  bool host_access = true;
  hsa_region_t dregion = {gr.h[0]};
  CHECK_OK(hsa_region_get_info(dregion, (hsa_region_info_t)HSA_AMD_REGION_INFO_HOST_ACCESSIBLE, &host_access));
  CHECK(!host_access);

  /* Stale and forged handles. */
  hsa_amd_memory_pool_t forged = {0x5a70000000000000ull};
  CHECK_STATUS(hsa_amd_memory_pool_get_info(forged, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size),
               HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
  hsa_region_t forged_region = {12345};
  CHECK_STATUS(hsa_region_get_info(forged_region, HSA_REGION_INFO_SIZE, &size), HSA_STATUS_ERROR_INVALID_REGION);
  CHECK_STATUS(hsa_amd_memory_pool_get_info(dev, (hsa_amd_memory_pool_info_t)99, &size), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_OK(hsa_shut_down());
  CHECK_OK(hsa_init());
  CHECK_STATUS(hsa_amd_memory_pool_get_info(dev, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size), HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
  CHECK_OK(hsa_shut_down());
  TEST_DONE();
}
