//! FLAT loads and stores whose active lanes all hold one address in the private aperture:
//! -O0 code passes pointers to its locals as generic pointers, so every access through them
//! is a FLAT access to scratch with the same address in every lane. Scratch is swizzled per
//! dword (`lds::swizzle_private`: dword `p / 4` of lane l at `(p / 4) * 256 + 4l` from the
//! wave's scratch base), so such an access is one row of 64 consecutive dwords per dword it
//! moves: one span check, then the consecutive-lanes moves of `mem_vector.rs` row by row.
//! Anything else in the private aperture (lanes at different addresses, an address that is
//! not dword-aligned, one past the private segment) goes to the interpreter, which also
//! reports the fault.

use super::emit::{sreg64, Emitter, R};
use super::mem_vector::{VmemShape, SITE_DELTA};
use super::vx::Isa;
use super::JitCtx;
use crate::wave::FLAT_SCRATCH_LO;
use crate::PRIVATE_APERTURE_BASE;
use iced_x86::code_asm::*;
use std::mem::offset_of;

const J_PRIVATE_SIZE: i32 = offset_of!(JitCtx, private_size) as i32;

/// Lane offsets of an access whose lanes share one address (`consecutive_base` with size 0).
static SAME: [u32; 64] = [0; 64];

impl Emitter<'_> {
    /// In a FLAT stub (rdi, rsi, rdx, r9 as `mem_vector.rs` says; r10 = the first active lane,
    /// r11 = the last): jumps to `not_private` unless lane r10's address is in the private
    /// aperture, else runs the access as rows of scratch or goes to `slow`; `retry` after
    /// the checker proved a new range.
    pub(super) fn flat_private(
        &mut self,
        shape: VmemShape,
        not_private: CodeLabel,
        retry: CodeLabel,
        slow: CodeLabel,
    ) -> R<()> {
        let n = i32::from(shape.dwords);
        let a = &mut self.a;
        a.cmp(
            dword_ptr(rdi + r10 * 4 + 256),
            (PRIVATE_APERTURE_BASE >> 32) as i32,
        )?;
        a.jne(not_private)?;
        // r8 = the address of every active lane (plus the offset), else the interpreter.
        self.consecutive_base(0, true, SAME.as_ptr() as u64, slow)?;
        let a = &mut self.a;
        // p = the offset in the aperture: 32 bits, dword-aligned, inside the segment.
        a.mov(rax, PRIVATE_APERTURE_BASE)?;
        a.neg(rax)?;
        a.add(rax, r8)?;
        a.mov(ecx, eax)?;
        a.cmp(rax, rcx)?;
        a.jne(slow)?;
        a.test(al, 3)?;
        a.jnz(slow)?;
        a.lea(rcx, qword_ptr(rax + 4 * n))?;
        a.cmp(rcx, qword_ptr(r12 + J_PRIVATE_SIZE))?;
        a.ja(slow)?;
        // r8 = the row of dword p / 4: lane 0's slot, lane l 4l bytes on.
        a.shl(rax, 6)?;
        a.add(rax, sreg64(FLAT_SCRATCH_LO as u8))?;
        a.mov(r8, rax)?;
        // Span: the first active lane's slot in the first row to the last's in the last.
        a.lea(rax, qword_ptr(r8 + r10 * 4))?;
        a.lea(rcx, qword_ptr(r8 + r11 * 4 + (256 * (n - 1) + 4)))?;
        self.stub_range_check(!shape.load, retry, slow)?;
        self.a.add(r8, qword_ptr(r11 + SITE_DELTA))?;
        for k in 0..n {
            match self.isa {
                Isa::Avx512 => self.contiguous1_512(shape.load, false)?,
                Isa::Avx2 => self.contiguous1_avx2(shape.load, false)?,
            }
            if k + 1 < n {
                // The next dword: the next row, and the next VGPR.
                let a = &mut self.a;
                a.add(r8, 256)?;
                a.add(rsi, 256)?;
            }
        }
        Ok(())
    }
}
