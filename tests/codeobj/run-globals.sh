#!/usr/bin/env bash
# Program-scope global variables across kernels and code objects, end to end through the C API:
# builds globals/a.cl (defines counter[64] and an initialised table[16]) and globals/b.cl (extern
# declarations of both), loads them into one executable and checks every result against host
# values (see globals/globals.c). scripts/run-c-tests.sh calls it with SOFTHSA_LIB_DIR and
# SOFTHSA_TEST_TMP set.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=tests/codeobj/globals
lib=${SOFTHSA_LIB_DIR:?SOFTHSA_LIB_DIR must name the directory of libhsa-runtime64.so.1}
tmp=${SOFTHSA_TEST_TMP:-$(mktemp -d)}
command -v clang-15 >/dev/null || { echo "clang-15 and lld-15 are required (Debian clang-15)"; exit 1; }

# -fvisibility=default: OpenCL globals are hidden by default, and ld.lld -shared refuses an
# undefined hidden symbol; default visibility makes B's references dynamic (R_AMDGPU_ABS64 on
# the undefined counter/table) for the loader to resolve against A's definitions.
flags=(-target amdgcn-amd-amdhsa -mcpu=gfx906 -nogpulib -O2 -cl-std=CL2.0 -mcode-object-version=4
  -fvisibility=default)
clang-15 "${flags[@]}" -o "$tmp/a.hsaco" "$here/a.cl"
clang-15 "${flags[@]}" -o "$tmp/b.hsaco" "$here/b.cl"

cc -std=gnu11 -O1 -g -Wall -Wextra -Werror -Wno-deprecated-declarations -o "$tmp/globals" \
  "$here/globals.c" -L "$lib" -l:libhsa-runtime64.so.1 -Wl,-rpath,"$lib"
SOFTHSA_GPU=gfx906 "$tmp/globals" "$tmp/a.hsaco" "$tmp/b.hsaco"
