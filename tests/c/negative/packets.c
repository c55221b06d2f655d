/* Negative packet tests in the spirit of rocrtst's Queue_Validation: each malformed packet on a
 * fresh queue calls the queue's error callback with the status ROCm 5.2 reports for it (its
 * packet processor's error bits, mapped in amd_aql_queue.cpp: invalid dimensions
 * INCOMPATIBLE_ARGUMENTS, group memory INVALID_ALLOCATION, code INVALID_CODE_OBJECT, packet type
 * or format INVALID_PACKET_FORMAT, work-group size INVALID_ARGUMENT, scratch exhaustion
 * OUT_OF_RESOURCES; wave faults MEMORY_FAULT), leaves the completion signal untouched and the
 * packet in the ring, and loses nothing: a queue created before keeps working, and so do a
 * signal and an allocation made before. */
#include "check.h"
#include "kernels.h"

static rig_t rig;
static hsa_queue_t *healthy;
static hsa_signal_t bystander;
static uint32_t *kept;

typedef void (*mutate_fn)(hsa_kernel_dispatch_packet_t *p, void *args);

/* Submits one packet (a valid `scale` dispatch changed by `mutate`) on a new queue and checks
 * the error callback's status. */
static void expect_error(const char *what, mutate_fn mutate, hsa_status_t want) {
  struct queue_errors errors = {0};
  hsa_queue_t *q = rig_queue(&rig, 64, &errors);
  uint32_t *buf = rig_alloc(&rig, 4096);
  struct { void *out, *in; uint32_t n; } *args = rig_alloc(&rig, 64);
  args->out = buf;
  args->in = buf + 512;
  args->n = 64;
  hsa_signal_t done = rig_signal(1);
  hsa_kernel_dispatch_packet_t p = rig_packet(&rig.scale, 64, 64, args, done);
  mutate(&p, args);
  uint64_t idx = rig_submit(q, &p);
  int fired = rig_wait_error(&errors, 0, 10000);
  if (!fired || errors.last != want || errors.queue != q) {
    check_failures++;
    fprintf(stderr, "%s: callback %s, status %#x (%s), want %#x (%s)\n", what,
            fired ? "fired" : "did not fire", (unsigned)errors.last, status_text(errors.last),
            (unsigned)want, status_text(want));
  }
  check_count++;
  /* Give a wrong completion a chance to show, then: signal untouched, packet still in the ring
   * (read index not past it), one callback only. */
  usleep(20000);
  CHECK(hsa_signal_load_scacquire(done) == 1);
  CHECK(hsa_queue_load_read_index_scacquire(q) == idx);
  CHECK(errors.count == 1);
  CHECK_OK(hsa_queue_destroy(q));
  CHECK_OK(hsa_signal_destroy(done));
  rig_free(args);
  rig_free(buf);
  /* Nothing lost. */
  CHECK(rig_scale_works(&rig, healthy, 200));
  CHECK(hsa_signal_load_relaxed(bystander) == 42);
  CHECK(kept[0] == 0xc0ffee && kept[1023] == 0xbeef);
}

static void dims0(hsa_kernel_dispatch_packet_t *p, void *a) { (void)a; p->setup = 0; }
static void dims4(hsa_kernel_dispatch_packet_t *p, void *a) { (void)a; p->setup = 4; }
static void group_huge(hsa_kernel_dispatch_packet_t *p, void *a) { (void)a; p->group_segment_size = UINT32_MAX; }
static void group_65k(hsa_kernel_dispatch_packet_t *p, void *a) { (void)a; p->group_segment_size = 65537; }
static void private_huge(hsa_kernel_dispatch_packet_t *p, void *a) { (void)a; p->private_segment_size = UINT32_MAX; }
static void code_null(hsa_kernel_dispatch_packet_t *p, void *a) { (void)a; p->kernel_object = 0; }
static void code_forged(hsa_kernel_dispatch_packet_t *p, void *a) { (void)a; p->kernel_object = 0xdead0000beefull; }
static void code_inside(hsa_kernel_dispatch_packet_t *p, void *a) { (void)a; p->kernel_object += 4; }
static void code_data(hsa_kernel_dispatch_packet_t *p, void *a) { p->kernel_object = (uint64_t)(uintptr_t)a; }
static void type_ff(hsa_kernel_dispatch_packet_t *p, void *a) { (void)a; p->header |= 0xff; }
static void type_7(hsa_kernel_dispatch_packet_t *p, void *a) { (void)a; p->header = (uint16_t)((p->header & ~0xff) | 7); }
static void vendor(hsa_kernel_dispatch_packet_t *p, void *a) {
  (void)a;
  p->header = (uint16_t)(p->header & ~0xff); /* VENDOR_SPECIFIC with an unknown AMD format */
  p->setup = 0x77;
}
static void scope3(hsa_kernel_dispatch_packet_t *p, void *a) {
  (void)a;
  p->header |= 3 << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE; /* reserved fence scope */
}
static void wg_x(hsa_kernel_dispatch_packet_t *p, void *a) { (void)a; p->setup = 1; p->workgroup_size_x = 0xffff; }
static void wg_y(hsa_kernel_dispatch_packet_t *p, void *a) { (void)a; p->setup = 2; p->workgroup_size_y = 0xffff; }
static void wg_z(hsa_kernel_dispatch_packet_t *p, void *a) { (void)a; p->setup = 3; p->workgroup_size_z = 0xffff; }
static void wg_0(hsa_kernel_dispatch_packet_t *p, void *a) { (void)a; p->workgroup_size_x = 0; }
static void wg_wrap(hsa_kernel_dispatch_packet_t *p, void *a) {
  /* 32768 x 32768 x 4 = 2^32 work-items: a 32-bit product wraps to 0. */
  (void)a;
  p->setup = 3;
  p->workgroup_size_x = 32768;
  p->workgroup_size_y = 32768;
  p->workgroup_size_z = 4;
}
static void wg_1025(hsa_kernel_dispatch_packet_t *p, void *a) { (void)a; p->workgroup_size_x = 1025; }
static void grid_0(hsa_kernel_dispatch_packet_t *p, void *a) { (void)a; p->grid_size_x = 0; }
static void kernarg_null(hsa_kernel_dispatch_packet_t *p, void *a) { (void)a; p->kernarg_address = NULL; }
static void kernarg_wild(hsa_kernel_dispatch_packet_t *p, void *a) { (void)a; p->kernarg_address = (void *)0x1000; }
static void kernarg_end(hsa_kernel_dispatch_packet_t *p, void *a) {
  p->kernarg_address = (char *)a + 4096 - 8; /* the arguments run into the page after */
}
static void arg_wild(hsa_kernel_dispatch_packet_t *p, void *a) {
  (void)p;
  ((void **)a)[0] = (void *)0x10; /* out = a wild pointer */
}

