#!/usr/bin/env bash
# Host instructions per wave of each benchmark kernel, counted by valgrind's callgrind (exact and
# repeatable whatever else the machine does, unlike times): in generated code (the JIT's
# blocks and stubs), in the runtime library, and in libc. One worker, the quick sizes, the
# warm-up and BENCH_RUNS dispatches; the one-time costs (hsa_init, the JIT's compile) are
# spread over the waves, so compare libraries on the same kernel and size only.
#
#   scripts/wave-cost.sh [--margin] [LIB_DIR] [KERNEL...]   (default: target/release, every kernel)
#
# --margin: what one more wave costs instead: the counts of 9 dispatches minus those of 3, per
# wave of the 6 between, without the one-time costs, the bench harness (its program and its
# memsets) and threads spinning or sleeping: generated code, the rest of softhsa, and both.
#
# Needs the benchmark programs and code objects of an earlier `scripts/bench.sh` run in
# $BENCH_OUT (default target/bench) and valgrind. Under valgrind the JIT generates AVX2 code
# (valgrind does not run AVX-512).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${BENCH_OUT:-$ROOT/target/bench}
margin=0
if [ "${1:-}" = --margin ]; then
    margin=1
    shift
fi
LIB=$(cd "${1:-$ROOT/target/release}" && pwd)
shift || true
kernels=("$@")
[ ${#kernels[@]} -gt 0 ] || kernels=(saxpy mandelbrot matmul reduce stencil nbody histogram)
command -v valgrind >/dev/null || { echo "wave-cost.sh: needs valgrind" >&2; exit 2; }
[ -x "$OUT/bin/softhsa_bench" ] || { echo "wave-cost.sh: run scripts/bench.sh first" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $margin = 1 ]; then
    printf '%-11s %9s %10s %12s %10s\n' kernel waves/run jit/wave runtime/wave total/wave
    for k in "${kernels[@]}"; do
        for r in 3 9; do
            LD_LIBRARY_PATH=$LIB BENCH_QUICK=1 BENCH_KERNEL=$k BENCH_RUNS=$r SOFTHSA_WORKERS=1 \
                SOFTHSA_TRACE=dispatch SOFTHSA_TRACE_FILE=$tmp/$k.$r.trace \
                valgrind --tool=callgrind --callgrind-out-file="$tmp/$k.$r.cg" \
                "$OUT/bin/softhsa_bench" "$OUT/obj/$k.hsaco" >"$tmp/$k.log" 2>&1 ||
                { echo "$k: failed (see a rerun without valgrind)"; continue 2; }
            callgrind_annotate --auto=no --show-percs=no --threshold=100 "$tmp/$k.$r.cg" 2>/dev/null | sed 's/,//g' |
                grep -Ev 'PROGRAM TOTALS|=>|spin|wait|futex|yield|sleep|park|Instant|Timespec|clock_gettime|softhsa_bench\]|memset' |
                awk '/^ *[0-9]+ / { if ($0 ~ /\?\?\?:0x/) j += $1; else o += $1 } END { print j, o }' \
                >"$tmp/$k.$r.sum"
        done
        waves=$(grep -o 'waves=[0-9]*' "$tmp/$k.3.trace" | tail -1 | cut -d= -f2)
        paste "$tmp/$k.3.sum" "$tmp/$k.9.sum" | awk -v w="$waves" -v k="$k" '{
            j = ($3 - $1) / (6 * w); o = ($4 - $2) / (6 * w)
            printf "%-11s %9d %10.0f %12.0f %10.0f\n", k, w, j, o, j + o }'
    done
    exit 0
fi
printf '%-11s %7s %10s %12s %10s\n' kernel waves jit/wave runtime/wave libc/wave
for k in "${kernels[@]}"; do
    LD_LIBRARY_PATH=$LIB BENCH_QUICK=1 BENCH_KERNEL=$k BENCH_RUNS=${BENCH_RUNS:-3} \
        SOFTHSA_WORKERS=1 SOFTHSA_TRACE=dispatch SOFTHSA_TRACE_FILE=$tmp/$k.trace \
        valgrind --tool=callgrind --callgrind-out-file="$tmp/$k.cg" \
        "$OUT/bin/softhsa_bench" "$OUT/obj/$k.hsaco" >"$tmp/$k.log" 2>&1 ||
        { echo "$k: failed (see a rerun without valgrind)"; continue; }
    # Waves of every dispatch (warm-up included).
    waves=$(grep -o 'waves=[0-9]*' "$tmp/$k.trace" | cut -d= -f2 | awk '{s += $1} END {print s}')
    callgrind_annotate --threshold=100 "$tmp/$k.cg" 2>/dev/null | sed 's/,//g' |
        awk -v w="$waves" -v k="$k" '
        /^ *[0-9]+ / && !/=>/ {
            c = $1
            if ($0 ~ /\?\?\?:0x/) jit += c            # generated code has no symbols
            else if ($0 ~ /libhsa-runtime64|crates\//) rt += c
            else if ($0 ~ /libc\.so|string\//) libc += c
        }
        END { printf "%-11s %7d %10.0f %12.0f %10.0f\n", k, w, jit / w, rt / w, libc / w }'
done
