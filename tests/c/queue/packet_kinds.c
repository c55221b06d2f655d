/* AMD BARRIER_VALUE packets (mask and every condition), AGENT_DISPATCH through softhsa's
 * CALL_FUNCTION protocol (type 0x8000: arg[0] is a host function, called with arg[1..3] and the
 * return address), and profiling timestamps of consecutive packets (ordered, in system ticks).
 * Exit 0 = pass. */
#include "aql.h"

#define SOFTHSA_AGENT_CALL_FUNCTION 0x8000

static void barrier_value(hsa_queue_t *q, hsa_signal_t s, hsa_signal_condition_t cond,
                          int64_t value, int64_t mask, hsa_signal_t done) {
  uint64_t idx;
  hsa_amd_barrier_value_packet_t *p = aql_reserve(q, &idx);
  p->signal = s;
  p->value = value;
  p->mask = mask;
  p->cond = cond;
  p->completion_signal = done;
  aql_publish(q, p, idx, aql_header(HSA_PACKET_TYPE_VENDOR_SPECIFIC), HSA_AMD_PACKET_TYPE_BARRIER_VALUE);
}

static void host_function(uint64_t a, uint64_t b, uint64_t c, void *ret) {
  *(uint64_t *)ret = a * 100 + b * 10 + c;
}

int main(void) {
  CHECK(hsa_init() == HSA_STATUS_SUCCESS);
  hsa_agent_t gpu = aql_gpu();
  hsa_queue_t *q;
  CHECK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q) == HSA_STATUS_SUCCESS);
  hsa_signal_t s, done;
  CHECK(hsa_signal_create(0x1f0, 0, NULL, &s) == 0 && hsa_signal_create(1, 0, NULL, &done) == 0);

  /* (value & 0x0f) == 3: not yet (0x1f0 & 0xf = 0); a store of 0x23 satisfies it. */
  barrier_value(q, s, HSA_SIGNAL_CONDITION_EQ, 3, 0x0f, done);
  CHECK(aql_wait_eq(done, 0, 20000000) == 1);
  hsa_signal_store_screlease(s, 0x23);
  CHECK(aql_wait_eq(done, 0, UINT64_MAX) == 0);
  const struct { hsa_signal_condition_t c; int64_t v; } conds[] = {
      {HSA_SIGNAL_CONDITION_NE, 2}, {HSA_SIGNAL_CONDITION_LT, 4}, {HSA_SIGNAL_CONDITION_GTE, 3}};
  for (int i = 0; i < 3; i++) {
    hsa_signal_store_relaxed(done, 1);
    barrier_value(q, s, conds[i].c, conds[i].v, 0x0f, done);
    CHECK(aql_wait_eq(done, 0, 5000000000ull) == 0);
  }

  /* Agent dispatch: the packet processor calls host_function(1, 2, 3, &out). */
  uint64_t out = 0, idx;
  hsa_signal_store_relaxed(done, 1);
  hsa_agent_dispatch_packet_t *a = aql_reserve(q, &idx);
  a->arg[0] = (uint64_t)(uintptr_t)host_function;
  a->arg[1] = 1; a->arg[2] = 2; a->arg[3] = 3;
  a->return_address = &out;
  a->completion_signal = done;
  aql_publish(q, a, idx, aql_header(HSA_PACKET_TYPE_AGENT_DISPATCH), SOFTHSA_AGENT_CALL_FUNCTION);
  CHECK(aql_wait_eq(done, 0, 5000000000ull) == 0);
  CHECK(out == 123);

  /* Profiling: two packets in a row; each start <= end, the second starts after the first ends. */
  CHECK(hsa_amd_profiling_set_profiler_enabled(q, 1) == HSA_STATUS_SUCCESS);
  hsa_signal_t p1, p2, gate, none = {0};
  CHECK(hsa_signal_create(1, 0, NULL, &p1) == 0 && hsa_signal_create(1, 0, NULL, &p2) == 0);
  CHECK(hsa_signal_create(1, 0, NULL, &gate) == 0);
  uint64_t before;
  CHECK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &before) == HSA_STATUS_SUCCESS);
  aql_barrier(q, HSA_PACKET_TYPE_BARRIER_AND, gate, none, p1);
  aql_barrier(q, HSA_PACKET_TYPE_BARRIER_AND, none, none, p2);
  aql_wait_eq(p1, 0, 5000000); /* let the first packet wait ~5 ms */
  hsa_signal_store_screlease(gate, 0);
  CHECK(aql_wait_eq(p2, 0, UINT64_MAX) == 0 && aql_wait_eq(p1, 0, UINT64_MAX) == 0);
  hsa_amd_profiling_dispatch_time_t t1, t2;
  CHECK(hsa_amd_profiling_get_dispatch_time(gpu, p1, &t1) == HSA_STATUS_SUCCESS);
  CHECK(hsa_amd_profiling_get_dispatch_time(gpu, p2, &t2) == HSA_STATUS_SUCCESS);
  CHECK(before <= t1.start && t1.start <= t1.end && t1.end <= t2.start && t2.start <= t2.end);
  CHECK(t1.end - t1.start >= 4000000); /* the gate held it for about 5 ms (1 GHz ticks) */
  uint64_t sys;
  CHECK(hsa_amd_profiling_convert_tick_to_system_domain(gpu, t1.end, &sys) == HSA_STATUS_SUCCESS);
  CHECK(sys == t1.end);

  CHECK(hsa_queue_destroy(q) == HSA_STATUS_SUCCESS);
  CHECK(hsa_shut_down() == HSA_STATUS_SUCCESS);
  printf("packet_kinds: ok\n");
  return 0;
}
