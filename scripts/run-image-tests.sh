#!/usr/bin/env bash
# Runs the image tests (tests/image): OpenCL C image kernels built by Debian's clang-15 with
# ROCm's device libraries, dispatched through softhsa's libhsa-runtime64.so.1 by the case
# programs (tests/image/cases/*.c), which create images through hsa_ext_image_* and compare
# every result with a host reference (tests/image/image_ref.c).
#
# Prints one line per failure and "N passed, N failed"; exits non-zero on any failure.
#   scripts/run-image-tests.sh              every case on every configuration
#   scripts/run-image-tests.sh -k REGEX     only cases whose name matches
# Environment: SOFTHSA_LIB_DIR (default target/release), IMAGE_OUT (default target/image-tests).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SRC=$ROOT/tests/image
OUT=${IMAGE_OUT:-$ROOT/target/image-tests}
LIB=${SOFTHSA_LIB_DIR:-$ROOT/target/release}
DEVLIBS=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode
filter=.
while [ $# -gt 0 ]; do
    case $1 in
        -k) filter=$2; shift ;;
        *) echo "usage: $0 [-k REGEX]" >&2; exit 2 ;;
    esac
    shift
done
[ -e "$LIB/libhsa-runtime64.so.1" ] ||
    { echo "no $LIB/libhsa-runtime64.so.1: run scripts/build-lib.sh" >&2; exit 2; }
mkdir -p "$OUT"
start=$(date +%s)
passed=0 failed=0

# Configurations: processor, -O level, code object version.
configs=("gfx906 2 5" "gfx906 0 4" "gfx906 3 3" "gfx900 2 4" "gfx908 2 5")
for cfg in "${configs[@]}"; do
    read -r t o v <<<"$cfg"
    obj=$OUT/images-$t-O$o-v$v.hsaco
    if [ ! -s "$obj" ] || [ "$SRC/kernels/images.cl" -nt "$obj" ]; then
        if ! clang-15 -target amdgcn-amd-amdhsa -mcpu="$t" -O"$o" -mcode-object-version="$v" \
            --rocm-path=/usr --rocm-device-lib-path="$DEVLIBS" -cl-std=CL2.0 \
            -o "$obj" "$SRC/kernels/images.cl" 2>"$obj.err"; then
            echo "BUILD-FAIL images.cl $t -O$o v$v: $(head -c 300 "$obj.err")"
            failed=$((failed + 1))
        fi
    fi
done

export LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for src in "$SRC"/cases/*.c; do
    k=$(basename "$src" .c)
    [[ $k =~ $filter ]] || continue
    bin=$OUT/$k
    if [ ! -x "$bin" ] || [ -n "$(find "$src" "$SRC"/image_ref.[ch] "$ROOT"/tests/corpus/harness*.[ch] -newer "$bin")" ]; then
        # No FMA contraction: the references sum filter taps in f32 exactly as specified.
        gcc -O2 -ffp-contract=off -Wall -Werror -o "$bin" "$src" "$SRC/image_ref.c" \
            "$ROOT/tests/corpus/harness.c" "$ROOT/tests/corpus/harness_common.c" \
            -lhsa-runtime64 -lm || { echo "HOST-BUILD-FAIL $k"; failed=$((failed + 1)); continue; }
    fi
    for cfg in "${configs[@]}"; do
        read -r t o v <<<"$cfg"
        obj=$OUT/images-$t-O$o-v$v.hsaco
        [ -s "$obj" ] || continue
        log=$OUT/$k-$t-O$o-v$v.log
        if SOFTHSA_GPU=$t timeout 300 "$bin" "$obj" >"$log" 2>&1; then
            passed=$((passed + 1))
        else
            echo "FAIL $k $t -O$o v$v: $(grep -v '^$' "$log" | head -3 | tr '\n' '|' | cut -c1-300) log: $log"
            failed=$((failed + 1))
        fi
    done
done
echo "$passed passed, $failed failed ($(($(date +%s) - start)) s)"
[ "$failed" = 0 ]
