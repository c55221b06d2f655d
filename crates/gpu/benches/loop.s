// Kernel of examples/bench.rs and tests/perf.rs: out[id] = (x -> x * 3 + 1)^4096 (id).
  s_load_dwordx2 s[6:7], s[0:1], 0x0
  s_lshl_b32 s8, s2, 8
  v_add_u32 v1, s8, v0
  v_mov_b32 v2, v1
  s_movk_i32 s9, 0x1000
L:
  v_mul_lo_u32 v2, v2, 3
  v_add_u32 v2, 1, v2
  s_sub_u32 s9, s9, 1
  s_cmp_lg_u32 s9, 0
  s_cbranch_scc1 L
  v_lshlrev_b32 v3, 2, v1
  s_waitcnt lgkmcnt(0)
  global_store_dword v3, v2, s[6:7]
  s_endpgm
