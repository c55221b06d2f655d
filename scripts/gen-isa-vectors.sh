#!/bin/sh
# Regenerate softhsa-isa's instruction table and its llvm-objdump text vectors.
#
#   scripts/gen-isa-vectors.sh           vectors only (tests/isa/*.txt), from the stored probe
#                                        results in tests/isa/tools/*.json
#   scripts/gen-isa-vectors.sh --table   first re-probe llvm-objdump-15 for every opcode and
#                                        encoding form, then rewrite crates/isa/src/table.rs
#
# Needs llvm-mc-15, llvm-objdump-15 (Debian llvm-15) and python3. Deterministic (fixed seeds).
# PER_FORM (default 6), PER_FORM_GFX900 and PER_FORM_GFX908 (default 2) set how many random
# encodings are drawn per op and form.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
tools="$root/tests/isa/tools"
work=${ISA_WORK:-$(mktemp -d)}
mkdir -p "$work"
cp "$tools"/*.py "$tools"/*.json "$work/"
cd "$work"
if [ "${1:-}" = "--table" ]; then
    python3 probe.py gfx906          # opcode -> mnemonic/operand shapes, per format
    python3 probe.py gfx900
    python3 gen_table.py             # -> ops.json
    python3 probe2.py gfx906         # valid base + free bits of every encoding form
    python3 emit.py "$root/crates/isa/src/table.rs"
    rustfmt --edition 2021 "$root/crates/isa/src/table.rs"
    cp ops.json forms-gfx906.json probe-gfx906.json probe-gfx900.json "$tools/"
fi
rm -f "$root"/tests/isa/*.txt "$root"/tests/isa/*.lst
python3 gen_vectors.py gfx906 "${PER_FORM:-6}" "$root/tests/isa" 1
python3 gen_vectors.py gfx900 "${PER_FORM_GFX900:-2}" "$root/tests/isa" 2
python3 gen_vectors.py gfx908 "${PER_FORM_GFX908:-2}" "$root/tests/isa" 3
