//! Cross-lane data movement: `ds_bpermute_b32`, each active lane reading the lane its address
//! names, as `exec::ds` does it (lane `((addr + offset) / 4) % 64`, 0 from an inactive lane).
//! The whole wave's results are gathered into the context's `xlane` row before any lane of
//! the destination is written, since the destination may be the address or the data register.
//! A gather per chunk reads the data register's row; the source lane's EXEC bit comes from
//! variable shifts of the two EXEC halves (a count of 32 or more shifts everything out).

use super::emit::{sreg32, Emitter, EXEC, R, W_S};
use super::vx::{kr, yr, zk, zr, Isa, Vs};
use super::JitCtx;
use iced_x86::code_asm::*;
use std::mem::offset_of;

const J_XLANE: i32 = offset_of!(JitCtx, xlane) as i32;

impl Emitter<'_> {
    /// `ds_bpermute_b32 v[dst], v[addr], v[data] offset:off`.
    pub(super) fn bpermute(&mut self, dst: u8, addr: u8, data: u8, off: u32) -> R<()> {
        let (elo, ehi, k, idx, g, t) = (
            self.tmp()?,
            self.tmp()?,
            self.tmp()?,
            self.tmp()?,
            self.tmp()?,
            self.tmp()?,
        );
        let gm = self.mtmp()?;
        self.a.mov(eax, sreg32(EXEC))?;
        self.v_bcast_gpr(elo, eax)?;
        self.a.mov(eax, sreg32(EXEC + 1))?;
        self.v_bcast_gpr(ehi, eax)?;
        let cb = self.isa.chunk_bytes();
        let row = |r: u8, c: i32| r13 + (256 * i32::from(r) + c * cb);
        for c in 0..self.isa.chunks() as i32 {
            self.v_mov(idx, Vs::M(row(addr, c)))?;
            if off != 0 {
                self.v_const(k, off)?;
                self.v_add(idx, idx, Vs::R(k))?;
            }
            self.v_srli(idx, idx, 2)?;
            self.v_const(k, 63)?;
            self.v_and(idx, idx, Vs::R(k))?;
            let base = r13 + 256 * i32::from(data);
            match self.isa {
                Isa::Avx2 => {
                    let m = yr(super::vx::V(gm.0));
                    self.a.vpcmpeqd(m, m, m)?;
                    self.a.vpgatherdd_3(yr(g), ptr(base + yr(idx) * 4), m)?;
                }
                Isa::Avx512 => {
                    self.a.kxnorw(kr(gm), kr(gm), kr(gm))?;
                    self.a.vpgatherdd(zk(zr(g), gm), ptr(base + zr(idx) * 4))?;
                }
            }
            // The source lane's EXEC bit, spread over the dword: 0 from an inactive lane.
            self.v_srlv(t, elo, Vs::R(idx))?;
            self.v_const(k, 32)?;
            self.v_sub(idx, idx, Vs::R(k))?;
            self.v_srlv(idx, ehi, Vs::R(idx))?;
            self.v_or(t, t, Vs::R(idx))?;
            self.v_slli(t, t, 31)?;
            self.v_srai(t, t, 31)?;
            self.v_and(g, g, Vs::R(t))?;
            self.v_mov_to_mem(r12 + (J_XLANE + c * cb), g)?;
        }
        for v in [elo, ehi, k, idx, t] {
            self.free(v);
        }
        // The destination's active lanes.
        for c in 0..self.isa.chunks() as i32 {
            let exec_bits = W_S + 4 * i32::from(EXEC);
            match self.isa {
                Isa::Avx2 => self.a.movzx(eax, byte_ptr(rbx + (exec_bits + c)))?,
                Isa::Avx512 => self.a.movzx(eax, word_ptr(rbx + (exec_bits + 2 * c)))?,
            }
            self.m_from_gpr(gm, eax)?;
            self.v_mov(g, Vs::M(r12 + (J_XLANE + c * cb)))?;
            self.v_store_masked_blend(row(dst, c), g, gm)?;
        }
        self.free(g);
        self.mfree(gm);
        Ok(())
    }
}
