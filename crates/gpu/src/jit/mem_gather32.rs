//! Scattered single-dword accesses through 32-bit lane offsets from a uniform base:
//! scratch through the private-segment buffer (`mem_buffer.rs`), whose lanes each keep their
//! own column (a private array indexed by data: a histogram's bins), and global accesses with
//! `saddr`. On AVX-512 the offsets index dword gathers and scatters directly, 16 lanes per
//! instruction; the general path (`Emitter::scattered_512`) widens every address to a qword
//! first and moves 8 lanes per instruction. On AVX2, loads gather 8 lanes per instruction and
//! stores go lane by lane, after a vector pass for the span (the general AVX2 path,
//! `mem_lanes.rs`, takes two scalar passes over the lanes; for this kernel shape the gathers
//! are faster: the `histogram` bench kernel on one core 75 → 50 ms).
//!
//! `vpgatherdd`/`vpscatterdd` sign-extend their indices; the offsets are unsigned. With the
//! base raised by 2^31 and each offset's top bit flipped (`off ^ 2^31`, which as a signed
//! number is `off - 2^31`), base + index is the lane's address for every offset.
//!
//! A 64-bit address in a VGPR pair whose active lanes share their high dword (all of a
//! kernel's buffers within one 4 GiB of the address space: a binary search, a gather through
//! an index array, a scatter by bin) is the same shape: the low dwords are 32-bit offsets from
//! (high dword << 32) + the instruction's offset. [`Emitter::uniform_high`] finds it, and the
//! paths above serve it instead of the general ones (on AVX-512: 4 dword gathers instead of 8
//! qword gathers after 64 addresses widened to qwords; on AVX2: 8 gathers instead of 64
//! scalar loads).

use super::emit::{bind, sreg64, unless_full_wave, Emitter, EXEC, R};
use super::mem_lanes::VECTOR_SPAN_LANES;
use super::mem_vector::{
    exec_byte, exec_word, group_mask_or_skip, merge_chunk, reduce_min_max_u32,
    reduce_min_max_u32_ymm, VmemShape, J_BUF_BASE, SITE_HINT,
};
use super::vx::Isa;
use iced_x86::code_asm::*;

