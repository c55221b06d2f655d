//! LDS reads and writes of 1 or 2 dwords per address (`ds_read/write_b32/b64`, the
//! `read2`/`write2` forms), wave-wide with gathers and scatters over the work-group's LDS.
//!
//! Every active lane's access must lie inside the LDS (`address + bytes <= size`); otherwise
//! the interpreter runs the instruction (out-of-range reads return 0 and writes are dropped,
//! lane by lane, as on GFX9). Scatters write in lane order, so where lanes collide the
//! highest lane wins, as in the interpreter. A `write2` whose two addresses are not one
//! contiguous pair (offset1 = offset0 + 1 element) goes to the interpreter too: its lane
//! order (both writes of lane 0, then of lane 1, ...) is not a pair of scatters'.

use super::emit::{bind, Emitter, EXEC, R, W_S};
use super::select::DsInst;
use super::vx::{zr, Isa, V};
use super::JitCtx;
use iced_x86::code_asm::*;
use std::mem::offset_of;

const J_LDS: i32 = offset_of!(JitCtx, lds) as i32;
const J_LDS_SIZE: i32 = offset_of!(JitCtx, lds_size) as i32;

fn exec_word(c: i32) -> AsmMemoryOperand {
    word_ptr(rbx + (W_S + 4 * i32::from(EXEC) + 2 * c))
}

fn exec_byte(g: i32) -> AsmMemoryOperand {
    byte_ptr(rbx + (W_S + 4 * i32::from(EXEC) + g))
}

fn vgpr_at(r: u8, off: i32) -> AsmMemoryOperand {
    ptr(r13 + (256 * i32::from(r) + off))
}

