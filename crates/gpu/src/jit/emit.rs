//! The function generated for a kernel: prologue, one label per block, the instruction count
//! kept in a register, call-outs to the interpreter, exits, branches, and the wave-wide
//! native instructions. Segments (chunk loops) are in `segment.rs`, lowerings in `lane_*.rs`,
//! `salu.rs` and the memory modules.
//!
//! Registers while generated code runs: rbx = the wave, r12 = the [`JitCtx`], r13 = the
//! wave's VGPR file (VGPR r, chunk c at r13 + 256 r + chunk bytes × c), r14 = the instruction
//! limit, r15 = the EXEC-byte mask table (AVX2), rbp = the wave's executed-instruction count
//! (written back to the wave before every call-out and exit). Inside a segment's chunk loop,
//! rdi = r13 + chunk offset and rsi = chunk index. rax, rcx, rdx, r8–r11 are scratch.

use super::code::{Code, Reserved};
use super::plan::{Block, Item, Plan};
use super::select::{Cond2, Kind, WaveOp};
use super::vx::Isa;
use super::{JitCtx, EXIT_DISPATCH, EXIT_INTERP, EXIT_STOP, EXIT_STOPPED};
use crate::exec::operand::Src;
use crate::program::{Program, Slot, XInst};
use crate::wave::{Wave, VCC_LO};
use iced_x86::code_asm::*;
use std::mem::offset_of;

/// The compiled program, ready to run.
pub(super) struct Output {
    pub code: Code,
    /// Code offset of each instruction slot from `first` on that starts a block (`u32::MAX`:
    /// none).
    pub entries: Vec<u32>,
    /// Index of the first instruction `entries` covers (the kernel's lowest reachable one).
    pub first: u32,
    /// Offset of the function's entry.
    pub entry: u64,
    pub native: usize,
    pub reachable: usize,
    /// Native memory instructions (site caches).
    pub sites: usize,
    /// Code offset of each stub, for the perf map.
    pub stubs: Vec<(u32, super::stubs::Stub)>,
}

// Offsets the generated code uses.
pub(super) const W_S: i32 = offset_of!(Wave, s) as i32;
pub(super) const W_V: i32 = offset_of!(Wave, v) as i32;
pub(super) const W_SCC: i32 = offset_of!(Wave, scc) as i32;
pub(super) const W_MODE: i32 = offset_of!(Wave, mode) as i32;
pub(super) const W_PC: i32 = offset_of!(Wave, pc) as i32;
pub(super) const W_EXECUTED: i32 = offset_of!(Wave, executed) as i32;
pub(super) const W_GPR_IDX: i32 = offset_of!(Wave, gpr_idx_en) as i32;
pub(super) const W_UNFENCED: i32 = offset_of!(Wave, unfenced_stores) as i32;
pub(super) const W_LIN: i32 = offset_of!(Wave, lin_rows) as i32;
pub(super) const J_STOP: i32 = offset_of!(JitCtx, stop) as i32;
pub(super) const J_CALLOUT: i32 = offset_of!(JitCtx, callout) as i32;
pub(super) const J_PRE: i32 = offset_of!(JitCtx, check_pre) as i32;
pub(super) const J_POST: i32 = offset_of!(JitCtx, check_post) as i32;
pub(super) const J_LIMIT: i32 = offset_of!(JitCtx, limit) as i32;
pub(super) const J_MASKS: i32 = offset_of!(JitCtx, masks) as i32;
pub(super) const J_JUMP: i32 = offset_of!(JitCtx, jump) as i32;

/// EXEC's number in the scalar register file.
pub(super) const EXEC: u8 = 126;

/// An emission error (from the assembler, or a case the selector should have excluded).
#[derive(Debug)]
pub(super) struct EmitError(pub String);

impl From<IcedError> for EmitError {
    fn from(e: IcedError) -> Self {
        EmitError(e.to_string())
    }
}

pub(super) fn err(s: &str) -> EmitError {
    EmitError(s.to_string())
}

pub(super) type R<T> = Result<T, EmitError>;

/// Binds `l` here. (iced allows one label per instruction: a zero-byte instruction follows,
/// so labels that meet stay distinct.)
pub(super) fn bind(a: &mut CodeAssembler, l: &mut CodeLabel) -> R<()> {
    a.set_label(l)?;
    a.zero_bytes()?;
    Ok(())
}

/// Code emitted out of line (after all blocks), so the common path falls through.
pub(super) type Cold<'p> = Box<dyn FnOnce(&mut Emitter<'p>) -> R<()> + 'p>;

/// The scalar register `i` (32 bits) in the wave.
pub(super) fn sreg32(i: u8) -> AsmMemoryOperand {
    dword_ptr(rbx + (W_S + 4 * i32::from(i)))
}

/// The scalar register pair at `i` (64 bits) in the wave.
pub(super) fn sreg64(i: u8) -> AsmMemoryOperand {
    qword_ptr(rbx + (W_S + 4 * i32::from(i)))
}

/// Jumps to `partial` unless all 64 lanes of the wave are active (EXEC is all ones); the
/// full-wave path follows (generated code's fast paths for the common case).
pub(super) fn unless_full_wave(a: &mut CodeAssembler, partial: CodeLabel) -> R<()> {
    a.cmp(sreg64(EXEC), -1)?;
    a.jne(partial)?;
    Ok(())
}

