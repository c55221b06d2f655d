#!/usr/bin/env bash
# Builds the HIP test programs (tests/hip/*.hip) with Debian's hipcc and runs each, unmodified,
# through `softhsa run --` (softhsa's libhsa-runtime64.so.1 in front of Debian's libamdhip64).
#
# Every program checks its results against a host computation and prints PASS (exit 0), except
# the ones listed in EXPECT_ABORT below, which must end the way HIP ends on hardware: aborted by
# HIP's queue error callback, with the named text on stdout/stderr.
# Programs in O0_TESTS are built and run a second time at -O0 (scratch, hidden hostcall buffer),
# those in GFX908_TESTS/GFX90A_TESTS again for gfx908/gfx90a, on an agent of that processor;
# CDNA_ONLY programs (matrix cores) are built for gfx908 and gfx90a only; XNACK_TESTS run once
# more built for gfx90a:xnack+ on an MI210 with XNACK on (SOFTHSA_GPU=gfx90a:xnack+). Programs
# in LIBS link a Debian ROCm library and run its kernels (rocRAND, rocSPARSE). Those in
# WORKERS1_TESTS run a second time (same binary) with SOFTHSA_WORKERS=1. ENVS gives a program's
# environment.
# tests/hip/*.genco.hip are code objects built with --genco, loaded by module_load at run time.
#
# Usage: scripts/run-hip-tests.sh [NAME-FILTER]
#   NAME-FILTER  run only tests whose name contains it (e.g. "memcpy", "-O0")
# Environment:
#   SOFTHSA_BIN          the softhsa command (default target/release/softhsa; built if missing)
#   SOFTHSA_LIB_DIR      directory of libhsa-runtime64.so.1 (default: beside SOFTHSA_BIN;
#                        scripts/build-lib.sh is run if it is missing there)
#   SOFTHSA_HIP_BUILD    where the programs are built (default target/hip-tests)
#   SOFTHSA_HIP_TIMEOUT  seconds each program may run (default 180)
#   HIPCC                the compiler (default hipcc)
# Logs: $SOFTHSA_HIP_BUILD/logs/NAME.log. The last line is "N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

filter=${1:-}
src_dir=tests/hip
build=${SOFTHSA_HIP_BUILD:-$top/target/hip-tests}
timeout_s=${SOFTHSA_HIP_TIMEOUT:-180}
hipcc=${HIPCC:-hipcc}
arch=gfx906
bin=${SOFTHSA_BIN:-$top/target/release/softhsa}

# (Not block_sync: at -O0, HIP 5.2's cooperative-groups header leaves a gfx10-only
# llvm.amdgcn.permlanex16 call that clang-15 cannot select for gfx906.)
O0_TESTS="vector_add launch_dims struct_byvalue templates reduction atomics grid3d_private
  wave_intrinsics printf dynamic_shared math texture_object"
# Programs also built with --offload-arch=gfx908 (-O3) and run on a gfx908 (MI100) agent.
GFX908_TESTS="vector_add reduction atomics math matmul_tiled wave_intrinsics printf
  dynamic_shared struct_byvalue grid3d_private texture_object mfma"
# Programs also built with --offload-arch=gfx90a (-O3) and run on a gfx90a (MI210) agent.
GFX90A_TESTS="vector_add reduction atomics math matmul_tiled wave_intrinsics printf
  dynamic_shared mfma f64_loop float_chains"
CDNA_ONLY="mfma"
# rocRAND ships gfx90a:xnack- and gfx90a:xnack+ code objects: HIP must pick the one the agent's
# target ID allows.
XNACK_TESTS="rocrand_philox"
GFX908_TESTS+=" rocrand_philox rocsparse_spmv"
GFX90A_TESTS+=" rocrand_philox rocsparse_spmv"

# Libraries some programs link.
declare -A LIBS=(
  [rocrand_philox]="-lrocrand"
  [rocsparse_spmv]="-lrocsparse"
)

# Programs also run with a single worker thread (forward progress of grid-wide syncs).
WORKERS1_TESTS="cooperative_groups cooperative_multi_device"
# name -> environment it runs with.
declare -A ENVS=(
  [cooperative_multi_device]="SOFTHSA_GPUS=2"
)

# name -> text that must appear in the output of a program expected to abort. HIP's queue
# callback prints "callbackQueue aborting" before abort(); each also needs its own evidence.
declare -A EXPECT_ABORT=(
  [assert]="Device-side assertion"
  [bad_pointer]="GPU fault in kernel \`_Z9bad_writePii\`: memory violation: write at 0xdead0000"
)

# Arguments some programs need.
declare -A ARGS=(
  [module_load]="$build/module_kernels.co"
  [bench_launch]="200"
)

mkdir -p "$build/logs"

if ! command -v "$hipcc" >/dev/null; then
  echo "run-hip-tests.sh: $hipcc not found (apt-get install hipcc libamdhip64-dev)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
if [ ! -x "$bin" ] && [ -z "${SOFTHSA_BIN:-}" ]; then
  echo "run-hip-tests.sh: building the softhsa command" >&2
  cargo build --release -p softhsa >&2 || { echo "0 passed, 1 failed"; exit 1; }
  cargo_out=${CARGO_TARGET_DIR:-$top/target}/release/softhsa
  mkdir -p "$(dirname "$bin")"
  [ "$cargo_out" -ef "$bin" ] || cp -f "$cargo_out" "$bin"
fi
lib_dir=${SOFTHSA_LIB_DIR:-$(dirname "$bin")}
if [ ! -e "$lib_dir/libhsa-runtime64.so.1" ]; then
  echo "run-hip-tests.sh: building the library" >&2
  SOFTHSA_LIB_OUT="$lib_dir" scripts/build-lib.sh >&2 || { echo "0 passed, 1 failed"; exit 1; }
