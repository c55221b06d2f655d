//! Scratch through MUBUF: `buffer_load_dword` / `buffer_store_dword` on the private-segment
//! V# (private arrays, register spills, every variable of -O0 code), natively.
//!
//! The ABI's private-segment V# is swizzled with ADD_TID_ENABLE, an index stride of 64 and
//! element size 4, stride 0 (`wave::private_vsharp`): lane l's dword at offset o (soffset +
//! its VGPR offset + the immediate) is at `base + soffset + (o & !3) * 64 + 4 l + (o & 3)`
//! (`exec::mubuf::BufAccess::address`), never out of range. So with a uniform offset the lanes
//! are consecutive, and per-lane offsets give 32-bit lane offsets from a uniform base: the
//! shape of a global access with `saddr`, which the global stubs already serve (consecutive,
//! rows, gathers and scatters, the range cache, the interpreter when a check fails).
//!
//! The generated code checks the V#'s shape at run time (SGPRs can hold any V#): swizzled,
//! stride 0, ADD_TID_ENABLE, index stride 64. Any other V#, or a lane offset of 2^24 or more
//! (whose swizzled offset would not fit 32 bits), leaves the instruction to the interpreter.

use super::emit::{bind, sreg32, Emitter, R, W_S};
use super::mem_vector::{exec_byte, exec_word, LANE_OFFSETS32};
use super::select::{BufAddr, VmemInst};
use super::vx::{xr, yr, zr, Isa, V};
use super::JitCtx;
use crate::exec::operand::Src;
use iced_x86::code_asm::*;
use std::mem::offset_of;

pub(super) const J_BUF_OFFSETS: i32 = offset_of!(JitCtx, buf_offsets) as i32;

/// V# word 1: SWIZZLE_ENABLE (bit 31) and STRIDE (bits 16-29); CACHE_SWIZZLE and the base's
/// high bits do not matter.
const W1_MASK: u32 = 0xbfff_0000;
const W1_WANT: u32 = 0x8000_0000;
/// V# word 3: ADD_TID_ENABLE (bit 23) and INDEX_STRIDE (bits 21-22, 3 = 64 lanes).
const W3_MASK: u32 = 0x00e0_0000;
const W3_WANT: u32 = 0x00e0_0000;
/// Lane offsets at or above this leave the instruction to the interpreter.
const OFFSET_LIMIT: u32 = 1 << 24;

/// The swizzled part of byte offset `o` for lane 0 (`(o & !3) * 64 + (o & 3)`).
pub(super) const fn swizzled(o: u32) -> u32 {
    (o & !3) << 6 | o & 3
}

