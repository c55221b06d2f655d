//! Global and FLAT atomics (`global_atomic_add`, `flat_atomic_cmpswap_x2`, ...: [`VAtomic`])
//! natively. A first pass over the active lanes finds their lowest and highest address and
//! whether every one is aligned; one check of that span against the instruction's range
//! cache (`mem_vector.rs`, `site_range_check`) proves every lane's access, and a second pass
//! runs each lane's host atomic in lane order: `lock xadd` for adds and subtractions, `xchg`
//! for swaps, `lock cmpxchg` for compare-and-swap and, around the other operations' few
//! instructions (`mem_lds_atomic.rs`, `rmw32`), a compare-and-swap loop. The interpreter
//! (`exec::vmem::host_atomic`) does the same with Rust's `SeqCst` atomics: each lane's
//! operation is one indivisible host read-modify-write, a full barrier. A misaligned lane or
//! a span the cache cannot prove (lanes in two allocations, a fault) leaves the whole
//! instruction to the interpreter before any lane ran, which then faults, or not, exactly as
//! it would have. FLAT atomics take the same path: a lane in the LDS or private aperture
//! fails the range check (no allocation lies there) and so goes to the interpreter, which
//! routes it. The f32 and f64 adds of gfx908/gfx90a run as compare-and-swap loops around
//! `vaddss`/`vaddsd`; the other float atomics (packed f16/bf16 adds, f64 min and max) stay
//! with the interpreter.
//!
//! Stub interface: rdi = the address VGPR (a pair, or 32-bit offsets with `saddr`), rdx = the
//! uniform part of the address (the offset, plus the `saddr` base), rsi = the data VGPR (a
//! compare-and-swap's compare value follows it), r8 = the destination VGPR, r9d = the
//! instruction's range-cache site. Returns eax = 0 (done) or 1 (the interpreter must run it).

use super::emit::{bind, sreg64, Emitter, EXEC, R};
use super::mem_lds_atomic::{lane_qword, rmw32, rmw64, CMPSWAP};
use super::mem_vector::{address_operands, stub_returns, SITE_DELTA};
use super::select::VAtomic;
use super::stubs::Stub;
use crate::exec::vmem::AtomicOp;
use iced_x86::code_asm::*;

/// The shape of a global atomic a stub serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct VAtomicShape {
    /// The operation in `exec::ds::atomic`'s numbering ([`rmw_code`]).
    pub op: u8,
    pub wide: bool,
    /// GLC: the old value goes to the destination.
    pub rtn: bool,
    /// The address is a VGPR pair (else 32-bit offsets from `saddr`).
    pub pair: bool,
}

/// `global_atomic_add_f32` (gfx908+) in the numbering of [`rmw_code`]: an f32 add that flushes
/// denormal operands and results to signed zeros, as `exec::fatomic::apply` does.
const FLUSHED_ADD_F32: u8 = 0x1d;
/// `global_atomic_add_f64` (gfx90a+): `ds_add_f64`'s number.
const ADD_F64: u8 = 0x1c;

/// `op` in the numbering of `exec::ds::atomic` (and `mem_lds_atomic.rs`'s `rmw!`), for the
/// integer operations, and the f32 and f64 adds ([`FLUSHED_ADD_F32`], [`ADD_F64`]); `None`
/// for the other float ones (packed f16/bf16 adds, f64 min and max). (Compare-and-swap is
/// 0x10, though its operands come the other way round: data is {new value, compare value}.)
pub(super) fn rmw_code(op: AtomicOp) -> Option<u8> {
    Some(match op {
        AtomicOp::Add => 0x00,
        AtomicOp::Sub => 0x01,
        AtomicOp::Inc => 0x03,
        AtomicOp::Dec => 0x04,
        AtomicOp::Smin => 0x05,
        AtomicOp::Smax => 0x06,
        AtomicOp::Umin => 0x07,
        AtomicOp::Umax => 0x08,
        AtomicOp::And => 0x09,
        AtomicOp::Or => 0x0a,
        AtomicOp::Xor => 0x0b,
        AtomicOp::Swap => 0x0d,
        AtomicOp::CmpSwap => CMPSWAP,
        AtomicOp::AddF32 => FLUSHED_ADD_F32,
        AtomicOp::AddF64 => ADD_F64,
        _ => return None,
    })
}

