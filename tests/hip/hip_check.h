// Shared helpers of the HIP test programs: every HIP call is checked, every mismatch is printed,
// and finish() prints PASS (exit 0) only when nothing failed.
#pragma once
#include <hip/hip_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static int g_failures = 0;

// A failed HIP call is fatal: the rest of the test would only report its consequences.
#define HIP_CHECK(call)                                                                   \
  do {                                                                                    \
    hipError_t err_ = (call);                                                             \
    if (err_ != hipSuccess) {                                                             \
      fprintf(stderr, "%s:%d: %s failed: %s (%d)\n", __FILE__, __LINE__, #call,           \
              hipGetErrorString(err_), (int)err_);                                        \
      exit(1);                                                                            \
    }                                                                                     \
  } while (0)

// A failed expectation is counted and reported (the first few of each site are printed).
#define EXPECT(cond, ...)                                                                 \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      if (++g_failures <= 20) {                                                           \
        fprintf(stderr, "%s:%d: expected %s: ", __FILE__, __LINE__, #cond);               \
        fprintf(stderr, __VA_ARGS__);                                                     \
        fputc('\n', stderr);                                                              \
      }                                                                                   \
    }                                                                                     \
  } while (0)

// Compares n values with the host reference; prints the first differences.
template <typename T>
static void expect_equal(const char* what, const T* got, const T* want, size_t n) {
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    if (!(got[i] == want[i])) {
      if (bad < 5)
        fprintf(stderr, "%s[%zu]: got %.17g, want %.17g\n", what, i, (double)got[i],
                (double)want[i]);
      bad++;
    }
  }
  if (bad) {
    fprintf(stderr, "%s: %zu of %zu differ\n", what, bad, n);
    g_failures++;
  }
}

// Relative-or-absolute closeness, for results of different but correct rounding.
static bool close_to(double got, double want, double rel, double abs_tol = 0.0) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  double d = std::fabs(got - want);
  return d <= abs_tol || d <= rel * std::fabs(want);
}

static int finish(const char* name) {
  if (g_failures) {
    printf("FAIL %s: %d failed checks\n", name, g_failures);
    return 1;
  }
  printf("PASS %s\n", name);
  return 0;
}
