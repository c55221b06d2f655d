/* System attributes, status strings, extensions and the system timestamp. */
#include "check.h"
#include <hsa/hsa_ext_finalize.h>
#include <hsa/hsa_ext_image.h>
#include <hsa/hsa_ven_amd_loader.h>
#include <time.h>

static uint64_t monotonic_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int main(void) {
  CHECK_OK(hsa_init());

  uint16_t major = 0, minor = 9;
  CHECK_OK(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major));
  CHECK_OK(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MINOR, &minor));
  CHECK(major == 1 && minor == 1);
  uint64_t freq = 0, max_wait = 0;
  CHECK_OK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq));
  CHECK(freq == 1000000000u); /* ROCclr treats timeouts as ns: 1 GHz keeps both consistent */
  CHECK_OK(hsa_system_get_info(HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT, &max_wait));
  CHECK(max_wait == UINT64_MAX);
  hsa_endianness_t endian = 7;
  hsa_machine_model_t model = 7;
  CHECK_OK(hsa_system_get_info(HSA_SYSTEM_INFO_ENDIANNESS, &endian));
  CHECK_OK(hsa_system_get_info(HSA_SYSTEM_INFO_MACHINE_MODEL, &model));
  CHECK(endian == HSA_ENDIANNESS_LITTLE && model == HSA_MACHINE_MODEL_LARGE);
  uint8_t ext[128];
  memset(ext, 0xff, sizeof ext);
  CHECK_OK(hsa_system_get_info(HSA_SYSTEM_INFO_EXTENSIONS, ext));
  CHECK(ext[HSA_EXTENSION_IMAGES / 8] & (1 << HSA_EXTENSION_IMAGES % 8));
  CHECK((ext[HSA_EXTENSION_FINALIZER / 8] & (1 << HSA_EXTENSION_FINALIZER % 8)) == 0);
  const char *build = NULL;
  CHECK_OK(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_BUILD_VERSION, &build));
  CHECK(build && strstr(build, "softhsa"));
  bool svm = false;
  CHECK_OK(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED, &svm));
  CHECK(svm); /* SVM attributes: tests/c/memory/svm.c */
  CHECK_STATUS(hsa_system_get_info((hsa_system_info_t)0x77, &freq), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);

  /* The timestamp advances at 1 GHz, in step with CLOCK_MONOTONIC. */
  uint64_t t0, t1;
  uint64_t h0 = monotonic_ns();
  CHECK_OK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t0));
  struct timespec pause = {0, 20 * 1000 * 1000};
  nanosleep(&pause, NULL);
  CHECK_OK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t1));
  uint64_t h1 = monotonic_ns();
  CHECK(t1 > t0);
  CHECK(t1 - t0 >= 20000000u && t1 - t0 <= h1 - h0 + 1000000u);

  /* Every status of hsa.h and hsa_ext_amd.h has text naming it; unknown ones are refused. */
  struct { hsa_status_t s; const char *name; } statuses[] = {
    {HSA_STATUS_SUCCESS, "HSA_STATUS_SUCCESS"}, {HSA_STATUS_INFO_BREAK, "HSA_STATUS_INFO_BREAK"},
    {HSA_STATUS_ERROR, "HSA_STATUS_ERROR"}, {HSA_STATUS_ERROR_INVALID_ARGUMENT, "HSA_STATUS_ERROR_INVALID_ARGUMENT"},
    {HSA_STATUS_ERROR_INVALID_QUEUE_CREATION, "HSA_STATUS_ERROR_INVALID_QUEUE_CREATION"},
    {HSA_STATUS_ERROR_INVALID_ALLOCATION, "HSA_STATUS_ERROR_INVALID_ALLOCATION"},
    {HSA_STATUS_ERROR_INVALID_AGENT, "HSA_STATUS_ERROR_INVALID_AGENT"},
    {HSA_STATUS_ERROR_INVALID_REGION, "HSA_STATUS_ERROR_INVALID_REGION"},
    {HSA_STATUS_ERROR_INVALID_SIGNAL, "HSA_STATUS_ERROR_INVALID_SIGNAL"},
    {HSA_STATUS_ERROR_INVALID_QUEUE, "HSA_STATUS_ERROR_INVALID_QUEUE"},
    {HSA_STATUS_ERROR_OUT_OF_RESOURCES, "HSA_STATUS_ERROR_OUT_OF_RESOURCES"},
    {HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "HSA_STATUS_ERROR_INVALID_PACKET_FORMAT"},
    {HSA_STATUS_ERROR_RESOURCE_FREE, "HSA_STATUS_ERROR_RESOURCE_FREE"},
    {HSA_STATUS_ERROR_NOT_INITIALIZED, "HSA_STATUS_ERROR_NOT_INITIALIZED"},
    {HSA_STATUS_ERROR_REFCOUNT_OVERFLOW, "HSA_STATUS_ERROR_REFCOUNT_OVERFLOW"},
    {HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS, "HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS"},
    {HSA_STATUS_ERROR_INVALID_INDEX, "HSA_STATUS_ERROR_INVALID_INDEX"},
    {HSA_STATUS_ERROR_INVALID_ISA, "HSA_STATUS_ERROR_INVALID_ISA"},
    {HSA_STATUS_ERROR_INVALID_ISA_NAME, "HSA_STATUS_ERROR_INVALID_ISA_NAME"},
    {HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "HSA_STATUS_ERROR_INVALID_CODE_OBJECT"},
    {HSA_STATUS_ERROR_INVALID_EXECUTABLE, "HSA_STATUS_ERROR_INVALID_EXECUTABLE"},
    {HSA_STATUS_ERROR_FROZEN_EXECUTABLE, "HSA_STATUS_ERROR_FROZEN_EXECUTABLE"},
    {HSA_STATUS_ERROR_INVALID_SYMBOL_NAME, "HSA_STATUS_ERROR_INVALID_SYMBOL_NAME"},
    {HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED, "HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED"},
    {HSA_STATUS_ERROR_VARIABLE_UNDEFINED, "HSA_STATUS_ERROR_VARIABLE_UNDEFINED"},
    {HSA_STATUS_ERROR_EXCEPTION, "HSA_STATUS_ERROR_EXCEPTION"},
    {HSA_STATUS_ERROR_INVALID_CODE_SYMBOL, "HSA_STATUS_ERROR_INVALID_CODE_SYMBOL"},
    {HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL, "HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL"},
    {HSA_STATUS_ERROR_INVALID_FILE, "HSA_STATUS_ERROR_INVALID_FILE"},
    {HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER, "HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER"},
    {HSA_STATUS_ERROR_INVALID_CACHE, "HSA_STATUS_ERROR_INVALID_CACHE"},
    {HSA_STATUS_ERROR_INVALID_WAVEFRONT, "HSA_STATUS_ERROR_INVALID_WAVEFRONT"},
    {HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP, "HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP"},
    {HSA_STATUS_ERROR_INVALID_RUNTIME_STATE, "HSA_STATUS_ERROR_INVALID_RUNTIME_STATE"},
    {HSA_STATUS_ERROR_FATAL, "HSA_STATUS_ERROR_FATAL"},
    {(hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL, "HSA_STATUS_ERROR_INVALID_MEMORY_POOL"},
    {(hsa_status_t)HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION, "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION"},
    {(hsa_status_t)HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION, "HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION"},
    {(hsa_status_t)HSA_STATUS_ERROR_MEMORY_FAULT, "HSA_STATUS_ERROR_MEMORY_FAULT"},
    {(hsa_status_t)HSA_STATUS_CU_MASK_REDUCED, "HSA_STATUS_CU_MASK_REDUCED"},
  };
  for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++) {
    const char *text = NULL;
    CHECK_OK(hsa_status_string(statuses[i].s, &text));
    size_t n = strlen(statuses[i].name);
    CHECK(text && strncmp(text, statuses[i].name, n) == 0 && text[n] == ':' && strlen(text) > n + 10);
  }
  const char *text = NULL;
  CHECK_STATUS(hsa_status_string((hsa_status_t)0x7777, &text), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(hsa_status_string(HSA_STATUS_SUCCESS, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);

  /* Extensions: names are known; images 1.0 is supported, the finalizer is not. */
  const char *name = NULL;
  CHECK_OK(hsa_extension_get_name(HSA_EXTENSION_AMD_LOADER, &name));
  CHECK(name && strcmp(name, "HSA_EXTENSION_AMD_LOADER") == 0);
  CHECK_OK(hsa_extension_get_name(HSA_EXTENSION_IMAGES, &name));
  CHECK(name && strcmp(name, "HSA_EXTENSION_IMAGES") == 0);
  CHECK_STATUS(hsa_extension_get_name(0x150, &name), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  bool supported = true;
  uint16_t ver_minor = 0;
  CHECK_OK(hsa_system_major_extension_supported(HSA_EXTENSION_IMAGES, 1, &ver_minor, &supported));
  CHECK(supported && ver_minor == 0);
  supported = true;
  CHECK_OK(hsa_system_major_extension_supported(HSA_EXTENSION_FINALIZER, 1, &ver_minor, &supported));
  CHECK(!supported);
  hsa_agent_t gpu = find_agent(HSA_DEVICE_TYPE_GPU, 0);
  supported = true;
  CHECK_OK(hsa_agent_major_extension_supported(HSA_EXTENSION_IMAGES, gpu, 1, &ver_minor, &supported));
  CHECK(supported);
  void *table[13] = {0};
  CHECK_OK(hsa_system_get_major_extension_table(HSA_EXTENSION_IMAGES, 1, sizeof table, table));
  CHECK(table[0] != NULL && table[12] != NULL);
  CHECK_STATUS(hsa_system_get_major_extension_table(HSA_EXTENSION_IMAGES, 2, sizeof table, table),
               HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(hsa_system_get_major_extension_table(HSA_EXTENSION_FINALIZER, 1, sizeof table, table),
               HSA_STATUS_ERROR_INVALID_ARGUMENT);
  /* The AMD loader extension (v1.00-1.03) and its tables. */
  supported = false;
  ver_minor = 0;
  CHECK_OK(hsa_system_major_extension_supported(HSA_EXTENSION_AMD_LOADER, 1, &ver_minor, &supported));
  CHECK(supported && ver_minor == 3);
  CHECK(ext[HSA_EXTENSION_AMD_LOADER / 8] & (1 << HSA_EXTENSION_AMD_LOADER % 8));
  CHECK_OK(hsa_system_extension_supported(HSA_EXTENSION_AMD_LOADER, 1, 2, &supported));
  CHECK(supported);
  CHECK_OK(hsa_system_extension_supported(HSA_EXTENSION_AMD_LOADER, 1, 4, &supported));
  CHECK(!supported);
  CHECK_OK(hsa_system_extension_supported(HSA_EXTENSION_AMD_LOADER, 2, 0, &supported));
  CHECK(!supported);
  hsa_ven_amd_loader_1_01_pfn_t loader;
  memset(&loader, 0, sizeof loader);
  CHECK_OK(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof loader, &loader));
  CHECK(loader.hsa_ven_amd_loader_query_host_address && loader.hsa_ven_amd_loader_loaded_code_object_get_info);
  /* The deprecated form copies exactly the 1.00 table (3 functions) when asked for 1.0. */
  void *fns[8];
  memset(fns, 0, sizeof fns);
  CHECK_OK(hsa_system_get_extension_table(HSA_EXTENSION_AMD_LOADER, 1, 0, fns));
  CHECK(fns[0] && fns[1] && fns[2] && !fns[3]);
  CHECK_STATUS(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 2, sizeof loader, &loader),
               HSA_STATUS_ERROR_INVALID_ARGUMENT);

  /* Images (tests/image covers them): an unsupported format, and data the agent cannot reach. */
  hsa_ext_image_format_t fmt = {HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8, HSA_EXT_IMAGE_CHANNEL_ORDER_RGB};
  uint32_t caps = 99;
  CHECK_OK(hsa_ext_image_get_capability(gpu, HSA_EXT_IMAGE_GEOMETRY_2D, &fmt, &caps));
  CHECK(caps == HSA_EXT_IMAGE_CAPABILITY_NOT_SUPPORTED);
  hsa_ext_image_descriptor_t desc = {HSA_EXT_IMAGE_GEOMETRY_2D, 4, 4, 0, 0, fmt};
  hsa_ext_image_t image;
  CHECK_STATUS(hsa_ext_image_create(gpu, &desc, table, HSA_ACCESS_PERMISSION_RW, &image),
               HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED);
  desc.format.channel_order = HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA;
  CHECK_STATUS(hsa_ext_image_create(gpu, &desc, table, HSA_ACCESS_PERMISSION_RW, &image),
               HSA_STATUS_ERROR_INVALID_ARGUMENT);
  /* Features softhsa does not implement say so with their specific status. */
  hsa_ext_program_t program;
  CHECK_STATUS(hsa_ext_program_create(HSA_MACHINE_MODEL_LARGE, HSA_PROFILE_BASE,
                                      HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &program),
               HSA_STATUS_ERROR);
  program.handle = 1;
  CHECK_STATUS(hsa_ext_program_destroy(program), HSA_EXT_STATUS_ERROR_INVALID_PROGRAM);
  /* IPC exports pool allocations only (tests/c/ipc). */
  hsa_amd_ipc_memory_t ipc;
  CHECK_STATUS(hsa_amd_ipc_memory_create(table, sizeof table, &ipc), HSA_STATUS_ERROR_INVALID_ARGUMENT);

  CHECK_OK(hsa_shut_down());
  TEST_DONE();
}
