//! The JIT: a kernel's decoded program translated to x86-64 machine code (AVX2) that runs a
//! whole wave on the wave's register file in place.
//!
//! Shape (DESIGN.md, "Execution engines"): the whole program is compiled at its first dispatch
//! ([`Program::jit`]), one label per instruction, so execution can enter at any instruction
//! (the wave's `pc`) through a jump table. What the JIT translates runs inline; every other
//! instruction is a call-out to the interpreter's [`exec::step_at`] for that one instruction,
//! which also does the counting, budget, stop, trace and control-flow work, so both engines
//! stop at the same points (barrier, sleep, end, fault) and the work-group scheduler cannot tell
//! which ran. A translated instruction that meets a case it does not handle (MODE other than
//! round-to-nearest with f32 denormals, `s_set_gpr_idx_on`, a NaN result, the budget running
//! out) takes its slow path: the same call-out, from the untouched registers.
//!
//! `SOFTHSA_JIT=check` compiles a lockstep hook around every translated instruction: the
//! interpreter runs the same instruction on a copy of the wave first and the registers are
//! compared after; the first difference stops the dispatch with a report naming kernel, PC,
//! instruction and register. (Translated instructions touch registers only, so running both is
//! free of side effects; memory instructions are call-outs to the interpreter anyway.)

pub mod code;
mod emit;
mod salu;
#[cfg(test)]
mod tests;
mod valu64;

use crate::exec::{self, ExecCtx, ExecFault};
use crate::fault::FaultKind;
use crate::program::Program;
use crate::wave::{Wave, WaveState};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Which engine runs waves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// The interpreter (the reference).
    Interpreter,
    /// Generated code, call-outs to the interpreter for what it does not translate (the
    /// default; hosts without AVX2 and FMA use the interpreter).
    #[default]
    Jit,
    /// Generated code, each translated instruction checked against the interpreter.
    Check,
}

impl Engine {
    /// `SOFTHSA_JIT`'s values: `off`, `on`, `check`.
    pub fn parse(v: &str) -> Option<Engine> {
        match v {
            "off" | "0" => Some(Engine::Interpreter),
            "on" | "1" => Some(Engine::Jit),
            "check" => Some(Engine::Check),
            _ => None,
        }
    }

    /// `SOFTHSA_JIT` from the environment (the default engine when unset or malformed). The
    /// runtime reads and validates it at `hsa_init`; [`crate::DeviceConfig::default`] uses
    /// this, so the device's own tests run under either engine.
    pub fn from_env() -> Engine {
        std::env::var("SOFTHSA_JIT")
            .ok()
            .and_then(|v| Engine::parse(&v))
            .unwrap_or_default()
    }

    /// The name the dispatch trace and `softhsa demo` print.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Interpreter => "interpreter",
            Engine::Jit => "jit",
            Engine::Check => "jit-check",
        }
    }

    /// The engine that will really run: the JIT needs an x86-64 host with AVX2 and FMA.
    pub fn effective(self) -> Engine {
        if self != Engine::Interpreter && !host_supported() {
            Engine::Interpreter
        } else {
            self
        }
    }
}

/// Whether this host can run generated code.
pub fn host_supported() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// A compiled program.
pub struct JitCode {
    code: code::Code,
    /// Entry address of every instruction slot (and one past the last).
    table: Vec<u64>,
    /// Offset of the function entry in `code`.
    entry: u64,
    /// Wall time of the compilation.
    pub compile_ns: u64,
    /// Instructions translated inline, of `slots`.
    pub native: usize,
    pub slots: usize,
}

impl JitCode {
    /// Compiles `prog` (`check`: with lockstep hooks; `gfx900`: gfx906-only ops stay call-outs,
    /// which fault as the interpreter does).
    pub fn compile(prog: &Program, check: bool, gfx900: bool) -> Result<JitCode, String> {
        let start = Instant::now();
        let out = emit::compile(prog, check, gfx900)?;
        Ok(JitCode {
            code: out.code,
            table: out.table,
            entry: out.entry,
            compile_ns: start.elapsed().as_nanos() as u64,
            native: out.native,
            slots: prog.slots.len(),
        })
    }
}