impl Emitter<'_> {
    /// A global atomic: its operands to the shape's stub; the interpreter where it declines.
    pub(super) fn vatomic(&mut self, i: u32, m: &VAtomic) -> R<()> {
        let mut done = self.a.create_label();
        let slow = self.slow_callout(i, done)?;
        let site = self.sites;
        self.sites += 1;
        let a = &mut self.a;
        let vgpr = |r: u8| qword_ptr(r13 + 256 * i32::from(r));
        address_operands(a, m.vaddr, m.saddr, m.offset)?;
        a.lea(rsi, vgpr(m.data))?;
        a.lea(r8, vgpr(m.dst))?;
        a.mov(r9d, site)?;
        self.call_stub(Stub::VAtomic(VAtomicShape {
            op: m.op,
            wide: m.wide,
            rtn: m.rtn,
            pair: m.saddr.is_none(),
        }))?;
        let a = &mut self.a;
        a.test(eax, eax)?;
        a.jnz(slow)?;
        bind(a, &mut done)
    }

    /// The stub of `shape` (module docs).
    pub(super) fn vatomic_stub(&mut self, shape: VAtomicShape) -> R<()> {
        let size = if shape.wide { 8 } else { 4 };
        let a = &mut self.a;
        let mut top = a.create_label();
        let mut ok = a.create_label();
        let mut slow = a.create_label();
        // (The destination's address kept where the span call cannot clobber it; the slot
        // is also the 16-byte alignment for that call, which `stub_returns` drops.)
        a.push(r8)?;
        bind(a, &mut top)?;
        a.mov(r11, sreg64(EXEC))?;
        a.test(r11, r11)?;
        a.jz(ok)?;
        // Pass 1: rax = the lowest address, rcx = the highest, rbp = all of them or-ed (their
        // alignment).
        for r in [rbx, rbp, r12] {
            a.push(r)?;
        }
        a.mov(rax, -1i64)?;
        a.xor(ecx, ecx)?;
        a.xor(ebp, ebp)?;
        let mut lane = a.create_label();
        bind(a, &mut lane)?;
        a.tzcnt(r10, r11)?;
        lane_address(a, shape.pair)?;
        a.cmp(rbx, rax)?;
        a.cmovb(rax, rbx)?;
        a.cmp(rbx, rcx)?;
        a.cmova(rcx, rbx)?;
        a.or(rbp, rbx)?;
        a.blsr(r11, r11)?;
        a.jnz(lane)?;
        a.test(ebp, size - 1)?;
        for r in [r12, rbp, rbx] {
            a.pop(r)?;
        }
        a.jnz(slow)?;
        // The span [lowest, highest + size): a wrap past the top misses and is refused.
        a.add(rcx, size)?;
        self.site_range_check(true, false, top, slow)?;
        // Pass 2, r9 = host - GPU address.
        let a = &mut self.a;
        a.mov(r9, qword_ptr(r11 + SITE_DELTA))?;
        a.mov(r8, qword_ptr(rsp))?;
        a.mov(r11, sreg64(EXEC))?;
        for r in [rbx, rbp, r12, r13] {
            a.push(r)?;
        }
        let mut lane = a.create_label();
        bind(a, &mut lane)?;
        a.tzcnt(r10, r11)?;
        lane_address(a, shape.pair)?;
        a.add(rbx, r9)?;
        lane_atomic(a, shape)?;
        a.blsr(r11, r11)?;
        a.jnz(lane)?;
        for r in [r13, r12, rbp, rbx] {
            a.pop(r)?;
        }
        a.jmp(ok)?;
        stub_returns(a, &mut ok, &mut slow)
    }
}

/// rbx = lane r10's GPU address: its VGPR pair (`pair`) or zero-extended 32-bit offset at
/// rdi, plus the uniform part rdx (clobbers r12).
fn lane_address(a: &mut CodeAssembler, pair: bool) -> R<()> {
    match pair {
        true => lane_qword(a, rbx, ebx, rdi + r10 * 4)?,
        false => a.mov(ebx, dword_ptr(rdi + r10 * 4))?,
    }
    a.add(rbx, rdx)?;
    Ok(())
}

