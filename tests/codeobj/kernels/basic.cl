// Kernels without builtins (compiled with -nogpulib by every clang of the test matrix).
// Each exercises a different part of the descriptor/metadata: argument kinds and alignments,
// LDS, scratch, program-scope variables with relocations.

typedef struct { char c; int i; double d; } packed_arg;

__constant int table[4] = {1, 2, 3, 4};
__global int counter = 5;
__global int *counter_ptr = &counter;

__kernel void args(__global float *out, __global const float *in, char c, short s, long l,
                   double d, float4 v, packed_arg p, __local float *dyn, __constant int *k) {
  uint t = __builtin_amdgcn_workitem_id_x();
  dyn[t] = in[t] * v.x + (float)d + c + s + l + p.c + p.i + (float)p.d + k[t & 3];
  __builtin_amdgcn_s_barrier();
  out[t] = dyn[63 - (t & 63)];
}

__kernel void lds(__global int *o) {
  __local int sh[256];
  uint t = __builtin_amdgcn_workitem_id_x();
  sh[t] = t + counter;
  __builtin_amdgcn_s_barrier();
  o[t] = sh[255 - (t & 255)] + table[t & 3];
}

__kernel void scratch(__global int *o, int n) {
  int priv[64];
  uint t = __builtin_amdgcn_workitem_id_x();
  for (int i = 0; i < 64; i++)
    priv[i] = o[(i * 7 + t) & 63];
  o[t] = priv[n & 63] + priv[(n + t) & 63];
}

__kernel void globals(__global int *o) {
  *counter_ptr += 1;
  o[0] = *counter_ptr;
  counter_ptr = o;
}
