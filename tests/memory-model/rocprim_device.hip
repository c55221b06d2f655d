// Debian's rocPRIM (librocprim-dev) device-wide algorithms on softhsa, each checked against a
// host computation: scan, scan-by-key, select (predicate and flags), unique, unique-by-key,
// partition, reduce, reduce-by-key, run-length encode (and non-trivial runs), radix sort (keys,
// pairs), merge sort; over 8-, 16-, 32- and 64-bit elements. Most of them communicate between
// work-groups with decoupled look-back (a flag and a prefix packed in one 64-bit word, or split
// words ordered by fences), which is what the memory model must get right.
//
// usage: rocprim_device [max_size]   (prints PASS/FAIL per algorithm and type; exit 0 = all pass)
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#define HIP(x)                                                                   \
    do {                                                                         \
        hipError_t e_ = (x);                                                     \
        if (e_ != hipSuccess) {                                                  \
            std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #x,               \
                        hipGetErrorString(e_));                                  \
            std::exit(2);                                                        \
        }                                                                        \
    } while (0)

static int failures = 0, passes = 0;

template <class T> struct dev {
    T *p = nullptr;
    size_t n = 0;
    explicit dev(size_t count) : n(count) { HIP(hipMalloc(&p, std::max<size_t>(count, 1) * sizeof(T))); }
    dev(const std::vector<T> &h) : dev(h.size()) {
        HIP(hipMemcpy(p, h.data(), h.size() * sizeof(T), hipMemcpyHostToDevice));
    }
    ~dev() { (void)hipFree(p); }
    std::vector<T> get(size_t count) const {
        std::vector<T> h(count);
        HIP(hipMemcpy(h.data(), p, count * sizeof(T), hipMemcpyDeviceToHost));
        return h;
    }
};

// Runs a rocPRIM call twice: once to size its temporary storage, once for real.
template <class F> static void run(F f) {
    size_t bytes = 0;
    HIP(f(nullptr, bytes));
    void *tmp = nullptr;
    HIP(hipMalloc(&tmp, std::max<size_t>(bytes, 1)));
    HIP(f(tmp, bytes));
    HIP(hipDeviceSynchronize());
    HIP(hipFree(tmp));
}

template <class T>
static void expect(const char *alg, size_t n, const std::vector<T> &got, const std::vector<T> &want) {
    size_t bad = got.size() != want.size() ? 1 : 0, first = 0;
    for (size_t i = 0; !bad && i < want.size(); i++)
        if (got[i] != want[i]) { bad++; first = i; }
    char name[96];
    std::snprintf(name, sizeof name, "%s<int%zu> n=%zu", alg, 8 * sizeof(T), n);
    if (bad) {
        failures++;
        std::printf("FAIL %s: first difference at %zu (got %lld, want %lld), sizes %zu/%zu\n", name,
                    first, first < got.size() ? (long long)got[first] : 0LL,
                    first < want.size() ? (long long)want[first] : 0LL, got.size(), want.size());
    } else {
        passes++;
    }
}

template <class T> static T wrap_add(T a, T b) {
    using U = typename std::make_unsigned<T>::type;
    return (T)(U)((U)a + (U)b);
}

template <class T> struct plus_wrap {
    __host__ __device__ T operator()(T a, T b) const {
        using U = typename std::make_unsigned<T>::type;
        return (T)(U)((U)a + (U)b);
    }
};

