#!/usr/bin/env bash
# rocPRIM's radix sort and scan (a real library's kernels), a gather of doubles through an
# index and a histogram with atomics in shared and in global memory
# (benches/hip/rocprim_sort.hip) under two softhsa libraries side by side, in
# alternating rounds (A, B, A, B, ...): per round and library, the fastest of the program's
# last two runs of each (the first compiles); at the end the medians of the rounds and B's
# gain (A/B).
#
#   scripts/bench-rocprim.sh LIB_DIR_A LIB_DIR_B [--rounds N] [--keys N]
#
# Builds the program with hipcc into $BENCH_OUT (default target/bench) unless it is there
# already (and newer than its source, where hipcc is installed). SOFTHSA_WORKERS and
# SOFTHSA_JIT_ISA pass through to both libraries; an LD_LIBRARY_PATH set outside (HIP's
# libraries carried to a machine without them) stays after the library's directory.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${BENCH_OUT:-$ROOT/target/bench}
[ $# -ge 2 ] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
A=$(cd "$1" && pwd) B=$(cd "$2" && pwd)
shift 2
rounds=5 keys=1048576
while [ $# -gt 0 ]; do
    case $1 in
        --rounds) rounds=$2; shift ;;
        --keys) keys=$2; shift ;;
        *) echo "bench-rocprim.sh: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
bin=$OUT/bin/rocprim_sort
if [ ! -x "$bin" ] || { [ "$ROOT/benches/hip/rocprim_sort.hip" -nt "$bin" ] && command -v hipcc >/dev/null; }; then
    mkdir -p "$OUT/bin"
    hipcc -std=c++17 --offload-arch=gfx906 -O2 -o "$bin" "$ROOT/benches/hip/rocprim_sort.hip"
fi
res=$(mktemp)
trap 'rm -f "$res"' EXIT
# The fastest of the last two times of the lines starting with $1.
best() { grep "^$1" | tail -2 | grep -o '[0-9.]* ms' | cut -d' ' -f1 | sort -n | head -1; }
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "# A=$A B=$B keys=$keys workers=${SOFTHSA_WORKERS:-all} isa=${SOFTHSA_JIT_ISA:-best}; ms"
for r in $(seq "$rounds"); do
    line="round $r"
    for lib in A B; do
        dir=$A
        [ $lib = B ] && dir=$B
        out=$(LD_LIBRARY_PATH=$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$bin" "$keys")
        grep -q "sort ok, scan ok, gather ok, histogram ok" <<<"$out" || { echo "$lib: wrong results"; echo "$out"; exit 1; }
        line+=" sort_$lib=$(best radix_sort <<<"$out") scan_$lib=$(best inclusive_scan <<<"$out")"
        line+=" gather_$lib=$(best gather_f64 <<<"$out")"
        line+=" hist_shared_$lib=$(best histogram_shared <<<"$out")"
        line+=" hist_global_$lib=$(best histogram_global <<<"$out")"
    done
    echo "$line" | tee -a "$res"
done
echo "# medians of $rounds rounds"
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }'; }
for what in sort scan gather hist_shared hist_global; do
    ma=$(grep -o " ${what}_A=[0-9.]*" "$res" | cut -d= -f2 | median)
    mb=$(grep -o " ${what}_B=[0-9.]*" "$res" | cut -d= -f2 | median)
    echo "$what A=$ma B=$mb A/B=$(awk -v a="$ma" -v b="$mb" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "n/a" }')"
done
# (Every run's results matched the host's: a wrong one stops the script above.)
echo "$((2 * rounds)) passed, 0 failed"
