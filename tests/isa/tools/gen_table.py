import json, re, sys
d6 = json.load(open("probe-gfx906.json")); d0 = json.load(open("probe-gfx900.json"))
LIMIT = {"SOP2": 0x60, "SOPK": 0x1D, "VOP2": 0x3E, "VOP3": 0x380}
# The VOP3 encodings of the interpolation ops are not modelled (VINTRP is).
SKIP = re.compile(r"^v_interp")
ops = []
seen = {}
order = ["SOP2","SOPK","SOP1","SOPC","SOPP","SMEM","VOP2","VOP1","VOPC","VOP3","VOP3P","DS","MUBUF","MTBUF","FLAT","GLOBAL","SCRATCH","MIMG","VINTRP","EXP"]
vop3_of = {}
for cls in order:
    for k, (text, words) in sorted(d6[cls].items(), key=lambda kv: int(kv[0])):
        op = int(k)
        if op >= LIMIT.get(cls, 1 << 20): continue
        mn = text.split(" ")[0]
        base = re.sub(r"_(e32|e64|sdwa|dpp)$", "", mn)
        if SKIP.match(base) and cls == "VOP3": continue
        if cls == "VOP3" and base in seen:
            vop3_of[base] = (op, text, words); continue
        if base in seen:
            print("dup", base, cls, seen[base]["cls"], file=sys.stderr); continue
        g906 = str(op) not in d0[cls] or d0[cls][str(op)][0].split(" ")[0] != mn
        e = {"name": base, "cls": cls, "opc": op, "text": text, "words": words, "gfx906only": g906}
        seen[base] = e; ops.append(e)
# Ops that exist only on gfx900 (same opcode, another name on gfx906: v_mad_mix*).
for cls in order:
    for k, (text, words) in sorted(d0[cls].items(), key=lambda kv: int(kv[0])):
        mn = text.split(" ")[0]
        base = re.sub(r"_(e32|e64|sdwa|dpp)$", "", mn)
        if int(k) >= LIMIT.get(cls, 1 << 20) or SKIP.match(base) and cls == "VOP3" or base in seen: continue
        if cls == "VOP3" and int(k) >= 0x380: continue
        e = {"name": base, "cls": cls, "opc": int(k), "text": text, "words": words, "gfx906only": False, "gfx900only": True}
        seen[base] = e; ops.append(e)
for e in ops:
    if e["name"] in vop3_of:
        op, text, words = vop3_of[e["name"]]
        e["e64"] = {"opc": op, "text": text, "words": words, "gfx906only": str(op) not in d0["VOP3"]}
json.dump(ops, open("ops.json", "w"), indent=0)
print(len(ops), "ops")
