// Loads and stores at data-dependent addresses, as HIP programs make them: rocPRIM's
// device-wide radix sort and inclusive scan of 2^20 (or argv[1]) random 32-bit keys, as a real
// library uses the GPU (rocPRIM 5.2 sorts this size with a block sort and ten merge passes,
// whose binary searches load at data-dependent addresses, and scans with decoupled
// look-back), and beside them a hand-written gather of doubles through an index array,
// y[i] = 2 * x[idx[i]] (a two-dword load per lane), and a 256-bin histogram of the keys with
// atomics, once in shared memory (per-block bins added to the global ones at the end) and once
// straight into global memory. Each is run three times (the first compiles the kernels);
// prints each time and checks the results against the host's.
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

// Per-block bins in shared memory (atomicAdd on LDS), then one global atomicAdd per bin.
__global__ void histogram_shared(const unsigned *keys, unsigned *bins, unsigned n) {
    __shared__ unsigned h[256];
    h[threadIdx.x] = 0;
    __syncthreads();
    for (unsigned i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256)
        atomicAdd(&h[keys[i] & 255], 1u);
    __syncthreads();
    atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

// One global atomicAdd per key.
__global__ void histogram_global(const unsigned *keys, unsigned *bins, unsigned n) {
    unsigned i = blockIdx.x * 256 + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[keys[i] & 255], 1u);
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

    // The histograms, of the keys' low bytes.
    std::vector<unsigned> want(256, 0), bins(256);
    for (size_t i = 0; i < n; i++)
        want[keys[i] & 255]++;
    unsigned *dkeys, *dbins;
    CHECK(hipMalloc(&dkeys, n * 4));
    CHECK(hipMalloc(&dbins, 256 * 4));
    CHECK(hipMemcpy(dkeys, keys.data(), n * 4, hipMemcpyHostToDevice));
    bool histogram_ok = true;
    for (int shared = 1; shared >= 0; shared--) {
        for (int r = 0; r < 3; r++) {
            CHECK(hipMemset(dbins, 0, 256 * 4));
            CHECK(hipDeviceSynchronize());
            double t0 = now_ms();
            if (shared)
                histogram_shared<<<256, 256>>>(dkeys, dbins, unsigned(n));
            else
                histogram_global<<<unsigned((n + 255) / 256), 256>>>(dkeys, dbins, unsigned(n));
            CHECK(hipGetLastError());
            CHECK(hipDeviceSynchronize());
            std::printf("%s %zu keys: %.2f ms\n", shared ? "histogram_shared" : "histogram_global",
                        n, now_ms() - t0);
            CHECK(hipMemcpy(bins.data(), dbins, 256 * 4, hipMemcpyDeviceToHost));
            histogram_ok = histogram_ok && bins == want;
        }
    }

    std::printf("sort %s, scan %s, gather %s, histogram %s\n", sort_ok ? "ok" : "WRONG",
                scan_ok ? "ok" : "WRONG", gather_ok ? "ok" : "WRONG",
                histogram_ok ? "ok" : "WRONG");
    return sort_ok && scan_ok && gather_ok && histogram_ok ? 0 : 1;
}