static void agent_dispatch_unknown(void) {
  struct queue_errors errors = {0};
  hsa_queue_t *q = rig_queue(&rig, 64, &errors);
  hsa_signal_t done = rig_signal(1);
  hsa_agent_dispatch_packet_t p;
  memset(&p, 0, sizeof p);
  p.header = rig_header(HSA_PACKET_TYPE_AGENT_DISPATCH);
  p.type = 0x1234;
  p.completion_signal = done;
  rig_submit(q, &p);
  CHECK(rig_wait_error(&errors, 0, 10000));
  CHECK(errors.last == HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  CHECK(hsa_signal_load_scacquire(done) == 1);
  CHECK_OK(hsa_queue_destroy(q));
  CHECK_OK(hsa_signal_destroy(done));
}

/* A barrier whose dependency is not a signal: INVALID_SIGNAL through the callback. */
static void barrier_forged_dep(uint16_t type) {
  struct queue_errors errors = {0};
  hsa_queue_t *q = rig_queue(&rig, 64, &errors);
  hsa_barrier_and_packet_t p;
  memset(&p, 0, sizeof p);
  p.header = rig_header(type);
  p.dep_signal[2].handle = 0x7777000;
  rig_submit(q, &p);
  CHECK(rig_wait_error(&errors, 0, 10000));
  CHECK(errors.last == HSA_STATUS_ERROR_INVALID_SIGNAL);
  CHECK_OK(hsa_queue_destroy(q));
}

int main(void) {
  CHECK_OK(hsa_init());
  rig_open(&rig);
  healthy = rig_queue(&rig, 64, NULL);
  bystander = rig_signal(42);
  kept = rig_alloc(&rig, 4096);
  kept[0] = 0xc0ffee;
  kept[1023] = 0xbeef;

  expect_error("setup = 0", dims0, HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
  expect_error("setup = 4", dims4, HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
  expect_error("group segment 4 GiB", group_huge, HSA_STATUS_ERROR_INVALID_ALLOCATION);
  expect_error("group segment 64 KiB + 1", group_65k, HSA_STATUS_ERROR_INVALID_ALLOCATION);
  expect_error("private segment 4 GiB", private_huge, HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  expect_error("kernel object 0", code_null, HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  expect_error("kernel object forged", code_forged, HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  expect_error("kernel object + 4", code_inside, HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  expect_error("kernel object = data", code_data, HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  expect_error("packet type 0xff", type_ff, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  expect_error("packet type 7", type_7, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  expect_error("unknown vendor format", vendor, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  expect_error("reserved fence scope", scope3, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  expect_error("work-group x 0xffff", wg_x, HSA_STATUS_ERROR_INVALID_ARGUMENT);
  expect_error("work-group y 0xffff", wg_y, HSA_STATUS_ERROR_INVALID_ARGUMENT);
  expect_error("work-group z 0xffff", wg_z, HSA_STATUS_ERROR_INVALID_ARGUMENT);
  expect_error("work-group x 0", wg_0, HSA_STATUS_ERROR_INVALID_ARGUMENT);
  expect_error("work-group 2^32 items", wg_wrap, HSA_STATUS_ERROR_INVALID_ARGUMENT);
  expect_error("work-group 1025 items", wg_1025, HSA_STATUS_ERROR_INVALID_ARGUMENT);
  expect_error("grid x 0", grid_0, HSA_STATUS_ERROR_INVALID_ARGUMENT);
  expect_error("kernarg NULL", kernarg_null, HSA_STATUS_ERROR_MEMORY_FAULT);
  expect_error("kernarg wild", kernarg_wild, HSA_STATUS_ERROR_MEMORY_FAULT);
  expect_error("kernarg past its allocation", kernarg_end, HSA_STATUS_ERROR_MEMORY_FAULT);
  expect_error("argument pointer wild", arg_wild, HSA_STATUS_ERROR_MEMORY_FAULT);
  agent_dispatch_unknown();
  barrier_forged_dep(HSA_PACKET_TYPE_BARRIER_AND);
  barrier_forged_dep(HSA_PACKET_TYPE_BARRIER_OR);

  CHECK(rig_scale_works(&rig, healthy, 1000));
  CHECK_OK(hsa_queue_destroy(healthy));
  CHECK_OK(hsa_signal_destroy(bystander));
  rig_free(kept);
  rig_close(&rig);
  CHECK_OK(hsa_shut_down());
  TEST_DONE();
}
