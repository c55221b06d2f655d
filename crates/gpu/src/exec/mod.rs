//! The interpreter: runs one wave until it ends, waits (barrier, sleep) or faults.
//!
//! Instructions are executed in their pre-decoded form ([`XInst`]); the first-level dispatch is
//! on the encoding family, then each module matches its ops.

pub mod branch_stack;
pub mod buffer_lds;
pub mod buffer_typed;
pub mod control;
pub mod ds;
pub mod ds_extra;
pub mod fatomic;
pub mod flat;
pub mod format;
pub mod gws;
pub mod int32;
pub mod lanes;
pub mod matrix;
pub mod mimg;
pub mod mubuf;
pub mod operand;
pub mod salu;
pub mod scalar_bits;
pub mod smem;
pub mod sopk;
pub mod vector;
pub mod vmem;
pub mod wide_sad;

use crate::fault::FaultKind;
use crate::lds::Lds;
use crate::memory::{Checker, MemErr};
use crate::program::{Program, Slot, XInst, NO_INDEX};
use crate::trace::Tracer;
use crate::valu::{VopInputs, VopOutputs};
use crate::wave::{Wave, WaveState};
use crate::DeviceEvents;
use softhsa_isa::Encoding;
use std::sync::atomic::{AtomicBool, Ordering};

/// A fault raised by one instruction (the caller adds kernel, pc and wave).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecFault {
    pub kind: FaultKind,
    pub lane: Option<u32>,
    pub address: Option<u64>,
}

impl ExecFault {
    pub fn new(kind: FaultKind) -> Self {
        ExecFault {
            kind,
            lane: None,
            address: None,
        }
    }
}

impl From<MemErr> for ExecFault {
    fn from(e: MemErr) -> Self {
        ExecFault {
            kind: FaultKind::MemoryViolation {
                address: e.address,
                write: e.write,
            },
            lane: e.lane,
            address: Some(e.address),
        }
    }
}

/// What the wave does after an instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    Next,
    /// Continue at this instruction index ([`NO_INDEX`]: not an instruction → fault).
    Jump(u32),
    /// Continue at this byte address (s_setpc/s_swappc).
    JumpAddr(u64),
    /// Wait at s_barrier.
    Barrier,
    /// Yield to the other waves of the work-group (s_sleep).
    Sleep,
    /// The instruction cannot complete yet (a GWS semaphore or barrier): yield, and execute
    /// it again when the wave runs next.
    Wait,
    End,
    Fault(Box<ExecFault>),
}

/// Everything an instruction may touch besides its wave. One per work-group run.
pub struct ExecCtx<'a> {
    pub prog: &'a Program,
    pub lds: &'a mut Lds,
    pub mem: Checker<'a>,
    pub events: &'a dyn DeviceEvents,
    pub vin: &'a mut VopInputs,
    pub vout: &'a mut VopOutputs,
    /// Bytes of scratch per work-item (flat/scratch accesses beyond it fault).
    pub private_size: u32,
    /// Instructions a wave may execute (0: unlimited).
    pub budget: u64,
    pub stop: &'a AtomicBool,
    pub tracer: Option<&'a mut Tracer>,
    /// The device is a gfx900: gfx906-only instructions are illegal.
    pub gfx900: bool,
    /// The kernel's generated code (`None`: the interpreter runs every wave).
    pub jit: Option<&'a crate::jit::JitCache>,
}

fn fault(kind: FaultKind) -> Flow {
    Flow::Fault(Box::new(ExecFault::new(kind)))
}

/// The encodings VSKIP skips: everything a vector unit or the data share executes.
fn skipped_by_vskip(e: Encoding) -> bool {
    !matches!(
        e,
        Encoding::Sop2
            | Encoding::Sop1
            | Encoding::Sopc
            | Encoding::Sopk
            | Encoding::Sopp
            | Encoding::Smem
    )
}

