/* Shared helpers for the C tests (scripts/run-c-tests.sh builds every tests/c/<area>/NAME.c with
 * -I tests/c/common). Each test is self-checking: it exits 0 when every CHECK held.
 *
 *   CHECK(cond)                 a condition; failures are counted and reported with the line
 *   CHECK_STATUS(expr, status)  an HSA call returning exactly `status`
 *   CHECK_OK(expr)              an HSA call returning HSA_STATUS_SUCCESS
 *   TEST_DONE()                 prints the result and returns the exit code from main
 *
 * Agent and pool finders return the first match (handle 0 if none).
 */
#ifndef SOFTHSA_TEST_CHECK_H
#define SOFTHSA_TEST_CHECK_H

#define _GNU_SOURCE
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;
static int check_count;

static const char *status_text(hsa_status_t s) {
  const char *t = NULL;
  if (hsa_status_string(s, &t) != HSA_STATUS_SUCCESS || !t) return "?";
  return t;
}

#define CHECK(cond)                                                                \
  do {                                                                             \
    check_count++;                                                                 \
    if (!(cond)) {                                                                 \
      check_failures++;                                                            \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);     \
    }                                                                              \
  } while (0)

#define CHECK_STATUS(expr, expected)                                               \
  do {                                                                             \
    hsa_status_t got_ = (expr);                                                    \
    check_count++;                                                                 \
    if (got_ != (hsa_status_t)(expected)) {                                        \
      check_failures++;                                                            \
      fprintf(stderr, "%s:%d: %s returned %#x (%s), expected %#x\n", __FILE__,     \
              __LINE__, #expr, (unsigned)got_, status_text(got_),                  \
              (unsigned)(expected));                                               \
    }                                                                              \
  } while (0)

#define CHECK_OK(expr) CHECK_STATUS(expr, HSA_STATUS_SUCCESS)

#define TEST_DONE()                                                                \
  do {                                                                             \
    printf("%s: %d checks, %d failed\n", __FILE__, check_count, check_failures);   \
    return check_failures ? 1 : 0;                                                 \
  } while (0)

/* ---- agents ---- */

struct agent_find { hsa_device_type_t type; int skip; hsa_agent_t found; int count; };

static hsa_status_t agent_find_cb(hsa_agent_t a, void *data) {
  struct agent_find *f = data;
  hsa_device_type_t t;
  if (hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t) != HSA_STATUS_SUCCESS) return HSA_STATUS_ERROR;
  if (t == f->type) {
    if (f->count == f->skip) f->found = a;
    f->count++;
  }
  return HSA_STATUS_SUCCESS;
}

/* The `index`-th agent of a device type; handle 0 if there is none. */
static hsa_agent_t find_agent(hsa_device_type_t type, int index) {
  struct agent_find f = {type, index, {0}, 0};
  hsa_iterate_agents(agent_find_cb, &f);
  return f.found;
}

static int count_agents(hsa_device_type_t type) {
  struct agent_find f = {type, -1, {0}, 0};
  hsa_iterate_agents(agent_find_cb, &f);
  return f.count;
}

/* ---- pools ---- */

struct pool_find { uint32_t segment; uint32_t flags; hsa_amd_memory_pool_t found; };

static hsa_status_t pool_find_cb(hsa_amd_memory_pool_t p, void *data) {
  struct pool_find *f = data;
  uint32_t seg = 0, flags = 0;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
  if (seg != f->segment) return HSA_STATUS_SUCCESS;
  if (seg == HSA_AMD_SEGMENT_GLOBAL) {
    hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
    if ((flags & f->flags) != f->flags) return HSA_STATUS_SUCCESS;
  }
  f->found = p;
  return HSA_STATUS_INFO_BREAK;
}

/* The first pool of `agent` in `segment` whose global flags include `flags`. */
static hsa_amd_memory_pool_t find_pool(hsa_agent_t agent, uint32_t segment, uint32_t flags) {
  struct pool_find f = {segment, flags, {0}};
  hsa_amd_agent_iterate_memory_pools(agent, pool_find_cb, &f);
  return f.found;
}

/* ---- host facts ---- */

/* Reads a small text file; returns 0 on success. */
static int read_text(const char *path, char *buf, size_t len) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  size_t n = fread(buf, 1, len - 1, f);
  fclose(f);
  buf[n] = 0;
  return 0;
}

#endif
