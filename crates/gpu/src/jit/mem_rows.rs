//! The rows path of single-dword global/flat accesses on AVX2: each group of 8 lanes is
//! consecutive on its own (lane 8g+i at `base_g + 4i` in the low dwords, without a carry out
//! of them) and the high dwords are uniform. That is a 2-D work-group's rows of 8, 16 or 32
//! work-items (the stencil's, a tiled matrix product's), or a 1-D access with gaps between
//! groups. Without it, AVX2 (which has no scatters) moved such an access lane by lane
//! (`mem_lanes.rs`). The AVX-512 twin, 16 lanes per step, is `Emitter::rows_512`.

use super::emit::{bind, unless_full_wave, Emitter, R};
use super::mem_vector::{
    exec_byte, group_base, move_chunk, reduce_min_max_u32_ymm, VmemShape, LANE_OFFSETS32,
};
use iced_x86::code_asm::*;

impl Emitter<'_> {
    /// In a vector-memory stub (AVX2, one dword per lane; rdi = the address VGPRs, rsi = the
    /// data VGPR, rdx = the uniform part of the address, r9 = the site, r10 = the first
    /// active lane, r15 = the EXEC byte masks): checks that the active lanes come in rows,
    /// proves their span (a miss asks the checker, then `retry`, or goes to `slow`) and moves
    /// one group of 8 lanes at a time, in lane order (overlapping stores leave the highest
    /// lane's value, as the interpreter's). Lanes not in rows go to `general`.
    pub(super) fn rows_avx2(
        &mut self,
        shape: VmemShape,
        retry: CodeLabel,
        slow: CodeLabel,
        general: CodeLabel,
    ) -> R<()> {
        let a = &mut self.a;
        if shape.pair {
            a.mov(r8d, dword_ptr(rdi + r10 * 4 + 256))?;
            a.vmovd(xmm1, r8d)?;
            a.vpbroadcastd(ymm1, xmm1)?;
        }
        a.mov(rcx, LANE_OFFSETS32[0].as_ptr() as u64)?;
        a.vmovdqu(ymm5, ymmword_ptr(rcx))?; // 0, 4, ..., 28
        a.vpcmpeqd(ymm9, ymm9, ymm9)?; // all ones
        a.vmovdqa(ymm2, ymm9)?; // minimum so far
        a.vpxor(ymm3, ymm3, ymm3)?; // maximum so far
        let mut masked = a.create_label();
        let mut spans = a.create_label();
        unless_full_wave(a, masked)?;
        // All 64 lanes active (most waves): no group masks, no blends. ymm4 collects the
        // differences from "in row" (the lanes' dwords xor what they should be); the span
        // comes from the groups' first dwords (ymm7), each group's last being its first + 28.
        a.vpxor(ymm4, ymm4, ymm4)?;
        for g in 0..8 {
            a.vpbroadcastd(ymm7, dword_ptr(rdi + 32 * g))?;
            a.vpaddd(ymm0, ymm7, ymm5)?;
            a.vpxor(ymm0, ymm0, ymmword_ptr(rdi + 32 * g))?;
            a.vpor(ymm4, ymm4, ymm0)?;
            if shape.pair {
                a.vpxor(ymm6, ymm1, ymmword_ptr(rdi + (256 + 32 * g)))?;
                a.vpor(ymm4, ymm4, ymm6)?;
            }
            if g == 0 {
                // Scattered lanes fail in the first group: leave before the other seven.
                a.vptest(ymm4, ymm4)?;
                a.jnz(general)?;
            }
            a.vpminud(ymm2, ymm2, ymm7)?;
            a.vpmaxud(ymm3, ymm3, ymm7)?;
        }
        a.vptest(ymm4, ymm4)?;
        a.jnz(general)?;
        // No group carries out of its low dwords: each first dword at most 2^32 - 32, so the
        // largest is; then the span's last dword is that + 28.
        reduce_min_max_u32_ymm(a)?;
        a.vmovd(ecx, xmm3)?;
        a.cmp(ecx, NO_CARRY_MAX as i32)?;
        a.ja(general)?;
        a.add(ecx, 28)?;
        a.vmovd(xmm3, ecx)?;
        a.jmp(spans)?;
        bind(a, &mut masked)?;
        a.vpxor(ymm4, ymm4, ymm4)?; // active lanes out of row so far
        for g in 0..8 {
            a.movzx(ecx, exec_byte(g))?;
            a.shl(ecx, 5)?;
            a.vmovdqu(ymm8, ymmword_ptr(r15 + rcx))?; // the group's active lanes
                                                      // The base from the active lanes: an edge wave's inactive ones hold stale
                                                      // addresses.
            group_base(a, g, eax, rcx, ecx)?;
            row_group(a, g, shape.pair)?;
            a.vpandn(ymm0, ymm0, ymm8)?; // active and out of row
            a.vpor(ymm4, ymm4, ymm0)?;
            if g == 0 {
                a.vptest(ymm4, ymm4)?;
                a.jnz(general)?;
            }
            // Inactive lanes count as all ones for the minimum and 0 for the maximum.
            a.vpblendvb(ymm7, ymm9, ymm6, ymm8)?;
            a.vpminud(ymm2, ymm2, ymm7)?;
            a.vpand(ymm7, ymm6, ymm8)?;
            a.vpmaxud(ymm3, ymm3, ymm7)?;
        }
        a.vptest(ymm4, ymm4)?;
        a.jnz(general)?;
        reduce_min_max_u32_ymm(a)?;
        bind(a, &mut spans)?;
        self.rows_span(shape, retry, slow)?;
        let a = &mut self.a;
        let mut masked = a.create_label();
        let mut done = a.create_label();
        unless_full_wave(a, masked)?;
        for g in 0..8 {
            // The group's host address: its first lane's low dword, plus r8.
            a.mov(eax, dword_ptr(rdi + 32 * g))?;
            move_chunk(
                a,
                shape.load,
                ymmword_ptr(rsi + 32 * g),
                ymmword_ptr(r8 + rax),
            )?;
        }
        a.jmp(done)?;
        bind(a, &mut masked)?;
        for g in 0..8 {
            let reg = ymmword_ptr(rsi + 32 * g);
            let mut partial = a.create_label();
            let mut next = a.create_label();
            a.movzx(ecx, exec_byte(g))?;
            a.test(ecx, ecx)?;
            a.jz(next)?;
            // The group's host address: the slot of its first lane, from its first active
            // one's (the active lanes are that + 4i).
            group_base(a, g, eax, r11, r11d)?;
            a.add(rax, r8)?;
            let host = ymmword_ptr(rax);
            a.cmp(ecx, 0xff)?;
            a.jne(partial)?;
            move_chunk(a, shape.load, reg, host)?;
            a.jmp(next)?;
            bind(a, &mut partial)?;
            // Masked moves never touch an inactive lane's memory.
            a.shl(ecx, 5)?;
            a.vmovdqu(ymm3, ymmword_ptr(r15 + rcx))?;
            if shape.load {
                a.vpmaskmovd(ymm0, ymm3, host)?;
                a.vpmaskmovd(reg, ymm3, ymm0)?;
            } else {
                a.vmovdqu(ymm0, reg)?;
                a.vpmaskmovd(host, ymm3, ymm0)?;
            }
            bind(a, &mut next)?;
        }
        bind(a, &mut done)
    }
}

