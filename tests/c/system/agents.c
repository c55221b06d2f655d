/* Agents, ISAs, caches and wavefronts, checked against what HIP and rocminfo insist on
 * (shared/reference/hip-bringup.md) and against the host's real CPU as sysfs describes it.
 * Then re-initialised with SOFTHSA_GPU=gfx900, SOFTHSA_GPUS=2 and SOFTHSA_CUS=8. */
#include "check.h"
#include <hsa/hsa_ext_image.h>

static hsa_status_t isa_cb(hsa_isa_t isa, void *data) {
  hsa_isa_t *out = data;
  if (out[0].handle == 0) out[0] = isa; else out[1] = isa; /* a second ISA would be an error */
  return HSA_STATUS_SUCCESS;
}

struct caches { int n; uint32_t size[8]; uint8_t level[8]; char name[8][32]; };

static hsa_status_t cache_cb(hsa_cache_t c, void *data) {
  struct caches *cs = data;
  if (cs->n >= 8) return HSA_STATUS_ERROR;
  const char *name = NULL;
  uint32_t len = 0;
  hsa_cache_get_info(c, HSA_CACHE_INFO_SIZE, &cs->size[cs->n]);
  hsa_cache_get_info(c, HSA_CACHE_INFO_LEVEL, &cs->level[cs->n]);
  hsa_cache_get_info(c, HSA_CACHE_INFO_NAME_LENGTH, &len);
  hsa_cache_get_info(c, HSA_CACHE_INFO_NAME, &name); /* ROCm returns a pointer to the name */
  if (!name || strlen(name) != len) return HSA_STATUS_ERROR;
  snprintf(cs->name[cs->n], 32, "%s", name);
  cs->n++;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t wave_cb(hsa_wavefront_t w, void *data) {
  return hsa_wavefront_get_info(w, HSA_WAVEFRONT_INFO_SIZE, data);
}

static hsa_status_t stop_cb(hsa_agent_t a, void *data) {
  (void)a;
  (*(int *)data)++;
  return HSA_STATUS_INFO_BREAK;
}

/* Cache size in bytes of sysfs cache index `i` of cpu0 with its level and type. */
static int sysfs_cache(int i, int *level, char *type, uint32_t *bytes) {
  char path[128], buf[64];
  snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
  if (read_text(path, buf, sizeof buf)) return -1;
  *level = atoi(buf);
  snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
  if (read_text(path, type, 32)) return -1;
  type[strcspn(type, "\n")] = 0;
  snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
  if (read_text(path, buf, sizeof buf)) return -1;
  char *end;
  unsigned long v = strtoul(buf, &end, 10);
  *bytes = (uint32_t)(*end == 'K' ? v << 10 : *end == 'M' ? v << 20 : v);
  return 0;
}

static int online_cpus(void) {
  char buf[256];
  if (read_text("/sys/devices/system/cpu/online", buf, sizeof buf)) return -1;
  int n = 0;
  for (char *p = strtok(buf, ",\n"); p; p = strtok(NULL, ",\n")) {
    int a, b;
    if (sscanf(p, "%d-%d", &a, &b) == 2) n += b - a + 1; else n++;
  }
  return n;
}

static void check_cpu(void) {
  hsa_agent_t cpu = find_agent(HSA_DEVICE_TYPE_CPU, 0);
  CHECK(cpu.handle != 0);
  char name[64], vendor[64];
  CHECK_OK(hsa_agent_get_info(cpu, HSA_AGENT_INFO_NAME, name));
  CHECK_OK(hsa_agent_get_info(cpu, HSA_AGENT_INFO_VENDOR_NAME, vendor));
  CHECK(strcmp(vendor, "CPU") == 0);
  /* The name is /proc/cpuinfo's model name (truncated to 63 characters). */
  char cpuinfo[8192] = "";
  read_text("/proc/cpuinfo", cpuinfo, sizeof cpuinfo);
  char *model = strstr(cpuinfo, "model name");
  if (model) {
    model = strchr(model, ':') + 2;
    CHECK(strncmp(model, name, strlen(name)) == 0);
  }
  uint32_t cus = 0, feature = 0, node = 99;
  CHECK_OK(hsa_agent_get_info(cpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &cus));
  CHECK((int)cus == online_cpus());
  CHECK_OK(hsa_agent_get_info(cpu, HSA_AGENT_INFO_FEATURE, &feature));
  CHECK(feature == HSA_AGENT_FEATURE_AGENT_DISPATCH);
  CHECK_OK(hsa_agent_get_info(cpu, HSA_AGENT_INFO_NODE, &node));
  CHECK(node == 0);
  hsa_profile_t profile;
  CHECK_OK(hsa_agent_get_info(cpu, HSA_AGENT_INFO_PROFILE, &profile));
  CHECK(profile == HSA_PROFILE_FULL);

  /* Cache sizes: CACHE_SIZE[level-1] and hsa_agent_iterate_caches agree with sysfs. */
  uint32_t sizes[4];
  CHECK_OK(hsa_agent_get_info(cpu, HSA_AGENT_INFO_CACHE_SIZE, sizes));
  struct caches cs = {0};
  CHECK_OK(hsa_agent_iterate_caches(cpu, cache_cb, &cs));
  int level, seen = 0;
  char type[32];
  uint32_t bytes;
  for (int i = 0; sysfs_cache(i, &level, type, &bytes) == 0; i++, seen++) {
    if (strcmp(type, "Instruction") != 0 && level <= 4) CHECK(sizes[level - 1] == bytes);
    int found = 0;
    for (int j = 0; j < cs.n; j++) found |= cs.level[j] == level && cs.size[j] == bytes;
    CHECK(found);
  }
  CHECK(cs.n == seen);
  /* The CPU agent has no ISA. */
  hsa_isa_t isas[2] = {{0}, {0}};
  CHECK_STATUS(hsa_agent_iterate_isas(cpu, isa_cb, isas), HSA_STATUS_ERROR_INVALID_AGENT);
}

static void check_gpu(hsa_agent_t gpu, const char *want_name, const char *want_isa, uint32_t want_cus,
                      uint32_t want_chip, uint32_t want_node) {
  char name[64], vendor[64], product[64], uuid[32];
  CHECK_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, name));
  CHECK(strcmp(name, want_name) == 0);
  CHECK_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_VENDOR_NAME, vendor));
  CHECK(strcmp(vendor, "AMD") == 0);
  CHECK_OK(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_PRODUCT_NAME, product));
  CHECK(strstr(product, want_name) != NULL);
  CHECK_OK(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_UUID, uuid));
  CHECK(strlen(uuid) == 20 && strncmp(uuid, "GPU-", 4) == 0);
  uint32_t u = 0;
  CHECK_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_FEATURE, &u));
  CHECK(u == HSA_AGENT_FEATURE_KERNEL_DISPATCH);
  CHECK_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_PROFILE, &u));
  CHECK(u == HSA_PROFILE_BASE);
  CHECK_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NODE, &u));
  CHECK(u == want_node);
  CHECK_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_WAVEFRONT_SIZE, &u));
  CHECK(u == 64);
  CHECK_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE, &u));
  CHECK(u == 1024);
  uint16_t dims[3];
  CHECK_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_WORKGROUP_MAX_DIM, dims));
  CHECK(dims[0] == 1024 && dims[1] == 1024 && dims[2] == 1024);
  hsa_dim3_t grid;
  CHECK_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_GRID_MAX_DIM, &grid));
  CHECK(grid.x == UINT32_MAX && grid.y == UINT32_MAX && grid.z == UINT32_MAX);
  CHECK_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &u));
  CHECK(u >= 4096 && (u & (u - 1)) == 0);
  CHECK_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_QUEUE_MIN_SIZE, &u));
  CHECK(u >= 1 && (u & (u - 1)) == 0);
  CHECK_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_QUEUES_MAX, &u));
  CHECK(u > 0);
  uint32_t cache[4];
  CHECK_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_CACHE_SIZE, cache));
  CHECK(cache[0] == 16 * 1024 && cache[1] > 0);
  uint8_t ext[128], zero[128] = {0};
  CHECK_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_EXTENSIONS, ext));
  /* Only the images bit: HIP 5.2's ROCclr reads its image limits (which bound hipMallocPitch
   * widths) only when it is set, and needs read-write image handles > 0. */
  zero[HSA_EXTENSION_IMAGES / 8] = 1 << (HSA_EXTENSION_IMAGES % 8);
  CHECK(memcmp(ext, zero, sizeof ext) == 0);
  uint32_t img[3] = {0, 0, 0};
  CHECK_OK(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS, img));
  CHECK(img[0] >= 4096 && img[1] >= 4096 && img[2] == 0);
  CHECK_OK(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS, img));
  CHECK(img[0] >= 256 && img[1] >= 256 && img[2] >= 256);
  u = 0;
  CHECK_OK(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES, &u));
  CHECK(u > 0);
  uint16_t vmaj = 0, vmin = 0;
  CHECK_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_VERSION_MAJOR, &vmaj));
  CHECK_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_VERSION_MINOR, &vmin));
  CHECK(vmaj == 1 && vmin == 1);
  struct { hsa_amd_agent_info_t attr; uint32_t min; } positive[] = {
    {HSA_AMD_AGENT_INFO_CACHELINE_SIZE, 64}, {HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY, 1000},
    {HSA_AMD_AGENT_INFO_MEMORY_WIDTH, 1024}, {HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY, 500},
    {HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU, 40}, {HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU, 4},
    {HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES, 1}, {HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE, 1},
    {HSA_AMD_AGENT_INFO_BDFID, 0x100},
  };
  for (size_t i = 0; i < sizeof positive / sizeof positive[0]; i++) {
    u = 0;
    CHECK_OK(hsa_agent_get_info(gpu, (hsa_agent_info_t)positive[i].attr, &u));
    CHECK(u >= positive[i].min);
  }
  CHECK_OK(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CHIP_ID, &u));
  CHECK(u == want_chip);
  CHECK_OK(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &u));
  CHECK(u == want_cus);
  CHECK_OK(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT, &u));
  CHECK(u == want_cus);
  CHECK_OK(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_DRIVER_NODE_ID, &u));
  CHECK(u == want_node);
  hsa_amd_hdp_flush_t hdp = {0};
  CHECK_OK(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_HDP_FLUSH, &hdp));
  CHECK(hdp.HDP_MEM_FLUSH_CNTL && hdp.HDP_REG_FLUSH_CNTL);
  if (hdp.HDP_MEM_FLUSH_CNTL) *hdp.HDP_MEM_FLUSH_CNTL = 1; /* must be writable */
  if (hdp.HDP_REG_FLUSH_CNTL) *hdp.HDP_REG_FLUSH_CNTL = 1;
  bool coop = true;
  CHECK_OK(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES, &coop));
  CHECK_STATUS(hsa_agent_get_info(gpu, (hsa_agent_info_t)0xA0FF, &u), HSA_STATUS_ERROR_INVALID_ARGUMENT);

  /* Exactly one ISA, named with explicit features. */
  hsa_isa_t isas[2] = {{0}, {0}}, agent_isa = {0};
  CHECK_OK(hsa_agent_iterate_isas(gpu, isa_cb, isas));
  CHECK(isas[0].handle != 0 && isas[1].handle == 0);
  CHECK_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_ISA, &agent_isa));
  CHECK(agent_isa.handle == isas[0].handle);
  uint32_t len = 0;
  char isa_name[128] = "";
  CHECK_OK(hsa_isa_get_info_alt(isas[0], HSA_ISA_INFO_NAME_LENGTH, &len));
  CHECK(len == strlen(want_isa) + 1);
  CHECK_OK(hsa_isa_get_info_alt(isas[0], HSA_ISA_INFO_NAME, isa_name));
  CHECK(strcmp(isa_name, want_isa) == 0);
  hsa_isa_t by_name = {0};
  CHECK_OK(hsa_isa_from_name(want_isa, &by_name));
  CHECK(by_name.handle == isas[0].handle);

  /* Caches and wavefronts. */
  struct caches cs = {0};
  CHECK_OK(hsa_agent_iterate_caches(gpu, cache_cb, &cs));
  CHECK(cs.n == 2 && cs.level[0] == 1 && cs.size[0] == cache[0] && cs.level[1] == 2 && cs.size[1] == cache[1]);
  uint32_t wave = 0;
  CHECK_OK(hsa_isa_iterate_wavefronts(isas[0], wave_cb, &wave));
  CHECK(wave == 64);
}

