//! Consecutive lanes' accesses of 2 and 4 dwords on AVX2 (`global_load/store_dwordx2` of
//! doubles, 64-bit integers and pointers, `dwordx4` of `float4`/`int4` vectors): the data
//! VGPRs' rows of dwords are transposed with the memory's lanes, 8 lanes per step. Before,
//! AVX2 moved them lane by lane. Each lane's aligned qwords are 8-byte elements of vector
//! moves (single accesses, as the lane-by-lane moves and AVX-512's paths make them); inactive
//! lanes' memory is never touched (masked loads; a partly active step's stores lane by lane).

use super::emit::{bind, unless_full_wave, Emitter, R};
use super::mem_vector::{exec_byte, prefetch_ahead};
use super::vx::{yr, V};
use iced_x86::code_asm::*;

/// `vpermd` indices taking `[0 2 4 6 | 1 3 5 7]` to lane order.
static UNZIP: [u32; 8] = [0, 4, 1, 5, 2, 6, 3, 7];

impl Emitter<'_> {
    /// Consecutive lanes' `dwords` (2 or 4) at host address r8 (8-byte aligned), the data
    /// VGPRs from rsi.
    pub(super) fn contiguous_wide_avx2(&mut self, load: bool, dwords: u8) -> R<()> {
        let a = &mut self.a;
        let n = i32::from(dwords);
        // The 8 lanes of step c: memory at r8 + 32n * c in n ymm moves, VGPR k at rsi + 256 k.
        let mem = |c: i32, j: i32| ymmword_ptr(r8 + (32 * n * c + 32 * j));
        let reg = |c: i32, k: i32| ymmword_ptr(rsi + (256 * k + 32 * c));
        if dwords == 4 && load {
            a.mov(rax, UNZIP.as_ptr() as u64)?;
            a.vmovdqu(ymm15, ymmword_ptr(rax))?;
        }
        let (mut masked, mut done) = (a.create_label(), a.create_label());
        unless_full_wave(a, masked)?;
        prefetch_ahead(a, load, 256 * n, self.far_prefetch)?;
        for c in 0..8 {
            full_step(a, load, dwords, c)?;
        }
        a.jmp(done)?;
        bind(a, &mut masked)?;
        for c in 0..8 {
            let mut next = a.create_label();
            a.movzx(ecx, exec_byte(c))?;
            a.test(ecx, ecx)?;
            a.jz(next)?;
            if load {
                a.shl(ecx, 5)?;
                // The qword masks of memory move j (its lanes' EXEC bits, each repeated for
                // the lane's qwords), from the dword masks of the step's 8 lanes.
                for j in 0..n {
                    let m = ymm(8 + j);
                    let half = if dwords == 2 { 16 * j } else { 16 * (j / 2) };
                    a.vpmovsxdq(m, xmmword_ptr(r15 + rcx + half))?;
                    if dwords == 4 {
                        a.vpermq(m, m, if j % 2 == 0 { 0x50 } else { 0xfa })?;
                    }
                }
                for j in 0..n {
                    a.vpmaskmovq(ymm(j), ymm(8 + j), mem(c, j))?;
                }
                to_rows(a, dwords)?;
                a.vmovdqu(ymm8, ymmword_ptr(r15 + rcx))?;
                for k in 0..n {
                    a.vmovdqu(ymm9, reg(c, k))?;
                    a.vpblendvb(ymm(k), ymm9, ymm(k), ymm8)?;
                    a.vmovdqu(reg(c, k), ymm(k))?;
                }
            } else {
                // 8 active lanes: vector stores; fewer: lane by lane (a masked store,
                // `vpmaskmovq`, costs more than the active lanes' qword moves on AMD's cores).
                let (mut lane, mut some) = (a.create_label(), a.create_label());
                a.cmp(ecx, 0xff)?;
                a.jne(some)?;
                full_step(a, false, dwords, c)?;
                a.jmp(next)?;
                bind(a, &mut some)?;
                bind(a, &mut lane)?;
                a.tzcnt(r10d, ecx)?;
                a.mov(r11d, r10d)?;
                a.shl(r11d, if dwords == 2 { 3 } else { 4 })?;
                for k in (0..n).step_by(2) {
                    a.mov(eax, dword_ptr(rsi + r10 * 4 + (256 * k + 32 * c)))?;
                    a.mov(edx, dword_ptr(rsi + r10 * 4 + (256 * (k + 1) + 32 * c)))?;
                    a.shl(rdx, 32)?;
                    a.or(rax, rdx)?;
                    a.mov(qword_ptr(r8 + r11 + (32 * n * c + 4 * k)), rax)?;
                }
                a.blsr(ecx, ecx)?;
                a.jnz(lane)?;
            }
            bind(a, &mut next)?;
        }
        bind(a, &mut done)
    }
}

