#!/bin/sh
# Rebuilds demo.hsaco, the code object `softhsa demo` embeds (committed, so that the demo runs
# on machines without a compiler). Needs Debian's clang-16 and lld-16.
set -e
cd "$(dirname "$0")"
clang-16 -target amdgcn-amd-amdhsa -mcpu=gfx906 -nogpulib -O2 -mcode-object-version=5 \
    -o demo.hsaco demo.cl
