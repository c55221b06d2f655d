/* Tracing: SOFTHSA_TRACE=api writes one line per failed call, naming the function, its status
 * and why (unsupported features say which); SOFTHSA_TIMELINE leaves a JSON array closed by
 * hsa_shut_down. */
#include "check.h"
#include <hsa/hsa_ext_finalize.h>

int main(void) {
  const char *dir = getenv("SOFTHSA_TEST_TMP");
  char trace_path[512], timeline_path[512];
  snprintf(trace_path, sizeof trace_path, "%s/trace.txt", dir ? dir : "/tmp");
  snprintf(timeline_path, sizeof timeline_path, "%s/timeline.json", dir ? dir : "/tmp");
  /* Tracing is configured from the environment when the library first needs it. */
  setenv("SOFTHSA_TRACE", "api", 1);
  setenv("SOFTHSA_TRACE_FILE", trace_path, 1);
  setenv("SOFTHSA_TIMELINE", timeline_path, 1);

  CHECK_OK(hsa_init());
  hsa_ext_program_t program;
  CHECK_STATUS(hsa_ext_program_create(HSA_MACHINE_MODEL_LARGE, HSA_PROFILE_BASE,
                                      HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &program),
               HSA_STATUS_ERROR);
  hsa_agent_t forged = {42};
  char name[64];
  CHECK_STATUS(hsa_agent_get_info(forged, HSA_AGENT_INFO_NAME, name), HSA_STATUS_ERROR_INVALID_AGENT);
  uint64_t ok_value;
  CHECK_OK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &ok_value));
  CHECK_OK(hsa_shut_down());

  char text[8192] = "";
  CHECK(read_text(trace_path, text, sizeof text) == 0);
  CHECK(strstr(text, "softhsa[api] hsa_ext_program_create -> HSA_STATUS_ERROR: the HSAIL finalizer") != NULL);
  CHECK(strstr(text, "softhsa[api] hsa_agent_get_info -> HSA_STATUS_ERROR_INVALID_AGENT") != NULL);
  CHECK(strstr(text, "hsa_system_get_info") == NULL); /* successful calls are not traced */

  char json[1 << 16] = "";
  CHECK(read_text(timeline_path, json, sizeof json) == 0);
  size_t n = strlen(json);
  while (n && (json[n - 1] == '\n' || json[n - 1] == ' ')) json[--n] = 0;
  CHECK(json[0] == '[' && n > 0 && json[n - 1] == ']');
  TEST_DONE();
}
