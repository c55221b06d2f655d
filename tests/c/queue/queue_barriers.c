/* Barrier-AND/OR chain across two queues on the GPU agent, then an invalid packet that puts one
 * queue in the error state (error callback) while the other keeps processing; queue creation
 * arguments. Exit 0 = pass. */
#include "aql.h"

static volatile hsa_status_t seen_status;
static hsa_queue_t *volatile seen_queue;
static void on_error(hsa_status_t s, hsa_queue_t *q, void *data) {
  CHECK(data == (void *)0x1234);
  seen_status = s;
  __atomic_store_n(&seen_queue, q, __ATOMIC_RELEASE);
}

int main(void) {
  CHECK(hsa_init() == HSA_STATUS_SUCCESS);
  hsa_agent_t gpu = aql_gpu();
  hsa_queue_t *q1, *q2, *bad;
  CHECK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, on_error, (void *)0x1234, UINT32_MAX, UINT32_MAX, &q1) == HSA_STATUS_SUCCESS);
  CHECK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX, UINT32_MAX, &q2) == HSA_STATUS_SUCCESS);
  CHECK(hsa_queue_create(gpu, 100, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &bad) == HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK(hsa_queue_create(gpu, 0, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &bad) == HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK(hsa_queue_create(gpu, 64, 7, NULL, NULL, 0, 0, &bad) == HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, NULL) == HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_agent_t forged = {gpu.handle ^ 0x5a5a0000};
  CHECK(hsa_queue_create(forged, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &bad) == HSA_STATUS_ERROR_INVALID_AGENT);
  CHECK(q1->size == 64 && q1->doorbell_signal.handle != 0 && q1->base_address != NULL && q1->id != q2->id);
  CHECK(q2->type == HSA_QUEUE_TYPE_SINGLE && (q1->features & HSA_QUEUE_FEATURE_KERNEL_DISPATCH));

  hsa_signal_t gate, mid, done, never, none = {0};
  CHECK(hsa_signal_create(1, 0, NULL, &gate) == 0 && hsa_signal_create(1, 0, NULL, &mid) == 0);
  CHECK(hsa_signal_create(1, 0, NULL, &done) == 0 && hsa_signal_create(1, 0, NULL, &never) == 0);
  aql_barrier(q1, HSA_PACKET_TYPE_BARRIER_AND, gate, none, mid);  /* q1: AND(gate) -> mid */
  aql_barrier(q2, HSA_PACKET_TYPE_BARRIER_OR, never, mid, done);  /* q2: OR(never, mid) -> done */
  CHECK(aql_wait_eq(done, 0, 20000000) == 1);                     /* blocked by the gate */
  CHECK(hsa_queue_load_read_index_scacquire(q1) == 0);
  hsa_signal_store_screlease(gate, 0);
  CHECK(aql_wait_eq(done, 0, UINT64_MAX) == 0);
  CHECK(hsa_queue_load_read_index_scacquire(q1) == 1 && hsa_queue_load_read_index_scacquire(q2) == 1);
  CHECK((((hsa_barrier_and_packet_t *)q1->base_address)->header & 0xff) == HSA_PACKET_TYPE_INVALID);

  /* An unknown packet type on q1: error callback with INVALID_PACKET_FORMAT; q2 keeps working. */
  uint64_t idx;
  void *slot = aql_reserve(q1, &idx);
  aql_publish(q1, slot, idx, aql_header(42), 0);
  for (int i = 0; i < 5000 && __atomic_load_n(&seen_queue, __ATOMIC_ACQUIRE) == NULL; i++)
    aql_wait_eq(never, 0, 1000000);
  CHECK(seen_queue == q1 && seen_status == HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  CHECK(hsa_queue_load_read_index_scacquire(q1) == idx); /* the bad packet stays for inspection */
  hsa_signal_store_relaxed(done, 1);
  aql_barrier(q2, HSA_PACKET_TYPE_BARRIER_AND, none, none, done);
  CHECK(aql_wait_eq(done, 0, UINT64_MAX) == 0);

  CHECK(hsa_queue_inactivate(q2) == HSA_STATUS_SUCCESS);
  CHECK(hsa_queue_destroy(q1) == HSA_STATUS_SUCCESS && hsa_queue_destroy(q2) == HSA_STATUS_SUCCESS);
  CHECK(hsa_queue_destroy(q1) == HSA_STATUS_ERROR_INVALID_QUEUE);
  CHECK(hsa_shut_down() == HSA_STATUS_SUCCESS);
  printf("queue_barriers: ok\n");
  return 0;
}
