#!/usr/bin/env bash
# Builds the library (scripts/build-lib.sh) and runs the C-level test suite against it:
#   - the export check (exactly the 224 functions of hsa.map, each @@ROCR_1),
#   - every tests/c/<area>/*.c (tests/c/common/ holds shared headers), compiled against Debian's
#     /usr/include/hsa and linked to the built libhsa-runtime64.so.1,
#   - every tests/*/run-*.sh script (e.g. tests/rocminfo/run-rocminfo.sh).
# Each test is self-checking (exit 0 = pass). The last line is "N passed, N failed".
#
# Usage: scripts/run-c-tests.sh [--debug] [NAME-FILTER]
#   --debug      test the debug build of the library (faster to build)
#   NAME-FILTER  run only tests whose path contains it
# A test runs in the repository root with SOFTHSA_TEST_TMP (a scratch directory of its own) and
# SOFTHSA_LIB_DIR (the library's directory) set, under a 120 s timeout.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

profile=release
filter=""
for arg in "$@"; do
  case "$arg" in
    --debug) profile=debug ;;
    -*) echo "run-c-tests.sh: unknown option $arg" >&2; exit 2 ;;
    *) filter=$arg ;;
  esac
done

libdir=${SOFTHSA_LIB_OUT:-$top/target/$profile}
build_args=()
[ "$profile" = debug ] && build_args+=(--debug)
work=$(mktemp -d "${TMPDIR:-/tmp}/softhsa-c-tests.XXXXXX")
trap 'rm -rf "$work"' EXIT

passed=0
failed=0
failures=()
record() { # name status
  if [ "$2" -eq 0 ]; then
    passed=$((passed + 1)); echo "PASS $1"
  else
    failed=$((failed + 1)); failures+=("$1"); echo "FAIL $1 (exit $2)"
  fi
}

echo "== building the library"
scripts/build-lib.sh "${build_args[@]}" --strict >"$work/build.log" 2>&1
build_status=$?
if [ ! -f "$libdir/libhsa-runtime64.so.1" ]; then
  cat "$work/build.log"
  echo "run-c-tests.sh: the library was not built"
  echo "0 passed, 1 failed"
  exit 1
fi
tail -n 30 "$work/build.log" | grep -v '^   *Compiling' || true
if [ -z "$filter" ] || [[ "exports" == *"$filter"* ]]; then
  record "exports (224 functions @@ROCR_1)" "$build_status"
fi

export SOFTHSA_LIB_DIR=$libdir SOFTHSA_TEST_PROFILE=$profile
export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

run_one() { # name command...
  local name=$1; shift
  local tmp=$work/run/$(echo "$name" | tr '/' '_')
  mkdir -p "$tmp"
  SOFTHSA_TEST_TMP=$tmp timeout 120 "$@" >"$tmp.out" 2>&1
  local status=$?
  record "$name" "$status"
  if [ "$status" -ne 0 ]; then sed 's/^/    /' "$tmp.out" | tail -n 40; fi
}

mkdir -p "$work/bin"
# Areas with their own driver are run by that driver: tests/c/dispatch (needs corpus code objects)
# by scripts/run-corpus.sh, tests/c/concurrency by its run-concurrency.sh below.
for src in $(find tests/c -name '*.c' -not -path 'tests/c/common/*' -not -path 'tests/c/dispatch/*' \
    -not -path 'tests/c/concurrency/*' | sort); do
  [ -z "$filter" ] || [[ "$src" == *"$filter"* ]] || continue
  exe=$work/bin/$(echo "${src#tests/c/}" | tr '/' '_' | sed 's/\.c$//')
  if ! cc -std=gnu11 -O1 -g -Wall -Werror -Wno-unused-function -Wno-deprecated-declarations \
      -I tests/c/common -o "$exe" "$src" \
      -L "$libdir" -l:libhsa-runtime64.so.1 -Wl,-rpath,"$libdir" -lpthread -lm \
      >"$exe.log" 2>&1; then
    record "$src (compile)" 1
    sed 's/^/    /' "$exe.log" | head -n 30
    continue
  fi
  run_one "$src" "$exe"
done

for script in $(find tests -name 'run-*.sh' | sort); do
  [ -z "$filter" ] || [[ "$script" == *"$filter"* ]] || continue
  run_one "$script" bash "$script"
done

if [ "$failed" -gt 0 ]; then
  echo "failed:"; printf '  %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
