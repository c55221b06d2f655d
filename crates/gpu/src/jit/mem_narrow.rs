//! Memory accesses of other sizes than the vector paths', lane by lane on both code
//! generators: a byte or a short per lane (global/flat `load_ubyte/sbyte/ushort/sshort`,
//! `store_byte/short` and their `_d16`/`_d16_hi` forms; the same through the private-segment
//! V#; `ds_read_u8/i8/u16/i16`, `ds_write_b8/b16` and their `_d16`/`_d16_hi` forms), and LDS
//! accesses of 3 or 4 dwords (`ds_read_b96/b128`, `ds_write_b96/b128`).
//!
//! Global and buffer accesses use the vector stubs' interface and the lane-by-lane path of
//! `mem_lanes.rs`: one pass for the lowest and highest address and the span check (size: the
//! access's bytes, as `vmem::access` checks them), one pass of scalar moves in lane order
//! (overlapping stores keep the highest lane's value). A failed check leaves the instruction
//! to the interpreter, which reports the fault. LDS accesses use the DS stub interface
//! (`mem_lds.rs`): one pass checks that every active lane's access lies inside the LDS (else
//! the interpreter runs it: out-of-range reads give 0, writes are dropped), one pass moves
//! the data in lane order. Each lane's address is read just before its own move, so a read
//! whose destination is its address register gives the interpreter's result.

use super::emit::{bind, Emitter, EXEC, R, W_S};
use super::mem_lds::DsShape;
use super::mem_vector::VmemShape;
use super::select::SubDword;
use super::JitCtx;
use iced_x86::code_asm::*;
use std::mem::offset_of;

const J_LDS: i32 = offset_of!(JitCtx, lds) as i32;
const J_LDS_SIZE: i32 = offset_of!(JitCtx, lds_size) as i32;

/// Moves one lane's byte or short between `host` and its dword of the data VGPR at `slot`
/// (eax is scratch): loads zero- or sign-extend to 32 bits and write the whole dword, or with
/// `d16` only one half (the value's low 16 bits); stores take the low bits of the dword, or of
/// its high half (`_d16_hi`).
pub(super) fn narrow_move(
    a: &mut CodeAssembler,
    load: bool,
    s: SubDword,
    host: AsmMemoryOperand,
    slot: AsmMemoryOperand,
) -> R<()> {
    let hi = if s.d16 == Some(true) { 2 } else { 0 };
    if load {
        match (s.bytes, s.sext) {
            (1, false) => a.movzx(eax, byte_ptr(host))?,
            (1, true) => a.movsx(eax, byte_ptr(host))?,
            (_, false) => a.movzx(eax, word_ptr(host))?,
            (_, true) => a.movsx(eax, word_ptr(host))?,
        }
        match s.d16 {
            None => a.mov(dword_ptr(slot), eax)?,
            Some(_) => a.mov(word_ptr(slot + hi), ax)?,
        }
    } else if s.bytes == 1 {
        a.mov(al, byte_ptr(slot + hi))?;
        a.mov(byte_ptr(host), al)?;
    } else {
        a.mov(ax, word_ptr(slot + hi))?;
        a.mov(word_ptr(host), ax)?;
    }
    Ok(())
}

impl Emitter<'_> {
    /// The vector-memory stub of a sub-dword `shape` (the interface of `mem_vector.rs`): the
    /// active lanes one by one.
    pub(super) fn narrow_vmem_stub(&mut self, shape: VmemShape) -> R<()> {
        let a = &mut self.a;
        let (mut top, mut ok, mut slow) = (a.create_label(), a.create_label(), a.create_label());
        a.sub(rsp, 8)?; // 16-byte alignment for the span call
        bind(a, &mut top)?;
        a.cmp(qword_ptr(rbx + (W_S + 4 * i32::from(EXEC))), 0)?;
        a.je(ok)?;
        self.scattered_lanes(shape, top, slow)?;
        let a = &mut self.a;
        a.jmp(ok)?;
        bind(a, &mut slow)?;
        a.mov(eax, 1)?;
        a.add(rsp, 8)?;
        a.ret()?;
        bind(a, &mut ok)?;
        a.xor(eax, eax)?;
        a.add(rsp, 8)?;
        a.ret()?;
        Ok(())
    }

    /// The DS stub of a sub-dword or 3-4 dword `shape` (the interface of `mem_lds.rs`, one
    /// access per lane at offset ecx).
    pub(super) fn ds_lanes_stub(&mut self, shape: DsShape) -> R<()> {
        let a = &mut self.a;
        let (mut ok, mut slow, mut out) = (a.create_label(), a.create_label(), a.create_label());
        let (mut check, mut lane) = (a.create_label(), a.create_label());
        let exec = qword_ptr(rbx + (W_S + 4 * i32::from(EXEC)));
        a.cmp(exec, 0)?;
        a.je(ok)?;
        a.mov(r9, qword_ptr(r12 + J_LDS))?;
        // r10 = size - bytes (no lane fits when negative).
        a.mov(r10, qword_ptr(r12 + J_LDS_SIZE))?;
        a.sub(r10, i32::from(shape.bytes))?;
        a.jb(slow)?;
        // rdx = the lane (the interface's second register, unused here); rbp (the instruction
        // count, saved) = its 32-bit LDS address.
        a.push(rbp)?;
        // Pass 1: every active lane's address + offset (32 bits, wrapping) <= size - bytes.
        a.mov(r11, exec)?;
        bind(a, &mut check)?;
        a.tzcnt(rdx, r11)?;
        a.mov(ebp, dword_ptr(rdi + rdx * 4))?;
        a.add(ebp, ecx)?;
        a.cmp(rbp, r10)?;
        a.ja(out)?;
        a.blsr(r11, r11)?;
        a.jnz(check)?;
        // Pass 2: the moves, lanes in order.
        a.mov(r11, exec)?;
        bind(a, &mut lane)?;
        a.tzcnt(rdx, r11)?;
        a.mov(ebp, dword_ptr(rdi + rdx * 4))?;
        a.add(ebp, ecx)?;
        match shape.sub {
            Some(s) => narrow_move(a, shape.load, s, r9 + rbp, rsi + rdx * 4)?,
            None => {
                for k in 0..i32::from(shape.bytes) / 4 {
                    let (host, reg) = (
                        dword_ptr(r9 + rbp + 4 * k),
                        dword_ptr(rsi + rdx * 4 + 256 * k),
                    );
                    if shape.load {
                        a.mov(r8d, host)?;
                        a.mov(reg, r8d)?;
                    } else {
                        a.mov(r8d, reg)?;
                        a.mov(host, r8d)?;
                    }
                }
            }
        }
        a.blsr(r11, r11)?;
        a.jnz(lane)?;
        a.pop(rbp)?;
        bind(a, &mut ok)?;
        a.xor(eax, eax)?;
        a.ret()?;
        bind(a, &mut out)?;
        a.pop(rbp)?;
        bind(a, &mut slow)?;
        a.mov(eax, 1)?;
        a.ret()?;
        Ok(())
    }
}