impl Emitter<'_> {
    /// In a vector-memory stub for address pairs (rdi = the pairs, r10 = the first active
    /// lane, r15 = the EXEC byte masks on AVX2): whether every active lane's high dword is
    /// lane r10's, which it leaves in r8d (where the offsets paths' span reads it, as
    /// [`Emitter::min_max_span`] does for pairs); else on to `not`. On AVX2 also `not` for
    /// fewer active lanes than repay vector passes (`mem_lanes::VECTOR_SPAN_LANES`: the
    /// general path's span then goes lane by lane).
    pub(super) fn uniform_high(&mut self, not: CodeLabel) -> R<()> {
        let a = &mut self.a;
        match self.isa {
            Isa::Avx512 => {
                a.mov(r8d, dword_ptr(rdi + r10 * 4 + 256))?;
                a.vpbroadcastd(zmm1, r8d)?;
                a.kxorw(k4, k4, k4)?;
                for c in 0..4 {
                    a.kmovw(k1, exec_word(c))?;
                    a.vpcmpd(k2.k1(), zmm1, zmmword_ptr(rdi + (256 + 64 * c)), 4)?;
                    a.korw(k4, k4, k2)?;
                }
                a.kortestw(k4, k4)?;
                a.jnz(not)?;
            }
            Isa::Avx2 => {
                a.popcnt(rax, sreg64(EXEC))?;
                a.cmp(eax, VECTOR_SPAN_LANES)?;
                a.jb(not)?;
                a.mov(r8d, dword_ptr(rdi + r10 * 4 + 256))?;
                a.vmovd(xmm1, r8d)?;
                a.vpbroadcastd(ymm1, xmm1)?;
                a.vpxor(ymm4, ymm4, ymm4)?; // active lanes' differences so far
                for g in 0..8 {
                    a.movzx(ecx, exec_byte(g))?;
                    a.shl(ecx, 5)?;
                    a.vpxor(ymm0, ymm1, ymmword_ptr(rdi + (256 + 32 * g)))?;
                    a.vpand(ymm0, ymm0, ymmword_ptr(r15 + rcx))?;
                    a.vpor(ymm4, ymm4, ymm0)?;
                }
                a.vptest(ymm4, ymm4)?;
                a.jnz(not)?;
            }
        }
        Ok(())
    }

    /// In a vector-memory stub (AVX-512, one dword per lane, offsets: rdi = the 32-bit lane
    /// offsets, or the low dwords of address pairs whose high dword, in r8d, is uniform;
    /// rsi = the data VGPR, rdx = the uniform base, r9 = the site): the span from the
    /// active lanes' lowest and highest offset (a miss asks the checker, then `retry`, or goes
    /// to `slow`), then per chunk of 16 lanes one gather or scatter under EXEC. Chunks go in
    /// order and a scatter writes overlapping lanes from the lowest to the highest, so the
    /// highest lane's value stays, as the interpreter's.
    pub(super) fn offsets32_512(
        &mut self,
        shape: VmemShape,
        retry: CodeLabel,
        slow: CodeLabel,
    ) -> R<()> {
        let a = &mut self.a;
        a.vpternlogd(zmm2, zmm2, zmm2, 0xff)?; // minimum so far: all ones
        a.vpxord(zmm3, zmm3, zmm3)?; // maximum so far: 0
        for c in 0..4 {
            a.kmovw(k1, exec_word(c))?;
            a.vmovdqu32(zmm6, zmmword_ptr(rdi + 64 * c))?;
            a.vpminud(zmm2.k1(), zmm2, zmm6)?;
            a.vpmaxud(zmm3.k1(), zmm3, zmm6)?;
        }
        reduce_min_max_u32(a)?;
        self.min_max_span(shape, retry, slow)?;
        if !shape.load {
            return scatter_offsets_512(&mut self.a);
        }
        if shape.keep_base {
            keep_base(&mut self.a)?;
        }
        let mut done = self.a.create_label();
        self.one_address_load(done)?;
        let a = &mut self.a;
        offsets_bias(a, Isa::Avx512)?;
        for c in 0..4 {
            a.kmovw(k1, exec_word(c))?;
            a.vpxord(zmm0, zmm7, zmmword_ptr(rdi + 64 * c))?;
            a.vmovdqu32(zmm4, zmmword_ptr(rsi + 64 * c))?;
            // Inactive lanes keep the register's value (the gather leaves them).
            a.vpgatherdd(zmm4.k1(), zmmword_ptr(r8 + zmm0))?;
            a.vmovdqu32(zmmword_ptr(rsi + 64 * c), zmm4)?;
        }
        bind(a, &mut done)
    }

    /// After an offsets path's span (lane 0 of xmm2/xmm3 = the active lanes' lowest and
    /// highest offset, r8 = the host base): where they are one, a load's active lanes all
    /// read one dword (a binary search's first steps, a table entry every lane wants), which
    /// is loaded once and broadcast to them instead of gathered; then on to `done`.
    fn one_address_load(&mut self, done: CodeLabel) -> R<()> {
        let a = &mut self.a;
        let mut scattered = a.create_label();
        a.vmovd(eax, xmm2)?;
        a.vmovd(ecx, xmm3)?;
        a.cmp(eax, ecx)?;
        a.jne(scattered)?;
        match self.isa {
            Isa::Avx512 => {
                a.vpbroadcastd(zmm0, dword_ptr(r8 + rax))?;
                for c in 0..4 {
                    a.kmovw(k1, exec_word(c))?;
                    merge_chunk(a, rsi + 64 * c, zmm4, |a, t| Ok(a.vmovdqa32(t.k1(), zmm0)?))?;
                }
            }
            Isa::Avx2 => {
                a.vpbroadcastd(ymm0, dword_ptr(r8 + rax))?;
                let mut masked = a.create_label();
                unless_full_wave(a, masked)?;
                for g in 0..8 {
                    a.vmovdqu(ymmword_ptr(rsi + 32 * g), ymm0)?;
                }
                a.jmp(done)?;
                bind(a, &mut masked)?;
                for g in 0..8 {
                    a.movzx(ecx, exec_byte(g))?;
                    a.shl(ecx, 5)?;
                    a.vmovdqu(ymm5, ymmword_ptr(r15 + rcx))?;
                    a.vmovdqu(ymm4, ymmword_ptr(rsi + 32 * g))?;
                    a.vpblendvb(ymm4, ymm4, ymm0, ymm5)?;
                    a.vmovdqu(ymmword_ptr(rsi + 32 * g), ymm4)?;
                }
            }
        }
        a.jmp(done)?;
        bind(a, &mut scattered)
    }
}

