// Debian's rocRAND (librocrand1) generating on the GPU through its host API: its own kernels, from
// the code objects it ships for the agent's processor (gfx906, gfx908, gfx90a:xnack-/xnack+),
// loaded by Debian's libamdhip64. Philox-4x32-10 is counter based, so the generator's output is
// the sequential Philox stream whatever grid rocRAND launches: element 4n+e is word e of Philox
// applied to the 128-bit counter n (plus the offset) under the 64-bit seed. The host computes that
// stream independently (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", with
// rocRAND's round constants) and every value must match bit for bit.
#include <rocrand/rocrand.h>
#include <cmath>
#include <vector>
#include "hip_check.h"

#define ROCRAND_CHECK(call)                                                        \
  do {                                                                             \
    rocrand_status s_ = (call);                                                    \
    if (s_ != ROCRAND_STATUS_SUCCESS) {                                            \
      fprintf(stderr, "%s:%d: %s failed: status %d\n", __FILE__, __LINE__, #call, \
              (int)s_);                                                            \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

// Philox-4x32-10 of counter (c0..c3, c0 lowest) and key (k0, k1).
static void philox(unsigned long long n, unsigned long long seed, unsigned out[4]) {
  unsigned c[4] = {(unsigned)n, (unsigned)(n >> 32), 0, 0};
  unsigned k0 = (unsigned)seed, k1 = (unsigned)(seed >> 32);
  for (int round = 0; round < 10; round++) {
    unsigned long long p0 = 0xD2511F53ull * c[0], p1 = 0xCD9E8D57ull * c[2];
    unsigned hi0 = (unsigned)(p0 >> 32), lo0 = (unsigned)p0;
    unsigned hi1 = (unsigned)(p1 >> 32), lo1 = (unsigned)p1;
    unsigned next[4] = {hi1 ^ c[1] ^ k0, lo1, hi0 ^ c[3] ^ k1, lo0};
    memcpy(c, next, sizeof c);
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  memcpy(out, c, sizeof c);
}

static unsigned host_word(unsigned long long i, unsigned long long seed) {
  unsigned w[4];
  philox(i / 4, seed, w);
  return w[i % 4];
}

int main() {
  const size_t n = 1 << 20;
  const unsigned long long seed = 0x1234567890abcdefull, offset = 4 * 1000;
  unsigned* d_bits;
  float* d_uniform;
  HIP_CHECK(hipMalloc(&d_bits, n * 4));
  HIP_CHECK(hipMalloc(&d_uniform, n * 4));

  rocrand_generator gen;
  ROCRAND_CHECK(rocrand_create_generator(&gen, ROCRAND_RNG_PSEUDO_PHILOX4_32_10));
  ROCRAND_CHECK(rocrand_set_seed(gen, seed));
  ROCRAND_CHECK(rocrand_generate(gen, d_bits, n));
  std::vector<unsigned> bits(n);
  HIP_CHECK(hipMemcpy(bits.data(), d_bits, n * 4, hipMemcpyDeviceToHost));
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned want = host_word(i, seed);
    if (bits[i] != want && ++bad <= 5)
      fprintf(stderr, "bits[%zu] = 0x%08x, expected 0x%08x\n", i, bits[i], want);
  }
  EXPECT(bad == 0, "%zu of %zu Philox words differ", bad, n);

  // A second generator from an offset: uniform floats in (0, 1], 2^-32 + v * 2^-32 in float,
  // which the device may compute with one fused multiply-add or with two roundings.
  rocrand_generator gen2;
  ROCRAND_CHECK(rocrand_create_generator(&gen2, ROCRAND_RNG_PSEUDO_PHILOX4_32_10));
  ROCRAND_CHECK(rocrand_set_seed(gen2, seed));
  ROCRAND_CHECK(rocrand_set_offset(gen2, offset));
  ROCRAND_CHECK(rocrand_generate_uniform(gen2, d_uniform, n));
  std::vector<float> uniform(n);
  HIP_CHECK(hipMemcpy(uniform.data(), d_uniform, n * 4, hipMemcpyDeviceToHost));
  const float inv = 2.3283064e-10f;
  bad = 0;
  for (size_t i = 0; i < n; i++) {
    float v = (float)host_word(i + offset, seed);
    volatile float product = v * inv;  // rounded on its own
    float twice = inv + product, fused = std::fma(v, inv, inv);
    if (uniform[i] != twice && uniform[i] != fused && ++bad <= 5)
      fprintf(stderr, "uniform[%zu] = %.9g, expected %.9g\n", i, uniform[i], fused);
  }
  EXPECT(bad == 0, "%zu of %zu uniform floats differ", bad, n);

  ROCRAND_CHECK(rocrand_destroy_generator(gen));
  ROCRAND_CHECK(rocrand_destroy_generator(gen2));
  HIP_CHECK(hipFree(d_bits));
  HIP_CHECK(hipFree(d_uniform));
  return finish("rocrand_philox");
}
