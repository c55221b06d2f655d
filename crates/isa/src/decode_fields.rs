//! Field extraction per encoding, once the op and its form have been validated.

use crate::decode::{bits, blank, Dec, DecodeError};
use crate::inst::{Dpp, Encoding, Ext, Inst, Mem, MemFlags, Sdwa};
use crate::op::{Class, Op, OpFlags};
use crate::Operand;

fn sop(code: u32) -> Operand {
    Operand(code as u16)
}
fn vgpr(n: u32) -> Operand {
    Operand(256 + (n & 0xFF) as u16)
}
/// A VOP 8-bit register field of the given shape: scalar register code or VGPR.
fn reg8(op_scalar: bool, n: u32) -> Operand {
    if op_scalar {
        sop(n)
    } else {
        vgpr(n)
    }
}

/// Read the literal when any used source is the literal code; sets `len`.
fn take_literal(d: &Dec, inst: &mut Inst, words: usize) -> Result<(), DecodeError> {
    if inst.src.iter().any(|s| s.is_literal()) {
        inst.literal = d.dword(words)?;
        inst.len = 4 * words as u8 + 4;
    }
    Ok(())
}

pub(crate) fn scalar(d: &Dec, op: Op, class: Class) -> Result<Inst, DecodeError> {
    let w = d.w0 as u64;
    let (enc, src0, src1) = match class {
        Class::Sop2 => (Encoding::Sop2, bits(w, 0, 8), bits(w, 8, 8)),
        Class::Sop1 => (Encoding::Sop1, bits(w, 0, 8), 0),
        Class::Sopc => (Encoding::Sopc, bits(w, 0, 8), bits(w, 8, 8)),
        Class::Sopk => (Encoding::Sopk, bits(w, 16, 7), 0),
        _ => (Encoding::Sopp, 0, 0),
    };
    let mut i = blank(op, enc, 4);
    match class {
        Class::Sopk | Class::Sopp => {
            i.imm = bits(w, 0, 16) as u16 as i16 as i32;
            if class == Class::Sopk {
                if op.dst_dwords() != 0 {
                    i.dst = sop(src0);
                } else if op.src_dwords(0) != 0 {
                    i.src[0] = sop(src0);
                }
                if op == Op::S_SETREG_IMM32_B32 {
                    i.literal = d.dword(1)?;
                    i.len = 8;
                }
            }
            return Ok(i);
        }
        _ => {}
    }
    if op.dst_dwords() != 0 {
        i.dst = sop(bits(w, 16, 7));
    }
    if op.src_dwords(0) != 0 {
        i.src[0] = sop(src0);
    }
    if op == Op::S_SET_GPR_IDX_ON {
        // The second field is the gpr_idx mode immediate, not an operand.
        i.imm = src1 as i32;
    } else if op.src_dwords(1) != 0 {
        i.src[1] = sop(src1);
    }
    take_literal(d, &mut i, 1)?;
    Ok(i)
}

/// 32-bit VOP1/VOP2/VOPC forms.
pub(crate) fn vop32(d: &Dec, op: Op, class: Class) -> Result<Inst, DecodeError> {
    let w = d.w0 as u64;
    let enc = match class {
        Class::Vop1 => Encoding::Vop1,
        Class::Vop2 => Encoding::Vop2,
        _ => Encoding::Vopc,
    };
    let mut i = blank(op, enc, 4);
    vop_common(
        &mut i,
        op,
        class,
        bits(w, 0, 9),
        bits(w, 9, 8),
        bits(w, 17, 8),
    );
    if op.flags().has(OpFlags::MADK) {
        i.literal = d.dword(1)?;
        i.len = 8;
        let k = Operand(Operand::LITERAL);
        i.src = match op {
            Op::V_MADMK_F32 | Op::V_MADMK_F16 => [i.src[0], k, i.src[1], Operand::NONE],
            _ => [i.src[0], i.src[1], k, Operand::NONE],
        };
        return Ok(i);
    }
    take_literal(d, &mut i, 1)?;
    Ok(i)
}

