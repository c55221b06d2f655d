//! LDS atomics (`ds_add_u32`, `ds_max_rtn_i64`, `ds_cmpst_b32`, `ds_add_f32`, ...: [`DsAtomic`])
//! natively:
//! after one check that every active lane's address lies inside the LDS (else the interpreter
//! runs the instruction, whose out-of-range lanes read 0 and drop their writes), a loop over
//! the active lanes in lane order reads each lane's old value, computes the new one with a few
//! scalar instructions and writes it back, and for `_rtn` puts the old value in the lane's
//! destination: what the interpreter's lane loop does (`exec::ds`), so lanes that hit one
//! address see each other's results in the same order. Only the runner of the work-group
//! touches its LDS, so the moves need no lock. A histogram in shared memory spends most of
//! its time here; the call-out to the interpreter it replaces cost several times the loop.
//!
//! Stub interface: rdi = the address VGPR, rsi = data0's, rdx = data1's, r8 = the destination
//! VGPR, ecx = the byte offset. Returns eax = 0 (done) or 1 (the interpreter must run it).

use super::emit::{bind, err, sreg64, Emitter, EXEC, R};
use super::mem_lds::{ds_stub_returns, lds_range_512, lds_stub_start};
use super::select::DsAtomic;
use super::stubs::Stub;
use super::vx::Isa;
use iced_x86::code_asm::*;

/// Compare-and-swap in the numbering of [`rmw!`] (`exec::ds::atomic`'s): `ds_cmpst`, and the
/// global atomics' `cmpswap` (`mem_atomic.rs`).
pub(super) const CMPSWAP: u8 = 0x10;
/// `ds_mskor`: (old & !data0) | data1.
const MSKOR: u8 = 0x0c;
/// `ds_add_f32`: `vaddss old, data0`, whose NaN rule (the memory value's NaN first, quieted)
/// the interpreter's `exec::fatomic::add_f32` pins; MXCSR is the default while waves run
/// (`fpenv`), so denormals stay and the rounding is to nearest even in both engines.
pub(super) const ADD_F32: u8 = 0x15;

/// Whether LDS atomic `op` reads a second data operand (`data1`).
pub(super) fn reads_data1(op: u8) -> bool {
    op == MSKOR || op == CMPSWAP
}

/// The shape of an LDS atomic a stub serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct DsAtomicShape {
    /// [`DsAtomic::op`].
    pub op: u8,
    pub wide: bool,
    pub rtn: bool,
}

impl Emitter<'_> {
    /// An LDS atomic: its operands' VGPRs to the shape's stub; the interpreter where it
    /// declines.
    pub(super) fn ds_atomic(&mut self, i: u32, d: &DsAtomic) -> R<()> {
        let mut done = self.a.create_label();
        let slow = self.slow_callout(i, done)?;
        let a = &mut self.a;
        let vgpr = |r: u8| qword_ptr(r13 + 256 * i32::from(r));
        a.lea(rdi, vgpr(d.addr))?;
        a.lea(rsi, vgpr(d.data0))?;
        a.lea(rdx, vgpr(d.data1))?;
        a.lea(r8, vgpr(d.dst))?;
        a.mov(ecx, d.offset)?;
        self.call_stub(Stub::DsAtomic(DsAtomicShape {
            op: d.op,
            wide: d.wide,
            rtn: d.rtn,
        }))?;
        let a = &mut self.a;
        a.test(eax, eax)?;
        a.jnz(slow)?;
        bind(a, &mut done)
    }

    /// The stub of `shape` (module docs).
    pub(super) fn ds_atomic_stub(&mut self, shape: DsAtomicShape) -> R<()> {
        let bytes = if shape.wide { 8 } else { 4 };
        let a = &mut self.a;
        let mut ok = a.create_label();
        let mut slow = a.create_label();
        lds_stub_start(a, bytes, ok, slow)?;
        match self.isa {
            Isa::Avx512 => lds_range_512(a, 1, slow)?,
            Isa::Avx2 => {
                a.vmovd(xmm1, r10d)?;
                a.vpbroadcastd(ymm1, xmm1)?;
                self.lds_range_avx2(ecx, slow)?;
            }
        }
        let a = &mut self.a;
        a.mov(r11, sreg64(EXEC))?;
        // rbx (the wave, not needed past EXEC), rbp, r12 and r13 (the context and the VGPRs:
        // the operands come as addresses) hold the values.
        for r in [rbx, rbp, r12, r13] {
            a.push(r)?;
        }
        let mut lane = a.create_label();
        bind(a, &mut lane)?;
        a.tzcnt(rax, r11)?;
        // 32-bit LDS address: both registers hold zero-extended dwords.
        a.mov(r10d, dword_ptr(rdi + rax * 4))?;
        a.add(r10d, ecx)?;
        match shape.wide {
            false => {
                a.mov(ebp, dword_ptr(r9 + r10))?;
                if shape.op == ADD_F32 {
                    a.vmovd(xmm0, ebp)?;
                    a.vaddss(xmm0, xmm0, dword_ptr(rsi + rax * 4))?;
                    a.vmovd(ebx, xmm0)?;
                } else {
                    a.mov(ebx, dword_ptr(rsi + rax * 4))?;
                    if reads_data1(shape.op) {
                        a.mov(r13d, dword_ptr(rdx + rax * 4))?;
                    }
                    rmw32(a, shape.op, [ebp, ebx, r13d, r12d], rbp)?;
                }
                a.mov(dword_ptr(r9 + r10), ebx)?;
                if shape.rtn {
                    a.mov(dword_ptr(r8 + rax * 4), ebp)?;
                }
            }
            true => {
                a.mov(rbp, qword_ptr(r9 + r10))?;
                lane_qword(a, rbx, ebx, rsi + rax * 4)?;
                if reads_data1(shape.op) {
                    lane_qword(a, r13, r13d, rdx + rax * 4)?;
                }
                rmw64(a, shape.op, [rbp, rbx, r13, r12])?;
                a.mov(qword_ptr(r9 + r10), rbx)?;
                if shape.rtn {
                    a.mov(dword_ptr(r8 + rax * 4), ebp)?;
                    a.shr(rbp, 32)?;
                    a.mov(dword_ptr(r8 + rax * 4 + 256), ebp)?;
                }
            }
        }
        a.blsr(r11, r11)?;
        a.jnz(lane)?;
        for r in [r13, r12, rbp, rbx] {
            a.pop(r)?;
        }
        ds_stub_returns(a, &mut ok, &mut slow)
    }
}

