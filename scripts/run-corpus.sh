#!/usr/bin/env bash
# Runs the kernel corpus matrix: every kernel in tests/corpus/kernels, built by Debian's clang
# 14/15/16/19 for gfx900 and gfx906 at -O0/-O2/-O3 for every code object version each compiler
# accepts (and for the CDNA processors at -O2 with every version from v3 and -O0 with the newest: gfx908
# and gfx90a from every compiler, gfx940 from clang-15/16/19, gfx941/gfx942 from clang-19;
# kernels tagged "corpus: cdna" only there) (kernels tagged "corpus: devlib" need the device libraries: clang-15 only), each run by
# its case program (tests/corpus/cases/<kernel>.c) through softhsa's libhsa-runtime64.so.1 and
# compared with a host reference. Then the dispatch tests in tests/c/dispatch.
#
# Prints one line per failure and a final "N passed, N failed"; exits non-zero on any failure.
#
#   scripts/run-corpus.sh                 the whole matrix
#   scripts/run-corpus.sh -k REGEX        only kernels whose name matches
#   scripts/run-corpus.sh --quick         one configuration per compiler (fast smoke test)
#   scripts/run-corpus.sh --build-only    compile the kernels and host programs, run nothing
#   scripts/run-corpus.sh --prebuilt      compile nothing: run every code object and case program
#                                         an earlier run left in CORPUS_OUT (a machine without
#                                         compilers: copy target/corpus there); no dispatch tests
#   scripts/run-corpus.sh --validate-ocl  run the cases on the host CPU through OpenCL (PoCL)
#                                         instead of softhsa: checks the host references
# Environment: SOFTHSA_LIB_DIR (default target/release) holds libhsa-runtime64.so.1;
# CORPUS_OUT (default target/corpus) caches objects keyed by source hash; JOBS (default nproc);
# CORPUS_TARGETS (default "gfx900 gfx906 gfx908 gfx90a gfx940 gfx941 gfx942") limits the processors built and run.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CORPUS=$ROOT/tests/corpus
DISPATCH=$ROOT/tests/c/dispatch
OUT=${CORPUS_OUT:-$ROOT/target/corpus}
LIB=${SOFTHSA_LIB_DIR:-$ROOT/target/release}
JOBS=${JOBS:-$(nproc)}
DEVLIBS=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode

filter=. quick=0 build_only=0 ocl=0 prebuilt=0
while [ $# -gt 0 ]; do
    case $1 in
        -k) filter=$2; shift ;;
        --quick) quick=1 ;;
        --build-only) build_only=1 ;;
        --validate-ocl) ocl=1 ;;
        --prebuilt) prebuilt=1 ;;
        *) echo "usage: $0 [-k REGEX] [--quick] [--build-only] [--validate-ocl] [--prebuilt]" >&2; exit 2 ;;
    esac
    shift
done

if [ $ocl = 0 ] && [ $build_only = 0 ] && [ ! -e "$LIB/libhsa-runtime64.so.1" ]; then
    echo "no $LIB/libhsa-runtime64.so.1: run scripts/build-lib.sh (or set SOFTHSA_LIB_DIR)" >&2
    exit 2
fi
mkdir -p "$OUT/obj" "$OUT/bin" "$OUT/log"
start=$(date +%s)

