#!/usr/bin/env bash
# The queue benchmark: how fast packets go through softhsa's AQL queues, against the targets of
# docs/BENCHMARKS.md ("Queues"). Prints a table and saves it with the logs in $BENCH_OUT.
#
#   scripts/bench-queues.sh               build what is needed, run everything
#   scripts/bench-queues.sh --quick       fewer iterations (CI smoke run, a few seconds)
#   scripts/bench-queues.sh --no-build    do not run scripts/build-lib.sh
#   scripts/bench-queues.sh --prebuilt    compile nothing: run the programs an earlier run left in
#                                         $BENCH_OUT (copy it to a machine without compilers)
#   scripts/bench-queues.sh --diag        after the table, the queues figure again with diagnostics
#                                         (5 runs, unchecked): each CPU's busy and steal time and each
#                                         stream's time per run, the scheduler's counters
#                                         (SOFTHSA_SCHED_STATS), in $BENCH_OUT/log/diag.log
#
# Figures: empty-kernel round trip through plain HSA (write the packet, ring the doorbell, wait
# for the completion signal; median, p10, p90), HIP launch + hipDeviceSynchronize of an empty
# kernel (median; needs hipcc, skipped without it), back-to-back barrier-less empty dispatches on
# one queue (per second), and Q queues x K small kernels (one work-group each) against one queue
# running them all in order (kernels per second, medians of alternating runs, ratio), with the
# same work-groups as one dispatch for a ceiling. Every small kernel's output is checked.
#
# Environment: SOFTHSA_LIB_DIR (default target/release) holds libhsa-runtime64.so.1;
# SOFTHSA_WORKERS (softhsa's threads, default all cores); QUEUE_BENCH_QUEUES (default 16),
# QUEUE_BENCH_KERNELS (default 1000), QUEUE_BENCH_REPS (default 3; 1 with --quick);
# BENCH_OUT (default target/bench-queues).
# Exit status: 0 when every program ran and computed correct results (a missed target is
# reported in the table, not as a failure), 1 otherwise.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${BENCH_OUT:-$ROOT/target/bench-queues}
LIB=${SOFTHSA_LIB_DIR:-$ROOT/target/release}
CLANG=${BENCH_CLANG:-clang-15}
quick=0 build=1 prebuilt=0 diag=0 args="$*"
usage() { sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
        --quick) quick=1 ;;
        --no-build) build=0 ;;
        --prebuilt) prebuilt=1 build=0 ;;
        --diag) diag=1 ;;
        -h | --help) usage ;;
        *) echo "bench-queues.sh: unknown argument $1" >&2; usage ;;
    esac
    shift
done
note() { echo "bench-queues.sh: $*" >&2; }
mkdir -p "$OUT/bin" "$OUT/log"

if [ $build = 1 ] && [ -z "${SOFTHSA_LIB_DIR:-}" ]; then
    note "building libhsa-runtime64.so.1 (scripts/build-lib.sh, release)"
    "$ROOT/scripts/build-lib.sh" >"$OUT/log/build-lib.log" 2>&1 ||
        { note "scripts/build-lib.sh failed (see $OUT/log/build-lib.log)"; exit 1; }
fi
[ -e "$LIB/libhsa-runtime64.so.1" ] || { note "no $LIB/libhsa-runtime64.so.1"; exit 1; }

if [ $prebuilt = 0 ]; then
    "$CLANG" -target amdgcn-amd-amdhsa -mcpu=gfx906 -O3 -nogpulib -cl-std=CL2.0 \
        -o "$OUT/bin/queue_kernels.hsaco" "$ROOT/benches/kernels/queue_kernels.cl"
    gcc -O2 -Wall -Wextra -o "$OUT/bin/queue_bench" "$ROOT/benches/host/queue_bench.c" \
        -L"$LIB" -l:libhsa-runtime64.so.1 -lpthread -lm
    if command -v hipcc >/dev/null; then
        hipcc --offload-arch=gfx906 -O3 -I"$ROOT/tests/hip" -o "$OUT/bin/bench_launch" \
            "$ROOT/tests/hip/bench_launch.hip" >"$OUT/log/hipcc.log" 2>&1 ||
            note "hipcc failed (see $OUT/log/hipcc.log): no HIP figure"
    else
        note "no hipcc: no HIP figure"
    fi
fi
for f in queue_bench queue_kernels.hsaco; do
    [ -e "$OUT/bin/$f" ] || { note "no $OUT/bin/$f (build first, without --prebuilt)"; exit 1; }
done

export LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
status=0
mode=full
[ $quick = 1 ] && mode=quick
if ! "$OUT/bin/queue_bench" "$OUT/bin/queue_kernels.hsaco" $mode >"$OUT/log/queue_bench.log" 2>&1 ||
    ! grep -q '^QUEUE_BENCH check=ok' "$OUT/log/queue_bench.log"; then
    note "queue_bench failed: see $OUT/log/queue_bench.log"
    tail -n 5 "$OUT/log/queue_bench.log" >&2
    status=1
