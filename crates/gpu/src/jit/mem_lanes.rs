//! Vector memory accesses lane by lane: the AVX2 stubs' path for dword accesses whose active
//! lanes are not consecutive, and for every access of 2 to 4 dwords per lane (AVX2 has
//! gathers but no scatters, and masked gathers cost about as much as scalar moves). One pass
//! over the active lanes finds the lowest and highest address for the span check, a second
//! moves each lane's dwords; stores go in lane order, so the highest lane wins where addresses
//! overlap, as in the other paths. When every active lane has the same address (a uniform
//! load, as of the body an n-body loop reads), a load broadcasts the dwords to the active
//! lanes with masked moves and a store writes the highest active lane's data.

use super::emit::{bind, sreg64, Emitter, EXEC, R, W_UNFENCED};
use super::mem_vector::{exec_byte, VmemShape};
use crate::wave::UNFENCED_VECTOR;
use iced_x86::code_asm::*;

impl Emitter<'_> {
    /// In a vector-memory stub (rdi = the address VGPRs, rsi = the data VGPR, rdx = the
    /// uniform part of the address, r9 = the site): serves an access of `shape` lane by lane. A failed span check asks the checker and goes to `retry`, or to `slow`.
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
        // Span [lowest, highest + size); a highest address within `size` of the top wraps and
        // fails.
        let size = 4 * i32::from(shape.dwords);
        a.lea(rcx, qword_ptr(rax + size))?;
        a.mov(rax, r8)?;
        // r10 = size when every active lane has the same address.
        a.mov(r10, rcx)?;
        a.sub(r10, rax)?;
        self.stub_range_check(!shape.load, retry, slow)?;
        let a = &mut self.a;
        a.mov(r8, qword_ptr(r11 + 16))?;
        if !shape.load {
            a.or(byte_ptr(rbx + W_UNFENCED), i32::from(UNFENCED_VECTOR))?;
        }
        let (mut lanes, mut end) = (a.create_label(), a.create_label());
        a.cmp(r10, size)?;
        a.jne(lanes)?;
        a.lea(r11, qword_ptr(rax + r8))?;
        if shape.load {
            for k in 0..i32::from(shape.dwords) {
                a.vpbroadcastd(ymm0, dword_ptr(r11 + 4 * k))?;
                for c in 0..8 {
                    a.movzx(eax, exec_byte(c))?;
                    a.shl(eax, 5)?;
                    a.vmovdqu(ymm3, ymmword_ptr(r15 + rax))?;
                    a.vpmaskmovd(ymmword_ptr(rsi + (256 * k + 32 * c)), ymm3, ymm0)?;
                }
            }
        } else {
            // The highest active lane's data is what stays.
            a.lzcnt(rcx, sreg64(EXEC))?;
            a.neg(rcx)?;
            a.add(rcx, 63)?;
            for k in 0..i32::from(shape.dwords) {
                a.mov(eax, dword_ptr(rsi + rcx * 4 + 256 * k))?;
                a.mov(dword_ptr(r11 + 4 * k), eax)?;
            }
        }
        a.jmp(end)?;
        // Pass 2: each active lane's dwords, at its address + the site's delta.
        bind(a, &mut lanes)?;
        a.mov(rcx, sreg64(EXEC))?;
        let mut lane = a.create_label();
        a.push(rbp)?;
        bind(a, &mut lane)?;
        lane_address(a, shape.pair)?;
        a.add(r11, r8)?;
        for k in 0..i32::from(shape.dwords) {
            let (host, reg) = (dword_ptr(r11 + 4 * k), dword_ptr(rsi + r10 * 4 + 256 * k));
            if shape.load {
                a.mov(eax, host)?;
                a.mov(reg, eax)?;
            } else {
                a.mov(eax, reg)?;
                a.mov(host, eax)?;
            }
        }
        a.blsr(rcx, rcx)?;
        a.jnz(lane)?;
        a.pop(rbp)?;
        bind(a, &mut end)
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
