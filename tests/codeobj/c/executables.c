/* Executables through the C API: load base-v5.hsaco (clang-16 gfx906 build of kernels/basic.cl),
 * compare symbol attributes with what llvm-readelf says (passed as arguments by
 * run-executables.sh), use the AMD loader extension, and check stale/forged handles.
 *
 * Usage: executables CODE_OBJECT MALFORMED LDS_KD_VADDR LDS_GROUP_SIZE ARGS_KERNARG_SIZE
 */
#include "check.h"
#include <fcntl.h>
#include <hsa/hsa_ven_amd_loader.h>
#include <unistd.h>

static void *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(2); }
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  void *p = malloc(*size);
  if (fread(p, 1, *size, f) != *size) { perror(path); exit(2); }
  fclose(f);
  return p;
}

struct count { int kernels, variables; };

static hsa_status_t count_cb(hsa_executable_t e, hsa_agent_t a, hsa_executable_symbol_t s, void *data) {
  (void)e; (void)a;
  struct count *c = data;
  hsa_symbol_kind_t kind;
  if (hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind) != HSA_STATUS_SUCCESS)
    return HSA_STATUS_ERROR;
  if (kind == HSA_SYMBOL_KIND_KERNEL) c->kernels++; else c->variables++;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t first_lco(hsa_executable_t e, hsa_loaded_code_object_t l, void *data) {
  (void)e;
  *(hsa_loaded_code_object_t *)data = l;
  return HSA_STATUS_INFO_BREAK;
}