/// Lane r10's atomic at host address rbx (r12, r13, rbp, rax free): its data from rsi (the
/// compare value of a compare-and-swap from the VGPRs after the data), its old value to r8
/// where `shape.rtn`.
fn lane_atomic(a: &mut CodeAssembler, shape: VAtomicShape) -> R<()> {
    let n = if shape.wide { 2 } else { 1 };
    // rbp = the data; rax = the compare value (compare-and-swap).
    if shape.wide {
        lane_qword(a, rbp, ebp, rsi + r10 * 4)?;
    } else {
        a.mov(ebp, dword_ptr(rsi + r10 * 4))?;
    }
    match (shape.op, shape.wide) {
        (0x00 | 0x01, false) => {
            if shape.op == 0x01 {
                a.neg(ebp)?;
            }
            a.lock().xadd(dword_ptr(rbx), ebp)?;
        }
        (0x00 | 0x01, true) => {
            if shape.op == 0x01 {
                a.neg(rbp)?;
            }
            a.lock().xadd(qword_ptr(rbx), rbp)?;
        }
        (0x0d, false) => a.xchg(dword_ptr(rbx), ebp)?,
        (0x0d, true) => a.xchg(qword_ptr(rbx), rbp)?,
        (CMPSWAP, false) => {
            a.mov(eax, dword_ptr(rsi + r10 * 4 + 256))?;
            a.lock().cmpxchg(dword_ptr(rbx), ebp)?;
            a.mov(ebp, eax)?;
        }
        (CMPSWAP, true) => {
            lane_qword(a, rax, eax, rsi + r10 * 4 + 512)?;
            a.lock().cmpxchg(qword_ptr(rbx), rbp)?;
            a.mov(rbp, rax)?;
        }
        (FLUSHED_ADD_F32, false) => {
            // The compare-and-swap loop of `exec::fatomic::apply`: flush(flush(old) +
            // flush(data)), `vaddss old, data` giving the NaN rule of `fatomic::add_f32`.
            flush_f32(a, ebp, r12d)?;
            let mut again = a.create_label();
            a.mov(eax, dword_ptr(rbx))?;
            bind(a, &mut again)?;
            a.mov(r13d, eax)?;
            flush_f32(a, r13d, r12d)?;
            a.vmovd(xmm0, r13d)?;
            a.vmovd(xmm1, ebp)?;
            a.vaddss(xmm0, xmm0, xmm1)?;
            a.vmovd(r13d, xmm0)?;
            flush_f32(a, r13d, r12d)?;
            a.lock().cmpxchg(dword_ptr(rbx), r13d)?;
            a.jnz(again)?;
            a.mov(ebp, eax)?;
        }
        (ADD_F64, true) => {
            // `vaddsd old, data`: the NaN rule of `exec::fatomic::add_f64`.
            let mut again = a.create_label();
            a.mov(rax, qword_ptr(rbx))?;
            bind(a, &mut again)?;
            a.vmovq(xmm0, rax)?;
            a.vmovq(xmm1, rbp)?;
            a.vaddsd(xmm0, xmm0, xmm1)?;
            a.vmovq(r13, xmm0)?;
            a.lock().cmpxchg(qword_ptr(rbx), r13)?;
            a.jnz(again)?;
            a.mov(rbp, rax)?;
        }
        (op, wide) => {
            // A compare-and-swap loop: rax = the value seen, r13 = the value to write.
            let mut again = a.create_label();
            match wide {
                false => a.mov(eax, dword_ptr(rbx))?,
                true => a.mov(rax, qword_ptr(rbx))?,
            }
            bind(a, &mut again)?;
            match wide {
                false => {
                    a.mov(r13d, ebp)?;
                    rmw32(a, op, [eax, r13d, r13d, r12d], rax)?;
                    a.lock().cmpxchg(dword_ptr(rbx), r13d)?;
                }
                true => {
                    a.mov(r13, rbp)?;
                    rmw64(a, op, [rax, r13, r13, r12])?;
                    a.lock().cmpxchg(qword_ptr(rbx), r13)?;
                }
            }
            a.jnz(again)?;
            match wide {
                false => a.mov(ebp, eax)?,
                true => a.mov(rbp, rax)?,
            }
        }
    }
    if shape.rtn {
        a.mov(dword_ptr(r8 + r10 * 4), ebp)?;
        if n == 2 {
            a.shr(rbp, 32)?;
            a.mov(dword_ptr(r8 + r10 * 4 + 256), ebp)?;
        }
    }
    Ok(())
}

/// `v` = `v` with a denormal (zero exponent, nonzero fraction) flushed to the zero of its sign;
/// `t` is scratch. Zeros keep their sign either way.
fn flush_f32(a: &mut CodeAssembler, v: AsmRegister32, t: AsmRegister32) -> R<()> {
    a.mov(t, v)?;
    a.and(t, 0x8000_0000u32 as i32)?;
    a.test(v, 0x7f80_0000)?;
    a.cmovz(v, t)?;
    Ok(())
}