pub(super) struct Emitter<'p> {
    pub(super) a: CodeAssembler,
    pub(super) isa: Isa,
    pub(super) prog: &'p Program,
    pub(super) check: bool,
    /// Label of each block start (by instruction index minus `first`).
    pub(super) labels: Vec<Option<CodeLabel>>,
    /// The lowest instruction index of the plan: tables by instruction cover the kernel's own
    /// range, not the whole program (every kernel of the code object).
    pub(super) first: u32,
    /// The epilogue: eax = exit code, the wave's count already stored.
    pub(super) exit: CodeLabel,
    /// Shared cold stub: a call-out returned non-zero in eax.
    callout_ret: CodeLabel,
    cold: Vec<Cold<'p>>,
    /// Free temporaries (bit i: vector register i) and mask temporaries.
    pub(super) free_v: u32,
    pub(super) free_m: u32,
    /// Natives of the current block not yet emitted (for exact counts at call-outs).
    pub(super) natives_left: u32,
    /// Current segment state (inside a chunk loop).
    pub(super) seg: Option<super::segment::Seg>,
    /// The block being emitted runs at most once per wave ([`super::plan::Plan::once`]).
    pub(super) runs_once: bool,
    /// The chunk loop being emitted runs only when every lane of the wave is active (AVX2's
    /// full-EXEC copy of a segment): EXEC's mask register holds all ones.
    pub(super) full_exec: bool,
    /// The chunk an unrolled full-wave body is emitting (`segment.rs`): its VGPR and lane-mask
    /// operands are addressed by displacement from r13 and the wave, and rdi/rsi are not
    /// used. `None` in chunk loops (rdi and rsi step).
    pub(super) chunk_at: Option<u32>,
    /// A segment's chunk runs on a few lanes (`lane_rep.rs`): its VGPRs and lane masks are in
    /// `Wave::rep` (rdi).
    pub(super) rep_mode: bool,
    /// Lane instructions the rest of the kernel may still unroll (`segment.rs`, `UNROLL_MAX`).
    pub(super) unroll_left: usize,
    /// ... in the copies of its segments for waves with lanes off
    /// (`segment::partial_unroll_budget`).
    pub(super) partial_unroll_left: usize,
    /// The kernel's global dword accesses are inlined (`mem_inline.rs`).
    pub(super) inline_vmem: bool,
    /// Consecutive global accesses learn to prefetch a work-group ahead
    /// (`mem_vector::far_prefetch`).
    pub(super) far_prefetch: bool,
    /// The kernel's lane-linear accesses and the segments they depend on (`lane_linear.rs`).
    pub(super) linear: super::lane_linear::Linear,
    /// `s_endpgm` reads every scalar register (`Plan::exact_end`).
    exact_end: bool,
    /// MODE for the waves' whole life (`Plan::start_mode`).
    start_mode: Option<u32>,
    /// The scalar op being emitted leaves an SCC nothing reads ([`super::scc_live`]).
    pub(super) scc_dead: bool,
    /// The current block's VGPR writes that it replaces before any read or that nothing reads
    /// before the wave ends ([`super::vgpr_dead::analyse`]; none in check mode).
    vdead: super::vgpr_dead::Dead,
    /// The chunk body being emitted leaves out the NaN tests of f32 adds, subtractions,
    /// multiplies and fmas, and a NaN where their results leave goes here, to the chunk's second run
    /// (`nan_defer.rs`).
    pub(super) nan_redo: Option<CodeLabel>,
    /// Memory-instruction sites numbered so far.
    pub(super) sites: u32,
    /// Stubs requested so far.
    pub(super) stubs: rustc_hash::FxHashMap<super::stubs::Stub, CodeLabel>,
    /// Instruction index of the labels whose address the output needs (blocks, stubs).
    pub(super) bound: rustc_hash::FxHashMap<CodeLabel, usize>,
    /// Classified LDS address registers at the current point of the block.
    pub(super) lds_cls: super::lds_class::ClassState,
    /// The global access after the segment being emitted, where it may take the segment's
    /// address from its first and last chunks alone (`addr_defer.rs`).
    pub(super) addr_next: Option<super::addr_defer::NextAccess>,
    /// What the segment just emitted left out of its middle chunks, for the access after it
    /// to complete (`addr_defer.rs`).
    pub(super) deferred: Option<super::addr_defer::Deferred>,
    /// The global loads right after the segment being emitted, which may read addresses it
    /// computes on a few lanes from `Wave::rep` (`lane_rep.rs`).
    pub(super) rep_next: Option<super::lane_rep::RepRun>,
    /// The loads that read their addresses from `Wave::rep` when the segment before them
    /// ran on a few lanes, and its routine filling the VGPRs it left unfilled.
    pub(super) rep_lazy: Option<super::lane_rep::RepLazy>,
    /// The chunk being emitted is a middle chunk of a full wave: instructions marked
    /// deferred are left out (`addr_defer.rs`).
    pub(super) middle: bool,
    /// The segment being emitted is a completion (`addr_defer.rs`): a full wave's middle
    /// chunks alone.
    pub(super) middle_only: bool,
    /// The current block's scratch read-modify-writes: (load, store) instruction pairs whose
    /// store reuses the load's checked addresses (`buf_reuse.rs`).
    pub(super) buf_reuse: Vec<(u32, u32)>,
    /// `SOFTHSA_JIT_DEBUG=size`: x86 instructions and GPU instructions per item kind.
    stats: Option<std::collections::BTreeMap<&'static str, (usize, usize)>>,
}

