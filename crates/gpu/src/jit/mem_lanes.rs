//! Vector memory accesses lane by lane: the AVX2 stubs' path for dword accesses whose active
//! lanes are not consecutive, every stub's path for bytes and shorts (`mem_narrow.rs`), and
//! AVX2's for accesses of 2 to 4 dwords per lane that are not consecutive (or not 8-byte
//! aligned; `mem_wide.rs` moves consecutive ones), AVX2 having no scatters. One pass over the
//! active lanes finds the lowest and highest address for the span check, a second moves each
//! lane's dwords; stores go in lane order, so the highest lane wins where addresses overlap,
//! as in the other paths. With many active lanes the first pass takes vectors, and loads of
//! one, two or (8-byte aligned) four dwords, bytes and shorts gather (`vector_span`,
//! `gather_lanes`). Each naturally
//! aligned 8-byte piece of a lane's dwords is one 64-bit host access, as in the interpreter
//! (`memory::read_dwords`): another work-group's 64-bit flag-and-value word (a decoupled
//! look-back scan's) is never seen torn. When every active lane has the same dword address (a
//! uniform load), a load broadcasts it to the active lanes with masked moves and a store
//! writes the highest active lane's data.

use super::emit::{bind, sreg64, Emitter, EXEC, R};
use super::mem_vector::{exec_byte, VmemShape, SITE_DELTA};
use super::select::SubDword;
use iced_x86::code_asm::*;

impl Emitter<'_> {
    /// In a vector-memory stub (rdi = the address VGPRs, rsi = the data VGPR, rdx = the
    /// uniform part of the address, r9 = the site): serves an access of `shape` lane by lane. A failed span check asks the checker and goes to `retry`, or to `slow`.
    pub(super) fn scattered_lanes(
        &mut self,
        shape: VmemShape,
        retry: CodeLabel,
        slow: CodeLabel,
    ) -> R<()> {
        // Pass 1: r8 = the lowest address, rax = the highest: with vectors when enough
        // lanes are active to repay their fixed cost, else lane by lane.
        let a = &mut self.a;
        let (mut few, mut spanned) = (a.create_label(), a.create_label());
        a.popcnt(rax, sreg64(EXEC))?;
        a.cmp(eax, VECTOR_SPAN_LANES)?;
        a.jb(few)?;
        vector_span(a, shape.pair)?;
        a.jmp(spanned)?;
        bind(a, &mut few)?;
        a.mov(rcx, sreg64(EXEC))?;
        a.mov(r8, -1i64)?;
        a.xor(eax, eax)?;
        let mut span = a.create_label();
        a.push(rbp)?;
        bind(a, &mut span)?;
        lane_address(a, shape.pair)?;
        a.cmp(r11, r8)?;
        a.cmovb(r8, r11)?;
        a.cmp(r11, rax)?;
        a.cmova(rax, r11)?;
        a.blsr(rcx, rcx)?;
        a.jnz(span)?;
        a.pop(rbp)?;
        bind(a, &mut spanned)?;
        // Span [lowest, highest + size); a highest address within `size` of the top wraps and
        // fails.
        let size = shape
            .sub
            .map_or(4 * i32::from(shape.dwords), |s| i32::from(s.bytes));
        a.lea(rcx, qword_ptr(rax + size))?;
        a.mov(rax, r8)?;
        // r10 = size when every active lane has the same address.
        a.mov(r10, rcx)?;
        a.sub(r10, rax)?;
        self.stub_range_check(!shape.load, retry, slow)?;
        let a = &mut self.a;
        a.mov(r8, qword_ptr(r11 + SITE_DELTA))?;
        let (mut lanes, mut end) = (a.create_label(), a.create_label());
        if shape.dwords > 1 || shape.sub.is_some() {
            // (Broadcasts read dword by dword: wider accesses keep their 64-bit pieces.)
            a.jmp(lanes)?;
        }
        a.cmp(r10, size)?;
        a.jne(lanes)?;
        a.lea(r11, qword_ptr(rax + r8))?;
        if shape.load {
            for k in 0..i32::from(shape.dwords) {
                a.vpbroadcastd(ymm0, dword_ptr(r11 + 4 * k))?;
                for c in 0..8 {
                    a.movzx(eax, exec_byte(c))?;
                    a.shl(eax, 5)?;
                    a.vmovdqu(ymm3, ymmword_ptr(r15 + rax))?;
                    a.vpmaskmovd(ymmword_ptr(rsi + (256 * k + 32 * c)), ymm3, ymm0)?;
                }
            }
        } else {
            // The highest active lane's data is what stays.
            a.lzcnt(rcx, sreg64(EXEC))?;
            a.neg(rcx)?;
            a.add(rcx, 63)?;
            for k in 0..i32::from(shape.dwords) {
                a.mov(eax, dword_ptr(rsi + rcx * 4 + 256 * k))?;
                a.mov(dword_ptr(r11 + 4 * k), eax)?;
            }
        }
        a.jmp(end)?;
        // Pass 2: each active lane's dwords, at its address + the site's delta; loads of one,
        // two or four dwords by many lanes gather them.
        bind(a, &mut lanes)?;
        let narrow = shape.sub.filter(|s| s.d16.is_none());
        if shape.load && (narrow.is_some() || shape.sub.is_none() && shape.dwords != 3) {
            let mut one_by_one = a.create_label();
            if let Some(s) = narrow {
                // A byte or short is gathered as the dword at its address: that dword must be
                // inside the range the site proved too.
                a.lea(rcx, qword_ptr(rcx + (4 - i32::from(s.bytes))))?;
                a.cmp(rcx, qword_ptr(r11 + 8))?;
                a.ja(one_by_one)?;
            }
            a.popcnt(rax, sreg64(EXEC))?;
            a.cmp(eax, VECTOR_SPAN_LANES)?;
            a.jb(one_by_one)?;
            if shape.dwords == 4 {
                // Gathered as two qwords per lane: only 8-byte aligned lanes (a 4-aligned
                // lane's aligned middle qword must stay one access).
                all_aligned8(a, one_by_one)?;
            }
            gather_lanes(a, shape.pair, shape.dwords, narrow)?;
            a.jmp(end)?;
            bind(a, &mut one_by_one)?;
        }
        a.mov(rcx, sreg64(EXEC))?;
        let mut lane = a.create_label();
        a.push(rbp)?;
        bind(a, &mut lane)?;
        lane_address(a, shape.pair)?;
        a.add(r11, r8)?;
        let n = i32::from(shape.dwords);
        if let Some(s) = shape.sub {
            let host = AsmMemoryOperand::from(r11);
            super::mem_narrow::narrow_move(a, shape.load, s, host, rsi + r10 * 4)?;
        } else if n == 1 {
            lane_pieces(a, shape.load, &[(0, false)])?;
        } else {
            // The pieces by the host address's alignment: 8, 4 (dword 1 starts a qword), or
            // less (dwords only).
            let (mut at4, mut loose, mut next) =
                (a.create_label(), a.create_label(), a.create_label());
            a.test(r11b, 7)?;
            a.jnz(at4)?;
            let aligned: Vec<(i32, bool)> = (0..n).step_by(2).map(|k| (k, k + 1 < n)).collect();
            lane_pieces(a, shape.load, &aligned)?;
            a.jmp(next)?;
            bind(a, &mut at4)?;
            a.test(r11b, 3)?;
            a.jnz(loose)?;
            let mut shifted = vec![(0, false)];
            shifted.extend((1..n).step_by(2).map(|k| (k, k + 1 < n)));
            lane_pieces(a, shape.load, &shifted)?;
            a.jmp(next)?;
            bind(a, &mut loose)?;
            let dwords: Vec<(i32, bool)> = (0..n).map(|k| (k, false)).collect();
            lane_pieces(a, shape.load, &dwords)?;
            bind(a, &mut next)?;
        }
        a.blsr(rcx, rcx)?;
        a.jnz(lane)?;
        a.pop(rbp)?;
        bind(a, &mut end)
    }
}

