"""For each op and each of its encodings: a valid base word pair and the mask of bits that may be
toggled individually while decoding to the same mnemonic (free bits)."""
import json, sys
from objdump import disasm
mcpu = sys.argv[1] if len(sys.argv) > 1 else "gfx906"
ops = [e for e in json.load(open("ops.json")) if mcpu in e["targets"]]
forms = []  # (row ident, form, base words)
for e in ops:
    w = [int(x, 16) for x in e["words"]]
    forms.append((e["ident"], "native", w))
    if "e64" in e:
        forms.append((e["ident"], "e64", [int(x, 16) for x in e["e64"]["words"]]))
    if e["cls"] in ("VOP1", "VOP2", "VOPC"):
        w0 = w[0] & ~0x1FF
        # VOP1 has no src1: its src1_sel field must stay 0.
        sel1 = 0 if e["cls"] == "VOP1" else 6 << 24
        forms.append((e["ident"], "sdwa", [w0 | 0xF9, 20 | 6 << 8 | 6 << 16 | sel1] + w[2:]))
        forms.append((e["ident"], "dpp", [w0 | 0xFA, 20 | 0xE4 << 8 | 0xF << 24 | 0xF << 28] + w[2:]))
# Register fields whose toggles could reach 128+-bit special operands (llvm-objdump-15 aborts
# on those); the decoder validates these fields itself, so they need no probing.
SKIP = {"SMEM": set(range(0, 13)), "MUBUF": set(range(48, 53)), "MTBUF": set(range(48, 53)),
        "MIMG": set(range(48, 58))}
cls_of = {e["ident"]: e["cls"] for e in ops}
name_of = {e["ident"]: e["name"] for e in ops}
cands = []
for name, form, w in forms:
    cands.append(w)
    skip = SKIP.get(cls_of[name], set())
    for bit in range(32 * len(w)):
        if bit in skip:
            # Keep indices aligned: an unchanged word counts as "free" (the decoder checks these
            # register fields by value), except a MIMG sampler field of an op without a sampler
            # (LLVM requires it to be zero): the base word with a reserved opcode there instead.
            sampler = name_of[name].startswith(("image_sample", "image_gather4", "image_get_lod"))
            cands.append(w if bit < 53 or sampler or cls_of[name] != "MIMG" else [0xffffffff] * len(w))
            continue
        x = list(w); x[bit // 32] ^= 1 << (bit % 32); cands.append(x)
res = disasm(cands, mcpu)
out = {}
i = 0
for ident, form, w in forms:
    name = name_of[ident]
    base = res[i]; n = 32 * len(w)
    def ok(r):
        if r[0] is None or r[1] != 4 * len(w): return False
        mn = r[0].split(" ")[0]
        return mn == name or mn.startswith(name + "_e") or mn in (name + "_sdwa", name + "_dpp")
    if ok(base):
        free = 0
        for bit in range(n):
            if ok(res[i + 1 + bit]): free |= 1 << bit
        out.setdefault(ident, {})[form] = {"base": ["%08x" % x for x in w], "free": "%016x" % free, "text": base[0]}
    i += 1 + n
json.dump(out, open("forms-%s.json" % mcpu, "w"), indent=0)
print(sum(len(v) for v in out.values()), "forms valid of", len(forms))
