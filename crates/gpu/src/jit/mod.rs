//! The JIT: a kernel's decoded program translated to x86-64 machine code (AVX-512 or AVX2)
//! that runs a whole wave on the wave's register file in place.
//!
//! Shape (DESIGN.md, "Execution engines"): at a kernel's first dispatch, the code reachable
//! from its entry is planned (`plan`: basic blocks; lane-wise instructions grouped into
//! segments that run chunk by chunk with values in host registers; wave-wide memory, scalar
//! and branch instructions) and compiled into one function with an entry per block. What the
//! JIT does not translate is a call-out to the interpreter's `exec::step_at` for that one
//! instruction, which also counts, checks the budget, traces and does control flow, so both
//! engines stop at the same points (barrier, sleep, end, fault) and the work-group scheduler
//! cannot tell which ran. Instructions are counted per block; a block that would pass the
//! instruction budget, or runs in a MODE the lowerings do not assume, runs in the interpreter,
//! which faults at the exact instruction. Memory instructions check their lanes' span against
//! the last range the wave's checker proved (one compare); anything else (another range, an
//! aperture, a bad address) goes through the checker and, if it refuses, the interpreter,
//! which reports the fault with the same PC, lane and address.
//!
//! `SOFTHSA_JIT=check` compiles one instruction per segment, nothing reordered, with a
//! lockstep hook around every translated register-only instruction: the interpreter runs the
//! same instruction on a copy of the wave first and the registers are compared after; the
//! first difference stops the dispatch with a report naming kernel, PC, instruction and
//! register.

mod addr_defer;
mod buf_reuse;
pub mod code;
mod emit;
mod encode;
mod lane_cmp;
mod lane_conv;
mod lane_cross;
mod lane_div;
mod lane_explog;
mod lane_f64;
mod lane_float;
mod lane_half;
mod lane_int;
mod lane_linear;
mod lane_perm;
mod lane_prefix;
mod lane_rep;
mod lane_wide;
mod lds_class;
mod liveness;
mod mask_live;
mod mem_atomic;
mod mem_buffer;
mod mem_gather32;
mod mem_gather64;
mod mem_inline;
mod mem_lanes;
mod mem_lds;
mod mem_lds_atomic;
mod mem_narrow;
mod mem_private;
mod mem_rows;
mod mem_scalar;
mod mem_vector;
mod mem_wide;
mod mov_fold;
mod nan_defer;
mod nan_stub;
mod plan;
mod salu;
mod scc_live;
mod segment;
mod select;
mod stubs;
mod temp_cache;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_atomic;
#[cfg(test)]
mod tests_carry;
#[cfg(test)]
mod tests_div;
#[cfg(test)]
mod tests_explog;
#[cfg(test)]
mod tests_float;
#[cfg(test)]
mod tests_fold;
#[cfg(test)]
mod tests_gather;
#[cfg(test)]
mod tests_gfx90a;
#[cfg(test)]
mod tests_half;
#[cfg(test)]
mod tests_linear;
#[cfg(test)]
mod tests_mem;
#[cfg(test)]
mod tests_narrow;
#[cfg(test)]
mod tests_private;
#[cfg(test)]
mod tests_rep;
#[cfg(test)]
mod tests_sites;
#[cfg(test)]
mod tests_switch;
#[cfg(test)]
mod tests_vdead;
mod vgpr_dead;
mod vx;
mod wave_switch;

pub use vx::Isa;

use crate::exec::{self, ExecCtx, ExecFault};
use crate::fault::FaultKind;
use crate::memory::Site;
use crate::program::Program;
use crate::wave::{Wave, WaveState};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;
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

/// The ISA this process's generated code uses (`None`: the host cannot run any).
pub fn host_isa() -> Option<Isa> {
    static HOST: OnceLock<Option<Isa>> = OnceLock::new();
    *HOST.get_or_init(Isa::host)
}

/// Whether this host can run generated code.
pub fn host_supported() -> bool {
    host_isa().is_some()
}

/// A compiled kernel.
pub struct JitCode {
    code: code::Code,
    /// Code offset of each instruction from `first` on that starts a compiled block
    /// (`u32::MAX`: none).
    entries: Vec<u32>,
    /// Index of the first instruction `entries` covers.
    first: u32,
    /// Offset of the function entry in `code`.
    entry: u64,
    /// Wall time of the compilation.
    pub compile_ns: u64,
    /// Instructions translated inline, of those reachable from the entry.
    pub native: usize,
    pub reachable: usize,
    /// Instructions of the whole program.
    pub slots: usize,
    pub isa: Isa,
    /// Native memory instructions (each has a range cache of its own).
    pub sites: usize,
    /// Its `s_barrier`s and `s_endpgm`s go on to the work-group's next wave
    /// (`wave_switch.rs`).
    switches: bool,
}

