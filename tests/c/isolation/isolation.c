/* Isolation: a kernel reaches only memory the runtime knows. Reads and writes of unregistered
 * host memory, of freed allocations and of wild addresses are memory faults reported (on
 * stderr and through the queue's error callback) with the address, and no byte of the target
 * changes; a fault just past the end of an allocation names that allocation (base, size, offset
 * past its end). Locked and registered host memory is reachable, and no longer once unlocked.
 * Every case runs the `poke` kernel: at[0] = value, or at[1] = at[0] with `read`. */
#include "check.h"
#include "kernels.h"

#include <sys/mman.h>

static rig_t rig;
static hsa_queue_t *q;
static struct queue_errors errors;

/* Runs poke on `at` with stderr captured into `report`; returns the callback's status (0 when
 * the dispatch completed). A queue error ends the queue: a new one replaces it. */
struct poke_args { void *at; uint32_t value, read; };
/* Made once, before the cases: an allocation made between a free and the dispatch could take
 * the freed address (mmap reuses it), and the access would then be legitimately inside it. */
static struct poke_args *args;
static hsa_signal_t done;

static hsa_status_t poke(void *at, uint32_t value, int read, char *report, size_t cap) {
  args->at = at;
  args->value = value;
  args->read = (uint32_t)read;
  hsa_signal_store_screlease(done, 1);
  hsa_kernel_dispatch_packet_t p = rig_packet(&rig.poke, 1, 1, args, done);
  fflush(stderr);
  int saved = dup(2);
  FILE *tmp = tmpfile();
  dup2(fileno(tmp), 2);
  int before = errors.count;
  rig_submit(q, &p);
  hsa_status_t st = HSA_STATUS_SUCCESS;
  uint64_t end = now_ns() + 20000000000ull;
  while (now_ns() < end) {
    if (errors.count != before) { st = errors.last; break; }
    if (hsa_signal_load_scacquire(done) == 0) break;
    usleep(100);
  }
  usleep(50000); /* the report is printed by the queue's thread around the callback */
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  rewind(tmp);
  size_t n = fread(report, 1, cap - 1, tmp);
  report[n] = 0;
  fclose(tmp);
  if (st != HSA_STATUS_SUCCESS) {
    hsa_queue_destroy(q);
    q = rig_queue(&rig, 64, &errors);
  }
  return st;
}

static char report[1 << 14];

static void expect_fault(const char *what, void *at, int read, const char *words) {
  hsa_status_t st = poke(at, 0xbad, read, report, sizeof report);
  char addr[32];
  snprintf(addr, sizeof addr, "%#lx", (unsigned long)(uintptr_t)at);
  int ok = ((int)st == (int)HSA_STATUS_ERROR_MEMORY_FAULT || (int)st == (int)HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION) &&
           strstr(report, addr) && (!words || strstr(report, words));
  if (!ok)
    fprintf(stderr, "%s: status %#x, report:\n%s(want the address %s%s%s)\n", what, (unsigned)st,
            report, addr, words ? " and: " : "", words ? words : "");
  CHECK(ok);
}

int main(void) {
  CHECK_OK(hsa_init());
  rig_open(&rig);
  q = rig_queue(&rig, 64, &errors);
  args = rig_alloc(&rig, 64);
  done = rig_signal(1);

  /* Unregistered host memory: a page of our own, read and written. */
  uint32_t *host = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  for (int i = 0; i < 2048; i++) host[i] = 0x11111111u * (i & 7);
  expect_fault("write to unregistered host memory", host + 4, 0, "write");
  expect_fault("read of unregistered host memory", host + 4, 1, "read");
  int same = 1;
  for (int i = 0; i < 2048; i++) same &= host[i] == 0x11111111u * (i & 7);
  CHECK(same); /* no byte changed */

  /* Locked memory is reachable through its agent address; unlocked, it is not again. */
  void *agent_ptr = NULL;
  CHECK_OK(hsa_amd_memory_lock(host, 8192, &rig.gpu, 1, &agent_ptr));
  CHECK(poke((uint32_t *)agent_ptr + 8, 0xfeed, 0, report, sizeof report) == HSA_STATUS_SUCCESS);
  CHECK(host[8] == 0xfeed);
  CHECK_OK(hsa_amd_memory_unlock(host));
  expect_fault("write to unlocked memory", (uint32_t *)agent_ptr + 8, 0, NULL);
  CHECK(hsa_memory_register(host, 8192) == HSA_STATUS_SUCCESS);
  CHECK(poke(host + 9, 0xbeef, 0, report, sizeof report) == HSA_STATUS_SUCCESS);
  CHECK(host[9] == 0xbeef);
  CHECK_OK(hsa_memory_deregister(host, 8192));
  expect_fault("write to deregistered memory", host + 9, 0, NULL);
  CHECK(host[9] == 0xbeef);

  /* A freed allocation (freed just before: a fault re-creates the queue, whose new ring could
   * take a freed address). */
  for (int read = 0; read < 2; read++) {
    uint32_t *gone = rig_alloc(&rig, 4096);
    rig_free(gone);
    expect_fault(read ? "read of a freed allocation" : "write to a freed allocation", gone + 2, read,
                 "freed allocation");
  }

  /* Just past the end of an allocation: named, with base, size and offset. */
  uint32_t *buf = rig_alloc(&rig, 4096);
  uint32_t *next = rig_alloc(&rig, 4096);
  char want[160];
  snprintf(want, sizeof want, "0x0 bytes past the end of allocation [%#lx, +0x1000)",
           (unsigned long)(uintptr_t)buf);
  expect_fault("write just past the end", buf + 1024, 0, want);
  snprintf(want, sizeof want, "0x40 bytes past the end of allocation [%#lx, +0x1000)",
           (unsigned long)(uintptr_t)buf);
  expect_fault("read 64 bytes past the end", buf + 1024 + 16, 1, want);
  int untouched = 1;
  for (int i = 0; i < 1024; i++) untouched &= buf[i] == 0 && next[i] == 0;
  CHECK(untouched); /* neither the allocation nor its neighbour changed */
  CHECK(poke(buf + 1023, 0x77, 0, report, sizeof report) == HSA_STATUS_SUCCESS);
  CHECK(buf[1023] == 0x77); /* the last word is the allocation's */

  /* Wild addresses: unmapped user space, the null page, beyond the user address space. */
  expect_fault("write to a wild address", (void *)0x00000dead0000000ull, 0, NULL);
  expect_fault("read of the null page", (void *)0x40, 1, NULL);
  expect_fault("write beyond user space", (void *)0x0000900000000000ull, 0, NULL);

  /* Nothing lost: a dispatch on the current queue works. */
  CHECK(rig_scale_works(&rig, q, 777));
  rig_free(buf);
  rig_free(next);
  munmap(host, 8192);
  rig_free(args);
  CHECK_OK(hsa_signal_destroy(done));
  CHECK_OK(hsa_queue_destroy(q));
  rig_close(&rig);
  CHECK_OK(hsa_shut_down());
  TEST_DONE();
}