/// Operands shared by the 32-bit, SDWA and DPP forms (src0 given as a 9-bit code).
fn vop_common(i: &mut Inst, op: Op, class: Class, src0: u32, vsrc1: u32, vdst: u32) {
    let vcc = Operand(Operand::VCC_LO);
    if class == Class::Vopc {
        i.dst = vcc;
    } else if op.dst_dwords() != 0 {
        i.dst = reg8(op.dst().scalar, vdst);
    }
    if op == Op::V_SWAP_B32 {
        // VGPR-only source: the field is a VGPR number.
        i.src[0] = vgpr(src0);
    } else if op.src_dwords(0) != 0 {
        i.src[0] = Operand(src0 as u16);
    }
    if class != Class::Vop1 && op.src_dwords(1) != 0 {
        i.src[1] = vgpr(vsrc1);
    }
    if class == Class::Vop2 && op.src_dwords(2) != 0 {
        // v_cndmask mask / v_addc carry-in: VCC in the 32-bit forms.
        i.src[2] = vcc;
    }
    if op.flags().has(OpFlags::VOP3B) {
        i.sdst = vcc;
    }
}

/// SDWA and DPP forms.
pub(crate) fn vop_ext(d: &Dec, op: Op, class: Class, sdwa: bool) -> Result<Inst, DecodeError> {
    let x = d.x;
    let w1 = x >> 32;
    let enc = if sdwa { Encoding::Sdwa } else { Encoding::Dpp };
    let mut i = blank(op, enc, 8);
    vop_common(&mut i, op, class, 0, bits(x, 9, 8), bits(x, 17, 8));
    let src0 = bits(w1, 0, 8);
    if sdwa {
        if op.src_dwords(0) != 0 {
            i.src[0] = if bits(w1, 23, 1) != 0 {
                sop(src0)
            } else {
                vgpr(src0)
            };
        }
        if class != Class::Vop1 && op.src_dwords(1) != 0 && bits(w1, 31, 1) != 0 {
            i.src[1] = sop(bits(x, 9, 8));
        }
        if class == Class::Vopc {
            if bits(w1, 15, 1) != 0 {
                i.dst = sop(bits(w1, 8, 7));
            }
        } else {
            i.mods.clamp = bits(w1, 13, 1) != 0;
            i.mods.omod = bits(w1, 14, 2) as u8;
        }
        i.mods.neg = (bits(w1, 20, 1) | bits(w1, 28, 1) << 1) as u8;
        i.mods.abs = (bits(w1, 21, 1) | bits(w1, 29, 1) << 1) as u8;
        let free = op.form(crate::decode::Form::Sdwa).1;
        let sels: &[u32] = if class == Class::Vopc {
            &[16, 24]
        } else {
            &[8, 16, 24]
        };
        for &lo in sels {
            // Select 7 is reserved (LLVM cannot print it).
            if free >> (32 + lo) & 7 != 0 && bits(w1, lo, 3) == 7 {
                return Err(DecodeError::InvalidFields { op: op.name() });
            }
        }
        i.ext = Ext::Sdwa(Sdwa {
            dst_sel: bits(w1, 8, 3) as u8,
            dst_unused: bits(w1, 11, 2) as u8,
            src0_sel: bits(w1, 16, 3) as u8,
            src1_sel: bits(w1, 24, 3) as u8,
            sext: (bits(w1, 19, 1) | bits(w1, 27, 1) << 1) as u8,
        });
    } else {
        if op.src_dwords(0) != 0 {
            i.src[0] = vgpr(src0);
        }
        i.mods.neg = (bits(w1, 20, 1) | bits(w1, 22, 1) << 1) as u8;
        i.mods.abs = (bits(w1, 21, 1) | bits(w1, 23, 1) << 1) as u8;
        i.ext = Ext::Dpp(Dpp {
            ctrl: bits(w1, 8, 9) as u16,
            bound_ctrl: bits(w1, 19, 1) != 0,
            bank_mask: bits(w1, 24, 4) as u8,
            row_mask: bits(w1, 28, 4) as u8,
        });
    }
    Ok(i)
}

/// 64-bit encodings.
pub(crate) fn wide(d: &Dec, op: Op, class: Class) -> Result<Inst, DecodeError> {
    let x = d.x;
    match class {
        Class::Vop3 => Ok(vop3(op, x)),
        Class::Vop3p => Ok(vop3p(op, x)),
        Class::Smem => Ok(smem(op, x)),
        Class::Ds => Ok(ds(op, x)),
        Class::Mubuf | Class::Mtbuf => Ok(buffer(op, class, x)),
        Class::Flat | Class::Global | Class::Scratch => flat(op, class, x),
        Class::Exp => crate::graphics::exp(d, op),
        _ => Ok(mimg(op, x)),
    }
}

