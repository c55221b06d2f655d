//! Switching waves at `s_barrier` and `s_endpgm` inside generated code.
//!
//! The work-group loop (`workgroup.rs`) runs its waves in rounds: each runnable wave in turn,
//! in index order, until it ends, sleeps, waits at the barrier or its time slice ends; when
//! every live wave waits at the barrier, it releases them and starts the next round. A wave
//! leaving generated code and the loop starting the next one cost about 120 host instructions
//! (the epilogue and prologue, the runner's set-up, the loop's bookkeeping): 18% of the bench
//! reduction's wave, which crosses nine barriers.
//!
//! So a wave that reaches `s_barrier` or `s_endpgm` goes on in generated code to the next
//! wave the loop would run in the same round, when the runner named it in
//! `JitCtx::run_mask` (the later waves that are runnable, up to the first one only the loop
//! may start: see `WaveRunner::run`): this wave's state becomes `Barrier` or `Done`, the next
//! one's `Running`, its time slice and budget are set as the loop sets them
//! (`Wave::start_turn`), and code jumps to its block. At the round's last wave, where every
//! wave waits at the barrier or is done, the code releases them and starts the next round as
//! the loop would, after its look at the stop flag, unless the loop's clock is due
//! (`JitCtx::clock_in`: the loop may park the work-group then). The instructions the waves
//! ran are added up for that clock (`JitCtx::ran`). Everything else a wave may stop for stays
//! with the loop; the order in which waves run, and so every result, is the same. A
//! work-group of waves without barriers is one call of the code, and so is one whose waves
//! only ever meet at barriers, until the clock is due.
//!
//! When every wave of the work-group has ended, the code asks the work-group loop for the next
//! work-group of the runner's batch (`JitCtx::group_end`, the loop's `GroupEnd`); where the
//! loop would go on with it in the same context, its waves are set up there and the code goes
//! on with the first one: a batch of work-groups is one call of the code.

use super::emit::{bind, Emitter, J_LIMIT, J_STOP, R, W_EXECUTED, W_PC, W_V};
use super::{JitCtx, EXIT_BARRIER, EXIT_DISPATCH, EXIT_END};
use crate::wave::{Wave, WaveState, WAVE_SLICE};
use iced_x86::code_asm::*;
use std::mem::offset_of;

const W_STATE: i32 = offset_of!(Wave, state) as i32;
const W_TIME_SLICE: i32 = offset_of!(Wave, time_slice) as i32;
const J_WAVES: i32 = offset_of!(JitCtx, waves) as i32;
const J_CUR: i32 = offset_of!(JitCtx, cur) as i32;
const J_RUN_MASK: i32 = offset_of!(JitCtx, run_mask) as i32;
const J_BUDGET: i32 = offset_of!(JitCtx, budget) as i32;
const J_ENTRIES: i32 = offset_of!(JitCtx, entries) as i32;
const J_CODE: i32 = offset_of!(JitCtx, code) as i32;
const J_SWITCHES: i32 = offset_of!(JitCtx, switches) as i32;
const J_NW: i32 = offset_of!(JitCtx, nw) as i32;
const J_RELEASES: i32 = offset_of!(JitCtx, releases) as i32;
const J_ROUND_SWITCHES: i32 = offset_of!(JitCtx, round_switches) as i32;
const J_CLOCK_IN: i32 = offset_of!(JitCtx, clock_in) as i32;
const J_TURN_START: i32 = offset_of!(JitCtx, turn_start) as i32;
const J_RAN: i32 = offset_of!(JitCtx, ran) as i32;
const J_GROUP_END: i32 = offset_of!(JitCtx, group_end) as i32;
const J_GROUP_END_FN: i32 = offset_of!(JitCtx, group_end_fn) as i32;
/// Bytes between two waves of the work-group's array.
const WAVE_BYTES: i32 = std::mem::size_of::<Wave>() as i32;

