//! Lowering of 64-bit lane ops on VGPR pairs, in 32-bit halves: the 64-bit shifts
//! (`v_lshlrev_b64` and friends, LLVM's address scaling) and `v_mad_u64_u32` /
//! `v_mad_i64_i32` (address and fixed-point arithmetic). Semantics as in `valu::int`.
//!
//! Variable shifts by 32 or more give 0 on x86 (`vpsllvd`/`vpsrlvd`) and fill with the sign
//! (`vpsravd`), which the half-by-half formulas rely on.

use super::emit::{err, Emitter, R};
use super::select::{LaneInst, Opd};
use super::vx::{Icmp, Vs};

impl Emitter<'_> {
    /// dst pair = src1 pair shifted by src0 & 63 (0 left, 1 logical right, 2 arithmetic).
    /// At most six temporaries live at once (AVX2 has six).
    pub(super) fn shift64(&mut self, li: &LaneInst, kind: u8) -> R<()> {
        let d = li.dst.ok_or_else(|| err("no destination"))?;
        if let Opd::K(n) = li.src[0][0] {
            return self.shift64_const(li, d, kind, n & 63);
        }
        let n = self.opd_scratch(li.src[0][0])?;
        let k = self.opd(Opd::K(63))?;
        self.v_and(n, n, k)?;
        self.release(k);
        // e = n - 32 (huge when n < 32, so shifts by it give 0).
        let e = self.tmp()?;
        let k = self.opd(Opd::K(32))?;
        self.v_sub(e, n, k)?;
        self.release(k);
        // Arithmetic: n >= 32 (bit 5 of n, moved to the sign).
        let m = if kind == 2 {
            let (m, t) = (self.mtmp()?, self.tmp()?);
            self.v_slli(t, n, 26)?;
            self.m_from_signs(m, t)?;
            self.free(t);
            Some(m)
        } else {
            None
        };
        let (lo, hi) = (self.opd_reg(li.src[1][0])?, self.opd_reg(li.src[1][1])?);
        let (rl, rh) = (self.tmp()?, self.tmp()?);
        // The half shifted by n itself, then the part that crosses between the halves.
        let (same, other) = if kind == 0 { (lo, hi) } else { (hi, lo) };
        let (rs, ro) = if kind == 0 { (rl, rh) } else { (rh, rl) };
        match kind {
            0 => {
                self.v_sllv(rs, same, Vs::R(n))?;
                self.v_sllv(ro, other, Vs::R(n))?;
            }
            1 => {
                self.v_srlv(rs, same, Vs::R(n))?;
                self.v_srlv(ro, other, Vs::R(n))?;
            }
            _ => {
                self.v_srav(rs, same, Vs::R(n))?;
                self.v_srlv(ro, other, Vs::R(n))?;
            }
        }
        // c = 32 - n = 0 - e, in n's register.
        let c = n;
        self.v_sub(c, c, Vs::R(c))?;
        self.v_sub(c, c, Vs::R(e))?;
        match kind {
            0 => {
                // hi' |= lo >> (32 - n) | lo << (n - 32)
                self.v_srlv(c, same, Vs::R(c))?;
                self.v_sllv(e, same, Vs::R(e))?;
            }
            1 => {
                // lo' |= hi << (32 - n) | hi >> (n - 32)
                self.v_sllv(c, same, Vs::R(c))?;
                self.v_srlv(e, same, Vs::R(e))?;
            }
            _ => {
                // lo' = n < 32 ? lo >> n | hi << (32 - n) : hi >>a (n - 32)
                self.v_sllv(c, same, Vs::R(c))?;
                self.v_or(ro, ro, Vs::R(c))?;
                self.v_srav(e, same, Vs::R(e))?;
                let m = m.ok_or_else(|| err("shift mask"))?;
                self.v_blend(ro, m, ro, e)?;
                self.put(d, rl)?;
                return self.put(d.wrapping_add(1), rh);
            }
        }
        self.v_or(ro, ro, Vs::R(c))?;
        self.v_or(ro, ro, Vs::R(e))?;
        self.put(d, rl)?;
        self.put(d.wrapping_add(1), rh)
    }

    /// [`Emitter::shift64`] by a constant count `n` (< 64): immediate shifts of the halves.
    fn shift64_const(&mut self, li: &LaneInst, d: u8, kind: u8, n: u32) -> R<()> {
        if kind == 0 && (1..=31).contains(&n) && self.known_zero(li.src[1][1]) {
            // A zero-extended 32-bit value (an index widened to an address): the high half
            // is the low half's top bits.
            let lo = self.opd_reg(li.src[1][0])?;
            // Straight into the destination's registers (homes, if they have them), unless
            // the high half's is the source's: it is written first.
            let (rl, rh) = match li.src[1][0] == Opd::V(d.wrapping_add(1)) {
                true => (self.tmp()?, self.tmp()?),
                false => (self.dst_reg(d)?, self.dst_reg(d.wrapping_add(1))?),
            };
            self.v_srli(rh, lo, 32 - n)?;
            self.v_slli(rl, lo, n)?;
            self.free(lo);
            self.put(d, rl)?;
            return self.put(d.wrapping_add(1), rh);
        }
        let (lo, hi) = (self.opd_reg(li.src[1][0])?, self.opd_reg(li.src[1][1])?);
        let (rl, rh) = (self.tmp()?, self.tmp()?);
        match (kind, n) {
            (_, 0) => {
                self.v_mov(rl, Vs::R(lo))?;
                self.v_mov(rh, Vs::R(hi))?;
            }
            (0, 1..=31) => {
                self.v_slli(rh, hi, n)?;
                self.v_srli(rl, lo, 32 - n)?;
                self.v_or(rh, rh, Vs::R(rl))?;
                self.v_slli(rl, lo, n)?;
            }
            (0, _) => {
                self.v_slli(rh, lo, n - 32)?;
                self.v_xor(rl, rl, Vs::R(rl))?;
            }
            (_, 1..=31) => {
                self.v_srli(rl, lo, n)?;
                self.v_slli(rh, hi, 32 - n)?;
                self.v_or(rl, rl, Vs::R(rh))?;
                if kind == 1 {
                    self.v_srli(rh, hi, n)?;
                } else {
                    self.v_srai(rh, hi, n)?;
                }
            }
            (1, _) => {
                self.v_srli(rl, hi, n - 32)?;
                self.v_xor(rh, rh, Vs::R(rh))?;
            }
            _ => {
                self.v_srai(rl, hi, n - 32)?;
                self.v_srai(rh, hi, 31)?;
            }
        }
        self.free(lo);
        self.free(hi);
        self.put(d, rl)?;
        self.put(d.wrapping_add(1), rh)
    }

    /// dst pair = src0 * src1 + src2 pair; the carry-out (unsigned) or overflow (signed) to
    /// the mask. (Instruction `i`.)
    pub(super) fn mad64(&mut self, i: u32, li: &LaneInst, signed: bool) -> R<()> {
        let d = li.dst.ok_or_else(|| err("no destination"))?;
        let product = li.src[2] == [Opd::K(0), Opd::K(0)];
        if self.vgpr_unread(i, d.wrapping_add(1)) && (product || self.mask_unread()) {
            return self.mad64_low(li, d, product);
        }
        let (a, b, b_uniform) = self.mul_sources(li)?;
        let plo = self.tmp()?;
        self.v_mullo(plo, a, Vs::R(b))?;
        let phi = self.mul_hi_regs(a, b, b_uniform, signed)?;
        self.free(a);
        self.free(b);
        if li.src[2] == [Opd::K(0), Opd::K(0)] {
            // A product alone never carries or overflows.
            let m = self.mtmp()?;
            self.m_xor(m, m, m)?;
            self.put(d, plo)?;
            self.put(d.wrapping_add(1), phi)?;
            let target = li.mask_out.ok_or_else(|| err("mad64 sdst"))?;
            return self.mask_out(target, m, false);
        }
        let (c1, m) = (self.mtmp()?, self.mtmp()?);
        // Low: s = plo + cl, carry c1 = s <u plo.
        let rl = self.tmp()?;
        let cl = self.opd(li.src[2][0])?;
        self.v_add(rl, plo, cl)?;
        self.release(cl);
        self.v_icmp(c1, Icmp::Lt, false, rl, Vs::R(plo))?;
        self.free(plo);
        // High: t = phi + ch (+ c1).
        let t = self.tmp()?;
        let ch = self.opd(li.src[2][1])?;
        self.v_add(t, phi, ch)?;
        let rh = self.tmp()?;
        self.v_add_mask_bit(rh, t, c1)?;
        if self.mask_unread() {
            // Nobody reads the carry or overflow out.
        } else if signed {
            // Overflow: the sum's sign differs from both addends' (equal) signs.
            let u = self.tmp()?;
            self.v_xor(t, rh, Vs::R(phi))?;
            self.v_xor(u, rh, ch)?;
            self.v_and(t, t, Vs::R(u))?;
            self.m_from_signs(m, t)?;
            self.free(u);
        } else {
            // Carry: t wrapped, or adding c1 wrapped.
            let c2 = self.mtmp()?;
            self.v_icmp(m, Icmp::Lt, false, t, Vs::R(phi))?;
            self.v_icmp(c2, Icmp::Lt, false, rh, Vs::R(t))?;
            self.m_or(m, m, c2)?;
            self.mfree(c2);
        }
        self.put(d, rl)?;
        self.put(d.wrapping_add(1), rh)?;
        let target = li.mask_out.ok_or_else(|| err("mad64 sdst"))?;
        self.mask_out(target, m, false)
    }

    /// [`Self::mad64`] whose high dword the block replaces before reading it, and whose mask
    /// nobody reads unless it is a `product` alone (which never carries): the low dword,
    /// `src0 * src1 + src2` in 32 bits (the same signed or not).
    fn mad64_low(&mut self, li: &LaneInst, d: u8, product: bool) -> R<()> {
        let (mut x, mut y) = (li.src[0][0], li.src[1][0]);
        // The first source must be a register: a uniform one goes second.
        if self.in_reg(y) && !self.in_reg(x) {
            (x, y) = (y, x);
        }
        let xv = self.opd_reg(x)?;
        let yv = self.opd(y)?;
        // Straight into the destination's home unless the addend is the destination (a
        // multiplicand is read before the write).
        let t = match li.src[2][0] == Opd::V(d) {
            true => self.tmp()?,
            false => self.dst_reg(d)?,
        };
        self.v_mullo(t, xv, yv)?;
        self.release(yv);
        if !product {
            let c = self.opd(li.src[2][0])?;
            self.v_add(t, t, c)?;
            self.release(c);
        }
        self.put(d, t)?;
        self.unwritten(d.wrapping_add(1));
        let m = self.mtmp()?;
        if product {
            self.m_xor(m, m, m)?;
        }
        let target = li.mask_out.ok_or_else(|| err("mad64 sdst"))?;
        self.mask_out(target, m, false)
    }
}
