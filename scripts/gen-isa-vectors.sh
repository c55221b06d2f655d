#!/bin/sh
# Regenerate the GFX9 instruction table and the disassembler text vectors from the real tools.
#
#   scripts/gen-isa-vectors.sh           vectors only (tests/isa/*.txt) from the current probes
#   scripts/gen-isa-vectors.sh --table   also re-probe llvm-objdump for every opcode/form and
#                                        rewrite crates/isa/src/table.rs
#
# Needs llvm-mc-15 and llvm-objdump-15 (Debian llvm-15) and python3. Deterministic (fixed seeds).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
tools="$root/tests/isa/tools"
work=${ISA_WORK:-$root/target/isa-probe}
mkdir -p "$work"
cd "$work"
cp "$tools"/*.py .
if [ "${1:-}" = "--table" ] || [ ! -f forms-gfx906.json ]; then
    python3 probe.py gfx906
    python3 probe.py gfx900
    python3 gen_table.py
    python3 probe2.py gfx906
    python3 emit.py "$root/crates/isa/src/table.rs"
    cp ops.json forms-gfx906.json "$tools/"
fi
rm -f "$root"/tests/isa/*.txt
python3 gen_vectors.py gfx906 "${PER_FORM:-4}" "$root/tests/isa" 1
python3 gen_vectors.py gfx900 "${PER_FORM_GFX900:-1}" "$root/tests/isa" 2
