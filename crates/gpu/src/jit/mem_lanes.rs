//! Vector memory accesses lane by lane: the AVX2 stubs' path for dword accesses whose active
//! lanes are not consecutive (AVX2 has gathers but no scatters, and masked gathers cost about
//! as much as scalar moves). One pass over the active lanes finds the lowest and highest
//! address for the span check, a second moves each lane's dword; stores go in lane order, so
//! the highest lane wins where addresses overlap, as in the other paths.

use super::emit::{bind, sreg64, Emitter, EXEC, R, W_UNFENCED};
use super::mem_vector::VmemShape;
use crate::wave::UNFENCED_VECTOR;
use iced_x86::code_asm::*;

impl Emitter<'_> {
    /// In a vector-memory stub (rdi = the address VGPRs, rsi = the data VGPR, rdx = the
    /// uniform part of the address, r9 = the site): serves a dword access of `shape` lane by
    /// lane. A failed span check asks the checker and goes to `retry`, or to `slow`.
    pub(super) fn scattered_lanes(
        &mut self,
        shape: VmemShape,
        retry: CodeLabel,
        slow: CodeLabel,
    ) -> R<()> {
        // Pass 1: r8 = the lowest address, rax = the highest.
        let a = &mut self.a;
        a.mov(rcx, sreg64(EXEC))?;
        a.mov(r8, -1i64)?;
        a.xor(eax, eax)?;
        let mut span = a.create_label();
        a.push(rbp)?;
        bind(a, &mut span)?;
        lane_address(a, shape.pair)?;
        a.cmp(r11, r8)?;
        a.cmovb(r8, r11)?;
        a.cmp(r11, rax)?;
        a.cmova(rax, r11)?;
        a.blsr(rcx, rcx)?;
        a.jnz(span)?;
        a.pop(rbp)?;
        // Span [lowest, highest + 4); a highest address within 4 of the top wraps and fails.
        a.lea(rcx, qword_ptr(rax + 4))?;
        a.mov(rax, r8)?;
        self.stub_range_check(!shape.load, retry, slow)?;
        // Pass 2: each active lane's dword, at its address + the site's delta.
        let a = &mut self.a;
        a.mov(r8, qword_ptr(r11 + 16))?;
        if !shape.load {
            a.or(byte_ptr(rbx + W_UNFENCED), i32::from(UNFENCED_VECTOR))?;
        }
        a.mov(rcx, sreg64(EXEC))?;
        let mut lane = a.create_label();
        a.push(rbp)?;
        bind(a, &mut lane)?;
        lane_address(a, shape.pair)?;
        a.add(r11, r8)?;
        if shape.load {
            a.mov(eax, dword_ptr(r11))?;
            a.mov(dword_ptr(rsi + r10 * 4), eax)?;
        } else {
            a.mov(eax, dword_ptr(rsi + r10 * 4))?;
            a.mov(dword_ptr(r11), eax)?;
        }
        a.blsr(rcx, rcx)?;
        a.jnz(lane)?;
        a.pop(rbp)?;
        Ok(())
    }
}

/// r11 = the address of the lowest lane left in rcx (r10 = that lane): its VGPR dword(s) plus
/// the uniform part rdx (rbp is scratch: the caller saved it).
fn lane_address(a: &mut CodeAssembler, pair: bool) -> R<()> {
    a.tzcnt(r10, rcx)?;
    a.mov(r11d, dword_ptr(rdi + r10 * 4))?;
    if pair {
        a.mov(ebp, dword_ptr(rdi + r10 * 4 + 256))?;
        a.shl(rbp, 32)?;
        a.or(r11, rbp)?;
    }
    a.add(r11, rdx)?;
    Ok(())
}
