// A code object with an undefined symbol: `ptr` holds ext_var + 16 (an R_AMDGPU_ABS64 dynamic
// relocation), which the loader resolves against a variable the program defines.
// Built into malformed/base-extern-v4.hsaco (see malformed/make.py).
.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
.data
.globl ptr
.type ptr,@object
.p2align 3
ptr:
  .quad ext_var + 16
.size ptr, 8
