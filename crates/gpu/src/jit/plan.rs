//! What gets compiled, in which order: the instructions reachable from a kernel's entry, cut
//! into basic blocks, each block a list of items (segments of lane-wise instructions run chunk
//! by chunk, wave-wide native instructions, call-outs to the interpreter).
//!
//! A segment runs each of its instructions on one chunk of lanes before moving to the next
//! chunk, so values stay in host registers between instructions. That is exact when the
//! instructions only exchange lane values: a lane mask written in a segment (VCC, carries) is
//! written chunk by chunk, so later instructions of the segment may read it as a mask of the
//! same chunk, but not as a uniform value; the segment ends before such a read. EXEC changes
//! end a segment. Scalar instructions that neither feed nor read the segment's lane ops run
//! before the segment (they would run there on hardware just as well: scalar and vector units
//! only meet through registers), so LLVM's interleaving of SALU and VALU keeps segments long.

use super::select::{select, Kind, LaneInst};
use crate::program::{Program, Slot, NO_INDEX};
use crate::wave::EXEC_LO;
use softhsa_isa::Op;

/// One item of a block, in execution order.
#[derive(Clone, Debug)]
pub(super) enum Item {
    /// Lane-wise instructions (index, form), run chunk by chunk.
    Seg(Vec<(u32, LaneInst)>),
    /// A native wave-wide instruction.
    Op(u32, Kind),
    /// The interpreter runs this instruction.
    Callout(u32),
}

/// A basic block.
#[derive(Clone, Debug)]
pub(super) struct Block {
    /// Index of its first instruction.
    pub start: u32,
    /// One past its last instruction.
    pub end: u32,
    pub items: Vec<Item>,
    /// Instructions run natively (counted once at the block's entry).
    pub native: u32,
    /// Instructions the interpreter runs (it counts those itself).
    pub callouts: u32,
    /// A segment depends on MODE (f32 rounding, denormals, IEEE).
    pub float: bool,
    /// ... and on MODE's f64 rounding and denormals.
    pub float64: bool,
    /// The block has lane ops (whose VGPR numbers `s_set_gpr_idx_on` would offset).
    pub lanes: bool,
    /// Scalar registers a later block may read before writing them
    /// ([`super::mask_live::live_out`]); a lane mask outside it need not be written back.
    pub live_out: u128,
    /// VGPRs a later block may read ([`super::vgpr_dead::live_out`]): what is not in it need
    /// not be written.
    pub vlive_out: super::vgpr_dead::Vgprs,
    /// A later block may read SCC before writing it ([`super::scc_live::live_out`]).
    pub scc_live_out: bool,
}

/// The compiled part of a program.
pub(super) struct Plan {
    pub blocks: Vec<Block>,
    /// Where each block may go on, from its last instruction: its branch target and the
    /// next block where it falls through; none after `s_endpgm`. `None`: unknown (a
    /// computed jump, a call, a target without a block).
    pub succs: Vec<Option<Vec<usize>>>,
    /// The instruction the kernel starts at.
    pub entry: u32,
    /// `s_endpgm` reads every scalar register ([`super::mask_live::live_out`]).
    pub exact_end: bool,
    /// Work-item id VGPRs the waves start with after VGPR 0's x ids (0-2: y, then z), for
    /// the lane-linear analysis; 0 unless the compile says (`JitCode::compile_kernel`).
    pub ids: u8,
    /// MODE for the waves' whole life, where they all start with this one and nothing in the
    /// program writes it ([`writes_mode`]): blocks need not check the f32/f64 modes or GPR
    /// indexing (`JitCode::compile_kernel`). `None`: every block checks.
    pub start_mode: Option<u32>,
    /// Instructions translated natively, of those reachable.
    pub native: usize,
    pub reachable: usize,
}

/// Instructions that may change MODE's float fields or turn GPR indexing on
/// (`Wave::gpr_idx_en`): `s_setreg*` (MODE), `s_setvskip` (MODE.VSKIP), `s_set_gpr_idx_on`,
/// the trap returns.
fn writes_mode_op(op: Op) -> bool {
    use Op::*;
    matches!(
        op,
        S_SETREG_B32
            | S_SETREG_IMM32_B32
            | S_SET_GPR_IDX_ON
            | S_RFE_B64
            | S_RFE_RESTORE_B64
            | S_SETVSKIP
    )
}

