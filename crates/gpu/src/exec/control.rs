//! Control flow and wave-state instructions: SOPP, pc moves, hardware registers, messages.

use super::{fault, ExecCtx, Flow};
use crate::fault::FaultKind;
use crate::program::XInst;
use crate::wave::{Wave, M0};
use crate::{PRIVATE_APERTURE_BASE, SHARED_APERTURE_BASE};
use softhsa_isa::Op;

/// Hardware register ids of `s_getreg`/`s_setreg` (GFX9).
mod hwreg {
    pub const MODE: u32 = 1;
    pub const STATUS: u32 = 2;
    pub const TRAPSTS: u32 = 3;
    pub const HW_ID: u32 = 4;
    pub const GPR_ALLOC: u32 = 5;
    pub const LDS_ALLOC: u32 = 6;
    pub const SH_MEM_BASES: u32 = 15;
}

/// `s_sendmsg` message id of an interrupt (the signal mailbox protocol of the ABI).
const MSG_INTERRUPT: i32 = 1;

/// Decodes the simm16 of s_getreg/s_setreg: (id, bit offset, mask of `size` bits).
fn hwreg_fields(simm: i32) -> (u32, u32, u32) {
    let s = simm as u32;
    let size = ((s >> 11) & 31) + 1;
    let mask = if size == 32 {
        u32::MAX
    } else {
        (1 << size) - 1
    };
    (s & 63, (s >> 6) & 31, mask)
}

/// The hardware registers that read the same for every wave of every dispatch: the
/// aperture bases and the register allocation (`None` for the others).
fn constant_hwreg(id: u32) -> Option<u32> {
    match id {
        hwreg::GPR_ALLOC => Some((63 << 8) | (12 << 24)),
        hwreg::SH_MEM_BASES => Some(
            ((PRIVATE_APERTURE_BASE >> 48) as u32) | ((SHARED_APERTURE_BASE >> 48) as u32) << 16,
        ),
        _ => None,
    }
}

/// What `s_getreg_b32` with immediate `simm` reads when that is a constant (the JIT's move).
pub(crate) fn getreg_constant(simm: i32) -> Option<u32> {
    let (id, off, mask) = hwreg_fields(simm);
    constant_hwreg(id).map(|v| v >> off & mask)
}

fn read_hwreg(w: &Wave, id: u32, cx: &ExecCtx) -> u32 {
    if let Some(v) = constant_hwreg(id) {
        return v;
    }
    match id {
        hwreg::MODE => w.mode,
        hwreg::STATUS => {
            u32::from(w.scc)
                | u32::from(w.exec() == 0) << 9
                | u32::from(w.vcc() == 0) << 10
                | 1 << 11
        }
        hwreg::TRAPSTS => w.trapsts,
        // wave id [3:0], simd [5:4], cu [11:8], se [14:13], tg id [19:16]: derived from the
        // wave's position, so different waves read different ids.
        hwreg::HW_ID => (w.index & 15) | (w.index >> 4 & 3) << 4 | (w.workgroup[0] & 15) << 8,
        hwreg::LDS_ALLOC => (cx.lds.size() as u32).div_ceil(512) << 12,
        _ => 0,
    }
}

fn write_hwreg(w: &mut Wave, simm: i32, v: u32) {
    let (id, off, mask) = hwreg_fields(simm);
    let m = mask << off;
    match id {
        hwreg::MODE => {
            w.mode = (w.mode & !m) | (v << off & m);
            w.sync_vector_path();
        }
        hwreg::TRAPSTS => w.trapsts = (w.trapsts & !m) | (v << off & m),
        _ => {}
    }
}

/// SOP1/SOPK ops that move the pc or touch wave state; `None` for plain SALU arithmetic.
pub fn scalar(w: &mut Wave, x: &XInst, cx: &mut ExecCtx) -> Option<Flow> {
    let d = (x.inst.dst.raw() & 127) as u8;
    let next = || cx.prog.addr(w.pc + 1);
    Some(match x.inst.op {
        Op::S_GETPC_B64 => {
            let pc = next();
            w.write_s64(d, pc);
            Flow::Next
        }
        Op::S_SETPC_B64 => Flow::JumpAddr(w.read64(x.src[0])),
        Op::S_SWAPPC_B64 => {
            let target = w.read64(x.src[0]);
            let pc = next();
            w.write_s64(d, pc);
            Flow::JumpAddr(target)
        }
        Op::S_CALL_B64 => {
            let pc = next();
            w.write_s64(d, pc);
            Flow::Jump(x.target)
        }
        Op::S_GETREG_B32 => {
            let (id, off, mask) = hwreg_fields(x.inst.imm);
            let v = read_hwreg(w, id, cx) >> off & mask;
            w.write_s32(d, v);
            Flow::Next
        }
        Op::S_SETREG_B32 => {
            // The SGPR is `dst` or `src[0]` depending on the decoder's slot choice.
            let v = if x.inst.dst.is_none() {
                w.read32(x.src[0])
            } else {
                w.s[usize::from(d)]
            };
            write_hwreg(w, x.inst.imm, v);
            Flow::Next
        }
        Op::S_SETREG_IMM32_B32 => {
            write_hwreg(w, x.inst.imm, x.inst.literal);
            Flow::Next
        }
        Op::S_CBRANCH_I_FORK
        | Op::S_CBRANCH_G_FORK
        | Op::S_CBRANCH_JOIN
        | Op::S_RFE_B64
        | Op::S_RFE_RESTORE_B64
        | Op::S_SETVSKIP => {
            let (pc, after) = (cx.prog.addr(w.pc), next());
            return super::branch_stack::exec(w, x, pc, after);
        }
        Op::S_SET_GPR_IDX_ON => {
            let idx = w.read32(x.src[0]) & 0xff;
            // The 4-bit mode is the SOPC src1 field (raw, not an operand).
            let m = &x.inst;
            let mode = if m.imm != 0 {
                m.imm as u32
            } else {
                u32::from(m.src[1].raw())
            } & 15;
            w.s[M0] = (w.s[M0] & !0xf0ff) | idx | mode << 12;
            w.gpr_index = true;
            w.sync_vector_path();
            Flow::Next
        }
        Op::S_SET_GPR_IDX_IDX => {
            let idx = w.read32(x.src[0]) & 0xff;
            w.s[M0] = (w.s[M0] & !0xff) | idx;
            Flow::Next
        }
        _ => return None,
    })
}