fn vop_srcs(i: &mut Inst, op: Op, x: u64) {
    for s in 0..3 {
        if op.src_dwords(s) != 0 {
            i.src[s] = Operand(bits(x, 32 + 9 * s as u32, 9) as u16);
        }
    }
}

fn vop3(op: Op, x: u64) -> Inst {
    let mut i = blank(op, Encoding::Vop3, 8);
    if op.dst_dwords() != 0 {
        i.dst = reg8(op.dst().scalar || op.class() == Class::Vopc, bits(x, 0, 8));
    }
    vop_srcs(&mut i, op, x);
    i.mods.clamp = bits(x, 15, 1) != 0;
    if op.flags().has(OpFlags::VOP3B) {
        i.sdst = sop(bits(x, 8, 7));
    } else {
        i.mods.abs = bits(x, 8, 3) as u8;
        i.mods.op_sel = bits(x, 11, 4) as u8;
    }
    i.mods.omod = bits(x, 59, 2) as u8;
    i.mods.neg = bits(x, 61, 3) as u8;
    i
}

fn vop3p(op: Op, x: u64) -> Inst {
    let mut i = blank(op, Encoding::Vop3p, 8);
    i.dst = vgpr(bits(x, 0, 8));
    vop_srcs(&mut i, op, x);
    i.mods.neg_hi = bits(x, 8, 3) as u8;
    i.mods.op_sel = bits(x, 11, 3) as u8;
    i.mods.op_sel_hi = (bits(x, 59, 2) | bits(x, 14, 1) << 2) as u8;
    i.mods.clamp = bits(x, 15, 1) != 0;
    i.mods.neg = bits(x, 61, 3) as u8;
    i
}

fn flag(x: u64, bit: u32, f: u16) -> u16 {
    if bits(x, bit, 1) != 0 {
        f
    } else {
        0
    }
}

fn smem(op: Op, x: u64) -> Inst {
    let mut i = blank(op, Encoding::Smem, 8);
    let sdata = sop(bits(x, 6, 7));
    if op.dst_dwords() != 0 {
        i.dst = sdata;
    }
    if op.flags().has(OpFlags::STORE) || matches!(op, Op::S_ATC_PROBE | Op::S_ATC_PROBE_BUFFER) {
        i.src[2] = sdata;
    }
    i.src[0] = sop(bits(x, 0, 6) * 2);
    let imm = bits(x, 17, 1) != 0;
    let soe = bits(x, 14, 1) != 0;
    if imm {
        // GFX9: 21-bit signed byte offset.
        i.imm = ((bits(x, 32, 21) << 11) as i32) >> 11;
    }
    if soe || !imm {
        i.src[1] = sop(if soe { bits(x, 57, 7) } else { bits(x, 32, 7) });
    }
    let flags = flag(x, 16, MemFlags::GLC)
        | flag(x, 15, MemFlags::NV)
        | flag(x, 17, MemFlags::IMM)
        | flag(x, 14, MemFlags::SOE);
    i.ext = Ext::Mem(Mem {
        flags: MemFlags(flags),
        ..Mem::default()
    });
    i
}

fn ds(op: Op, x: u64) -> Inst {
    let mut i = blank(op, Encoding::Ds, 8);
    if op.dst_dwords() != 0 {
        i.dst = vgpr(bits(x, 56, 8));
    }
    for s in 0..3 {
        if op.src_dwords(s) != 0 {
            i.src[s] = vgpr(bits(x, 32 + 8 * s as u32, 8));
        }
    }
    i.imm = bits(x, 0, 8) as i32;
    i.ext = Ext::Mem(Mem {
        flags: MemFlags(flag(x, 16, MemFlags::GDS)),
        offset1: bits(x, 8, 8) as u8,
        ..Mem::default()
    });
    i
}

