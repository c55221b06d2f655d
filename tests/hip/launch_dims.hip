// Launches in 1, 2 and 3 dimensions with partial edge blocks: every work-item records its
// built-in ids, the host recomputes them all.
#include <vector>
#include "hip_check.h"

struct Ids {
  unsigned tx, ty, tz, bx, by, bz, dx, dy, dz, gx, gy, gz;
};

__global__ void record(Ids* out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= nx || y >= ny || z >= nz) return;
  Ids& r = out[(z * ny + y) * nx + x];
  r.tx = threadIdx.x; r.ty = threadIdx.y; r.tz = threadIdx.z;
  r.bx = blockIdx.x; r.by = blockIdx.y; r.bz = blockIdx.z;
  r.dx = blockDim.x; r.dy = blockDim.y; r.dz = blockDim.z;
  r.gx = gridDim.x; r.gy = gridDim.y; r.gz = gridDim.z;
}

static void run(dim3 grid, dim3 block, int nx, int ny, int nz) {
  size_t n = (size_t)nx * ny * nz;
  Ids* d;
  HIP_CHECK(hipMalloc(&d, n * sizeof(Ids)));
  HIP_CHECK(hipMemset(d, 0xff, n * sizeof(Ids)));
  hipLaunchKernelGGL(record, grid, block, 0, 0, d, nx, ny, nz);
  HIP_CHECK(hipGetLastError());
  std::vector<Ids> h(n);
  HIP_CHECK(hipMemcpy(h.data(), d, n * sizeof(Ids), hipMemcpyDeviceToHost));
  int bad = 0;
  for (int z = 0; z < nz; z++)
    for (int y = 0; y < ny; y++)
      for (int x = 0; x < nx; x++) {
        const Ids& r = h[((size_t)z * ny + y) * nx + x];
        Ids w = {x % block.x, y % block.y, z % block.z, x / block.x, y / block.y, z / block.z,
                 block.x, block.y, block.z, grid.x, grid.y, grid.z};
        if (memcmp(&r, &w, sizeof w) != 0 && bad++ < 3)
          fprintf(stderr,
                  "grid (%u,%u,%u) block (%u,%u,%u): item (%d,%d,%d) saw tid (%u,%u,%u) "
                  "bid (%u,%u,%u) bdim (%u,%u,%u) gdim (%u,%u,%u)\n",
                  grid.x, grid.y, grid.z, block.x, block.y, block.z, x, y, z, r.tx, r.ty, r.tz,
                  r.bx, r.by, r.bz, r.dx, r.dy, r.dz, r.gx, r.gy, r.gz);
      }
  if (bad) g_failures++;
  HIP_CHECK(hipFree(d));
}

int main() {
  run(dim3(1), dim3(1), 1, 1, 1);
  run(dim3(10), dim3(100), 999, 1, 1);
  run(dim3(3), dim3(1024), 3000, 1, 1);
  run(dim3(5, 7), dim3(16, 16), 70, 100, 1);
  run(dim3(2, 3), dim3(64, 4), 128, 10, 1);
  run(dim3(3, 4, 5), dim3(8, 4, 2), 20, 13, 9);
  run(dim3(2, 2, 17), dim3(4, 4, 4), 8, 7, 65);
  run(dim3(1, 1, 3), dim3(1, 1, 64), 1, 1, 150);
  return finish("launch_dims");
}