template <class T> struct div3 {
    __host__ __device__ bool operator()(T v) const { return v % 3 == 0; }
};

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next() {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

template <class T> static void test_type(size_t n) {
    std::vector<T> in(n), keys(n);
    std::vector<uint8_t> flags(n);
    for (size_t i = 0; i < n; i++) {
        in[i] = (T)next();
        flags[i] = next() % 4 == 0;
    }
    // Keys in runs of 1..40 equal values (for the by-key algorithms and run-length encoding).
    for (size_t i = 0; i < n;) {
        size_t len = 1 + next() % 40;
        T k = (T)(next() % 50);
        for (size_t j = 0; j < len && i < n; j++) keys[i++] = k;
    }
    dev<T> d_in(in), d_keys(keys), d_out(n), d_out2(n);
    dev<uint8_t> d_flags(flags);
    dev<unsigned> d_count(1);
    plus_wrap<T> add;

    { // inclusive and exclusive scan
        std::vector<T> want(n), wante(n);
        T acc = 0;
        for (size_t i = 0; i < n; i++) { wante[i] = acc; acc = wrap_add(acc, in[i]); want[i] = acc; }
        run([&](void *t, size_t &b) { return rocprim::inclusive_scan(t, b, d_in.p, d_out.p, n, add); });
        expect("inclusive_scan", n, d_out.get(n), want);
        run([&](void *t, size_t &b) { return rocprim::exclusive_scan(t, b, d_in.p, d_out.p, T(0), n, add); });
        expect("exclusive_scan", n, d_out.get(n), wante);
    }
    { // inclusive scan by key
        std::vector<T> want(n);
        for (size_t i = 0; i < n; i++)
            want[i] = i && keys[i] == keys[i - 1] ? wrap_add(want[i - 1], in[i]) : in[i];
        run([&](void *t, size_t &b) {
            return rocprim::inclusive_scan_by_key(t, b, d_keys.p, d_in.p, d_out.p, n, add);
        });
        expect("inclusive_scan_by_key", n, d_out.get(n), want);
    }
    { // select by predicate and by flags, partition
        std::vector<T> want, wantf, wantp, rejected;
        for (size_t i = 0; i < n; i++) {
            if (in[i] % 3 == 0) want.push_back(in[i]); else rejected.push_back(in[i]);
            if (flags[i]) wantf.push_back(in[i]);
        }
        wantp = want;
        wantp.insert(wantp.end(), rejected.rbegin(), rejected.rend()); // rejected in reverse order
        run([&](void *t, size_t &b) { return rocprim::select(t, b, d_in.p, d_out.p, d_count.p, n, div3<T>()); });
        expect("select(predicate)", n, d_out.get(d_count.get(1)[0]), want);
        run([&](void *t, size_t &b) { return rocprim::select(t, b, d_in.p, d_flags.p, d_out.p, d_count.p, n); });
        expect("select(flags)", n, d_out.get(d_count.get(1)[0]), wantf);
        run([&](void *t, size_t &b) { return rocprim::partition(t, b, d_in.p, d_out.p, d_count.p, n, div3<T>()); });
        std::vector<T> got = d_out.get(n);
        if (d_count.get(1)[0] != want.size()) got.clear(); // a wrong count fails the comparison
        expect("partition", n, got, wantp);
    }
    { // unique, unique by key, run-length encode
        std::vector<T> uk, uv, rle_counts, nt_off, nt_cnt;
        for (size_t i = 0; i < n;) {
            size_t j = i;
            while (j < n && keys[j] == keys[i]) j++;
            uk.push_back(keys[i]);
            uv.push_back(in[i]);
            rle_counts.push_back((T)(j - i));
            if (j - i > 1) { nt_off.push_back((T)i); nt_cnt.push_back((T)(j - i)); }
            i = j;
        }
        run([&](void *t, size_t &b) { return rocprim::unique(t, b, d_keys.p, d_out.p, d_count.p, n); });
        expect("unique", n, d_out.get(d_count.get(1)[0]), uk);
        run([&](void *t, size_t &b) {
            return rocprim::unique_by_key(t, b, d_keys.p, d_in.p, d_out.p, d_out2.p, d_count.p, n);
        });
        unsigned m = d_count.get(1)[0];
        expect("unique_by_key(keys)", n, d_out.get(m), uk);
        expect("unique_by_key(values)", n, d_out2.get(m), uv);
        if (sizeof(T) >= 4 || n < 100) { // counts and offsets must fit in T
            run([&](void *t, size_t &b) {
                return rocprim::run_length_encode(t, b, d_keys.p, (unsigned)n, d_out.p, d_out2.p, d_count.p);
            });
            m = d_count.get(1)[0];
            expect("run_length_encode(values)", n, d_out.get(m), uk);
            expect("run_length_encode(counts)", n, d_out2.get(m), rle_counts);
            run([&](void *t, size_t &b) {
                return rocprim::run_length_encode_non_trivial_runs(t, b, d_keys.p, (unsigned)n, d_out.p,
                                                                   d_out2.p, d_count.p);
            });
            m = d_count.get(1)[0];
            expect("run_length_encode_non_trivial_runs(offsets)", n, d_out.get(m), nt_off);
            expect("run_length_encode_non_trivial_runs(counts)", n, d_out2.get(m), nt_cnt);
        }
    }
    { // reduce, reduce by key
        T sum = 0;
        for (size_t i = 0; i < n; i++) sum = wrap_add(sum, in[i]);
        run([&](void *t, size_t &b) { return rocprim::reduce(t, b, d_in.p, d_out.p, n, add); });
        expect("reduce", n, d_out.get(1), std::vector<T>{ sum });
        std::vector<T> uk, agg;
        for (size_t i = 0; i < n; i++) {
            if (!i || keys[i] != keys[i - 1]) { uk.push_back(keys[i]); agg.push_back(in[i]); }
            else agg.back() = wrap_add(agg.back(), in[i]);
        }
        run([&](void *t, size_t &b) {
            return rocprim::reduce_by_key(t, b, d_keys.p, d_in.p, (unsigned)n, d_out.p, d_out2.p, d_count.p, add);
        });
        unsigned m = d_count.get(1)[0];
        expect("reduce_by_key(keys)", n, d_out.get(m), uk);
        expect("reduce_by_key(values)", n, d_out2.get(m), agg);
    }
    { // radix sort (keys; pairs: stable), merge sort
        std::vector<T> sk = in;
        std::sort(sk.begin(), sk.end());
        run([&](void *t, size_t &b) { return rocprim::radix_sort_keys(t, b, d_in.p, d_out.p, n); });
        expect("radix_sort_keys", n, d_out.get(n), sk);
        std::vector<std::pair<T, size_t>> pairs(n);
        std::vector<T> idx(n);
        for (size_t i = 0; i < n; i++) { pairs[i] = { keys[i], i }; idx[i] = (T)i; }
        std::stable_sort(pairs.begin(), pairs.end(),
                         [](const auto &a, const auto &b) { return a.first < b.first; });
        std::vector<T> wk(n), wv(n);
        for (size_t i = 0; i < n; i++) { wk[i] = pairs[i].first; wv[i] = (T)pairs[i].second; }
        dev<T> d_idx(idx);
        run([&](void *t, size_t &b) {
            return rocprim::radix_sort_pairs(t, b, d_keys.p, d_out.p, d_idx.p, d_out2.p, n);
        });
        expect("radix_sort_pairs(keys)", n, d_out.get(n), wk);
        expect("radix_sort_pairs(values)", n, d_out2.get(n), wv);
        run([&](void *t, size_t &b) { return rocprim::merge_sort(t, b, d_in.p, d_out.p, n); });
        expect("merge_sort", n, d_out.get(n), sk);
    }
}

int main(int argc, char **argv) {
    size_t max = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (1u << 20);
    for (size_t n : { size_t(1), size_t(1000), size_t(100003), max }) {
        if (n > max) continue;
        test_type<int8_t>(n);
        test_type<int16_t>(n);
        test_type<int32_t>(n);
        test_type<int64_t>(n);
    }
    std::printf("%s: %d passed, %d failed\n", failures ? "FAIL" : "PASS", passes, failures);
    return failures ? 1 : 0;
}