/// `s_waitcnt`: where the seeds' memory-model code sequences order a wave's accesses.
///
/// Acquire and release need no host instruction on x86-64 (TSO keeps loads in order, stores in
/// order and loads before later stores); an `AcqRel` fence only stops the Rust compiler from
/// moving the relaxed accesses of earlier instructions past it. Store→load order is the one x86
/// relaxes (store buffers), and sequential consistency needs it: a seq_cst load or fence waits
/// with `vmcnt(0)` (`lgkmcnt(0)` for scalar stores) after the wave's stores, so that wait issues a
/// full fence (`mfence`) when the wave stored since its last one.
pub fn waitcnt(w: &mut Wave, simm16: u16) {
    use crate::wave::{UNFENCED_SCALAR, UNFENCED_VECTOR};
    use std::sync::atomic::{fence, Ordering};
    // gfx9 SIMM16: vmcnt = {[15:14], [3:0]}, lgkmcnt = [11:8].
    let vmcnt = (simm16 & 0xf) | (simm16 >> 14 & 3) << 4;
    let lgkmcnt = simm16 >> 8 & 0xf;
    let waits_stores = (w.unfenced_stores & UNFENCED_VECTOR != 0 && vmcnt == 0)
        || (w.unfenced_stores & UNFENCED_SCALAR != 0 && lgkmcnt == 0);
    if waits_stores {
        fence(Ordering::SeqCst);
        w.unfenced_stores = 0;
    } else {
        fence(Ordering::AcqRel);
    }
}

/// SOPP: branches, barriers, waits, messages, traps.
pub fn sopp(w: &mut Wave, x: &XInst, cx: &mut ExecCtx) -> Flow {
    use Op::*;
    let branch = |taken: bool| {
        if taken {
            Flow::Jump(x.target)
        } else {
            Flow::Next
        }
    };
    match x.inst.op {
        S_WAITCNT => {
            waitcnt(w, x.inst.imm as u16);
            Flow::Next
        }
        S_NOP | S_SETPRIO | S_ICACHE_INV | S_INCPERFLEVEL | S_DECPERFLEVEL | S_TTRACEDATA
        | S_SETKILL | S_WAKEUP => Flow::Next,
        S_SET_GPR_IDX_OFF => {
            w.gpr_index = false;
            w.sync_vector_path();
            Flow::Next
        }
        S_SET_GPR_IDX_MODE => {
            w.s[M0] = (w.s[M0] & !0xf000) | ((x.inst.imm as u32) & 15) << 12;
            Flow::Next
        }
        S_ENDPGM | S_ENDPGM_SAVED | S_ENDPGM_ORDERED_PS_DONE => Flow::End,
        S_BRANCH => Flow::Jump(x.target),
        S_CBRANCH_SCC0 => branch(!w.scc),
        S_CBRANCH_SCC1 => branch(w.scc),
        S_CBRANCH_VCCZ => branch(w.vcc() == 0),
        S_CBRANCH_VCCNZ => branch(w.vcc() != 0),
        S_CBRANCH_EXECZ => branch(w.exec() == 0),
        S_CBRANCH_EXECNZ => branch(w.exec() != 0),
        // No debugger is attached: its condition bits are clear.
        S_CBRANCH_CDBGSYS
        | S_CBRANCH_CDBGUSER
        | S_CBRANCH_CDBGSYS_OR_USER
        | S_CBRANCH_CDBGSYS_AND_USER => Flow::Next,
        S_BARRIER => Flow::Barrier,
        S_SLEEP => Flow::Sleep,
        S_SENDMSG | S_SENDMSGHALT => {
            if x.inst.imm & 0xf == MSG_INTERRUPT {
                cx.events.interrupt(w.s[M0]);
            }
            if x.inst.op == S_SENDMSGHALT {
                Flow::End
            } else {
                Flow::Next
            }
        }
        // llvm.debugtrap (s_trap 3) is a no-op without a debugger (the trap handler ABI);
        // every other trap terminates the dispatch.
        S_TRAP if x.inst.imm & 0xff == 3 => Flow::Next,
        S_SETHALT => {
            let (pc, next) = (cx.prog.addr(w.pc), cx.prog.addr(w.pc + 1));
            super::branch_stack::exec(w, x, pc, next).unwrap_or(Flow::Next)
        }
        S_TRAP => fault(FaultKind::Trap {
            code: (x.inst.imm & 0xff) as u16,
        }),
        _ => fault(FaultKind::Unimplemented),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hwreg_fields_decode_llvm_encoding() {
        // hwreg(HW_REG_SH_MEM_BASES, 16, 16) = id 15, offset 16, size 16.
        let simm = 15 | 16 << 6 | 15 << 11;
        assert_eq!(hwreg_fields(simm), (15, 16, 0xffff));
        // hwreg(HW_REG_MODE, 0, 32)
        assert_eq!(hwreg_fields(1 | 31 << 11), (1, 0, u32::MAX));
    }
}