fi
export SOFTHSA_LIB_DIR=$lib_dir

passed=0
failed=0

fail() {
  failed=$((failed + 1))
  echo "FAIL $1: $2"
}

# variant_gpu NAME DEFAULT: the processor (target ID) a variant is built for and runs on.
variant_gpu() {
  case $1 in
    *-gfx908) echo gfx908 ;;
    *-gfx90a) echo gfx90a ;;
    *-gfx90a-xnack) echo gfx90a:xnack+ ;;
    *) echo "$2" ;;
  esac
}

# build OUT SRC FLAGS...: compiles unless OUT is newer than SRC and the shared header.
build() {
  local out=$1 src=$2 target=$arch
  shift 2
  target=$(variant_gpu "$out" "$arch")
  if [ "$out" -nt "$src" ] && [ "$out" -nt "$src_dir/hip_check.h" ]; then
    return 0
  fi
  # shellcheck disable=SC2086 # link_libs is a word list
  "$hipcc" --offload-arch=$target -I"$src_dir" "$@" -o "$out" "$src" $link_libs >"$out.build.log" 2>&1
}

# Code objects for hipModuleLoad.
link_libs=
for src in "$src_dir"/*.genco.hip; do
  [ -e "$src" ] || continue
  name=$(basename "$src" .genco.hip)
  if ! build "$build/$name.co" "$src" --genco -O3; then
    fail "$name.co" "hipcc --genco failed: $(head -c 300 "$build/$name.co.build.log")"
  fi
done

# run_one NAME BINARY: runs it and checks the expected outcome.
run_one() {
  local name=$1 exe=$2 base=${1%-O0} gpu workers=
  base=${base%-xnack}
  base=${base%-gfx90[8a]}
  base=${base%-w1}
  gpu=$(variant_gpu "$name" "")
  [[ "$name" == *-w1 ]] && workers=1
  local log="$build/logs/$name.log"
  local args=${ARGS[$base]:-}
  # shellcheck disable=SC2086 # ARGS entries are word lists
  # The subshell (not exec'd: it has a second command) reports a killed child into the log.
  (
    [ -z "$gpu" ] || export SOFTHSA_GPU=$gpu
    [ -z "$workers" ] || export SOFTHSA_WORKERS=$workers
    # shellcheck disable=SC2086 # ENVS entries are VAR=value lists
    [ -z "${ENVS[$base]:-}" ] || export ${ENVS[$base]}
    timeout -k 5 "$timeout_s" "$bin" run -- "$exe" $args
    exit $?
  ) >"$log" 2>&1
  local rc=$?
  local expect=${EXPECT_ABORT[$base]:-}
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    fail "$name" "timed out after ${timeout_s}s (log $log)"
  elif [ -n "$expect" ]; then
    if [ "$rc" -ne 134 ]; then
      fail "$name" "expected an abort (exit 134), got exit $rc; $(tail -n 1 "$log")"
    elif ! grep -qF -- "$expect" "$log"; then
      fail "$name" "aborted, but without '$expect'; $(grep -m1 -E 'fault|error' "$log")"
    elif ! grep -q "callbackQueue aborting" "$log"; then
      fail "$name" "aborted, but not through HIP's queue error callback (log $log)"
    else
      passed=$((passed + 1))
      echo "ok   $name (aborted as expected)"
    fi
  elif [ "$rc" -ne 0 ] || ! grep -q "^PASS $base" "$log"; then
    local why
    why=$(grep -v 'run-hip-tests.sh: line' "$log" |
      grep -m3 -E 'FAIL|expected|failed|fault|differ|abort|Error|error' | tr '\n' ' ')
    fail "$name" "exit $rc: ${why:-$(tail -n 2 "$log" | tr '\n' ' ')} (log $log)"
  else
    passed=$((passed + 1))
    echo "ok   $name"
  fi
}

for src in "$src_dir"/*.hip; do
  case "$src" in *.genco.hip) continue ;; esac
  name=$(basename "$src" .hip)
  variants=("$name")
  case " $(echo $CDNA_ONLY) " in *" $name "*) variants=() ;; esac
  case " $(echo $O0_TESTS) " in *" $name "*) variants+=("$name-O0") ;; esac
  case " $(echo $GFX908_TESTS) " in *" $name "*) variants+=("$name-gfx908") ;; esac
  case " $(echo $GFX90A_TESTS) " in *" $name "*) variants+=("$name-gfx90a") ;; esac
  case " $(echo $XNACK_TESTS) " in *" $name "*) variants+=("$name-gfx90a-xnack") ;; esac
  case " $(echo $WORKERS1_TESTS) " in *" $name "*) variants+=("$name-w1") ;; esac
  for v in "${variants[@]}"; do
    [ -z "$filter" ] || [[ "$v" == *"$filter"* ]] || continue
    opt=-O3
    [[ "$v" == *-O0 ]] && opt=-O0
    link_libs=${LIBS[$name]:-}
    if [[ "$v" == *-w1 ]]; then # the -O3 binary, another environment
      build "$build/$name" "$src" -O3 && run_one "$v" "$build/$name" ||
        fail "$v" "hipcc -O3 failed"
      continue
    fi
    if ! build "$build/$v" "$src" "$opt"; then
      fail "$v" "hipcc $opt failed: $(grep -m2 error "$build/$v.build.log" | tr '\n' ' ')"
      continue
    fi
    run_one "$v" "$build/$v"
  done
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
