#!/usr/bin/env bash
# The memory-model suite (issue: aligned 64-bit accesses are single-copy atomic; fences and
# scopes give the acquire/release the seeds' code sequences promise):
#   1. litmus tests (tests/memory-model/litmus.{cl,c}): MP, SB, LB, 2+2W, CoRR, IRIW and 64-bit
#      single-copy atomicity, each between work-groups of one dispatch, between two GPU agents
#      and between a kernel and host threads, >= 10^5 runs each, under SOFTHSA_WORKERS=2 and all
#      cores (IRIW's four work-groups run with at least four workers);
#   2. decoupled look-back scan and stream compaction (tests/corpus/kernels/lookback_scan.cl)
#      over 8- to 128-bit elements up to 2^26 elements, under 1, 2 and all workers;
#   3. Debian's rocPRIM device algorithms (tests/memory-model/rocprim_device.hip, built by hipcc),
#      under 1 worker and all cores.
# Prints one line per run and "N passed, N failed"; exits non-zero on any failure.
#
# Usage: scripts/run-memory-model.sh [--quick]   (--quick: smaller sizes, fewer iterations)
# Environment: SOFTHSA_LIB_DIR (default target/release), MM_OUT (default target/memory-model).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
quick=0
[ "${1:-}" = --quick ] && quick=1
lib=${SOFTHSA_LIB_DIR:-$top/target/release}
out=${MM_OUT:-$top/target/memory-model}
mkdir -p "$out/log"
passed=0
failed=0

if [ ! -e "$lib/libhsa-runtime64.so.1" ]; then
  scripts/build-lib.sh >"$out/log/build-lib.log" 2>&1 || { echo "build-lib failed"; echo "0 passed, 1 failed"; exit 1; }
fi
[ -x target/release/softhsa ] || cargo build --release -p softhsa >"$out/log/build-cli.log" 2>&1

# check NAME LOG CMD...: runs CMD with its output in LOG and counts the result.
check() {
  local name=$1 log=$2
  shift 2
  local start=$SECONDS
  if "$@" >"$log" 2>&1; then
    passed=$((passed + 1))
    echo "PASS $name ($((SECONDS - start)) s)"
  else
    failed=$((failed + 1))
    echo "FAIL $name ($((SECONDS - start)) s); last lines of $log:"
    tail -n 15 "$log"
  fi
}

cores=$(nproc)
workers=$(printf '%s\n' 2 "$cores" | sort -un)

# ---- 1. litmus ----
iters=2048 # x 64 lanes = 131072 runs per test and mode
[ $quick = 1 ] && iters=256
cflags=(-x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx906 -nogpulib -O2)
for cc in 15 19; do
  clang-$cc "${cflags[@]}" -o "$out/litmus-dev-$cc.hsaco" tests/memory-model/litmus.cl &&
    clang-$cc "${cflags[@]}" -DSCOPE=__OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES \
      -o "$out/litmus-sys-$cc.hsaco" tests/memory-model/litmus.cl ||
    { echo "FAIL litmus kernels (clang-$cc)"; failed=$((failed + 1)); }
done
gcc -std=gnu11 -O2 -Wall -Wno-unused-function -Itests/c/common -o "$out/litmus" \
  tests/memory-model/litmus.c -L"$lib" -l:libhsa-runtime64.so.1 -lpthread ||
  { echo "FAIL litmus host program"; failed=$((failed + 1)); }
for cc in 15 19; do
  for w in $workers; do
    for t in mp sb lb 2p2w corr atom64 iriw; do
      wt=$w
      [ $t = iriw ] && [ "$w" -lt 4 ] && wt=4
      log="$out/log/litmus-$t-clang$cc-w$wt.log"
      check "litmus $t clang-$cc workers=$wt" "$log" env SOFTHSA_GPUS=2 SOFTHSA_WORKERS=$wt \
        LD_LIBRARY_PATH="$lib" timeout 300 "$out/litmus" "$out/litmus-dev-$cc.hsaco" \
        "$out/litmus-sys-$cc.hsaco" $iters all $t
      grep -E '^[a-z0-9]+ +(wg|agents|host)' "$log" | sed 's/^/    /'
    done
  done
done

# ---- 2. decoupled look-back ----
CORPUS_OUT=$top/target/corpus scripts/run-corpus.sh -k '^lookback_scan$' --build-only >"$out/log/lookback-build.log" 2>&1
objdir=$(ls -dt target/corpus/obj/lookback_scan-* 2>/dev/null | head -1)
big=26
[ $quick = 1 ] && big=20
for spec in "15 O2 5 $cores $big" "15 O2 5 1 22" "19 O2 5 2 22" "15 O0 4 2 18"; do
  read -r cc o v w lg <<<"$spec"
  [ $quick = 1 ] && [ "$lg" -gt 18 ] && lg=18
  obj=$objdir/clang$cc-gfx906-$o-v$v.hsaco
  check "lookback_scan clang-$cc -$o v$v workers=$w sizes<=2^$lg" "$out/log/lookback-$cc-$o-$w.log" \
    env SOFTHSA_WORKERS=$w CORPUS_LOOKBACK_MAX_LOG2=$lg LD_LIBRARY_PATH="$lib" timeout 600 \
    target/corpus/bin/lookback_scan "$obj"
done

# ---- 3. rocPRIM ----
if command -v hipcc >/dev/null && [ -d /usr/include/rocprim ]; then
  src=tests/memory-model/rocprim_device.hip
  bin=$out/rocprim_device
  if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
    hipcc -std=c++17 --offload-arch=gfx906 -O2 -o "$bin" "$src" >"$out/log/rocprim-build.log" 2>&1 ||
      { echo "FAIL rocprim_device build"; tail -20 "$out/log/rocprim-build.log"; failed=$((failed + 1)); }
  fi
  if [ -x "$bin" ]; then
    small=100003 large=$((1 << 20))
    [ $quick = 1 ] && large=100003
    for spec in "1 $small" "$cores $large"; do
      read -r w n <<<"$spec"
      check "rocprim_device workers=$w n<=$n" "$out/log/rocprim-w$w.log" env SOFTHSA_WORKERS=$w \
        SOFTHSA_LIB_DIR="$lib" timeout 900 target/release/softhsa run -- "$bin" $n
      tail -n 1 "$out/log/rocprim-w$w.log" | sed 's/^/    /'
    done
  fi
else
  echo "FAIL rocprim_device: hipcc or librocprim-dev missing (scripts/install-deps.sh)"
  failed=$((failed + 1))
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
