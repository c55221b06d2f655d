#!/usr/bin/env bash
# Atomics under two softhsa libraries side by side: a 256-bin histogram with shared-memory
# (LDS) atomics and one with global atomics (benches/host/atomic_bench.c, plain HSA: no HIP
# needed), in alternating rounds (A, B, A, B, ...); per round and library the fastest of 9
# dispatches after one that compiles; at the end the medians of the rounds and B's gain (A/B).
#
#   scripts/bench-atomics.sh LIB_DIR_A LIB_DIR_B [--rounds N] [--keys N] [--prebuilt]
#
# Builds the kernels (clang-15) and the program (gcc) into $BENCH_OUT (default
# target/bench-atomics) unless --prebuilt (a machine without LLVM: an earlier build's). Every
# run's bins are checked against the host's count. SOFTHSA_WORKERS and SOFTHSA_JIT_ISA pass
# through to both libraries.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${BENCH_OUT:-$ROOT/target/bench-atomics}
[ $# -ge 2 ] || { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
A=$(cd "$1" && pwd) B=$(cd "$2" && pwd)
shift 2
rounds=5 keys=4194304 prebuilt=0
while [ $# -gt 0 ]; do
    case $1 in
        --rounds) rounds=$2; shift ;;
        --keys) keys=$2; shift ;;
        --prebuilt) prebuilt=1 ;;
        *) echo "bench-atomics.sh: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
mkdir -p "$OUT/bin"
if [ $prebuilt = 0 ]; then
    "${BENCH_CLANG:-clang-15}" -target amdgcn-amd-amdhsa -mcpu=gfx906 -O3 -nogpulib \
        -cl-std=CL2.0 -o "$OUT/bin/atomic_kernels.hsaco" "$ROOT/benches/kernels/atomic_kernels.cl"
    gcc -O2 -Wall -Wextra -o "$OUT/bin/atomic_bench" "$ROOT/benches/host/atomic_bench.c" \
        -L"$A" -l:libhsa-runtime64.so.1
fi
res=$(mktemp)
trap 'rm -f "$res"' EXIT
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "# A=$A B=$B keys=$keys workers=${SOFTHSA_WORKERS:-all} isa=${SOFTHSA_JIT_ISA:-best}; ms"
for r in $(seq "$rounds"); do
    line="round $r"
    for lib in A B; do
        dir=$A
        [ $lib = B ] && dir=$B
        out=$(LD_LIBRARY_PATH=$dir "$OUT/bin/atomic_bench" "$OUT/bin/atomic_kernels.hsaco" "$keys") ||
            { echo "$lib: failed"; echo "$out"; exit 1; }
        for k in local global; do
            ms=$(grep "kernel=histogram_$k " <<<"$out" | grep -o 'best_ms=[0-9.]*' | cut -d= -f2)
            line+=" ${k}_$lib=$ms"
        done
    done
    echo "$line" | tee -a "$res"
done
echo "# medians of $rounds rounds"
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }'; }
for what in local global; do
    ma=$(grep -o " ${what}_A=[0-9.]*" "$res" | cut -d= -f2 | median)
    mb=$(grep -o " ${what}_B=[0-9.]*" "$res" | cut -d= -f2 | median)
    echo "histogram_$what A=$ma B=$mb A/B=$(awk -v a="$ma" -v b="$mb" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "n/a" }')"
done
# (A run whose bins differ from the host's exits 1 above.)
echo "$((2 * rounds)) passed, 0 failed"
