#!/usr/bin/env bash
# Builds kernels.cl (clang-15, gfx906, code object v5) and concurrency.c, then runs the
# concurrency tests with the default workers, with SOFTHSA_WORKERS=1 (forward progress with a
# single worker), under the interpreter, and the multi-grid sync over two GPU agents.
# scripts/run-c-tests.sh runs it (SOFTHSA_LIB_DIR, SOFTHSA_TEST_TMP set); it also runs alone:
#   SOFTHSA_LIB_DIR=target/release tests/c/concurrency/run-concurrency.sh
# Prints the programs' PASS/FAIL lines; exit status 0 when every run passed.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lib=${SOFTHSA_LIB_DIR:-$here/../../../target/release}
out=${SOFTHSA_TEST_TMP:-$(mktemp -d)}
clang=${CONCURRENCY_CLANG:-clang-15}
mkdir -p "$out"

"$clang" -target amdgcn-amd-amdhsa -mcpu=gfx906 -O2 -nogpulib -cl-std=CL2.0 \
    -mcode-object-version=5 -o "$out/kernels.hsaco" "$here/kernels.cl" ||
    { echo "FAIL concurrency: kernels.cl does not build"; exit 1; }
cc -std=gnu11 -O1 -g -Wall -Wextra -Werror -o "$out/concurrency" "$here/concurrency.c" \
    -L"$lib" -l:libhsa-runtime64.so.1 -Wl,-rpath,"$lib" -lpthread ||
    { echo "FAIL concurrency: concurrency.c does not build"; exit 1; }

status=0
run() { # label env... -- tests...
    local label=$1
    shift
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    echo "== $label"
    if ! env "${envs[@]}" timeout 100 "$out/concurrency" "$out/kernels.hsaco" "$@"; then
        echo "FAIL concurrency ($label)"
        status=1
    fi
}
all="coop inorder overlap gridsync spinlock chain preempt priority destroy"
run "default workers" SOFTHSA_GPUS=1 -- $all
run "one worker" SOFTHSA_GPUS=1 SOFTHSA_WORKERS=1 -- $all
run "interpreter" SOFTHSA_GPUS=1 SOFTHSA_JIT=off -- inorder overlap gridsync chain
run "two agents" SOFTHSA_GPUS=2 -- multigrid
run "two agents, one worker" SOFTHSA_GPUS=2 SOFTHSA_WORKERS=1 -- multigrid
exit $status
