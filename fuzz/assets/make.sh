#!/usr/bin/env bash
# Rebuilds kernels.hsaco (gfx906, code object v5) from kernels.cl with Debian's clang-15.
set -euo pipefail
cd "$(dirname "$0")"
clang-15 -target amdgcn-amd-amdhsa -mcpu=gfx906 -nogpulib -O2 -mcode-object-version=5 \
    -o kernels.hsaco kernels.cl
