//! Scalar ALU and program-control text: SOP2, SOP1, SOPC, SOPK, SOPP, with LLVM's symbolic
//! forms of hwreg(), sendmsg(), s_waitcnt counters and gpr_idx().

use crate::disasm::{literal, slot, sreg, Ty};
use crate::{Encoding, Inst, Op};
use std::fmt::{self, Write};

fn ty(n: u8) -> Ty {
    if n >= 2 {
        Ty::B64
    } else {
        Ty::B32
    }
}

pub(crate) fn print(w: &mut impl Write, i: &Inst) -> fmt::Result {
    let op = i.op;
    w.write_str(op.name())?;
    match i.enc {
        Encoding::Sopp => return sopp(w, i),
        Encoding::Sopk => return sopk(w, i),
        _ => {}
    }
    let mut sep = " ";
    if !i.dst.is_none() {
        w.write_str(sep)?;
        sreg(w, i.dst.raw(), op.dst_dwords())?;
        sep = ", ";
    }
    for s in 0..2 {
        if i.src[s].is_none() {
            continue;
        }
        w.write_str(sep)?;
        sep = ", ";
        let n = op.src_dwords(s);
        slot(w, i, s, i.src[s], n, ty(n))?;
    }
    if op == Op::S_SET_GPR_IDX_ON {
        w.write_str(sep)?;
        gpr_idx(w, i.imm as u16)?;
    }
    Ok(())
}

fn gpr_idx(w: &mut impl Write, v: u16) -> fmt::Result {
    if v > 15 {
        return write!(w, "0x{v:x}");
    }
    w.write_str("gpr_idx(")?;
    let mut sep = "";
    for (b, n) in ["SRC0", "SRC1", "SRC2", "DST"].iter().enumerate() {
        if v & (1 << b) != 0 {
            write!(w, "{sep}{n}")?;
            sep = ",";
        }
    }
    w.write_str(")")
}

fn hwreg(w: &mut impl Write, imm: u16, gfx: crate::Gfx) -> fmt::Result {
    let id = imm & 0x3F;
    let offset = (imm >> 6) & 0x1F;
    let size = ((imm >> 11) & 0x1F) + 1;
    let name = match id {
        1 => "HW_REG_MODE",
        2 => "HW_REG_STATUS",
        3 => "HW_REG_TRAPSTS",
        4 => "HW_REG_HW_ID",
        5 => "HW_REG_GPR_ALLOC",
        6 => "HW_REG_LDS_ALLOC",
        7 => "HW_REG_IB_STS",
        15 => "HW_REG_SH_MEM_BASES",
        16 => "HW_REG_TBA_LO",
        17 => "HW_REG_TBA_HI",
        18 => "HW_REG_TMA_LO",
        19 => "HW_REG_TMA_HI",
        // gfx940's registers (LLVM 19 names).
        20 if gfx == crate::Gfx::Gfx940 => "HW_REG_XCC_ID",
        21 if gfx == crate::Gfx::Gfx940 => "HW_REG_SQ_PERF_SNAPSHOT_DATA",
        22 if gfx == crate::Gfx::Gfx940 => "HW_REG_SQ_PERF_SNAPSHOT_DATA1",
        23 if gfx == crate::Gfx::Gfx940 => "HW_REG_SQ_PERF_SNAPSHOT_PC_LO",
        24 if gfx == crate::Gfx::Gfx940 => "HW_REG_SQ_PERF_SNAPSHOT_PC_HI",
        _ => "",
    };
    w.write_str("hwreg(")?;
    if name.is_empty() {
        write!(w, "{id}")?;
    } else {
        w.write_str(name)?;
    }
    if offset != 0 || size != 32 {
        write!(w, ", {offset}, {size}")?;
    }
    w.write_str(")")
}

