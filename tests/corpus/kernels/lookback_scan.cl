// Decoupled look-back (single pass, as rocPRIM and CUB do it): an inclusive scan and a stream
// compaction, where each work-group publishes its aggregate in a per-tile state word and its
// successors poll the states of earlier tiles. The state is either a packed flag+value word
// (32- or 64-bit, relying on single-copy atomicity of the word) or a flag array plus a value
// array ordered by release/acquire fences. Tiles get ordered ids from an atomic counter, so a
// tile only waits for tiles that started before it.
#include "corpus.h"

#define WG 256
#define ITEMS 4
#define TILE (WG * ITEMS)

#define EMPTY 0u
#define PARTIAL 1u
#define COMPLETE 2u

#if defined(__AMDGCN__) && !defined(CORPUS_OPENCL)
#define LD32(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define ST32(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define LD64(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define ST64(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define TICKET(p) __atomic_fetch_add((p), 1u, __ATOMIC_RELAXED)
#define FENCE_REL() __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent")
#define FENCE_ACQ() __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent")
#define BACKOFF() __builtin_amdgcn_s_sleep(1)
#else
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define A32(p) ((volatile __global atomic_uint *)(p))
#define A64(p) ((volatile __global atomic_ulong *)(p))
#define LD32(p) atomic_load_explicit(A32(p), memory_order_relaxed, memory_scope_device)
#define ST32(p, v) atomic_store_explicit(A32(p), (v), memory_order_relaxed, memory_scope_device)
#define LD64(p) atomic_load_explicit(A64(p), memory_order_relaxed, memory_scope_device)
#define ST64(p, v) atomic_store_explicit(A64(p), (v), memory_order_relaxed, memory_scope_device)
#define TICKET(p) atomic_fetch_add_explicit(A32(p), 1u, memory_order_relaxed, memory_scope_device)
#define FENCE_REL() atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device)
#define FENCE_ACQ() atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_device)
#define BACKOFF() ((void)0)
#endif

// ---- tile state: publish(tile, flag, value) and wait(tile, &flag) -> value ----

// Packed 32-bit word: value << 2 | flag (values of up to 30 bits).
#define STATE_P32(T)                                                                        \
    static void pub_p32_##T(__global uint *st, uint t, uint f, T v) {                        \
        ST32(&st[t], (uint)v << 2 | f);                                                      \
    }                                                                                        \
    static T wait_p32_##T(__global uint *st, uint t, uint *f) {                              \
        uint w;                                                                              \
        while (((w = LD32(&st[t])) & 3) == EMPTY)                                            \
            BACKOFF();                                                                       \
        *f = w & 3;                                                                          \
        return (T)(w >> 2);                                                                  \
    }
// Packed 64-bit word: value << 32 | flag.
#define STATE_P64(T)                                                                        \
    static void pub_p64_##T(__global ulong *st, uint t, uint f, T v) {                       \
        ST64(&st[t], (ulong)v << 32 | f);                                                    \
    }                                                                                        \
    static T wait_p64_##T(__global ulong *st, uint t, uint *f) {                             \
        ulong w;                                                                             \
        while (((w = LD64(&st[t])) & 3) == EMPTY)                                            \
            BACKOFF();                                                                       \
        *f = (uint)w & 3;                                                                    \
        return (T)(w >> 32);                                                                 \
    }
// Split: flags[t] after the value, ordered by fences (values of any type). Partial and
// complete values live in separate arrays, as in rocPRIM: a reader that saw PARTIAL must not
// read the inclusive value the tile may be publishing meanwhile.
#define STATE_SPLIT(T)                                                                      \
    static __global T *vals_##T(__global uint *st, uint f) {                                 \
        return (__global T *)(st + (1u << 20)) + (f == COMPLETE ? 1u << 20 : 0);             \
    }                                                                                        \
    static void pub_split_##T(__global uint *st, uint t, uint f, T v) {                      \
        vals_##T(st, f)[t] = v;                                                              \
        FENCE_REL();                                                                         \
        ST32(&st[t], f);                                                                     \
    }                                                                                        \
    static T wait_split_##T(__global uint *st, uint t, uint *f) {                            \
        uint w;                                                                              \
        while ((w = LD32(&st[t])) == EMPTY)                                                  \
            BACKOFF();                                                                       \
        FENCE_ACQ();                                                                         \
        *f = w;                                                                              \
        return ((__global volatile T *)vals_##T(st, w))[t];                                  \
    }

typedef uint4 u128;
#define ADD(a, b) ((a) + (b))

STATE_P32(uchar)
STATE_P32(ushort)
STATE_P64(uchar)
STATE_P64(ushort)
STATE_P64(uint)
STATE_SPLIT(uchar)
STATE_SPLIT(ushort)
STATE_SPLIT(uint)
STATE_SPLIT(ulong)
STATE_SPLIT(u128)

// The work-group's exclusive prefix from the look-back (work-item 0 runs it; `total` is the
// tile's aggregate), published for the tile's successors.
#define LOOKBACK(T, S, stype, st, tile, total, zero)                                        \
    ({                                                                                       \
        T prefix_ = zero;                                                                    \
        if ((tile) == 0) {                                                                   \
            pub_##S##_##T((stype)(st), 0, COMPLETE, (total));                                \
        } else {                                                                             \
            pub_##S##_##T((stype)(st), (tile), PARTIAL, (total));                            \
            for (uint j = (tile) - 1;; j--) {                                                \
                uint f_;                                                                     \
                T v_ = wait_##S##_##T((stype)(st), j, &f_);                                  \
                prefix_ = ADD(v_, prefix_);                                                  \
                if (f_ == COMPLETE)                                                          \
                    break;                                                                   \
            }                                                                                \
            pub_##S##_##T((stype)(st), (tile), COMPLETE, ADD(prefix_, (total)));             \
        }                                                                                    \
        prefix_;                                                                             \
    })

