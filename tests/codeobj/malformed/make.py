#!/usr/bin/env python3
"""Regenerates the malformed code object corpus from base-v5.hsaco and base-v2.hsaco.

The bases are clang-16 -O2 gfx906 builds of ../kernels/basic.cl (code object v5 and v2):
  clang-16 -target amdgcn-amd-amdhsa -mcpu=gfx906 -nogpulib -O2 -cl-std=CL2.0 \
    -mcode-object-version=5 -o base-v5.hsaco ../kernels/basic.cl     (and =2 for base-v2)
base-extern-v4.hsaco (an undefined symbol, for the loader's tests) is ../kernels/extern.s:
  llvm-mc-16 -triple amdgcn-amd-amdhsa -mcpu=gfx906 --amdhsa-code-object-version=4 \
    -filetype=obj -o /tmp/extern.o ../kernels/extern.s && ld.lld-16 -shared -o base-extern-v4.hsaco /tmp/extern.o
Each output breaks one thing; crates/codeobj/tests/malformed.rs asserts the error for each.
Run from this directory: python3 make.py
"""
import struct

V5 = open("base-v5.hsaco", "rb").read()
V2 = open("base-v2.hsaco", "rb").read()


def u(fmt, b, off):
    return struct.unpack_from("<" + fmt, b, off)[0]


def put(b, fmt, off, val):
    b = bytearray(b)
    struct.pack_into("<" + fmt, b, off, val)
    return bytes(b)


def phdrs(b):
    off, n = u("Q", b, 32), u("H", b, 56)
    return [off + 56 * i for i in range(n)]


def sections(b):
    off, n, shstrndx = u("Q", b, 40), u("H", b, 60), u("H", b, 62)
    hdrs = [off + 64 * i for i in range(n)]
    stroff = u("Q", b, hdrs[shstrndx] + 24)
    out = {}
    for h in hdrs:
        nm = u("I", b, h)
        name = b[stroff + nm: b.index(b"\0", stroff + nm)].decode()
        out[name] = h
    return out


def sec_off(b, name):
    return u("Q", b, sections(b)[name] + 24)


def loads(b):
    return [p for p in phdrs(b) if u("I", b, p) == 1]


def symbol(b, name):
    """File offset of the .symtab entry named `name`."""
    s = sections(b)
    sym, size = u("Q", b, s[".symtab"] + 24), u("Q", b, s[".symtab"] + 32)
    strtab = sec_off(b, ".strtab")
    for e in range(sym, sym + size, 24):
        nm = u("I", b, e)
        if b[strtab + nm: b.index(b"\0", strtab + nm)] == name:
            return e
    raise KeyError(name)


def vaddr_to_off(b, vaddr):
    for p in loads(b):
        v, o, fs = u("Q", b, p + 16), u("Q", b, p + 8), u("Q", b, p + 32)
        if v <= vaddr < v + fs:
            return o + vaddr - v
    raise KeyError(hex(vaddr))


def replace_same_len(b, old, new):
    assert len(old) == len(new) and old in b, (old, new)
    return b.replace(old, new, 1)


out = {}
out["empty.bin"] = b""
out["bad-magic.hsaco"] = b"\x7fELG" + V5[4:]
out["truncated-header.hsaco"] = V5[:40]
out["truncated-half.hsaco"] = V5[: len(V5) // 2]
out["elf32.hsaco"] = put(V5, "B", 4, 1)
out["big-endian.hsaco"] = put(V5, "B", 5, 2)
out["wrong-machine.hsaco"] = put(V5, "H", 18, 62)
out["wrong-osabi.hsaco"] = put(V5, "B", 7, 0)
out["abi-version-9.hsaco"] = put(V5, "B", 8, 9)
out["relocatable.hsaco"] = put(V5, "H", 16, 1)
out["unknown-processor.hsaco"] = put(V5, "I", 48, (u("I", V5, 48) & ~0xFF) | 0xFE)
out["phoff-past-end.hsaco"] = put(V5, "Q", 32, len(V5) + 100)
out["shoff-past-end.hsaco"] = put(V5, "Q", 40, len(V5) + 100)
p0, p1 = loads(V5)[0], loads(V5)[1]
out["segment-past-end.hsaco"] = put(V5, "Q", p1 + 8, len(V5) - 8)
out["segment-filesz-gt-memsz.hsaco"] = put(V5, "Q", p1 + 40, u("Q", V5, p1 + 32) - 1)
out["segment-huge.hsaco"] = put(V5, "Q", p1 + 40, 1 << 40)
out["overlapping-segments.hsaco"] = put(put(V5, "Q", p1 + 16, 0x10), "Q", p1 + 24, 0x10)
nulled = V5
for p in loads(V5):
    nulled = put(nulled, "I", p, 0)
out["no-load-segment.hsaco"] = nulled
note = sec_off(V5, ".note")
out["note-desc-overflow.hsaco"] = put(V5, "I", note + 4, 0xFFFFFF00)
# The MessagePack map starts right after the 12-byte header and the 8-byte "AMDGPU\0" name.
out["metadata-not-msgpack.hsaco"] = put(V5, "B", note + 20, 0xC1)
out["metadata-missing-field.hsaco"] = replace_same_len(V5, b".kernarg_segment_size", b".kernarg_segment_sizX")
# The first .sgpr_count's value (a positive fixint) becomes `true`.
sg = V5.index(b"\xab.sgpr_count") + 12
assert V5[sg] < 0x80
out["metadata-wrong-type.hsaco"] = put(V5, "B", sg, 0xC3)
rela = sec_off(V5, ".rela.dyn")
out["relocation-unsupported-type.hsaco"] = put(V5, "Q", rela + 8, 4)
out["relocation-outside-segments.hsaco"] = put(V5, "Q", rela, 0x7FFF0000)
out["relocation-bad-symbol.hsaco"] = put(V5, "Q", rela + 8, (99 << 32) | 13)
kd = symbol(V5, b"args.kd")
out["kernel-descriptor-outside.hsaco"] = put(V5, "Q", kd + 8, 0x7FFF0000)
kd_off = vaddr_to_off(V5, u("Q", V5, kd + 8))
out["kernel-entry-outside.hsaco"] = put(V5, "q", kd_off + 16, 0x100000)
out["v2-yaml-syntax.hsaco"] = replace_same_len(V2, b"Version:         [ 1, 0 ]", b"Version:         [ 1, 0 }")
v2note = sec_off(V2, ".note")
out["v2-missing-version-note.hsaco"] = put(V2, "I", v2note + 8, 99)
akc = symbol(V2, b"args")
akc_off = vaddr_to_off(V2, u("Q", V2, akc + 8))
out["v2-kernel-code-version.hsaco"] = put(V2, "I", akc_off, 7)
out["v2-wave32.hsaco"] = put(V2, "B", akc_off + 103, 5)

for name, data in out.items():
    with open(name, "wb") as f:
        f.write(data)
print(f"wrote {len(out)} files")
