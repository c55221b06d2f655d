//! Scattered two-dword loads on AVX2 (`global_load_dwordx2` through an index: a double or a
//! float2 per lane, rocSPARSE's `x[col[j]]` in double) where the address pairs' high dwords
//! are uniform over the active lanes, so the low dwords are 32-bit offsets from one base
//! (`mem_gather32.rs`, [`Emitter::uniform_high`]). The general AVX2 path moves such lanes one
//! by one after a scalar pass for the span; here each group of 8 lanes is two `vpgatherdq`
//! of 4 qwords, split into the two data VGPRs. Every active lane's address must be 8-byte
//! aligned, so that each qword moves as one element (single-copy atomicity,
//! `docs/MEMORY_MODEL.md`); otherwise the general path, which splits them as the interpreter
//! does.

use super::emit::{bind, Emitter, R};
use super::mem_gather32::{offsets_bias, offsets_min_max_avx2};
use super::mem_vector::{exec_byte, group_mask_or_skip, VmemShape};
use super::vx::Isa;
use iced_x86::code_asm::*;

impl Emitter<'_> {
    /// In a vector-memory stub (AVX2, a load of two dwords per lane through address pairs
    /// whose high dword, in r8d, is uniform over the active lanes; rdi = the pairs, rsi = the
    /// data VGPRs, rdx = the uniform part, r9 = the site, r15 = the EXEC byte masks): a lane
    /// whose address is not 8-byte aligned goes to `not`; else the span from the lowest and
    /// highest offset (a miss asks the checker, then `retry`, or goes to `slow`), then per
    /// group of 8 lanes two gathers under EXEC, their qwords' low dwords into the first data
    /// VGPR and their high dwords into the second (inactive lanes keep theirs).
    pub(super) fn offsets_x2_load_avx2(
        &mut self,
        shape: VmemShape,
        retry: CodeLabel,
        slow: CodeLabel,
        not: CodeLabel,
    ) -> R<()> {
        let a = &mut self.a;
        // Lane l's address is (high dword << 32) + low dword + rdx: its low 3 bits are those
        // of the 32-bit sum low dword + edx.
        a.vmovd(xmm6, edx)?;
        a.vpbroadcastd(ymm6, xmm6)?;
        a.mov(eax, 7)?;
        a.vmovd(xmm7, eax)?;
        a.vpbroadcastd(ymm7, xmm7)?;
        a.vpxor(ymm4, ymm4, ymm4)?; // active lanes' misaligned bits so far
        for g in 0..8 {
            a.movzx(ecx, exec_byte(g))?;
            a.shl(ecx, 5)?;
            a.vpaddd(ymm0, ymm6, ymmword_ptr(rdi + 32 * g))?;
            a.vpand(ymm0, ymm0, ymm7)?;
            a.vpand(ymm0, ymm0, ymmword_ptr(r15 + rcx))?;
            a.vpor(ymm4, ymm4, ymm0)?;
        }
        a.vptest(ymm4, ymm4)?;
        a.jnz(not)?;
        offsets_min_max_avx2(a)?;
        self.min_max_span(shape, retry, slow)?;
        let a = &mut self.a;
        // (Indices = offsets ^ 2^31 from the base raised by 2^31.)
        offsets_bias(a, Isa::Avx2)?;
        for g in 0..8 {
            let mut next = a.create_label();
            group_mask_or_skip(a, g, ymm5, next)?; // the group's active lanes
            a.vpxor(ymm0, ymm7, ymmword_ptr(rdi + 32 * g))?;
            a.vextracti128(xmm1, ymm0, 1)?;
            // Qword masks of lanes 0-3 and 4-7 (a gather clears its mask).
            a.vpmovsxdq(ymm8, xmm5)?;
            a.vextracti128(xmm9, ymm5, 1)?;
            a.vpmovsxdq(ymm9, xmm9)?;
            a.vpxor(ymm2, ymm2, ymm2)?;
            a.vpgatherdq_3(ymm2, ptr(r8 + xmm0), ymm8)?;
            a.vpxor(ymm3, ymm3, ymm3)?;
            a.vpgatherdq_3(ymm3, ptr(r8 + xmm1), ymm9)?;
            // Low dwords of lanes 0-1, 4-5 | 2-3, 6-7 (per 128-bit half), then in lane order.
            a.vshufps(ymm0, ymm2, ymm3, 0x88)?;
            a.vpermq(ymm0, ymm0, 0xd8)?;
            a.vshufps(ymm1, ymm2, ymm3, 0xdd)?;
            a.vpermq(ymm1, ymm1, 0xd8)?;
            for (v, new) in [(0, ymm0), (256, ymm1)] {
                let reg = ymmword_ptr(rsi + (v + 32 * g));
                a.vmovdqu(ymm10, reg)?;
                a.vpblendvb(ymm10, ymm10, new, ymm5)?;
                a.vmovdqu(reg, ymm10)?;
            }
            bind(a, &mut next)?;
        }
        Ok(())
    }
}
