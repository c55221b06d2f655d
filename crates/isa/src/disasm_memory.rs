//! Memory instruction text: SMEM, DS, MUBUF, MTBUF, FLAT/GLOBAL/SCRATCH, MIMG.

use crate::disasm::{reg, src, sreg, vreg, Ty};
use crate::inst::MemFlags;
use crate::op::OpFlags;
use crate::{Encoding, Inst, Op};
use std::fmt::{self, Write};

pub(crate) fn print(w: &mut impl Write, i: &Inst) -> fmt::Result {
    w.write_str(i.op.name())?;
    match i.enc {
        Encoding::Smem => smem(w, i),
        Encoding::Ds => ds(w, i),
        Encoding::Mubuf | Encoding::Mtbuf => buffer(w, i),
        Encoding::Mimg => mimg(w, i),
        _ => flat(w, i),
    }
}

fn flags(w: &mut impl Write, f: MemFlags, list: &[(u16, &str)]) -> fmt::Result {
    for (b, n) in list {
        if f.has(*b) {
            write!(w, " {n}")?;
        }
    }
    Ok(())
}

fn smem(w: &mut impl Write, i: &Inst) -> fmt::Result {
    let op = i.op;
    let f = i.mem_flags();
    let mut sep = " ";
    let data = if !i.dst.is_none() { i.dst } else { i.src[2] };
    if matches!(op, Op::S_ATC_PROBE | Op::S_ATC_PROBE_BUFFER) {
        // The sdata field is an immediate here.
        w.write_str(sep)?;
        crate::disasm::literal(w, i.src[2].raw() as u32, Ty::B32)?;
        sep = ", ";
    } else if !data.is_none() {
        w.write_str(sep)?;
        sreg(w, data.raw(), op.dst_dwords().max(op.src_dwords(2)))?;
        sep = ", ";
    }
    if op.src_dwords(0) != 0 {
        w.write_str(sep)?;
        sreg(w, i.src[0].raw(), op.src_dwords(0))?;
        crate::disasm_annot::mark(w, i, 0, i.src[0])?;
        sep = ", ";
        if f.has(MemFlags::IMM) && !f.has(MemFlags::SOE) {
            w.write_str(sep)?;
            signed_hex(w, i.imm)?;
        } else {
            w.write_str(sep)?;
            src(w, i, i.src[1], 1, Ty::B32)?;
            if f.has(MemFlags::SOE) && f.has(MemFlags::IMM) {
                w.write_str(" offset:")?;
                signed_hex(w, i.imm)?;
            }
        }
    }
    // Only ops with data print GLC (cache maintenance and probes ignore the bit).
    let has_data = op.src_dwords(0) != 0 && (op.dst_dwords() != 0 || op.src_dwords(2) != 0);
    if has_data && !matches!(op, Op::S_ATC_PROBE | Op::S_ATC_PROBE_BUFFER) {
        flags(w, f, &[(MemFlags::GLC, "glc")])?;
    }
    Ok(())
}

fn signed_hex(w: &mut impl Write, v: i32) -> fmt::Result {
    if v < 0 {
        write!(w, "-0x{:x}", v.unsigned_abs())
    } else {
        write!(w, "0x{v:x}")
    }
}

fn ds(w: &mut impl Write, i: &Inst) -> fmt::Result {
    let op = i.op;
    let mut sep = " ";
    if !i.dst.is_none() {
        w.write_str(sep)?;
        reg(w, i.dst, op.dst_dwords())?;
        sep = ", ";
    }
    for s in 0..3 {
        if !i.src[s].is_none() {
            w.write_str(sep)?;
            reg(w, i.src[s], op.src_dwords(s))?;
            sep = ", ";
        }
    }
    let m = i.mem().copied().unwrap_or_default();
    let n = op.name();
    let two = n.contains("read2") || n.contains("write2") || n.contains("wrxchg2");
    if two {
        if i.imm != 0 {
            write!(w, " offset0:{}", i.imm)?;
        }
        if m.offset1 != 0 {
            write!(w, " offset1:{}", m.offset1)?;
        }
    } else {
        let off = i.imm as u16 | (m.offset1 as u16) << 8;
        if op == Op::DS_SWIZZLE_B32 && off != 0 {
            w.write_str(" offset:")?;
            swizzle(w, off)?;
        } else if off != 0 {
            write!(w, " offset:{off}")?;
        }
    }
    flags(w, m.flags, &[(MemFlags::GDS, "gds")])
}