impl<'p> Emitter<'p> {
    /// Whether lane op `i` of the current block may leave VGPR `r` unwritten: the block
    /// replaces it before anything reads it, or nothing reads it ([`super::vgpr_dead`]).
    pub(super) fn vgpr_unread(&self, i: u32, r: u8) -> bool {
        self.vdead.writes.iter().any(|&(j, s)| j == i && s.has(r))
    }

    /// The VGPRs dead after global access `at` (replaced before any read, or read by nothing
    /// before the wave ends), where the analysis ran.
    pub(super) fn vgprs_dead_after_access(&self, at: u32) -> Option<super::vgpr_dead::Vgprs> {
        let found = self.vdead.after_access.iter().find(|(j, _)| *j == at);
        found.map(|&(_, s)| s)
    }

    /// The VGPRs the current block replaces after the segment that starts with instruction
    /// `first` before anything reads them, or that nothing reads: the segment need not store
    /// what it writes there.
    pub(super) fn vgprs_dead_after(&self, first: u32) -> super::vgpr_dead::Vgprs {
        let found = self.vdead.after.iter().find(|&&(j, _)| j == first);
        found.map(|&(_, s)| s).unwrap_or_default()
    }

    /// Item `next`, after a segment, as an access that may take the segment's address from
    /// its first and last chunks alone (`addr_defer.rs`): a global dword access proven
    /// lane-linear in waves of one row, in a kernel whose waves come in one row (the rows
    /// path reads a lane of every chunk: in a 2-D kernel's waves of 16-lane rows, each
    /// access would complete the chunks first). Never in check mode.
    fn next_access(&self, next: Option<&Item>) -> Option<super::addr_defer::NextAccess> {
        let Some(Item::Op(at, Kind::Vmem(m))) = next else {
            return None;
        };
        let linear = self.linear.linear(*at) == Some(false) && !self.linear.rows;
        if self.check || !super::lane_linear::covered(m) || !linear {
            return None;
        }
        let dead = self.vdead.after_access.iter().find(|(j, _)| j == at)?.1;
        Some(super::addr_defer::NextAccess {
            at: *at,
            m: *m,
            dead,
        })
    }

