// IPC between a parent and a forked child (HIP initializes in each after the fork): device
// memory shared with hipIpcGetMemHandle/hipIpcOpenMemHandle and used by kernels in both
// processes, an interprocess event recorded by the parent and waited on by the child, and a
// forged memory handle refused without a crash.
#include "hip_check.h"
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

static const int N = 1 << 16;

__global__ void fill(int* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = i * 7;
}

__global__ void add_one(int* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] += 1;
}

// Spins for a while, then marks d[0] (so the child's event wait has something to wait for).
__global__ void slow_mark(int* d) {
  long t = clock64();
  while (clock64() - t < 20000000) {
  }
  d[0] = 0xabc;
}

static void put(int fd, const void* p, size_t n) {
  if (write(fd, p, n) != (ssize_t)n) exit(3);
}
static void get(int fd, void* p, size_t n) {
  size_t got = 0;
  while (got < n) {
    ssize_t k = read(fd, (char*)p + got, n - got);
    if (k <= 0) exit(3);
    got += (size_t)k;
  }
}

static int child(int in, int out) {
  hipIpcMemHandle_t mh;
  hipIpcEventHandle_t eh;
  get(in, &mh, sizeof mh);
  get(in, &eh, sizeof eh);
  int* d = nullptr;
  HIP_CHECK(hipIpcOpenMemHandle((void**)&d, mh, hipIpcMemLazyEnablePeerAccess));
  hipEvent_t ev;
  HIP_CHECK(hipIpcOpenEventHandle(&ev, eh));
  // A forged handle fails cleanly.
  hipIpcMemHandle_t forged;
  memset(&forged, 0x5a, sizeof forged);
  void* nothing = nullptr;
  EXPECT(hipIpcOpenMemHandle(&nothing, forged, hipIpcMemLazyEnablePeerAccess) != hipSuccess,
         "forged handle opened");
  char ready = 1;
  put(out, &ready, 1);
  get(in, &ready, 1);  // the parent has recorded the event
  HIP_CHECK(hipEventSynchronize(ev));
  int first = 0;
  HIP_CHECK(hipMemcpy(&first, d, sizeof first, hipMemcpyDeviceToHost));
  EXPECT(first == 0xabc, "after the event: d[0] = %#x", first);
  add_one<<<N / 256, 256>>>(d, N);
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipIpcCloseMemHandle(d));
  HIP_CHECK(hipEventDestroy(ev));
  char ok = g_failures == 0;
  put(out, &ok, 1);
  return g_failures ? 1 : 0;
}

int main() {
  int p2c[2], c2p[2];
  if (pipe(p2c) || pipe(c2p)) return 2;
  pid_t pid = fork();
  if (pid == 0) {
    close(p2c[1]);
    close(c2p[0]);
    _exit(child(p2c[0], c2p[1]));
  }
  close(p2c[0]);
  close(c2p[1]);
  int* d = nullptr;
  HIP_CHECK(hipMalloc(&d, N * sizeof(int)));
  fill<<<N / 256, 256>>>(d, N);
  HIP_CHECK(hipDeviceSynchronize());
  hipIpcMemHandle_t mh;
  HIP_CHECK(hipIpcGetMemHandle(&mh, d));
  hipEvent_t ev;
  HIP_CHECK(hipEventCreateWithFlags(&ev, hipEventDisableTiming | hipEventInterprocess));
  hipIpcEventHandle_t eh;
  HIP_CHECK(hipIpcGetEventHandle(&eh, ev));
  put(p2c[1], &mh, sizeof mh);
  put(p2c[1], &eh, sizeof eh);
  char msg = 0;
  get(c2p[0], &msg, 1);  // the child has opened both handles
  slow_mark<<<1, 1>>>(d);
  HIP_CHECK(hipEventRecord(ev, 0));
  put(p2c[1], &msg, 1);
  get(c2p[0], &msg, 1);
  EXPECT(msg == 1, "the child reported failures");
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child exit status %#x", status);
  std::vector<int> h(N);
  HIP_CHECK(hipMemcpy(h.data(), d, N * sizeof(int), hipMemcpyDeviceToHost));
  std::vector<int> want(N);
  for (int i = 0; i < N; i++) want[i] = i * 7 + 1;
  want[0] = 0xabc + 1;
  expect_equal("shared memory after the child's kernel", h.data(), want.data(), N);
  HIP_CHECK(hipEventDestroy(ev));
  HIP_CHECK(hipFree(d));
  return finish("ipc_fork");
}