/// ds_swizzle_b32's offset in LLVM's symbolic `swizzle(...)` form.
fn swizzle(w: &mut impl Write, imm: u16) -> fmt::Result {
    if imm & 0xFF00 == 0x8000 {
        let l = |k: u16| imm >> (2 * k) & 3;
        return write!(w, "swizzle(QUAD_PERM,{},{},{},{})", l(0), l(1), l(2), l(3));
    }
    if imm & 0x8000 != 0 {
        return write!(w, "{imm}");
    }
    let (and, or, xor) = (imm & 0x1F, imm >> 5 & 0x1F, imm >> 10 & 0x1F);
    if and == 0x1F && or == 0 && xor.count_ones() == 1 {
        return write!(w, "swizzle(SWAP,{xor})");
    }
    if and == 0x1F && or == 0 && xor > 0 && (xor + 1).is_power_of_two() {
        return write!(w, "swizzle(REVERSE,{})", xor + 1);
    }
    let group = 0x1F - and + 1;
    if group > 1 && group.is_power_of_two() && or < group && xor == 0 && and & (group - 1) == 0 {
        return write!(w, "swizzle(BROADCAST,{group},{or})");
    }
    w.write_str("swizzle(BITMASK_PERM,\"")?;
    for b in (0..5).rev() {
        let bit = |m: u16| m >> b & 1 != 0;
        let c = match (bit(and), bit(or), bit(xor)) {
            (_, true, x) => {
                if x {
                    '0'
                } else {
                    '1'
                }
            }
            (true, false, x) => {
                if x {
                    'i'
                } else {
                    'p'
                }
            }
            (false, false, x) => {
                if x {
                    '1'
                } else {
                    '0'
                }
            }
        };
        w.write_char(c)?;
    }
    w.write_str("\")")
}

const DFMT: [&str; 16] = [
    "INVALID",
    "8",
    "16",
    "8_8",
    "32",
    "16_16",
    "10_11_11",
    "11_11_10",
    "10_10_10_2",
    "2_10_10_10",
    "8_8_8_8",
    "32_32",
    "16_16_16_16",
    "32_32_32",
    "32_32_32_32",
    "RESERVED_15",
];
const NFMT: [&str; 8] = [
    "UNORM",
    "SNORM",
    "USCALED",
    "SSCALED",
    "UINT",
    "SINT",
    "RESERVED_6",
    "FLOAT",
];

fn buffer(w: &mut impl Write, i: &Inst) -> fmt::Result {
    let op = i.op;
    let m = i.mem().copied().unwrap_or_default();
    let f = m.flags;
    let data = if !i.src[1].is_none() { i.src[1] } else { i.dst };
    let lds_store = op == Op::BUFFER_STORE_LDS_DWORD;
    if data.is_none() && !lds_store {
        // Cache maintenance: gfx940 names the caches it acts on (sc0/sc1, and nt).
        if i.gfx == crate::Gfx::Gfx940 && matches!(op, Op::BUFFER_WBL2 | Op::BUFFER_INV) {
            return flags(w, f, &[(MemFlags::GLC, "sc0"), (MemFlags::SCC, "sc1")]);
        }
        return Ok(());
    }
    w.write_char(' ')?;
    if !lds_store {
        if !f.has(MemFlags::LDS) {
            reg(w, data, op.mem_dwords())?;
            w.write_str(", ")?;
        }
        let both = f.has(MemFlags::OFFEN) && f.has(MemFlags::IDXEN);
        if i.src[0].is_none() {
            w.write_str("off")?;
        } else {
            vreg(
                w,
                i.src[0].vgpr_index().unwrap_or(0),
                if both { 2 } else { 1 },
            )?;
        }
        w.write_str(", ")?;
    }
    sreg(w, i.src[2].raw(), 4)?;
    crate::disasm_annot::mark(w, i, 2, i.src[2])?;
    w.write_str(", ")?;
    src(w, i, i.src[3], 1, Ty::B32)?;
    if i.enc == Encoding::Mtbuf && (m.dfmt != 1 || m.nfmt != 0) {
        w.write_str(" format:[")?;
        if m.dfmt != 1 {
            write!(w, "BUF_DATA_FORMAT_{}", DFMT[m.dfmt as usize & 15])?;
        }
        if m.nfmt != 0 {
            if m.dfmt != 1 {
                w.write_char(',')?;
            }
            write!(w, "BUF_NUM_FORMAT_{}", NFMT[m.nfmt as usize & 7])?;
        }
        w.write_char(']')?;
    }
    flags(
        w,
        f,
        &[(MemFlags::IDXEN, "idxen"), (MemFlags::OFFEN, "offen")],
    )?;
    if i.imm != 0 {
        write!(w, " offset:{}", i.imm)?;
    }
    if lds_store {
        // Its `lds` is part of the mnemonic's syntax and comes first.
        w.write_str(" lds")?;
        return flags(w, f, &cache(i));
    }
    flags(w, f, &cache(i))?;
    flags(w, f, &[(MemFlags::LDS, "lds")])?;
    // LDS-direct and atomic forms have no TFE operand: LLVM ignores the bit.
    if f.has(MemFlags::TFE) && !f.has(MemFlags::LDS) && !op.flags().has(OpFlags::ATOMIC) {
        w.write_str(" tfe")?;
    }
    Ok(())
}

