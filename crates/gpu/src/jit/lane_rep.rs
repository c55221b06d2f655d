//! Lane-linear segments run on a few lanes: the address arithmetic of a 2-D kernel (the
//! stencil's four neighbours: 18 instructions, 9 VGPRs written) computed for the first and last
//! lane of each row of 16, the other lanes filled in from what `lane_linear.rs` proved.
//!
//! Where the analysis knows every VGPR a segment writes along the rows (`Linear::reps`), lane l
//! of a row follows from the row's first lane: `Rep::Lin(t)` adds t·l; the high dword of a
//! 64-bit pair is the first lane's (`Rep::Hi`) as long as the pair's index does not wrap
//! within the row and no carry reaches the high dword, which the row's last lane shows: its
//! 64-bit value must be exactly 15 steps above the first's (the argument of `lane_linear.rs`:
//! a wrap moves the last lane by c·2^32). So the segment runs once, as one chunk whose lanes
//! are lanes 0, 15, 16, 31, 32, 47, 48 and 63 (gathered into `Wave::rep`, the results left
//! there), each pair is checked row by row, and the written VGPRs are filled: about a third of
//! the segment's eight chunks where it writes many values from few.
//!
//! It runs only where the facts hold (rows of 16 lanes or more: `Wave::lin_rows` ≥ 16; all
//! lanes active) and the segment's lane masks stay inside it (carries read by its own
//! `v_addc`s and dead after it), and not in check mode. Anything else, a failed row check
//! included, takes the segment's ordinary code: nothing was written by then but `Wave::rep`.
//! Every register ends as the ordinary code leaves it, but for those nothing reads after the
//! global loads right after the segment but their addresses (the stencil's four neighbours):
//! those loads read the rows' first and last lanes' addresses from `Wave::rep`, so the run
//! leaves such VGPRs unfilled (`RepFile::lazy` set) and a load that leaves its fast path
//! first calls a routine that fills them, then takes its usual paths. A fifth of the
//! stencil's interior block on AVX2 was those fills.

use super::emit::{bind, unless_full_wave, Emitter, R, W_LIN};
use super::lane_linear::{covered, Rep};
use super::plan::Item;
use super::select::{Kind, LaneInst, LaneOp, Opd};
use super::vgpr_dead::Vgprs;
use super::vx::{Isa, Vs, V};
use crate::wave::{RepFile, Wave};
use iced_x86::code_asm::*;
use std::mem::offset_of;

/// The lanes a run on a few lanes computes, at the start of its chunk: the first and last
/// lane of each row of 16 (the gather's indexes).
pub(super) static REP_LANES: [u32; 8] = [0, 15, 16, 31, 32, 47, 48, 63];