    /// The instruction at `i`.
    pub(super) fn inst(&self, i: u32) -> R<&'p XInst> {
        match self.prog.slots.get(i as usize) {
            Some(Slot::Ok(x)) => Ok(x),
            _ => Err(err("no instruction")),
        }
    }

    /// Binds `l` here and remembers where, for its address in the output.
    pub(super) fn bind_kept(&mut self, l: &mut CodeLabel) -> R<()> {
        let at = self.a.instructions().len();
        bind(&mut self.a, l)?;
        self.bound.insert(*l, at);
        Ok(())
    }

    /// Emits `f` out of line (after every block).
    pub(super) fn cold(&mut self, f: impl FnOnce(&mut Emitter<'p>) -> R<()> + 'p) {
        self.cold.push(Box::new(f));
    }

    /// A free vector temporary.
    pub(super) fn tmp(&mut self) -> R<super::vx::V> {
        // Temporaries that still hold an operand a later instruction may read come last.
        let spare = self.free_v & !self.cached_temps();
        let i = match spare {
            0 => self.free_v.trailing_zeros(),
            s => s.trailing_zeros(),
        };
        if i >= 32 {
            return Err(err("out of vector temporaries"));
        }
        self.free_v &= !(1 << i);
        Ok(super::vx::V(i as u8))
    }

    pub(super) fn free(&mut self, v: super::vx::V) {
        if self.isa.temps().contains(&v.0) {
            self.free_v |= 1 << v.0;
        }
    }

    /// A free mask temporary.
    pub(super) fn mtmp(&mut self) -> R<super::vx::M> {
        let i = self.free_m.trailing_zeros();
        if i >= 32 {
            return Err(err("out of mask temporaries"));
        }
        self.free_m &= !(1 << i);
        Ok(super::vx::M(i as u8))
    }

    pub(super) fn mfree(&mut self, m: super::vx::M) {
        if self.isa.mask_temps().contains(&m.0) {
            self.free_m |= 1 << m.0;
        }
    }

    /// Releases every temporary (between instructions).
    pub(super) fn free_all(&mut self) {
        self.free_v = self.isa.temps().iter().fold(0, |m, &r| m | 1 << r);
        self.free_m = self.isa.mask_temps().iter().fold(0, |m, &r| m | 1 << r);
    }

    /// Writes the count back and leaves with `code`, the wave's pc set to `pc` when given.
    pub(super) fn exit_with(&mut self, code: u32, pc: Option<u32>) -> R<()> {
        self.a.mov(qword_ptr(rbx + W_EXECUTED), rbp)?;
        if let Some(pc) = pc {
            self.a.mov(dword_ptr(rbx + W_PC), pc)?;
        }
        self.a.mov(eax, code)?;
        Ok(self.a.jmp(self.exit)?)
    }

    /// Calls the interpreter for instruction `i` (not counted natively) and continues after
    /// it, or leaves as it says. `vzeroupper` first: the interpreter is SSE code.
    pub(super) fn callout(&mut self, i: u32) -> R<()> {
        let a = &mut self.a;
        a.mov(edx, i)?;
        a.mov(ecx, self.natives_left)?;
        self.call_stub(super::stubs::Stub::Callout)
    }

    /// The shared body of call-outs: edx = the instruction, ecx = the natives counted after
    /// it. Returns to the call site when the interpreter says "go on"; otherwise leaves the
    /// generated function (its own return address dropped).
    pub(super) fn callout_stub(&mut self) -> R<()> {
        let a = &mut self.a;
        let mut out = a.create_label();
        a.push(rcx)?; // (also re-aligns the stack for the call)
        a.mov(rax, rbp)?;
        a.sub(rax, rcx)?;
        a.mov(qword_ptr(rbx + W_EXECUTED), rax)?;
        a.vzeroupper()?;
        a.mov(rdi, rbx)?;
        a.mov(rsi, r12)?;
        a.call(qword_ptr(r12 + J_CALLOUT))?;
        a.pop(rcx)?;
        a.test(eax, eax)?;
        a.jnz(out)?;
        a.mov(rbp, qword_ptr(rbx + W_EXECUTED))?;
        a.add(rbp, rcx)?;
        a.ret()?;
        bind(a, &mut out)?;
        a.add(rsp, 8)?;
        Ok(a.jmp(self.callout_ret)?)
    }

    /// The slow path of native instruction `i` (already counted): the interpreter runs it
    /// instead, then code continues at `resume`.
    pub(super) fn slow_callout(&mut self, i: u32, resume: CodeLabel) -> R<CodeLabel> {
        let mut l = self.a.create_label();
        let left = self.natives_left;
        self.cold(move |e| {
            bind(&mut e.a, &mut l)?;
            // This instruction is counted natively: the interpreter counts it again.
            let saved = e.natives_left;
            e.natives_left = left + 1;
            e.callout(i)?;
            e.natives_left = saved;
            e.a.sub(rbp, 1)?;
            Ok(e.a.jmp(resume)?)
        });
        Ok(l)
    }

    fn block_label(&self, i: u32) -> Option<CodeLabel> {
        let k = i.checked_sub(self.first)?;
        self.labels.get(k as usize).copied().flatten()
    }

    /// Jumps to instruction `i`: its block if compiled, else out to the dispatcher.
    fn goto(&mut self, i: u32) -> R<()> {
        match self.block_label(i) {
            Some(l) => Ok(self.a.jmp(l)?),
            None => self.exit_with(EXIT_DISPATCH, Some(i)),
        }
    }

    fn block(&mut self, b: &Block, next_is_fallthrough: bool) -> R<()> {
        let mut l = self
            .block_label(b.start)
            .ok_or_else(|| err("block label"))?;
        self.bind_kept(&mut l)?;
        self.labels[(b.start - self.first) as usize] = Some(l);
        // Count the block's native instructions at once; a block that would pass the budget
        // runs in the interpreter, which faults at the exact instruction.
        let mut bail = self.a.create_label();
        if b.native > 0 {
            self.a.add(rbp, b.native as i32)?;
        }
        if b.callouts > 0 {
            self.a.lea(rax, qword_ptr(rbp + b.callouts as i32))?;
            self.a.cmp(rax, r14)?;
        } else {
            self.a.cmp(rbp, r14)?;
        }
        self.a.ja(bail)?;
        // (Where MODE stays what the waves start with, the checks are made here, once.)
        let fixed = self.start_mode;
        if b.float {
            // f32 lowerings assume round-to-nearest-even, f32 denormals kept, IEEE mode; f64
            // ones the same of the f64 fields (round bits 2-3, denormal bits 6-7).
            let (mask, want) = if b.float64 {
                (0x2ff, 0x2f0)
            } else {
                (0x233, 0x230)
            };
            if fixed.is_none_or(|m| m & mask != want) {
                self.a.mov(eax, dword_ptr(rbx + W_MODE))?;
                self.a.and(eax, mask)?;
                self.a.cmp(eax, want)?;
                self.a.jne(bail)?;
            }
        }
        // (A wave starts with GPR indexing off: `init_wave`.)
        if b.lanes && fixed.is_none() {
            self.a.cmp(byte_ptr(rbx + W_GPR_IDX), 0)?;
            self.a.jne(bail)?;
        }
        let (start, native) = (b.start, b.native);
        self.cold(move |e| {
            bind(&mut e.a, &mut bail)?;
            if native > 0 {
                e.a.sub(rbp, native as i32)?;
            }
            e.exit_with(EXIT_INTERP, Some(start))
        });
        self.natives_left = b.native;
        self.lds_cls.clear();
        // Check mode compares every register at block ends: nothing is dead there.
        let dead = if self.check {
            Vec::new()
        } else {
            super::mask_live::dead_after_each(&b.items, b.live_out, self.exact_end)
        };
        let scc_dead = match self.check {
            true => Vec::new(),
            false => super::scc_live::dead_after_each(&b.items, b.scc_live_out, self.exact_end),
        };
        // (It also compares them after each lane op: no VGPR write is left out.)
        self.vdead = match self.check {
            true => Default::default(),
            false => super::vgpr_dead::analyse(&b.items, b.vlive_out),
        };
        self.buf_reuse = super::buf_reuse::pairs(&b.items);
        for (p, item) in b.items.iter().enumerate() {
            self.free_all();
            // (What a segment deferred is the next item's to complete, and only its; what it
            // left in `Wave::rep`, the loads' right after it.)
            if !matches!(item, Item::Op(_, Kind::Vmem(_))) {
                self.deferred = None;
                self.rep_lazy = None;
            }
            let before = self.a.instructions().len();
            let kind = match item {
                Item::Seg(_) => "segment",
                Item::Callout(_) => "callout",
                Item::Op(_, k) => match k {
                    Kind::Salu(_) => "salu",
                    Kind::Smem(_) => "smem",
                    Kind::Vmem(_) => "vmem",
                    Kind::Ds(_) => "ds",
                    Kind::DsAtomic(_) => "ds_atomic",
                    Kind::VAtomic(_) => "vmem_atomic",
                    Kind::Branch(_) => "branch",
                    _ => "other",
                },
            };
            let insts = if let Item::Seg(v) = item { v.len() } else { 1 };
            match item {
                Item::Seg(insts) => {
                    self.natives_left -= insts.len() as u32;
                    // Check mode: one-instruction segments between the lockstep hooks (calls,
                    // so outside the chunk loop).
                    let hooked = self.check && insts.len() == 1;
                    if hooked {
                        self.check_hook(insts[0].0, true)?;
                    }
                    let dead_after = dead.get(p).copied().unwrap_or(0);
                    // A memory access right after reads the segment's results at once.
                    let mem_next = matches!(
                        b.items.get(p + 1),
                        Some(Item::Op(
                            _,
                            Kind::Vmem(_) | Kind::Ds(_) | Kind::DsAtomic(_) | Kind::VAtomic(_)
                        ))
                    );
                    // A bounds check ending the segment: a prefix of the lanes where the
                    // index is lane-linear (`lane_prefix.rs`).
                    let last = insts.len() - 1;
                    match self.linear.prefix(insts[last].0).filter(|_| !hooked) {
                        Some(second) => {
                            if last > 0 {
                                self.segment(&insts[..last], 0, Default::default(), false)?;
                            }
                            let seg = &insts[last..];
                            self.prefix_compare(seg, second, dead_after, mem_next)?;
                        }
                        None => {
                            let vdead = self.vgprs_dead_after(insts[0].0);
                            self.addr_next = self.next_access(b.items.get(p + 1));
                            self.rep_next = self.rep_run(&b.items[p + 1..]);
                            let r = self.segment(insts, dead_after, vdead, mem_next);
                            self.addr_next = None;
                            self.rep_next = None;
                            r?
                        }
                    }
                    if hooked {
                        self.check_hook(insts[0].0, false)?;
                    }
                }
                Item::Callout(i) => self.callout(*i)?,
                Item::Op(i, k) => {
                    self.natives_left -= 1;
                    self.scc_dead = scc_dead.get(p).copied().unwrap_or(false);
                    let r = self.op(*i, k, b);
                    self.scc_dead = false;
                    r?
                }
            }
            match item {
                Item::Seg(insts) => insts
                    .iter()
                    .for_each(|(_, li)| self.lds_cls.after(&Kind::Lane(*li))),
                Item::Op(_, k) => self.lds_cls.after(k),
                Item::Callout(_) => self.lds_cls.clear(),
            }
            if let Some(st) = self.stats.as_mut() {
                let e = st.entry(kind).or_insert((0, 0));
                e.0 += self.a.instructions().len() - before;
                e.1 += insts;
            }
        }
        // (Also after a block that cannot fall through: should the interpreter ever go on
        // there, it continues where it would.)
        if !next_is_fallthrough {
            self.goto(b.end)?;
        }
        Ok(())
    }

    /// A wave-wide native instruction.
    fn op(&mut self, i: u32, k: &Kind, b: &Block) -> R<()> {
        let x = self.inst(i)?;
        let checked = self.check && matches!(k, Kind::Salu(_) | Kind::Wave(_));
        if checked {
            self.check_hook(i, true)?;
        }
        match *k {
            Kind::Salu(s) => self.salu(&s)?,
            Kind::Smem(m) => self.smem(i, &m)?,
            Kind::Vmem(m) => self.vmem(i, &m)?,
            Kind::Ds(d) => self.ds(i, &d)?,
            Kind::DsAtomic(d) => self.ds_atomic(i, &d)?,
            Kind::VAtomic(m) => self.vatomic(i, &m)?,
            Kind::Wave(w) => self.wave_op(i, &w)?,
            Kind::Branch(c) => self.branch(i, x, c, b)?,
            Kind::Waitcnt(imm) => self.waitcnt(imm)?,
            Kind::Nop => {}
            // The wave ends where it stands (pc at s_endpgm, as the interpreter leaves it).
            Kind::End => self.next_wave(i, true)?,
            // As the interpreter: counted, pc after it, the wave waits while the work-group's
            // other waves run (no call-out per barrier; `wave_switch.rs`).
            Kind::Barrier => self.next_wave(i, false)?,
            // The target is read before the return address is written (they may share a
            // pair); the Rust loop finds the target's code (`EXIT_JUMP`).
            Kind::JumpAddr { src, save } => {
                self.a.mov(rcx, sreg64(src))?;
                if let Some(d) = save {
                    self.a.mov(rax, self.prog.addr(i + 1))?;
                    self.a.mov(sreg64(d), rax)?;
                }
                self.a.mov(qword_ptr(r12 + J_JUMP), rcx)?;
                self.exit_with(super::EXIT_JUMP, Some(i))?
            }
            Kind::Lane(_) => return Err(err("lane op outside a segment")),
        }
        if checked {
            self.check_hook(i, false)?;
        }
        Ok(())
    }

    /// Check mode: the interpreter's lockstep copy runs instruction `i` (`pre`), or the
    /// registers are compared after it.
    pub(super) fn check_hook(&mut self, i: u32, pre: bool) -> R<()> {
        let a = &mut self.a;
        a.mov(qword_ptr(rbx + W_EXECUTED), rbp)?;
        a.vzeroupper()?;
        a.mov(rdi, rbx)?;
        a.mov(rsi, r12)?;
        a.mov(edx, i)?;
        if pre {
            a.call(qword_ptr(r12 + J_PRE))?;
        } else {
            a.call(qword_ptr(r12 + J_POST))?;
            a.test(eax, eax)?;
            let mut diff = a.create_label();
            a.jnz(diff)?;
            self.cold(move |e| {
                bind(&mut e.a, &mut diff)?;
                e.a.mov(eax, EXIT_STOP)?;
                Ok(e.a.jmp(e.exit)?)
            });
        }
        Ok(())
    }

    fn branch(&mut self, i: u32, x: &XInst, c: Cond2, b: &Block) -> R<()> {
        let a = &mut self.a;
        let mut not_taken = a.create_label();
        match c {
            Cond2::Always => {}
            Cond2::Scc(want) => {
                a.cmp(byte_ptr(rbx + W_SCC), 0)?;
                if want {
                    a.je(not_taken)?;
                } else {
                    a.jne(not_taken)?;
                }
            }
            Cond2::VccZ(z) | Cond2::ExecZ(z) => {
                let r = if let Cond2::VccZ(_) = c {
                    VCC_LO as u8
                } else {
                    EXEC
                };
                a.cmp(sreg64(r), 0)?;
                // taken when (value == 0) == z
                if z {
                    a.jne(not_taken)?;
                } else {
                    a.je(not_taken)?;
                }
            }
        }
        if x.target <= i {
            // A back edge: where a stop request (another work-group faulted) is honoured.
            let mut stopped = a.create_label();
            a.mov(rax, qword_ptr(r12 + J_STOP))?;
            a.cmp(byte_ptr(rax), 0)?;
            a.jne(stopped)?;
            self.cold(move |e| {
                bind(&mut e.a, &mut stopped)?;
                e.exit_with(EXIT_STOPPED, None)
            });
        }
        self.goto(x.target)?;
        bind(&mut self.a, &mut not_taken)?;
        // Not taken: fall into the next instruction (the block's end).
        debug_assert_eq!(i + 1, b.end);
        Ok(())
    }

    /// The interpreter's `waitcnt`: a full fence when the wait covers stores not yet fenced.
    fn waitcnt(&mut self, simm16: u16) -> R<()> {
        use crate::wave::{UNFENCED_SCALAR, UNFENCED_VECTOR};
        let vmcnt = (simm16 & 0xf) | (simm16 >> 14 & 3) << 4;
        let lgkmcnt = simm16 >> 8 & 0xf;
        let mut m = 0u8;
        if vmcnt == 0 {
            m |= UNFENCED_VECTOR;
        }
        if lgkmcnt == 0 {
            m |= UNFENCED_SCALAR;
        }
        if m != 0 {
            let a = &mut self.a;
            let mut done = a.create_label();
            a.test(byte_ptr(rbx + W_UNFENCED), i32::from(m))?;
            a.jz(done)?;
            a.mfence()?;
            a.mov(byte_ptr(rbx + W_UNFENCED), 0)?;
            bind(a, &mut done)?;
        }
        Ok(())
    }

    /// A wave-wide op (`WaveOp`) of instruction `i` (`v_perm_b32` calls the interpreter for it
    /// with selectors it does not translate).
    fn wave_op(&mut self, i: u32, w: &WaveOp) -> R<()> {
        let a = &mut self.a;
        match *w {
            WaveOp::ReadFirst { dst, src } => {
                // Lane 0 when EXEC is empty (tzcnt gives 64; masked to 0).
                a.tzcnt(rax, sreg64(EXEC))?;
                a.and(eax, 63)?;
                a.mov(ecx, dword_ptr(r13 + rax * 4 + 256 * i32::from(src)))?;
                a.mov(sreg32(dst), ecx)?;
            }
            WaveOp::Read { dst, src, lane } => {
                match lane {
                    Src::S(s) => a.mov(eax, sreg32(s))?,
                    Src::Imm(v) => a.mov(eax, v as u32)?,
                    _ => return Err(err("readlane lane")),
                }
                a.and(eax, 63)?;
                a.mov(ecx, dword_ptr(r13 + rax * 4 + 256 * i32::from(src)))?;
                a.mov(sreg32(dst), ecx)?;
            }
            WaveOp::Write { dst, src, lane } => {
                for (s, r) in [(lane, eax), (src, ecx)] {
                    match s {
                        Src::S(x) => a.mov(r, sreg32(x))?,
                        Src::Imm(v) => a.mov(r, v as u32)?,
                        _ => return Err(err("writelane operand")),
                    }
                }
                a.and(eax, 63)?;
                a.mov(dword_ptr(r13 + rax * 4 + 256 * i32::from(dst)), ecx)?;
            }
            WaveOp::Bpermute {
                dst,
                addr,
                data,
                off,
            } => self.bpermute(dst, addr, data, off)?,
            WaveOp::DppMov {
                dst,
                src,
                op,
                ctrl,
                row_mask,
                bank_mask,
                bound_ctrl,
            } => self.dpp_mov(dst, src, op, ctrl, (row_mask, bank_mask, bound_ctrl))?,
            WaveOp::Perm {
                dst,
                src0,
                src1,
                sel,
            } => self.perm(i, dst, src0, src1, sel)?,
            WaveOp::Div {
                step,
                wide: false,
                dst,
                mask,
                src,
                ..
            } => self.div(i, step, dst, mask, src)?,
            WaveOp::Div {
                step,
                wide: true,
                dst,
                mask,
                src,
                fma,
            } => self.div64(i, step, dst, mask, src, fma)?,
            WaveOp::Ldexp { dst, src, wide } => self.ldexp(i, dst, src, wide)?,
            WaveOp::Frexp {
                dst,
                src,
                wide,
                mant,
                abs,
                neg,
            } => self.frexp(i, dst, src, wide, mant, (abs, neg))?,
            WaveOp::ExpLog { dst, src, log } => self.exp_log(i, dst, src, log)?,
        }
        Ok(())
    }
}