impl Emitter<'_> {
    /// An LDS load or store.
    pub(super) fn ds(&mut self, i: u32, d: &DsInst) -> R<()> {
        let mut done = self.a.create_label();
        // (The interpreter runs it when a lane is out of range, or on AVX2 for writes.)
        let slow = self.slow_callout(i, done)?;
        // One access per address part: (byte offset, bytes, first data/dst register).
        let elem = 4 * i32::from(d.dwords);
        let pair_write = !d.load && d.two && d.dwords == 1 && d.offset1 == d.offset0 + 4;
        if !d.load && d.two && !pair_write {
            self.a.jmp(slow)?;
            bind(&mut self.a, &mut done)?;
            return Ok(());
        }
        let parts: Vec<(u32, i32, u8, u8)> = if pair_write {
            vec![(d.offset0, 8, d.data0, d.data1)]
        } else if d.two {
            let n = d.dwords;
            vec![
                (d.offset0, elem, d.data0, d.dst),
                (d.offset1, elem, d.data1, d.dst.wrapping_add(n)),
            ]
        } else {
            vec![(d.offset0, elem, d.data0, d.dst)]
        };
        if self.isa == Isa::Avx2 && !d.load {
            self.a.jmp(slow)?;
            bind(&mut self.a, &mut done)?;
            return Ok(());
        }
        // A read whose destination overlaps its address register: AVX2 lets the interpreter
        // run it (AVX-512 computes every address before the first write).
        let n_dst = u32::from(d.dwords) * if d.two { 2 } else { 1 };
        let overlap = d.load && (0..n_dst).any(|k| d.dst.wrapping_add(k as u8) == d.addr);
        if self.isa == Isa::Avx2 && overlap {
            self.a.jmp(slow)?;
            bind(&mut self.a, &mut done)?;
            return Ok(());
        }
        let a = &mut self.a;
        a.cmp(qword_ptr(rbx + (W_S + 4 * i32::from(EXEC))), 0)?;
        a.je(done)?;
        a.mov(r8, qword_ptr(r12 + J_LDS))?;
        match self.isa {
            Isa::Avx512 => {
                // Addresses of every part and chunk in zmm16.., then the range, then the data.
                for (p, &(off, _, _, _)) in parts.iter().enumerate() {
                    a.mov(ecx, off)?;
                    a.vpbroadcastd(zmm2, ecx)?;
                    for c in 0..4 {
                        let r = zr(V(16 + 4 * p as u8 + c as u8));
                        a.vpaddd(r, zmm2, zmmword_ptr(vgpr_at(d.addr, 64 * c)))?;
                    }
                }
                let bytes = parts[0].1;
                self.lds_range_512(parts.len(), bytes, slow)?;
                for (p, &(_, bytes, data, dst)) in parts.iter().enumerate() {
                    let first = 16 + 4 * p as u8;
                    if bytes == 4 {
                        self.lds_dwords_512(d.load, first, data, dst)?;
                    } else {
                        let second = if pair_write {
                            d.data1
                        } else {
                            data.wrapping_add(1)
                        };
                        self.lds_qwords_512(d.load, first, data, second, dst)?;
                    }
                }
            }
            Isa::Avx2 => {
                for &(off, bytes, _, _) in &parts {
                    self.lds_range_avx2(d.addr, off, bytes, slow)?;
                }
                for &(off, bytes, _, dst) in &parts {
                    self.lds_read_avx2(d, off, dst, bytes == 8)?;
                }
            }
        }
        bind(&mut self.a, &mut done)?;
        Ok(())
    }

    /// Jumps to `slow` if an active lane's address (zmm16.. for `parts` parts, 4 chunks each)
    /// + `bytes` passes the LDS end.
    fn lds_range_512(&mut self, parts: usize, bytes: i32, slow: CodeLabel) -> R<()> {
        let a = &mut self.a;
        // rax = size - bytes (no lane fits when negative).
        a.mov(rax, qword_ptr(r12 + J_LDS_SIZE))?;
        a.sub(rax, bytes)?;
        a.jb(slow)?;
        a.vpbroadcastd(zmm1, eax)?;
        for c in 0..4 {
            a.kmovw(k1, exec_word(c))?;
            for p in 0..parts {
                let r = zr(V(16 + 4 * p as u8 + c as u8));
                a.vpcmpud(k2.k1(), r, zmm1, 6)?; // NLE: above the limit
                a.kortestw(k2, k2)?;
                a.jnz(slow)?;
            }
        }
        Ok(())
    }

    /// Jumps to `slow` if an active lane's `addr + off` (32-bit) + `bytes` passes the LDS end
    /// (AVX2).
    fn lds_range_avx2(&mut self, addr: u8, off: u32, bytes: i32, slow: CodeLabel) -> R<()> {
        let a = &mut self.a;
        // rax = size - bytes (no lane fits when negative).
        a.mov(rax, qword_ptr(r12 + J_LDS_SIZE))?;
        a.sub(rax, bytes)?;
        a.jb(slow)?;
        a.mov(ecx, off)?;
        // x >u lim: maxu(x, lim) != lim.
        a.vmovd(xmm1, eax)?;
        a.vpbroadcastd(ymm1, xmm1)?;
        a.vmovd(xmm2, ecx)?;
        a.vpbroadcastd(ymm2, xmm2)?;
        for c in 0..8 {
            a.movzx(edx, exec_byte(c))?;
            a.shl(edx, 5)?;
            a.vmovdqu(ymm3, ymmword_ptr(r15 + rdx))?;
            a.vpaddd(ymm0, ymm2, ymmword_ptr(vgpr_at(addr, 32 * c)))?;
            a.vpmaxud(ymm0, ymm0, ymm1)?;
            a.vpcmpeqd(ymm0, ymm0, ymm1)?;
            // CF = every active lane within the limit.
            a.vptest(ymm0, ymm3)?;
            a.jae(slow)?;
        }
        Ok(())
    }

    /// One dword per lane at the addresses in zmm`first`.. (AVX-512, 16 lanes per gather or
    /// scatter).
    fn lds_dwords_512(&mut self, load: bool, first: u8, data: u8, dst: u8) -> R<()> {
        let a = &mut self.a;
        for c in 0..4 {
            let idx = zr(V(first + c as u8));
            a.kmovw(k2, exec_word(c))?;
            if load {
                a.kmovw(k1, exec_word(c))?;
                a.vpgatherdd(zmm3.k2(), ptr(r8 + idx))?;
                a.vmovdqu32(zmmword_ptr(vgpr_at(dst, 64 * c)).k1(), zmm3)?;
            } else {
                a.vmovdqu32(zmm3, zmmword_ptr(vgpr_at(data, 64 * c)))?;
                a.vpscatterdd(ptr(r8 + idx).k2(), zmm3)?;
            }
        }
        Ok(())
    }

    /// One qword per lane at the addresses in zmm`first`.. (AVX-512, 8 lanes per gather or
    /// scatter): loads split into `dst`, `dst + 1`; stores join `lo` and `hi`.
    fn lds_qwords_512(&mut self, load: bool, first: u8, lo: u8, hi: u8, dst: u8) -> R<()> {
        let a = &mut self.a;
        for g in 0..8 {
            // Lanes 8g..8g+7: half of chunk g / 2.
            let z = zr(V(first + (g / 2) as u8));
            if g % 2 == 0 {
                a.vmovdqa64(zmm0, z)?;
            } else {
                a.vextracti64x4(ymm0, z, 1)?;
            }
            a.kmovb(k2, exec_byte(g))?;
            if load {
                a.kmovb(k1, exec_byte(g))?;
                a.vpgatherdq(zmm3.k2(), ptr(r8 + ymm0))?;
                a.vpmovqd(ymm4, zmm3)?;
                a.vpsrlq(zmm3, zmm3, 32)?;
                a.vpmovqd(ymm5, zmm3)?;
                a.vmovdqu32(ymmword_ptr(vgpr_at(dst, 32 * g)).k1(), ymm4)?;
                a.vmovdqu32(ymmword_ptr(vgpr_at(dst.wrapping_add(1), 32 * g)).k1(), ymm5)?;
            } else {
                a.vpmovzxdq(zmm3, ymmword_ptr(vgpr_at(lo, 32 * g)))?;
                a.vpmovzxdq(zmm4, ymmword_ptr(vgpr_at(hi, 32 * g)))?;
                a.vpsllq(zmm4, zmm4, 32)?;
                a.vporq(zmm3, zmm3, zmm4)?;
                a.vpscatterdq(ptr(r8 + ymm0).k2(), zmm3)?;
            }
        }
        Ok(())
    }

    /// LDS reads on AVX2: dword gathers, 8 lanes (or 4 for qwords) at a time, merged into the
    /// destination under EXEC.
    fn lds_read_avx2(&mut self, d: &DsInst, off: u32, dst: u8, qwords: bool) -> R<()> {
        let a = &mut self.a;
        a.mov(ecx, off)?;
        a.vmovd(xmm2, ecx)?;
        a.vpbroadcastd(ymm2, xmm2)?;
        for c in 0..8 {
            a.movzx(edx, exec_byte(c))?;
            a.shl(edx, 5)?;
            a.vmovdqu(ymm3, ymmword_ptr(r15 + rdx))?;
            a.vpaddd(ymm0, ymm2, ymmword_ptr(vgpr_at(d.addr, 32 * c)))?;
            let parts: &[(u8, i32)] = if qwords { &[(0, 0), (1, 4)] } else { &[(0, 0)] };
            for &(k, byte) in parts {
                let r = vgpr_at(dst.wrapping_add(k), 32 * c);
                a.vmovdqu(ymm4, ymmword_ptr(r))?;
                a.vmovdqa(ymm5, ymm3)?;
                // Inactive lanes keep the register's value (the gather leaves them).
                a.vpgatherdd_3(ymm4, ptr(r8 + ymm0 + byte), ymm5)?;
                a.vmovdqu(ymmword_ptr(r), ymm4)?;
            }
        }
        Ok(())
    }
}
