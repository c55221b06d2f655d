// hipLaunchCooperativeKernelMultiDevice over every GPU (run with SOFTHSA_GPUS=2): each grid
// stamps its blocks in shared host memory, multi-grid sync (HIP's __ockl_multi_grid_sync: a
// grid sync, then block 0 of each grid meets the others through a global counter with s_sleep
// polling, then a grid sync), then every block checks that every block of every grid stamped
// this round. The grids' ranks and count come from the multi-grid group.
#include "hip_check.h"  // hip_runtime.h must come before the cooperative groups header
#include <hip/hip_cooperative_groups.h>
#include <vector>

namespace cg = cooperative_groups;

__global__ void multi_rounds(unsigned* stamps, unsigned* errors, unsigned* ranks, int rounds) {
  cg::multi_grid_group mg = cg::this_multi_grid();
  unsigned rank = mg.grid_rank(), grids = mg.num_grids(), blocks = gridDim.x;
  if (blockIdx.x == 0 && threadIdx.x == 0) ranks[rank] = grids * 100 + rank;
  for (int r = 1; r <= rounds; r++) {
    if (threadIdx.x == 0) atomicExch(&stamps[rank * blocks + blockIdx.x], (unsigned)r);
    mg.sync();
    if (threadIdx.x == 0)
      for (unsigned i = 0; i < grids * blocks; i++)
        if (atomicAdd(&stamps[i], 0u) != (unsigned)r) atomicAdd(errors, 1u);
    mg.sync();
  }
}

int main() {
  int devices = 0;
  HIP_CHECK(hipGetDeviceCount(&devices));
  EXPECT(devices >= 2, "%d devices: run with SOFTHSA_GPUS=2", devices);
  if (devices < 2) return finish("cooperative_multi_device");
  const int grids = 2, blocks = 24, threads = 128, rounds = 4;
  unsigned *stamps, *errors, *ranks;
  HIP_CHECK(hipHostMalloc(&stamps, grids * blocks * sizeof(unsigned)));
  HIP_CHECK(hipHostMalloc(&errors, sizeof(unsigned)));
  HIP_CHECK(hipHostMalloc(&ranks, grids * sizeof(unsigned)));
  memset(stamps, 0, grids * blocks * sizeof(unsigned));
  *errors = 0;
  int r = rounds;
  void* args[] = {&stamps, &errors, &ranks, &r};
  hipLaunchParams params[grids];
  hipStream_t streams[grids];
  for (int d = 0; d < grids; d++) {
    HIP_CHECK(hipSetDevice(d));
    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDeviceProperties(&prop, d));
    EXPECT(prop.cooperativeMultiDeviceLaunch == 1, "device %d: cooperativeMultiDeviceLaunch %d",
           d, prop.cooperativeMultiDeviceLaunch);
    HIP_CHECK(hipStreamCreate(&streams[d]));
    params[d].func = (void*)multi_rounds;
    params[d].gridDim = dim3(blocks);
    params[d].blockDim = dim3(threads);
    params[d].args = args;
    params[d].sharedMem = 0;
    params[d].stream = streams[d];
  }
  HIP_CHECK(hipLaunchCooperativeKernelMultiDevice(params, grids, 0));
  for (int d = 0; d < grids; d++) {
    HIP_CHECK(hipSetDevice(d));
    HIP_CHECK(hipStreamSynchronize(streams[d]));
  }
  EXPECT(*errors == 0, "%u stale stamps seen after a multi-grid sync", *errors);
  for (int i = 0; i < grids * blocks; i++)
    EXPECT(stamps[i] == (unsigned)rounds, "stamps[%d] = %u", i, stamps[i]);
  for (int g = 0; g < grids; g++)
    EXPECT(ranks[g] == (unsigned)(grids * 100 + g), "grid %d reported %u", g, ranks[g]);
  for (int d = 0; d < grids; d++) HIP_CHECK(hipStreamDestroy(streams[d]));
  HIP_CHECK(hipHostFree(stamps));
  HIP_CHECK(hipHostFree(errors));
  HIP_CHECK(hipHostFree(ranks));
  return finish("cooperative_multi_device");
}
