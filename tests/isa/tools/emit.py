import json, re, sys
ops = json.load(open("ops.json"))
forms = json.load(open("forms-gfx906.json"))
extra = json.load(open("extra.json")) if __import__("os").path.exists("extra.json") else {}
def width(tok):
    m = re.match(r"^([vs])\[(\d+):(\d+)\]$", tok)
    if m: return m.group(1), int(m.group(3)) - int(m.group(2)) + 1
    m = re.match(r"^([vs])(\d+)$", tok)
    if m: return m.group(1), 1
    return None, 0
def wcode(tok):
    k, w = width(tok)
    if not w: return "0"
    return ("S%d" if k == "s" else "V%d") % w
VOP3B = {"v_add_co_u32","v_sub_co_u32","v_subrev_co_u32","v_addc_co_u32","v_subb_co_u32","v_subbrev_co_u32",
         "v_div_scale_f32","v_div_scale_f64","v_mad_u64_u32","v_mad_i64_i32"}
# Which VOP3 ops print op_sel: set op_sel[3] (dst) in each base form and look at the text.
from objdump import disasm
opsel = set()
_c = []; _n = []
for e in ops:
    fm = forms.get(e["name"], {})
    for k in ("native", "e64"):
        if e["cls"] in ("VOP3", "VOP1", "VOP2", "VOPC") and k in fm and (k == "e64" or e["cls"] == "VOP3"):
            b = [int(x, 16) for x in fm[k]["base"]]
            if len(b) == 2:
                _c.append([b[0] | (1 << 14), b[1]]); _n.append(e["name"])
for n, r in zip(_n, disasm(_c)):
    if r[0] and "op_sel" in r[0]:
        opsel.add(n)
fpmods = set()
_c = []; _n = []
for e in ops:
    fm = forms.get(e["name"], {})
    k = "e64" if "e64" in fm else "native"
    if e["cls"] in ("VOP3", "VOP1", "VOP2", "VOPC") and k in fm:
        b = [int(x, 16) for x in fm[k]["base"]]
        if len(b) == 2:
            _c.append([b[0] | (1 << 8), b[1] | (1 << 29)]); _n.append(e["name"])
for n, r in zip(_n, disasm(_c)):
    if r[0] and ("|" in r[0] or "-" in r[0] or "neg(" in r[0]):
        fpmods.add(n)