impl Emitter<'_> {
    /// The AVX2 twin of [`Emitter::offsets32_512`]: the span from the offsets' minimum and
    /// maximum, 8 lanes per step; loads gather 8 lanes per instruction, stores go lane by lane
    /// in lane order (AVX2 has no scatter). r15 = the EXEC byte masks.
    pub(super) fn offsets32_avx2(
        &mut self,
        shape: VmemShape,
        retry: CodeLabel,
        slow: CodeLabel,
    ) -> R<()> {
        offsets_min_max_avx2(&mut self.a)?;
        self.min_max_span(shape, retry, slow)?;
        if !shape.load {
            return scatter_offsets_avx2(&mut self.a);
        }
        if shape.keep_base {
            keep_base(&mut self.a)?;
        }
        let a = &mut self.a;
        let mut done = a.create_label();
        self.one_address_load(done)?;
        let a = &mut self.a;
        offsets_bias(a, Isa::Avx2)?;
        let mut masked = a.create_label();
        unless_full_wave(a, masked)?;
        // All 64 lanes active: every gather under all ones (it clears its mask register).
        a.vpcmpeqd(ymm9, ymm9, ymm9)?;
        for g in 0..8 {
            a.vmovdqa(ymm5, ymm9)?;
            a.vpxor(ymm0, ymm7, ymmword_ptr(rdi + 32 * g))?;
            a.vpgatherdd_3(ymm4, ptr(r8 + ymm0), ymm5)?;
            a.vmovdqu(ymmword_ptr(rsi + 32 * g), ymm4)?;
        }
        a.jmp(done)?;
        bind(a, &mut masked)?;
        for g in 0..8 {
            let mut next = a.create_label();
            group_mask_or_skip(a, g, ymm5, next)?;
            a.vpxor(ymm0, ymm7, ymmword_ptr(rdi + 32 * g))?;
            a.vmovdqu(ymm4, ymmword_ptr(rsi + 32 * g))?;
            // Inactive lanes keep the register's value (the gather leaves them).
            a.vpgatherdd_3(ymm4, ptr(r8 + ymm0), ymm5)?;
            a.vmovdqu(ymmword_ptr(rsi + 32 * g), ymm4)?;
            bind(a, &mut next)?;
        }
        bind(a, &mut done)
    }
}

/// A store through 32-bit lane offsets (rdi) of the data at rsi to host base r8, its span
/// proved (AVX-512): one scatter per 16 lanes under EXEC, in lane order. Clobbers r8.
pub(super) fn scatter_offsets_512(a: &mut CodeAssembler) -> R<()> {
    offsets_bias(a, Isa::Avx512)?;
    for c in 0..4 {
        a.kmovw(k1, exec_word(c))?;
        a.vpxord(zmm0, zmm7, zmmword_ptr(rdi + 64 * c))?;
        a.vmovdqu32(zmm4, zmmword_ptr(rsi + 64 * c))?;
        a.vpscatterdd(zmmword_ptr(r8 + zmm0).k1(), zmm4)?;
    }
    Ok(())
}

