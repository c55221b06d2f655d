/* hsa_shut_down with work in flight, and a program that exits with dispatches running.
 *  - shut down while one queue is blocked on a barrier (dispatches queued behind it) and another
 *    runs a kernel, with signals, allocations and an executable still alive: SUCCESS; every call
 *    after is NOT_INITIALIZED (never a crash on the stale handles); hsa_init again works and a
 *    dispatch computes the right results;
 *  - a child process that returns from main() while a long dispatch runs and a barrier waits
 *    (no hsa_shut_down): it exits with status 0, promptly, without a crash. */
#include "check.h"
#include "kernels.h"

#include <sys/wait.h>

static rig_t rig;

struct in_flight {
  hsa_queue_t *blocked, *busy;
  hsa_signal_t gate, done;
  uint32_t *out;
  void *args;
};

static void start_work(struct in_flight *w, uint32_t count) {
  w->blocked = rig_queue(&rig, 64, NULL);
  w->busy = rig_queue(&rig, 64, NULL);
  w->gate = rig_signal(1);
  w->done = rig_signal(1);
  hsa_barrier_and_packet_t b;
  memset(&b, 0, sizeof b);
  b.header = rig_header(HSA_PACKET_TYPE_BARRIER_AND);
  b.dep_signal[0] = w->gate;
  rig_submit(w->blocked, &b);
  w->out = rig_alloc(&rig, 64 * 64 * 4);
  struct { void *out; uint32_t count; } *args = rig_alloc(&rig, 64);
  args->out = w->out;
  args->count = count;
  w->args = args;
  hsa_kernel_dispatch_packet_t p = rig_packet(&rig.spin, 64 * 64, 64, args, w->done);
  for (int i = 0; i < 4; i++) rig_submit(w->blocked, &p);
  rig_submit(w->busy, &p);
  usleep(20000); /* the busy queue's kernel is running */
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--exit-while-running") == 0) {
    CHECK_OK(hsa_init());
    rig_open(&rig);
    struct in_flight w;
    start_work(&w, 1u << 24);
    return 0; /* exit with everything in flight */
  }

  CHECK_OK(hsa_init());
  rig_open(&rig);
  struct in_flight w;
  start_work(&w, 1u << 14);
  uint64_t t0 = now_ns();
  CHECK_OK(hsa_shut_down());
  printf("hsa_shut_down with work in flight took %.1f ms\n", (now_ns() - t0) / 1e6);

  /* Every call on the stale handles: NOT_INITIALIZED. */
  hsa_signal_t s;
  CHECK_STATUS(hsa_signal_create(0, 0, NULL, &s), HSA_STATUS_ERROR_NOT_INITIALIZED);
  CHECK_STATUS(hsa_signal_destroy(w.gate), HSA_STATUS_ERROR_NOT_INITIALIZED);
  CHECK_STATUS(hsa_queue_destroy(w.blocked), HSA_STATUS_ERROR_NOT_INITIALIZED);
  CHECK_STATUS(hsa_amd_memory_pool_free(w.out), HSA_STATUS_ERROR_NOT_INITIALIZED);
  CHECK_STATUS(hsa_executable_destroy(rig.exe), HSA_STATUS_ERROR_NOT_INITIALIZED);
  CHECK(hsa_signal_load_relaxed(w.gate) == 0); /* a value-returning call answers 0 */
  hsa_signal_store_relaxed(w.gate, 0);
  CHECK_STATUS(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);

  /* A new runtime works. */
  CHECK_OK(hsa_init());
  rig_open(&rig);
  hsa_queue_t *q = rig_queue(&rig, 64, NULL);
  CHECK(rig_scale_works(&rig, q, 500));
  CHECK_STATUS(hsa_queue_destroy(w.busy), HSA_STATUS_ERROR_INVALID_QUEUE); /* old runtime's */
  CHECK_STATUS(hsa_signal_destroy(w.done), HSA_STATUS_ERROR_INVALID_SIGNAL);
  CHECK_OK(hsa_queue_destroy(q));
  rig_close(&rig);
  CHECK_OK(hsa_shut_down());

  /* A program that exits with a long dispatch running. */
  t0 = now_ns();
  pid_t pid = fork();
  if (pid == 0) {
    execl(argv[0], argv[0], "--exit-while-running", (char *)NULL);
    _exit(127);
  }
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  double ms = (now_ns() - t0) / 1e6;
  printf("a program exiting with a long dispatch running ended with status %#x after %.0f ms\n",
         status, ms);
  CHECK(ms < 30000);
  TEST_DONE();
}
