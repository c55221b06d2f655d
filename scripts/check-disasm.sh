#!/usr/bin/env bash
# `softhsa disasm` against llvm-objdump on every code object the corpus built
# (target/corpus/obj, from scripts/run-corpus.sh): the listings must be identical. The reference
# is llvm-objdump-15, and llvm-objdump-19 for gfx94x (LLVM 15 does not know gfx941/gfx942 and
# prints gfx940's MFMA with gfx908's names).
# Prints one line per difference and a final "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${SOFTHSA_BIN:-target/release/softhsa}
objdir=target/corpus/obj
[ -x "$bin" ] || { echo "check-disasm: $bin missing (cargo build --release -p softhsa)"; exit 2; }
[ -d "$objdir" ] || { echo "check-disasm: $objdir missing (run scripts/run-corpus.sh first)"; exit 2; }
command -v llvm-objdump-15 >/dev/null || { echo "check-disasm: llvm-objdump-15 missing"; exit 2; }

# Code object v2: llvm-objdump-15 prints the first kernel's amd_kernel_code_t bytes in front of
# every kernel (its bug); softhsa prints each kernel's own. There the `.byte` lines are left out of
# the comparison, and every instruction line must still match.
check_one() { # object
  local f=$1 cpu keep=cat tool=llvm-objdump-15
  cpu=$(basename "$f" | grep -o 'gfx9[0-9a-f][0-9a-f]')
  case "$cpu" in gfx94*) tool=llvm-objdump-19 ;; esac
  case "$f" in *-v2.hsaco) keep="grep -v ^[[:space:]]*\.byte" ;; esac
  if diff <("$BIN" disasm "$f" 2>&1 | $keep) \
          <("$tool" -d --mcpu="$cpu" "$f" 2>&1 | $keep) >/dev/null; then
    echo PASS
  else
    echo "FAIL $f"
  fi
}
export -f check_one
export BIN=$bin
results=$(find "$objdir" -name '*.hsaco' | sort | xargs -P "$(nproc)" -n 1 bash -c 'check_one "$0"')
grep '^FAIL' <<<"$results"
p=$(grep -c '^PASS' <<<"$results")
f=$(grep -c '^FAIL' <<<"$results")
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
