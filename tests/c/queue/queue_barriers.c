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

static hsa_status_t first_region(hsa_region_t r, void *out) {
  *(hsa_region_t *)out = r;
  return HSA_STATUS_INFO_BREAK;
}

/* Soft queues: the runtime allocates ring and indexes but processes nothing. */
static void soft_queue(hsa_agent_t gpu) {
  hsa_region_t region = {0};
  hsa_agent_iterate_regions(gpu, first_region, &region);
  CHECK(region.handle != 0);
  hsa_signal_t db, done, none = {0};
  CHECK(hsa_signal_create(0, 0, NULL, &db) == 0 && hsa_signal_create(1, 0, NULL, &done) == 0);
  hsa_queue_t *soft;
  CHECK(hsa_soft_queue_create(region, 16, HSA_QUEUE_TYPE_SINGLE, HSA_QUEUE_FEATURE_AGENT_DISPATCH, db, &soft) == HSA_STATUS_SUCCESS);
  CHECK(soft->size == 16 && soft->doorbell_signal.handle == db.handle);
  CHECK(soft->features == HSA_QUEUE_FEATURE_AGENT_DISPATCH && soft->type == HSA_QUEUE_TYPE_SINGLE);
  CHECK((((hsa_barrier_and_packet_t *)soft->base_address)[15].header & 0xff) == HSA_PACKET_TYPE_INVALID);
  aql_barrier(soft, HSA_PACKET_TYPE_BARRIER_AND, none, none, done);
  CHECK(aql_wait_eq(done, 0, 20000000) == 1); /* nobody consumes it */
  CHECK(hsa_queue_load_read_index_relaxed(soft) == 0 && hsa_queue_load_write_index_relaxed(soft) == 1);
  hsa_queue_store_read_index_screlease(soft, 1); /* the program is the packet processor */
  CHECK(hsa_queue_load_read_index_scacquire(soft) == 1);
  CHECK(hsa_queue_cas_write_index_acq_rel(soft, 1, 5) == 1 && hsa_queue_load_write_index_relaxed(soft) == 5);
  CHECK(hsa_queue_cas_write_index_relaxed(soft, 1, 9) == 5);
  hsa_queue_t *bad;
  CHECK(hsa_soft_queue_create(region, 16, HSA_QUEUE_TYPE_SINGLE, 0, none, &bad) == HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK(hsa_soft_queue_create(region, 12, HSA_QUEUE_TYPE_SINGLE, 0, db, &bad) == HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK(hsa_queue_destroy(soft) == HSA_STATUS_SUCCESS);
  CHECK(hsa_signal_destroy(db) == HSA_STATUS_SUCCESS); /* the program's doorbell outlives it */
}

/* CU masks and priorities are accepted (work-groups use every worker regardless). */
static void queue_controls(hsa_queue_t *q) {
  uint32_t mask[2] = {0, 0};
  CHECK(hsa_amd_queue_cu_get_mask(q, 64, mask) == HSA_STATUS_SUCCESS);
  uint32_t cus = 0;
  for (int i = 0; i < 2; i++) cus += __builtin_popcount(mask[i]);
  hsa_agent_t gpu = aql_gpu();
  uint32_t expect = 0;
  CHECK(hsa_agent_get_info(gpu, HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &expect) == HSA_STATUS_SUCCESS);
  CHECK(cus == (expect < 64 ? expect : 64)); /* all CUs enabled by default */
  uint32_t set[2] = {0xf0f0f0f0u, 0x1};
  CHECK(hsa_amd_queue_cu_set_mask(q, 64, set) == HSA_STATUS_SUCCESS);
  CHECK(hsa_amd_queue_cu_get_mask(q, 64, mask) == HSA_STATUS_SUCCESS);
  CHECK(mask[0] == set[0] && mask[1] == set[1]);
  CHECK(hsa_amd_queue_cu_set_mask(q, 40, set) == HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK(hsa_amd_queue_set_priority(q, HSA_AMD_QUEUE_PRIORITY_HIGH) == HSA_STATUS_SUCCESS);
  CHECK(hsa_amd_queue_set_priority(q, 7) == HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK(hsa_amd_queue_set_priority((hsa_queue_t *)mask, HSA_AMD_QUEUE_PRIORITY_LOW) == HSA_STATUS_ERROR_INVALID_QUEUE);
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

  queue_controls(q2);
  soft_queue(gpu);
  CHECK(hsa_queue_inactivate(q2) == HSA_STATUS_SUCCESS);
  CHECK(hsa_queue_destroy(q1) == HSA_STATUS_SUCCESS && hsa_queue_destroy(q2) == HSA_STATUS_SUCCESS);
  CHECK(hsa_queue_destroy(q1) == HSA_STATUS_ERROR_INVALID_QUEUE);
  CHECK(hsa_shut_down() == HSA_STATUS_SUCCESS);
  printf("queue_barriers: ok\n");
  return 0;
}