/// Executes one instruction.
#[inline]
fn step(w: &mut Wave, x: &XInst, cx: &mut ExecCtx) -> Flow {
    if w.mode & branch_stack::MODE_VSKIP != 0 && skipped_by_vskip(x.inst.enc) {
        return Flow::Next;
    }
    match x.inst.enc {
        Encoding::Vop1
        | Encoding::Vop2
        | Encoding::Vopc
        | Encoding::Vop3
        | Encoding::Vop3p
        | Encoding::Sdwa
        | Encoding::Dpp => vector::exec(w, x, cx),
        Encoding::Sop2 | Encoding::Sop1 | Encoding::Sopc | Encoding::Sopk => {
            match control::scalar(w, x, cx) {
                Some(f) => f,
                None => salu::exec(w, x).unwrap_or_else(|| fault(FaultKind::Unimplemented)),
            }
        }
        Encoding::Sopp => control::sopp(w, x, cx),
        Encoding::Smem => smem::exec(w, x, cx),
        Encoding::Ds => ds::exec(w, x, cx),
        Encoding::Mubuf => mubuf::exec(w, x, cx),
        Encoding::Flat | Encoding::Global | Encoding::Scratch => flat::exec(w, x, cx),
        Encoding::Mtbuf => mubuf::exec(w, x, cx),
        Encoding::Mimg => mimg::exec(w, x, cx),
        // Graphics only: a compute wave has no interpolation parameters and no export targets.
        Encoding::Vintrp | Encoding::Exp => fault(FaultKind::IllegalInstruction),
    }
}

/// Runs `w` until it ends, waits at a barrier, sleeps, or faults. On a fault, `w.pc` is the
/// faulting instruction.
pub fn run(w: &mut Wave, cx: &mut ExecCtx) -> Result<(), ExecFault> {
    loop {
        if let Some(r) = step_at(w, cx) {
            return r;
        }
    }
}

/// Executes the instruction at `w.pc` with everything the run loop does around it (count,
/// budget, stop requests, trace, control flow). `None`: the wave goes on at the new `w.pc`;
/// `Some`: the wave stops (barrier, sleep, end, stop request) or faults. The JIT calls this for
/// every instruction it does not translate, so both engines stop at the same points.
#[inline]
pub(crate) fn step_at(w: &mut Wave, cx: &mut ExecCtx) -> Option<Result<(), ExecFault>> {
    let i = w.pc;
    let x = match cx.prog.slots.get(i as usize) {
        Some(Slot::Ok(x)) => x,
        _ => return Some(Err(ExecFault::new(FaultKind::IllegalInstruction))),
    };
    w.executed += 1;
    if w.executed & 0xffff == 0 && cx.stop.load(Ordering::Relaxed) {
        // Another work-group faulted: this one stops where it is (its result is moot).
        w.state = WaveState::Done;
        return Some(Ok(()));
    }
    if cx.budget != 0 && w.executed > cx.budget {
        if w.time_slice {
            // The scheduler's time slice ended: stop before this instruction (uncounted); the
            // wave resumes here after the scheduler has run others. One instruction of grace:
            // the JIT counts a block before running it, so its check mode replays a block's
            // last instruction at the limit itself, which must not look like a stop.
            if w.executed > cx.budget + 1 {
                w.executed -= 1;
                w.state = WaveState::Sliced;
                return Some(Ok(()));
            }
        } else {
            return Some(Err(ExecFault::new(FaultKind::InstructionBudget {
                limit: cx.budget,
            })));
        }
    }
    if let Some(t) = cx.tracer.as_deref_mut() {
        if t.wants(w) {
            t.before(w);
        }
    }
    let flow = if x.gfx906_only && cx.gfx900 {
        Flow::Fault(Box::new(ExecFault::new(FaultKind::IllegalInstruction)))
    } else {
        step(w, x, cx)
    };
    if let Some(t) = cx.tracer.as_deref_mut() {
        if t.wants(w) {
            t.after(w, cx.prog, i);
        }
    }
    match flow {
        Flow::Next => w.pc = i + 1,
        Flow::Jump(t) => {
            if t == NO_INDEX {
                return Some(Err(ExecFault::new(FaultKind::IllegalInstruction)));
            }
            w.pc = t;
        }
        Flow::JumpAddr(a) => match cx.prog.index_of(a) {
            Some(t) => w.pc = t,
            None => {
                return Some(Err(ExecFault {
                    kind: FaultKind::IllegalInstruction,
                    lane: None,
                    address: Some(a),
                }))
            }
        },
        Flow::Barrier => {
            w.pc = i + 1;
            w.state = WaveState::Barrier;
            return Some(Ok(()));
        }
        Flow::Sleep => {
            w.pc = i + 1;
            w.state = WaveState::Sleeping;
            return Some(Ok(()));
        }
        Flow::Wait => {
            // The GWS operation must wait (`exec::gws`): the wave stops before it (pc kept, so
            // it executes again when resumed) and the scheduler runs others meanwhile.
            w.state = WaveState::Gws;
            return Some(Ok(()));
        }
        Flow::End => {
            w.state = WaveState::Done;
            return Some(Ok(()));
        }
        Flow::Fault(f) => return Some(Err(*f)),
    }
    None
}