impl JitCode {
    /// Compiles the code of `prog` reachable from instruction `entry` for `isa` (`check`:
    /// with lockstep hooks; `gfx900`: gfx906-only ops stay call-outs, which fault as the
    /// interpreter does).
    pub fn compile(
        prog: &Program,
        entry: u32,
        check: bool,
        gfx900: bool,
        isa: Isa,
    ) -> Result<JitCode, String> {
        JitCode::compile_kernel(prog, entry, check, gfx900, isa, 0, None)
    }

    /// [`JitCode::compile`] for a kernel whose waves start with `ids` work-item id VGPRs
    /// after VGPR 0's (its descriptor's `enable_vgpr_workitem_id`): with y ids, its accesses
    /// may be proven linear along rows of a 2-D work-group (`lane_linear.rs`); and with MODE
    /// `mode` (`None`: any MODE): where no instruction of `prog` writes MODE, the blocks need
    /// not check it.
    pub fn compile_kernel(
        prog: &Program,
        entry: u32,
        check: bool,
        gfx900: bool,
        isa: Isa,
        ids: u8,
        mode: Option<u32>,
    ) -> Result<JitCode, String> {
        let start = Instant::now();
        let mut plan = plan::Plan::new(prog, entry, gfx900, check);
        plan.ids = ids.min(2);
        plan.start_mode = mode.filter(|_| !plan::writes_mode(prog));
        if std::env::var("SOFTHSA_JIT_DEBUG").is_ok_and(|v| v == "size") {
            eprintln!("softhsa: JIT plan {} us", start.elapsed().as_micros());
        }
        if std::env::var("SOFTHSA_JIT_DEBUG").is_ok_and(|v| v == "plan") {
            eprint!("{}", plan.describe(prog));
        }
        let out = emit::compile(prog, &plan, isa, check)?;
        if std::env::var_os("SOFTHSA_JIT_PERFMAP").is_some() {
            perf_map(prog, &out);
        }
        if std::env::var("SOFTHSA_JIT_DEBUG").is_ok_and(|v| v == "code") {
            dump_code(&out.code, "kernel");
        }
        Ok(JitCode {
            code: out.code,
            entries: out.entries,
            first: out.first,
            entry: out.entry,
            compile_ns: start.elapsed().as_nanos() as u64,
            native: out.native,
            reachable: out.reachable,
            slots: prog.slots.len(),
            isa,
            sites: out.sites,
            switches: out.stubs.iter().any(|&(_, s)| s == stubs::Stub::NextWave),
        })
    }
}

/// Writes `code` to `/tmp/softhsa-jit-<address>.bin` (`SOFTHSA_JIT_DEBUG=code`), for
/// `objdump -D -b binary -mi386:x86-64 --adjust-vma=ADDR FILE`.
fn dump_code(code: &code::Code, what: &str) {
    let path = format!("/tmp/softhsa-jit-{:x}.bin", code.addr());
    let _ = std::fs::write(&path, code.bytes());
    eprintln!("softhsa: JIT code ({what}) at {:#x} in {path}", code.addr());
}

/// Appends the generated blocks to `/tmp/perf-<pid>.map` (`SOFTHSA_JIT_PERFMAP`), so `perf`
/// names samples in generated code by the kernel address of their block.
fn perf_map(prog: &Program, out: &emit::Output) {
    let starts = out
        .entries
        .iter()
        .enumerate()
        .filter(|(_, &o)| o != u32::MAX)
        .map(|(i, &o)| {
            (
                u64::from(o),
                format!("softhsa_jit_{:#x}", prog.addr(out.first + i as u32)),
            )
        })
        .chain(
            out.stubs
                .iter()
                .map(|(o, s)| (u64::from(*o), format!("softhsa_jit_stub_{s:?}"))),
        )
        .collect();
    perf_map_append(out.code.addr(), out.code.bytes().len() as u64, starts);
}

/// Appends one code mapping's named ranges (offsets from `base`, each up to the next; the
/// last up to `len`) to `/tmp/perf-<pid>.map`.
fn perf_map_append(base: u64, len: u64, mut starts: Vec<(u64, String)>) {
    use std::io::Write;
    starts.sort();
    let mut text = String::new();
    for (k, (off, name)) in starts.iter().enumerate() {
        let end = starts.get(k + 1).map_or(len.max(off + 1), |n| n.0);
        text += &format!("{:x} {:x} {name}\n", base + off, end - off);
    }
    let path = format!("/tmp/perf-{}.map", std::process::id());
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = f.write_all(text.as_bytes());
    }
}

