/* Graphics interop cannot apply (there is no graphics driver whose buffers could be mapped):
 * hsa_amd_interop_map_buffer/unmap_buffer fail with an error status, write nothing through
 * their output pointers, and the api trace says why. */
#include "check.h"

int main(void) {
  const char *dir = getenv("SOFTHSA_TEST_TMP");
  char trace_path[512];
  snprintf(trace_path, sizeof trace_path, "%s/interop-trace.txt", dir ? dir : "/tmp");
  setenv("SOFTHSA_TRACE", "api", 1);
  setenv("SOFTHSA_TRACE_FILE", trace_path, 1);
  CHECK_OK(hsa_init());
  hsa_agent_t gpu = find_agent(HSA_DEVICE_TYPE_GPU, 0);
  size_t size = 77, metadata_size = 88;
  void *ptr = (void *)0x1234;
  const void *metadata = (const void *)0x5678;
  CHECK_STATUS(hsa_amd_interop_map_buffer(1, &gpu, 3, 0, &size, &ptr, &metadata_size, &metadata),
               HSA_STATUS_ERROR);
  CHECK(size == 77 && ptr == (void *)0x1234 && metadata_size == 88 && metadata == (const void *)0x5678);
  CHECK_STATUS(hsa_amd_interop_unmap_buffer(ptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_OK(hsa_shut_down());
  char text[8192] = "";
  CHECK(read_text(trace_path, text, sizeof text) == 0);
  CHECK(strstr(text, "hsa_amd_interop_map_buffer -> HSA_STATUS_ERROR: graphics interop") != NULL);
  CHECK(strstr(text, "hsa_amd_interop_unmap_buffer -> HSA_STATUS_ERROR_INVALID_ARGUMENT: graphics interop") != NULL);
  TEST_DONE();
}