fi
hip_median=
if [ -x "$OUT/bin/bench_launch" ] && ldd "$OUT/bin/bench_launch" | grep -q 'not found'; then
    note "bench_launch cannot start here ($(ldd "$OUT/bin/bench_launch" | grep -m1 'not found' |
        sed 's/^[[:space:]]*//')): no HIP figure"
elif [ -x "$OUT/bin/bench_launch" ]; then
    iters=20000
    [ $quick = 1 ] && iters=2000
    if "$OUT/bin/bench_launch" $iters >"$OUT/log/bench_launch.log" 2>&1; then
        hip_median=$(grep -o 'median [0-9.]*' "$OUT/log/bench_launch.log" | cut -d' ' -f2)
    else
        note "bench_launch failed: see $OUT/log/bench_launch.log"
        status=1
    fi
fi

field() { grep "^QUEUE_BENCH $1 " "$OUT/log/queue_bench.log" | grep -o "$2=[^ ]*" | cut -d= -f2; }
rt_median=$(field roundtrip median_us) rt_p10=$(field roundtrip p10_us)
rt_p90=$(field roundtrip p90_us) b2b=$(field back_to_back per_s)
one=$(field queues one_queue_per_s) many=$(field queues many_queues_per_s)
ratio=$(field queues ratio) nq=$(field queues queues) nk=$(field queues kernels)
reps=$(field queues reps) samples=$(field queues 'samples(one/many/stream_spread)')
ceiling=$(field one_dispatch per_s)
cores=$(nproc)
# verdict VALUE OP TARGET: "met" / "missed" / "n/a".
verdict() {
    [ -n "$1" ] || { echo n/a; return; }
    awk -v v="$1" -v t="$3" -v op="$2" \
        'BEGIN { ok = (op == "<=") ? v <= t : v >= t; print ok ? "met" : "missed" }'
}
rt_target=2
[ "$cores" -le 2 ] && rt_target=5
{
    echo "# softhsa queue benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "# command: scripts/bench-queues.sh $args"
    echo "# host: $cores cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "# commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown); workers: ${SOFTHSA_WORKERS:-all cores}"
    echo
    printf '%-52s %14s %12s  %s\n' figure value target verdict
    printf '%-52s %11s us %9s us  %s\n' "empty kernel round trip, HSA (median)" "${rt_median:-FAIL}" \
        "<= $rt_target" "$(verdict "$rt_median" '<=' $rt_target)"
    printf '%-52s %11s us\n' "  p10 / p90" "${rt_p10:-?} / ${rt_p90:-?}"
    printf '%-52s %11s us %9s us  %s\n' "HIP launch + hipDeviceSynchronize (median)" \
        "${hip_median:-n/a}" "<= 5" "$(verdict "$hip_median" '<=' 5)"
    printf '%-52s %11s /s %9s /s  %s\n' "back-to-back barrier-less empty dispatches, 1 queue" \
        "${b2b:-FAIL}" ">= 500000" "$(verdict "$b2b" '>=' 500000)"
    printf '%-52s %11s /s\n' "$nk small kernels x $nq in order on 1 queue" "${one:-FAIL}"
    printf '%-52s %11s /s\n' "$nk small kernels on each of $nq queues" "${many:-FAIL}"
    printf '%-52s %12sx %10sx  %s\n' "  $nq queues / 1 queue" "${ratio:-FAIL}" ">= 12" \
        "$(verdict "$ratio" '>=' 12)"
    printf '%-52s %11s /s\n' "  ceiling: the same work-groups as 1 dispatch" "${ceiling:-?}"
    echo
    echo "Queues: medians of ${reps:-?} alternating runs; per run one/many per second and the"
    echo "slowest stream's time over the fastest one's: ${samples:-?}"
    echo "Targets are for the 16-core machine (the round trip: <= 5 us on 2 cores). The ratio"
    echo "cannot exceed the cores available: compare it with $cores."
} | tee "$OUT/last.txt"
if [ $diag = 1 ]; then
    echo
    echo "Diagnostics (5 unchecked runs of the queues figure; $OUT/log/diag.log):"
    SOFTHSA_SCHED_STATS=1 QUEUE_BENCH_CPU_USE=1 QUEUE_BENCH_CHECK=0 QUEUE_BENCH_REPS=5 \
        QUEUE_BENCH_PARTS=queues "$OUT/bin/queue_bench" "$OUT/bin/queue_kernels.hsaco" \
        >"$OUT/log/diag.log" 2>&1 || status=1
    grep -v '^QUEUE_BENCH check' "$OUT/log/diag.log" | tee -a "$OUT/last.txt"
fi
exit $status
