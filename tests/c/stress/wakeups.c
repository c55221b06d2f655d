/* Stress: 10^6 signal operations (waits and stores) across threads without a lost wake-up.
 * Pairs of threads play ping-pong on two signals: A stores ping = i and waits for pong == i,
 * B waits for ping == i and stores pong = i. Waits alternate between the BLOCKED and ACTIVE
 * hints and carry a 10 s timeout: a lost wake-up that is never repaired shows as a timeout; one
 * repaired only by a periodic re-check shows in the total time (each would cost a sleep period).
 * A third pattern: many waiters on one signal, one store releases all of them. */
#include "check.h"
#include "kernels.h"

#include <pthread.h>

enum { PAIRS = 2, ROUNDS = 125000, FANOUT = 8, FAN_ROUNDS = 2000 };
static const uint64_t TIMEOUT = 10000000000ull;
static int timeouts;

struct pair { hsa_signal_t ping, pong; };

static int wait_eq(hsa_signal_t s, hsa_signal_value_t v, int i) {
  hsa_wait_state_t hint = (i & 1) ? HSA_WAIT_STATE_ACTIVE : HSA_WAIT_STATE_BLOCKED;
  return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, v, TIMEOUT, hint) == v;
}

static void *ping(void *arg) {
  struct pair *p = arg;
  for (int i = 1; i <= ROUNDS; i++) {
    hsa_signal_store_screlease(p->ping, i);
    if (!wait_eq(p->pong, i, i)) __atomic_add_fetch(&timeouts, 1, __ATOMIC_SEQ_CST);
  }
  return NULL;
}

static void *pong(void *arg) {
  struct pair *p = arg;
  for (int i = 1; i <= ROUNDS; i++) {
    if (!wait_eq(p->ping, i, i)) __atomic_add_fetch(&timeouts, 1, __ATOMIC_SEQ_CST);
    hsa_signal_store_screlease(p->pong, i);
  }
  return NULL;
}

static hsa_signal_t gate, arrived;

static void *fan_waiter(void *arg) {
  (void)arg;
  for (int i = 1; i <= FAN_ROUNDS; i++) {
    if (!wait_eq(gate, i, 0)) __atomic_add_fetch(&timeouts, 1, __ATOMIC_SEQ_CST);
    hsa_signal_add_screlease(arrived, 1);
  }
  return NULL;
}

int main(void) {
  CHECK_OK(hsa_init());
  struct pair pairs[PAIRS];
  pthread_t t[2 * PAIRS + FANOUT];
  for (int i = 0; i < PAIRS; i++) {
    CHECK_OK(hsa_signal_create(0, 0, NULL, &pairs[i].ping));
    CHECK_OK(hsa_signal_create(0, 0, NULL, &pairs[i].pong));
  }
  uint64_t t0 = now_ns();
  for (int i = 0; i < PAIRS; i++) {
    pthread_create(&t[2 * i], NULL, ping, &pairs[i]);
    pthread_create(&t[2 * i + 1], NULL, pong, &pairs[i]);
  }
  for (int i = 0; i < 2 * PAIRS; i++) pthread_join(t[i], NULL);
  double s = (now_ns() - t0) / 1e9;
  long ops = 4L * PAIRS * ROUNDS;
  printf("%ld signal waits and stores in %.2f s (%.1f us per round trip), %d timeouts\n", ops, s,
         s * 1e6 / ROUNDS, timeouts);
  CHECK(timeouts == 0);
  /* A round trip costs two wake-ups; losing them to 1 ms re-checks would take > 250 s. */
  CHECK(s < 120);

  /* One store releases FANOUT waiters, FAN_ROUNDS times. */
  CHECK_OK(hsa_signal_create(0, 0, NULL, &gate));
  CHECK_OK(hsa_signal_create(0, 0, NULL, &arrived));
  for (int i = 0; i < FANOUT; i++) pthread_create(&t[i], NULL, fan_waiter, NULL);
  t0 = now_ns();
  for (int i = 1; i <= FAN_ROUNDS; i++) {
    hsa_signal_store_screlease(gate, i);
    if (hsa_signal_wait_scacquire(arrived, HSA_SIGNAL_CONDITION_EQ, (hsa_signal_value_t)i * FANOUT,
                                  TIMEOUT, HSA_WAIT_STATE_BLOCKED) != (hsa_signal_value_t)i * FANOUT)
      timeouts++;
  }
  for (int i = 0; i < FANOUT; i++) pthread_join(t[i], NULL);
  printf("%d releases of %d waiters in %.2f s, %d timeouts\n", FAN_ROUNDS, FANOUT,
         (now_ns() - t0) / 1e9, timeouts);
  CHECK(timeouts == 0);
  for (int i = 0; i < PAIRS; i++) {
    CHECK_OK(hsa_signal_destroy(pairs[i].ping));
    CHECK_OK(hsa_signal_destroy(pairs[i].pong));
  }
  CHECK_OK(hsa_signal_destroy(gate));
  CHECK_OK(hsa_signal_destroy(arrived));
  CHECK_OK(hsa_shut_down());
  TEST_DONE();
}
