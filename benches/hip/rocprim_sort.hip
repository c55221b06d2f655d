// Loads and stores at data-dependent addresses, as HIP programs make them: rocPRIM's
// device-wide radix sort and inclusive scan of 2^20 (or argv[1]) random 32-bit keys, as a real
// library uses the GPU (rocPRIM 5.2 sorts this size with a block sort and ten merge passes,
// whose binary searches load at data-dependent addresses, and scans with decoupled
// look-back), and beside them a hand-written gather of doubles through an index array,
// y[i] = 2 * x[idx[i]] (a two-dword load per lane). Each is run three times (the first
// compiles the kernels); prints each time and checks the results against the host's.
//
//   hipcc -std=c++17 --offload-arch=gfx906 -O2 benches/hip/rocprim_sort.hip -o rocprim_sort
//   scripts/bench-rocprim.sh LIB_DIR_A LIB_DIR_B     (two libraries side by side)
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                             \
    do {                                                                                     \
        hipError_t e_ = (x);                                                                 \
        if (e_ != hipSuccess) {                                                              \
            std::printf("%s failed: %s (line %d)\n", #x, hipGetErrorString(e_), __LINE__);  \
            return 1;                                                                        \
        }                                                                                    \
    } while (0)

// y[i] = 2 * x[idx[i]].
__global__ void gather_f64(const double *x, const unsigned *idx, double *y, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 2.0 * x[idx[i]];
}

static double now_ms() {
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

static std::vector<unsigned> random_keys(size_t n) {
    std::vector<unsigned> v(n);
    unsigned s = 12345;
    for (auto &x : v) {
        s = s * 1664525u + 1013904223u;
        x = s;
    }
    return v;
}

int main(int argc, char **argv) {
    size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 0) : size_t(1) << 20;
    std::vector<unsigned> keys = random_keys(n), got(n);
    unsigned *in, *out;
    CHECK(hipMalloc(&in, n * 4));
    CHECK(hipMalloc(&out, n * 4));
    CHECK(hipMemcpy(in, keys.data(), n * 4, hipMemcpyHostToDevice));

    size_t sort_bytes = 0, scan_bytes = 0;
    void *sort_tmp = nullptr, *scan_tmp = nullptr;
    CHECK(rocprim::radix_sort_keys(sort_tmp, sort_bytes, in, out, n));
    CHECK(hipMalloc(&sort_tmp, sort_bytes));
    for (int r = 0; r < 3; r++) {
        double t0 = now_ms();
        CHECK(rocprim::radix_sort_keys(sort_tmp, sort_bytes, in, out, n));
        CHECK(hipDeviceSynchronize());
        std::printf("radix_sort %zu keys: %.1f ms\n", n, now_ms() - t0);
    }
    CHECK(hipMemcpy(got.data(), out, n * 4, hipMemcpyDeviceToHost));
    std::vector<unsigned> sorted = keys;
    std::sort(sorted.begin(), sorted.end());
    bool sort_ok = got == sorted;

    rocprim::plus<unsigned> plus;
    CHECK(rocprim::inclusive_scan(scan_tmp, scan_bytes, in, out, n, plus));
    CHECK(hipMalloc(&scan_tmp, scan_bytes));
    for (int r = 0; r < 3; r++) {
        double t0 = now_ms();
        CHECK(rocprim::inclusive_scan(scan_tmp, scan_bytes, in, out, n, plus));
        CHECK(hipDeviceSynchronize());
        std::printf("inclusive_scan %zu keys: %.1f ms\n", n, now_ms() - t0);
    }
    CHECK(hipMemcpy(got.data(), out, n * 4, hipMemcpyDeviceToHost));
    unsigned acc = 0;
    bool scan_ok = true;
    for (size_t i = 0; i < n && scan_ok; i++)
        scan_ok = got[i] == (acc += keys[i]);

    // The gather: 4n doubles read through 4n indices into a table of n, each wave's 64
    // indices within 4,096 entries (32 KiB) around a point that moves with the wave.
    size_t m = 4 * n;
    std::vector<double> table(n), y(m);
    std::vector<unsigned> index(m);
    for (size_t i = 0; i < n; i++)
        table[i] = 0.5 * double(i);
    for (size_t i = 0; i < m; i++)
        index[i] = unsigned((i / 64 * 37 + keys[i % n] % 4096) % n);
    double *dx, *dy;
    unsigned *didx;
    CHECK(hipMalloc(&dx, n * 8));
    CHECK(hipMalloc(&dy, m * 8));
    CHECK(hipMalloc(&didx, m * 4));
    CHECK(hipMemcpy(dx, table.data(), n * 8, hipMemcpyHostToDevice));
    CHECK(hipMemcpy(didx, index.data(), m * 4, hipMemcpyHostToDevice));
    for (int r = 0; r < 3; r++) {
        double t0 = now_ms();
        gather_f64<<<unsigned((m + 255) / 256), 256>>>(dx, didx, dy, unsigned(m));
        CHECK(hipGetLastError());
        CHECK(hipDeviceSynchronize());
        std::printf("gather_f64 %zu doubles: %.2f ms\n", m, now_ms() - t0);
    }
    CHECK(hipMemcpy(y.data(), dy, m * 8, hipMemcpyDeviceToHost));
    bool gather_ok = true;
    for (size_t i = 0; i < m && gather_ok; i++)
        gather_ok = y[i] == 2.0 * table[index[i]];

    std::printf("sort %s, scan %s, gather %s\n", sort_ok ? "ok" : "WRONG",
                scan_ok ? "ok" : "WRONG", gather_ok ? "ok" : "WRONG");
    return sort_ok && scan_ok && gather_ok ? 0 : 1;
}
