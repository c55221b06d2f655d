//! A compare of a lane-linear value against a uniform one, as a prefix of the lanes.
//!
//! Bounds checks (`if (i < n)`) compare the work-item's index, lane 0's + l in lane l, with
//! a uniform bound. Where the lane-linear analysis proves the index has that shape
//! (`lane_linear.rs`, `Linear::prefix`) and the wave is one row (`Wave::lin_rows` 64), the
//! lanes that pass are a prefix of the wave (less than, or at most) or a suffix (greater, at
//! least), as long as the index does not wrap within the wave: lane 0's value at most
//! 2^32 - 64 (unsigned; signed: 2^31 - 64). The mask is then computed from lane 0's value and
//! the bound in a few scalar instructions, instead of 64 lanes compared in vectors. Lanes
//! inactive in EXEC get 0, as a compare leaves them. Otherwise the compare runs as a
//! segment of its own.

use super::emit::{bind, sreg64, Emitter, EXEC, R, W_LIN, W_S};
use super::select::{LaneInst, LaneOp, Opd};
use super::vgpr_dead::Vgprs;
use crate::valu::{CmpTy, Cond};
use iced_x86::code_asm::*;

impl Emitter<'_> {
    /// The compare of `seg` (a segment of that one instruction: the rest of its segment
    /// already emitted; its linear value source 1 when `second`); `dead_after` and
    /// `mem_next` as for the segment.
    pub(super) fn prefix_compare(
        &mut self,
        seg: &[(u32, LaneInst)],
        second: bool,
        dead_after: u128,
        mem_next: bool,
    ) -> R<()> {
        let li = &seg[0].1;
        let (LaneOp::Cmp(ty, cond), Some(out)) = (li.op, li.mask_out) else {
            return self.segment(seg, dead_after, Vgprs::default(), mem_next);
        };
        let signed = ty == CmpTy::I32;
        let (lin, bound) = match second {
            false => (li.src[0][0], li.src[1][0]),
            true => (li.src[1][0], li.src[0][0]),
        };
        let Opd::V(r) = lin else {
            return self.segment(seg, dead_after, Vgprs::default(), mem_next);
        };
        // The condition with the linear value v on the left: v < u, v <= u, ...
        let cond = match (second, cond) {
            (false, c) => c,
            (true, Cond::Lt) => Cond::Gt,
            (true, Cond::Le) => Cond::Ge,
            (true, Cond::Gt) => Cond::Lt,
            (true, Cond::Ge) => Cond::Le,
            (true, c) => c,
        };
        let mut normal = self.a.create_label();
        let mut done = self.a.create_label();
        let a = &mut self.a;
        a.cmp(byte_ptr(rbx + W_LIN), 64)?;
        a.jne(normal)?;
        // rax = v in lane 0, rcx = u, both widened as the compare reads them.
        a.mov(eax, dword_ptr(r13 + 256 * i32::from(r)))?;
        match bound {
            Opd::S(s) => a.mov(ecx, dword_ptr(rbx + (W_S + 4 * i32::from(s))))?,
            Opd::K(k) => a.mov(ecx, k)?,
            Opd::V(v) => a.mov(ecx, dword_ptr(r13 + 256 * i32::from(v)))?,
        }
        if signed {
            a.movsxd(rax, eax)?;
            a.movsxd(rcx, ecx)?;
            a.cmp(rax, i32::MAX - 63)?;
            a.jg(normal)?;
        } else {
            a.cmp(eax, (u32::MAX - 63) as i32)?;
            a.ja(normal)?;
        }
        // Lane l passes v + l < u when l < u - v (<= : l < u - v + 1); > and >= pass the
        // lanes the opposite condition leaves out.
        a.sub(rcx, rax)?;
        if matches!(cond, Cond::Le | Cond::Gt) {
            a.add(rcx, 1)?;
        }
        // rcx = the prefix's length, at least 0.
        a.xor(r8d, r8d)?;
        a.cmp(rcx, 0)?;
        a.cmovl(rcx, r8)?;
        // rdx = (1 << len) - 1, all ones for 64 and more (x86 shifts by len mod 64).
        a.mov(edx, 1)?;
        a.shl(rdx, cl)?;
        a.sub(rdx, 1)?;
        a.cmp(rcx, 64)?;
        a.sbb(rax, rax)?;
        a.not(rax)?;
        a.or(rdx, rax)?;
        if matches!(cond, Cond::Gt | Cond::Ge) {
            a.not(rdx)?;
        }
        a.and(rdx, sreg64(EXEC))?;
        a.mov(sreg64(out), rdx)?;
        a.jmp(done)?;
        bind(a, &mut normal)?;
        self.segment(seg, dead_after, Vgprs::default(), mem_next)?;
        bind(&mut self.a, &mut done)
    }
}