/// Compiles the plan of `prog` for `isa`.
pub(super) fn compile(
    prog: &Program,
    plan: &Plan,
    isa: Isa,
    check: bool,
) -> Result<Output, String> {
    build(prog, plan, isa, check).map_err(|e| format!("JIT: {}", e.0))
}

impl<'p> Emitter<'p> {
    /// An emitter for `prog`'s code (`labels`: the plan's blocks from `first` on).
    fn new(
        prog: &'p Program,
        isa: Isa,
        check: bool,
        labels: (Vec<Option<CodeLabel>>, u32),
        mut a: CodeAssembler,
    ) -> Emitter<'p> {
        let mut e = Emitter {
            exit: a.create_label(),
            callout_ret: a.create_label(),
            a,
            isa,
            prog,
            check,
            labels: labels.0,
            first: labels.1,
            cold: Vec::new(),
            free_v: 0,
            free_m: 0,
            natives_left: 0,
            seg: None,
            full_exec: false,
            runs_once: false,
            chunk_at: None,
            rep_mode: false,
            unroll_left: super::segment::unroll_budget(),
            partial_unroll_left: super::segment::partial_unroll_budget(),
            inline_vmem: false,
            far_prefetch: super::mem_vector::far_prefetch(),
            linear: Default::default(),
            exact_end: true,
            start_mode: None,
            scc_dead: false,
            vdead: Default::default(),
            nan_redo: None,
            sites: 0,
            stubs: Default::default(),
            lds_cls: Default::default(),
            bound: Default::default(),
            addr_next: None,
            deferred: None,
            rep_next: None,
            rep_lazy: None,
            middle: false,
            middle_only: false,
            buf_reuse: Vec::new(),
            stats: std::env::var("SOFTHSA_JIT_DEBUG")
                .is_ok_and(|v| v == "size")
                .then(Default::default),
        };
        e.free_all();
        e
    }

    /// Emits the cold code queued so far (and what it queues in turn).
    fn drain_cold(&mut self) -> R<()> {
        while !self.cold.is_empty() {
            for f in std::mem::take(&mut self.cold) {
                f(self)?;
            }
        }
        Ok(())
    }

    /// The shared exits: after a call-out that did not say "go on", and the epilogue (eax =
    /// the exit code, the wave's count already stored).
    fn exits(&mut self) -> R<()> {
        let mut cr = self.callout_ret;
        bind(&mut self.a, &mut cr)?;
        // The interpreter left the count and pc right: 1 = it jumped, else the wave stopped.
        self.a.cmp(eax, 1)?;
        self.a.mov(eax, EXIT_DISPATCH)?;
        self.a.mov(ecx, EXIT_STOP)?;
        self.a.cmovne(eax, ecx)?;
        let mut ex = self.exit;
        bind(&mut self.a, &mut ex)?;
        self.a.vzeroupper()?;
        self.a.add(rsp, 24)?;
        for r in [r15, r14, r13, r12, rbx, rbp] {
            self.a.pop(r)?;
        }
        Ok(self.a.ret()?)
    }

    /// Maps, encodes and seals the code: the mapping, each instruction's offset in it and the
    /// code's length.
    fn assemble(&self) -> R<(Code, Vec<u32>, usize)> {
        // An x86 instruction is at most 15 bytes: map that much, then encode for its address.
        let insts = self.a.instructions();
        let reserved = Reserved::new(insts.len() * 15 + 64).map_err(EmitError)?;
        let (bytes, offsets) = super::encode::encode(insts, reserved.addr()).map_err(EmitError)?;
        if bytes.len() > reserved.size() {
            return Err(err("code larger than its mapping"));
        }
        let len = bytes.len();
        Ok((
            Code::seal(reserved, &bytes).map_err(EmitError)?,
            offsets,
            len,
        ))
    }

    /// The code offset of bound label `l`.
    fn offset_of(&self, offsets: &[u32], l: &CodeLabel) -> R<u32> {
        let k = self.bound.get(l).ok_or_else(|| err("label not bound"))?;
        offsets
            .get(*k)
            .copied()
            .ok_or_else(|| err("label past the end"))
    }
}

