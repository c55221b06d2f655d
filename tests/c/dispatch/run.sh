#!/usr/bin/env bash
# Builds kernels.cl for a few (compiler, target, -O, code object version) configurations and runs
# the dispatch tests on each: fault (memory fault and s_trap -> queue error, report, new queue
# works), barrier_gate (a BARRIER_AND packet on a host signal gates later dispatches) and
# fp_env (the host's flush-to-zero MXCSR does not reach kernels; under the JIT and the
# interpreter).
# Prints PASS/FAIL lines (the format scripts/run-corpus.sh counts). Usage: run.sh OUTDIR
# Needs libhsa-runtime64.so.1 first on LD_LIBRARY_PATH (scripts/run-corpus.sh sets it).
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CORPUS=$HERE/../../corpus
OUT=${1:-$HERE/../../../target/corpus/dispatch}
mkdir -p "$OUT"

CFLAGS=(-std=gnu11 -O1 -g -Wall -Wextra -Werror)
LIBS=(-lhsa-runtime64)
if [ -n "${SOFTHSA_LIB_DIR:-}" ] && [ -e "$SOFTHSA_LIB_DIR/libhsa-runtime64.so.1" ]; then
    LIBS=("$SOFTHSA_LIB_DIR/libhsa-runtime64.so.1" -Wl,-rpath,"$SOFTHSA_LIB_DIR")
fi
gcc "${CFLAGS[@]}" -I"$CORPUS" -o "$OUT/fault" "$HERE/fault.c" "$CORPUS/harness_common.c" \
    "$CORPUS/harness.c" "${LIBS[@]}" -lm || { echo "FAIL dispatch: cannot build fault.c"; exit 1; }
gcc "${CFLAGS[@]}" -I"$CORPUS" -o "$OUT/fp_env" "$HERE/fp_env.c" "$CORPUS/harness_common.c" \
    "$CORPUS/harness.c" "${LIBS[@]}" -lm || { echo "FAIL dispatch: cannot build fp_env.c"; exit 1; }
gcc "${CFLAGS[@]}" -o "$OUT/barrier_gate" "$HERE/barrier_gate.c" "${LIBS[@]}" ||
    { echo "FAIL dispatch: cannot build barrier_gate.c"; exit 1; }

for cfg in "16 gfx906 2 5" "15 gfx906 0 4" "14 gfx906 2 2" "19 gfx900 3 5" "15 gfx900 2 3"; do
    read -r cc t o v <<<"$cfg"
    name=clang$cc-$t-O$o-v$v
    obj=$OUT/kernels-$name.hsaco
    if ! "clang-$cc" -target amdgcn-amd-amdhsa -mcpu="$t" -nogpulib -O"$o" \
        -mcode-object-version="$v" -o "$obj" "$HERE/kernels.cl" 2>"$OUT/$name.build.log"; then
        echo "FAIL dispatch $name: kernels.cl does not build: $(head -c 200 "$OUT/$name.build.log")"
        continue
    fi
    export SOFTHSA_GPU=$t # the agent must be the object's processor
    for test in fault barrier_gate fp_env fp_env:off; do
        engine=${test#*:}
        [ "$engine" = "$test" ] && engine=${SOFTHSA_JIT:-}
        test=${test%:*}
        log=$OUT/$test${engine:+-$engine}-$name.log
        if SOFTHSA_JIT=$engine timeout 120 "$OUT/$test" "$obj" >"$log" 2>&1; then
            echo "PASS $test"
        else
            echo "FAIL $test $name (exit $?): $(grep -v '^$' "$log" | grep -v '^---' | head -3 |
                tr '\n' '|' | sed 's/ failed/ FAILED/g' | cut -c1-300) log: $log"
        fi
    done
done