static void check_isa_objects(void) {
  hsa_isa_t a, any, xnack_on, g900;
  CHECK_OK(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-", &a));
  CHECK_OK(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx906", &any));
  CHECK_OK(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx906:xnack+", &xnack_on));
  CHECK_OK(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx900:xnack-", &g900));
  CHECK_STATUS(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx1030", &a), HSA_STATUS_ERROR_INVALID_ISA_NAME);
  CHECK_STATUS(hsa_isa_from_name(NULL, &a), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_OK(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-", &a));
  bool ok = false;
  CHECK_OK(hsa_isa_compatible(any, a, &ok));
  CHECK(ok);
  CHECK_OK(hsa_isa_compatible(xnack_on, a, &ok));
  CHECK(!ok);
  CHECK_OK(hsa_isa_compatible(g900, a, &ok));
  CHECK(!ok);
  hsa_isa_t forged = {0x42};
  CHECK_STATUS(hsa_isa_compatible(forged, a, &ok), HSA_STATUS_ERROR_INVALID_ISA);

  /* Every HSA_ISA_INFO attribute rocminfo reads. */
  uint32_t u = 0;
  CHECK_OK(hsa_isa_get_info_alt(a, HSA_ISA_INFO_CALL_CONVENTION_COUNT, &u));
  CHECK(u == 1);
  CHECK_OK(hsa_isa_get_info(a, HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE, 0, &u));
  CHECK(u == 64);
  CHECK_OK(hsa_isa_get_info(a, HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT, 0, &u));
  CHECK(u == 40);
  CHECK_STATUS(hsa_isa_get_info(a, HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE, 1, &u), HSA_STATUS_ERROR_INVALID_INDEX);
  bool models[2], profiles[2], modes[3], base_modes[3], f16 = false;
  CHECK_OK(hsa_isa_get_info_alt(a, HSA_ISA_INFO_MACHINE_MODELS, models));
  CHECK(!models[HSA_MACHINE_MODEL_SMALL] && models[HSA_MACHINE_MODEL_LARGE]);
  CHECK_OK(hsa_isa_get_info_alt(a, HSA_ISA_INFO_PROFILES, profiles));
  CHECK(profiles[HSA_PROFILE_BASE] && profiles[HSA_PROFILE_FULL]);
  CHECK_OK(hsa_isa_get_info_alt(a, HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES, modes));
  CHECK(modes[HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR]);
  CHECK_OK(hsa_isa_get_info_alt(a, HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES, base_modes));
  CHECK(base_modes[HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR]);
  CHECK_OK(hsa_isa_get_info_alt(a, HSA_ISA_INFO_FAST_F16_OPERATION, &f16));
  uint16_t dims[3];
  CHECK_OK(hsa_isa_get_info_alt(a, HSA_ISA_INFO_WORKGROUP_MAX_DIM, dims));
  CHECK(dims[0] == 1024 && dims[2] == 1024);
  CHECK_OK(hsa_isa_get_info_alt(a, HSA_ISA_INFO_WORKGROUP_MAX_SIZE, &u));
  CHECK(u == 1024);
  hsa_dim3_t grid;
  uint64_t grid_size = 0;
  CHECK_OK(hsa_isa_get_info_alt(a, HSA_ISA_INFO_GRID_MAX_DIM, &grid));
  CHECK(grid.x == UINT32_MAX);
  CHECK_OK(hsa_isa_get_info_alt(a, HSA_ISA_INFO_GRID_MAX_SIZE, &grid_size));
  CHECK(grid_size == UINT64_MAX);
  CHECK_OK(hsa_isa_get_info_alt(a, HSA_ISA_INFO_FBARRIER_MAX_SIZE, &u));
  CHECK(u == 32);
  CHECK_STATUS(hsa_isa_get_info_alt(forged, HSA_ISA_INFO_NAME_LENGTH, &u), HSA_STATUS_ERROR_INVALID_ISA);
  hsa_round_method_t rm;
  CHECK_OK(hsa_isa_get_round_method(a, HSA_FP_TYPE_32, HSA_FLUSH_MODE_FTZ, &rm));
  CHECK(rm == HSA_ROUND_METHOD_SINGLE);
  uint16_t mask = 0;
  CHECK_OK(hsa_isa_get_exception_policies(a, HSA_PROFILE_BASE, &mask));
  CHECK(mask == HSA_EXCEPTION_POLICY_DETECT);
  hsa_wavefront_t bad_wave = {7};
  CHECK_STATUS(hsa_wavefront_get_info(bad_wave, HSA_WAVEFRONT_INFO_SIZE, &u), HSA_STATUS_ERROR_INVALID_WAVEFRONT);
  hsa_cache_t bad_cache = {7};
  CHECK_STATUS(hsa_cache_get_info(bad_cache, HSA_CACHE_INFO_SIZE, &u), HSA_STATUS_ERROR_INVALID_CACHE);
}

int main(void) {
  unsetenv("SOFTHSA_GPU");
  unsetenv("SOFTHSA_GPUS");
  unsetenv("SOFTHSA_CUS");
  CHECK_OK(hsa_init());
  CHECK(count_agents(HSA_DEVICE_TYPE_CPU) == 1);
  CHECK(count_agents(HSA_DEVICE_TYPE_GPU) == 1);
  int visited = 0;
  CHECK_STATUS(hsa_iterate_agents(stop_cb, &visited), HSA_STATUS_INFO_BREAK);
  CHECK(visited == 1);
  check_cpu();
  check_gpu(find_agent(HSA_DEVICE_TYPE_GPU, 0), "gfx906", "amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-", 60, 0x66a1, 1);
  check_isa_objects();
  CHECK_OK(hsa_shut_down());

  /* The configuration is read at hsa_init. */
  setenv("SOFTHSA_GPU", "gfx900", 1);
  setenv("SOFTHSA_GPUS", "2", 1);
  setenv("SOFTHSA_CUS", "8", 1);
  CHECK_OK(hsa_init());
  CHECK(count_agents(HSA_DEVICE_TYPE_GPU) == 2);
  check_gpu(find_agent(HSA_DEVICE_TYPE_GPU, 0), "gfx900", "amdgcn-amd-amdhsa--gfx900:xnack-", 8, 0x6863, 1);
  check_gpu(find_agent(HSA_DEVICE_TYPE_GPU, 1), "gfx900", "amdgcn-amd-amdhsa--gfx900:xnack-", 8, 0x6863, 2);
  uint32_t bdf0 = 0, bdf1 = 0;
  hsa_agent_get_info(find_agent(HSA_DEVICE_TYPE_GPU, 0), (hsa_agent_info_t)HSA_AMD_AGENT_INFO_BDFID, &bdf0);
  hsa_agent_get_info(find_agent(HSA_DEVICE_TYPE_GPU, 1), (hsa_agent_info_t)HSA_AMD_AGENT_INFO_BDFID, &bdf1);
  CHECK(bdf0 != bdf1);
  CHECK_OK(hsa_shut_down());

  /* A malformed variable fails hsa_init instead of running another machine. */
  setenv("SOFTHSA_GPU", "gfx1030", 1);
  CHECK_STATUS(hsa_init(), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  unsetenv("SOFTHSA_GPU");
  TEST_DONE();
}
