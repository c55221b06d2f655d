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
use super::vx::Isa;
use super::JitCtx;
use crate::exec::operand::Src;
use iced_x86::code_asm::*;
use std::mem::offset_of;

const J_BUF_OFFSETS: i32 = offset_of!(JitCtx, buf_offsets) as i32;

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
        // offset out of reach checks again under EXEC, out of line.
        let mut checked = a.create_label();
        let mut recheck = a.create_label();
        a.mov(rcx, LANE_OFFSETS32[0].as_ptr() as u64)?;
        a.mov(eax, !(OFFSET_LIMIT - 1))?;
        match isa {
            Isa::Avx512 => {
                a.vpbroadcastd(zmm1, eax)?;
                a.mov(eax, imm)?;
                a.vpbroadcastd(zmm2, eax)?;
                a.mov(eax, 3)?;
                a.vpbroadcastd(zmm3, eax)?;
                a.vpxord(zmm5, zmm5, zmm5)?;
                for c in 0..4 {
                    a.vmovdqu32(zmm0, zmmword_ptr(src + 64 * c))?;
                    a.vpord(zmm5, zmm5, zmm0)?;
                    a.vpaddd(zmm0, zmm0, zmm2)?;
                    a.vpandd(zmm4, zmm0, zmm3)?;
                    a.vpandnd(zmm0, zmm3, zmm0)?;
                    a.vpslld(zmm0, zmm0, 6)?;
                    a.vpord(zmm0, zmm0, zmm4)?;
                    a.vpaddd(zmm0, zmm0, zmmword_ptr(rcx + 64 * c))?;
                    a.vmovdqu32(zmmword_ptr(r12 + (J_BUF_OFFSETS + 64 * c)), zmm0)?;
                }
                a.vptestmd(k2, zmm5, zmm1)?;
                a.kortestw(k2, k2)?;
                a.jnz(recheck)?;
            }
            Isa::Avx2 => {
                a.vmovd(xmm1, eax)?;
                a.vpbroadcastd(ymm1, xmm1)?;
                a.mov(eax, imm)?;
                a.vmovd(xmm2, eax)?;
                a.vpbroadcastd(ymm2, xmm2)?;
                a.mov(eax, 3)?;
                a.vmovd(xmm3, eax)?;
                a.vpbroadcastd(ymm3, xmm3)?;
                a.vpxor(ymm5, ymm5, ymm5)?;
                for c in 0..8 {
                    a.vmovdqu(ymm0, ymmword_ptr(src + 32 * c))?;
                    a.vpor(ymm5, ymm5, ymm0)?;
                    a.vpaddd(ymm0, ymm0, ymm2)?;
                    a.vpand(ymm4, ymm0, ymm3)?;
                    a.vpandn(ymm0, ymm3, ymm0)?;
                    a.vpslld(ymm0, ymm0, 6)?;
                    a.vpor(ymm0, ymm0, ymm4)?;
                    a.vpaddd(ymm0, ymm0, ymmword_ptr(rcx + 32 * c))?;
                    a.vmovdqu(ymmword_ptr(r12 + (J_BUF_OFFSETS + 32 * c)), ymm0)?;
                }
                a.vptest(ymm5, ymm1)?;
                a.jnz(recheck)?;
            }
        }
        bind(a, &mut checked)?;
        self.cold(move |e| {
            // The active lanes alone (zmm1/ymm1 still hold the limit's mask).
            let a = &mut e.a;
            bind(a, &mut recheck)?;
            let src = r13 + 256 * vaddr;
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
