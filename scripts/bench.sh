#!/usr/bin/env bash
# Benchmarks softhsa against PoCL and native C on the same kernels, in one run, and prints a table
# of times and ratios (see docs/BENCHMARKS.md). Every backend checks its output against a host
# reference; a wrong result is reported as FAIL, never as a time.
#
#   scripts/bench.sh                    full sizes, every kernel
#   scripts/bench.sh --quick            small sizes (CI smoke run, well under a minute on 2 cores)
#   scripts/bench.sh --workers 1,2,4,8  also scaling tables: softhsa over SOFTHSA_WORKERS, native
#                                       C over OMP_NUM_THREADS
#   scripts/bench.sh -k 'saxpy|matmul'  only matching kernels
#   scripts/bench.sh --runs N           timed runs per measurement (after one warm-up)
#   scripts/bench.sh --no-build         do not run scripts/build-lib.sh
#   scripts/bench.sh --prebuilt         compile nothing: run the code objects and programs that an
#                                       earlier run left in $BENCH_OUT (for a machine without LLVM)
#   scripts/bench.sh --selftest         also check that the result checks catch an injected
#                                       wrong element (BENCH_FAULT=1); implied by --quick
#
# Environment: SOFTHSA_LIB_DIR (default target/release) holds libhsa-runtime64.so.1;
# SOFTHSA_WORKERS (softhsa's threads for the main table, default all cores); OMP_NUM_THREADS
# (native); BENCH_SCALE=k multiplies every problem's main dimension; BENCH_OUT (default
# target/bench) gets the code objects, binaries, logs and the table (last.txt).
# Exit status: 0 when every measured backend produced correct results, 1 otherwise.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${BENCH_OUT:-$ROOT/target/bench}
LIB=${SOFTHSA_LIB_DIR:-$ROOT/target/release}
KERNELS_DIR=$ROOT/benches/kernels
HOST=$ROOT/benches/host
CORPUS=$ROOT/tests/corpus
ALL_KERNELS=(saxpy mandelbrot matmul reduce stencil nbody histogram)
CLANG=${BENCH_CLANG:-clang-15}

quick=0 workers="" filter=. runs="" build=1 prebuilt=0 selftest=0 args="$*"
usage() { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
        --quick) quick=1 selftest=1 ;;
        --selftest) selftest=1 ;;
        --workers) workers=${2:?--workers needs a list}; shift ;;
        --workers=*) workers=${1#*=} ;;
        -k) filter=${2:?-k needs a regex}; shift ;;
        --runs) runs=${2:?--runs needs a number}; shift ;;
        --no-build) build=0 ;;
        --prebuilt) prebuilt=1 ;;
        -h | --help) usage ;;
        *) echo "bench.sh: unknown argument $1" >&2; usage ;;
    esac
    shift
done
if [[ -n $workers && ! $workers =~ ^[0-9]+(,[0-9]+)*$ ]]; then
    echo "bench.sh: --workers wants a list such as 1,2,4" >&2
    exit 2
fi

export BENCH_QUICK=$quick
[ -n "$runs" ] && export BENCH_RUNS=$runs
# Idle OpenMP threads sleep rather than spin, as PoCL's and softhsa's workers do: on a shared
# machine spinning threads steal the cores the measured ones need (override to compare).
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}

