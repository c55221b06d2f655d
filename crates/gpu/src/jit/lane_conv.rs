//! Lowering of f32 conversions and of `v_rcp/sqrt/rsq_f32`, as the interpreter computes them
//! (`valu::convert`, `valu::transcendental`) in round-to-nearest-even with f32 denormals kept:
//!
//! - int → f32 rounds once (`vcvtdq2ps`; unsigned: two exact halves and one rounding add);
//! - f32 → int truncates and clamps, NaN gives 0 (x86's out-of-range value is fixed up);
//! - rcp and sqrt are computed in f64 and rounded once to f32 by the interpreter, which equals
//!   the correctly rounded f32 division and square root (double rounding is innocuous for
//!   these operations from 53 to 24 bits); rsq is the same f64 computation, done in f64 here.
//!   A NaN input gives itself quieted (as x86 does), a NaN from a number (sqrt of a negative)
//!   the positive default NaN (x86 gives the negative one: fixed up).

use super::emit::{err, Emitter, R};
use super::select::LaneInst;
use super::vx::{yr, zr, Isa, Vs, V};
use crate::valu::{CvtOp, TrOp};
use iced_x86::code_asm::*;

const UNORD: u32 = 3;
const GE_OQ: u32 = 0x1d;
const NGE_UQ: u32 = 0x09;

