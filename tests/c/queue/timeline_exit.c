/* SOFTHSA_TIMELINE keeps every event of a program that exits without hsa_shut_down (as many
 * HIP programs and benchmarks do): a child process runs 500 barrier-AND packets with the timeline
 * on and returns from its work without shutting down; the file it leaves must hold an event for
 * each packet. (Events are buffered; without a flush at exit the last few kilobytes were lost.) */
#include "aql.h"
#include <sys/wait.h>
#include <unistd.h>

enum { PACKETS = 500 };

static int child(void) {
  CHECK(hsa_init() == HSA_STATUS_SUCCESS);
  hsa_queue_t *q;
  CHECK(hsa_queue_create(aql_gpu(), 1024, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX, UINT32_MAX, &q) ==
        HSA_STATUS_SUCCESS);
  hsa_signal_t done, none = {0};
  CHECK(hsa_signal_create(1, 0, NULL, &done) == HSA_STATUS_SUCCESS);
  for (int i = 0; i < PACKETS; i++)
    aql_barrier(q, HSA_PACKET_TYPE_BARRIER_AND, none, none, i == PACKETS - 1 ? done : none);
  CHECK(aql_wait_eq(done, 0, UINT64_MAX) == 0);
  return 0; /* no hsa_shut_down: exit() must still leave the whole timeline */
}

int main(void) {
  const char *dir = getenv("SOFTHSA_TEST_TMP");
  char path[512];
  snprintf(path, sizeof path, "%s/timeline-exit.json", dir ? dir : "/tmp");
  unlink(path);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    setenv("SOFTHSA_TIMELINE", path, 1);
    exit(child());
  }
  int status;
  CHECK(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);

  FILE *f = fopen(path, "r");
  CHECK(f != NULL);
  char line[4096];
  int events = 0, first = 1;
  while (fgets(line, sizeof line, f)) {
    if (first)
      CHECK(line[0] == '[');
    first = 0;
    if (strstr(line, "\"name\":\"barrier-and\"") && strstr(line, "\"ph\":\"X\""))
      events++;
  }
  fclose(f);
  if (events != PACKETS)
    fprintf(stderr, "timeline events: %d, packets: %d\n", events, PACKETS);
  CHECK(events == PACKETS);
  printf("PASS timeline_exit (%d events)\n", events);
  return 0;
}
