//! Global and flat loads and stores of 1, 2 or 4 dwords per lane, wave-wide.
//!
//! The common case is decided with 32-bit compares: the active lanes' addresses are
//! consecutive (lane l at `base + size * l`, no carry between the address halves), so the
//! access is one span check and masked vector moves (fault suppression keeps inactive lanes
//! from touching memory). Otherwise, on AVX-512, the addresses are built as qwords, their
//! span is checked from their minimum and maximum, and gathers and scatters move the data
//! (scatters write in lane order, as the interpreter does, so the highest lane wins where
//! lanes overlap). AVX2 runs the consecutive case natively and leaves the rest to the
//! interpreter. Every naturally aligned 8-byte piece of a multi-dword access moves as one
//! 8-byte element (single-copy atomicity, `docs/MEMORY_MODEL.md`); a multi-dword access that
//! is not 8-byte aligned goes to the interpreter.

use super::emit::{bind, sreg64, Emitter, EXEC, R, W_S, W_UNFENCED};
use super::select::VmemInst;
use super::vx::{zr, Isa, V};
use crate::wave::UNFENCED_VECTOR;
use iced_x86::code_asm::*;

/// Byte offsets `size * lane` of the 64 lanes, as dwords and as qwords (sizes 4, 8, 16).
static LANE_OFFSETS32: [[u32; 64]; 3] = lane_offsets32();
static LANE_OFFSETS64: [[u64; 64]; 3] = lane_offsets64();

const fn lane_offsets32() -> [[u32; 64]; 3] {
    let mut t = [[0u32; 64]; 3];
    let mut s = 0;
    while s < 3 {
        let mut l = 0;
        while l < 64 {
            t[s][l] = (4 << s) * l as u32;
            l += 1;
        }
        s += 1;
    }
    t
}

const fn lane_offsets64() -> [[u64; 64]; 3] {
    let mut t = [[0u64; 64]; 3];
    let mut s = 0;
    while s < 3 {
        let mut l = 0;
        while l < 64 {
            t[s][l] = (4 << s) * l as u64;
            l += 1;
        }
        s += 1;
    }
    t
}

fn size_index(dwords: u8) -> usize {
    match dwords {
        1 => 0,
        2 => 1,
        _ => 2,
    }
}

/// The chunk's EXEC bits: 16 (AVX-512 chunk c) at byte 2c.
fn exec_word(c: i32) -> AsmMemoryOperand {
    word_ptr(rbx + (W_S + 4 * i32::from(EXEC) + 2 * c))
}

/// EXEC bits of lanes 8g..8g+7.
fn exec_byte(g: i32) -> AsmMemoryOperand {
    byte_ptr(rbx + (W_S + 4 * i32::from(EXEC) + g))
}

/// VGPR `r`, byte offset `off` in its 256 bytes.
fn vgpr_at(r: u8, off: i32) -> AsmMemoryOperand {
    ptr(r13 + (256 * i32::from(r) + off))
}