/// The lanes' positions in a chunk, for the fills' offsets.
static IOTA: [u32; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

pub(super) const W_REP: i32 = offset_of!(Wave, rep) as i32;
/// Within [`RepFile`]: the lane masks (4 bytes per SGPR, as in `Wave::s`), the count of runs.
pub(super) const REP_MASKS: i32 = offset_of!(RepFile, masks) as i32;
const REP_RUNS: i32 = offset_of!(RepFile, runs) as i32;
/// Within [`RepFile`]: whether the last run left VGPRs unfilled for the loads after it.
pub(super) const REP_LAZY: i32 = offset_of!(RepFile, lazy) as i32;
/// Within [`RepFile`]: the VGPRs' chunks of lanes (64 bytes each).
const REP_V: i32 = offset_of!(RepFile, v) as i32;

/// Where VGPR `v`'s lane `lane` (one of [`REP_LANES`]) is in `Wave::rep`, in bytes.
pub(super) fn rep_offset(v: u8, lane: u32) -> R<i32> {
    let k = REP_LANES
        .iter()
        .position(|&l| l == lane)
        .ok_or_else(|| super::emit::err("a lane a run on a few lanes does not compute"))?;
    Ok(REP_V + 64 * i32::from(v) + 4 * k as i32)
}

/// The global loads right after a segment ([`Emitter::rep_run`]): each one's instruction,
/// the low VGPR of its address pair and its data VGPR; and the VGPRs dead after the last.
pub(super) struct RepRun {
    loads: Vec<(u32, u8, u8)>,
    dead_after: Vgprs,
}

/// What a run on a few lanes left to the loads after it ([`Emitter::rep_lazy`]).
pub(super) struct RepLazy {
    /// The loads (instruction indexes) that read their addresses from `Wave::rep` while
    /// `RepFile::lazy` is set.
    pub loads: Vec<u32>,
    /// The routine (called) that fills the VGPRs left unfilled and clears `RepFile::lazy`.
    pub fill: CodeLabel,
}

#[cfg(test)]
thread_local! {
    /// Tests: every segment that may run on a few lanes does, whatever the estimate says
    /// (AVX-512's four chunks rarely cost more than the run).
    pub(super) static FORCE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the estimate decides (tests may override it: [`FORCE`]).
fn estimated(worth: bool) -> bool {
    #[cfg(test)]
    if FORCE.with(|c| c.get()) {
        return true;
    }
    worth
}

/// What a run on a few lanes needs: the VGPRs to gather (read before the segment writes them,
/// and the low dwords of pairs it completes without writing them), and what it writes.
pub(super) struct RepPlan {
    gather: Vec<u8>,
    reps: Vec<(u8, Rep)>,
    /// The written VGPRs left unfilled for the loads after the segment, and those loads
    /// ([`Emitter::rep_lazy_vgprs`]).
    lazy: (Vec<u8>, Vec<u32>),
}

impl Emitter<'_> {
    /// Whether segment `insts` runs on a few lanes first, and how (`unread`: per instruction,
    /// the lane mask it writes is dead; `collected`: some mask is live after the segment;
    /// `defer`: its f32 results are tested for NaNs late).
    pub(super) fn rep_plan(
        &self,
        first: u32,
        insts: &[(u32, LaneInst)],
        unread: &[bool],
        collected: bool,
        defer: bool,
    ) -> Option<RepPlan> {
        if self.check || collected || defer {
            return None;
        }
        let reps = self.linear.rep(first)?.to_vec();
        let mut masks: Vec<u8> = Vec::new();
        let mut written: Vec<u8> = Vec::new();
        let mut gather: Vec<u8> = Vec::new();
        for (k, (_, li)) in insts.iter().enumerate() {
            let lane_wise = matches!(
                li.op,
                LaneOp::Int(_) | LaneOp::Mad64 { .. } | LaneOp::Shift64(_)
            );
            if !lane_wise || li.sdwa.is_some() || li.writes_exec || li.abs | li.neg != 0 {
                return None;
            }
            // Lane masks: only those written before in the segment, never as uniform values.
            if li.mask_in.is_some_and(|m| !masks.contains(&m)) {
                return None;
            }
            for i in 0..li.n {
                let n = if li.wide[i] { 2 } else { 1 };
                for o in &li.src[i][..n] {
                    match *o {
                        Opd::V(r) if !written.contains(&r) && !gather.contains(&r) => {
                            gather.push(r)
                        }
                        _ => {}
                    }
                }
            }
            written.extend(li.vgpr_writes());
            if let Some(m) = li.mask_out {
                masks.push(m);
                // Its last write must be dead after the segment.
                let later = insts[k + 1..].iter().any(|(_, l)| l.mask_out == Some(m));
                if !later && !unread[k] {
                    return None;
                }
            }
        }
        let near = |a: u8, b: u8| a.abs_diff(b) < 2;
        let value_read = insts
            .iter()
            .flat_map(|(_, li)| li.sgpr_values())
            .any(|s| masks.iter().any(|&m| near(s, m)));
        if value_read {
            return None;
        }
        for &(r, rep) in &reps {
            if let Rep::Hi(step) = rep {
                // (15 steps within an i32: the row check compares 32-bit differences.)
                if step.checked_mul(15)?.unsigned_abs() >= 1 << 31 {
                    return None;
                }
                let lo = r.checked_sub(1)?;
                if !written.contains(&lo) && !gather.contains(&lo) {
                    gather.push(lo);
                }
            }
        }
        // Worth it where the chunks' work is more than gathering, one run, the checks and
        // the fills (host instructions, roughly). (All the fills: counting those left to the
        // loads out of it picks segments whose run, a chain behind its gathers, took longer
        // than their chunks though it counts fewer instructions: `docs/JIT.md`.)
        let chunks = self.isa.chunks();
        let body = 2 * insts.len() + reps.len() + gather.len();
        let fill: usize = reps
            .iter()
            .map(|(_, rep)| match rep {
                Rep::Lin(0) => 4 + chunks,
                Rep::Lin(_) => 4 + 2 * chunks,
                Rep::Hi(_) => 17 + chunks,
            })
            .sum();
        let rep = 20 + 5 * gather.len() + body + fill;
        if !estimated(5 * rep < 4 * chunks * body) {
            return None;
        }
        let lazy = self.rep_lazy_vgprs(&reps);
        Some(RepPlan { gather, reps, lazy })
    }

    /// The global loads at the start of `items` (those after a segment) whose addresses the
    /// rows path reads in rows of 16 (one dword per lane, VGPR pairs, proven lane-linear
    /// along the rows), and what is dead after the last; none in check mode.
    pub(super) fn rep_run(&self, items: &[Item]) -> Option<RepRun> {
        if self.check {
            return None;
        }
        let mut loads = Vec::new();
        for it in items {
            let Item::Op(i, Kind::Vmem(m)) = it else {
                break;
            };
            let rows = match self.linear.linear(*i) {
                Some(narrow) => narrow || self.linear.rows,
                None => false,
            };
            if !m.load || !covered(m) || !rows {
                break;
            }
            loads.push((*i, m.vaddr, m.data));
        }
        let dead_after = self.vgprs_dead_after_access(loads.last()?.0)?;
        Some(RepRun { loads, dead_after })
    }

    /// The VGPRs of `reps` the run may leave unfilled: written by the segment, read after it
    /// only as addresses of loads in [`Emitter::rep_next`] (whose whole pairs are such
    /// VGPRs), dead after them, and no load's data (so that a fill never replaces what a
    /// load wrote; such a value could be an address only of an access not proven along the
    /// rows, which ends the loads, so this is a guard). And those loads.
    fn rep_lazy_vgprs(&self, reps: &[(u8, Rep)]) -> (Vec<u8>, Vec<u32>) {
        let Some(run) = &self.rep_next else {
            return (Vec::new(), Vec::new());
        };
        let mut lazy: Vec<u8> = reps
            .iter()
            .map(|&(r, _)| r)
            .filter(|&r| {
                !self.dead_out(r) && run.dead_after.has(r) && !run.loads.iter().any(|l| l.2 == r)
            })
            .collect();
        loop {
            let n = lazy.len();
            for &(_, v, _) in &run.loads {
                if !(lazy.contains(&v) && lazy.contains(&(v + 1))) {
                    lazy.retain(|&r| r != v && r != v + 1);
                }
            }
            if lazy.len() == n {
                break;
            }
        }
        let loads = run
            .loads
            .iter()
            .filter(|l| lazy.contains(&l.1))
            .map(|l| l.0)
            .collect();
        (lazy, loads)
    }

    /// Emits the run on a few lanes of a segment (its [`RepPlan`]; `run` emits the segment's
    /// chunk): from `done` on when it ran; on to the code after it (the segment's ordinary
    /// code) when it did not.
    pub(super) fn rep_path(
        &mut self,
        plan: &RepPlan,
        run: &mut dyn FnMut(&mut Self) -> R<()>,
        done: CodeLabel,
    ) -> R<()> {
        let mut ordinary = self.a.create_label();
        let a = &mut self.a;
        a.cmp(byte_ptr(rbx + W_LIN), 16)?;
        a.jb(ordinary)?;
        unless_full_wave(a, ordinary)?;
        a.mov(rdi, qword_ptr(rbx + W_REP))?;
        if !plan.gather.is_empty() {
            a.mov(rax, REP_LANES.as_ptr() as u64)?;
            a.vmovdqu(ymm1, ymmword_ptr(rax))?;
        }
        for &g in &plan.gather {
            let a = &mut self.a;
            a.vpcmpeqd(ymm2, ymm2, ymm2)?;
            a.vpgatherdd_3(ymm0, ptr(r13 + ymm1 * 4 + 256 * i32::from(g)), ymm2)?;
            a.vmovdqu(ymmword_ptr(rdi + 64 * i32::from(g)), ymm0)?;
        }
        // The segment on the gathered chunk, all its lanes active (the EXEC mask register
        // all ones, for any lowering of a full-wave chunk that reads it); VGPRs and lane masks
        // in `Wave::rep` ([`Emitter::vgpr_mem`], `mask_mem`).
        match self.isa {
            Isa::Avx2 => self.v_ones(V(self.isa.exec_mask().0))?,
            Isa::Avx512 => {
                let k = super::vx::kr(self.isa.exec_mask());
                self.a.kxnorw(k, k, k)?;
            }
        }
        self.rep_mode = true;
        let ran = run(self);
        self.rep_mode = false;
        ran?;
        // Each pair row by row: the high dwords of its first and last lane equal, the low
        // dwords 15 steps apart without wrapping (even positions: first lanes). ymm5 collects
        // the positions that pass.
        let mut first = true;
        let mut step_in_ymm3 = None;
        for &(r, rep) in &plan.reps {
            let Rep::Hi(step) = rep else {
                continue;
            };
            let (lo, hi) = (64 * i32::from(r - 1), 64 * i32::from(r));
            let a = &mut self.a;
            a.vmovdqu(ymm0, ymmword_ptr(rdi + hi))?;
            a.vpshufd(ymm1, ymm0, 0xb1)?;
            match first {
                true => a.vpcmpeqd(ymm5, ymm0, ymm1)?,
                false => {
                    a.vpcmpeqd(ymm0, ymm0, ymm1)?;
                    a.vpand(ymm5, ymm5, ymm0)?;
                }
            }
            first = false;
            if step_in_ymm3 != Some(step) {
                a.mov(eax, (15 * step) as i32)?;
                a.vmovd(xmm3, eax)?;
                a.vpbroadcastd(ymm3, xmm3)?;
                step_in_ymm3 = Some(step);
            }
            a.vmovdqu(ymm0, ymmword_ptr(rdi + lo))?;
            a.vpshufd(ymm1, ymm0, 0xb1)?;
            a.vpsubd(ymm2, ymm1, ymm0)?;
            a.vpcmpeqd(ymm2, ymm2, ymm3)?;
            // No wrap: the last lane's low dword on the step's side of the first's.
            match step.signum() {
                1 => a.vpmaxud(ymm4, ymm0, ymm1)?,
                -1 => a.vpminud(ymm4, ymm0, ymm1)?,
                _ => a.vmovdqa(ymm4, ymm1)?,
            }
            a.vpcmpeqd(ymm4, ymm4, ymm1)?;
            a.vpand(ymm2, ymm2, ymm4)?;
            // (The first lanes' verdicts for the last lanes' positions too.)
            a.vpshufd(ymm2, ymm2, 0xa0)?;
            a.vpand(ymm5, ymm5, ymm2)?;
        }
        if !first {
            let a = &mut self.a;
            a.vmovmskps(eax, ymm5)?;
            a.cmp(eax, 0xff)?;
            a.jne(ordinary)?;
        }
        self.a.inc(dword_ptr(rdi + REP_RUNS))?;
        let (lazy, loads) = plan.lazy.clone();
        if !lazy.is_empty() {
            self.a.mov(dword_ptr(rdi + REP_LAZY), 1)?;
        }
        let eager: Vec<(u8, Rep)> = plan
            .reps
            .iter()
            .copied()
            .filter(|&(r, _)| !self.dead_out(r) && !lazy.contains(&r))
            .collect();
        self.rep_fills(&eager)?;
        self.a.jmp(done)?;
        if !lazy.is_empty() {
            // The routine the loads call when they leave their fast path (rdi: `Wave::rep`
            // again; vector temporaries 0-2 and rax are free at a load).
            let mut fill = self.a.create_label();
            bind(&mut self.a, &mut fill)?;
            self.a.mov(rdi, qword_ptr(rbx + W_REP))?;
            let later: Vec<(u8, Rep)> = plan
                .reps
                .iter()
                .copied()
                .filter(|(r, _)| lazy.contains(r))
                .collect();
            self.rep_fills(&later)?;
            self.a.mov(dword_ptr(rdi + REP_LAZY), 0)?;
            self.a.ret()?;
            self.rep_lazy = Some(RepLazy { loads, fill });
        }
        bind(&mut self.a, &mut ordinary)?;
        if !lazy.is_empty() {
            self.a.mov(rax, qword_ptr(rbx + W_REP))?;
            self.a.mov(dword_ptr(rax + REP_LAZY), 0)?;
        }
        Ok(())
    }

    /// The fills of `reps` from `Wave::rep` (rdi), those of one stride together (its lane
    /// offsets computed once); a checked pair's high dword is its row's first lane's (stride
    /// 0).
    fn rep_fills(&mut self, reps: &[(u8, Rep)]) -> R<()> {
        let stride = |rep: Rep| match rep {
            Rep::Lin(t) => t,
            Rep::Hi(_) => 0,
        };
        let mut strides: Vec<i32> = reps.iter().map(|&(_, rep)| stride(rep)).collect();
        strides.sort_unstable();
        strides.dedup();
        for t in strides {
            if t != 0 {
                self.rep_strides(t)?;
            }
            for &(r, rep) in reps {
                if stride(rep) == t {
                    self.rep_fill(r, t)?;
                }
            }
        }
        Ok(())
    }

    /// For [`Self::rep_fill`] with stride t: V(0) = t·(0..lanes), V(1) = t·lanes.
    fn rep_strides(&mut self, t: i32) -> R<()> {
        let (offs, next) = (V(0), V(1));
        self.a.mov(rax, IOTA.as_ptr() as u64)?;
        self.v_mov(offs, Vs::M(rax + 0))?;
        self.v_const(next, t as u32)?;
        self.v_mullo(offs, offs, Vs::R(next))?;
        self.v_const(next, t.wrapping_mul(self.isa.lanes() as i32) as u32)
    }

    /// VGPR `r`'s 64 lanes from the first lane of each row of 16 in `Wave::rep` (rdi): lane l
    /// of a row holds its first lane's value + t·l (t ≠ 0: [`Self::rep_strides`] first).
    fn rep_fill(&mut self, r: u8, t: i32) -> R<()> {
        let (offs, next, x) = (V(0), V(1), V(2));
        let lanes = self.isa.lanes() as i32;
        for row in 0..4 {
            let first = Vs::B(rdi + (64 * i32::from(r) + 8 * row));
            self.v_mov(x, first)?;
            if t != 0 {
                self.v_add(x, x, Vs::R(offs))?;
            }
            for c in 0..16 / lanes {
                if c > 0 && t != 0 {
                    self.v_add(x, x, Vs::R(next))?;
                }
                let at = 256 * i32::from(r) + 4 * (16 * row + c * lanes);
                self.v_mov_to_mem(r13 + at, x)?;
            }
        }
        Ok(())
    }
}
