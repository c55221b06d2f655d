#!/usr/bin/env bash
# Debian's real rocminfo (package rocminfo) with softhsa's library in front must exit 0 and show
# the CPU and GPU agents, their pools and the GPU's ISA.
# rocminfo's pre-check is faked inside this test only (see sandbox.sh).
# Run by scripts/run-c-tests.sh, which sets SOFTHSA_LIB_DIR and SOFTHSA_TEST_TMP.
set -euo pipefail
source "$(dirname "$0")/sandbox.sh"

fail=0
expect() { # description, extended regex over the output
  if grep -Eq "$2" "$tmp/out"; then echo "ok: $1"; else echo "MISSING: $1 /$2/"; fail=1; fi
}

if ! rocminfo_run; then
  echo "rocminfo failed:"; cat "$tmp/out" "$tmp/err"; exit 1
fi
# The dynamic loader must not complain about symbol versions of our library.
if grep -qi "version" "$tmp/err"; then echo "loader warnings:"; cat "$tmp/err"; fail=1; fi
expect "the system attributes" "Runtime Version: +1\.1"
expect "a CPU agent" "Device Type: +CPU"
expect "a GPU agent named gfx906" "Name: +gfx906"
expect "softhsa's GPU, not another runtime's" "Marketing Name: +softhsa Vega 20"
expect "the GPU's ISA" "Name: +amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-"
expect "the CPU's fine-grained KERNARG pool" "FLAGS: +KERNARG, FINE GRAINED"
expect "a coarse-grained pool" "FLAGS: +COARSE GRAINED"
expect "the GPU's GROUP pool" "Segment: +GROUP"
expect "wavefront size 64" "Wavefront Size: +64"
expect "60 compute units" "Compute Unit: +60"
expect "chip id 0x66a1" "Chip ID: +26273\(0x66a1\)"
[ "$(grep -c "Device Type: *GPU" "$tmp/out")" -eq 1 ] || { echo "expected exactly one GPU agent"; fail=1; }

# Two gfx900 GPUs through the configuration.
if ! rocminfo_run SOFTHSA_GPU=gfx900 SOFTHSA_GPUS=2; then
  echo "rocminfo (2 x gfx900) failed:"; cat "$tmp/out" "$tmp/err"; exit 1
fi
[ "$(grep -c "Device Type: *GPU" "$tmp/out")" -eq 2 ] || { echo "expected two GPU agents"; fail=1; }
expect "the gfx900 ISA" "Name: +amdgcn-amd-amdhsa--gfx900:xnack-"

# CDNA agents print what rocminfo prints on the real boards (MI210, MI300X).
if ! rocminfo_run SOFTHSA_GPU=gfx90a; then
  echo "rocminfo (gfx90a) failed:"; cat "$tmp/out" "$tmp/err"; exit 1
fi
expect "an MI210 agent" "Marketing Name: +softhsa Aldebaran \[AMD Instinct MI210\]"
expect "the MI210's ISA" "Name: +amdgcn-amd-amdhsa--gfx90a:sramecc\+:xnack-"
expect "104 compute units" "Compute Unit: +104"
expect "chip id 0x740f" "Chip ID: +29711\(0x740f\)"
expect "32 waves per CU" "Max Waves Per CU: +32\(0x20\)"
expect "an 8 MB L2" "L2: +8192\(0x2000\) KB"
# Target-ID features: an MI210 with XNACK enabled (HSA_XNACK=1 on a real one).
if ! rocminfo_run SOFTHSA_GPU=gfx90a:xnack+; then
  echo "rocminfo (gfx90a:xnack+) failed:"; cat "$tmp/out" "$tmp/err"; exit 1
fi
expect "the MI210's ISA with XNACK on" "Name: +amdgcn-amd-amdhsa--gfx90a:sramecc\+:xnack\+"
if ! rocminfo_run SOFTHSA_GPU=gfx942; then
  echo "rocminfo (gfx942) failed:"; cat "$tmp/out" "$tmp/err"; exit 1
fi
expect "the MI300X's ISA" "Name: +amdgcn-amd-amdhsa--gfx942:sramecc\+:xnack-"
expect "304 compute units" "Compute Unit: +304"
expect "32 shader engines" "Shader Engines: +32"
expect "a 256 MB L3" "L3: +262144\(0x40000\) KB"
expect "chip id 0x74a1" "Chip ID: +29857\(0x74a1\)"

[ "$fail" -eq 0 ] || { echo "--- rocminfo output"; cat "$tmp/out"; }
exit "$fail"
