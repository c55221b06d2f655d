#!/usr/bin/env bash
# Runs the C API tests (tests/c/<area>/*.c, as scripts/run-c-tests.sh builds them) under valgrind
# memcheck against the release library: zero errors, and no definite or indirect leak once the
# test has called hsa_shut_down. With --hip, also the HIP programs scripts/run-hip-tests.sh built
# (target/hip-tests), whose own libraries' reports are suppressed by tests/valgrind.supp (each
# suppression says why). With --images, also the image cases scripts/run-image-tests.sh built
# (target/image-tests), each on the gfx906 -O2 code object version 5 kernels.
#
# Usage: scripts/run-valgrind.sh [--hip] [--images] [NAME-FILTER...]   (a test runs when its path contains
#        any filter; none: every test)
# Skipped: tests/c/stress (a million signals and 10^6 wake-ups take hours under valgrind) and
# tests/c/dispatch (driven by the corpus). Prints "N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

hip=0
images=0
filters=()
for arg in "$@"; do
  case "$arg" in
    --hip) hip=1 ;;
    --images) images=1 ;;
    -*) echo "run-valgrind.sh: unknown option $arg" >&2; exit 2 ;;
    *) filters+=("$arg") ;;
  esac
done
wanted() { # path
  [ ${#filters[@]} -eq 0 ] && return 0
  local f
  for f in "${filters[@]}"; do [[ "$1" == *"$f"* ]] && return 0; done
  return 1
}

if ! command -v valgrind >/dev/null; then
  echo "run-valgrind.sh: valgrind is not installed (scripts/install-deps.sh installs it)"
  echo "0 passed, 1 failed"
  exit 1
fi
libdir=$top/target/release
scripts/build-lib.sh >/dev/null 2>&1 || { echo "build-lib.sh failed"; echo "0 passed, 1 failed"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/softhsa-valgrind.XXXXXX")
trap 'rm -rf "$work"' EXIT
export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export SOFTHSA_LIB_DIR=$libdir
# Fewer worker threads: valgrind serializes threads anyway.
export SOFTHSA_WORKERS=${SOFTHSA_WORKERS:-2}

# --smc-check: the JIT writes code at run time. Leaks: definite and indirect ones fail the run
# (possibly-lost blocks are the runtime's process-wide worker pool, kept on purpose).
vg=(valgrind --tool=memcheck --error-exitcode=99 --leak-check=full
    --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect
    --smc-check=all-non-file --suppressions="$top/tests/valgrind.supp" --num-callers=30 -q)

passed=0
failed=0
failures=()
run() { # name command...
  local name=$1; shift
  local log=$work/$(echo "$name" | tr '/' '_').log
  local start=$SECONDS
  SOFTHSA_TEST_TMP=$work timeout 1200 "${vg[@]}" "$@" >"$log" 2>&1
  local rc=$?
  if [ "$rc" -eq 0 ]; then
    passed=$((passed + 1)); echo "PASS $name ($((SECONDS - start)) s)"
  else
    failed=$((failed + 1)); failures+=("$name")
    echo "FAIL $name (exit $rc, $((SECONDS - start)) s)"
    grep -E '^==[0-9]+== ' "$log" | head -n 60 | sed 's/^/    /'
    tail -n 5 "$log" | sed 's/^/    /'
  fi
}

for src in $(find tests/c -name '*.c' -not -path 'tests/c/common/*' -not -path 'tests/c/dispatch/*' \
    -not -path 'tests/c/stress/*' | sort); do
  wanted "$src" || continue
  exe=$work/$(echo "${src#tests/c/}" | tr '/' '_' | sed 's/\.c$//')
  if ! cc -std=gnu11 -O1 -g -Wall -Wno-unused-function -Wno-deprecated-declarations \
      -I tests/c/common -o "$exe" "$src" -L "$libdir" -l:libhsa-runtime64.so.1 \
      -Wl,-rpath,"$libdir" -lpthread -lm >"$exe.log" 2>&1; then
    failed=$((failed + 1)); failures+=("$src (compile)"); echo "FAIL $src (compile)"
    continue
  fi
  run "$src" "$exe"
done

if [ "$hip" = 1 ]; then
  for exe in target/hip-tests/*; do
    [ -x "$exe" ] && [ -f "$exe" ] || continue
    case "$exe" in *bench*) continue ;; esac
    wanted "$exe" || continue
    run "$exe" "$exe"
  done
fi

if [ "$images" = 1 ]; then
  kernels=target/image-tests/images-gfx906-O2-v5.hsaco
  if [ ! -s "$kernels" ]; then
    failed=$((failed + 1)); failures+=("$kernels (run scripts/run-image-tests.sh)")
    echo "FAIL: no $kernels (scripts/run-image-tests.sh builds it)"
  else
    for exe in target/image-tests/image_*; do
      [ -x "$exe" ] && [ -f "$exe" ] || continue
      wanted "$exe" || continue
      SOFTHSA_GPU=gfx906 run "$exe" "$exe" "$kernels"
    done
  fi
fi

if [ "$failed" -gt 0 ]; then
  echo "failed:"; printf '  %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