/// A kernel's generated code, compiled at first use: [JIT, check mode] x [gfx906, gfx900].
pub struct JitCache {
    entry: u32,
    /// Work-item id VGPRs after VGPR 0's ([`JitCode::compile_kernel`]).
    ids: u8,
    /// MODE as the kernel's waves start ([`crate::wave::initial_mode`]).
    mode: u32,
    slots: [OnceLock<Option<JitCode>>; 4],
}

impl JitCache {
    /// An empty cache for the kernel entering at instruction `entry`, whose waves start with
    /// `ids` work-item id VGPRs after VGPR 0's (0-2) and MODE `mode`.
    pub fn new(entry: u32, ids: u8, mode: u32) -> JitCache {
        JitCache {
            entry,
            ids,
            mode,
            slots: Default::default(),
        }
    }

    /// The generated code for `prog` (compiled at the first call; `None` when it cannot be).
    pub fn get(&self, prog: &Program, check: bool, gfx900: bool) -> Option<&JitCode> {
        let isa = host_isa()?;
        let slot = &self.slots[usize::from(check) * 2 + usize::from(gfx900)];
        slot.get_or_init(|| {
            // A compiler bug must not take the dispatch down: the interpreter runs instead.
            let r = catch_unwind(AssertUnwindSafe(|| {
                let mode = Some(self.mode);
                JitCode::compile_kernel(prog, self.entry, check, gfx900, isa, self.ids, mode)
            }));
            match r {
                Ok(Ok(c)) => Some(c),
                Ok(Err(e)) => {
                    if std::env::var_os("SOFTHSA_JIT_DEBUG").is_some() {
                        eprintln!("softhsa: {e}");
                    }
                    None
                }
                Err(_) => None,
            }
        })
        .as_ref()
    }
}

impl std::fmt::Debug for JitCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JitCache")
            .field("entry", &self.entry)
            .finish()
    }
}

/// What generated code reads besides the wave (`#[repr(C)]`: offsets are baked into the code;
/// 64-byte aligned for the lane vectors in it).
#[repr(C, align(64))]
pub(crate) struct JitCtx {
    /// `w.executed` may not exceed this (the budget, or `u64::MAX`).
    pub limit: u64,
    pub masks: *const [u32; 8],
    pub stop: *const AtomicBool,
    pub callout: extern "C" fn(*mut Wave, *mut JitCtx, u32) -> u32,
    pub check_pre: extern "C" fn(*mut Wave, *mut JitCtx, u32),
    pub check_post: extern "C" fn(*mut Wave, *mut JitCtx, u32) -> u32,
    /// Proves `[lo, end)` through the checker for memory instruction `site`: 1 and the
    /// site's range updated, or 0.
    pub span: extern "C" fn(*mut JitCtx, u64, u64, u32, u32) -> u32,
    /// Per memory instruction: the range its last check proved (the checker's site cache,
    /// kept across the dispatch's waves and work-groups by the worker).
    pub sites: *mut Site,
    /// The work-group's LDS and its size in bytes.
    pub lds: *mut u8,
    pub lds_size: u64,
    /// The dispatch's private segment size per work-item in bytes (FLAT accesses to scratch
    /// check their offset against it, as the interpreter does).
    pub private_size: u64,
    /// A segment's uniform (SGPR) operands without a host register, copied before its chunk
    /// loop: lane masks the segment writes change the SGPRs between chunks. One dword per
    /// slot (AVX-512 reads it as a broadcast operand, AVX2 broadcasts it into a register).
    pub snap: [std::mem::MaybeUninit<u32>; SNAP_SLOTS],
    /// AVX2, which has no broadcast operands: a segment's first uniform operands broadcast
    /// to a whole chunk once, read as memory operands.
    pub snap_wide: [SnapSlot; WIDE_SNAP_SLOTS],
    /// Classified LDS address registers of the block being run (`lds_class.rs`: a block
    /// classifies a register before it reads the slot).
    pub lds_cls: [std::mem::MaybeUninit<lds_class::LdsClass>; lds_class::LDS_CLASS_SLOTS],
    /// The address an `EXIT_JUMP` goes to.
    pub jump: u64,
    /// A chunk's GPRs collecting lane masks, as the chunk found them, for its second run
    /// (`nan_defer.rs`).
    pub nan_accs: [u64; MASK_ACC_SLOTS],
    /// A buffer access's 32-bit lane offsets (`mem_buffer.rs`), written before the stub reads
    /// them.
    pub buf_offsets: [std::mem::MaybeUninit<u32>; 64],
    /// The host address of scratch offset 0 that a read-modify-write's load checked, for its
    /// store (`buf_reuse.rs`); 0: the store checks its own.
    pub buf_base: u64,
    /// A cross-lane op's results for all 64 lanes (`lane_cross.rs`), gathered before any is
    /// written (the destination may be a source).
    pub xlane: [std::mem::MaybeUninit<u32>; 64],
    /// The `ExecCtx` of the run (type-erased: it has lifetimes).
    pub cx: *mut (),
    /// Why a call-out stopped the wave.
    pub exit: Option<Result<(), ExecFault>>,
    /// Check mode: the interpreter's copy of the wave.
    pub shadow: Option<Box<Wave>>,
    /// The work-group's waves, the one running (an index into them), and the later ones a
    /// wave reaching `s_barrier` or `s_endpgm` may go on to, by index (`wave_switch.rs`).
    pub waves: *mut Wave,
    pub cur: u32,
    pub run_mask: u64,
    /// How many waves the work-group has.
    pub nw: u32,
    /// The running wave's count when its turn began, and the instructions the waves before
    /// it in this run executed.
    pub turn_start: u64,
    pub ran: u64,
    /// Barriers released in generated code in this run, and switches since the last one.
    pub releases: u64,
    pub round_switches: u64,
    /// Instructions after which the run releases no barrier (the loop's clock).
    pub clock_in: u64,
    /// The dispatch's instruction budget (0: none), for the turns of waves switched to.
    pub budget: u64,
    /// The code's table of block entries ([`JitCode::entries`]) and its base address.
    pub entries: *const u32,
    pub code: u64,
    /// Switches made at barriers (tests look).
    pub switches: u64,
    /// Where the work-group loop lets generated code go on with the next work-group when
    /// every wave of this one has ended: a `*mut &mut dyn GroupEnd`, null when it does not
    /// ([`WaveRunner::run`]); and the call-out generated code calls then.
    pub group_end: *mut (),
    pub group_end_fn: extern "C" fn(*mut JitCtx) -> u32,
    /// A panic in that call-out, resumed once generated code has returned.
    pub panic: Option<Box<dyn std::any::Any + Send>>,
}