int main(int argc, char **argv) {
  if (argc != 6) { fprintf(stderr, "usage: see the source\n"); return 2; }
  uint64_t lds_vaddr = strtoull(argv[3], NULL, 16);
  uint32_t lds_group = (uint32_t)atoi(argv[4]), args_kernarg = (uint32_t)atoi(argv[5]);
  size_t size = 0, bad_size = 0;
  void *image = slurp(argv[1], &size);
  void *bad = slurp(argv[2], &bad_size);

  CHECK_OK(hsa_init());
  hsa_agent_t gpu = find_agent(HSA_DEVICE_TYPE_GPU, 0), cpu = find_agent(HSA_DEVICE_TYPE_CPU, 0);
  CHECK(gpu.handle != 0);

  hsa_code_object_reader_t reader, file_reader, bad_reader;
  CHECK_OK(hsa_code_object_reader_create_from_memory(image, size, &reader));
  int fd = open(argv[1], O_RDONLY);
  CHECK_OK(hsa_code_object_reader_create_from_file(fd, &file_reader));
  CHECK_OK(hsa_code_object_reader_create_from_memory(bad, bad_size, &bad_reader));

  hsa_executable_t exec;
  CHECK_STATUS(hsa_executable_create_alt(7, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &exec),
               HSA_STATUS_ERROR_INVALID_ARGUMENT);
  /* HIP's way: a FULL profile executable loads on the (BASE profile) GPU agent. */
  CHECK_OK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &exec));
  CHECK_STATUS(hsa_executable_load_agent_code_object(exec, gpu, bad_reader, NULL, NULL),
               HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  CHECK_STATUS(hsa_executable_load_agent_code_object(exec, cpu, reader, NULL, NULL), HSA_STATUS_ERROR_INVALID_AGENT);
  hsa_loaded_code_object_t lco = {0};
  CHECK_OK(hsa_executable_load_agent_code_object(exec, gpu, reader, NULL, &lco));
  CHECK_OK(hsa_executable_freeze(exec, NULL));
  CHECK_STATUS(hsa_executable_freeze(exec, NULL), HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
  CHECK_STATUS(hsa_executable_load_agent_code_object(exec, gpu, file_reader, NULL, NULL),
               HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
  hsa_executable_state_t state;
  CHECK_OK(hsa_executable_get_info(exec, HSA_EXECUTABLE_INFO_STATE, &state));
  CHECK(state == HSA_EXECUTABLE_STATE_FROZEN);
  uint32_t valid = 9;
  CHECK_OK(hsa_executable_validate(exec, &valid));
  CHECK(valid == 0);

  /* Kernel symbols: the kernel object is the loaded descriptor (load base + symbol value). */
  hsa_executable_symbol_t lds;
  CHECK_OK(hsa_executable_get_symbol_by_name(exec, "lds.kd", &gpu, &lds));
  CHECK_STATUS(hsa_executable_get_symbol_by_name(exec, "nope.kd", &gpu, &lds), HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
  CHECK_OK(hsa_executable_get_symbol_by_name(exec, "lds.kd", &gpu, &lds));
  uint64_t kernel_object = 0;
  uint32_t group = 0, name_len = 0;
  CHECK_OK(hsa_executable_symbol_get_info(lds, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kernel_object));
  CHECK_OK(hsa_executable_symbol_get_info(lds, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &group));
  CHECK(group == lds_group);
  CHECK_OK(hsa_executable_symbol_get_info(lds, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH, &name_len));
  char name[64] = {0};
  CHECK(name_len == 6);
  CHECK_OK(hsa_executable_symbol_get_info(lds, HSA_EXECUTABLE_SYMBOL_INFO_NAME, name));
  CHECK(strcmp(name, "lds.kd") == 0);
  hsa_agent_t sym_agent;
  CHECK_OK(hsa_executable_symbol_get_info(lds, HSA_EXECUTABLE_SYMBOL_INFO_AGENT, &sym_agent));
  CHECK(sym_agent.handle == gpu.handle);
  uint64_t addr;
  CHECK_STATUS(hsa_executable_symbol_get_info(lds, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &addr),
               HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_executable_symbol_t args;
  uint32_t kernarg = 0;
  CHECK_OK(hsa_executable_get_symbol_by_name(exec, "args.kd", &gpu, &args));
  CHECK_OK(hsa_executable_symbol_get_info(args, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kernarg));
  CHECK(kernarg == args_kernarg);
  struct count c = {0, 0};
  CHECK_OK(hsa_executable_iterate_agent_symbols(exec, gpu, count_cb, &c));
  CHECK(c.kernels == 4);

  /* The AMD loader extension (checked once the system layer advertises it). */
  hsa_ven_amd_loader_1_01_pfn_t ext;
  memset(&ext, 0, sizeof ext);
  uint16_t minor = 0;
  bool supported = false;
  CHECK_OK(hsa_system_major_extension_supported(HSA_EXTENSION_AMD_LOADER, 1, &minor, &supported));
  if (!supported) {
    printf("NOTE: HSA_EXTENSION_AMD_LOADER is not advertised; its checks were skipped\n");
  } else {
    CHECK(minor >= 1);
    CHECK_OK(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof ext, &ext));
    CHECK(ext.hsa_ven_amd_loader_loaded_code_object_get_info != NULL);
  }
  if (supported && ext.hsa_ven_amd_loader_loaded_code_object_get_info) {
    hsa_loaded_code_object_t it = {0};
    CHECK_STATUS(ext.hsa_ven_amd_loader_executable_iterate_loaded_code_objects(exec, first_lco, &it),
                 HSA_STATUS_INFO_BREAK);
    CHECK(it.handle == lco.handle);
    uint64_t base = 0, load_size = 0;
    CHECK_OK(ext.hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE, &base));
    CHECK_OK(ext.hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE, &load_size));
    CHECK(kernel_object == base + lds_vaddr);
    CHECK(load_size >= size / 2);
    const void *host = NULL;
    CHECK_OK(ext.hsa_ven_amd_loader_query_host_address((const void *)kernel_object, &host));
    CHECK(host == (const void *)kernel_object);
    /* The descriptor bytes at the kernel object say the same group size (offset 0). */
    CHECK(*(const uint32_t *)host == lds_group);
    hsa_executable_t owner = {0};
    CHECK_OK(ext.hsa_ven_amd_loader_query_executable((const void *)(base + 8), &owner));
    CHECK(owner.handle == exec.handle);
    CHECK_STATUS(ext.hsa_ven_amd_loader_query_host_address((const void *)&owner, &host),
                 HSA_STATUS_ERROR_INVALID_ARGUMENT);
    size_t n = 0;
    CHECK_OK(ext.hsa_ven_amd_loader_query_segment_descriptors(NULL, &n));
    CHECK(n >= 2);
  }

  /* Stale and forged handles. */
  hsa_executable_symbol_t forged = {lds.handle ^ 0x55};
  CHECK_STATUS(hsa_executable_symbol_get_info(forged, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &group),
               HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL);
  CHECK_OK(hsa_executable_destroy(exec));
  CHECK_STATUS(hsa_executable_destroy(exec), HSA_STATUS_ERROR_INVALID_EXECUTABLE);
  CHECK_STATUS(hsa_executable_symbol_get_info(lds, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &group),
               HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL);
  hsa_executable_t junk = {0x1234};
  CHECK_STATUS(hsa_executable_freeze(junk, NULL), HSA_STATUS_ERROR_INVALID_EXECUTABLE);
  CHECK_OK(hsa_code_object_reader_destroy(reader));
  CHECK_STATUS(hsa_code_object_reader_destroy(reader), HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER);
  CHECK_OK(hsa_code_object_reader_destroy(file_reader));
  CHECK_OK(hsa_code_object_reader_destroy(bad_reader));

  /* The deprecated code object API. */
  hsa_code_object_t co;
  CHECK_OK(hsa_code_object_deserialize(image, size, NULL, &co));
  hsa_code_symbol_t cs;
  CHECK_OK(hsa_code_object_get_symbol(co, "lds.kd", &cs));
  CHECK_OK(hsa_code_symbol_get_info(cs, HSA_CODE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &group));
  CHECK(group == lds_group);
  hsa_executable_t old;
  CHECK_OK(hsa_executable_create(HSA_PROFILE_FULL, HSA_EXECUTABLE_STATE_UNFROZEN, NULL, &old));
  CHECK_OK(hsa_executable_load_code_object(old, gpu, co, NULL));
  CHECK_OK(hsa_executable_destroy(old));
  CHECK_OK(hsa_code_object_destroy(co));
  CHECK_STATUS(hsa_code_object_get_symbol(co, "lds.kd", &cs), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);

  close(fd);
  CHECK_OK(hsa_shut_down());
  TEST_DONE();
}
