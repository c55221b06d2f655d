// Kernels of the concurrency tests (tests/c/concurrency): they synchronize across work-groups,
// dispatches, queues and agents through global memory and the global wave sync barrier, so
// each finishes only if the scheduler lets every participant make progress. Indexing comes
// from the AQL packet (no hidden arguments), so they build with -nogpulib at any code object
// version.

static uint wg_size(void) {
    return ((const __constant ushort *)__builtin_amdgcn_dispatch_ptr())[2];
}

// Work-groups of the 1-D grid (grid_size_x is at byte 12 of the packet).
static uint wg_count(void) {
    uint grid = ((const __constant uint *)__builtin_amdgcn_dispatch_ptr())[3];
    return (grid + wg_size() - 1) / wg_size();
}

static uint lid(void) { return __builtin_amdgcn_workitem_id_x(); }
static uint wgid(void) { return __builtin_amdgcn_workgroup_id_x(); }
static uint gid(void) { return wgid() * wg_size() + lid(); }

static uint load_acquire(__global uint *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static void store_release(__global uint *p, uint v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }

// Waits until *p != 0: with s_sleep between polls, or a pure spin.
static void wait_nonzero(__global uint *p, uint sleep) {
    while (load_acquire(p) == 0) {
        if (sleep)
            __builtin_amdgcn_s_sleep(1);
    }
}

// Sets the global wave sync barrier of this queue for `n` arrivals, as ROCclr's
// __amd_rocclr_gwsInit does before a cooperative launch.
__kernel void gws_init(uint n) { __builtin_amdgcn_ds_gws_init(n - 1, 0); }

// A grid-wide barrier the way HIP's __ockl_grid_sync builds it: one wave per work-group
// arrives at the GWS barrier, the others wait at s_barrier.
static void grid_sync(void) {
    __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
    __builtin_amdgcn_s_barrier();
    if (lid() == 0)
        __builtin_amdgcn_ds_gws_barrier(wg_count() - 1, 0);
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
}

// `rounds` rounds of: every work-item stores a value, grid sync, reads the value another
// work-group stored this round, grid sync. out[i] is the sum of what work-item i read.
__kernel void grid_rounds(__global uint *slots, __global uint *out, uint rounds) {
    uint total = wg_count() * wg_size(), g = gid();
    uint other = (g + 3 * wg_size() + 1) % total;
    uint acc = 0;
    for (uint r = 0; r < rounds; r++) {
        slots[g] = r * 7919u + g;
        grid_sync();
        acc += ((volatile __global uint *)slots)[other] ^ r;
        grid_sync();
    }
    out[g] = acc;
}

// Every work-group's first work-item takes a global spin lock `iters` times and increments a
// plain (non-atomic) counter inside it: the count is exact only with mutual exclusion.
__kernel void spin_lock(__global uint *lock, __global uint *counter, uint iters, uint sleep) {
    if (lid() != 0)
        return;
    for (uint i = 0; i < iters; i++) {
        while (__atomic_exchange_n(lock, 1u, __ATOMIC_ACQUIRE) != 0) {
            if (sleep)
                __builtin_amdgcn_s_sleep(1);
        }
        volatile __global uint *c = counter;
        *c = *c + 1;
        store_release(lock, 0);
    }
}

// Work-group k waits for work-group k + 1's flag before setting its own: the last work-group
// must run first, so the first ones (started first) wait for work-groups not started yet.
__kernel void chain(__global uint *flags, uint sleep) {
    uint k = wgid();
    if (lid() != 0)
        return;
    if (k + 1 < wg_count())
        wait_nonzero(&flags[k + 1], sleep);
    store_release(&flags[k], k + 1);
}

// Waits until *flag != 0, then stores `value` to *out (every work-group's first work-item).
__kernel void wait_flag(__global uint *flag, __global uint *out, uint value, uint sleep) {
    if (lid() != 0)
        return;
    wait_nonzero(flag, sleep);
    store_release(out, value);
}

// OpenCL's barrier(CLK_LOCAL_MEM_FENCE), as the compiler lowers it.
static void wg_barrier(void) {
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

// Waits until *flag != 0 with the whole work-group meeting at barriers between its looks (no
// s_sleep: every round ends with all waves at the barrier), then stores `value` to *out.
__kernel void wait_flag_barrier(__global uint *flag, __global uint *out, uint value) {
    __local uint seen;
    for (;;) {
        if (lid() == 0)
            seen = load_acquire(flag);
        wg_barrier();
        if (seen)
            break;
        wg_barrier();
    }
    if (lid() == 0)
        store_release(out, value);
}

// Stores `value` to *out.
__kernel void store_value(__global uint *out, uint value) {
    if (gid() == 0)
        store_release(out, value);
}

// One grid of a multi-grid launch (grid `grid` of `grids`, each on its own agent): `rounds`
// rounds of stamping, a multi-grid sync, then checking that every work-group of every grid
// stamped this round (errors counted in *errors), and a second multi-grid sync. The multi-grid
// sync is HIP's __ockl_multi_grid_sync: a grid sync, then work-group 0 of each grid adds
// itself to a shared counter and spins with s_sleep until every grid has, then a grid sync.
__kernel void multi_grid(__global uint *stamps, __global uint *counter, __global uint *errors,
                         uint grid, uint grids, uint rounds) {
    uint n = wg_count(), k = wgid();
    uint syncs = 0;
    for (uint r = 1; r <= rounds; r++) {
        for (uint pass = 0; pass < 2; pass++) {
            if (pass == 0 && lid() == 0)
                store_release(&stamps[grid * n + k], r);
            grid_sync();
            syncs++;
            if (k == 0 && lid() == 0) {
                __atomic_fetch_add(counter, 1u, __ATOMIC_ACQ_REL);
                while (load_acquire(counter) < grids * syncs)
                    __builtin_amdgcn_s_sleep(2);
            }
            grid_sync();
            if (pass == 0 && lid() == 0) {
                for (uint i = 0; i < grids * n; i++)
                    if (load_acquire(&stamps[i]) != r)
                        __atomic_fetch_add(errors, 1u, __ATOMIC_RELAXED);
            }
        }
    }
}

// `iters` rounds of an integer hash per work-item (a kernel that takes a while).
__kernel void busy(__global uint *out, uint iters) {
    uint x = gid() * 2654435761u + 1;
    for (uint k = 0; k < iters; k++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x += k;
    }
    out[gid()] = x;
}

// buf[i] += 1 for every work-item: in a chain of these with the barrier bit the count is exact
// only if no two of them overlap.
__kernel void add_one(__global uint *buf) {
    volatile __global uint *p = &buf[gid()];
    *p = *p + 1;
}