fn sopk(w: &mut impl Write, i: &Inst) -> fmt::Result {
    let op = i.op;
    let imm = i.imm as u16;
    w.write_char(' ')?;
    match op {
        Op::S_GETREG_B32 => {
            sreg(w, i.dst.raw(), 1)?;
            w.write_str(", ")?;
            hwreg(w, imm, i.gfx)
        }
        Op::S_SETREG_B32 => {
            hwreg(w, imm, i.gfx)?;
            w.write_str(", ")?;
            sreg(w, i.src[0].raw(), 1)
        }
        Op::S_SETREG_IMM32_B32 => {
            hwreg(w, imm, i.gfx)?;
            w.write_str(", ")?;
            literal(w, i.literal, Ty::B32)
        }
        Op::S_CALL_B64 | Op::S_CBRANCH_I_FORK => {
            let r = if i.dst.is_none() { i.src[0] } else { i.dst };
            sreg(w, r.raw(), 2)?;
            write!(w, ", {imm}")
        }
        _ => {
            let r = if i.dst.is_none() { i.src[0] } else { i.dst };
            sreg(w, r.raw(), 1)?;
            write!(w, ", 0x{imm:x}")
        }
    }
}

fn sopp(w: &mut impl Write, i: &Inst) -> fmt::Result {
    let op = i.op;
    let imm = i.imm as u16;
    match op {
        Op::S_WAITCNT => waitcnt(w, imm),
        Op::S_SENDMSG | Op::S_SENDMSGHALT => {
            w.write_char(' ')?;
            sendmsg(w, imm)
        }
        Op::S_SET_GPR_IDX_MODE => {
            w.write_char(' ')?;
            gpr_idx(w, imm)
        }
        Op::S_NOP
        | Op::S_SETKILL
        | Op::S_SETHALT
        | Op::S_SLEEP
        | Op::S_SETPRIO
        | Op::S_TRAP
        | Op::S_INCPERFLEVEL
        | Op::S_DECPERFLEVEL => {
            w.write_char(' ')?;
            literal(w, imm as u32, Ty::I16)
        }
        Op::S_ENDPGM => {
            if imm != 0 {
                write!(w, " {imm}")?;
            }
            Ok(())
        }
        _ if i.op.src_dwords(0) == 0 && i.branch_target(0).is_some() => write!(w, " {imm}"),
        _ => Ok(()),
    }
}

fn waitcnt(w: &mut impl Write, imm: u16) -> fmt::Result {
    let vm = (imm & 0xF) | ((imm >> 14) & 3) << 4;
    let exp = (imm >> 4) & 7;
    let lgkm = (imm >> 8) & 0xF;
    let all = vm == 63 && exp == 7 && lgkm == 15;
    if vm != 63 || all {
        write!(w, " vmcnt({vm})")?;
    }
    if exp != 7 || all {
        write!(w, " expcnt({exp})")?;
    }
    if lgkm != 15 || all {
        write!(w, " lgkmcnt({lgkm})")?;
    }
    Ok(())
}

fn sendmsg(w: &mut impl Write, imm: u16) -> fmt::Result {
    let id = imm & 0xF;
    let opv = (imm >> 4) & 7;
    let stream = (imm >> 8) & 3;
    let name = match id {
        1 => "MSG_INTERRUPT",
        2 => "MSG_GS",
        3 => "MSG_GS_DONE",
        4 => "MSG_SAVEWAVE",
        5 => "MSG_STALL_WAVE_GEN",
        6 => "MSG_HALT_WAVES",
        7 => "MSG_ORDERED_PS_DONE",
        8 => "MSG_EARLY_PRIM_DEALLOC",
        9 => "MSG_GS_ALLOC_REQ",
        10 => "MSG_GET_DOORBELL",
        15 => "MSG_SYSMSG",
        _ => "",
    };
    let gs = id == 2 || id == 3;
    let sys = id == 15;
    let valid = !name.is_empty()
        && if gs {
            (opv != 0 || id == 3 && stream == 0) && opv <= 3
        } else if sys {
            (1..=4).contains(&opv) && stream == 0
        } else {
            opv == 0 && stream == 0
        };
    if !valid {
        return write!(w, "{imm}");
    }
    write!(w, "sendmsg({name}")?;
    if gs {
        let o = ["GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"][opv as usize];
        write!(w, ", {o}")?;
        if opv != 0 {
            write!(w, ", {stream}")?;
        }
    } else if sys {
        let o = [
            "",
            "SYSMSG_OP_ECC_ERR_INTERRUPT",
            "SYSMSG_OP_REG_RD",
            "SYSMSG_OP_HOST_TRAP_ACK",
            "SYSMSG_OP_TTRACE_PC",
        ][opv as usize];
        write!(w, ", {o}")?;
    }
    w.write_str(")")
}
