// Uses OpenCL builtins from the ROCm device libraries (clang-15 only in the test matrix):
// work-item functions become hidden kernel arguments.
__kernel void saxpy(__global float *y, __global const float *x, float a) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i] + sqrt(fabs(x[i]));
}

__kernel void tile(__global int *out, __local int *scratch) {
  size_t l = get_local_id(0), g = get_global_id(1) * get_global_size(0) + get_global_id(0);
  scratch[l] = (int)g;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = scratch[get_local_size(0) - 1 - l] + (int)get_group_id(2);
}