/// What the work-group loop does when every wave of its work-group has ended: where it
/// would go on with the next work-group of its batch in the same context, counts the ended
/// one, sets the next one's waves up (all runnable) and returns the instructions after which
/// its run releases no barrier (`JitCtx::clock_in`); `None`: nothing changed, the loop
/// ends the work-group itself. Generated code asks it at the last wave's `s_endpgm`
/// (`wave_switch.rs`), so that a batch of work-groups is one call of the code.
pub trait GroupEnd {
    /// Counts the ended work-group and sets the next one up (see the trait).
    fn chain(&mut self, waves: &mut [Wave], cx: &mut ExecCtx) -> Option<u64>;
}

/// Snapshot slots of a segment's uniform operands.
pub(crate) const SNAP_SLOTS: usize = 64;

/// Chunk-wide snapshot slots (AVX2).
pub(crate) const WIDE_SNAP_SLOTS: usize = 32;

/// One chunk-wide snapshot slot (aligned, so that no read of one splits a cache line).
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub(crate) struct SnapSlot(pub [std::mem::MaybeUninit<u32>; 8]);

/// How many GPRs a segment may collect lane masks in (`segment.rs`), each saved in
/// `JitCtx::nan_accs` for a chunk's second run.
pub(crate) const MASK_ACC_SLOTS: usize = 6;

/// Per 8-lane chunk of EXEC: the byte's lanes as all-ones/zero dwords (AVX2 masks).
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

/// Exit codes of generated code.
/// A call-out stopped the wave (`JitCtx::exit` says how).
pub(crate) const EXIT_STOP: u32 = 2;
/// A stop request (another work-group faulted): the wave ends.
pub(crate) const EXIT_STOPPED: u32 = 3;
/// The interpreter runs the instruction at `w.pc` (at least that one).
pub(crate) const EXIT_INTERP: u32 = 4;
/// Go on at `w.pc` (a jump out of the compiled code).
pub(crate) const EXIT_DISPATCH: u32 = 5;
/// `s_endpgm`: the wave is done.
pub(crate) const EXIT_END: u32 = 6;
/// `s_barrier`: the wave waits at the barrier, `w.pc` after it.
pub(crate) const EXIT_BARRIER: u32 = 7;
/// `s_setpc_b64` / `s_swappc_b64` (`w.pc` at it): go on at the address in `JitCtx::jump`.
pub(crate) const EXIT_JUMP: u32 = 8;