// Inclusive scan (wrapping addition; u128 adds four independent 32-bit lanes) of n elements.
#define SCAN(T, S, stype, zero)                                                             \
    __kernel void scan_##T##_##S(__global const T *in, __global T *out, uint n,              \
                                 __global uint *counter, __global uint *st) {                \
        __local T sums[WG];                                                                  \
        __local uint tile_sh;                                                                \
        __local T prefix_sh;                                                                 \
        uint l = c_lid(0);                                                                   \
        if (l == 0)                                                                          \
            tile_sh = TICKET(counter);                                                       \
        c_barrier();                                                                         \
        uint tile = tile_sh;                                                                 \
        ulong base = (ulong)tile * TILE + l * ITEMS;                                         \
        T v[ITEMS], acc = zero;                                                              \
        for (uint k = 0; k < ITEMS; k++) {                                                   \
            acc = ADD(acc, base + k < n ? in[base + k] : zero);                              \
            v[k] = acc;                                                                      \
        }                                                                                    \
        sums[l] = acc;                                                                       \
        c_barrier();                                                                         \
        for (uint off = 1; off < WG; off <<= 1) {                                            \
            T t = l >= off ? sums[l - off] : zero;                                           \
            c_barrier();                                                                     \
            sums[l] = ADD(sums[l], t);                                                       \
            c_barrier();                                                                     \
        }                                                                                    \
        if (l == 0)                                                                          \
            prefix_sh = LOOKBACK(T, S, stype, st, tile, sums[WG - 1], zero);                 \
        c_barrier();                                                                         \
        T pre = ADD(prefix_sh, l ? sums[l - 1] : zero);                                      \
        for (uint k = 0; k < ITEMS; k++)                                                     \
            if (base + k < n)                                                                \
                out[base + k] = ADD(pre, v[k]);                                              \
    }

SCAN(uchar, p32, __global uint *, 0)
SCAN(uchar, p64, __global ulong *, 0)
SCAN(uchar, split, __global uint *, 0)
SCAN(ushort, p32, __global uint *, 0)
SCAN(ushort, p64, __global ulong *, 0)
SCAN(ushort, split, __global uint *, 0)
SCAN(uint, p64, __global ulong *, 0)
SCAN(uint, split, __global uint *, 0)
SCAN(ulong, split, __global uint *, 0)
SCAN(u128, split, __global uint *, (u128)(0))

// Stream compaction: keeps the elements whose low 32 bits are a multiple of 3, in order;
// *count gets how many. Counts are uints, published packed in 32 or 64 bits.
#define SELECT(T, S, stype, lo)                                                             \
    __kernel void select_##T##_##S(__global const T *in, __global T *out, uint n,            \
                                   __global uint *counter, __global uint *st,                \
                                   __global uint *count) {                                   \
        __local uint sums[WG];                                                               \
        __local uint tile_sh, prefix_sh;                                                     \
        uint l = c_lid(0);                                                                   \
        if (l == 0)                                                                          \
            tile_sh = TICKET(counter);                                                       \
        c_barrier();                                                                         \
        uint tile = tile_sh;                                                                 \
        ulong base = (ulong)tile * TILE + l * ITEMS;                                         \
        uint keep = 0, mine = 0;                                                             \
        for (uint k = 0; k < ITEMS; k++) {                                                   \
            if (base + k < n && lo(in[base + k]) % 3 == 0) {                                 \
                keep |= 1u << k;                                                             \
                mine++;                                                                      \
            }                                                                                \
        }                                                                                    \
        sums[l] = mine;                                                                      \
        c_barrier();                                                                         \
        for (uint off = 1; off < WG; off <<= 1) {                                            \
            uint t = l >= off ? sums[l - off] : 0;                                           \
            c_barrier();                                                                     \
            sums[l] += t;                                                                    \
            c_barrier();                                                                     \
        }                                                                                    \
        if (l == 0)                                                                          \
            prefix_sh = LOOKBACK(uint, S, stype, st, tile, sums[WG - 1], 0);                 \
        c_barrier();                                                                         \
        uint at = prefix_sh + sums[l] - mine;                                                \
        for (uint k = 0; k < ITEMS; k++)                                                     \
            if (keep >> k & 1)                                                               \
                out[at++] = in[base + k];                                                    \
        if (base < n && n - base <= ITEMS)                                                   \
            *count = at;                                                                     \
    }

STATE_P32(uint)
#define LO_SCALAR(e) ((uint)(e))
#define LO_VEC(e) ((e).x)
SELECT(uchar, p64, __global ulong *, LO_SCALAR)
SELECT(ushort, p64, __global ulong *, LO_SCALAR)
SELECT(uint, p32, __global uint *, LO_SCALAR)
SELECT(uint, p64, __global ulong *, LO_SCALAR)
SELECT(ulong, p64, __global ulong *, LO_SCALAR)
SELECT(u128, p64, __global ulong *, LO_VEC)