impl Emitter<'_> {
    /// Sets a buffer access up for a global stub of shape `saddr`: rdx = the V#'s base +
    /// soffset (+ the swizzled immediate offset when uniform), rdi = the lanes' 32-bit offsets
    /// (lane l's swizzled offset + 4 l). Jumps to `slow` for a V# of another shape or an
    /// offset out of reach.
    pub(super) fn buffer_address(&mut self, m: &VmemInst, b: BufAddr, slow: CodeLabel) -> R<()> {
        let isa = self.isa;
        let a = &mut self.a;
        a.mov(eax, sreg32(b.rsrc + 1))?;
        a.and(eax, W1_MASK as i32)?;
        a.cmp(eax, W1_WANT as i32)?;
        a.jne(slow)?;
        a.mov(eax, sreg32(b.rsrc + 3))?;
        a.and(eax, W3_MASK as i32)?;
        a.cmp(eax, W3_WANT as i32)?;
        a.jne(slow)?;
        // rdx = the 48-bit base (word 0, low half of word 1) + soffset (32 bits, unsigned).
        a.movzx(edx, word_ptr(rbx + (W_S + 4 * i32::from(b.rsrc + 1))))?;
        a.shl(rdx, 32)?;
        a.mov(eax, sreg32(b.rsrc))?;
        a.or(rdx, rax)?;
        match b.soffset {
            Src::S(s) => {
                a.mov(eax, sreg32(s))?;
                a.add(rdx, rax)?;
            }
            Src::Imm(v) => {
                a.mov(eax, v as u32)?;
                a.add(rdx, rax)?;
            }
            _ => return Err(super::emit::err("buffer soffset")),
        }
        let imm = m.offset as u32;
        if !b.offen {
            // Every lane at the same offset: consecutive dwords.
            a.add(rdx, swizzled(imm) as i32)?;
            a.mov(rdi, LANE_OFFSETS32[0].as_ptr() as u64)?;
            return Ok(());
        }
        let vaddr = i32::from(m.vaddr);
        let src = r13 + 256 * vaddr;
        // The lanes' offsets are checked against the limit all at once, inactive lanes
        // included (an or of every offset, one test): a wave with an inactive lane's stale
        // offset out of reach checks again under EXEC, out of line. With a dword-aligned
        // immediate, offsets that are dword-aligned too (every dword access of compiled
        // code) swizzle with one shift; the or tests their alignment as well, and any other
        // offset has the lanes' offsets computed again in full, out of line.
        let aligned = imm.is_multiple_of(4);
        let mut checked = a.create_label();
        let mut recheck = a.create_label();
        a.mov(rcx, LANE_OFFSETS32[0].as_ptr() as u64)?;
        let test_mask = !(OFFSET_LIMIT - 1) | if aligned { 3 } else { 0 };
        a.mov(eax, test_mask)?;
        broadcast(a, isa, 1, eax)?;
        if !aligned || imm != 0 {
            a.mov(eax, imm)?;
            broadcast(a, isa, 2, eax)?;
        }
        if aligned {
            lane_offsets(a, isa, src, imm != 0, Swizzle::Aligned)?;
        } else {
            a.mov(eax, 3)?;
            broadcast(a, isa, 3, eax)?;
            lane_offsets(a, isa, src, true, Swizzle::Any)?;
        }
        match isa {
            Isa::Avx512 => {
                a.vptestmd(k2, zmm5, zmm1)?;
                a.kortestw(k2, k2)?;
                a.jnz(recheck)?;
            }
            Isa::Avx2 => {
                a.vptest(ymm5, ymm1)?;
                a.jnz(recheck)?;
            }
        }
        bind(a, &mut checked)?;
        self.cold(move |e| {
            let a = &mut e.a;
            bind(a, &mut recheck)?;
            let src = r13 + 256 * vaddr;
            if aligned {
                // Some lane's offset (perhaps an inactive one's) is not dword-aligned: the
                // offsets again, in full.
                a.mov(eax, imm)?;
                broadcast(a, isa, 2, eax)?;
                a.mov(eax, 3)?;
                broadcast(a, isa, 3, eax)?;
                lane_offsets(a, isa, src, true, Swizzle::Any)?;
            }
            // The active lanes alone against the limit.
            a.mov(eax, !(OFFSET_LIMIT - 1))?;
            broadcast(a, isa, 1, eax)?;
            match isa {
                Isa::Avx512 => {
                    for c in 0..4 {
                        a.kmovw(k1, exec_word(c))?;
                        a.vptestmd(k2.k1(), zmm1, zmmword_ptr(src + 64 * c))?;
                        a.kortestw(k2, k2)?;
                        a.jnz(slow)?;
                    }
                }
                Isa::Avx2 => {
                    for c in 0..8 {
                        a.movzx(eax, exec_byte(c))?;
                        a.shl(eax, 5)?;
                        a.vmovdqu(ymm5, ymmword_ptr(r15 + rax))?;
                        a.vpand(ymm4, ymm1, ymmword_ptr(src + 32 * c))?;
                        a.vptest(ymm4, ymm5)?;
                        a.jnz(slow)?;
                    }
                }
            }
            Ok(a.jmp(checked)?)
        });
        let a = &mut self.a;
        a.lea(rdi, qword_ptr(r12 + J_BUF_OFFSETS))?;
        Ok(())
    }
}

/// How [`lane_offsets`] swizzles an offset `o`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Swizzle {
    /// `o` is dword-aligned: `o << 6`.
    Aligned,
    /// Any `o`: `(o & !3) << 6 | o & 3` (vector register 3 holds 3).
    Any,
}