impl Emitter<'_> {
    /// `s_barrier` (`end` false: the wave waits with its pc after instruction `i`) or
    /// `s_endpgm` (the wave is done, its pc at `i`), counted: the next wave of the round runs,
    /// or the code leaves with `EXIT_BARRIER` or `EXIT_END`.
    pub(super) fn next_wave(&mut self, i: u32, end: bool) -> R<()> {
        let (state, pc, exit) = match end {
            false => (WaveState::Barrier, i + 1, EXIT_BARRIER),
            true => (WaveState::Done, i, EXIT_END),
        };
        if self.check {
            // Check mode compares one wave's registers with the interpreter's copy of it.
            return self.exit_with(exit, Some(pc));
        }
        self.a.mov(qword_ptr(rbx + W_EXECUTED), rbp)?;
        self.a.mov(dword_ptr(rbx + W_PC), pc)?;
        self.a.mov(eax, state as u32)?;
        let l = self.local_stub(super::stubs::Stub::NextWave);
        Ok(self.a.jmp(l)?)
    }

    /// The shared body of [`Emitter::next_wave`]: the wave's count and pc are stored, eax is
    /// the state it leaves in.
    pub(super) fn next_wave_stub(&mut self) -> R<()> {
        // (`labels` has one more entry than the runner's table of entries.)
        let (first, n, exit) = (self.first, self.labels.len() as u32 - 1, self.exit);
        let a = &mut self.a;
        let mut switch = a.create_label();
        let mut last = a.create_label();
        let mut sliced = a.create_label();
        let mut dispatch = a.create_label();
        let mut scan = a.create_label();
        let mut scan_next = a.create_label();
        let mut not_waiting = a.create_label();
        let mut release = a.create_label();
        let mut all_done = a.create_label();
        let mut out = a.create_label();
        a.mov(byte_ptr(rbx + W_STATE), al)?;
        a.mov(rcx, qword_ptr(r12 + J_RUN_MASK))?;
        a.test(rcx, rcx)?;
        a.jz(last)?;
        // rcx: the mask, not empty.
        bind(a, &mut switch)?;
        a.mov(rax, rbp)?;
        a.sub(rax, qword_ptr(r12 + J_TURN_START))?;
        a.add(qword_ptr(r12 + J_RAN), rax)?;
        a.inc(qword_ptr(r12 + J_SWITCHES))?;
        a.inc(qword_ptr(r12 + J_ROUND_SWITCHES))?;
        // The lowest wave left in the mask runs next.
        a.bsf(rax, rcx)?;
        a.lea(rdx, qword_ptr(rcx - 1))?;
        a.and(rcx, rdx)?;
        a.mov(qword_ptr(r12 + J_RUN_MASK), rcx)?;
        a.mov(dword_ptr(r12 + J_CUR), eax)?;
        a.imul_3(rax, rax, WAVE_BYTES)?;
        a.mov(rbx, qword_ptr(r12 + J_WAVES))?;
        a.add(rbx, rax)?;
        a.mov(byte_ptr(rbx + W_STATE), WaveState::Running as u32)?;
        // Its turn as the loop starts one: a time slice, unless the dispatch's budget ends
        // first (or is there: then it is the limit and running out of it faults).
        a.mov(rbp, qword_ptr(rbx + W_EXECUTED))?;
        a.mov(qword_ptr(r12 + J_TURN_START), rbp)?;
        a.lea(r14, qword_ptr(rbp + WAVE_SLICE as i32))?;
        a.mov(rcx, qword_ptr(r12 + J_BUDGET))?;
        a.mov(edx, 1)?;
        a.test(rcx, rcx)?;
        a.jz(sliced)?;
        a.cmp(r14, rcx)?;
        a.jb(sliced)?;
        a.mov(r14, rcx)?;
        a.xor(edx, edx)?;
        bind(a, &mut sliced)?;
        a.mov(byte_ptr(rbx + W_TIME_SLICE), dl)?;
        a.mov(qword_ptr(r12 + J_LIMIT), r14)?;
        a.mov(r13, qword_ptr(rbx + W_V))?;
        // Its block, as the runner finds it (rbx, r12-r15 and rbp are what the prologue
        // leaves; nothing else is live at a block's start).
        a.mov(eax, dword_ptr(rbx + W_PC))?;
        a.sub(eax, first)?;
        a.cmp(eax, n)?;
        a.jae(dispatch)?;
        a.mov(rdx, qword_ptr(r12 + J_ENTRIES))?;
        a.mov(eax, dword_ptr(rdx + rax * 4))?;
        a.cmp(eax, -1)?;
        a.je(dispatch)?;
        a.add(rax, qword_ptr(r12 + J_CODE))?;
        a.jmp(rax)?;
        // Not compiled here: the runner looks (the wave switched to is `JitCtx::cur`).
        bind(a, &mut dispatch)?;
        a.mov(eax, EXIT_DISPATCH)?;
        a.jmp(exit)?;

        // The round's last wave. Where every wave now waits at the barrier or is done, and
        // one waits, the loop would release them and start the next round with its first
        // waiting wave, after a look at the stop flag: so does this (rsi: the waiting waves),
        // unless the loop's clock is due.
        bind(a, &mut last)?;
        a.mov(rdx, qword_ptr(r12 + J_WAVES))?;
        a.xor(esi, esi)?;
        a.xor(edi, edi)?;
        bind(a, &mut scan)?;
        a.movzx(ecx, byte_ptr(rdx + W_STATE))?;
        a.cmp(ecx, WaveState::Barrier as u32)?;
        a.jne(not_waiting)?;
        a.bts(rsi, rdi)?;
        a.jmp(scan_next)?;
        bind(a, &mut not_waiting)?;
        a.cmp(ecx, WaveState::Done as u32)?;
        a.jne(out)?;
        bind(a, &mut scan_next)?;
        a.add(rdx, WAVE_BYTES)?;
        a.inc(edi)?;
        a.cmp(edi, dword_ptr(r12 + J_NW))?;
        a.jb(scan)?;
        a.test(rsi, rsi)?;
        a.jz(all_done)?;
        a.mov(rcx, qword_ptr(r12 + J_STOP))?;
        a.cmp(byte_ptr(rcx), 0)?;
        a.jne(out)?;
        // Nor past the loop's next look at the clock (which may park the work-group).
        a.mov(rcx, rbp)?;
        a.sub(rcx, qword_ptr(r12 + J_TURN_START))?;
        a.add(rcx, qword_ptr(r12 + J_RAN))?;
        a.cmp(rcx, qword_ptr(r12 + J_CLOCK_IN))?;
        a.jae(out)?;
        // Release: every waiting wave runs again (the runner's loop finds them so if the
        // next round stops early).
        a.mov(rcx, rsi)?;
        a.mov(rdx, qword_ptr(r12 + J_WAVES))?;
        bind(a, &mut release)?;
        a.bsf(rdi, rsi)?;
        a.imul_3(rdi, rdi, WAVE_BYTES)?;
        a.mov(byte_ptr(rdx + rdi + W_STATE), WaveState::Running as u32)?;
        a.lea(rdi, qword_ptr(rsi - 1))?;
        a.and(rsi, rdi)?;
        a.jnz(release)?;
        a.inc(qword_ptr(r12 + J_RELEASES))?;
        a.mov(qword_ptr(r12 + J_ROUND_SWITCHES), 0)?;
        a.jmp(switch)?;
        // Every wave ended: where the loop would go on with the next work-group of its batch,
        // the call-out sets its waves up and names them all in the run mask (nothing else is
        // live here: rbx, r12-r15 and rbp are callee-saved, the stack as at a block's start).
        // The switch to its first wave adds nothing to the instructions counted.
        bind(a, &mut all_done)?;
        a.cmp(qword_ptr(r12 + J_GROUP_END), 0)?;
        a.je(out)?;
        a.vzeroupper()?;
        a.mov(rdi, r12)?;
        a.call(qword_ptr(r12 + J_GROUP_END_FN))?;
        a.test(eax, eax)?;
        a.jz(out)?;
        a.mov(qword_ptr(r12 + J_TURN_START), rbp)?;
        a.mov(rcx, qword_ptr(r12 + J_RUN_MASK))?;
        a.jmp(switch)?;
        // Out, as without switching (the loop decides).
        bind(a, &mut out)?;
        a.cmp(byte_ptr(rbx + W_STATE), WaveState::Done as u32)?;
        a.mov(eax, EXIT_BARRIER)?;
        a.mov(ecx, EXIT_END)?;
        a.cmove(eax, ecx)?;
        Ok(a.jmp(exit)?)
    }
}
