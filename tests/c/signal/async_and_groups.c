/* hsa_amd_signal_async_handler chains (a handler registers the next one; returning false
 * unregisters, true keeps it), hsa_amd_signal_wait_any, signal groups, the value pointer (a
 * store made directly in memory is noticed by a waiter), hsa_amd_signal_create attributes and
 * calls before hsa_init. Exit 0 = pass. */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

static hsa_signal_t chain[3], finished;
static int calls[3];
static pthread_t handler_thread;

static bool on_chain(hsa_signal_value_t v, void *arg) {
  long i = (long)arg;
  CHECK(v == 0);
  if (i == 0) handler_thread = pthread_self();
  CHECK(pthread_equal(handler_thread, pthread_self())); /* one runtime thread runs handlers */
  calls[i]++;
  if (i < 2) {
    CHECK(hsa_amd_signal_async_handler(chain[i + 1], HSA_SIGNAL_CONDITION_EQ, 0, on_chain, (void *)(i + 1)) == HSA_STATUS_SUCCESS);
    hsa_signal_store_screlease(chain[i + 1], 0);
  } else {
    hsa_signal_subtract_screlease(finished, 1);
  }
  return false;
}

static int repeats;
static bool on_repeat(hsa_signal_value_t v, void *arg) {
  (void)arg;
  repeats++;
  hsa_signal_store_relaxed(chain[0], 0);    /* re-arm: the condition no longer holds */
  hsa_signal_store_screlease(finished, v);  /* report the value seen */
  return repeats < 3;                       /* stay registered for three rounds */
}

static hsa_signal_t sig_a;
static void *store_in_memory(void *arg) {
  (void)arg;
  usleep(20000);
  volatile hsa_signal_value_t *p;
  CHECK(hsa_amd_signal_value_pointer(sig_a, &p) == HSA_STATUS_SUCCESS);
  __atomic_store_n(p, 42, __ATOMIC_RELEASE); /* as device code does: no API call, no wake-up */
  return NULL;
}

int main(void) {
  hsa_signal_t s;
  CHECK(hsa_signal_create(0, 0, NULL, &s) == HSA_STATUS_ERROR_NOT_INITIALIZED);
  CHECK(hsa_init() == HSA_STATUS_SUCCESS);

  for (int i = 0; i < 3; i++) CHECK(hsa_signal_create(1, 0, NULL, &chain[i]) == HSA_STATUS_SUCCESS);
  CHECK(hsa_signal_create(1, 0, NULL, &finished) == HSA_STATUS_SUCCESS);
  CHECK(hsa_amd_signal_async_handler(chain[0], HSA_SIGNAL_CONDITION_EQ, 0, on_chain, (void *)0) == HSA_STATUS_SUCCESS);
  hsa_signal_store_screlease(chain[0], 0);
  CHECK(hsa_signal_wait_scacquire(finished, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, HSA_WAIT_STATE_BLOCKED) == 0);
  usleep(20000);
  CHECK(calls[0] == 1 && calls[1] == 1 && calls[2] == 1);

  /* A handler returning true runs again when its condition holds again. */
  CHECK(hsa_amd_signal_async_handler(chain[0], HSA_SIGNAL_CONDITION_GTE, 10, on_repeat, NULL) == HSA_STATUS_SUCCESS);
  for (int round = 1; round <= 3; round++) {
    hsa_signal_store_screlease(chain[0], 10 * round);
    CHECK(hsa_signal_wait_scacquire(finished, HSA_SIGNAL_CONDITION_EQ, 10 * round, UINT64_MAX, HSA_WAIT_STATE_BLOCKED) == 10 * round);
  }
  hsa_signal_store_screlease(chain[0], 99);
  usleep(20000);
  CHECK(repeats == 3);
  hsa_signal_t bogus = {12345};
  CHECK(hsa_amd_signal_async_handler(bogus, HSA_SIGNAL_CONDITION_EQ, 0, on_repeat, NULL) == HSA_STATUS_ERROR_INVALID_SIGNAL);
  CHECK(hsa_amd_signal_async_handler(chain[0], HSA_SIGNAL_CONDITION_EQ, 0, NULL, NULL) == HSA_STATUS_ERROR_INVALID_ARGUMENT);

  /* wait_any: index and value of the satisfied signal; UINT32_MAX after a timeout. */
  hsa_signal_t b;
  CHECK(hsa_amd_signal_create(5, 0, NULL, HSA_AMD_SIGNAL_AMD_GPU_ONLY, &sig_a) == HSA_STATUS_SUCCESS);
  /* An IPC signal (shared memory, tests/c/ipc) waits like any other. */
  CHECK(hsa_amd_signal_create(5, 0, NULL, HSA_AMD_SIGNAL_IPC, &b) == HSA_STATUS_SUCCESS);
  hsa_signal_t two[2] = {sig_a, b};
  hsa_signal_condition_t conds[2] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_LT};
  hsa_signal_value_t vals[2] = {42, 0}, seen = 0;
  CHECK(hsa_amd_signal_wait_any(2, two, conds, vals, 5000000, HSA_WAIT_STATE_BLOCKED, &seen) == UINT32_MAX);
  pthread_t t;
  pthread_create(&t, NULL, store_in_memory, NULL);
  CHECK(hsa_amd_signal_wait_any(2, two, conds, vals, UINT64_MAX, HSA_WAIT_STATE_BLOCKED, &seen) == 0);
  CHECK(seen == 42);
  pthread_join(t, NULL);

  /* Groups. */
  hsa_agent_t none_agent = {0};
  hsa_signal_group_t g;
  CHECK(hsa_signal_group_create(2, two, 1, &none_agent, &g) == HSA_STATUS_SUCCESS);
  CHECK(hsa_signal_group_create(0, two, 1, &none_agent, &g) == HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_signal_store_screlease(b, -1);
  hsa_signal_t which;
  CHECK(hsa_signal_group_wait_any_scacquire(g, conds, (hsa_signal_value_t[]){0, 0}, HSA_WAIT_STATE_ACTIVE, &which, &seen) == HSA_STATUS_SUCCESS);
  CHECK(which.handle == b.handle && seen == -1);
  CHECK(hsa_signal_group_destroy(g) == HSA_STATUS_SUCCESS);
  CHECK(hsa_signal_group_destroy(g) == HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP);

  CHECK(hsa_shut_down() == HSA_STATUS_SUCCESS);
  CHECK(hsa_signal_load_relaxed(b) == 0); /* after shut-down: no crash, 0 */
  printf("async_and_groups: ok\n");
  return 0;
}