/// Broadcasts `src` to vector register `v` (zmm on AVX-512, ymm on AVX2).
fn broadcast(a: &mut CodeAssembler, isa: Isa, v: u8, src: AsmRegister32) -> R<()> {
    match isa {
        Isa::Avx512 => a.vpbroadcastd(zr(V(v)), src)?,
        Isa::Avx2 => {
            a.vmovd(xr(V(v)), src)?;
            a.vpbroadcastd(yr(V(v)), xr(V(v)))?;
        }
    }
    Ok(())
}

/// Writes the lanes' 32-bit offsets (swizzled offset + 4 l, from the VGPR at `src`, plus the
/// immediate in vector register 2 when `add_imm`) to `JitCtx::buf_offsets`, and leaves the
/// or of the raw offsets in vector register 5 (rcx = the lane offsets table).
fn lane_offsets(
    a: &mut CodeAssembler,
    isa: Isa,
    src: AsmMemoryOperand,
    add_imm: bool,
    swizzle: Swizzle,
) -> R<()> {
    let (n, w) = match isa {
        Isa::Avx512 => (4, 64),
        Isa::Avx2 => (8, 32),
    };
    // Vector registers: 0 the offsets, 2 the immediate, 3 the constant 3, 4 the low bits,
    // 5 the or.
    let any = swizzle == Swizzle::Any;
    for c in 0..n {
        match isa {
            Isa::Avx512 => {
                let (t, imm, three, low, or) = (zmm0, zmm2, zmm3, zmm4, zmm5);
                if c == 0 {
                    a.vpxord(or, or, or)?;
                }
                a.vmovdqu32(t, zmmword_ptr(src + w * c))?;
                a.vpord(or, or, t)?;
                if add_imm {
                    a.vpaddd(t, t, imm)?;
                }
                if any {
                    a.vpandd(low, t, three)?;
                    a.vpandnd(t, three, t)?;
                }
                a.vpslld(t, t, 6)?;
                if any {
                    a.vpord(t, t, low)?;
                }
                a.vpaddd(t, t, zmmword_ptr(rcx + w * c))?;
                a.vmovdqu32(zmmword_ptr(r12 + (J_BUF_OFFSETS + w * c)), t)?;
            }
            Isa::Avx2 => {
                let (t, imm, three, low, or) = (ymm0, ymm2, ymm3, ymm4, ymm5);
                if c == 0 {
                    a.vpxor(or, or, or)?;
                }
                a.vmovdqu(t, ymmword_ptr(src + w * c))?;
                a.vpor(or, or, t)?;
                if add_imm {
                    a.vpaddd(t, t, imm)?;
                }
                if any {
                    a.vpand(low, t, three)?;
                    a.vpandn(t, three, t)?;
                }
                a.vpslld(t, t, 6)?;
                if any {
                    a.vpor(t, t, low)?;
                }
                a.vpaddd(t, t, ymmword_ptr(rcx + w * c))?;
                a.vmovdqu(ymmword_ptr(r12 + (J_BUF_OFFSETS + w * c)), t)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::smem::BufferRsrc;
    use crate::wave::private_vsharp;

    /// The V# shape the generated code accepts is the ABI's private-segment V#, and the
    /// swizzled offsets plus 4 l give the interpreter's addresses (`BufAccess::address`'s
    /// formula for index l and offset o) for offsets up to the limit.
    #[test]
    fn private_vsharp_shape_and_offsets() {
        let v = private_vsharp(0x7f12_3456_7000);
        assert_eq!(v[1] & W1_MASK, W1_WANT);
        assert_eq!(v[3] & W3_MASK, W3_WANT);
        let r = BufferRsrc::from_words(v);
        assert!(r.swizzle && r.add_tid && r.stride == 0 && r.index_stride == 64);
        for o in [0u32, 1, 3, 4, 7, 100, 4095, OFFSET_LIMIT - 1 + 4095] {
            for l in [0u32, 1, 17, 63] {
                let (stride_lanes, esize) = (u64::from(r.index_stride), 4u64);
                let (o, l64) = (u64::from(o), u64::from(l));
                let want = (l64 / stride_lanes * u64::from(r.stride) + o / esize * esize)
                    * stride_lanes
                    + l64 % stride_lanes * esize
                    + o % esize;
                assert_eq!(u64::from(swizzled(o as u32) + 4 * l), want, "o {o} l {l}");
            }
        }
    }
}