/// Moves lane r10's dwords between host address r11 and the data VGPRs at rsi, in pieces
/// `(first dword, 64-bit)`: a 64-bit piece is one host access (rbp is scratch).
fn lane_pieces(a: &mut CodeAssembler, load: bool, pieces: &[(i32, bool)]) -> R<()> {
    let reg = |k: i32| dword_ptr(rsi + r10 * 4 + 256 * k);
    for &(k, wide) in pieces {
        match (load, wide) {
            (true, false) => {
                a.mov(eax, dword_ptr(r11 + 4 * k))?;
                a.mov(reg(k), eax)?;
            }
            (false, false) => {
                a.mov(eax, reg(k))?;
                a.mov(dword_ptr(r11 + 4 * k), eax)?;
            }
            (true, true) => {
                a.mov(rax, qword_ptr(r11 + 4 * k))?;
                a.mov(reg(k), eax)?;
                a.shr(rax, 32)?;
                a.mov(reg(k + 1), eax)?;
            }
            (false, true) => {
                a.mov(eax, reg(k))?;
                a.mov(ebp, reg(k + 1))?;
                a.shl(rbp, 32)?;
                a.or(rax, rbp)?;
                a.mov(qword_ptr(r11 + 4 * k), rax)?;
            }
        }
    }
    Ok(())
}

/// Active lanes from which pass 1 takes vectors: about 230 instructions for a wave against
/// 12 per lane one by one.
pub(super) const VECTOR_SPAN_LANES: i32 = 20;

