// hipModuleLoad (file) and hipModuleLoadData (memory) of a separately built code object
// (argv[1], built with hipcc --genco), hipModuleGetFunction, hipModuleGetGlobal and
// hipModuleLaunchKernel with both kernelParams and the `extra` argument buffer.
#include <fstream>
#include <iterator>
#include <vector>
#include "hip_check.h"

static void run_scale_add(hipFunction_t f, bool use_extra) {
  const int n = 1000;
  const float k = use_extra ? -2.0f : 3.0f;
  std::vector<float> in(n), out(n), want(n);
  const float table[4] = {1.0f, 10.0f, 100.0f, 1000.0f};
  for (int i = 0; i < n; i++) {
    in[i] = i * 0.25f;
    want[i] = in[i] * k + table[i & 3];
  }
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(float)));
  HIP_CHECK(hipMemcpy(din, in.data(), n * sizeof(float), hipMemcpyHostToDevice));
  int nn = n;
  float kk = k;
  if (!use_extra) {
    void* args[] = {&din, &dout, &nn, &kk};
    HIP_CHECK(hipModuleLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, args, nullptr));
  } else {
    struct {
      float* in;
      float* out;
      int n;
      float k;
    } buf = {din, dout, nn, kk};
    size_t size = sizeof buf;
    void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &buf, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
                     HIP_LAUNCH_PARAM_END};
    HIP_CHECK(hipModuleLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, nullptr,
                                    extra));
  }
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(out.data(), dout, n * sizeof(float), hipMemcpyDeviceToHost));
  expect_equal(use_extra ? "scale_add (extra)" : "scale_add (kernelParams)", out.data(),
               want.data(), n);
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
}

static void check_module(hipModule_t m, const char* how) {
  hipFunction_t scale, count;
  HIP_CHECK(hipModuleGetFunction(&scale, m, "scale_add"));
  HIP_CHECK(hipModuleGetFunction(&count, m, "count_items"));
  hipFunction_t missing;
  EXPECT(hipModuleGetFunction(&missing, m, "no_such_kernel") != hipSuccess,
         "%s: a missing kernel was found", how);
  run_scale_add(scale, false);
  run_scale_add(scale, true);

  hipDeviceptr_t counter;
  size_t bytes = 0;
  HIP_CHECK(hipModuleGetGlobal(&counter, &bytes, m, "module_counter"));
  EXPECT(bytes == sizeof(int), "%s: module_counter has %zu bytes", how, bytes);
  int zero = 0;
  HIP_CHECK(hipMemcpyHtoD(counter, &zero, sizeof zero));
  int n = 777;
  void* args[] = {&n};
  HIP_CHECK(hipModuleLaunchKernel(count, 13, 1, 1, 64, 1, 1, 0, nullptr, args, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  int got = -1;
  HIP_CHECK(hipMemcpyDtoH(&got, counter, sizeof got));
  EXPECT(got == n, "%s: count_items counted %d, want %d", how, got, n);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s CODE_OBJECT (built with hipcc --genco)\n", argv[0]);
    return 2;
  }
  hipModule_t m1;
  HIP_CHECK(hipModuleLoad(&m1, argv[1]));
  check_module(m1, "hipModuleLoad");

  std::ifstream file(argv[1], std::ios::binary);
  std::vector<char> image((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  EXPECT(!image.empty(), "cannot read %s", argv[1]);
  hipModule_t m2;
  HIP_CHECK(hipModuleLoadData(&m2, image.data()));
  check_module(m2, "hipModuleLoadData");

  HIP_CHECK(hipModuleUnload(m1));
  HIP_CHECK(hipModuleUnload(m2));
  return finish("module_load");
}