fn buffer(op: Op, class: Class, x: u64) -> Inst {
    let mtbuf = class == Class::Mtbuf;
    let mut i = blank(
        op,
        if mtbuf {
            Encoding::Mtbuf
        } else {
            Encoding::Mubuf
        },
        8,
    );
    let vdata = vgpr(bits(x, 40, 8));
    if op.dst_dwords() != 0 {
        i.dst = vdata;
    }
    if op.src_dwords(1) != 0 {
        i.src[1] = vdata;
        if op.flags().has(OpFlags::ATOMIC) && bits(x, 14, 1) != 0 {
            i.dst = vdata;
        }
    }
    if matches!(op, Op::BUFFER_WBINVL1 | Op::BUFFER_WBINVL1_VOL) {
        return i;
    }
    let offen = bits(x, 12, 1) != 0;
    let idxen = bits(x, 13, 1) != 0;
    i.src[0] = if offen || idxen {
        vgpr(bits(x, 32, 8))
    } else {
        Operand::NONE
    };
    i.src[2] = sop(bits(x, 48, 5) * 4);
    i.src[3] = sop(bits(x, 56, 8));
    i.imm = bits(x, 0, 12) as i32;
    let mut f = flag(x, 12, MemFlags::OFFEN)
        | flag(x, 13, MemFlags::IDXEN)
        | flag(x, 14, MemFlags::GLC)
        | flag(x, 55, MemFlags::TFE);
    let (dfmt, nfmt) = if mtbuf {
        f |= flag(x, 54, MemFlags::SLC);
        (bits(x, 19, 4) as u8, bits(x, 23, 3) as u8)
    } else {
        f |= flag(x, 17, MemFlags::SLC) | flag(x, 16, MemFlags::LDS);
        (0, 0)
    };
    i.ext = Ext::Mem(Mem {
        flags: MemFlags(f),
        offset1: 0,
        dfmt,
        nfmt,
    });
    i
}

fn flat(op: Op, class: Class, x: u64) -> Result<Inst, DecodeError> {
    let enc = match class {
        Class::Flat => Encoding::Flat,
        Class::Global => Encoding::Global,
        _ => Encoding::Scratch,
    };
    let mut i = blank(op, enc, 8);
    if op.dst_dwords() != 0 {
        i.dst = vgpr(bits(x, 56, 8));
    }
    if op.src_dwords(0) != 0 {
        i.src[0] = vgpr(bits(x, 32, 8));
    }
    if op.src_dwords(1) != 0 {
        i.src[1] = vgpr(bits(x, 40, 8));
    }
    let saddr = bits(x, 48, 7);
    if class != Class::Flat && saddr != 0x7F {
        i.src[2] = sop(saddr);
    }
    i.imm = if class == Class::Flat {
        bits(x, 0, 13) as i32
    } else {
        ((bits(x, 0, 13) << 19) as i32) >> 19
    };
    if op.flags().has(OpFlags::ATOMIC) && bits(x, 16, 1) != 0 {
        // GLC atomics return the pre-op value (the low half of cmpswap's data).
        i.dst = vgpr(bits(x, 56, 8));
    }
    if bits(x, 13, 1) != 0 && bits(x, 55, 1) != 0 {
        // LLVM has no LDS-direct form with the NV bit.
        return Err(DecodeError::InvalidFields { op: op.name() });
    }
    let f = flag(x, 13, MemFlags::LDS)
        | flag(x, 16, MemFlags::GLC)
        | flag(x, 17, MemFlags::SLC)
        | flag(x, 55, MemFlags::NV);
    i.ext = Ext::Mem(Mem {
        flags: MemFlags(f),
        ..Mem::default()
    });
    Ok(i)
}

fn mimg(op: Op, x: u64) -> Inst {
    let mut i = blank(op, Encoding::Mimg, 8);
    let vdata = vgpr(bits(x, 40, 8));
    if op.dst_dwords() != 0 {
        i.dst = vdata;
    } else {
        i.src[1] = vdata;
    }
    i.src[0] = vgpr(bits(x, 32, 8));
    i.src[2] = sop(bits(x, 48, 5) * 4);
    i.src[3] = sop(bits(x, 53, 5) * 4);
    let f = flag(x, 12, MemFlags::UNORM)
        | flag(x, 13, MemFlags::GLC)
        | flag(x, 14, MemFlags::DA)
        | flag(x, 15, MemFlags::R128)
        | flag(x, 16, MemFlags::TFE)
        | flag(x, 17, MemFlags::LWE)
        | flag(x, 25, MemFlags::SLC)
        | flag(x, 63, MemFlags::D16);
    i.ext = Ext::Mem(Mem {
        flags: MemFlags(f),
        offset1: 0,
        dfmt: bits(x, 8, 4) as u8,
        nfmt: 0,
    });
    i
}