/// r8 = the lowest and rax = the highest of the active lanes' addresses (the VGPR dwords at
/// rdi, or pairs, plus rdx), four lanes at a time as qwords (ymm0-ymm7 are scratch). AVX2
/// compares qwords signed only: an unsigned order is the signed order of the values with their
/// top bit flipped, and since adding 2^63 flips it, the flipped address of a lane is its
/// VGPR value + (rdx ^ 2^63), with the same wrap as the lane-by-lane sum.
fn vector_span(a: &mut CodeAssembler, pair: bool) -> R<()> {
    a.mov(rax, i64::MIN)?;
    a.vmovq(xmm6, rax)?;
    a.vpbroadcastq(ymm6, xmm6)?; // flipped 0: the highest so far
    a.xor(rax, rdx)?;
    a.vmovq(xmm1, rax)?;
    a.vpbroadcastq(ymm1, xmm1)?;
    a.vpcmpeqd(ymm2, ymm2, ymm2)?;
    a.vpxor(ymm2, ymm2, ymm6)?; // flipped all-ones: the lowest so far
    a.vmovdqa(ymm3, ymm6)?;
    for g in 0..16 {
        if g % 2 == 0 {
            a.movzx(eax, exec_byte(g / 2))?;
            a.shl(eax, 5)?;
        }
        // The four lanes' EXEC bits as qword masks, from the dword masks of their byte.
        a.vpmovsxdq(ymm4, xmmword_ptr(r15 + rax + 16 * (g % 2)))?;
        lane_qwords(a, ymm0, ymm5, pair, 16 * g)?;
        a.vpaddq(ymm0, ymm0, ymm1)?;
        a.vpcmpgtq(ymm5, ymm2, ymm0)?;
        a.vpand(ymm5, ymm5, ymm4)?;
        a.vblendvpd(ymm2, ymm2, ymm0, ymm5)?;
        a.vpcmpgtq(ymm5, ymm0, ymm3)?;
        a.vpand(ymm5, ymm5, ymm4)?;
        a.vblendvpd(ymm3, ymm3, ymm0, ymm5)?;
    }
    // Four candidates each, then two, then one.
    for (r, x, max) in [(ymm2, xmm2, false), (ymm3, xmm3, true)] {
        a.vextracti128(xmm5, r, 1)?;
        for step in [false, true] {
            if step {
                a.vpshufd(xmm5, x, 0x4e)?;
            }
            if max {
                a.vpcmpgtq(xmm4, xmm5, x)?;
            } else {
                a.vpcmpgtq(xmm4, x, xmm5)?;
            }
            a.vblendvpd(x, x, xmm5, xmm4)?;
        }
    }
    a.vmovq(r8, xmm2)?;
    a.btc(r8, 63)?;
    a.vmovq(rax, xmm3)?;
    a.btc(rax, 63)?;
    Ok(())
}

/// Jumps to `not` unless every active lane's host address (its low VGPR dword + rdx + the
/// delta in r8) is 8-byte aligned; ymm0, ymm1 and ecx are scratch.
fn all_aligned8(a: &mut CodeAssembler, not: CodeLabel) -> R<()> {
    a.lea(ecx, dword_ptr(rdx + r8))?;
    a.vmovd(xmm0, ecx)?;
    a.vpbroadcastd(ymm0, xmm0)?;
    for c in 0..8 {
        a.movzx(ecx, exec_byte(c))?;
        a.shl(ecx, 5)?;
        a.vmovdqu(ymm1, ymmword_ptr(rdi + 32 * c))?;
        a.vpand(ymm1, ymm1, ymmword_ptr(r15 + rcx))?;
        a.vpor(ymm0, ymm0, ymm1)?;
    }
    a.mov(ecx, 7)?;
    a.vmovd(xmm1, ecx)?;
    a.vpbroadcastd(ymm1, xmm1)?;
    a.vptest(ymm0, ymm1)?;
    a.jnz(not)?;
    Ok(())
}

/// `dst` = the addresses of the four lanes at byte `at` of the address VGPRs (rdi) as
/// qwords: their low dwords, with the high dwords for pairs (`tmp` is scratch).
fn lane_qwords(
    a: &mut CodeAssembler,
    dst: AsmRegisterYmm,
    tmp: AsmRegisterYmm,
    pair: bool,
    at: i32,
) -> R<()> {
    a.vpmovzxdq(dst, xmmword_ptr(rdi + at))?;
    if pair {
        a.vpmovzxdq(tmp, xmmword_ptr(rdi + (256 + at)))?;
        a.vpsllq(tmp, tmp, 32)?;
        a.vpor(dst, dst, tmp)?;
    }
    Ok(())
}

