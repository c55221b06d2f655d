//! Fork/join control flow (`s_cbranch_i_fork`, `s_cbranch_g_fork`, `s_cbranch_join`) and the
//! wave-state instructions around it (`s_setvskip`, `s_sethalt`, `s_rfe*`).
//!
//! The GCN fork/join scheme (Vega ISA §4.6): a fork splits EXEC by a lane mask, runs the side
//! with fewer lanes first and pushes the other side — `{exec mask (low 64 bits), pc (high 64
//! bits)}` — on a stack of 128-bit entries kept in SGPRs: entry `CSP` occupies
//! `s[4*CSP .. 4*CSP+4]`. The control stack pointer CSP is MODE bits 31:29. A join compares CSP
//! with the value the program saved before the fork: equal means both sides ran; otherwise it
//! pops an entry and runs the other side.
//!
//! VSKIP (MODE bit 28) makes the wave skip every vector instruction (VALU, VMEM, DS, export) until
//! it is cleared; `exec::step` applies it, and [`Wave::sync_vector_path`] keeps the JIT's
//! translated VALU code out of the way while it is set.

use super::{ExecFault, Flow};
use crate::fault::FaultKind;
use crate::program::XInst;
use crate::wave::Wave;
use softhsa_isa::Op;

/// MODE bit of VSKIP.
pub const MODE_VSKIP: u32 = 1 << 28;
/// MODE bits of the control stack pointer.
const CSP_SHIFT: u32 = 29;

fn csp(w: &Wave) -> u32 {
    w.mode >> CSP_SHIFT
}

fn set_csp(w: &mut Wave, v: u32) {
    w.mode = (w.mode & !(7 << CSP_SHIFT)) | (v & 7) << CSP_SHIFT;
}

/// Pushes `{mask, pc}` on the SGPR stack and increments CSP.
fn push(w: &mut Wave, mask: u64, pc: u64) {
    let c = csp(w) as usize;
    w.set_s64(4 * c, mask);
    w.set_s64(4 * c + 2, pc);
    set_csp(w, c as u32 + 1);
}

/// A fork to `target` (byte address) on lane mask `cond`; `next` is the address after the
/// fork.
fn fork(w: &mut Wave, cond: u64, target: u64, next: u64) -> Flow {
    let exec = w.exec();
    let pass = cond & exec;
    let fail = !cond & exec;
    if pass == exec {
        Flow::JumpAddr(target)
    } else if fail == exec {
        Flow::Next
    } else if fail.count_ones() < pass.count_ones() {
        w.set_exec(fail);
        push(w, pass, target);
        Flow::Next
    } else {
        w.set_exec(pass);
        push(w, fail, next);
        Flow::JumpAddr(target)
    }
}

/// Executes the fork/join/VSKIP/halt/RFE ops; `None` for any other op. `pc` is the address
/// of `x`, `next` the address after it.
pub fn exec(w: &mut Wave, x: &XInst, pc: u64, next: u64) -> Option<Flow> {
    Some(match x.inst.op {
        Op::S_CBRANCH_I_FORK => {
            let target = pc
                .wrapping_add(4)
                .wrapping_add((i64::from(x.inst.imm) * 4) as u64);
            let cond = w.read64(x.src[0]);
            fork(w, cond, target, next)
        }
        Op::S_CBRANCH_G_FORK => {
            let cond = w.read64(x.src[0]);
            let target = w.read64(x.src[1]);
            fork(w, cond, target, next)
        }
        Op::S_CBRANCH_JOIN => {
            let saved = w.read32(x.src[0]);
            let c = csp(w);
            if c == saved {
                Flow::Next
            } else {
                let c = c.wrapping_sub(1) & 7;
                set_csp(w, c);
                let i = 4 * c as usize;
                w.set_exec(w.s64(i));
                Flow::JumpAddr(w.s64(i + 2))
            }
        }
        Op::S_SETVSKIP => {
            let bit = w.read32(x.src[0]) >> (w.read32(x.src[1]) & 31) & 1;
            w.mode = (w.mode & !MODE_VSKIP) | bit << 28;
            w.sync_vector_path();
            Flow::Next
        }
        // Without a debugger nothing resumes a halted wave: report it instead of hanging.
        Op::S_SETHALT if x.inst.imm & 1 != 0 => {
            Flow::Fault(Box::new(ExecFault::new(FaultKind::Halted)))
        }
        Op::S_SETHALT => Flow::Next,
        // Outside a trap handler (softhsa installs none) the wave is already unprivileged:
        // returning from an exception is a jump to the saved pc.
        Op::S_RFE_B64 | Op::S_RFE_RESTORE_B64 => Flow::JumpAddr(w.read64(x.src[0])),
        _ => return None,
    })
}
