#!/usr/bin/env bash
# Two softhsa libraries side by side on the benchmark kernels, in alternating rounds (A, B, A,
# B, ...) so that a machine whose speed drifts treats both alike: each round runs each kernel
# once per library and records the fastest of BENCH_RUNS dispatches; at the end, per kernel,
# the median of the rounds and B's gain (A/B). PoCL and native C join with --all.
#
#   scripts/bench-ab.sh LIB_DIR_A LIB_DIR_B [--rounds N] [--all] [-k REGEX]
#
# Uses the programs and code objects of an earlier `scripts/bench.sh` run in $BENCH_OUT
# (default target/bench; `--prebuilt` machines too). SOFTHSA_WORKERS and SOFTHSA_JIT_ISA pass
# through to both libraries.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${BENCH_OUT:-$ROOT/target/bench}
[ $# -ge 2 ] || { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
A=$(cd "$1" && pwd) B=$(cd "$2" && pwd)
shift 2
rounds=5 all=0 filter=.
while [ $# -gt 0 ]; do
    case $1 in
        --rounds) rounds=$2; shift ;;
        --all) all=1 ;;
        -k) filter=$2; shift ;;
        *) echo "bench-ab.sh: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
export BENCH_RUNS=${BENCH_RUNS:-9} OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
kernels=()
for k in saxpy mandelbrot matmul reduce stencil nbody histogram; do
    [[ $k =~ $filter ]] && kernels+=("$k")
done
min_ms() { grep -o 'min_ms=[0-9.]*' | cut -d= -f2 | tail -1; }
soft() { BENCH_KERNEL=$2 LD_LIBRARY_PATH=$1 "$OUT/bin/softhsa_bench" "$OUT/obj/$2.hsaco" 2>/dev/null | min_ms; }
res=$(mktemp)
trap 'rm -f "$res"' EXIT
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "# A=$A B=$B workers=${SOFTHSA_WORKERS:-all} isa=${SOFTHSA_JIT_ISA:-best}; ms = fastest of $BENCH_RUNS dispatches"
for r in $(seq "$rounds"); do
    for k in "${kernels[@]}"; do
        line="round $r $k A=$(soft "$A" "$k") B=$(soft "$B" "$k")"
        if [ $all = 1 ]; then
            line+=" pocl=$(BENCH_KERNEL=$k "$OUT/bin/pocl_bench" "$ROOT/benches/kernels/$k.cl" 2>/dev/null | min_ms)"
            line+=" native=$("$OUT/bin/native_bench" "$k" 2>/dev/null | min_ms)"
        fi
        echo "$line" | tee -a "$res"
    done
done
echo "# medians of $rounds rounds"
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }'; }
for k in "${kernels[@]}"; do
    line=$(printf '%-11s' "$k")
    for key in A B pocl native; do
        m=$(grep " $k " "$res" | grep -o " $key=[0-9.]*" | cut -d= -f2 | median || true)
        [ -n "$m" ] && line+=" $key=$m"
        [ $key = A ] && ma=$m
        [ $key = B ] && mb=$m
    done
    echo "$line  A/B=$(awk -v a="$ma" -v b="$mb" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "n/a" }')"
done