/// `to` = the 64-bit operand of a lane whose low dword is at `low` in a VGPR and whose high
/// dword is at the same lane of the next VGPR (256 bytes on); `to32` is `to`'s low half.
/// Clobbers r12.
pub(super) fn lane_qword(
    a: &mut CodeAssembler,
    to: AsmRegister64,
    to32: AsmRegister32,
    low: AsmMemoryOperand,
) -> R<()> {
    a.mov(to32, dword_ptr(low))?;
    a.mov(r12d, dword_ptr(low + 256))?;
    a.shl(r12, 32)?;
    a.or(to, r12)?;
    Ok(())
}

/// Emits one lane's read-modify-write `op` (`exec::ds::atomic`'s numbering, of the subset
/// `select` passes; also the global atomics', `mem_atomic.rs`) on registers of one width:
/// `old` (kept; `old64` its full register), `new` (data0 on entry, the value to store on
/// exit), `d1` (data1, where the op reads it), `t` (scratch). A macro because iced's 32- and
/// 64-bit registers are distinct types.
macro_rules! rmw {
    ($a:expr, $op:expr, $old:expr, $old64:expr, $new:expr, $d1:expr, $t:expr) => {{
        let a = $a;
        let (old, old64, new, d1, t) = ($old, $old64, $new, $d1, $t);
        match $op {
            0x00 => a.add(new, old)?,
            0x01 => {
                a.neg(new)?;
                a.add(new, old)?;
            }
            0x02 => a.sub(new, old)?,
            // inc: old < d0 ? old + 1 : 0
            0x03 => {
                a.cmp(old, new)?;
                // (All ones where old < d0, else 0.)
                a.sbb(new, new)?;
                a.lea(t, ptr(old64 + 1))?;
                a.and(new, t)?;
            }
            // dec: old == 0 || old > d0 ? d0 : old - 1
            0x04 => {
                a.lea(t, ptr(old64 - 1))?;
                a.cmp(new, old)?;
                a.cmovb(t, new)?;
                a.test(old, old)?;
                a.cmovz(t, new)?;
                a.mov(new, t)?;
            }
            0x05..=0x08 => {
                a.cmp(old, new)?;
                match $op {
                    0x05 => a.cmovl(new, old)?,
                    0x06 => a.cmovg(new, old)?,
                    0x07 => a.cmovb(new, old)?,
                    _ => a.cmova(new, old)?,
                }
            }
            0x09 => a.and(new, old)?,
            0x0a => a.or(new, old)?,
            0x0b => a.xor(new, old)?,
            // mskor: (old & !d0) | d1
            MSKOR => {
                a.andn(new, new, old)?;
                a.or(new, d1)?;
            }
            // wrxchg: d0
            0x0d => {}
            // cmpst: old == d0 ? d1 : old
            CMPSWAP => {
                a.cmp(old, new)?;
                a.mov(new, old)?;
                a.cmove(new, d1)?;
            }
            _ => return Err(err("an atomic select does not pass")),
        }
        Ok(())
    }};
}

/// [`rmw!`] on dwords.
pub(super) fn rmw32(
    a: &mut CodeAssembler,
    op: u8,
    [old, new, d1, t]: [AsmRegister32; 4],
    old64: AsmRegister64,
) -> R<()> {
    rmw!(a, op, old, old64, new, d1, t)
}

/// [`rmw!`] on qwords.
pub(super) fn rmw64(a: &mut CodeAssembler, op: u8, [old, new, d1, t]: [AsmRegister64; 4]) -> R<()> {
    rmw!(a, op, old, old, new, d1, t)
}
