"""Run llvm-objdump over candidate encodings; return text per candidate (None if invalid)."""
import subprocess, tempfile, os, re

def _disasm(cands, mcpu, tool):
    """cands: list of lists of u32 words. Returns list of (text, nbytes) or (None, 4)."""
    lines = [".text"]
    offs = []
    off = 0
    for c in cands:
        offs.append(off)
        lines.append(".long " + ",".join("0x%08x" % w for w in c) + ",0xbf800000,0xbf800000")
        off += 4 * len(c) + 8
    env = dict(os.environ, LLVM_DISABLE_SYMBOLIZATION="1")
    with tempfile.TemporaryDirectory() as d:
        s = os.path.join(d, "c.s"); o = os.path.join(d, "c.o")
        open(s, "w").write("\n".join(lines) + "\n")
        subprocess.run(["llvm-mc-" + tool, "-arch=amdgcn", "-mcpu=" + mcpu, "-filetype=obj", "-o", o, s], check=True)
        out = subprocess.run(["llvm-objdump-" + tool, "-d", "--mcpu=" + mcpu, o], check=True,
                             capture_output=True, text=True, env=env).stdout
    at = {}
    rx = re.compile(r"^\t(.*?)\s*// ([0-9A-F]{12}): ((?:[0-9A-F]{8} ?)+)(.*)$")
    for ln in out.splitlines():
        m = rx.match(ln)
        if m:
            a = int(m.group(2), 16)
            at[a] = (m.group(1), len(m.group(3).split()) * 4, m.group(4).strip())
    res = []
    for o_ in offs:
        t = at.get(o_)
        if t is None or t[0].startswith(".long"):
            res.append((None, 4, ""))
        else:
            res.append(t)
    return res

CRASHED = []
# LLVM 15 is the reference for gfx9 up to gfx90a; gfx940 (and gfx941/gfx942, which LLVM 15 does
# not know) follow LLVM 19, whose gfx940 support is complete (MFMA names, VGPR MFMA operands).
TOOL = {"gfx940": "19"}
def disasm(cands, mcpu="gfx906", tool=None, chunk=3000):
    tool = tool or TOOL.get(mcpu, "15")
    out = []
    for i in range(0, len(cands), chunk):
        out.extend(_safe(cands[i:i + chunk], mcpu, tool))
    return out

def _safe(c, mcpu, tool):
    try:
        return _disasm(c, mcpu, tool)
    except subprocess.CalledProcessError:
        if len(c) == 1:
            CRASHED.append(c[0]); return [(None, 4, "crash")]
        h = len(c) // 2
        return _safe(c[:h], mcpu, tool) + _safe(c[h:], mcpu, tool)
