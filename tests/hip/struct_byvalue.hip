// Structs passed to kernels by value: small, mixed-alignment, nested, and large (over 1 KiB of
// kernel arguments), next to scalar arguments of every size.
#include <cstdint>
#include <vector>
#include "hip_check.h"

struct Small {
  char c;
  short s;
  int i;
};
struct Mixed {
  char tag;
  double d;
  float f;
  int64_t l;
  unsigned char bytes[3];
};
struct Nested {
  Small a;
  Mixed m;
  float v[5];
};
struct Big {
  int values[300];
  double scale;
};

__global__ void use_structs(int64_t* out, char c, Small s, short h, Mixed m, Nested n,
                            uint8_t u8, double d, Big b, float f) {
  int i = threadIdx.x;
  out[i] = 0;
  switch (i) {
    case 0: out[0] = c + s.c * 10 + s.s * 100 + (int64_t)s.i * 1000; break;
    case 1: out[1] = h; break;
    case 2: out[2] = m.tag + (int64_t)(m.d * 4) + (int64_t)(m.f * 8) + m.l; break;
    case 3: out[3] = m.bytes[0] + m.bytes[1] * 256 + m.bytes[2] * 65536; break;
    case 4: out[4] = n.a.i + n.m.l + (int64_t)(n.v[0] + n.v[4] * 2); break;
    case 5: out[5] = u8 + (int64_t)(d * 16); break;
    case 6: {
      int64_t acc = 0;
      for (int k = 0; k < 300; k++) acc += (int64_t)b.values[k] * (k + 1);
      out[6] = acc + (int64_t)(b.scale * 2);
      break;
    }
    case 7: out[7] = (int64_t)(f * 1024); break;
  }
}

int64_t host_ref(int i, char c, const Small& s, short h, const Mixed& m, const Nested& n,
                 uint8_t u8, double d, const Big& b, float f) {
  switch (i) {
    case 0: return c + s.c * 10 + s.s * 100 + (int64_t)s.i * 1000;
    case 1: return h;
    case 2: return m.tag + (int64_t)(m.d * 4) + (int64_t)(m.f * 8) + m.l;
    case 3: return m.bytes[0] + m.bytes[1] * 256 + m.bytes[2] * 65536;
    case 4: return n.a.i + n.m.l + (int64_t)(n.v[0] + n.v[4] * 2);
    case 5: return u8 + (int64_t)(d * 16);
    case 6: {
      int64_t acc = 0;
      for (int k = 0; k < 300; k++) acc += (int64_t)b.values[k] * (k + 1);
      return acc + (int64_t)(b.scale * 2);
    }
    case 7: return (int64_t)(f * 1024);
  }
  return 0;
}

int main() {
  Small s = {3, -1234, 56789};
  Mixed m = {5, 2.75, -1.5f, 1LL << 40, {1, 2, 3}};
  Nested n = {{1, 2, -77}, {9, 1.25, 0.5f, -5000000000LL, {9, 8, 7}}, {1.5f, 2, 3, 4, 8.25f}};
  static Big b;
  for (int k = 0; k < 300; k++) b.values[k] = k * k - 1000;
  b.scale = 12.5;
  int64_t* d;
  HIP_CHECK(hipMalloc(&d, 64 * sizeof(int64_t)));
  use_structs<<<1, 64>>>(d, (char)-9, s, (short)-300, m, n, (uint8_t)250, 3.0625, b, 0.7f);
  HIP_CHECK(hipGetLastError());
  std::vector<int64_t> out(64), want(64, 0);
  HIP_CHECK(hipMemcpy(out.data(), d, 64 * sizeof(int64_t), hipMemcpyDeviceToHost));
  for (int i = 0; i < 8; i++)
    want[i] = host_ref(i, (char)-9, s, (short)-300, m, n, (uint8_t)250, 3.0625, b, 0.7f);
  expect_equal("struct args", out.data(), want.data(), 64);
  HIP_CHECK(hipFree(d));
  return finish("struct_byvalue");
}