/// Pass 2 of a load of one, two or four dwords per lane (`dwords`), or of a byte or short
/// widened to a dword (`narrow`), the span checked and r8 = the site's delta: per 8 lanes two
/// gathers of 4 lanes each (four for four dwords: their qwords at the address and 8 past it)
/// under EXEC (the lanes' qword addresses index from rdx + delta; an inactive
/// lane reads nothing), the data blended into the VGPRs under EXEC. A group's addresses are
/// read before its data is written, so a load into its own address VGPRs is exact. Each lane
/// of a two-dword load is one 8-byte element, a single access where it is aligned, as the
/// lane-by-lane moves make it; a four-dword lane is two, which the caller allows only when
/// every active lane is 8-byte aligned (`all_aligned8`). A narrow lane reads the dword at its address (the caller
/// checked that it lies in the proven range) and keeps its low byte or short.
fn gather_lanes(a: &mut CodeAssembler, pair: bool, dwords: u8, narrow: Option<SubDword>) -> R<()> {
    a.add(r8, rdx)?;
    for c in 0..8 {
        let mut next = a.create_label();
        a.movzx(eax, exec_byte(c))?;
        a.test(eax, eax)?;
        a.jz(next)?;
        a.shl(eax, 5)?;
        // Lanes 8c..8c+3 into ymm0 (xmm0 for dwords), 8c+4..8c+7 into ymm1 (xmm1).
        for h in 0..2 {
            let (dst, dstx) = if h == 0 { (ymm0, xmm0) } else { (ymm1, xmm1) };
            lane_qwords(a, ymm6, ymm7, pair, 32 * c + 16 * h)?;
            if dwords == 4 {
                // Dwords 0-1 into ymm0/ymm1, dwords 2-3 into ymm2/ymm3.
                a.vpmovsxdq(ymm5, xmmword_ptr(r15 + rax + 16 * h))?;
                a.vmovdqa(ymm7, ymm5)?; // (a gather clears its mask)
                a.vpgatherqq_3(dst, ptr(r8 + ymm6), ymm5)?;
                let hi = if h == 0 { ymm2 } else { ymm3 };
                a.vpgatherqq_3(hi, ptr(r8 + ymm6 + 8), ymm7)?;
            } else if dwords == 2 {
                a.vpmovsxdq(ymm5, xmmword_ptr(r15 + rax + 16 * h))?;
                a.vpgatherqq_3(dst, ptr(r8 + ymm6), ymm5)?;
            } else {
                a.vmovdqu(xmm5, xmmword_ptr(r15 + rax + 16 * h))?;
                a.vpgatherqd_3(dstx, ptr(r8 + ymm6), xmm5)?;
            }
        }
        // The rows of dwords 0, 1, ... of the 8 lanes.
        let rows: &[AsmRegisterYmm] = match dwords {
            4 => {
                super::mem_wide::to_rows(a, 2)?;
                a.vmovdqa(ymm8, ymm0)?;
                a.vmovdqa(ymm9, ymm1)?;
                a.vmovdqa(ymm0, ymm2)?;
                a.vmovdqa(ymm1, ymm3)?;
                super::mem_wide::to_rows(a, 2)?;
                &[ymm8, ymm9, ymm0, ymm1]
            }
            2 => {
                super::mem_wide::to_rows(a, 2)?;
                &[ymm0, ymm1]
            }
            _ => {
                a.vinserti128(ymm0, ymm0, xmm1, 1)?;
                &[ymm0]
            }
        };
        a.vmovdqu(ymm5, ymmword_ptr(r15 + rax))?;
        if let Some(s) = narrow {
            let bits = 32 - 8 * u32::from(s.bytes);
            a.vpslld(ymm0, ymm0, bits)?;
            if s.sext {
                a.vpsrad(ymm0, ymm0, bits)?;
            } else {
                a.vpsrld(ymm0, ymm0, bits)?;
            }
        }
        for (k, &data) in (0..).zip(rows) {
            let m = 256 * k + 32 * c;
            a.vmovdqu(ymm2, ymmword_ptr(rsi + m))?;
            a.vpblendvb(data, ymm2, data, ymm5)?;
            a.vmovdqu(ymmword_ptr(rsi + m), data)?;
        }
        bind(a, &mut next)?;
    }
    Ok(())
}

/// r11 = the address of the lowest lane left in rcx (r10 = that lane): its VGPR dword(s) plus
/// the uniform part rdx (rbp is scratch: the caller saved it).
fn lane_address(a: &mut CodeAssembler, pair: bool) -> R<()> {
    a.tzcnt(r10, rcx)?;
    a.mov(r11d, dword_ptr(rdi + r10 * 4))?;
    if pair {
        a.mov(ebp, dword_ptr(rdi + r10 * 4 + 256))?;
        a.shl(rbp, 32)?;
        a.or(r11, rbp)?;
    }
    a.add(r11, rdx)?;
    Ok(())
}
