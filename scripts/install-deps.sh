#!/usr/bin/env bash
# Installs the Debian 12 packages the test suite uses: the LLVM AMDGPU compilers and tools, the
# ROCm device libraries, Debian's HSA headers (for C tests), rocminfo, HIP, valgrind (memcheck
# runs) and g++ (libfuzzer-sys builds libFuzzer).
# Idempotent: skips apt when every package is already installed.
set -euo pipefail
pkgs=(
  clang-14 lld-14 llvm-14
  clang-15 lld-15 llvm-15 clang-tools-15
  clang-16 lld-16 llvm-16
  clang-19 lld-19 llvm-19
  rocm-device-libs libhsa-runtime-dev rocminfo
  hipcc libamdhip64-dev libamd-comgr2 librocprim-dev
  pocl-opencl-icd ocl-icd-opencl-dev opencl-headers
  gcc g++ make valgrind
)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
