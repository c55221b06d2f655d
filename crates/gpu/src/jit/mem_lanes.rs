//! Vector memory accesses lane by lane: the AVX2 stubs' path for dword accesses whose active
//! lanes are not consecutive, every stub's path for bytes and shorts (`mem_narrow.rs`), and
//! AVX2's for every access of 2 to 4 dwords per lane (AVX2 has
//! gathers but no scatters, and masked gathers cost about as much as scalar moves). One pass
//! over the active lanes finds the lowest and highest address for the span check, a second
//! moves each lane's dwords; stores go in lane order, so the highest lane wins where addresses
//! overlap, as in the other paths. Each naturally aligned 8-byte piece of a lane's dwords is
//! one 64-bit host access, as in the interpreter (`memory::read_dwords`): another work-group's
//! 64-bit flag-and-value word (a decoupled look-back scan's) is never seen torn. When every
//! active lane has the same dword address (a uniform load), a load broadcasts it to the
//! active lanes with masked moves and a store writes the highest active lane's data.

use super::emit::{bind, sreg64, Emitter, EXEC, R};
use super::mem_vector::{exec_byte, VmemShape, SITE_DELTA};
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
        let size = shape
            .sub
            .map_or(4 * i32::from(shape.dwords), |s| i32::from(s.bytes));
        a.lea(rcx, qword_ptr(rax + size))?;
        a.mov(rax, r8)?;
        // r10 = size when every active lane has the same address.
        a.mov(r10, rcx)?;
        a.sub(r10, rax)?;
        self.stub_range_check(!shape.load, retry, slow)?;
        let a = &mut self.a;
        a.mov(r8, qword_ptr(r11 + SITE_DELTA))?;
        let (mut lanes, mut end) = (a.create_label(), a.create_label());
        if shape.dwords > 1 || shape.sub.is_some() {
            // (Broadcasts read dword by dword: wider accesses keep their 64-bit pieces.)
            a.jmp(lanes)?;
        }
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
        let n = i32::from(shape.dwords);
        if let Some(s) = shape.sub {
            let host = AsmMemoryOperand::from(r11);
            super::mem_narrow::narrow_move(a, shape.load, s, host, rsi + r10 * 4)?;
        } else if n == 1 {
            lane_pieces(a, shape.load, &[(0, false)])?;
        } else {
            // The pieces by the host address's alignment: 8, 4 (dword 1 starts a qword), or
            // less (dwords only).
            let (mut at4, mut loose, mut next) =
                (a.create_label(), a.create_label(), a.create_label());
            a.test(r11b, 7)?;
            a.jnz(at4)?;
            let aligned: Vec<(i32, bool)> = (0..n).step_by(2).map(|k| (k, k + 1 < n)).collect();
            lane_pieces(a, shape.load, &aligned)?;
            a.jmp(next)?;
            bind(a, &mut at4)?;
            a.test(r11b, 3)?;
            a.jnz(loose)?;
            let mut shifted = vec![(0, false)];
            shifted.extend((1..n).step_by(2).map(|k| (k, k + 1 < n)));
            lane_pieces(a, shape.load, &shifted)?;
            a.jmp(next)?;
            bind(a, &mut loose)?;
            let dwords: Vec<(i32, bool)> = (0..n).map(|k| (k, false)).collect();
            lane_pieces(a, shape.load, &dwords)?;
            bind(a, &mut next)?;
        }
        a.blsr(rcx, rcx)?;
        a.jnz(lane)?;
        a.pop(rbp)?;
        bind(a, &mut end)
    }
}

/// Moves lane r10's dwords between host address r11 and the data VGPRs at rsi, in pieces
/// `(first dword, 64-bit)`: a 64-bit piece is one host access (rbp is scratch).
fn lane_pieces(a: &mut CodeAssembler, load: bool, pieces: &[(i32, bool)]) -> R<()> {
    let reg = |k: i32| dword_ptr(rsi + r10 * 4 + 256 * k);
    for &(k, wide) in pieces {
        match (load, wide) {
            (true, false) => {
                a.mov(eax, dword_ptr(r11 + 4 * k))?;
                a.mov(reg(k), eax)?;
            }
            (false, false) => {
                a.mov(eax, reg(k))?;
                a.mov(dword_ptr(r11 + 4 * k), eax)?;
            }
            (true, true) => {
                a.mov(rax, qword_ptr(r11 + 4 * k))?;
                a.mov(reg(k), eax)?;
                a.shr(rax, 32)?;
                a.mov(reg(k + 1), eax)?;
            }
            (false, true) => {
                a.mov(eax, reg(k))?;
                a.mov(ebp, reg(k + 1))?;
                a.shl(rbp, 32)?;
                a.or(rax, rbp)?;
                a.mov(qword_ptr(r11 + 4 * k), rax)?;
            }
        }
    }
    Ok(())
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