/// Runs the waves of one work-group's turn on a runner under one engine. What stays the same
/// from wave to wave (the engine, the kernel's generated code, the constant part of the
/// generated code's context) is set up once per turn rather than once per wave: a short wave
/// spends about as long in this set-up as in its own code.
pub struct WaveRunner<'p> {
    code: Option<&'p JitCode>,
    j: JitCtx,
}

impl<'p> WaveRunner<'p> {
    /// A runner for the waves `cx` runs under `engine` (the code is compiled here at the
    /// kernel's first dispatch; the interpreter runs when it cannot be), in a dispatch whose
    /// waves may execute `budget` instructions each (0: no limit).
    pub fn new(cx: &ExecCtx<'p>, engine: Engine, budget: u64) -> WaveRunner<'p> {
        let code = match (engine, cx.jit) {
            (Engine::Interpreter, _) | (_, None) => None,
            (_, Some(cache)) => cache.get(cx.prog, engine == Engine::Check, cx.gfx900),
        };
        let mut j = JitCtx::new(cx.stop);
        j.budget = budget;
        WaveRunner { code, j }
    }

    /// A runner of `code` (tests: their contexts have no cache of it).
    #[cfg(test)]
    pub(crate) fn with_code(cx: &ExecCtx<'p>, code: &'p JitCode, budget: u64) -> WaveRunner<'p> {
        let mut r = WaveRunner::new(cx, Engine::Interpreter, budget);
        r.code = Some(code);
        r
    }

    /// Whether a run may go on with later waves (see [`WaveRunner::run`]).
    pub fn switches(&self, cx: &ExecCtx) -> bool {
        // A trace decides per wave which engine runs it. A change of the device's GWS must
        // wake the work-groups waiting on it before this one runs another wave.
        self.code.is_some_and(|c| c.switches) && !cx.prog.uses_gws && cx.tracer.is_none()
    }

    /// Runs `waves[k]`, whose turn has started ([`Wave::start_turn`], `cx.budget` set), until
    /// it ends, waits, sleeps or faults (as [`exec::run`]). Where [`WaveRunner::switches`],
    /// a wave of it that reaches `s_barrier` or `s_endpgm` may go on to the next wave the
    /// work-group loop would start in this round, in generated code (`wave_switch.rs`).
    /// Generated code releases barriers only while the waves have run fewer than
    /// `clock_in` instructions (the work-group loop looks at the clock then). `cx` must be
    /// the context the runner was made for. Where it switches, and `end` is given, the last
    /// wave of a work-group to end asks `end` for the next work-group and goes on with it.
    pub fn run(
        &mut self,
        waves: &mut [Wave],
        k: usize,
        cx: &mut ExecCtx,
        clock_in: u64,
        end: Option<&mut dyn GroupEnd>,
    ) -> Ran {
        let w = &mut waves[k];
        let before = w.executed;
        match self.code {
            // The traced wave is the interpreter's (its trace hooks live there).
            Some(code) if !cx.tracer.as_deref().is_some_and(|t| t.wants(w)) => {
                // (Without switching, the code releases no barrier either: clock due.)
                let switch = self.switches(cx);
                self.j.run_mask = if switch { later_runnable(waves, k) } else { 0 };
                self.j.clock_in = if switch { clock_in } else { 0 };
                self.j.turn_start = before;
                self.j.ran = 0;
                self.j.releases = 0;
                self.j.round_switches = 0;
                let mut end = end.filter(|_| switch);
                self.j.group_end = match &mut end {
                    Some(e) => e as *mut &mut dyn GroupEnd as *mut (),
                    None => std::ptr::null_mut(),
                };
                let (last, result) = run_code_in(&mut self.j, waves, k, cx, code);
                self.j.group_end = std::ptr::null_mut();
                Ran {
                    last,
                    insts: self.j.ran + (waves[last].executed - self.j.turn_start),
                    released: self.j.releases != 0,
                    round_progress: self.j.round_switches != 0,
                    result,
                }
            }
            _ => {
                // (The interpreter does not keep `lin_rows` up to date.)
                w.lin_rows = 0;
                let result = exec::run(w, cx);
                Ran {
                    last: k,
                    insts: w.executed - before,
                    released: false,
                    round_progress: false,
                    result,
                }
            }
        }
    }

    /// Switches made at barriers so far (tests).
    #[cfg(test)]
    pub(crate) fn switches_made(&self) -> u64 {
        self.j.switches
    }
}