/// What generated code reads besides the wave (`#[repr(C)]`: offsets are baked into the code).
#[repr(C)]
pub(crate) struct JitCtx {
    /// `w.executed` may not exceed this (the budget, or `u64::MAX`).
    pub limit: u64,
    pub table: *const u64,
    pub masks: *const [u32; 8],
    pub stop: *const AtomicBool,
    pub callout: extern "C" fn(*mut Wave, *mut JitCtx, u32) -> u32,
    pub check_pre: extern "C" fn(*mut Wave, *mut JitCtx, u32),
    pub check_post: extern "C" fn(*mut Wave, *mut JitCtx, u32) -> u32,
    /// The `ExecCtx` of the run (type-erased: it has lifetimes).
    pub cx: *mut (),
    /// 64 lanes of results waiting for their NaN check.
    pub scratch: Scratch,
    /// Why a call-out stopped the wave.
    pub exit: Option<Result<(), ExecFault>>,
    /// Check mode: the interpreter's copy of the wave.
    pub shadow: Option<Box<Wave>>,
}

#[repr(C, align(32))]
pub(crate) struct Scratch(pub [u32; 64]);

/// Per 8-lane chunk of EXEC: the byte's lanes as all-ones/zero dwords (a `vpmaskmovd` mask).
static MASKS: [[u32; 8]; 256] = {
    let mut t = [[0u32; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut l = 0;
        while l < 8 {
            if b >> l & 1 != 0 {
                t[b][l] = u32::MAX;
            }
            l += 1;
        }
        b += 1;
    }
    t
};

/// Return codes of generated code.
pub(crate) const EXIT_CALLOUT: u32 = 2;
pub(crate) const EXIT_STOPPED: u32 = 3;

/// Runs `w` under `engine` until it ends, waits, sleeps or faults (as [`exec::run`]).
pub fn run(w: &mut Wave, cx: &mut ExecCtx, engine: Engine) -> Result<(), ExecFault> {
    if engine == Engine::Interpreter || cx.tracer.as_deref().is_some_and(|t| t.wants(w)) {
        // The traced wave is the interpreter's (its trace hooks live there).
        return exec::run(w, cx);
    }
    let check = engine == Engine::Check;
    let Some(code) = cx.prog.jit(check, cx.gfx900) else {
        return exec::run(w, cx);
    };
    let mut j = JitCtx {
        limit: if cx.budget == 0 { u64::MAX } else { cx.budget },
        table: code.table.as_ptr(),
        masks: MASKS.as_ptr(),
        stop: cx.stop as *const AtomicBool,
        callout,
        check_pre,
        check_post,
        cx: cx as *mut ExecCtx as *mut (),
        scratch: Scratch([0; 64]),
        exit: None,
        shadow: None,
    };
    // SAFETY: `code` was generated for this program by `emit::compile`, follows the System V
    // ABI (`extern "C" fn(*mut Wave, *mut JitCtx) -> u32`), preserves callee-saved registers
    // and only touches the wave's registers, `j` and the call-outs' arguments. The program
    // outlives the call (the dispatch holds it). Entry uses `w.pc`, an index checked against
    // the jump table's length first.
    let rc = unsafe {
        if w.pc as usize >= code.slots {
            return exec::run(w, cx);
        }
        let f: extern "C" fn(*mut Wave, *mut JitCtx) -> u32 =
            std::mem::transmute(code.code.addr() + code.entry);
        f(w, &mut j)
    };
    match rc {
        EXIT_CALLOUT => j.exit.take().unwrap_or(Ok(())),
        EXIT_STOPPED => {
            w.state = WaveState::Done;
            Ok(())
        }
        other => Err(ExecFault::new(FaultKind::Internal(
            format!("JIT: unexpected exit code {other}").into(),
        ))),
    }
}

/// Runs instruction `idx` in the interpreter (with its counting, budget and flow handling):
/// 0 = go on at `idx + 1`, 1 = go on at `w.pc` (a jump), [`EXIT_CALLOUT`] = the wave stops
/// (`exit` says why).
extern "C" fn callout(w: *mut Wave, j: *mut JitCtx, idx: u32) -> u32 {
    // SAFETY: generated code passes the pointers it was given by `run`, which are live and
    // exclusively ours for the duration of this call (the generated code is suspended).
    let (w, j) = unsafe { (&mut *w, &mut *j) };
    // SAFETY: `cx` is the `ExecCtx` that `run` borrowed mutably for the whole run.
    let cx = unsafe { &mut *(j.cx as *mut ExecCtx) };
    w.pc = idx;
    // A panic must not unwind through generated code (it has no unwind tables).
    match catch_unwind(AssertUnwindSafe(|| exec::step_at(w, cx))) {
        Ok(None) if w.pc == idx.wrapping_add(1) => 0,
        Ok(None) => 1,
        Ok(Some(r)) => {
            j.exit = Some(r);
            EXIT_CALLOUT
        }
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            j.exit = Some(Err(ExecFault::new(FaultKind::Internal(msg.into()))));
            EXIT_CALLOUT
        }
    }
}

