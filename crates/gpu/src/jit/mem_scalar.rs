//! Scalar memory loads (`s_load_dword*`), and the range check every native memory access
//! starts with: the span `[lo, end)` against the range the wave's checker proved last; a miss
//! asks the checker (which may prove another range), and a refusal sends the instruction to
//! the interpreter, which reports the fault exactly as without the JIT.

use super::emit::{bind, sreg32, sreg64, Emitter, R};
use super::mem_vector::{J_SITES, SITE_BYTES, SITE_HINT};
use super::select::SmemLoad;
use super::JitCtx;
use crate::exec::operand::Src;
use iced_x86::code_asm::*;
use std::mem::offset_of;

const J_SPAN: i32 = offset_of!(JitCtx, span) as i32;
/// A scalar load's note in its site: the last address it loaded from, plus 1.
const SITE_NOTE: i32 = SITE_HINT;

impl Emitter<'_> {
    /// Checks `[rax, rcx)` against the range this instruction's site proved last. On a miss,
    /// out of line: the checker is asked (vector registers are not preserved: `retry` must
    /// recompute everything), then code goes back to `retry`, or the interpreter runs
    /// instruction `i` and code continues at `resume`. Falls through on a hit, rax and rcx
    /// unchanged; returns the operand holding the range's translation (valid until rdx
    /// changes).
    pub(super) fn range_check(
        &mut self,
        i: u32,
        write: bool,
        retry: CodeLabel,
        resume: CodeLabel,
    ) -> R<AsmMemoryOperand> {
        let site = self.sites;
        self.sites += 1;
        let at = SITE_BYTES * site as i32;
        let a = &mut self.a;
        let mut miss = a.create_label();
        a.mov(rdx, qword_ptr(r12 + J_SITES))?;
        a.cmp(rax, qword_ptr(rdx + at))?;
        a.jb(miss)?;
        a.cmp(rcx, qword_ptr(rdx + (at + 8)))?;
        a.ja(miss)?;
        // Never an empty span (see `stub_range_check`).
        a.cmp(rcx, rax)?;
        a.jbe(miss)?;
        let slow = self.slow_callout(i, resume)?;
        self.cold(move |e| {
            let a = &mut e.a;
            bind(a, &mut miss)?;
            a.vzeroupper()?;
            a.mov(rdi, r12)?;
            a.mov(rsi, rax)?;
            a.mov(rdx, rcx)?;
            a.mov(ecx, u32::from(write))?;
            a.mov(r8d, site)?;
            a.call(qword_ptr(r12 + J_SPAN))?;
            a.test(eax, eax)?;
            a.jz(slow)?;
            Ok(a.jmp(retry)?)
        });
        Ok(qword_ptr(rdx + (at + 16)))
    }

    /// `s_load_dword{,x2,x4,x8,x16}`: one checked span, then the dwords copied into SGPRs,
    /// each naturally aligned 8-byte piece with one host access (as `memory::read_dwords`).
    pub(super) fn smem(&mut self, i: u32, m: &SmemLoad) -> R<()> {
        let a = &mut self.a;
        let mut retry = a.create_label();
        let mut done = a.create_label();
        bind(a, &mut retry)?;
        // Offset: imm + soffset (32-bit wrap), sign-extended, added to the 64-bit base.
        match m.soffset {
            Some(Src::S(s)) => {
                a.mov(eax, m.imm as u32)?;
                a.add(eax, sreg32(s))?;
                a.movsxd(rax, eax)?;
            }
            Some(Src::Imm(v)) => a.mov(rax, i64::from(m.imm.wrapping_add(v as u32 as i32)))?,
            _ => a.mov(rax, i64::from(m.imm))?,
        }
        a.add(rax, sreg64(m.base))?;
        // The hardware ignores the low two bits.
        a.and(rax, -4)?;
        // Outside loops: the address this load read last, proved then (the load's span has
        // the same length each time): its translation holds while the site's range does, and
        // the site's note changes with it. Every wave of a dispatch loads the same kernel
        // arguments there. (In a loop the address usually moves on: the note would miss.)
        let noted = self.runs_once;
        // (The site `range_check` takes next.)
        let at = SITE_BYTES * self.sites as i32;
        let mut proved = a.create_label();
        if noted {
            a.mov(rdx, qword_ptr(r12 + J_SITES))?;
            a.lea(rcx, qword_ptr(rax + 1))?;
            a.cmp(rcx, qword_ptr(rdx + (at + SITE_NOTE)))?;
            a.je(proved)?;
        }
        a.lea(rcx, qword_ptr(rax + 4 * i32::from(m.dwords)))?;
        let delta = self.range_check(i, false, retry, done)?;
        let a = &mut self.a;
        if noted {
            // (The address with bit 0 set: a fresh site's note, 0, matches no address.)
            a.lea(rcx, qword_ptr(rax + 1))?;
            a.mov(qword_ptr(rdx + (at + SITE_NOTE)), rcx)?;
        }
        bind(a, &mut proved)?;
        a.add(rax, delta)?;
        let n = i32::from(m.dwords);
        if n == 1 {
            a.mov(edx, dword_ptr(rax))?;
            a.mov(sreg32(m.dst), edx)?;
        } else {
            // Aligned: 8-byte moves. Otherwise a dword first, then the aligned pairs.
            let mut odd = a.create_label();
            let mut out = a.create_label();
            a.test(al, 7)?;
            a.jnz(odd)?;
            for k in (0..n).step_by(2) {
                a.mov(rdx, qword_ptr(rax + 4 * k))?;
                a.mov(sreg64(m.dst.wrapping_add(k as u8)), rdx)?;
            }
            a.jmp(out)?;
            bind(a, &mut odd)?;
            a.mov(edx, dword_ptr(rax))?;
            a.mov(sreg32(m.dst), edx)?;
            for k in (1..n - 1).step_by(2) {
                a.mov(rdx, qword_ptr(rax + 4 * k))?;
                a.mov(sreg64(m.dst.wrapping_add(k as u8)), rdx)?;
            }
            a.mov(edx, dword_ptr(rax + 4 * (n - 1)))?;
            a.mov(sreg32(m.dst.wrapping_add((n - 1) as u8)), edx)?;
            bind(a, &mut out)?;
        }
        bind(&mut self.a, &mut done)?;
        Ok(())
    }
}