/// What [`WaveRunner::run`] did.
pub struct Ran {
    /// The wave the run ended with (each run before it, from the first on, waits at the
    /// barrier or is done).
    pub last: usize,
    /// Instructions the waves executed.
    pub insts: u64,
    /// Generated code released the barrier (every wave waited at it or was done) and went on
    /// with the next round, as the loop would (`wave_switch.rs`): the run ended in a later
    /// round than it began.
    pub released: bool,
    /// Waves of the run's last round before `last` waited at the barrier or ended.
    pub round_progress: bool,
    /// How the last one stopped.
    pub result: Result<(), ExecFault>,
}

/// The waves after `k` the work-group loop would start next in this round, as bits: the
/// runnable ones, up to the first that waits at a global wave sync operation (whether it
/// runs again is the loop's to say).
fn later_runnable(waves: &[Wave], k: usize) -> u64 {
    let mut m = 0u64;
    // (A work-group has at most 16 waves: 1,024 work-items.)
    for (i, w) in waves
        .iter()
        .enumerate()
        .skip(k + 1)
        .take_while(|&(i, _)| i < 64)
    {
        match w.state {
            WaveState::Running | WaveState::Sleeping | WaveState::Sliced => m |= 1 << i,
            WaveState::Gws => break,
            WaveState::Barrier | WaveState::Done => {}
        }
    }
    m
}

/// The interpreter's budget for the wave generated code runs now (`JitCtx::limit`, which a
/// switch at a barrier sets for the next wave's turn).
fn sync_budget(j: &JitCtx, cx: &mut ExecCtx) {
    cx.budget = match j.limit {
        u64::MAX => 0,
        l => l,
    };
}

impl JitCtx {
    /// A context with the call-outs' entry points and `stop`; the per-run fields are set by
    /// [`run_code_in`].
    fn new(stop: &AtomicBool) -> JitCtx {
        JitCtx {
            limit: u64::MAX,
            masks: MASKS.as_ptr(),
            stop,
            callout,
            check_pre,
            check_post,
            span,
            sites: std::ptr::null_mut(),
            lds: std::ptr::null_mut(),
            lds_size: 0,
            private_size: 0,
            // Written by generated code before it is read: not worth zeroing.
            snap: [std::mem::MaybeUninit::uninit(); SNAP_SLOTS],
            snap_wide: [SnapSlot([std::mem::MaybeUninit::uninit(); 8]); WIDE_SNAP_SLOTS],
            lds_cls: [std::mem::MaybeUninit::uninit(); lds_class::LDS_CLASS_SLOTS],
            buf_offsets: [std::mem::MaybeUninit::uninit(); 64],
            buf_base: 0,
            xlane: [std::mem::MaybeUninit::uninit(); 64],
            jump: 0,
            nan_accs: [0; MASK_ACC_SLOTS],
            cx: std::ptr::null_mut(),
            exit: None,
            shadow: None,
            waves: std::ptr::null_mut(),
            cur: 0,
            run_mask: 0,
            nw: 0,
            turn_start: 0,
            ran: 0,
            releases: 0,
            round_switches: 0,
            clock_in: 0,
            budget: 0,
            entries: std::ptr::null(),
            code: 0,
            switches: 0,
            group_end: std::ptr::null_mut(),
            group_end_fn: group_end,
            panic: None,
        }
    }
}

/// [`JitCtx::group_end_fn`]: 1 when the next work-group's waves are set up in `j.waves`
/// (the run goes on with its first wave), 0 when the loop ends the work-group.
extern "C" fn group_end(j: *mut JitCtx) -> u32 {
    // SAFETY: generated code passes the context `run_code_in` gave it, live and ours while
    // the code is suspended here; `group_end` is the `&mut dyn GroupEnd` that `run` set for
    // this call of the code (it outlives it); `waves` and `nw` are the work-group's waves,
    // reached only through this pointer while the code runs; `cx` is the `ExecCtx` the run
    // borrowed mutably.
    let (j, end, waves, cx) = unsafe {
        let j = &mut *j;
        let end = &mut *(j.group_end as *mut &mut dyn GroupEnd);
        let waves = std::slice::from_raw_parts_mut(j.waves, j.nw as usize);
        let cx = &mut *(j.cx as *mut ExecCtx);
        (j, end, waves, cx)
    };
    // A panic must not unwind through generated code (it has no unwind tables).
    match catch_unwind(AssertUnwindSafe(|| {
        let clock_in = end.chain(waves, cx)?;
        Some((clock_in, cx.lds.as_mut_ptr(), cx.lds.size() as u64))
    })) {
        Ok(Some((clock_in, lds, lds_size))) => {
            // A new run of the loop's: every wave runnable, nothing counted or released yet.
            j.run_mask = u64::MAX >> (64 - j.nw);
            j.ran = 0;
            j.releases = 0;
            j.round_switches = 0;
            j.clock_in = clock_in;
            (j.lds, j.lds_size) = (lds, lds_size);
            1
        }
        Ok(None) => 0,
        Err(p) => {
            j.panic = Some(p);
            0
        }
    }
}