rows = []
for e in ops:
    cls = e["cls"]; name = e["name"]
    text = e.get("e64", {}).get("text") or e["text"]
    def split_ops(t):
        out, depth, cur = [], 0, ""
        for ch in t:
            depth += ch == "(" or ch == "["
            depth -= ch == ")" or ch == "]"
            if ch == "," and depth == 0:
                out.append(cur.strip()); cur = ""
            else:
                cur += ch
        if cur.strip(): out.append(cur.strip())
        return out
    toks = split_ops(text.split(" ", 1)[1]) if " " in text else []
    toks = [t.split(" ")[0] for t in toks]
    flags = []
    if e["gfx906only"]: flags.append("GFX906")
    if e.get("gfx900only"): flags.append("GFX900")
    dst = "0"; src = ["0", "0", "0"]
    if cls in ("VOP1","VOP2","VOPC","VOP3","VOP3P"):
        if "e64" in e: flags.append("E64")
        if name in VOP3B: flags.append("VOP3B")
        if name in opsel: flags.append("OPSEL")
        if name in fpmods: flags.append("FPMODS")
        if name.startswith("v_cmpx_"): flags.append("CMPX")
        if name in ("v_madmk_f32","v_madak_f32","v_madmk_f16","v_madak_f16"):
            toks = [t for t in toks if not t.startswith("0x")]
            flags.append("MADK")
        if cls == "VOPC" or (cls == "VOP3" and False): pass
        if toks:
            if cls == "VOPC":
                dst = "S2"; ss = toks[1:] if "e64" in e else toks
                if "e64" not in e: ss = toks[1:]
            else:
                dst = wcode(toks[0]); ss = toks[1:]
                if "VOP3B" in flags: ss = ss[1:]
            for i, t in enumerate(ss[:3]): src[i] = wcode(t)
    elif cls in ("SOP2","SOP1","SOPC","SOPK"):
        if cls == "SOPC": ss = toks
        elif name in ("s_cbranch_g_fork","s_rfe_restore_b64","s_setpc_b64","s_rfe_b64","s_cbranch_join","s_set_gpr_idx_idx"):
            ss = toks
        elif cls == "SOPK" and name.startswith("s_setreg"):
            ss = toks[1:]
        elif cls == "SOPK" and (name.startswith("s_cmpk") or name == "s_cbranch_i_fork"):
            ss = toks
        else:
            dst = wcode(toks[0]) if toks else "0"; ss = toks[1:]
        for i, t in enumerate(ss[:3]): src[i] = wcode(t)
    elif cls == "SMEM":
        if name.startswith("s_dcache_discard"):
            src[0] = wcode(toks[0])
        elif toks and width(toks[0])[1]:
            if "store" in name: src[2] = wcode(toks[0]); flags.append("STORE")
            else:
                dst = wcode(toks[0])
                if "load" in name: flags.append("LOAD")
                elif "atomic" in name: flags.append("ATOMIC")
            if len(toks) > 1: src[0] = wcode(toks[1])
        elif toks:
            src[0] = wcode(toks[1] if name.startswith("s_atc") else toks[0])
    elif cls == "DS":
        rtn = "_rtn_" in name or name.startswith("ds_read") or name in ("ds_swizzle_b32","ds_permute_b32","ds_bpermute_b32","ds_consume","ds_append") or name.startswith("ds_condxchg") or name == "ds_ordered_count"
        if rtn and toks: dst = wcode(toks[0]); ss = toks[1:]
        else: ss = toks
        if name == "ds_write_addtid_b32": ss = ["", toks[0]]
        for i, t in enumerate(ss[:3]): src[i] = wcode(t)
    elif cls in ("MUBUF","MTBUF","FLAT","GLOBAL","SCRATCH","MIMG"):
        if name == "buffer_store_lds_dword":
            data = addr = ""  # LDS → memory copy: no VGPR operands
        elif cls in ("MUBUF","MTBUF","MIMG"):
            data = toks[0] if toks else ""
            addr = toks[1] if len(toks) > 1 else ""
        else:
            if "load" in name: data, addr = toks[0], toks[1]
            else: addr, data = toks[0], toks[1]
        if "load" in name or "gather" in name or "sample" in name or "get_" in name or name.startswith("image_load"):
            dst = wcode(data); flags.append("LOAD")
        elif "store" in name: src[1] = wcode(data); flags.append("STORE")
        elif "atomic" in name: src[1] = wcode(data); flags.append("ATOMIC")
        src[0] = wcode(addr)
    elif cls == "VINTRP":
        dst = wcode(toks[0])
        if not name.startswith("v_interp_mov"): src[0] = wcode(toks[1])
    elif cls == "EXP":
        src = ["V1", "V1", "V1"]  # and a fourth source the decoder reads itself
    fm = forms.get(name, {})
    if "sdwa" in fm: flags.append("SDWA")
    if "dpp" in fm: flags.append("DPP")
    f = "|".join(flags) if flags else "0"
    fv = []
    for k in ("native", "e64", "sdwa", "dpp"):
        if k in fm:
            b = [int(x, 16) for x in fm[k]["base"]]
            bv = b[0] | (b[1] << 32 if len(b) > 1 else 0)
            fv += ["0x%x" % bv, "0x%x" % int(fm[k]["free"], 16)]
        else:
            fv += ["0", "0"]
    e64 = e.get("e64", {}).get("opc", 0xFFFF)
    rows.append("    %s = (\"%s\", %s, 0x%03x, 0x%04x, %s, [%s], %s, [%s])," % (
        name.upper(), name, cls.capitalize(), e["opc"], e64, dst, ", ".join(src), f, ", ".join(fv)))
out = open(sys.argv[1] if len(sys.argv) > 1 else "/work/main/crates/isa/src/table.rs", "w")
out.write("""//! THE table of GFX9 (gfx900/gfx906) instructions: one row per instruction, the single source of
//! truth for the `Op` enum, the decoder's opcode maps, operand widths and the disassembler's names.
//!
//! Generated by `tests/isa/gen_table.py` from probes of LLVM's disassembler (llvm-objdump-15);
//! regenerate with `scripts/gen-isa-vectors.sh --table`. Row layout:
//! `VARIANT = (mnemonic, class, opcode, vop3_opcode_or_0xFFFF, dst, [src0, src1, src2], flags,\n//! [base, free] x (native, e64, sdwa, dpp))`
//! where operand shapes are `0` (absent), `Vn` (vector or any source, n dwords) or `Sn` (scalar
//! register class, n dwords). `base` is a valid encoding of the form (0: no such form) and\n//! `free` the bits that may vary from it; all other bits must equal `base`'s. Memory classes: `dst` = loaded data, `src0` = address (DS/MUBUF/FLAT)
//! or SGPR base (SMEM), `src1` = stored data (or DS data0), `src2` = DS data1 / SMEM store data.

/// Invokes `$m!` with the whole instruction table.
#[macro_export]
macro_rules! for_each_op {
    ($m:ident) => {
        $m! {
""")
out.write("\n".join(rows))
out.write("""
        }
    };
}
""")
print(len(rows))
