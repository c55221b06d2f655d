//! Cross-lane data movement, as the interpreter does it:
//!
//! - `ds_bpermute_b32`: each active lane reads the lane its address names (lane
//!   `((addr + offset) / 4) % 64`, 0 from an inactive lane; `exec::ds`);
//! - `v_mov_b32_dpp`: each lane of an enabled row and bank reads the lane its DPP pattern
//!   names (`exec::lanes::dpp_apply`): an active source gives its value, a source past the
//!   pattern's row or wave or an inactive one gives 0 with `bound_ctrl` and leaves the lane
//!   unwritten without.
//!
//! The whole wave's results go to the context's `xlane` row before any lane of the
//! destination is written, since the destination may be a source. A gather per chunk reads the
//! source register's row; a source lane's EXEC bit comes from variable shifts of the two EXEC
//! halves (a count of 32 or more shifts everything out). DPP source lanes come from a table of
//! every pattern (0xff: none), built once from `dpp_source`.

use super::emit::{sreg32, Emitter, EXEC, R};
use super::mem_vector::{exec_byte, exec_word};
use super::vx::{kk, kr, yr, zk, zr, Isa, Vs, M, V};
use super::JitCtx;
use crate::exec::lanes::{dpp_lane_enabled, dpp_source};
use iced_x86::code_asm::*;
use std::mem::offset_of;
use std::sync::OnceLock;

pub(super) const J_XLANE: i32 = offset_of!(JitCtx, xlane) as i32;

/// DPP controls the table covers (`dpp_source` knows none above).
const DPP_CTRLS: usize = 0x160;

/// Per DPP control, each lane's source lane (0xff: none).
fn dpp_table() -> &'static [[u8; 64]; DPP_CTRLS] {
    static T: OnceLock<Box<[[u8; 64]; DPP_CTRLS]>> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = Box::new([[0xffu8; 64]; DPP_CTRLS]);
        for (ctrl, row) in t.iter_mut().enumerate() {
            for (l, s) in row.iter_mut().enumerate() {
                if let Some(src) = dpp_source(ctrl as u16, l) {
                    *s = src as u8;
                }
            }
        }
        t
    })
}

/// The lanes of rows and banks that DPP's masks enable.
fn dpp_enabled(row_mask: u8, bank_mask: u8) -> u64 {
    (0..64)
        .filter(|&l| dpp_lane_enabled(row_mask, bank_mask, l))
        .fold(0, |m, l| m | 1 << l)
}

