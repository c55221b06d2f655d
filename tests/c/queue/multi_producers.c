/* A MULTI queue of 64 slots fed by 4 threads at once: each submits 5,000 barrier-AND packets
 * (reserving slots with add_write_index, waiting for space, publishing headers with release),
 * every packet decrementing one shared completion signal; every 100th packet of a thread
 * depends on a per-thread signal the thread opens just after submitting it. Exit 0 = pass. */
#include "aql.h"
#include <pthread.h>

#define PRODUCERS 4
#define PER_THREAD 5000

static hsa_queue_t *q;
static hsa_signal_t counter;

static void *producer(void *arg) {
  (void)arg;
  hsa_signal_t gate, none = {0};
  CHECK(hsa_signal_create(1, 0, NULL, &gate) == HSA_STATUS_SUCCESS);
  for (int i = 0; i < PER_THREAD; i++) {
    if (i % 100 == 0) {
      hsa_signal_store_relaxed(gate, 1);
      aql_barrier(q, HSA_PACKET_TYPE_BARRIER_AND, gate, none, counter);
      hsa_signal_store_screlease(gate, 0);
    } else {
      aql_barrier(q, HSA_PACKET_TYPE_BARRIER_AND, none, none, counter);
    }
  }
  /* The last gated packet must have completed before the gate may be destroyed. */
  while (hsa_queue_load_read_index_scacquire(q) < hsa_queue_load_write_index_scacquire(q)) {
    aql_wait_eq(counter, 0, 1000000);
  }
  CHECK(hsa_signal_destroy(gate) == HSA_STATUS_SUCCESS);
  return NULL;
}

int main(void) {
  CHECK(hsa_init() == HSA_STATUS_SUCCESS);
  CHECK(hsa_queue_create(aql_gpu(), 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q) == HSA_STATUS_SUCCESS);
  CHECK(hsa_signal_create(PRODUCERS * PER_THREAD, 0, NULL, &counter) == HSA_STATUS_SUCCESS);
  pthread_t t[PRODUCERS];
  for (int i = 0; i < PRODUCERS; i++) pthread_create(&t[i], NULL, producer, NULL);
  CHECK(aql_wait_eq(counter, 0, 60ull * 1000000000) == 0);
  for (int i = 0; i < PRODUCERS; i++) pthread_join(t[i], NULL);
  CHECK(hsa_queue_load_read_index_relaxed(q) == PRODUCERS * PER_THREAD);
  CHECK(hsa_queue_load_write_index_relaxed(q) == PRODUCERS * PER_THREAD);
  CHECK(hsa_queue_destroy(q) == HSA_STATUS_SUCCESS);
  CHECK(hsa_shut_down() == HSA_STATUS_SUCCESS);
  printf("multi_producers: ok\n");
  return 0;
}
