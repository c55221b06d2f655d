// Code object B: no storage of its own; `counter` and `table` are A's, resolved by the loader.
extern global int counter[64];
extern global long table[16];

kernel void mix(global long *out) {
  size_t i = __builtin_amdgcn_workitem_id_x();
  out[i] = (long)counter[i] * 7 + table[i % 16];
  counter[i] = -counter[i];
}