impl Emitter<'_> {
    pub(super) fn lane_cvt(&mut self, li: &LaneInst, op: CvtOp) -> R<()> {
        let d = li.dst.ok_or_else(|| err("no destination"))?;
        match op {
            CvtOp::F32F16 => {
                // Every f16 is exact in f32; a NaN keeps its sign and payload with the quiet
                // bit set, as `valu::convert::convert_nan` has it. The low halves of the
                // dwords packed, then widened; the SDWA form's `WORD_1` the high halves.
                let x = self.opd_reg(li.src[0][0])?;
                let t = self.tmp()?;
                self.pack_halves(t, x, matches!(li.sdwa, Some([(5, _), _])))?;
                self.free(x);
                let r = self.dst_reg(d)?;
                self.widen_halves(r, t)?;
                self.free(t);
                self.put(d, r)
            }
            CvtOp::F16F32 => {
                // One rounding to f16, to nearest even, f16 denormals kept (the block's
                // guard), overflow to infinity; a NaN keeps its sign and the top of its
                // payload with the quiet bit set, as `valu::convert::convert_nan` has it. The
                // result zero-extended.
                let x = self.fsrc(li, 0)?;
                let t = self.tmp()?;
                self.narrow_to_halves(t, x)?;
                let r = self.dst_reg(d)?;
                self.unpack_halves(r, t)?;
                self.free(t);
                self.put(d, r)
            }
            CvtOp::F32I32 => {
                let x = self.opd_reg(li.src[0][0])?;
                let r = self.dst_reg(d)?;
                match self.isa {
                    Isa::Avx512 => self.a.vcvtdq2ps(zr(r), zr(x))?,
                    Isa::Avx2 => self.a.vcvtdq2ps(yr(r), yr(x))?,
                }
                self.put(d, r)
            }
            CvtOp::F32U32 => {
                let x = self.opd_reg(li.src[0][0])?;
                match self.isa {
                    Isa::Avx512 => {
                        let r = self.dst_reg(d)?;
                        self.a.vcvtudq2ps(zr(r), zr(x))?;
                        self.put(d, r)
                    }
                    Isa::Avx2 => {
                        // hi16 * 65536 (exact) + lo16 (exact): one rounding.
                        let (h, l) = (self.tmp()?, self.tmp()?);
                        self.v_srli(h, x, 16)?;
                        self.v_slli(l, x, 16)?;
                        self.v_srli(l, l, 16)?;
                        self.a.vcvtdq2ps(yr(h), yr(h))?;
                        self.a.vcvtdq2ps(yr(l), yr(l))?;
                        let k = self.tmp()?;
                        self.v_const(k, 65536f32.to_bits())?;
                        self.v_fma(h, h, k, l)?;
                        self.put(d, h)
                    }
                }
            }
            CvtOp::F32Ubyte(n) => {
                let x = self.opd_scratch(li.src[0][0])?;
                if n < 3 {
                    self.v_slli(x, x, 24 - 8 * u32::from(n))?;
                }
                self.v_srli(x, x, 24)?;
                match self.isa {
                    Isa::Avx512 => self.a.vcvtdq2ps(zr(x), zr(x))?,
                    Isa::Avx2 => self.a.vcvtdq2ps(yr(x), yr(x))?,
                }
                self.put(d, x)
            }
            CvtOp::I32F32 | CvtOp::U32F32 => {
                let x = self.fsrc(li, 0)?;
                let r = self.tmp()?;
                let (m, k) = (self.mtmp()?, self.tmp()?);
                if op == CvtOp::I32F32 {
                    match self.isa {
                        Isa::Avx512 => self.a.vcvttps2dq(zr(r), zr(x))?,
                        Isa::Avx2 => self.a.vcvttps2dq(yr(r), yr(x))?,
                    }
                    // x >= 2^31: i32::MAX (x86 gives i32::MIN); NaN: 0.
                    self.v_const(k, 0x4f00_0000)?;
                    self.v_fcmp(m, GE_OQ, x, Vs::R(k))?;
                    self.v_const(k, i32::MAX as u32)?;
                    self.v_blend(r, m, r, k)?;
                    self.v_fcmp(m, UNORD, x, Vs::R(x))?;
                } else {
                    match self.isa {
                        // x86 gives u32::MAX for anything out of range.
                        Isa::Avx512 => self.a.vcvttps2udq(zr(r), zr(x))?,
                        Isa::Avx2 => {
                            // No unsigned truncation: below 2^31 as signed; [2^31, 2^32) as
                            // x - 2^31 (exact there) with the top bit set again; from 2^32
                            // u32::MAX.
                            let t = self.tmp()?;
                            self.a.vcvttps2dq(yr(r), yr(x))?;
                            self.v_const(k, 0x4f00_0000)?;
                            self.v_fsub(t, x, Vs::R(k))?;
                            self.a.vcvttps2dq(yr(t), yr(t))?;
                            self.v_fcmp(m, GE_OQ, x, Vs::R(k))?;
                            self.v_const(k, 0x8000_0000)?;
                            self.v_xor(t, t, Vs::R(k))?;
                            self.v_blend(r, m, r, t)?;
                            self.v_const(k, 0x4f80_0000)?;
                            self.v_fcmp(m, GE_OQ, x, Vs::R(k))?;
                            self.v_ones(k)?;
                            self.v_blend(r, m, r, k)?;
                            self.free(t);
                        }
                    }
                    // Below zero (and NaN): 0.
                    self.v_xor(k, k, Vs::R(k))?;
                    self.v_fcmp(m, NGE_UQ, x, Vs::R(k))?;
                }
                self.v_xor(k, k, Vs::R(k))?;
                self.v_blend(r, m, r, k)?;
                self.put(d, r)
            }
            _ => Err(err("conversion")),
        }
    }

    pub(super) fn lane_trans(&mut self, li: &LaneInst, op: TrOp) -> R<()> {
        let d = li.dst.ok_or_else(|| err("no destination"))?;
        let x = self.fsrc(li, 0)?;
        let r = self.tmp()?;
        match (op, self.isa) {
            (TrOp::Rcp, _) => {
                self.v_const(r, 1f32.to_bits())?;
                self.v_fdiv(r, r, Vs::R(x))?;
            }
            (TrOp::Sqrt, Isa::Avx512) => self.a.vsqrtps(zr(r), zr(x))?,
            (TrOp::Sqrt, Isa::Avx2) => self.a.vsqrtps(yr(r), yr(x))?,
            (TrOp::Rsq, Isa::Avx512) => {
                // 1 / sqrt(x) in f64, then one rounding to f32, 8 lanes at a time.
                let (lo, hi, one) = (self.tmp()?, self.tmp()?, self.tmp()?);
                let a = &mut self.a;
                a.mov(rax, 1f64.to_bits())?;
                a.vpbroadcastq(zr(one), rax)?;
                a.vcvtps2pd(zr(lo), yr(x))?;
                a.vextractf64x4(yr(hi), zr(x), 1)?;
                a.vcvtps2pd(zr(hi), yr(hi))?;
                for h in [lo, hi] {
                    a.vsqrtpd(zr(h), zr(h))?;
                    a.vdivpd(zr(h), zr(one), zr(h))?;
                }
                a.vcvtpd2ps(yr(lo), zr(lo))?;
                a.vcvtpd2ps(yr(hi), zr(hi))?;
                a.vinsertf64x4(zr(r), zr(lo), yr(hi), 1)?;
            }
            (TrOp::Rsq, Isa::Avx2) => {
                let (lo, hi, one) = (self.tmp()?, self.tmp()?, self.tmp()?);
                let a = &mut self.a;
                a.mov(rax, 1f64.to_bits())?;
                a.vmovq(super::vx::xr(one), rax)?;
                a.vbroadcastsd(yr(one), super::vx::xr(one))?;
                a.vcvtps2pd(yr(lo), super::vx::xr(x))?;
                a.vextractf128(super::vx::xr(hi), yr(x), 1)?;
                a.vcvtps2pd(yr(hi), super::vx::xr(hi))?;
                for h in [lo, hi] {
                    a.vsqrtpd(yr(h), yr(h))?;
                    a.vdivpd(yr(h), yr(one), yr(h))?;
                }
                a.vcvtpd2ps(super::vx::xr(lo), yr(lo))?;
                a.vcvtpd2ps(super::vx::xr(hi), yr(hi))?;
                a.vinsertf128(yr(r), yr(lo), super::vx::xr(hi), 1)?;
            }
            _ => return Err(err("transcendental")),
        }
        self.put_default_nan(d, r, x)
    }

    /// Stores `r` (computed from `x`) to VGPR `d`, a NaN computed from a number replaced by
    /// the positive default NaN (x86's is negative) out of line.
    pub(super) fn put_default_nan(&mut self, d: u8, r: V, x: V) -> R<()> {
        self.default_nan_fix(r, x)?;
        self.put(d, r)
    }

    /// In f32 lanes `r` computed from `x`: a NaN computed from a number (x86's negative
    /// default NaN) made the positive default NaN, out of line; NaNs of NaN inputs stay.
    pub(super) fn default_nan_fix(&mut self, r: V, x: V) -> R<()> {
        let nan = self.mtmp()?;
        self.v_fcmp(nan, UNORD, r, Vs::R(r))?;
        self.out_of_line_if(nan, (1, 1), move |e| {
            let xn = e.mtmp()?;
            e.v_fcmp(xn, UNORD, x, Vs::R(x))?;
            // nan &= !xn: the NaN lanes whose input was a number.
            e.m_andn(nan, xn, nan)?;
            let k = e.tmp()?;
            e.v_const(k, 0x7fc0_0000)?;
            e.v_blend(r, nan, r, k)
        })?;
        self.mfree(nan);
        Ok(())
    }
}
