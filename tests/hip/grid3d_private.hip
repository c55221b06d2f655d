// A 3-D grid whose work-items keep private arrays indexed by run-time values (so they live in
// scratch memory): a per-item histogram, a small sort, and a stencil over a 3-D volume.
#include <algorithm>
#include <vector>
#include "hip_check.h"

__global__ void private_work(const int* vol, int* out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= nx || y >= ny || z >= nz) return;
  int hist[16];
  int vals[27];
  for (int k = 0; k < 16; k++) hist[k] = 0;
  int cnt = 0;
  for (int dz = -1; dz <= 1; dz++)
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        int xx = x + dx, yy = y + dy, zz = z + dz;
        if (xx < 0 || yy < 0 || zz < 0 || xx >= nx || yy >= ny || zz >= nz) continue;
        int v = vol[(zz * ny + yy) * nx + xx];
        hist[v & 15]++;
        vals[cnt++] = v;
      }
  // Insertion sort of the neighbourhood; median and a histogram digest.
  for (int i = 1; i < cnt; i++) {
    int v = vals[i], j = i - 1;
    while (j >= 0 && vals[j] > v) {
      vals[j + 1] = vals[j];
      j--;
    }
    vals[j + 1] = v;
  }
  int digest = 0;
  for (int k = 0; k < 16; k++) digest = digest * 3 + hist[(k * 5 + x) & 15];
  int* o = out + ((z * ny + y) * nx + x) * 3;
  o[0] = vals[cnt / 2];
  o[1] = digest;
  o[2] = vals[(x + y + z) % cnt];
}

int main() {
  const int nx = 23, ny = 17, nz = 11;
  const int n = nx * ny * nz;
  std::vector<int> vol(n);
  for (int i = 0; i < n; i++) vol[i] = (int)((i * 2654435761u) >> 16) % 1000;
  int *dvol, *dout;
  HIP_CHECK(hipMalloc(&dvol, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, 3 * n * sizeof(int)));
  HIP_CHECK(hipMemcpy(dvol, vol.data(), n * sizeof(int), hipMemcpyHostToDevice));
  dim3 block(8, 4, 4);
  dim3 grid((nx + 7) / 8, (ny + 3) / 4, (nz + 3) / 4);
  private_work<<<grid, block>>>(dvol, dout, nx, ny, nz);
  HIP_CHECK(hipGetLastError());
  std::vector<int> out(3 * n), want(3 * n);
  HIP_CHECK(hipMemcpy(out.data(), dout, out.size() * sizeof(int), hipMemcpyDeviceToHost));
  for (int z = 0; z < nz; z++)
    for (int y = 0; y < ny; y++)
      for (int x = 0; x < nx; x++) {
        std::vector<int> vals;
        int hist[16] = {0};
        for (int dz = -1; dz <= 1; dz++)
          for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
              int xx = x + dx, yy = y + dy, zz = z + dz;
              if (xx < 0 || yy < 0 || zz < 0 || xx >= nx || yy >= ny || zz >= nz) continue;
              int v = vol[(zz * ny + yy) * nx + xx];
              hist[v & 15]++;
              vals.push_back(v);
            }
        std::sort(vals.begin(), vals.end());
        int digest = 0;
        for (int k = 0; k < 16; k++) digest = digest * 3 + hist[(k * 5 + x) & 15];
        int* w = &want[((z * ny + y) * nx + x) * 3];
        w[0] = vals[vals.size() / 2];
        w[1] = digest;
        w[2] = vals[(x + y + z) % vals.size()];
      }
  expect_equal("3-D private arrays", out.data(), want.data(), 3 * n);
  HIP_CHECK(hipFree(dvol));
  HIP_CHECK(hipFree(dout));
  return finish("grid3d_private");
}