/// Instructions after which a block ends: control flow the interpreter does, and state the
/// lowerings assume constant within a block (MODE, VGPR indexing).
fn ends_block(op: Op) -> bool {
    use Op::*;
    writes_mode_op(op)
        || matches!(
            op,
            S_ENDPGM
                | S_ENDPGM_SAVED
                | S_ENDPGM_ORDERED_PS_DONE
                | S_BARRIER
                | S_SLEEP
                | S_SETPC_B64
                | S_SWAPPC_B64
                | S_CALL_B64
                | S_TRAP
                | S_SENDMSGHALT
                | S_SET_GPR_IDX_OFF
                | S_SET_GPR_IDX_IDX
                | S_SET_GPR_IDX_MODE
                | S_CBRANCH_I_FORK
                | S_CBRANCH_G_FORK
                | S_CBRANCH_JOIN
        )
        || op.name().starts_with("s_cbranch_")
        || op == S_BRANCH
}

#[cfg(test)]
thread_local! {
    /// Tests: plans made on this thread leave a wave's final lane masks unwritten as outside
    /// tests (the differential tests compare every register at the end unless they set this).
    pub(super) static FINAL_MASKS_DEAD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether a wave's scalar registers stay exact at its end: in check mode (which compares them
/// with the interpreter's) and in tests.
fn exact_end(check: bool) -> bool {
    #[cfg(test)]
    if !FINAL_MASKS_DEAD.with(|c| c.get()) {
        return true;
    }
    check
}

/// Whether an instruction of `prog` (reachable or not: a computed jump may go anywhere) may
/// change MODE's float fields or turn GPR indexing on ([`writes_mode_op`]).
pub(super) fn writes_mode(prog: &Program) -> bool {
    prog.slots
        .iter()
        .any(|s| matches!(s, Slot::Ok(x) if writes_mode_op(x.inst.op)))
}

/// Whether control may continue at the next instruction.
pub(super) fn falls_through(op: Op) -> bool {
    use Op::*;
    !matches!(
        op,
        S_ENDPGM
            | S_ENDPGM_SAVED
            | S_ENDPGM_ORDERED_PS_DONE
            | S_BRANCH
            | S_SETPC_B64
            | S_SENDMSGHALT
            | S_CALL_B64
    )
}

/// A jump or call whose target is computed at run time (or a return from one).
pub(super) fn computed_jump(op: Op) -> bool {
    let name = op.name();
    ["s_setpc", "s_swappc", "s_call", "s_rfe"]
        .iter()
        .any(|p| name.starts_with(p))
        || name.ends_with("_fork")
        || name == "s_cbranch_join"
}

impl Plan {
    /// The blocks that run at most once per wave: from the kernel's entry block up to the
    /// first block an edge goes back to (a loop's head), if every block's successors are
    /// known. (A scalar load there usually reads the same address in every wave of a
    /// dispatch: the kernel's arguments.)
    pub fn once(&self) -> std::ops::Range<usize> {
        let entry = self.blocks.partition_point(|b| b.start < self.entry);
        let mut head = self.blocks.len();
        for (k, s) in self.succs.iter().enumerate() {
            let Some(s) = s else {
                return 0..0;
            };
            for &t in s.iter().filter(|&&t| t <= k) {
                head = head.min(t);
            }
        }
        entry..head.max(entry)
    }
}

/// Block `k`'s successors (see [`Plan::succs`]).
fn successors(prog: &Program, blocks: &[Block], k: usize) -> Option<Vec<usize>> {
    let at = |t: u32| blocks.binary_search_by_key(&t, |b| b.start).ok();
    let b = &blocks[k];
    let Slot::Ok(last) = &prog.slots[b.end as usize - 1] else {
        return None;
    };
    if computed_jump(last.inst.op) {
        return None;
    }
    let mut out = Vec::with_capacity(2);
    if last.target != NO_INDEX {
        out.push(at(last.target)?);
    }
    if falls_through(last.inst.op) {
        let f = at(b.end)?;
        if !out.contains(&f) {
            out.push(f);
        }
    }
    Some(out)
}

/// A set of the 128 scalar registers.
#[derive(Clone, Copy, Default, Debug)]
struct Regs(u128);

impl Regs {
    fn add(&mut self, r: u8) {
        self.0 |= 1 << (r & 127);
    }
    fn add_pair(&mut self, r: u8) {
        self.add(r);
        self.add(r.wrapping_add(1));
    }
    fn meets(self, o: Regs) -> bool {
        self.0 & o.0 != 0
    }
}

/// An open segment and what its lane ops touch.
#[derive(Default)]
struct Open {
    insts: Vec<(u32, LaneInst)>,
    /// SGPRs read as uniform values.
    values: Regs,
    /// Lane masks read / written.
    mread: Regs,
    mwrite: Regs,
    /// Scalar instructions moved before the segment.
    hoisted: Vec<Item>,
}

impl Open {
    fn accepts(&self, li: &LaneInst) -> bool {
        let mut v = Regs::default();
        li.sgpr_values().for_each(|s| v.add(s));
        let mut w = Regs::default();
        if let Some(m) = li.mask_out {
            w.add_pair(m);
        }
        !v.meets(self.mwrite) && !w.meets(self.values)
    }

    fn push(&mut self, i: u32, li: LaneInst) {
        li.sgpr_values().for_each(|s| self.values.add(s));
        if let Some(m) = li.mask_in {
            self.mread.add_pair(m);
        }
        if let Some(m) = li.mask_out {
            self.mwrite.add_pair(m);
        }
        self.insts.push((i, li));
    }

    /// Whether scalar instruction `k` may run before the segment's lane ops.
    fn hoists(&self, k: &Kind) -> bool {
        let (reads, writes) = scalar_regs(k);
        let mut lane_state = self.values;
        lane_state.0 |= self.mread.0 | self.mwrite.0;
        let mut exec = Regs::default();
        exec.add_pair(EXEC_LO as u8);
        !reads.meets(self.mwrite) && !writes.meets(lane_state) && !writes.meets(exec)
    }
}

/// The scalar registers a scalar item reads and writes (SCC is not a lane-op operand).
fn scalar_regs(k: &Kind) -> (Regs, Regs) {
    let (mut r, mut w) = (Regs::default(), Regs::default());
    if let Kind::Salu(s) = k {
        s.regs(|q| r.add(q), |q| w.add(q));
    }
    (r, w)
}

impl Plan {
    /// Plans the code reachable from instruction `entry` (`check`: one instruction per segment,
    /// nothing moved, so the lockstep check sees program order).
    pub fn new(prog: &Program, entry: u32, gfx900: bool, check: bool) -> Plan {
        let n = prog.slots.len();
        let op = |i: usize| match &prog.slots[i] {
            Slot::Ok(x) => Some((x.inst.op, x.target)),
            Slot::Illegal(_) => None,
        };
        // Reachability and leaders.
        let mut leader = vec![false; n + 1];
        let mut seen = vec![false; n];
        let mut work = vec![entry as usize];
        leader[(entry as usize).min(n)] = true;
        while let Some(start) = work.pop() {
            let mut i = start;
            let mut consts = CallTargets::default();
            while i < n && !seen[i] {
                seen[i] = true;
                let Some((o, target)) = op(i) else {
                    leader[i + 1] = true;
                    break;
                };
                if let Slot::Ok(x) = &prog.slots[i] {
                    // A call or jump through a register the code computed from its own pc
                    // (`s_getpc_b64` + `s_add_u32`/`s_addc_u32`: a non-inlined function), or
                    // any such address: the callee is code of this kernel too.
                    if let Some(t) = consts.step(x, prog.addr(i as u32 + 1)) {
                        if let Some(t) = prog.index_of(t).filter(|&t| (t as usize) < n) {
                            leader[t as usize] = true;
                            work.push(t as usize);
                        }
                    }
                }
                if target != NO_INDEX && (target as usize) < n {
                    leader[target as usize] = true;
                    work.push(target as usize);
                }
                if o == Op::S_CALL_B64 || o == Op::S_SWAPPC_B64 {
                    // The callee returns to the next instruction.
                    leader[i + 1] = true;
                    work.push(i + 1);
                }
                if ends_block(o) {
                    leader[i + 1] = true;
                    if !falls_through(o) {
                        break;
                    }
                }
                i += 1;
            }
        }
        // Lowerings are selected block by block for reachable code only: the program holds
        // every kernel of its code object, and a table over all of it (Option<Kind> per
        // instruction, most of them untouched pages) made each kernel's compile as slow as
        // the whole object's.
        let kind = |i: usize| match &prog.slots[i] {
            // `s_getpc_b64`: the next instruction's address, known here.
            Slot::Ok(x) if x.inst.op == softhsa_isa::Op::S_GETPC_B64 => {
                super::salu::get_pc(x, prog.addr(i as u32 + 1)).map(Kind::Salu)
            }
            Slot::Ok(x) => select(x, gfx900),
            Slot::Illegal(_) => None,
        };
        let mut blocks = Vec::new();
        let (mut native, mut reachable) = (0, 0);
        let mut i = 0;
        while i < n {
            if !seen[i] {
                i += 1;
                continue;
            }
            let start = i;
            let mut end = i + 1;
            while end < n
                && seen[end]
                && !leader[end]
                && !op(end - 1).is_some_and(|o| ends_block(o.0))
            {
                end += 1;
            }
            let b = build_block(&kind, start as u32, end as u32, check);
            native += b.native as usize;
            reachable += end - start;
            blocks.push(b);
            i = end;
        }
        let succs: Vec<_> = (0..blocks.len())
            .map(|k| successors(prog, &blocks, k))
            .collect();
        let live = super::mask_live::live_out(&blocks, &succs, exact_end(check));
        for (b, l) in blocks.iter_mut().zip(live) {
            b.live_out = l;
        }
        let vlive = super::vgpr_dead::live_out(&blocks, &succs, exact_end(check));
        for (b, l) in blocks.iter_mut().zip(vlive) {
            b.vlive_out = l;
        }
        let scc_live = super::scc_live::live_out(&blocks, &succs, exact_end(check));
        for (b, l) in blocks.iter_mut().zip(scc_live) {
            b.scc_live_out = l;
        }
        Plan {
            blocks,
            succs,
            entry,
            exact_end: exact_end(check),
            ids: 0,
            start_mode: None,
            native,
            reachable,
        }
    }
}

/// SGPR values known along a straight run of code, as far as calls through a computed pc need
/// them. A wrong value could only make the plan compile code no wave reaches: the jump itself
/// is the interpreter's, and a target without generated code runs in the interpreter.
#[derive(Default)]
struct CallTargets {
    known: std::collections::HashMap<u8, u32>,
    carry: Option<bool>,
}

impl CallTargets {
    /// Follows `x` (whose successor is at `next`); returns the address a `s_swappc_b64` or
    /// `s_setpc_b64` jumps to, when known, and every 64-bit address an `s_addc_u32` completes
    /// from known values: -O0 code computes a callee's address, spills it to a VGPR lane and
    /// calls through it much later, past what this tracking follows.
    fn step(&mut self, x: &crate::program::XInst, next: u64) -> Option<u64> {
        use crate::exec::operand::Src;
        let d = (x.inst.dst.raw() & 127) as u8;
        let val = |k: &Self, s: Src| match s {
            Src::S(r) => k.known.get(&r).copied(),
            Src::Imm(v) => Some(v as u32),
            _ => None,
        };
        let pair = |k: &Self, s: Src| match s {
            Src::S(r) => Some(
                u64::from(*k.known.get(&r)?) | u64::from(*k.known.get(&r.wrapping_add(1))?) << 32,
            ),
            _ => None,
        };
        match x.inst.op {
            Op::S_GETPC_B64 => {
                self.known.insert(d, next as u32);
                self.known.insert(d.wrapping_add(1), (next >> 32) as u32);
                return None;
            }
            Op::S_ADD_U32 | Op::S_ADDC_U32 => {
                let cin = if x.inst.op == Op::S_ADDC_U32 {
                    self.carry.map(u64::from)
                } else {
                    Some(0)
                };
                let sum = val(self, x.src[0])
                    .zip(val(self, x.src[1]))
                    .zip(cin)
                    .map(|((a, b), c)| u64::from(a) + u64::from(b) + c);
                self.carry = sum.map(|s| s >> 32 != 0);
                match sum {
                    Some(s) => self.known.insert(d, s as u32),
                    None => self.known.remove(&d),
                };
                return match x.inst.op {
                    Op::S_ADDC_U32 => pair(self, Src::S(d.wrapping_sub(1))),
                    _ => None,
                };
            }
            Op::S_SWAPPC_B64 => {
                let t = pair(self, x.src[0]);
                self.forget(d, 2);
                return t;
            }
            Op::S_SETPC_B64 => return pair(self, x.src[0]),
            _ => {}
        }
        // Anything else may write its destination (as wide as the op's table says: a
        // conservative pair for a 32-bit move would forget a half-built address in the next
        // register), a compare's SGPR pair, and SCC.
        let width = match x.inst.op.dst_dwords() {
            0 => 2,
            n => n,
        };
        if !x.inst.dst.is_none() && !x.inst.dst.is_vgpr() {
            self.forget(d, width);
        }
        if let Some(s) = x.inst.sdst.sgpr_index() {
            self.forget(s, 2);
        }
        self.carry = None;
        None
    }

    /// Forgets the `width` registers from `d`.
    fn forget(&mut self, d: u8, width: u8) {
        self.known
            .retain(|&r, _| r < d || r >= d.saturating_add(width));
    }
}

fn build_block(kind: &dyn Fn(usize) -> Option<Kind>, start: u32, end: u32, check: bool) -> Block {
    let mut b = Block {
        start,
        end,
        items: Vec::new(),
        native: 0,
        callouts: 0,
        float: false,
        float64: false,
        lanes: false,
        live_out: !0,
        vlive_out: super::vgpr_dead::Vgprs::ALL,
        scc_live_out: true,
    };
    let mut open = Open::default();
    let close = |b: &mut Block, open: &mut Open| {
        let o = std::mem::take(open);
        b.items.extend(o.hoisted);
        if !o.insts.is_empty() {
            b.items.push(Item::Seg(o.insts));
        }
    };
    for i in start..end {
        match kind(i as usize) {
            Some(Kind::Lane(li)) => {
                b.native += 1;
                b.lanes = true;
                b.float |= li.float();
                b.float64 |= li.float64();
                if !open.accepts(&li) || check {
                    close(&mut b, &mut open);
                }
                open.push(i, li);
                if li.writes_exec || check {
                    close(&mut b, &mut open);
                }
            }
            Some(k) if k.scalar() && !open.insts.is_empty() && open.hoists(&k) && !check => {
                b.native += 1;
                open.hoisted.push(Item::Op(i, k));
            }
            Some(k) => {
                b.native += 1;
                b.float |= matches!(k, Kind::Wave(w) if w.float());
                b.float64 |= matches!(k, Kind::Wave(w) if w.float64());
                close(&mut b, &mut open);
                b.items.push(Item::Op(i, k));
            }
            None => {
                b.callouts += 1;
                close(&mut b, &mut open);
                b.items.push(Item::Callout(i));
            }
        }
    }
    close(&mut b, &mut open);
    b
}

impl Plan {
    /// The block the kernel starts in.
    pub fn entry_block(&self) -> Option<usize> {
        self.blocks
            .binary_search_by_key(&self.entry, |b| b.start)
            .ok()
    }

    /// The plan as text (`SOFTHSA_JIT_DEBUG=plan`): blocks, segments, native and interpreted
    /// instructions.
    pub fn describe(&self, prog: &Program) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        for b in &self.blocks {
            let _ = writeln!(
                out,
                "block {}..{} native {} callouts {}{}",
                b.start,
                b.end,
                b.native,
                b.callouts,
                if b.float { " float" } else { "" }
            );
            if b.vlive_out != super::vgpr_dead::Vgprs::ALL {
                let live: Vec<String> = (0..=255u8)
                    .filter(|&r| b.vlive_out.has(r))
                    .map(|r| format!("v{r}"))
                    .collect();
                let _ = writeln!(out, "  VGPRs live after it: [{}]", live.join(" "));
            }
            for item in &b.items {
                match item {
                    Item::Seg(insts) => {
                        let _ = writeln!(out, "  segment");
                        for (i, _) in insts {
                            let _ = writeln!(out, "    {i:5} {}", prog.text(*i));
                        }
                    }
                    Item::Op(i, k) => {
                        let kind = format!("{k:?}");
                        let kind = kind.split(['(', ' ']).next().unwrap_or("");
                        let _ = writeln!(out, "  {i:5} {} [{kind}]", prog.text(*i));
                    }
                    Item::Callout(i) => {
                        let _ = writeln!(out, "  {i:5} {} [interpreter]", prog.text(*i));
                    }
                }
            }
        }
        out
    }
}
