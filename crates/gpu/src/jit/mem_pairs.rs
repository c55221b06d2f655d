//! Consecutive dword pairs on AVX2 (`global_load/store_dwordx2` of doubles, 64-bit integers
//! and pointers by consecutive lanes): the VGPR pair's two rows of dwords are interleaved
//! with the memory's qwords, 8 lanes per step. Before, AVX2 moved every pair lane by lane.
//! Each lane's aligned qword is one 8-byte element of a vector move (a single access, as the
//! lane-by-lane moves and AVX-512's path make it); inactive lanes' memory is never touched
//! (`vpmaskmovq`).

use super::emit::{bind, unless_full_wave, Emitter, R};
use super::mem_vector::{exec_byte, prefetch_ahead};
use iced_x86::code_asm::*;

impl Emitter<'_> {
    /// Consecutive dword pairs at host address r8 (8-byte aligned), the data VGPR pair at rsi.
    pub(super) fn contiguous2_avx2(&mut self, load: bool) -> R<()> {
        let a = &mut self.a;
        let (mut masked, mut done) = (a.create_label(), a.create_label());
        unless_full_wave(a, masked)?;
        prefetch_ahead(a, load, 512)?;
        for c in 0..8 {
            let (lo, hi) = (ymmword_ptr(rsi + 32 * c), ymmword_ptr(rsi + (256 + 32 * c)));
            let (q0, q1) = (ymmword_ptr(r8 + 64 * c), ymmword_ptr(r8 + (64 * c + 32)));
            if load {
                a.vmovdqu(ymm0, q0)?;
                a.vmovdqu(ymm1, q1)?;
                split(a)?;
                a.vmovdqu(lo, ymm2)?;
                a.vmovdqu(hi, ymm3)?;
            } else {
                a.vmovdqu(ymm0, lo)?;
                a.vmovdqu(ymm1, hi)?;
                join(a)?;
                a.vmovdqu(q0, ymm4)?;
                a.vmovdqu(q1, ymm5)?;
            }
        }
        a.jmp(done)?;
        bind(a, &mut masked)?;
        for c in 0..8 {
            let (lo, hi) = (ymmword_ptr(rsi + 32 * c), ymmword_ptr(rsi + (256 + 32 * c)));
            let (q0, q1) = (ymmword_ptr(r8 + 64 * c), ymmword_ptr(r8 + (64 * c + 32)));
            let mut next = a.create_label();
            a.movzx(ecx, exec_byte(c))?;
            a.test(ecx, ecx)?;
            a.jz(next)?;
            a.shl(ecx, 5)?;
            // Lanes 8c..8c+3 and 8c+4..8c+7 as qword masks, from the dword masks of their byte.
            a.vpmovsxdq(ymm6, xmmword_ptr(r15 + rcx))?;
            a.vpmovsxdq(ymm7, xmmword_ptr(r15 + rcx + 16))?;
            if load {
                a.vpmaskmovq(ymm0, ymm6, q0)?;
                a.vpmaskmovq(ymm1, ymm7, q1)?;
                split(a)?;
                a.vmovdqu(ymm6, ymmword_ptr(r15 + rcx))?;
                for (data, reg) in [(ymm2, lo), (ymm3, hi)] {
                    a.vmovdqu(ymm4, reg)?;
                    a.vpblendvb(data, ymm4, data, ymm6)?;
                    a.vmovdqu(reg, data)?;
                }
            } else {
                a.vmovdqu(ymm0, lo)?;
                a.vmovdqu(ymm1, hi)?;
                join(a)?;
                a.vpmaskmovq(q0, ymm6, ymm4)?;
                a.vpmaskmovq(q1, ymm7, ymm5)?;
            }
            bind(a, &mut next)?;
        }
        bind(a, &mut done)
    }
}

/// ymm0 = lanes 0-3's qwords `[l0 h0 l1 h1 | l2 h2 l3 h3]`, ymm1 = lanes 4-7's: ymm2 = the
/// 8 low dwords, ymm3 = the 8 high dwords.
fn split(a: &mut CodeAssembler) -> R<()> {
    a.vshufps(ymm2, ymm0, ymm1, 0x88)?; // [l0 l1 l4 l5 | l2 l3 l6 l7]
    a.vpermq(ymm2, ymm2, 0xd8)?;
    a.vshufps(ymm3, ymm0, ymm1, 0xdd)?;
    a.vpermq(ymm3, ymm3, 0xd8)?;
    Ok(())
}

/// ymm0 = 8 low dwords, ymm1 = 8 high dwords: ymm4 = lanes 0-3's qwords, ymm5 = lanes 4-7's.
fn join(a: &mut CodeAssembler) -> R<()> {
    a.vpunpckldq(ymm2, ymm0, ymm1)?; // [l0 h0 l1 h1 | l4 h4 l5 h5]
    a.vpunpckhdq(ymm3, ymm0, ymm1)?; // [l2 h2 l3 h3 | l6 h6 l7 h7]
    a.vperm2i128(ymm4, ymm2, ymm3, 0x20)?;
    a.vperm2i128(ymm5, ymm2, ymm3, 0x31)?;
    Ok(())
}
