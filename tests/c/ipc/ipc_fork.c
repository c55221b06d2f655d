/* IPC between a parent and a forked child: hsa_amd_ipc_memory_create/attach/detach and IPC
 * signals. Both processes initialize the runtime after the fork (as ROCm requires) and pass
 * handles over pipes. Checked: the child sees the parent's bytes and the parent the child's
 * writes (one memory), pointer info of attached memory, an async copy out of it, signals
 * stored in one process and waited on in the other; refused without a crash: a handle of a
 * freed allocation, of a process that exited, forged handles, wrong lengths, detaching what
 * was not attached. */
#include "check.h"
#include <sys/wait.h>
#include <unistd.h>

#define PAGES 3
#define LEN (PAGES * 4096)

static hsa_agent_t gpu;
static hsa_amd_memory_pool_t dev_pool;

static void init(void) {
  if (hsa_init() != HSA_STATUS_SUCCESS) { fprintf(stderr, "hsa_init failed\n"); exit(2); }
  gpu = find_agent(HSA_DEVICE_TYPE_GPU, 0);
  dev_pool = find_pool(gpu, HSA_AMD_SEGMENT_GLOBAL, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
}

static void put(int fd, const void *p, size_t n) {
  if (write(fd, p, n) != (ssize_t)n) { perror("write"); exit(3); }
}
static void get(int fd, void *p, size_t n) {
  size_t got = 0;
  while (got < n) {
    ssize_t k = read(fd, (char *)p + got, n - got);
    if (k <= 0) { perror("read"); exit(3); }
    got += (size_t)k;
  }
}

/* The child: attaches, checks and writes, then exports memory of its own and exits. */
static int child(int in, int out) {
  init();
  hsa_amd_ipc_memory_t h;
  hsa_amd_ipc_signal_t sh;
  get(in, &h, sizeof h);
  get(in, &sh, sizeof sh);
  void *p = NULL;
  CHECK_STATUS(hsa_amd_ipc_memory_attach(&h, LEN + 4096, 1, &gpu, &p), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_OK(hsa_amd_ipc_memory_attach(&h, LEN, 1, &gpu, &p));
  uint32_t *w = p;
  int same = 1;
  for (int i = 0; i < LEN / 4; i++) same &= w[i] == (uint32_t)(i * 2654435761u);
  CHECK(same);
  hsa_amd_pointer_info_t info = {.size = sizeof info};
  CHECK_OK(hsa_amd_pointer_info(p, &info, NULL, NULL, NULL));
  CHECK(info.type == HSA_EXT_POINTER_TYPE_IPC && info.sizeInBytes == LEN);
  /* The runtime's own access (a fill) reaches the shared bytes. */
  CHECK_OK(hsa_amd_memory_fill((char *)p + 4096, 0x5a5a5a5a, 1));
  w[0] = 0xc0ffee;
  /* An async copy out of the attached memory. */
  void *local = NULL;
  CHECK_OK(hsa_amd_memory_pool_allocate(dev_pool, 4096, 0, &local));
  hsa_signal_t done;
  CHECK_OK(hsa_signal_create(1, 0, NULL, &done));
  CHECK_OK(hsa_amd_memory_async_copy(local, gpu, p, gpu, 64, 0, NULL, done));
  CHECK(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX, HSA_WAIT_STATE_BLOCKED) == 0);
  CHECK(((uint32_t *)local)[0] == 0xc0ffee && ((uint32_t *)local)[1] == 2654435761u);
  CHECK_OK(hsa_amd_ipc_memory_detach(p));
  CHECK_STATUS(hsa_amd_ipc_memory_detach(p), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(hsa_amd_ipc_memory_detach(local), HSA_STATUS_ERROR_INVALID_ARGUMENT);

  /* The IPC signal: store 5, then wait for the parent's 7. */
  hsa_signal_t s;
  CHECK_OK(hsa_amd_ipc_signal_attach(&sh, &s));
  CHECK(hsa_signal_load_scacquire(s) == 1);
  hsa_signal_store_screlease(s, 5);
  CHECK(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 7, 10ull * 1000 * 1000 * 1000,
                                  HSA_WAIT_STATE_BLOCKED) == 7);
  CHECK_OK(hsa_signal_destroy(s));

  /* Memory of our own for the parent to attach after we exit. */
  void *mine = NULL;
  hsa_amd_ipc_memory_t hm;
  CHECK_OK(hsa_amd_memory_pool_allocate(dev_pool, 4096, 0, &mine));
  CHECK_OK(hsa_amd_ipc_memory_create(mine, 4096, &hm));
  int ok = check_failures == 0;
  put(out, &ok, sizeof ok);
  put(out, &hm, sizeof hm);
  hsa_shut_down();
  return check_failures ? 1 : 0;
}

int main(void) {
  int p2c[2], c2p[2];
  if (pipe(p2c) || pipe(c2p)) { perror("pipe"); return 2; }
  pid_t pid = fork();
  if (pid == 0) {
    close(p2c[1]); close(c2p[0]);
    exit(child(p2c[0], c2p[1]));
  }
  close(p2c[0]); close(c2p[1]);
  init();
  void *a = NULL;
  CHECK_OK(hsa_amd_memory_pool_allocate(dev_pool, LEN, 0, &a));
  uint32_t *w = a;
  for (int i = 0; i < LEN / 4; i++) w[i] = (uint32_t)(i * 2654435761u);
  hsa_amd_ipc_memory_t h;
  CHECK_STATUS(hsa_amd_ipc_memory_create((char *)a + 4096, 4096, &h), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(hsa_amd_ipc_memory_create(a, LEN + 1, &h), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_OK(hsa_amd_ipc_memory_create(a, LEN, &h));
  /* Exporting changed nothing the program sees. */
  CHECK(w[5] == (uint32_t)(5 * 2654435761u));

  hsa_signal_t s;
  CHECK_STATUS(hsa_amd_ipc_signal_create(s = (hsa_signal_t){0}, (hsa_amd_ipc_signal_t[1]){}), HSA_STATUS_ERROR_INVALID_SIGNAL);
  hsa_signal_t plain;
  CHECK_OK(hsa_signal_create(0, 0, NULL, &plain));
  hsa_amd_ipc_signal_t sh;
  CHECK_STATUS(hsa_amd_ipc_signal_create(plain, &sh), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_OK(hsa_amd_signal_create(1, 0, NULL, HSA_AMD_SIGNAL_IPC, &s));
  CHECK_OK(hsa_amd_ipc_signal_create(s, &sh));
  put(p2c[1], &h, sizeof h);
  put(p2c[1], &sh, sizeof sh);

  CHECK(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 5, 10ull * 1000 * 1000 * 1000,
                                  HSA_WAIT_STATE_BLOCKED) == 5);
  hsa_signal_store_screlease(s, 7);

  int child_ok = 0;
  hsa_amd_ipc_memory_t hm;
  get(c2p[0], &child_ok, sizeof child_ok);
  get(c2p[0], &hm, sizeof hm);
  CHECK(child_ok);
  /* The child's writes, through the same memory. */
  CHECK(w[0] == 0xc0ffee && w[1024] == 0x5a5a5a5a && w[1025] == (uint32_t)(1025 * 2654435761u));

  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);

  /* Refused: the handle of a process that exited, forged and tampered handles. */
  void *p = NULL;
  CHECK_STATUS(hsa_amd_ipc_memory_attach(&hm, 4096, 1, &gpu, &p), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_amd_ipc_memory_t forged;
  memset(&forged, 0, sizeof forged);
  CHECK_STATUS(hsa_amd_ipc_memory_attach(&forged, 4096, 1, &gpu, &p), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  for (int i = 0; i < 8; i++) forged.handle[i] = 0x9e3779b9u * (i + 1);
  CHECK_STATUS(hsa_amd_ipc_memory_attach(&forged, 4096, 1, &gpu, &p), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  forged = h;
  forged.handle[4] ^= 1; /* the nonce */
  CHECK_STATUS(hsa_amd_ipc_memory_attach(&forged, 4096, 1, &gpu, &p), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(hsa_amd_ipc_memory_attach(NULL, 4096, 1, &gpu, &p), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_signal_t t;
  CHECK_STATUS(hsa_amd_ipc_signal_attach(&h, &t), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  /* This process may attach its own export (a second mapping of the same bytes)... */
  CHECK_OK(hsa_amd_ipc_memory_attach(&h, LEN, 1, &gpu, &p));
  CHECK(p != a && ((uint32_t *)p)[0] == 0xc0ffee);
  CHECK_OK(hsa_amd_ipc_memory_detach(p));
  /* ... until the allocation is freed. */
  CHECK_OK(hsa_amd_memory_pool_free(a));
  CHECK_STATUS(hsa_amd_ipc_memory_attach(&h, LEN, 1, &gpu, &p), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  CHECK_OK(hsa_signal_destroy(s));
  CHECK_STATUS(hsa_amd_ipc_signal_create(s, &sh), HSA_STATUS_ERROR_INVALID_SIGNAL);
  CHECK_OK(hsa_signal_destroy(plain));
  CHECK_OK(hsa_shut_down());
  TEST_DONE();
}