impl Emitter<'_> {
    /// The six vector temporaries of a cross-lane op, the first two holding EXEC's low and
    /// high halves in every lane (for [`Emitter::source_active`]).
    fn xlane_temps(&mut self) -> R<[V; 6]> {
        let mut t = [V(0); 6];
        for v in t.iter_mut() {
            *v = self.tmp()?;
        }
        self.a.mov(eax, sreg32(EXEC))?;
        self.v_bcast_gpr(t[0], eax)?;
        self.a.mov(eax, sreg32(EXEC + 1))?;
        self.v_bcast_gpr(t[1], eax)?;
        Ok(t)
    }

    /// `t` = all-ones in the lanes whose source lane `idx` (0..=63) is active, else 0 (`elo`
    /// and `ehi`: EXEC's halves in every lane; `k` a temporary; `idx` is clobbered).
    fn source_active(&mut self, t: V, idx: V, elo: V, ehi: V, k: V) -> R<()> {
        self.v_srlv(t, elo, Vs::R(idx))?;
        self.v_const(k, 32)?;
        self.v_sub(idx, idx, Vs::R(k))?;
        self.v_srlv(idx, ehi, Vs::R(idx))?;
        self.v_or(t, t, Vs::R(idx))?;
        self.v_slli(t, t, 31)?;
        self.v_srai(t, t, 31)
    }

    /// `m` = the active lanes of chunk `c`, and only those of `within` (the chunk's bits)
    /// when given (rax clobbered).
    pub(super) fn chunk_exec(&mut self, m: M, c: i32, within: Option<u32>) -> R<()> {
        match self.isa {
            Isa::Avx2 => self.a.movzx(eax, exec_byte(c))?,
            Isa::Avx512 => self.a.movzx(eax, exec_word(c))?,
        }
        if let Some(w) = within {
            self.a.and(eax, w)?;
        }
        self.m_from_gpr(m, eax)
    }

    /// `g` = lane `idx` (0..=63) of VGPR `src` for every lane of the chunk (`gm` clobbered).
    fn gather_row(&mut self, g: V, src: u8, idx: V, gm: M) -> R<()> {
        let base = r13 + 256 * i32::from(src);
        match self.isa {
            Isa::Avx2 => {
                let m = yr(V(gm.0));
                self.a.vpcmpeqd(m, m, m)?;
                self.a.vpgatherdd_3(yr(g), ptr(base + yr(idx) * 4), m)?;
            }
            Isa::Avx512 => {
                self.a.kxnorw(kr(gm), kr(gm), kr(gm))?;
                self.a.vpgatherdd(zk(zr(g), gm), ptr(base + zr(idx) * 4))?;
            }
        }
        Ok(())
    }

    /// `v_mov_b32_dpp v[dst], v[src]` with DPP control `ctrl`, its row and bank masks and
    /// `bound_ctrl`.
    pub(super) fn dpp_mov(
        &mut self,
        dst: u8,
        src: u8,
        op: Option<(crate::exec::int32::Int32, u8)>,
        ctrl: u16,
        (row_mask, bank_mask, bound_ctrl): (u8, u8, bool),
    ) -> R<()> {
        let table = dpp_table()
            .get(usize::from(ctrl))
            .ok_or_else(|| super::emit::err("DPP control"))?;
        let enabled = dpp_enabled(row_mask, bank_mask);
        let [elo, ehi, k, idx, g, t] = self.xlane_temps()?;
        let (gm, wm) = (self.mtmp()?, self.mtmp()?);
        let (n, cb) = (self.isa.lanes() as i32, self.isa.chunk_bytes());
        let row = |r: u8, c: i32| r13 + (256 * i32::from(r) + c * cb);
        for c in 0..self.isa.chunks() as i32 {
            // The chunk's source lanes (0xff: none). g = the value, gathered from lane 63 for
            // none, then 0 from an inactive source or none: 0xff's shifts give 0.
            self.a.mov(rax, table.as_ptr() as u64 + (c * n) as u64)?;
            match self.isa {
                Isa::Avx2 => self.a.vpmovzxbd(yr(idx), qword_ptr(rax))?,
                Isa::Avx512 => self.a.vpmovzxbd(zr(idx), xmmword_ptr(rax))?,
            }
            self.v_const(k, 63)?;
            self.v_minu(t, idx, Vs::R(k))?;
            self.gather_row(g, src, t, gm)?;
            self.source_active(t, idx, elo, ehi, k)?;
            self.v_and(g, g, Vs::R(t))?;
            // Written: active, row and bank enabled, and a value (or bound_ctrl's 0).
            let en = (enabled >> (c * n)) as u32 & ((1u64 << n) - 1) as u32;
            self.chunk_exec(wm, c, Some(en))?;
            if !bound_ctrl {
                match self.isa {
                    Isa::Avx2 => self.a.vpand(yr(V(wm.0)), yr(V(wm.0)), yr(t))?,
                    Isa::Avx512 => self.a.vptestmd(kk(kr(wm), wm), zr(t), zr(t))?,
                }
            }
            // An op's DPP form: g = op(g, src1) (subrev: src1 - g).
            if let Some((op, src1)) = op {
                use crate::exec::int32::Int32::SubRev;
                self.v_mov(t, Vs::M(row(src1, c)))?;
                match op {
                    SubRev => self.int_binop(op, g, t, Vs::R(g))?,
                    _ => self.int_binop(op, g, g, Vs::R(t))?,
                }
            }
            // Lanes not written keep the destination's value.
            self.v_mov(k, Vs::M(row(dst, c)))?;
            self.v_blend(k, wm, k, g)?;
            self.v_mov_to_mem(r12 + (J_XLANE + c * cb), k)?;
        }
        for c in 0..self.isa.chunks() as i32 {
            self.v_mov(g, Vs::M(r12 + (J_XLANE + c * cb)))?;
            self.v_mov_to_mem(row(dst, c), g)?;
        }
        for v in [elo, ehi, k, idx, g, t] {
            self.free(v);
        }
        self.mfree(gm);
        self.mfree(wm);
        Ok(())
    }

    /// `ds_bpermute_b32 v[dst], v[addr], v[data] offset:off`.
    pub(super) fn bpermute(&mut self, dst: u8, addr: u8, data: u8, off: u32) -> R<()> {
        let [elo, ehi, k, idx, g, t] = self.xlane_temps()?;
        let gm = self.mtmp()?;
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
            self.gather_row(g, data, idx, gm)?;
            // 0 from an inactive lane.
            self.source_active(t, idx, elo, ehi, k)?;
            self.v_and(g, g, Vs::R(t))?;
            self.v_mov_to_mem(r12 + (J_XLANE + c * cb), g)?;
        }
        for v in [elo, ehi, k, idx, t] {
            self.free(v);
        }
        // The destination's active lanes.
        for c in 0..self.isa.chunks() as i32 {
            self.chunk_exec(gm, c, None)?;
            self.v_mov(g, Vs::M(r12 + (J_XLANE + c * cb)))?;
            self.v_store_masked_blend(row(dst, c), g, gm)?;
        }
        self.free(g);
        self.mfree(gm);
        Ok(())
    }
}
