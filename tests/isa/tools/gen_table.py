"""Merge the per-processor opcode probes (probe-<cpu>.json) into ops.json: one row per
(mnemonic, class, opcode, e64 opcode), with the set of processors that decode it so.

A mnemonic that sits at another class or opcode on some processor (gfx90a moved
v_mul_legacy_f32 to a VOP3-only opcode) gets a second row; its variant name carries the class
(or the processor, for a row that only adds an _e64 form)."""
import json, re, sys

TARGETS = ["gfx906", "gfx900", "gfx908", "gfx90a", "gfx940"]
probes = {t: json.load(open("probe-%s.json" % t)) for t in TARGETS}
LIMIT = {"SOP2": 0x60, "SOPK": 0x1D, "VOP2": 0x3E, "VOP3": 0x380}
# The VOP3 encodings of the interpolation ops are not modelled (VINTRP is).
SKIP = re.compile(r"^v_interp")
ORDER = ["SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM", "VOP2", "VOP1", "VOPC", "VOP3", "VOP3P",
         "DS", "MUBUF", "MTBUF", "FLAT", "GLOBAL", "SCRATCH", "MIMG", "VINTRP", "EXP"]


def base_of(text):
    return re.sub(r"_(e32|e64|sdwa|dpp)$", "", text.split(" ")[0])


E64_BASE = {"VOPC": 0x000, "VOP2": 0x100, "VOP1": 0x140}


def e64_of(t, cls, opc, name):
    """The VOP3 form of VOP1/VOP2/VOPC op `name` on processor t, if it has one."""
    k = E64_BASE[cls] + opc
    hit = probes[t]["VOP3"].get(str(k))
    if hit and base_of(hit[0]) == name:
        return k, hit[0], hit[1]
    return None


# VOP3 opcodes that are the _e64 forms of VOP1/VOP2/VOPC ops, per processor.
claimed = {t: set() for t in TARGETS}
for t in TARGETS:
    for cls in E64_BASE:
        for k, (text, _) in probes[t][cls].items():
            if e64_of(t, cls, int(k), base_of(text)):
                claimed[t].add(E64_BASE[cls] + int(k))
rows = {}    # key -> row
order = []   # keys in table order
for t in TARGETS:
    for cls in ORDER:
        for k, (text, words) in sorted(probes[t][cls].items(), key=lambda kv: int(kv[0])):
            op = int(k)
            if op >= LIMIT.get(cls, 1 << 20):
                continue
            name = base_of(text)
            if SKIP.match(name) and cls == "VOP3":
                continue
            if cls == "VOP3" and op in claimed[t]:
                continue  # the _e64 form of a VOP1/VOP2/VOPC op: part of that op's row
            e64 = e64_of(t, cls, op, name) if cls in E64_BASE else None
            key = (name, cls, op, e64[0] if e64 else None)
            if key not in rows:
                if any(r["name"] == name and t in r["targets"] for r in rows.values()):
                    # A second opcode for the same op on one processor (LLVM decodes MUBUF
                    # 0x71 as buffer_wbinvl1 too): not modelled.
                    print("dup", name, cls, op, t, file=sys.stderr)
                    continue
                row = {"name": name, "cls": cls, "opc": op, "text": text, "words": words,
                       "targets": []}
                if e64:
                    row["e64"] = {"opc": e64[0], "text": e64[1], "words": e64[2]}
                rows[key] = row
                order.append(key)
            if t not in rows[key]["targets"]:
                rows[key]["targets"].append(t)

# Variant names: the mnemonic; a second row of the same mnemonic adds its class, or when the
# class is the same (an _e64 form only some processors have), its first processor.
seen = {}
ops = []
for key in order:
    r = rows[key]
    ident = r["name"].upper()
    if ident in seen:
        ident += "_" + (r["cls"] if r["cls"] != seen[ident] else r["targets"][0].upper())
    assert ident not in seen, ident
    seen[ident] = r["cls"]
    r["ident"] = ident
    ops.append(r)
json.dump(ops, open("ops.json", "w"), indent=0)
print(len(ops), "ops")
