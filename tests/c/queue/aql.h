/* Helpers shared by the queue tests: find the GPU agent, write AQL packets as HIP does. */
#ifndef SOFTHSA_TEST_AQL_H
#define SOFTHSA_TEST_AQL_H
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

static hsa_status_t aql_find_gpu_cb(hsa_agent_t a, void *out) {
  hsa_device_type_t t;
  CHECK(hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t) == HSA_STATUS_SUCCESS);
  if (t == HSA_DEVICE_TYPE_GPU) { *(hsa_agent_t *)out = a; return HSA_STATUS_INFO_BREAK; }
  return HSA_STATUS_SUCCESS;
}

static inline hsa_agent_t aql_gpu(void) {
  hsa_agent_t gpu = {0};
  hsa_iterate_agents(aql_find_gpu_cb, &gpu);
  CHECK(gpu.handle != 0);
  return gpu;
}

static inline uint16_t aql_header(uint16_t type) {
  return type | 1 << HSA_PACKET_HEADER_BARRIER |
         HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
         HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
}

/* Reserves a slot (waiting for space), returns it zeroed except for its header word. */
static inline void *aql_reserve(hsa_queue_t *q, uint64_t *index) {
  uint64_t idx = hsa_queue_add_write_index_screlease(q, 1);
  while (idx - hsa_queue_load_read_index_scacquire(q) >= q->size) {
  }
  char *p = (char *)q->base_address + (idx % q->size) * 64;
  memset(p + 4, 0, 60);
  *index = idx;
  return p;
}

/* Publishes the 32-bit header+setup word with release semantics, then rings the doorbell. */
static inline void aql_publish(hsa_queue_t *q, void *slot, uint64_t idx, uint16_t header, uint16_t setup) {
  __atomic_store_n((uint32_t *)slot, header | (uint32_t)setup << 16, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, idx);
}

static inline void aql_barrier(hsa_queue_t *q, uint16_t type, hsa_signal_t d0, hsa_signal_t d1, hsa_signal_t done) {
  uint64_t idx;
  hsa_barrier_and_packet_t *p = aql_reserve(q, &idx);
  p->dep_signal[0] = d0;
  p->dep_signal[1] = d1;
  p->completion_signal = done;
  aql_publish(q, p, idx, aql_header(type), 0);
}

static inline hsa_signal_value_t aql_wait_eq(hsa_signal_t s, hsa_signal_value_t v, uint64_t timeout_ns) {
  return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, v, timeout_ns, HSA_WAIT_STATE_BLOCKED);
}
#endif
