/* Signals from 8 threads: a token passed around a ring through one signal, 100,000 hand-offs
 * with blocking waits (a lost wake-up hangs and fails by timeout), every wait condition and a
 * timed-out wait, and a sleeping waiter that burns no CPU. Exit 0 = pass. */
#include <hsa/hsa.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define THREADS 8
#define HANDOFFS 100000
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

static hsa_signal_t token;

static void *ring_worker(void *arg) {
  long me = (long)arg;
  for (long v = me; v < HANDOFFS; v += THREADS) {
    hsa_signal_value_t got = hsa_signal_wait_scacquire(token, HSA_SIGNAL_CONDITION_EQ, v, UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
    CHECK(got == v);
    hsa_signal_store_screlease(token, v + 1);
  }
  return NULL;
}

static double thread_cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static hsa_signal_t sleeper_sig;
static double sleeper_cpu;
static void *sleeper(void *arg) {
  (void)arg;
  double c0 = thread_cpu_seconds();
  CHECK(hsa_signal_wait_scacquire(sleeper_sig, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, HSA_WAIT_STATE_BLOCKED) == 0);
  sleeper_cpu = thread_cpu_seconds() - c0;
  return NULL;
}

int main(void) {
  CHECK(hsa_init() == HSA_STATUS_SUCCESS);
  CHECK(hsa_signal_create(0, 0, NULL, &token) == HSA_STATUS_SUCCESS);
  pthread_t t[THREADS];
  for (long i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, ring_worker, (void *)i);
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  CHECK(hsa_signal_load_relaxed(token) == HANDOFFS);

  /* Every condition, with an expired timeout returning the observed value. */
  hsa_signal_store_relaxed(token, 5);
  CHECK(hsa_signal_wait_relaxed(token, HSA_SIGNAL_CONDITION_EQ, 5, 0, HSA_WAIT_STATE_ACTIVE) == 5);
  CHECK(hsa_signal_wait_relaxed(token, HSA_SIGNAL_CONDITION_NE, 4, 0, HSA_WAIT_STATE_ACTIVE) == 5);
  CHECK(hsa_signal_wait_relaxed(token, HSA_SIGNAL_CONDITION_LT, 6, 0, HSA_WAIT_STATE_ACTIVE) == 5);
  CHECK(hsa_signal_wait_relaxed(token, HSA_SIGNAL_CONDITION_GTE, 5, 0, HSA_WAIT_STATE_ACTIVE) == 5);
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  CHECK(hsa_signal_wait_acquire(token, HSA_SIGNAL_CONDITION_EQ, 0, 20000000, HSA_WAIT_STATE_BLOCKED) == 5);
  clock_gettime(CLOCK_MONOTONIC, &b);
  double waited = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9;
  CHECK(waited >= 0.019 && waited < 2.0);
  hsa_signal_add_acq_rel(token, 0);
  CHECK(hsa_signal_exchange_relaxed(token, 7) == 5);
  CHECK(hsa_signal_cas_scacq_screl(token, 7, 8) == 7);
  hsa_signal_subtract_relaxed(token, 10);
  CHECK(hsa_signal_load_scacquire(token) == -2);

  /* A waiter sleeping 300 ms uses well under 10% of a core. */
  CHECK(hsa_signal_create(1, 0, NULL, &sleeper_sig) == HSA_STATUS_SUCCESS);
  pthread_t s;
  pthread_create(&s, NULL, sleeper, NULL);
  usleep(300000);
  hsa_signal_store_screlease(sleeper_sig, 0);
  pthread_join(s, NULL);
  CHECK(sleeper_cpu < 0.03);

  /* Destroyed handles are invalid. */
  CHECK(hsa_signal_destroy(sleeper_sig) == HSA_STATUS_SUCCESS);
  CHECK(hsa_signal_destroy(sleeper_sig) == HSA_STATUS_ERROR_INVALID_SIGNAL);
  CHECK(hsa_signal_destroy(token) == HSA_STATUS_SUCCESS);
  CHECK(hsa_shut_down() == HSA_STATUS_SUCCESS);
  printf("signal_threads: ok (sleeper used %.4f s CPU)\n", sleeper_cpu);
  return 0;
}
