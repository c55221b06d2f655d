#!/bin/sh
# Regenerate softhsa-isa's instruction table and its llvm-objdump text vectors.
#
#   scripts/gen-isa-vectors.sh           vectors only (tests/isa/*.txt), from the stored probe
#                                        results in tests/isa/tools/*.json
#   scripts/gen-isa-vectors.sh --table   first re-probe llvm-objdump-15 for every opcode and
#                                        encoding form of every processor, then rewrite
#                                        crates/isa/src/table.rs and forms.rs
#
# Needs llvm-mc-15, llvm-objdump-15 (Debian llvm-15) and python3. Deterministic (fixed seeds).
# PER_FORM (default 6, gfx906) and PER_FORM_OTHER (default 2: gfx900, gfx908, gfx90a, gfx940)
# set how many random encodings are drawn per op and form.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
tools="$root/tests/isa/tools"
work=${ISA_WORK:-$(mktemp -d)}
mkdir -p "$work"
cp "$tools"/*.py "$tools"/*.json "$work/"
cd "$work"
cpus="gfx906 gfx900 gfx908 gfx90a gfx940"
if [ "${1:-}" = "--table" ]; then
    for cpu in $cpus; do
        python3 probe.py $cpu        # opcode -> mnemonic/operand shapes, per format
    done
    python3 gen_table.py             # -> ops.json: rows and the processors that have them
    for cpu in $cpus; do
        python3 probe2.py $cpu       # valid base + free bits of every encoding form
    done
    python3 emit.py "$root/crates/isa/src"
    rustfmt --edition 2021 "$root/crates/isa/src/table.rs" "$root/crates/isa/src/forms.rs"
    cp ops.json forms-*.json probe-*.json "$tools/"
fi
rm -f "$root"/tests/isa/*.txt "$root"/tests/isa/*.lst
seed=0
for cpu in $cpus; do
    seed=$((seed + 1))
    [ -e "forms-$cpu.json" ] || { echo "no forms-$cpu.json (run --table): $cpu skipped"; continue; }
    per=${PER_FORM_OTHER:-2}
    [ "$cpu" = gfx906 ] && per=${PER_FORM:-6}
    python3 gen_vectors.py "$cpu" "$per" "$root/tests/isa" "$seed"
done