mkdir -p "$OUT/obj" "$OUT/bin" "$OUT/log"
kernels=()
for k in "${ALL_KERNELS[@]}"; do [[ $k =~ $filter ]] && kernels+=("$k"); done
[ ${#kernels[@]} -gt 0 ] || { echo "bench.sh: no kernel matches '$filter'" >&2; exit 2; }
note() { echo "bench.sh: $*" >&2; }

# ---- 1. softhsa's library ----
have_softhsa=1
if [ $build = 1 ] && [ $prebuilt = 0 ] && [ -z "${SOFTHSA_LIB_DIR:-}" ]; then
    note "building libhsa-runtime64.so.1 (scripts/build-lib.sh, release)"
    "$ROOT/scripts/build-lib.sh" >"$OUT/log/build-lib.log" 2>&1 ||
        note "scripts/build-lib.sh failed (see $OUT/log/build-lib.log)"
fi
if [ ! -e "$LIB/libhsa-runtime64.so.1" ]; then
    note "no $LIB/libhsa-runtime64.so.1: the softhsa column is skipped"
    have_softhsa=0
fi

# ---- 2. PoCL ----
have_pocl=1
if ! ls /etc/OpenCL/vendors/*pocl* >/dev/null 2>&1 ||
    ! ldconfig -p 2>/dev/null | grep 'libOpenCL\.so' >/dev/null ||
    { [ $prebuilt = 0 ] && [ ! -e /usr/include/CL/cl.h ]; }; then
    note "PoCL not found: the PoCL column is skipped (apt-get install pocl-opencl-icd" \
        "ocl-icd-opencl-dev opencl-headers)"
    have_pocl=0
fi

# ---- 3. kernels and host programs (--prebuilt: those of an earlier run, in $OUT) ----
if [ $prebuilt = 1 ]; then
    for b in native softhsa pocl; do
        [ -x "$OUT/bin/${b}_bench" ] && continue
        note "--prebuilt: no $OUT/bin/${b}_bench"
        case $b in native) exit 2 ;; softhsa) have_softhsa=0 ;; pocl) have_pocl=0 ;; esac
    done
elif [ $have_softhsa = 1 ] && ! command -v "$CLANG" >/dev/null; then
    note "$CLANG not found (scripts/install-deps.sh): the softhsa column is skipped"
    have_softhsa=0
fi
if [ $prebuilt = 0 ]; then
    common=("$HOST/bench_common.c" "$HOST/bench_reference.c")
    cflags=(-O2 -ffp-contract=off -Wall -Wextra -I"$HOST" -I"$CORPUS")
    gcc -O3 -march=native -fopenmp -ffp-contract=off -Wall -Wextra -o "$OUT/bin/native_bench" \
        "$HOST/native_bench.c" "${common[@]}" -lm
    if [ $have_pocl = 1 ]; then
        gcc "${cflags[@]}" -o "$OUT/bin/pocl_bench" "$HOST/pocl_bench.c" "$HOST/bench_gpu.c" \
            "${common[@]}" "$CORPUS/harness_ocl.c" "$CORPUS/harness_common.c" -lOpenCL -lm
    fi
    if [ $have_softhsa = 1 ]; then
        for k in "${kernels[@]}"; do
            "$CLANG" -target amdgcn-amd-amdhsa -mcpu=gfx906 -O3 -nogpulib -cl-std=CL2.0 \
                -o "$OUT/obj/$k.hsaco" "$KERNELS_DIR/$k.cl"
        done
        gcc "${cflags[@]}" -o "$OUT/bin/softhsa_bench" "$HOST/softhsa_bench.c" \
            "$HOST/bench_gpu.c" "${common[@]}" "$CORPUS/harness.c" "$CORPUS/harness_common.c" \
            -L"$LIB" -lhsa-runtime64 -lm
    fi
fi

# ---- 4. runs ----
field() { grep -o "$1=[^ ]*" <<<"$2" | head -1 | cut -d= -f2 || true; } # NAME LINE

# run BACKEND KERNEL LOG [VAR=value...]: prints the median ms of the BENCH line, or FAIL. (Callers
# run it in a subshell, so failures are counted from the FAIL cells of the table at the end.)
run() {
    local backend=$1 k=$2 log=$3 line status=0
    shift 3
    case $backend in
        native) env "$@" "$OUT/bin/native_bench" "$k" >"$log" 2>&1 || status=$? ;;
        pocl) env "$@" BENCH_KERNEL="$k" "$OUT/bin/pocl_bench" "$KERNELS_DIR/$k.cl" \
            >"$log" 2>&1 || status=$? ;;
        softhsa) env "$@" BENCH_KERNEL="$k" LD_LIBRARY_PATH="$LIB" SOFTHSA_TRACE=dispatch \
            SOFTHSA_TRACE_FILE="$log.trace" "$OUT/bin/softhsa_bench" "$OUT/obj/$k.hsaco" \
            >"$log" 2>&1 || status=$? ;;
    esac
    line=$(grep '^BENCH ' "$log" | tail -1 || true)
    if [ $status -ne 0 ] || [ "$(field check "$line")" != ok ]; then
        note "$backend $k failed (exit $status): see $log"
        echo FAIL
    else
        field median_ms "$line"
    fi
}

# The problem size as the first program of this run reported it.
size_of() {
    cat "$OUT/log/$1".{native,pocl,softhsa}.log 2>/dev/null | grep -m1 '^BENCH ' |
        sed 's/.* size=//' || true
}

# Wave instructions of one softhsa dispatch. Preferred: the runtime's own count, an
# "instructions=N" field on its SOFTHSA_TRACE=dispatch line. Else derived, for the kernels whose
# work-groups all run the same instruction stream at these sizes (every group full, no
# data-dependent branch): the instructions that SOFTHSA_TRACE=isa shows for each wave of
# work-group 0 (one dispatch, BENCH_RUNS=0), times the number of work-groups; marked "*".
UNIFORM=" saxpy matmul reduce nbody "
count_insts() { # KERNEL SOFTHSA_LOG
    local k=$1 log=$2 n grid groups waves total=0 w t lines
    n=$({ grep -o 'instructions=[0-9]*' "$log.trace" 2>/dev/null || true; } | tail -1 | cut -d= -f2)
    if [ -n "$n" ]; then
        echo "$n"
        return 0
    fi
    [[ $UNIFORM == *" $k "* ]] || return 0
    grid=$(grep -m1 '^GRID ' "$log") || return 0
    groups=$(field workgroups "$grid")
    waves=$(field waves_per_group "$grid")
    for ((w = 0; w < waves; w++)); do
        t=$OUT/log/$k.isa$w
        BENCH_RUNS=0 BENCH_KERNEL=$k LD_LIBRARY_PATH=$LIB SOFTHSA_TRACE=isa \
            SOFTHSA_TRACE_WAVE=0:$w SOFTHSA_TRACE_FILE=$t.trace \
            "$OUT/bin/softhsa_bench" "$OUT/obj/$k.hsaco" >"$t.log" 2>"$t.err" || return 0
        lines=$(cat "$t.err" "$t.trace" 2>/dev/null | grep -c "^\[$k\] 0x" || true)
        [ "$lines" -gt 0 ] || return 0
        total=$((total + lines))
    done
    echo "$((total * groups))*"
}

# A / B as "12.3x", or n/a when either is not a time.
ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN {
        if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b > 0) printf "%.1fx", a / b; else print "n/a" }'
}
# INSTRUCTIONS[*] per second of MS, keeping the "*" of a derived count.
rate() {
    awk -v i="$1" -v ms="$2" 'BEGIN {
        mark = i ~ /\*$/ ? "*" : ""; sub(/\*$/, "", i)
        if (i ~ /^[0-9]+$/ && ms ~ /^[0-9.]+$/ && ms > 0) printf "%.3g%s", i / (ms / 1000), mark
        else print "n/a" }'
}

table=$OUT/last.txt
commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$ROOT" diff --quiet 2>/dev/null || commit+=" (+ uncommitted changes)"
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
{
    echo "# softhsa benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "# command: scripts/bench.sh $args"
    echo "# host: $(nproc) cores, $cpu, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "# commit: $commit"
    echo "# softhsa workers: ${SOFTHSA_WORKERS:-all cores}; timed runs: ${BENCH_RUNS:-default}" \
        "after 1 warm-up; times are medians in ms"
    echo
} >"$table"

fmt='%-11s %-18s %10s %10s %10s %10s %8s %14s %13s %12s\n'
# shellcheck disable=SC2059 # the format is the table's, on purpose
printf "$fmt" kernel size "native ms" "PoCL ms" "interp ms" "JIT ms" "JIT gain" softhsa/native \
    softhsa/PoCL "wave inst/s" >>"$table"
for k in "${kernels[@]}"; do
    rm -f "$OUT/log/$k".*
    n=$(run native "$k" "$OUT/log/$k.native.log")
    p=n/a
    [ $have_pocl = 0 ] || p=$(run pocl "$k" "$OUT/log/$k.pocl.log")
    s=n/a i=n/a insts=""
    if [ $have_softhsa = 1 ]; then
        i=$(run softhsa "$k" "$OUT/log/$k.softhsa-interp.log" SOFTHSA_JIT=off)
        s=$(run softhsa "$k" "$OUT/log/$k.softhsa.log" SOFTHSA_JIT=on)
        [ "$s" = FAIL ] || insts=$(count_insts "$k" "$OUT/log/$k.softhsa.log")
    fi
    # shellcheck disable=SC2059
    printf "$fmt" "$k" "$(size_of "$k")" "$n" "$p" "$i" "$s" "$(ratio "$i" "$s")" \
        "$(ratio "$s" "$n")" "$(ratio "$s" "$p")" "$(rate "$insts" "$s")" >>"$table"
done
cat >>"$table" <<'EOF'

interp ms: softhsa with SOFTHSA_JIT=off (the interpreter); JIT ms: SOFTHSA_JIT=on; JIT gain:
interp/JIT. softhsa/native and softhsa/PoCL use the JIT's time. wave inst/s: wave instructions
of one dispatch / the JIT's median time. "*": the count is derived from the ISA trace of
work-group 0 (kernels whose work-groups all run alike); n/a: the runtime does not report the
count and the kernel diverges between work-groups.
EOF

# ---- 5. scaling over threads: softhsa's workers, and native C's OpenMP threads beside them ----
# The native table shows what the machine allows: a kernel bound by memory bandwidth stops
# scaling in C too, so softhsa's speed-up is read against native C's on the same kernel.
scaling() { # BACKEND VARIABLE TITLE
    local backend=$1 var=$2 k w t line base
    {
        echo
        echo "# $3: median ms with $var=w (speed-up over the first w)"
        printf '%-11s' kernel
        for w in "${ws[@]}"; do printf ' %18s' "w=$w"; done
        echo
    } >>"$table"
    for k in "${kernels[@]}"; do
        line=$(printf '%-11s' "$k") base=""
        for w in "${ws[@]}"; do
            t=$(run "$backend" "$k" "$OUT/log/$k.$backend.w$w.log" "$var=$w")
            [ -n "$base" ] || base=$t
            line+=$(printf ' %18s' "$t ($(ratio "$base" "$t"))")
        done
        echo "$line" >>"$table"
    done
}
if [ -n "$workers" ]; then
    IFS=',' read -r -a ws <<<"$workers"
    [ $have_softhsa = 0 ] || scaling softhsa SOFTHSA_WORKERS "softhsa scaling (JIT)"
    scaling native OMP_NUM_THREADS "native C scaling (OpenMP)"
fi

# ---- 6. the checks' self-test: a flipped bit in one output element must be reported ----
if [ $selftest = 1 ]; then
    caught=0 tried=0
    for k in "${kernels[@]}"; do
        for b in native softhsa; do
            [ $b = native ] || [ $have_softhsa = 1 ] || continue
            tried=$((tried + 1))
            log=$OUT/log/$k.$b.fault.log
            r=$(run $b "$k" "$log" BENCH_FAULT=1 BENCH_RUNS=0 2>/dev/null)
            if [ "$r" = FAIL ] && grep -q 'check=FAIL' "$log"; then
                caught=$((caught + 1))
            else
                note "self-test: $b $k did not report an injected wrong element"
            fi
        done
    done
    {
        echo
        echo "self-test: the checks caught an injected wrong element in $caught of $tried runs"
        [ $caught = "$tried" ] || echo "self-test: FAIL"
    } >>"$table"
fi

cat "$table"
failed=0
! grep -q FAIL "$table" || failed=1
note "table saved in $table; logs in $OUT/log"
exit $failed