fn flat(w: &mut impl Write, i: &Inst) -> fmt::Result {
    let op = i.op;
    let f = i.mem_flags();
    let mut sep = " ";
    let lds = f.has(MemFlags::LDS);
    if !i.dst.is_none() && !lds {
        w.write_str(sep)?;
        let n = if op.flags().has(OpFlags::ATOMIC) {
            op.atomic_return_dwords()
        } else {
            op.dst_dwords()
        };
        reg(w, i.dst, n)?;
        sep = ", ";
    }
    let saddr = !i.src[2].is_none();
    if i.enc == Encoding::Scratch && i.src[0].is_none() {
        w.write_str(sep)?;
        w.write_str("off")?;
        sep = ", ";
    } else if !i.src[0].is_none() {
        w.write_str(sep)?;
        let n = if i.enc == Encoding::Scratch || saddr {
            1
        } else {
            2
        };
        vreg(w, i.src[0].vgpr_index().unwrap_or(0), n)?;
        sep = ", ";
    }
    if !i.src[1].is_none() {
        w.write_str(sep)?;
        reg(w, i.src[1], op.src_dwords(1))?;
    }
    if i.enc != Encoding::Flat {
        w.write_str(", ")?;
        if saddr {
            reg(w, i.src[2], if i.enc == Encoding::Global { 2 } else { 1 })?;
        } else {
            w.write_str("off")?;
        }
    }
    if i.imm != 0 {
        write!(w, " offset:{}", i.imm)?;
    }
    flags(w, f, &cache(i))?;
    flags(w, f, &[(MemFlags::LDS, "lds")])
}

/// The cache-policy bits as the processor names them: glc/slc/scc (gfx90a's scc), and on gfx940
/// sc0/nt/sc1 (printed in that order).
fn cache(i: &Inst) -> [(u16, &'static str); 3] {
    if i.gfx == crate::Gfx::Gfx940 {
        [
            (MemFlags::GLC, "sc0"),
            (MemFlags::SLC, "nt"),
            (MemFlags::SCC, "sc1"),
        ]
    } else {
        [
            (MemFlags::GLC, "glc"),
            (MemFlags::SLC, "slc"),
            (MemFlags::SCC, "scc"),
        ]
    }
}

/// VGPRs of MIMG vdata: one per dmask bit (halved for packed D16) plus one for TFE. LLVM then
/// looks up the op's variant of that size; when none exists the decoded default stays.
fn mimg_data_dwords(op: Op, dmask: u8, f: MemFlags) -> u8 {
    let tfe = f.has(MemFlags::TFE) as u8;
    let d16 = f.has(MemFlags::D16);
    let name = op.name();
    if op.flags().has(OpFlags::ATOMIC) {
        let n = (dmask.count_ones() as u8).max(1) + tfe;
        let cmpswap = name.contains("cmpswap");
        let ok = if cmpswap {
            n == 2 || n == 4
        } else {
            n == 1 || n == 2
        };
        return if ok { n } else { op.src_dwords(1) };
    }
    if name.contains("gather4") {
        return match (d16, tfe) {
            (true, 1) => 4,
            (true, _) => 2,
            (false, t) => 4 + t,
        };
    }
    let mut n = (dmask.count_ones() as u8).max(1);
    if d16 {
        n = n.div_ceil(2);
    }
    n + tfe
}

fn mimg(w: &mut impl Write, i: &Inst) -> fmt::Result {
    let op = i.op;
    let m = i.mem().copied().unwrap_or_default();
    let f = m.flags;
    let data = if !i.dst.is_none() { i.dst } else { i.src[1] };
    let mut n = mimg_data_dwords(op, m.dfmt, f);
    let first = data.vgpr_index().or(data.agpr_index()).unwrap_or(0);
    if first as u16 + n as u16 > 256 {
        // No such register tuple: LLVM keeps the opcode's default size.
        n = op.dst_dwords().max(op.src_dwords(1));
    }
    w.write_char(' ')?;
    reg(w, data, n)?;
    w.write_str(", ")?;
    vreg(w, i.src[0].vgpr_index().unwrap_or(0), op.src_dwords(0))?;
    w.write_str(", ")?;
    sreg(w, i.src[2].raw(), 8)?;
    if mimg_has_sampler(op) {
        w.write_str(", ")?;
        sreg(w, i.src[3].raw(), 4)?;
    }
    if m.dfmt != 0 {
        write!(w, " dmask:0x{:x}", m.dfmt)?;
    }
    flags(
        w,
        f,
        &[
            (MemFlags::UNORM, "unorm"),
            (MemFlags::GLC, "glc"),
            (MemFlags::SLC, "slc"),
            (MemFlags::SCC, "scc"),
            (MemFlags::R128, "a16"),
            (MemFlags::TFE, "tfe"),
            (MemFlags::LWE, "lwe"),
            (MemFlags::DA, "da"),
            (MemFlags::D16, "d16"),
        ],
    )
}

/// Sampling MIMG ops take a sampler descriptor (ssamp).
pub(crate) fn mimg_has_sampler(op: Op) -> bool {
    let n = op.name();
    n.contains("sample") || n.contains("gather") || n.contains("get_lod")
}