/// Runs `w` with `code` (compiled for `cx.prog`) in a fresh context (tests; the work-group
/// loop uses a [`WaveRunner`]).
#[cfg(test)]
pub(crate) fn run_code(w: &mut Wave, cx: &mut ExecCtx, code: &JitCode) -> Result<(), ExecFault> {
    let mut j = JitCtx::new(cx.stop);
    run_code_in(&mut j, std::slice::from_mut(w), 0, cx, code).1
}

/// Runs `waves[k]` with `code` (compiled for `cx.prog`) in context `j` (made for `cx.stop`,
/// `run_mask` set), and the waves it switches to at barriers; returns the index of the last
/// one and how it stopped. The thread's MXCSR must be the IEEE default
/// (`fpenv::DefaultFpEnv`, which runners hold; test threads start with it): the generated
/// code does not set it.
fn run_code_in(
    j: &mut JitCtx,
    waves: &mut [Wave],
    k: usize,
    cx: &mut ExecCtx,
    code: &JitCode,
) -> (usize, Result<(), ExecFault>) {
    debug_assert!(crate::fpenv::is_default(crate::fpenv::mxcsr()));
    debug_assert!(std::ptr::eq(j.stop, cx.stop as *const AtomicBool));
    debug_assert!(j.run_mask >> waves.len() == 0 && j.run_mask & ((2 << k) - 1) == 0);
    j.sites = cx.mem.sites(code.sites).as_mut_ptr();
    j.limit = match cx.budget {
        0 => u64::MAX,
        b => b,
    };
    j.lds = cx.lds.as_mut_ptr();
    j.lds_size = cx.lds.size() as u64;
    j.private_size = u64::from(cx.private_size);
    j.exit = None;
    j.entries = code.entries.as_ptr();
    j.code = code.code.addr();
    // Every wave is reached through this pointer from here on (generated code switches by
    // index): no reference into `waves` lives across a call of the code.
    let base = waves.as_mut_ptr();
    j.waves = base;
    j.nw = waves.len() as u32;
    j.cur = k as u32;
    // (A shared reference of its own: the program outlives the context's borrow.)
    let prog = cx.prog;
    let cxp: *mut ExecCtx = cx;
    j.cx = cxp as *mut ();
    let f = code.code.addr() + code.entry;
    loop {
        let cur = j.cur as usize;
        // SAFETY: `cur` is `k` or a wave of `run_mask`, both inside `waves` (asserted
        // above); this is the only reference to it while no generated code runs.
        let w = unsafe { &mut *base.add(cur) };
        let off =
            w.pc.checked_sub(code.first)
                .and_then(|k| code.entries.get(k as usize))
                .copied()
                .unwrap_or(u32::MAX);
        if off == u32::MAX {
            // Not compiled here (a dynamic jump target): the interpreter runs it.
            interpreted(w);
            // SAFETY: no generated code runs; `cxp` is our unique borrow.
            let cx = unsafe { &mut *cxp };
            sync_budget(j, cx);
            if let Some(r) = exec::step_at(w, cx) {
                return (cur, r);
            }
            continue;
        }
        // SAFETY: `code` was generated for this program by `emit::compile`: a System V
        // function `(wave, ctx, target)` that jumps to `target` (a block entry of the same
        // code, looked up above), preserves callee-saved registers, leaves MXCSR (the default,
        // which its float code assumes: see above) as it is, and touches
        // only the wave, the later waves of `run_mask` (through `j.waves`, the pointer above),
        // `j`, checked memory and the call-outs' arguments. The program and the code outlive
        // the call (the dispatch holds the kernel).
        let rc = unsafe {
            let g: extern "C" fn(*mut Wave, *mut JitCtx, u64) -> u32 = std::mem::transmute(f);
            g(w, j, code.code.addr() + u64::from(off))
        };
        if let Some(p) = j.panic.take() {
            std::panic::resume_unwind(p);
        }
        // The wave the code left with (a later one after a switch).
        let cur = j.cur as usize;
        // SAFETY: as above.
        let w = unsafe { &mut *base.add(cur) };
        match rc {
            EXIT_STOP => return (cur, j.exit.take().unwrap_or(Ok(()))),
            EXIT_STOPPED | EXIT_END => {
                w.state = WaveState::Done;
                return (cur, Ok(()));
            }
            EXIT_BARRIER => {
                w.state = WaveState::Barrier;
                return (cur, Ok(()));
            }
            EXIT_INTERP => {
                interpreted(w);
                // SAFETY: as above.
                let cx = unsafe { &mut *cxp };
                sync_budget(j, cx);
                if let Some(r) = exec::step_at(w, cx) {
                    return (cur, r);
                }
            }
            EXIT_DISPATCH => {}
            EXIT_JUMP => match prog.index_of(j.jump) {
                Some(t) => w.pc = t,
                // As the interpreter: the jump's own pc, the address that is no instruction.
                None => {
                    return (
                        cur,
                        Err(ExecFault {
                            kind: FaultKind::IllegalInstruction,
                            lane: None,
                            address: Some(j.jump),
                        }),
                    )
                }
            },
            other => {
                return (
                    cur,
                    Err(ExecFault::new(FaultKind::Internal(
                        format!("JIT: unexpected exit code {other}").into(),
                    ))),
                )
            }
        }
    }
}