/// The VGPRs a translated instruction reads or writes (its sources and destination).
fn touched(cx: &ExecCtx, idx: u32) -> impl Iterator<Item = usize> {
    let x = match cx.prog.slots.get(idx as usize) {
        Some(crate::program::Slot::Ok(x)) => Some(x),
        _ => None,
    };
    let srcs = x.map(|x| x.src).unwrap_or_default();
    let dst = x.and_then(|x| x.inst.dst.vgpr_index());
    // Each register and the next: 64-bit operands are pairs.
    srcs.into_iter()
        .filter_map(|s| match s {
            crate::exec::operand::Src::V(r) => Some(usize::from(r)),
            _ => None,
        })
        .chain(dst.map(usize::from))
        .flat_map(|r| [r, (r + 1) & 255])
}

/// Check mode, before translated instruction `idx`: the interpreter runs it on a copy of the
/// wave's scalar state and of the VGPRs the instruction touches.
extern "C" fn check_pre(w: *mut Wave, j: *mut JitCtx, idx: u32) {
    // SAFETY: as in `callout`.
    let (w, j) = unsafe { (&mut *w, &mut *j) };
    // SAFETY: as in `callout`.
    let cx = unsafe { &mut *(j.cx as *mut ExecCtx) };
    let shadow = j.shadow.get_or_insert_with(|| Box::new(w.clone()));
    shadow.s = w.s;
    shadow.scc = w.scc;
    shadow.mode = w.mode;
    shadow.gpr_idx_en = w.gpr_idx_en;
    shadow.executed = w.executed;
    shadow.state = w.state;
    for r in touched(cx, idx) {
        shadow.v[r] = w.v[r];
    }
    shadow.pc = idx;
    let r = catch_unwind(AssertUnwindSafe(|| exec::step_at(shadow, cx)));
    if !matches!(r, Ok(None)) {
        // The interpreter stopped or faulted where the JIT goes on: that is a difference too.
        shadow.state = WaveState::Barrier;
    }
}

/// Check mode, after translated instruction `idx`: compares the scalar registers and the
/// touched VGPRs with the interpreter's; 0 = equal, [`EXIT_CALLOUT`] = a difference (reported
/// as the wave's fault, at this instruction).
extern "C" fn check_post(w: *mut Wave, j: *mut JitCtx, idx: u32) -> u32 {
    // SAFETY: as in `callout`.
    let (w, j) = unsafe { (&mut *w, &mut *j) };
    // SAFETY: as in `callout`.
    let cx = unsafe { &mut *(j.cx as *mut ExecCtx) };
    let Some(s) = j.shadow.as_deref() else {
        return 0;
    };
    match first_difference(w, s, touched(cx, idx)) {
        None => 0,
        Some(what) => {
            w.pc = idx;
            j.exit = Some(Err(ExecFault::new(FaultKind::Internal(
                format!("JIT check: {what} differs from the interpreter").into(),
            ))));
            EXIT_CALLOUT
        }
    }
}

/// The first register (scalar, SCC, or one of `vgprs`) in which `jit` and `interp` differ,
/// named, with both values.
pub(crate) fn first_difference(
    jit: &Wave,
    interp: &Wave,
    vgprs: impl Iterator<Item = usize>,
) -> Option<String> {
    if interp.state == WaveState::Barrier && jit.state != WaveState::Barrier {
        return Some("control flow (the interpreter stopped)".into());
    }
    for (i, (a, b)) in jit.s.iter().zip(interp.s.iter()).enumerate() {
        if a != b {
            return Some(format!("s{i}: jit {a:#x}, interpreter {b:#x}"));
        }
    }
    if jit.scc != interp.scc {
        return Some(format!("scc: jit {}, interpreter {}", jit.scc, interp.scc));
    }
    for r in vgprs {
        for l in 0..64 {
            let (a, b) = (jit.v[r][l], interp.v[r][l]);
            if a != b {
                return Some(format!("v{r} lane {l}: jit {a:#x}, interpreter {b:#x}"));
            }
        }
    }
    None
}

impl Program {
    /// The program's generated code (compiled at the first call; `None` when it cannot be).
    pub fn jit(&self, check: bool, gfx900: bool) -> Option<&JitCode> {
        let slot = &self.jit_cache[usize::from(check) * 2 + usize::from(gfx900)];
        slot.get_or_init(|| {
            // A compiler bug must not take the dispatch down: the interpreter runs instead.
            catch_unwind(AssertUnwindSafe(|| JitCode::compile(self, check, gfx900)))
                .ok()
                .and_then(Result::ok)
        })
        .as_ref()
    }
}
