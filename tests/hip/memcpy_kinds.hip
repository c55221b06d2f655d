// Every hipMemcpy kind, synchronous and asynchronous, from pageable and pinned host memory, at
// sizes that take HIP's different paths (tiny CPU copies, staged copies, blit kernels) and at
// unaligned offsets.
#include <vector>
#include "hip_check.h"

static void pattern(unsigned char* p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) p[i] = (unsigned char)((i * 131u + seed * 7u + (i >> 9)) & 0xff);
}

static void check_bytes(const char* what, size_t size, const unsigned char* got,
                        const unsigned char* want, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) {
      fprintf(stderr, "%s (size %zu): byte %zu is %u, want %u\n", what, size, i, got[i], want[i]);
      g_failures++;
      return;
    }
}

int main() {
  const size_t sizes[] = {1, 3, 64, 1000, 4096, 65537, 1 << 20, (4 << 20) + 13};
  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));
  unsigned seed = 1;
  for (size_t size : sizes) {
    const size_t off = 5;  // unaligned source and destination offsets
    std::vector<unsigned char> src(size + off), dst(size + off), want(size);
    pattern(src.data() + off, size, seed++);
    memcpy(want.data(), src.data() + off, size);
    unsigned char *d1, *d2, *pin_src, *pin_dst;
    HIP_CHECK(hipMalloc(&d1, size + off));
    HIP_CHECK(hipMalloc(&d2, size + off));
    HIP_CHECK(hipHostMalloc(&pin_src, size));
    HIP_CHECK(hipHostMalloc(&pin_dst, size));

    // Synchronous, pageable memory: H2D, D2D, D2H, H2H and Default.
    HIP_CHECK(hipMemcpy(d1 + off, src.data() + off, size, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d2 + 1, d1 + off, size, hipMemcpyDeviceToDevice));
    HIP_CHECK(hipMemcpy(dst.data(), d2 + 1, size, hipMemcpyDeviceToHost));
    check_bytes("sync H2D/D2D/D2H", size, dst.data(), want.data(), size);
    std::vector<unsigned char> h2h(size);
    HIP_CHECK(hipMemcpy(h2h.data(), src.data() + off, size, hipMemcpyHostToHost));
    check_bytes("sync H2H", size, h2h.data(), want.data(), size);
    memset(dst.data(), 0, size);
    HIP_CHECK(hipMemset(d2, 0, size + off));
    HIP_CHECK(hipMemcpy(d2, d1 + off, size, hipMemcpyDefault));
    HIP_CHECK(hipMemcpy(dst.data(), d2, size, hipMemcpyDefault));
    check_bytes("sync Default", size, dst.data(), want.data(), size);

    // Asynchronous on a stream, pinned memory: H2D, D2D, D2H.
    memcpy(pin_src, want.data(), size);
    memset(pin_dst, 0, size);
    HIP_CHECK(hipMemsetAsync(d1, 0, size + off, s));
    HIP_CHECK(hipMemcpyAsync(d1 + 3, pin_src, size, hipMemcpyHostToDevice, s));
    HIP_CHECK(hipMemcpyAsync(d2 + 2, d1 + 3, size, hipMemcpyDeviceToDevice, s));
    HIP_CHECK(hipMemcpyAsync(pin_dst, d2 + 2, size, hipMemcpyDeviceToHost, s));
    HIP_CHECK(hipStreamSynchronize(s));
    check_bytes("async pinned H2D/D2D/D2H", size, pin_dst, want.data(), size);

    // Asynchronous from pageable memory and with the HtoD/DtoH/DtoD driver-style names.
    memset(dst.data(), 0, size);
    HIP_CHECK(hipMemcpyHtoDAsync((hipDeviceptr_t)d2, src.data() + off, size, s));
    HIP_CHECK(hipMemcpyDtoDAsync((hipDeviceptr_t)d1, (hipDeviceptr_t)d2, size, s));
    HIP_CHECK(hipMemcpyDtoHAsync(dst.data(), (hipDeviceptr_t)d1, size, s));
    HIP_CHECK(hipStreamSynchronize(s));
    check_bytes("async pageable HtoD/DtoD/DtoH", size, dst.data(), want.data(), size);

    // Synchronous driver-style copies.
    memset(dst.data(), 0, size);
    HIP_CHECK(hipMemcpyHtoD((hipDeviceptr_t)d1, src.data() + off, size));
    HIP_CHECK(hipMemcpyDtoD((hipDeviceptr_t)d2, (hipDeviceptr_t)d1, size));
    HIP_CHECK(hipMemcpyDtoH(dst.data(), (hipDeviceptr_t)d2, size));
    check_bytes("sync HtoD/DtoD/DtoH", size, dst.data(), want.data(), size);

    HIP_CHECK(hipFree(d1));
    HIP_CHECK(hipFree(d2));
    HIP_CHECK(hipHostFree(pin_src));
    HIP_CHECK(hipHostFree(pin_dst));
  }
  HIP_CHECK(hipStreamDestroy(s));
  return finish("memcpy_kinds");
}