/// Runs instruction `idx` in the interpreter (with its counting, budget and flow handling):
/// 0 = go on at `idx + 1`, 1 = go on at `w.pc` (a jump), 2 = the wave stops (`exit` says
/// why).
extern "C" fn callout(w: *mut Wave, j: *mut JitCtx, idx: u32) -> u32 {
    // SAFETY: generated code passes the pointers it was given by `run_code`, which are live
    // and exclusively ours for the duration of this call (the generated code is suspended).
    let (w, j) = unsafe { (&mut *w, &mut *j) };
    // SAFETY: `cx` is the `ExecCtx` that `run_code` borrowed mutably for the whole run.
    let cx = unsafe { &mut *(j.cx as *mut ExecCtx) };
    // (The wave may be one generated code switched to at a barrier, with a turn of its own.)
    sync_budget(j, cx);
    w.pc = idx;
    interpreted(w);
    // A panic must not unwind through generated code (it has no unwind tables).
    let r = catch_unwind(AssertUnwindSafe(|| exec::step_at(w, cx)));
    match r {
        Ok(None) if w.pc == idx.wrapping_add(1) => 0,
        Ok(None) => 1,
        Ok(Some(r)) => {
            j.exit = Some(r);
            2
        }
        Err(p) => {
            j.exit = Some(Err(internal(p)));
            2
        }
    }
}

/// Before the interpreter runs one instruction of a wave under generated code: with lanes
/// inactive, a VGPR it writes may leave them behind, which the lane-linear analysis
/// (`lane_linear.rs`) must not trust from then on.
fn interpreted(w: &mut Wave) {
    if w.exec() != u64::MAX {
        w.lin_rows = 0;
    }
}

fn internal(p: Box<dyn std::any::Any + Send>) -> ExecFault {
    let msg = p
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    ExecFault::new(FaultKind::Internal(msg.into()))
}

/// Proves `[lo, end)` accessible through the wave's checker (the runtime's memory map, the
/// scratch backing); on success the range it proved becomes memory instruction `site`'s fast
/// path.
extern "C" fn span(j: *mut JitCtx, lo: u64, end: u64, write: u32, site: u32) -> u32 {
    // SAFETY: as in `callout`.
    let j = unsafe { &mut *j };
    // SAFETY: as in `callout`.
    let cx = unsafe { &mut *(j.cx as *mut ExecCtx) };
    let r = catch_unwind(AssertUnwindSafe(|| cx.mem.span(lo, end, write != 0)));
    match r {
        Ok(Ok(_)) => {
            let k = cx.mem.cache();
            // SAFETY: `sites` has an entry for every site of the code (`run_code` sized it),
            // and `site` is one of them (compiled in).
            let slot = unsafe { &mut *j.sites.add(site as usize) };
            let private = if cx.mem.is_scratch(&k.range) {
                crate::memory::PRIVATE_SITE
            } else {
                0
            };
            let s = Site {
                lo: k.range.start,
                hi: k.range.end,
                delta: k.delta,
                hint: slot.hint & !crate::memory::PRIVATE_SITE | private,
                ..*slot
            };
            *slot = s;
            // The fast check must now pass, or the caller would retry forever.
            u32::from(lo >= s.lo && end <= s.hi && end >= lo)
        }
        _ => 0,
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
/// touched VGPRs with the interpreter's; 0 = equal, non-zero = a difference (reported as the
/// wave's fault, at this instruction).
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
            let text = cx.prog.text(idx);
            j.exit = Some(Err(ExecFault::new(FaultKind::Internal(
                format!("JIT check: {what} differs from the interpreter after `{text}`").into(),
            ))));
            1
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
