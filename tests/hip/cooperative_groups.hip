// Cooperative launches: hipLaunchCooperativeKernel with grid-wide sync (cooperative groups'
// grid.sync(), HIP's __ockl_grid_sync: the global wave sync barrier) across many more blocks
// than host cores; the device properties HIP derives from the agent; a normal launch's grid
// group is not valid; a launch larger than the device can hold is refused with
// hipErrorCooperativeLaunchTooLarge, one that just fits runs.
#include "hip_check.h"
#include <hip/hip_cooperative_groups.h>
#include <vector>

namespace cg = cooperative_groups;

// Each block stores the sum of its elements, grid sync, block 0 adds the partial sums, grid
// sync, every thread reads the total; then a second phase repeats it on the values
// shifted by the total (so stale partial sums of phase one would show).
__global__ void two_phase_sum(const unsigned* in, unsigned* partial, unsigned* out, int n) {
  cg::grid_group grid = cg::this_grid();
  __shared__ unsigned block_sum;
  unsigned total = 0;
  for (int phase = 0; phase < 2; phase++) {
    if (threadIdx.x == 0) block_sum = 0;
    __syncthreads();
    for (int i = grid.thread_rank(); i < n; i += grid.size())
      atomicAdd(&block_sum, in[i] + phase * total);
    __syncthreads();
    if (threadIdx.x == 0) partial[blockIdx.x] = block_sum;
    grid.sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
      unsigned s = 0;
      for (unsigned b = 0; b < gridDim.x; b++) s += partial[b];
      partial[gridDim.x] = s;
    }
    grid.sync();
    total = partial[gridDim.x];
    grid.sync();  // every block read it before the next phase overwrites the partials
  }
  out[grid.thread_rank()] = total;
}

__global__ void grid_validity(int* valid, unsigned long long* size) {
  cg::grid_group grid = cg::this_grid();
  if (grid.thread_rank() == 0) {
    *valid = grid.is_valid();
    *size = grid.size();
  }
}

__global__ void grid_sync_only(int* counter) {
  cg::this_grid().sync();
  if (threadIdx.x == 0) atomicAdd(counter, 1);
}

int main() {
  int dev = 0;
  hipDeviceProp_t prop;
  HIP_CHECK(hipGetDeviceProperties(&prop, dev));
  EXPECT(prop.cooperativeLaunch == 1, "cooperativeLaunch %d", prop.cooperativeLaunch);
  EXPECT(prop.cooperativeMultiDeviceLaunch == 1, "cooperativeMultiDeviceLaunch %d",
         prop.cooperativeMultiDeviceLaunch);
  int attr = 0;
  HIP_CHECK(hipDeviceGetAttribute(&attr, hipDeviceAttributeCooperativeLaunch, dev));
  EXPECT(attr == 1, "hipDeviceAttributeCooperativeLaunch %d", attr);

  // Grid sync across 4 blocks per CU: far more blocks than host cores.
  const int threads = 256;
  int per_cu = 0;
  HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu, two_phase_sum, threads, 0));
  EXPECT(per_cu >= 1, "blocks per CU %d", per_cu);
  const int blocks = prop.multiProcessorCount * (per_cu < 4 ? per_cu : 4);
  const int n = 1 << 18;
  std::vector<unsigned> h_in(n);
  unsigned want = 0;
  for (int i = 0; i < n; i++) {
    h_in[i] = (unsigned)(i * 2654435761u >> 20);
    want += h_in[i];
  }
  // Phase two adds `total` once per element: want2 = want + n * want.
  unsigned want2 = want + (unsigned)n * want;
  unsigned *in, *partial, *out;
  HIP_CHECK(hipMalloc(&in, n * sizeof(unsigned)));
  HIP_CHECK(hipMalloc(&partial, (blocks + 1) * sizeof(unsigned)));
  HIP_CHECK(hipMalloc(&out, blocks * threads * sizeof(unsigned)));
  HIP_CHECK(hipMemcpy(in, h_in.data(), n * sizeof(unsigned), hipMemcpyHostToDevice));
  int nn = n;
  void* args[] = {&in, &partial, &out, &nn};
  for (int rep = 0; rep < 3; rep++) {
    HIP_CHECK(hipMemset(out, 0, blocks * threads * sizeof(unsigned)));
    HIP_CHECK(hipLaunchCooperativeKernel((const void*)two_phase_sum, dim3(blocks), dim3(threads),
                                         args, 0, 0));
    HIP_CHECK(hipDeviceSynchronize());
    std::vector<unsigned> h_out(blocks * threads);
    HIP_CHECK(hipMemcpy(h_out.data(), out, h_out.size() * sizeof(unsigned),
                        hipMemcpyDeviceToHost));
    int bad = 0;
    for (size_t i = 0; i < h_out.size(); i++) bad += h_out[i] != want2;
    EXPECT(bad == 0, "rep %d: %d of %zu threads saw a wrong total (e.g. %u, want %u)", rep, bad,
           h_out.size(), h_out[0], want2);
  }

  // The grid group of a cooperative launch is valid and spans the grid; of a normal one not.
  int* valid;
  unsigned long long* size;
  HIP_CHECK(hipMallocManaged(&valid, sizeof(int)));
  HIP_CHECK(hipMallocManaged(&size, sizeof(unsigned long long)));
  void* vargs[] = {&valid, &size};
  HIP_CHECK(hipLaunchCooperativeKernel((const void*)grid_validity, dim3(6), dim3(64), vargs, 0, 0));
  HIP_CHECK(hipDeviceSynchronize());
  EXPECT(*valid == 1 && *size == 6 * 64, "cooperative: valid %d size %llu", *valid, *size);
  hipLaunchKernelGGL(grid_validity, dim3(2), dim3(64), 0, 0, valid, size);
  HIP_CHECK(hipDeviceSynchronize());
  EXPECT(*valid == 0, "normal launch: grid group valid %d", *valid);

  // As large as the device holds: runs. One block more: refused, as on hardware.
  int sync_per_cu = 0;
  HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&sync_per_cu, grid_sync_only, 64, 0));
  int max_blocks = sync_per_cu * prop.multiProcessorCount;
  int* counter;
  HIP_CHECK(hipMallocManaged(&counter, sizeof(int)));
  *counter = 0;
  void* sargs[] = {&counter};
  HIP_CHECK(hipLaunchCooperativeKernel((const void*)grid_sync_only, dim3(max_blocks), dim3(64),
                                       sargs, 0, 0));
  HIP_CHECK(hipDeviceSynchronize());
  EXPECT(*counter == max_blocks, "largest cooperative launch: %d of %d blocks", *counter,
         max_blocks);
  hipError_t e = hipLaunchCooperativeKernel((const void*)grid_sync_only, dim3(max_blocks + 1),
                                            dim3(64), sargs, 0, 0);
  EXPECT(e == hipErrorCooperativeLaunchTooLarge, "too large a launch: %s (%d)",
         hipGetErrorName(e), (int)e);
  (void)hipGetLastError();

  HIP_CHECK(hipFree(in));
  HIP_CHECK(hipFree(partial));
  HIP_CHECK(hipFree(out));
  HIP_CHECK(hipFree(valid));
  HIP_CHECK(hipFree(size));
  HIP_CHECK(hipFree(counter));
  return finish("cooperative_groups");
}
