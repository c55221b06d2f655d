#!/usr/bin/env bash
# Runs tests/codeobj/c/executables.c against the built library (scripts/run-c-tests.sh calls
# every tests/*/run-*.sh with SOFTHSA_LIB_DIR and SOFTHSA_TEST_TMP set). The expected values come
# from llvm-readelf's view of the same code object, not from softhsa.
set -euo pipefail
cd "$(dirname "$0")/../.."
co=tests/codeobj/malformed/base-v5.hsaco
bad=tests/codeobj/malformed/metadata-missing-field.hsaco
readelf=$(command -v llvm-readelf-16 || command -v llvm-readelf-19 || true)
[ -n "$readelf" ] || { echo "llvm-readelf-16 or -19 is required (Debian llvm-16)"; exit 1; }
lib=${SOFTHSA_LIB_DIR:?SOFTHSA_LIB_DIR must name the directory of libhsa-runtime64.so.1}
tmp=${SOFTHSA_TEST_TMP:-$(mktemp -d)}

lds_vaddr=$("$readelf" --syms "$co" | awk '$8 == "lds.kd" { print $2; exit }')
# Metadata keys are sorted, so each kernel's sizes precede its .name.
read -r lds_group args_kernarg < <("$readelf" --notes "$co" | awk '
  /\.group_segment_fixed_size:/ { g = $2 }
  /\.kernarg_segment_size:/ { k = $2 }
  /\.name:/ { if ($2 == "lds") lg = g; if ($2 == "args") ak = k }
  END { print lg, ak }')

cc -std=gnu11 -O1 -g -Wall -Werror -Wno-unused-function -Wno-comment -Wno-deprecated-declarations -I tests/c/common \
  -o "$tmp/executables" tests/codeobj/c/executables.c \
  -L "$lib" -l:libhsa-runtime64.so.1 -Wl,-rpath,"$lib"
"$tmp/executables" "$co" "$bad" "$lds_vaddr" "$lds_group" "$args_kernarg"
