import json, sys, itertools
from objdump import disasm
V = lambda n: 0x100 + n
# format: (base64, opshift, nops, nwords, [(shift, [values...])], extra literal variants)
FM = {
 "SOP2": (0b10 << 30, 23, 128, 1, [(16, [10, 0]), (8, [40, 0]), (0, [20, 0])]),
 "SOPK": (0b1011 << 28, 23, 32, 1, [(16, [10, 0]), (0, [0x1234, 0])]),
 "SOP1": (0x17D << 23, 8, 256, 1, [(16, [10, 0]), (0, [20, 0])]),
 "SOPC": (0x17E << 23, 16, 128, 1, [(8, [40, 0]), (0, [20, 0])]),
 "SOPP": (0x17F << 23, 16, 128, 1, [(0, [3, 0])]),
 "SMEM": ((0b110000 << 26), 18, 256, 2, [(17, [1, 0]), (0, [10, 0]), (6, [40, 0]), (32, [0x10, 0])]),
 "VOP2": (0, 25, 64, 1, [(17, [10, 0]), (9, [40, 0]), (0, [V(20), 0])]),
 "VOP1": (0x3F << 25, 9, 256, 1, [(17, [10, 0]), (0, [V(20), 0])]),
 "VOPC": (0x3E << 25, 17, 256, 1, [(9, [40, 0]), (0, [V(20), 0])]),
 "VOP3": (0b110100 << 26, 16, 1024, 2, [(0, [10, 0]), (32, [V(20), 20, 0]), (41, [V(40), 40, 0]), (50, [V(60), 60, 0])]),
 "VOP3P": (0x1A7 << 23, 16, 128, 2, [(0, [10, 0]), (32, [V(20), 20, 0]), (41, [V(40), 40, 0]), (50, [V(60), 60, 0])]),
 "DS": (0b110110 << 26, 17, 256, 2, [(16, [0, 1]), (32, [20, 0]), (40, [40, 0]), (48, [60, 0]), (56, [10, 0])]),
 "MUBUF": ((0b111000 << 26), 18, 128, 2, [(16, [0, 1]), (12, [1, 0]), (48, [2, 0]), (56, [0x80, 0]), (32, [20, 0]), (40, [40, 0])]),
 "MTBUF": ((0b111010 << 26) | (1 << 12) | (4 << 19) | (7 << 23) | (2 << 48) | (0x80 << 56), 15, 16, 2, [(32, [20, 0]), (40, [40, 0])]),
 "FLAT": (0b110111 << 26, 18, 128, 2, [(32, [20, 0]), (40, [40, 0]), (48, [0x7f, 20, 0]), (56, [10, 0])]),
 "SCRATCH": ((0b110111 << 26) | (1 << 14), 18, 128, 2, [(32, [20, 0]), (40, [40, 0]), (48, [0x7f, 20, 0]), (56, [10, 0])]),
 "GLOBAL": ((0b110111 << 26) | (2 << 14), 18, 128, 2, [(32, [20, 0]), (40, [40, 0]), (48, [0x7f, 20, 0]), (56, [10, 0])]),
 "MIMG": ((0b111100 << 26) | (1 << 8) | (2 << 48), 18, 128, 2, [(32, [20, 0]), (40, [40, 0])]),
 # Graphics-only encodings: VINTRP (vdst, attr, channel, vsrc) and EXP (no opcode field).
 "VINTRP": (0b110101 << 26, 16, 4, 1, [(18, [10, 0]), (10, [3, 0]), (8, [1, 0]), (0, [20, 0])]),
 "EXP": (0b110001 << 26, 0, 1, 2, [(0, [0xf]), (32, [1]), (40, [2]), (48, [3]), (56, [4])]),
}
def cands_for(fmt, op):
    base, sh, n, nw, fields = FM[fmt]
    out = []
    for vals in itertools.product(*[f[1] for f in fields]):
        x = base | (op << sh)
        for (s, _), v in zip(fields, vals):
            x |= v << s
        ws = [x & 0xffffffff] + ([x >> 32] if nw == 2 else [])
        out.append(ws)
        if nw == 1:
            out.append(ws + [0x11])
    return out
mcpu = sys.argv[1] if len(sys.argv) > 1 else "gfx906"
out = {}
for name in FM:
    cands = []; idx = []
    for op in range(FM[name][2]):
        for c in cands_for(name, op):
            cands.append(c); idx.append(op)
    res = disasm(cands, mcpu)
    got = {}
    for op, c, r in zip(idx, cands, res):
        if r[0] is not None and op not in got and r[1] == 4 * len(c):
            got[op] = [r[0], ["%08x" % w for w in c]]
    out[name] = got
json.dump(out, open("probe-%s.json" % mcpu, "w"), indent=0)
for k, v in out.items(): print(k, len(v))
