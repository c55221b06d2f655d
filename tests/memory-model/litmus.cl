/* Memory-model litmus kernels (OpenCL C 2.0 atomics), run by litmus.c.
 *
 * Every kernel runs `iters` iterations; in iteration i each party (a work-group of one wave, or a
 * host thread running the same role in C11 atomics) plays its role on 64 independent instances,
 * one per lane: locations x[lane], y[lane]. Stored values grow with i (v = i + 1), so a load
 * "sees the new value" when it reads >= v, and the locations never need resetting. All parties
 * meet at a counter barrier before each iteration so that their accesses really overlap.
 * Each party writes its observation bits per (role, iteration, lane) to `out`; litmus.c
 * classifies them, counts every outcome and fails on a forbidden one.
 *
 * SCOPE is the device scope (work-groups of one dispatch) or the all-SVM-devices (system) scope
 * (agents and host), chosen at compile time. */

#ifndef SCOPE
#define SCOPE __OPENCL_MEMORY_SCOPE_DEVICE
#endif

/* Clang's OpenCL atomic builtins lower straight to LLVM atomics (no device library needed). */
#define RLX __ATOMIC_RELAXED
#define ACQ __ATOMIC_ACQUIRE
#define REL __ATOMIC_RELEASE
#define SC __ATOMIC_SEQ_CST

typedef global atomic_uint *loc_t;

/* A party gives up waiting after this many polls (a party that is not scheduled must not hang
 * the test; litmus.c reports how many waits timed out). */
#define SPIN_LIMIT (1u << 20)

static uint lane_id(void) { return __builtin_amdgcn_workitem_id_x(); }

/* The parties' meeting number `round` (counted from 0): each adds 1 to the counter, then waits
 * until all parties of every meeting so far have arrived. */
static void meet(loc_t sync, global uint *timeouts, uint parties, uint round) {
    if (lane_id() == 0) {
        __opencl_atomic_fetch_add(sync, 1u, __ATOMIC_ACQ_REL, SCOPE);
        uint target = parties * (round + 1);
        uint spins = 0;
        while (__opencl_atomic_load(sync, ACQ, SCOPE) < target) {
            if (++spins == SPIN_LIMIT) {
                __opencl_atomic_fetch_add((global atomic_uint *)timeouts, 1u, RLX, SCOPE);
                break;
            }
        }
    }
}

#define ld(p, o) __opencl_atomic_load(p, o, SCOPE)
#define st(p, v, o) __opencl_atomic_store(p, v, o, SCOPE)

/* role = role_base + group id * role_stride; out[(role * iters + i) * 64 + lane]. */
#define LITMUS_KERNEL(name, ...)                                                               \
    kernel void name(loc_t x, loc_t y, loc_t sync, global uint *out, global uint *timeouts,    \
                     uint iters, uint parties, uint role_base, uint role_stride) {             \
        uint role = role_base + __builtin_amdgcn_workgroup_id_x() * role_stride;               \
        uint l = lane_id();                                                                     \
        loc_t px = x + l, py = y + l;                                                           \
        uint m = 0; /* meetings so far */                                                       \
        for (uint i = 0; i < iters; i++) {                                                      \
            uint v = i + 1, r = 0;                                                              \
            meet(sync, timeouts, parties, m++);                                                 \
            __VA_ARGS__                                                                         \
            out[(role * iters + i) * 64 + l] = r;                                               \
        }                                                                                       \
    }

/* Message passing: data relaxed, flag release / flag acquire, data relaxed.
 * Forbidden: role 1 sees the flag new and the data old. */
LITMUS_KERNEL(litmus_mp,
    if (role == 0) { st(px, v, RLX); st(py, v, REL); }
    else { uint f = ld(py, ACQ); uint d = ld(px, RLX); r = (f >= v) | (d >= v) << 1; })

/* Store buffering, seq_cst: forbidden that both loads miss the other party's store. */
LITMUS_KERNEL(litmus_sb,
    if (role == 0) { st(px, v, SC); r = ld(py, SC) >= v; }
    else { st(py, v, SC); r = ld(px, SC) >= v; })

/* Load buffering, acquire loads and release stores: forbidden that both loads see the store
 * made after the other load. */
LITMUS_KERNEL(litmus_lb,
    if (role == 0) { r = ld(px, ACQ) >= v; st(py, v, REL); }
    else { r = ld(py, ACQ) >= v; st(px, v, REL); })

/* 2+2W, seq_cst: A = 2v, B = 2v + 1; role 0 stores x=A, y=B, role 1 y=A, x=B. After a second
 * meeting role 0 reads the final values: forbidden x == A and y == A. */
LITMUS_KERNEL(litmus_2p2w,
    uint a = 2 * v, b = 2 * v + 1;
    if (role == 0) { st(px, a, SC); st(py, b, SC); }
    else { st(py, a, SC); st(px, b, SC); }
    meet(sync, timeouts, parties, m++);
    if (role == 0) r = (ld(px, SC) == a) | (ld(py, SC) == a) << 1;)

/* Read-read coherence, relaxed: role 0 stores, role 1 loads twice; forbidden that the second
 * load returns an older value than the first (bit 2). */
LITMUS_KERNEL(litmus_corr,
    if (role == 0) { st(px, v, RLX); }
    else { uint a = ld(px, RLX); uint b = ld(px, RLX); r = (a >= v) | (b >= v) << 1 | (b < a) << 2; })

/* IRIW, seq_cst: roles 0 and 1 store x and y; role 2 reads x then y, role 3 y then x.
 * Forbidden: the readers disagree on the order of the two stores. */
LITMUS_KERNEL(litmus_iriw,
    if (role == 0) { st(px, v, SC); }
    else if (role == 1) { st(py, v, SC); }
    else if (role == 2) { uint a = ld(px, SC); uint b = ld(py, SC); r = (a >= v) | (b >= v) << 1; }
    else { uint a = ld(py, SC); uint b = ld(px, SC); r = (a >= v) | (b >= v) << 1; })

/* Single-copy atomicity of aligned 64-bit words (what LLVM's 64-bit atomic loads and stores
 * compile to: plain dwordx2 accesses): role 0 stores {v, v} as one 64-bit relaxed store, role 1
 * loads the word twice; forbidden that a load returns two different halves (a torn word). */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
LITMUS_KERNEL(litmus_atom64,
    global atomic_ulong *w = (global atomic_ulong *)x + l;
    if (role == 0) { __opencl_atomic_store(w, (ulong)v << 32 | v, RLX, SCOPE); }
    else {
        ulong a = __opencl_atomic_load(w, RLX, SCOPE), b = __opencl_atomic_load(w, RLX, SCOPE);
        r = ((uint)a >= v) | ((uint)b >= v) << 1 | ((uint)a != (uint)(a >> 32) || (uint)b != (uint)(b >> 32)) << 2;
    })