kernels=()
for f in "$CORPUS"/kernels/*.cl; do
    k=$(basename "$f" .cl)
    [[ $k =~ $filter ]] && kernels+=("$k")
done
[ ${#kernels[@]} -gt 0 ] || { echo "no kernel matches '$filter'" >&2; exit 2; }

is_devlib() { grep -q 'corpus: devlib' "$1"; }
# Kernels tagged "corpus: cdna" use the matrix cores: CDNA processors only.
is_cdna() { grep -q 'corpus: cdna' "$1"; }

# The configurations: "compiler target opt cov".
configs() {
    local devlib=$1 cdna=$2 cc t o v
    local compilers="14 15 16 19"
    [ "$devlib" = 1 ] && compilers=15
    for cc in $compilers; do
        local covs
        case $cc in 14) covs="2 3 4" ;; 15 | 16) covs="2 3 4 5" ;; 19) covs="4 5" ;; esac
        for t in ${CORPUS_TARGETS:-gfx900 gfx906 gfx908 gfx90a gfx940 gfx941 gfx942}; do
            case $t in gfx90[06]) [ "$cdna" = 1 ] && continue ;; esac
            for o in 0 2 3; do
                for v in $covs; do
                    # CDNA processors: -O2 at every code object version the compiler
                    # offers, and -O0 at its newest (-O0 spills VGPRs to AGPRs with
                    # v_accvgpr_*); gfx940 from clang-15 on, gfx941/gfx942 from clang-19 (the
                    # first to know them).
                    local newest=${covs##* }
                    # (Code object v2 predates them: LLVM refuses it for CDNA processors.)
                    case $t in gfx90[0-6]) ;; *) [ "$v" = 2 ] && continue ;; esac
                    case $t in
                    gfx908 | gfx90a)
                        { [ $o = 2 ] || { [ $o = 0 ] && [ "$v" = "$newest" ]; }; } || continue ;;
                    gfx940)
                        { [ $o = 2 ] && [ $cc -ge 15 ]; } || continue ;;
                    gfx941)
                        { [ $o = 2 ] && [ $cc = 19 ]; } || continue ;;
                    gfx942)
                        { [ $cc = 19 ] && { [ $o = 2 ] || { [ $o = 0 ] && [ "$v" = "$newest" ]; }; }; } || continue ;;
                    esac
                    if [ $quick = 1 ]; then
                        # One per compiler: gfx906, -O2, its newest version, plus -O0 v4.
                        [ $t = gfx906 ] || continue
                        { [ $o = 2 ] && [ "$v" = "${covs##* }" ]; } ||
                            { [ $o = 0 ] && [ "$v" = 4 ]; } || continue
                    fi
                    echo "$cc $t $o $v"
                done
            done
        done
    done
}

# ---- 1. kernels -> code objects (cached by a hash of the source, the header and the flags) ----
compile_one() { # kernel_path devlib cc target opt cov out
    local src=$1 devlib=$2 cc=$3 t=$4 o=$5 v=$6 out=$7
    [ -s "$out" ] && return 0
    local flags=(-target amdgcn-amd-amdhsa -mcpu="$t" -O"$o" -mcode-object-version="$v")
    if [ "$devlib" = 1 ]; then
        flags+=(--rocm-path=/usr --rocm-device-lib-path="$DEVLIBS" -cl-std=CL2.0 -DCORPUS_OPENCL)
    else
        flags+=(-nogpulib)
    fi
    # clang-16 at -O0 places spill reloads before the EXEC restore where branches rejoin, so the
    # reloads run with the wrong lanes and real hardware computes wrong results too (LLVM issue
    # llvm-project#61083, fixed after LLVM 16). Its greedy register allocator avoids the bug and
    # keeps every other -O0 property (no optimization passes).
    if [ "$cc" = 16 ] && [ "$o" = 0 ]; then
        flags+=(-mllvm -optimize-regalloc)
    fi
    if ! "clang-$cc" "${flags[@]}" -I"$(dirname "$src")" -o "$out.tmp" "$src" 2>"$out.err"; then
        echo "BUILD-FAIL $(basename "$src" .cl) clang-$cc $t -O$o v$v: $(head -c 300 "$out.err")"
        return 0
    fi
    mv "$out.tmp" "$out" && rm -f "$out.err"
}
export -f compile_one
export DEVLIBS

objlist=$OUT/objects.txt
: >"$objlist"
jobs_file=$OUT/compile-jobs.txt
: >"$jobs_file"
add_kernel() { # name src_dir devlib cdna
    local k=$1 dir=$2 devlib=$3 cdna=$4 hash old
    hash=$(cat "$dir/$k.cl" "$dir/corpus.h" 2>/dev/null | sha1sum | cut -c1-12)
    # Objects of earlier versions of the source are stale: drop them.
    for old in "$OUT/obj/$k"-*; do
        [ -d "$old" ] && [ "$old" != "$OUT/obj/$k-$hash" ] &&
            [[ $(basename "$old") =~ ^$k-[0-9a-f]{12}$ ]] && rm -rf "$old"
    done
    mkdir -p "$OUT/obj/$k-$hash"
    configs "$devlib" "$cdna" | while read -r cc t o v; do
        local obj=$OUT/obj/$k-$hash/clang$cc-$t-O$o-v$v.hsaco
        echo "$dir/$k.cl $devlib $cc $t $o $v $obj" >>"$jobs_file"
        echo "$k $obj" >>"$objlist"
    done
}
if [ $prebuilt = 1 ]; then
    # The objects that are there (each kernel's directory is named <kernel>-<source hash>).
    objlist=$OUT/objects-prebuilt.txt
    for k in "${kernels[@]}"; do
        for obj in "$OUT/obj/$k"-*/*.hsaco; do
            if [ -e "$obj" ] && [[ $(basename "$(dirname "$obj")") =~ ^$k-[0-9a-f]{12}$ ]]; then
                echo "$k $obj"
            fi
        done
    done >"$objlist"
    [ -s "$objlist" ] || { echo "--prebuilt: no code objects in $OUT/obj" >&2; exit 2; }
elif [ $ocl = 0 ]; then
    for k in "${kernels[@]}"; do
        d=0 m=0
        is_devlib "$CORPUS/kernels/$k.cl" && d=1
        is_cdna "$CORPUS/kernels/$k.cl" && m=1
        add_kernel "$k" "$CORPUS/kernels" "$d" "$m"
    done
    build_fail=$(xargs -P"$JOBS" -L1 bash -c 'compile_one "$@"' _ <"$jobs_file" || true)
    [ -n "$build_fail" ] && echo "$build_fail"
fi

# ---- 2. host programs: harness + one case per kernel, compiled once ----
CFLAGS=(-std=gnu11 -O1 -g -Wall -Wextra -Werror -I"$CORPUS")
if [ $ocl = 1 ]; then
    backend=("$CORPUS/harness_ocl.c" -lOpenCL)
    bindir=$OUT/bin-ocl