/// The largest first low dword of a group of 8 consecutive dwords that does not carry out
/// of its low dwords (its last is then at most 2^32 - 4).
const NO_CARRY_MAX: u32 = 0u32.wrapping_sub(32);

/// In the masked rows check (ymm5 = 0, 4, ..., 28; ymm1 = the uniform high dword for address
/// pairs; eax = the group's base, `group_base`): ymm6 = group `g`'s low dwords, ymm0 = its
/// lanes in row: the base + 4i, with the uniform high dword, and not below the base (which
/// would be a carry out of the low dword). Clobbers ymm7.
fn row_group(a: &mut CodeAssembler, g: i32, pair: bool) -> R<()> {
    a.vmovdqu(ymm6, ymmword_ptr(rdi + 32 * g))?;
    a.vmovd(xmm7, eax)?;
    a.vpbroadcastd(ymm7, xmm7)?;
    a.vpaddd(ymm0, ymm7, ymm5)?;
    a.vpcmpeqd(ymm0, ymm0, ymm6)?;
    a.vpmaxud(ymm7, ymm7, ymm6)?;
    a.vpcmpeqd(ymm7, ymm7, ymm6)?;
    a.vpand(ymm0, ymm0, ymm7)?;
    if pair {
        a.vpcmpeqd(ymm7, ymm1, ymmword_ptr(rdi + (256 + 32 * g)))?;
        a.vpand(ymm0, ymm0, ymm7)?;
    }
    Ok(())
}
