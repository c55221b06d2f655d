// Code object A: defines program-scope globals. `counter` is zero-initialised (.bss), `table` has
// an initialiser (.data); `set` writes counter, `get` copies both into a buffer.
global int counter[64];
global long table[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};

kernel void set(int base) {
  size_t i = __builtin_amdgcn_workitem_id_x();
  counter[i] = base + (int)i * (int)i;
}

kernel void get(global int *counts, global long *tab) {
  size_t i = __builtin_amdgcn_workitem_id_x();
  counts[i] = counter[i];
  if (i < 16)
    tab[i] = table[i] * 1000 + (long)i;
}