elif [ -e "$LIB/libhsa-runtime64.so.1" ]; then
    backend=("$CORPUS/harness.c" "$LIB/libhsa-runtime64.so.1" -Wl,-rpath,"$LIB")
    bindir=$OUT/bin
else
    # Link against the system's HSA runtime for now; at run time LIB must come first.
    backend=("$CORPUS/harness.c" -lhsa-runtime64)
    bindir=$OUT/bin
fi
mkdir -p "$bindir"
host_fail=0
for k in "${kernels[@]}"; do
    bin=$bindir/$k
    src=$CORPUS/cases/$k.c
    if [ ! -e "$src" ]; then
        echo "NO-CASE $k: $src missing"
        host_fail=$((host_fail + 1))
        continue
    fi
    if [ $prebuilt = 1 ]; then
        [ -x "$bin" ] || { echo "NO-CASE $k: $bin missing"; host_fail=$((host_fail + 1)); }
    elif [ ! -x "$bin" ] || [ -n "$(find "$src" "$CORPUS"/harness*.[ch] -newer "$bin")" ]; then
        gcc "${CFLAGS[@]}" -o "$bin" "$src" "$CORPUS/harness_common.c" "${backend[@]}" -lm ||
            { echo "HOST-BUILD-FAIL $k"; host_fail=$((host_fail + 1)); }
    fi
done

if [ $build_only = 1 ]; then
    nobj=$(wc -l <"$objlist")
    echo "built $nobj code objects and ${#kernels[@]} case programs in $(($(date +%s) - start)) s"
    [ -z "${build_fail:-}" ] && [ $host_fail = 0 ]
    exit
fi

# ---- 3. run every case on every code object ----
run_one() { # kernel object bindir logdir [memory mode]
    local k=$1 obj=$2 bin=$3/$1 mem=${5:-fine} log rc=0 t0 ms name
    name=$(basename "$obj" .hsaco)
    [ "$mem" = fine ] || name=$name-$mem
    log=$4/$(basename "$(dirname "$obj")")-$name.log
    [ -e "$obj" ] || { echo "FAIL $k $name: not built"; return; }
    export CORPUS_MEM=$mem
    # The agent must be the object's processor: a gfx900 object does not load on a gfx906.
    case $obj in
        *-gfx9[0-9a-f][0-9a-f]-*)
            local gpu=${obj##*-gfx}
            export SOFTHSA_GPU=gfx${gpu%%-*} ;;
        *) export SOFTHSA_GPU=gfx906 ;;
    esac
    t0=$(date +%s%N)
    timeout 300 "$bin" "$obj" >"$log" 2>&1 || rc=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    if [ $rc = 0 ]; then
        echo "PASS $k $name ${ms}ms"
    else
        local why="exit $rc"
        [ $rc = 124 ] && why="timeout"
        [ $rc -gt 128 ] && why="signal $((rc - 128))"
        echo "FAIL $k $name ($why): $(grep -v '^$' "$log" | head -3 |
            tr '\n' '|' | sed 's/ failed/ FAILED/g' | cut -c1-300) log: $log"
    fi
}
export -f run_one

results=$OUT/results.txt
# A kernel that loops forever (a miscompare of a branch condition) faults after this many wave
# instructions instead of running into the timeout; every corpus wave needs far fewer.
export SOFTHSA_INSTRUCTION_BUDGET=${SOFTHSA_INSTRUCTION_BUDGET:-50000000}
export CORPUS_TIMEOUT=${CORPUS_TIMEOUT:-60}
if [ $ocl = 1 ]; then
    for k in "${kernels[@]}"; do echo "$k $CORPUS/kernels/$k.cl"; done >"$objlist"
else
    export LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
# Every case also runs once with its buffers in the GPU's coarse-grained pool, copied with
# hsa_memory_copy around the dispatch (one configuration: clang-15, gfx906, -O2, v5).
xargs -P"$JOBS" -L1 bash -c 'run_one "$1" "$2" "$3" "$4" "$5"' _ \
    < <(awk -v b="$bindir" -v l="$OUT/log" -v ocl="$ocl" '{print $1, $2, b, l, "fine"}
        ocl == 0 && $2 ~ /clang15-gfx906-O2-v5/ {print $1, $2, b, l, "coarse"}' "$objlist") \
    >"$results" || true

# ---- 4. dispatch tests: faults, barrier-AND gating (softhsa only) ----
if [ $ocl = 0 ] && [ "$filter" = . ] && [ $prebuilt = 0 ]; then
    "$DISPATCH/run.sh" "$OUT/dispatch" >>"$results" 2>&1 || true
fi

grep -v '^PASS' "$results" || true
passed=$(grep -c '^PASS' "$results" || true)
failed=$(($(grep -c -v '^PASS' "$results" || true) + host_fail))
[ -n "${build_fail:-}" ] && failed=$((failed + $(echo "$build_fail" | wc -l)))
echo "$passed passed, $failed failed ($(($(date +%s) - start)) s)"
[ "$failed" = 0 ]