/// [`scatter_offsets_512`] on AVX2, which has no scatter: lane by lane, in lane order.
pub(super) fn scatter_offsets_avx2(a: &mut CodeAssembler) -> R<()> {
    let mut lane = a.create_label();
    let mut done = a.create_label();
    let mut masked = a.create_label();
    // All 64 lanes active: the lanes unrolled, in order (no bit scans).
    unless_full_wave(a, masked)?;
    for l in 0..64 {
        a.mov(r11d, dword_ptr(rdi + 4 * l))?;
        a.mov(eax, dword_ptr(rsi + 4 * l))?;
        a.mov(dword_ptr(r8 + r11), eax)?;
    }
    a.jmp(done)?;
    bind(a, &mut masked)?;
    a.mov(rcx, sreg64(EXEC))?;
    bind(a, &mut lane)?;
    a.tzcnt(r10, rcx)?;
    a.mov(r11d, dword_ptr(rdi + r10 * 4))?;
    a.mov(eax, dword_ptr(rsi + r10 * 4))?;
    a.mov(dword_ptr(r8 + r11), eax)?;
    a.blsr(rcx, rcx)?;
    a.jnz(lane)?;
    bind(a, &mut done)
}

/// After a read-modify-write load's span (r8 = the host base, r11 = its site): the base for
/// the store (`buf_reuse.rs`), where the site's range is the worker's scratch backing.
fn keep_base(a: &mut CodeAssembler) -> R<()> {
    let mut other = a.create_label();
    let flag = (crate::memory::PRIVATE_SITE >> 8) as i32;
    a.test(byte_ptr(r11 + (SITE_HINT + 1)), flag)?;
    a.jz(other)?;
    a.mov(qword_ptr(r12 + J_BUF_BASE), r8)?;
    bind(a, &mut other)
}

/// In an AVX2 offsets path (rdi = the 32-bit offsets, r15 = the EXEC byte masks): lane 0 of
/// xmm2 and xmm3 = the active lanes' lowest and highest offset.
pub(super) fn offsets_min_max_avx2(a: &mut CodeAssembler) -> R<()> {
    a.vpcmpeqd(ymm9, ymm9, ymm9)?; // all ones
    a.vmovdqa(ymm2, ymm9)?; // minimum so far
    a.vpxor(ymm3, ymm3, ymm3)?; // maximum so far
    let mut masked = a.create_label();
    let mut reduce = a.create_label();
    unless_full_wave(a, masked)?;
    // All 64 lanes active: no masks, no blends.
    for g in 0..8 {
        a.vmovdqu(ymm6, ymmword_ptr(rdi + 32 * g))?;
        a.vpminud(ymm2, ymm2, ymm6)?;
        a.vpmaxud(ymm3, ymm3, ymm6)?;
    }
    a.jmp(reduce)?;
    bind(a, &mut masked)?;
    for g in 0..8 {
        a.movzx(ecx, exec_byte(g))?;
        a.shl(ecx, 5)?;
        a.vmovdqu(ymm8, ymmword_ptr(r15 + rcx))?;
        a.vmovdqu(ymm6, ymmword_ptr(rdi + 32 * g))?;
        // Inactive lanes count as all ones for the minimum and 0 for the maximum.
        a.vpblendvb(ymm7, ymm9, ymm6, ymm8)?;
        a.vpminud(ymm2, ymm2, ymm7)?;
        a.vpand(ymm7, ymm6, ymm8)?;
        a.vpmaxud(ymm3, ymm3, ymm7)?;
    }
    bind(a, &mut reduce)?;
    reduce_min_max_u32_ymm(a)
}

/// Before an offsets path's gathers or scatters: r8 (the host base) raised by 2^31 and
/// 2^31 in every dword of zmm7 (ymm7 on AVX2), which an offset is xor-ed with to make its
/// index (see the module documentation). Clobbers eax.
pub(super) fn offsets_bias(a: &mut CodeAssembler, isa: Isa) -> R<()> {
    a.mov(eax, 0x8000_0000u32)?;
    a.add(r8, rax)?;
    match isa {
        Isa::Avx512 => a.vpbroadcastd(zmm7, eax)?,
        Isa::Avx2 => {
            a.vmovd(xmm7, eax)?;
            a.vpbroadcastd(ymm7, xmm7)?;
        }
    }
    Ok(())
}