fn build(prog: &Program, plan: &Plan, isa: Isa, check: bool) -> R<Output> {
    let t0 = std::time::Instant::now();
    let first = plan.blocks.first().map_or(0, |b| b.start);
    let n = plan.blocks.last().map_or(0, |b| b.end - first) as usize;
    let mut a = CodeAssembler::new(64)?;
    let mut labels = vec![None; n + 1];
    for b in &plan.blocks {
        labels[(b.start - first) as usize] = Some(a.create_label());
    }
    let mut e = Emitter::new(prog, isa, check, (labels, first), a);
    e.inline_vmem = super::mem_inline::inlines(plan);
    e.exact_end = plan.exact_end;
    e.start_mode = plan.start_mode;
    // (Check mode compares registers, not access paths: it runs without the analysis.)
    if !check {
        e.linear = super::lane_linear::analyse(prog, plan);
        if std::env::var("SOFTHSA_JIT_DEBUG").is_ok_and(|v| v == "plan") {
            eprintln!(
                "lane-linear accesses {:?}, LDS reads of one address per row {:?}, in rows of \
                 16-32 only {:?} and {:?}, segments {:?}, known along the rows {:?}",
                e.linear.accesses,
                e.linear.same,
                e.linear.narrow,
                e.linear.narrow_same,
                e.linear.segments,
                e.linear.reps.iter().map(|r| r.0).collect::<Vec<_>>()
            );
        }
    }
    // Prologue: callee-saved registers, 16-byte stack alignment for calls. MXCSR is the IEEE
    // default already (the caller's `fpenv::DefaultFpEnv`), so the code neither sets nor saves
    // it: `stmxcsr` + 2 `ldmxcsr` per entry were 5-8% of a short wave's time on Zen 4.
    let mut entry = e.a.create_label();
    e.bind_kept(&mut entry)?;
    for r in [rbp, rbx, r12, r13, r14, r15] {
        e.a.push(r)?;
    }
    e.a.sub(rsp, 24)?;
    e.a.mov(rbx, rdi)?;
    e.a.mov(r12, rsi)?;
    e.a.mov(r13, qword_ptr(rbx + W_V))?;
    e.a.mov(r14, qword_ptr(r12 + J_LIMIT))?;
    e.a.mov(r15, qword_ptr(r12 + J_MASKS))?;
    e.a.mov(rbp, qword_ptr(rbx + W_EXECUTED))?;
    e.a.jmp(rdx)?;

    let once = plan.once();
    for (k, b) in plan.blocks.iter().enumerate() {
        let next_is_fallthrough = plan.blocks.get(k + 1).is_some_and(|nb| nb.start == b.end);
        e.runs_once = once.contains(&k);
        e.block(b, next_is_fallthrough)?;
    }
    // Cold code, then the shared exits.
    let hot_len = e.a.instructions().len();
    e.drain_cold()?;
    e.exits()?;
    let t1 = std::time::Instant::now();
    let (code, offsets, len) = e.assemble()?;
    let mut entries = vec![u32::MAX; n];
    for b in &plan.blocks {
        if let Some(l) = e.labels[(b.start - first) as usize] {
            entries[(b.start - first) as usize] = e.offset_of(&offsets, &l)?;
        }
    }
    let entry = u64::from(e.offset_of(&offsets, &entry)?);
    let mut stubs = Vec::with_capacity(e.stubs.len());
    for (&s, l) in &e.stubs {
        stubs.push((e.offset_of(&offsets, l)?, s));
    }
    if std::env::var("SOFTHSA_JIT_DEBUG").is_ok_and(|v| v == "size") {
        eprintln!(
            "softhsa: JIT {} instructions -> {} x86 instructions, {} bytes; emit {} us, \
             encode {} us",
            plan.reachable,
            e.a.instructions().len(),
            len,
            (t1 - t0).as_micros(),
            t1.elapsed().as_micros()
        );
        eprintln!("softhsa: JIT x86 instructions per item kind: {:?}", e.stats);
        eprintln!(
            "softhsa: JIT x86 instructions in blocks {hot_len}, out of line {}",
            e.a.instructions().len() - hot_len
        );
    }
    Ok(Output {
        code,
        entries,
        first,
        entry,
        native: plan.native,
        reachable: plan.reachable,
        sites: e.sites as usize,
        stubs,
    })
}