/// Step `c` (8 lanes, all active) of a consecutive access of `dwords` per lane: plain moves
/// between memory at r8 and the data VGPRs at rsi, transposed.
fn full_step(a: &mut CodeAssembler, load: bool, dwords: u8, c: i32) -> R<()> {
    let n = i32::from(dwords);
    let mem = |j: i32| ymmword_ptr(r8 + (32 * n * c + 32 * j));
    let reg = |k: i32| ymmword_ptr(rsi + (256 * k + 32 * c));
    if load {
        for j in 0..n {
            a.vmovdqu(ymm(j), mem(j))?;
        }
        to_rows(a, dwords)?;
        for k in 0..n {
            a.vmovdqu(reg(k), ymm(k))?;
        }
    } else {
        for k in 0..n {
            a.vmovdqu(ymm(k), reg(k))?;
        }
        to_lanes(a, dwords)?;
        for j in 0..n {
            a.vmovdqu(mem(j), ymm(j))?;
        }
    }
    Ok(())
}

/// ymm register `i` (0-15).
fn ymm(i: i32) -> AsmRegisterYmm {
    yr(V(i as u8))
}

/// 8 lanes' `dwords` (2 or 4) as memory holds them, in ymm0.. (lane by lane, `dwords` per
/// lane) -> one row per dword in ymm0.. (dword k of lanes 0-7 in ymm k); ymm4-ymm7 are
/// scratch, ymm15 holds [`UNZIP`] for 4 dwords.
pub(super) fn to_rows(a: &mut CodeAssembler, dwords: u8) -> R<()> {
    if dwords == 2 {
        // [l0 h0 l1 h1 | l2 h2 l3 h3] and lanes 4-7 alike: low dwords, then high.
        a.vshufps(ymm4, ymm0, ymm1, 0x88)?; // [l0 l1 l4 l5 | l2 l3 l6 l7]
        a.vpermq(ymm4, ymm4, 0xd8)?;
        a.vshufps(ymm5, ymm0, ymm1, 0xdd)?;
        a.vpermq(ymm1, ymm5, 0xd8)?;
        a.vmovdqa(ymm0, ymm4)?;
        return Ok(());
    }
    // Lanes (0,1), (2,3), (4,5), (6,7) of x y z w.
    a.vpunpckldq(ymm4, ymm0, ymm1)?; // [x0 x2 y0 y2 | x1 x3 y1 y3]
    a.vpunpckhdq(ymm5, ymm0, ymm1)?; // [z0 z2 w0 w2 | z1 z3 w1 w3]
    a.vpunpckldq(ymm6, ymm2, ymm3)?; // [x4 x6 y4 y6 | x5 x7 y5 y7]
    a.vpunpckhdq(ymm7, ymm2, ymm3)?; // [z4 z6 w4 w6 | z5 z7 w5 w7]
    a.vpunpcklqdq(ymm0, ymm4, ymm6)?; // [x0 x2 x4 x6 | x1 x3 x5 x7]
    a.vpunpckhqdq(ymm1, ymm4, ymm6)?;
    a.vpunpcklqdq(ymm2, ymm5, ymm7)?;
    a.vpunpckhqdq(ymm3, ymm5, ymm7)?;
    for k in 0..4 {
        a.vpermd(ymm(k), ymm15, ymm(k))?;
    }
    Ok(())
}

/// The inverse of [`to_rows`]: rows in ymm0.. -> 8 lanes as memory holds them in ymm0..;
/// ymm4-ymm7 are scratch.
pub(super) fn to_lanes(a: &mut CodeAssembler, dwords: u8) -> R<()> {
    if dwords == 2 {
        a.vpunpckldq(ymm4, ymm0, ymm1)?; // [l0 h0 l1 h1 | l4 h4 l5 h5]
        a.vpunpckhdq(ymm5, ymm0, ymm1)?; // [l2 h2 l3 h3 | l6 h6 l7 h7]
        a.vperm2i128(ymm0, ymm4, ymm5, 0x20)?;
        a.vperm2i128(ymm1, ymm4, ymm5, 0x31)?;
        return Ok(());
    }
    a.vpunpckldq(ymm4, ymm0, ymm1)?; // [x0 y0 x1 y1 | x4 y4 x5 y5]
    a.vpunpckhdq(ymm5, ymm0, ymm1)?; // [x2 y2 x3 y3 | x6 y6 x7 y7]
    a.vpunpckldq(ymm6, ymm2, ymm3)?; // [z0 w0 z1 w1 | z4 w4 z5 w5]
    a.vpunpckhdq(ymm7, ymm2, ymm3)?; // [z2 w2 z3 w3 | z6 w6 z7 w7]
    a.vpunpcklqdq(ymm0, ymm4, ymm6)?; // lanes 0 | 4
    a.vpunpckhqdq(ymm1, ymm4, ymm6)?; // lanes 1 | 5
    a.vpunpcklqdq(ymm2, ymm5, ymm7)?; // lanes 2 | 6
    a.vpunpckhqdq(ymm3, ymm5, ymm7)?; // lanes 3 | 7
    a.vperm2i128(ymm4, ymm0, ymm1, 0x20)?; // lanes 0, 1
    a.vperm2i128(ymm5, ymm2, ymm3, 0x20)?; // lanes 2, 3
    a.vperm2i128(ymm6, ymm0, ymm1, 0x31)?; // lanes 4, 5
    a.vperm2i128(ymm7, ymm2, ymm3, 0x31)?; // lanes 6, 7
    for k in 0..4 {
        a.vmovdqa(ymm(k), ymm(4 + k))?;
    }
    Ok(())
}
