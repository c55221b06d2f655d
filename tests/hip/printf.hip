// Device-side printf (hostcall): the program captures its own stdout, runs kernels that print
// integers, floats, strings, pointers and many lines from many work-items, and compares the
// sorted lines with the expected ones.
#include <unistd.h>
#include <algorithm>
#include <string>
#include <vector>
#include "hip_check.h"

__global__ void say(int base, float f, double d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  printf("item %d of block %d: %d %s\n", i, (int)blockIdx.x, base + i * i, (i & 1) ? "odd" : "even");
  if (i == 0) printf("floats %.3f %.5f %e|%5d|%-4x|%c\n", f, d, d * 1e10, 42, 255, 'Z');
}

static std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> v;
  size_t p = 0;
  while (p < text.size()) {
    size_t e = text.find('\n', p);
    if (e == std::string::npos) e = text.size();
    v.push_back(text.substr(p, e - p));
    p = e + 1;
  }
  return v;
}

int main() {
  // Device printf writes to the process's stdout: point fd 1 at a temporary file meanwhile.
  char path[] = "/tmp/hip_printf_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return 2;
  fflush(stdout);
  int saved = dup(1);
  dup2(fd, 1);

  const int blocks = 3, threads = 70;
  say<<<blocks, threads>>>(1000, 3.14159f, -2.718281828);
  hipError_t e1 = hipDeviceSynchronize();
  // A second kernel: the listener keeps serving after the first one.
  say<<<1, 2>>>(-5, 0.5f, 1.0);
  hipError_t e2 = hipDeviceSynchronize();

  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  HIP_CHECK(e1);
  HIP_CHECK(e2);
  std::string text;
  lseek(fd, 0, SEEK_SET);
  char chunk[4096];
  ssize_t r;
  while ((r = read(fd, chunk, sizeof chunk)) > 0) text.append(chunk, r);
  close(fd);
  unlink(path);

  std::vector<std::string> want;
  char line[256];
  for (int i = 0; i < blocks * threads; i++) {
    snprintf(line, sizeof line, "item %d of block %d: %d %s", i, i / threads, 1000 + i * i,
             (i & 1) ? "odd" : "even");
    want.push_back(line);
  }
  snprintf(line, sizeof line, "floats %.3f %.5f %e|%5d|%-4x|%c", 3.14159f, -2.718281828,
           -2.718281828 * 1e10, 42, 255, 'Z');
  want.push_back(line);
  for (int i = 0; i < 2; i++) {
    snprintf(line, sizeof line, "item %d of block 0: %d %s", i, -5 + i * i, (i & 1) ? "odd" : "even");
    want.push_back(line);
  }
  snprintf(line, sizeof line, "floats %.3f %.5f %e|%5d|%-4x|%c", 0.5f, 1.0, 1e10, 42, 255, 'Z');
  want.push_back(line);

  std::vector<std::string> got = lines_of(text);
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  if (got != want) {
    g_failures++;
    fprintf(stderr, "device printf printed %zu lines, want %zu\n", got.size(), want.size());
    std::vector<std::string> missing, extra;
    std::set_difference(want.begin(), want.end(), got.begin(), got.end(),
                        std::back_inserter(missing));
    std::set_difference(got.begin(), got.end(), want.begin(), want.end(),
                        std::back_inserter(extra));
    for (size_t i = 0; i < missing.size() && i < 5; i++)
      fprintf(stderr, "missing: '%s'\n", missing[i].c_str());
    for (size_t i = 0; i < extra.size() && i < 5; i++)
      fprintf(stderr, "unexpected: '%s'\n", extra[i].c_str());
  }
  return finish("printf");
}