impl Emitter<'_> {
    /// A global/flat load or store.
    pub(super) fn vmem(&mut self, i: u32, m: &VmemInst) -> R<()> {
        let isa = self.isa;
        let size = 4 * i32::from(m.dwords);
        let a = &mut self.a;
        let mut retry = a.create_label();
        let mut done = a.create_label();
        let mut scattered = a.create_label();
        bind(a, &mut retry)?;
        a.mov(rdx, sreg64(EXEC))?;
        a.test(rdx, rdx)?;
        a.jz(done)?;
        // First active lane f (r10), last active lane (r11).
        a.tzcnt(r10, rdx)?;
        a.lzcnt(r11, rdx)?;
        a.neg(r11)?;
        a.add(r11, 63)?;
        // Lane f's address dwords: low in ecx, high (address pairs) in esi.
        a.mov(ecx, dword_ptr(r13 + r10 * 4 + 256 * i32::from(m.vaddr)))?;
        if m.saddr.is_none() {
            a.mov(
                esi,
                dword_ptr(r13 + r10 * 4 + 256 * i32::from(m.vaddr.wrapping_add(1))),
            )?;
        }
        // Consecutive lanes have low dwords base_lo + size * lane, all inside 32 bits:
        // r9 = base_lo = lo_f - size*f >= 0, and base_lo + size*last <= u32::MAX.
        a.imul_3(r8, r10, size)?;
        a.mov(r9, rcx)?;
        a.sub(r9, r8)?;
        a.jb(scattered)?;
        a.imul_3(rdi, r11, size)?;
        a.add(rdi, r9)?;
        a.mov(eax, u32::MAX)?;
        a.cmp(rdi, rax)?;
        a.ja(scattered)?;
        self.contiguity(m, scattered)?;
        // r8 = lane 0's slot address: (high dword or saddr base) + base_lo + offset.
        let a = &mut self.a;
        match m.saddr {
            Some(s) => a.mov(r8, sreg64(s))?,
            None => {
                a.mov(r8, rsi)?;
                a.shl(r8, 32)?;
            }
        }
        a.add(r8, r9)?;
        if m.offset != 0 {
            a.add(r8, m.offset)?;
        }
        // Span [r8 + size*f, r8 + size*(last+1)).
        a.imul_3(rax, r10, size)?;
        a.add(rax, r8)?;
        a.lea(rcx, qword_ptr(r11 + 1))?;
        a.imul_3(rcx, rcx, size)?;
        a.add(rcx, r8)?;
        let delta = self.range_check(i, !m.load, retry, done)?;
        self.a.add(r8, delta)?;
        if m.dwords > 1 {
            let slow = self.slow_callout(i, done)?;
            self.a.test(r8b, 7)?;
            self.a.jnz(slow)?;
        }
        let a = &mut self.a;
        if !m.load {
            a.or(byte_ptr(rbx + W_UNFENCED), i32::from(UNFENCED_VECTOR))?;
        }
        match (isa, m.dwords) {
            (Isa::Avx512, 1) => self.contiguous1_512(m)?,
            (Isa::Avx512, 2) => self.contiguous2_512(m)?,
            (Isa::Avx512, _) => {
                self.a.mov(r9, LANE_OFFSETS64[2].as_ptr() as u64)?;
                self.gather_scatter_512(m, true)?;
            }
            (Isa::Avx2, 1) => self.contiguous1_avx2(m)?,
            (Isa::Avx2, _) => {
                let slow = self.slow_callout(i, done)?;
                self.a.jmp(slow)?;
            }
        }
        self.a.jmp(done)?;
        bind(&mut self.a, &mut scattered)?;
        match isa {
            Isa::Avx512 if m.load || m.dwords < 4 => self.scattered_512(i, m, retry, done)?,
            _ => {
                let slow = self.slow_callout(i, done)?;
                self.a.jmp(slow)?;
            }
        }
        bind(&mut self.a, &mut done)?;
        Ok(())
    }

    /// Jumps to `scattered` unless every active lane's low address dword is r9d + size * lane
    /// (and, for address pairs, its high dword is esi).
    fn contiguity(&mut self, m: &VmemInst, scattered: CodeLabel) -> R<()> {
        let table = LANE_OFFSETS32[size_index(m.dwords)].as_ptr() as u64;
        let pair = m.saddr.is_none();
        let a = &mut self.a;
        a.mov(rcx, table)?;
        match self.isa {
            Isa::Avx512 => {
                a.vpbroadcastd(zmm0, r9d)?;
                a.vpbroadcastd(zmm1, esi)?;
                for c in 0..4 {
                    a.kmovw(k1, exec_word(c))?;
                    a.vpaddd(zmm2, zmm0, zmmword_ptr(rcx + 64 * c))?;
                    a.vpcmpd(k2.k1(), zmm2, zmmword_ptr(vgpr_at(m.vaddr, 64 * c)), 4)?;
                    if pair {
                        let hi = vgpr_at(m.vaddr.wrapping_add(1), 64 * c);
                        a.vpcmpd(k3.k1(), zmm1, zmmword_ptr(hi), 4)?;
                        a.korw(k2, k2, k3)?;
                    }
                    a.kortestw(k2, k2)?;
                    a.jnz(scattered)?;
                }
            }
            Isa::Avx2 => {
                a.vmovd(xmm0, r9d)?;
                a.vpbroadcastd(ymm0, xmm0)?;
                a.vmovd(xmm1, esi)?;
                a.vpbroadcastd(ymm1, xmm1)?;
                for c in 0..8 {
                    a.movzx(edx, exec_byte(c))?;
                    a.shl(edx, 5)?;
                    a.vmovdqu(ymm3, ymmword_ptr(r15 + rdx))?;
                    a.vpaddd(ymm2, ymm0, ymmword_ptr(rcx + 32 * c))?;
                    a.vpcmpeqd(ymm2, ymm2, ymmword_ptr(vgpr_at(m.vaddr, 32 * c)))?;
                    if pair {
                        let hi = vgpr_at(m.vaddr.wrapping_add(1), 32 * c);
                        a.vpcmpeqd(ymm4, ymm1, ymmword_ptr(hi))?;
                        a.vpand(ymm2, ymm2, ymm4)?;
                    }
                    // CF = every active lane matched.
                    a.vptest(ymm2, ymm3)?;
                    a.jae(scattered)?;
                }
            }
        }
        Ok(())
    }

    /// Consecutive dwords at host address r8 (AVX-512): masked moves, 16 lanes at a time.
    fn contiguous1_512(&mut self, m: &VmemInst) -> R<()> {
        let a = &mut self.a;
        for c in 0..4 {
            a.kmovw(k1, exec_word(c))?;
            let reg = zmmword_ptr(vgpr_at(m.data, 64 * c));
            let host = zmmword_ptr(r8 + 64 * c);
            if m.load {
                a.vmovdqu32(zmm0.k1().z(), host)?;
                a.vmovdqu32(reg.k1(), zmm0)?;
            } else {
                a.vmovdqu32(zmm0, reg)?;
                a.vmovdqu32(host.k1(), zmm0)?;
            }
        }
        Ok(())
    }

    /// Consecutive dword pairs at host address r8 (AVX-512): 8 lanes' qwords at a time.
    fn contiguous2_512(&mut self, m: &VmemInst) -> R<()> {
        let a = &mut self.a;
        let (lo, hi) = (m.data, m.data.wrapping_add(1));
        for g in 0..8 {
            a.kmovb(k1, exec_byte(g))?;
            let host = zmmword_ptr(r8 + 64 * g);
            if m.load {
                a.vmovdqu64(zmm0.k1().z(), host)?;
                a.vpmovqd(ymm1, zmm0)?;
                a.vpsrlq(zmm0, zmm0, 32)?;
                a.vpmovqd(ymm2, zmm0)?;
                a.vmovdqu32(ymmword_ptr(vgpr_at(lo, 32 * g)).k1(), ymm1)?;
                a.vmovdqu32(ymmword_ptr(vgpr_at(hi, 32 * g)).k1(), ymm2)?;
            } else {
                a.vpmovzxdq(zmm0, ymmword_ptr(vgpr_at(lo, 32 * g)))?;
                a.vpmovzxdq(zmm1, ymmword_ptr(vgpr_at(hi, 32 * g)))?;
                a.vpsllq(zmm1, zmm1, 32)?;
                a.vporq(zmm0, zmm0, zmm1)?;
                a.vmovdqu64(host.k1(), zmm0)?;
            }
        }
        Ok(())
    }

    /// Consecutive dwords at host address r8 (AVX2): 8 lanes at a time, plain moves when all
    /// 8 are active, `vpmaskmovd` (which never touches inactive lanes' memory) otherwise.
    fn contiguous1_avx2(&mut self, m: &VmemInst) -> R<()> {
        let a = &mut self.a;
        for c in 0..8 {
            let reg = ymmword_ptr(vgpr_at(m.data, 32 * c));
            let host = ymmword_ptr(r8 + 32 * c);
            let mut partial = a.create_label();
            let mut next = a.create_label();
            a.movzx(edx, exec_byte(c))?;
            a.cmp(edx, 0xff)?;
            a.jne(partial)?;
            if m.load {
                a.vmovdqu(ymm0, host)?;
                a.vmovdqu(reg, ymm0)?;
            } else {
                a.vmovdqu(ymm0, reg)?;
                a.vmovdqu(host, ymm0)?;
            }
            a.jmp(next)?;
            bind(a, &mut partial)?;
            a.test(edx, edx)?;
            a.jz(next)?;
            a.shl(edx, 5)?;
            a.vmovdqu(ymm3, ymmword_ptr(r15 + rdx))?;
            if m.load {
                a.vpmaskmovd(ymm0, ymm3, host)?;
                a.vpmaskmovd(reg, ymm3, ymm0)?;
            } else {
                a.vmovdqu(ymm0, reg)?;
                a.vpmaskmovd(host, ymm3, ymm0)?;
            }
            bind(a, &mut next)?;
        }
        Ok(())
    }

    /// Per-lane addresses (AVX-512): lanes 8g..8g+7 as qwords in zmm16+g.
    fn addresses_512(&mut self, m: &VmemInst) -> R<()> {
        let a = &mut self.a;
        match m.saddr {
            Some(s) => a.mov(rax, sreg64(s))?,
            None => a.xor(eax, eax)?,
        }
        if m.offset != 0 {
            a.add(rax, m.offset)?;
        }
        a.vpbroadcastq(zmm1, rax)?;
        for g in 0..8 {
            let d = zr(V(16 + g as u8));
            a.vpmovzxdq(d, ymmword_ptr(vgpr_at(m.vaddr, 32 * g)))?;
            if m.saddr.is_none() {
                a.vpmovzxdq(zmm0, ymmword_ptr(vgpr_at(m.vaddr.wrapping_add(1), 32 * g)))?;
                a.vpsllq(zmm0, zmm0, 32)?;
                a.vporq(d, d, zmm0)?;
            }
            a.vpaddq(d, d, zmm1)?;
        }
        Ok(())
    }

    /// Scattered lanes (AVX-512): span from the minimum and maximum active address, then
    /// gathers or scatters.
    fn scattered_512(&mut self, i: u32, m: &VmemInst, retry: CodeLabel, done: CodeLabel) -> R<()> {
        self.addresses_512(m)?;
        let a = &mut self.a;
        a.vpternlogq(zmm2, zmm2, zmm2, 0xff)?; // min so far: all ones
        a.vpxorq(zmm3, zmm3, zmm3)?; // max so far: 0
        for g in 0..8 {
            let s = zr(V(16 + g as u8));
            a.kmovb(k1, exec_byte(g))?;
            a.vpminuq(zmm2.k1(), zmm2, s)?;
            a.vpmaxuq(zmm3.k1(), zmm3, s)?;
        }
        for (r, ymm, xmm) in [(zmm2, ymm2, xmm2), (zmm3, ymm3, xmm3)] {
            a.vextracti64x4(ymm5, r, 1)?;
            if r == zmm2 {
                a.vpminuq(ymm, ymm, ymm5)?;
            } else {
                a.vpmaxuq(ymm, ymm, ymm5)?;
            }
            a.vextracti128(xmm5, ymm, 1)?;
            if r == zmm2 {
                a.vpminuq(xmm, xmm, xmm5)?;
            } else {
                a.vpmaxuq(xmm, xmm, xmm5)?;
            }
            a.vpshufd(xmm5, xmm, 0x4e)?;
            if r == zmm2 {
                a.vpminuq(xmm, xmm, xmm5)?;
            } else {
                a.vpmaxuq(xmm, xmm, xmm5)?;
            }
        }
        a.vmovq(rax, xmm2)?;
        a.vmovq(rcx, xmm3)?;
        a.add(rcx, 4 * i32::from(m.dwords))?;
        let delta = self.range_check(i, !m.load, retry, done)?;
        self.a.mov(r8, delta)?;
        if m.dwords > 1 {
            // Every active lane's address 8-byte aligned, else the interpreter.
            let slow = self.slow_callout(i, done)?;
            let a = &mut self.a;
            a.mov(eax, 7)?;
            a.vpbroadcastq(zmm4, rax)?;
            for g in 0..8 {
                a.kmovb(k1, exec_byte(g))?;
                a.vptestmq(k2.k1(), zr(V(16 + g as u8)), zmm4)?;
                a.kortestb(k2, k2)?;
                a.jnz(slow)?;
            }
        }
        let a = &mut self.a;
        if !m.load {
            a.or(byte_ptr(rbx + W_UNFENCED), i32::from(UNFENCED_VECTOR))?;
        }
        self.gather_scatter_512(m, false)
    }

    /// Moves the data of every active lane by gathers/scatters at r8 + (qword index): the
    /// lane offsets table at r9 (`table`), or the address vectors zmm16..zmm23.
    fn gather_scatter_512(&mut self, m: &VmemInst, table: bool) -> R<()> {
        let a = &mut self.a;
        let nd = i32::from(m.dwords);
        for g in 0..8 {
            let idx = if table {
                a.vmovdqu64(zmm6, zmmword_ptr(r9 + 64 * g))?;
                zmm6
            } else {
                zr(V(16 + g as u8))
            };
            // Qword elements: (d0|d1) at +0 and (d2|d3) at +8; dwords for single-dword ops.
            let parts = if nd == 1 { 1 } else { nd / 2 };
            for p in 0..parts {
                let (d0, d1) = (
                    m.data.wrapping_add(2 * p as u8),
                    m.data.wrapping_add(2 * p as u8 + 1),
                );
                let at = |k: i32| ptr(r8 + idx + 8 * k);
                if m.load {
                    a.kmovb(k2, exec_byte(g))?;
                    a.kmovb(k1, exec_byte(g))?;
                    if nd == 1 {
                        a.vpgatherqd(ymm0.k2(), at(p))?;
                        a.vmovdqu32(ymmword_ptr(vgpr_at(d0, 32 * g)).k1(), ymm0)?;
                    } else {
                        a.vpgatherqq(zmm0.k2(), at(p))?;
                        a.vpmovqd(ymm1, zmm0)?;
                        a.vpsrlq(zmm0, zmm0, 32)?;
                        a.vpmovqd(ymm2, zmm0)?;
                        a.vmovdqu32(ymmword_ptr(vgpr_at(d0, 32 * g)).k1(), ymm1)?;
                        a.vmovdqu32(ymmword_ptr(vgpr_at(d1, 32 * g)).k1(), ymm2)?;
                    }
                } else {
                    a.kmovb(k2, exec_byte(g))?;
                    if nd == 1 {
                        a.vmovdqu32(ymm0, ymmword_ptr(vgpr_at(d0, 32 * g)))?;
                        a.vpscatterqd(at(p).k2(), ymm0)?;
                    } else {
                        a.vpmovzxdq(zmm0, ymmword_ptr(vgpr_at(d0, 32 * g)))?;
                        a.vpmovzxdq(zmm1, ymmword_ptr(vgpr_at(d1, 32 * g)))?;
                        a.vpsllq(zmm1, zmm1, 32)?;
                        a.vporq(zmm0, zmm0, zmm1)?;
                        a.vpscatterqq(at(p).k2(), zmm0)?;
                    }
                }
            }
        }
        Ok(())
    }
}
