//! Lowering of compares into lane masks: 16/32-bit integers, f16 and f32 (with abs/neg), and 64-bit
//! integers and f64 (`lane_f64.rs`) on register pairs. Results are restricted to active lanes and written as the
//! chunk's bits of the destination pair (and of EXEC for `v_cmpx`), as `valu::compare` does.

use super::emit::{err, Emitter, R};
use super::select::{LaneInst, Opd};
use super::vx::{Icmp, Vs, M, V};
use crate::valu::{CmpTy, Cond};
use crate::wave::VCC_LO;

/// The `vcmpps` predicate of a float condition (ordered conditions false on NaN, `N*` true).
fn fpred(c: Cond) -> u32 {
    match c {
        Cond::F => 0x0b,                 // FALSE_OQ
        Cond::Lt => 0x11,                // LT_OQ
        Cond::Eq => 0x00,                // EQ_OQ
        Cond::Le => 0x12,                // LE_OQ
        Cond::Gt => 0x1e,                // GT_OQ
        Cond::Lg => 0x0c,                // NEQ_OQ
        Cond::Ge => 0x1d,                // GE_OQ
        Cond::O => 0x07,                 // ORD_Q
        Cond::U => 0x03,                 // UNORD_Q
        Cond::Nge => 0x09,               // NGE_UQ
        Cond::Nlg => 0x18,               // EQ_UQ
        Cond::Ngt => 0x0a,               // NGT_UQ
        Cond::Nle => 0x06,               // NLE_UQ
        Cond::Neq | Cond::Ne => 0x04,    // NEQ_UQ
        Cond::Nlt => 0x05,               // NLT_UQ
        Cond::Tru | Cond::Class => 0x0f, // TRUE_UQ
    }
}

/// The integer predicate of a condition.
fn ipred(c: Cond) -> R<Icmp> {
    Ok(match c {
        Cond::F => Icmp::False,
        Cond::Lt => Icmp::Lt,
        Cond::Eq => Icmp::Eq,
        Cond::Le => Icmp::Le,
        Cond::Gt => Icmp::Gt,
        Cond::Ge => Icmp::Ge,
        Cond::Ne => Icmp::Ne,
        Cond::Tru => Icmp::True,
        _ => return Err(err("integer condition")),
    })
}

/// The predicate `p'` with `y p' x` exactly when `x p y`.
fn mirrored(p: Icmp) -> Icmp {
    match p {
        Icmp::Lt => Icmp::Gt,
        Icmp::Gt => Icmp::Lt,
        Icmp::Le => Icmp::Ge,
        Icmp::Ge => Icmp::Le,
        other => other,
    }
}

impl Emitter<'_> {
    pub(super) fn lane_cmp(&mut self, li: &LaneInst, ty: CmpTy, c: Cond) -> R<()> {
        if !li.writes_exec && self.mask_unread() {
            return Ok(()); // a compare writes nothing but its mask
        }
        let m = self.mtmp()?;
        // AVX2: `m` may hold the complement, folded into the `and` with EXEC.
        let mut inverted = false;
        match ty {
            CmpTy::F32 if c == Cond::Class => self.class(li, m, false)?,
            CmpTy::F64 if c == Cond::Class => self.class(li, m, true)?,
            CmpTy::F32 => {
                let x = self.fsrc(li, 0)?;
                let y = if li.abs & 2 != 0 || li.neg & 2 != 0 {
                    Vs::R(self.fsrc(li, 1)?)
                } else {
                    self.opd(li.src[1][0])?
                };
                self.v_fcmp(m, fpred(c), x, y)?;
            }
            CmpTy::I32 | CmpTy::U32 if li.sdwa.is_some() => {
                let (x, y) = self.sdwa_sources(li)?;
                inverted =
                    self.v_icmp_maybe_inverted(m, ipred(c)?, ty == CmpTy::I32, x, Vs::R(y))?;
            }
            CmpTy::I32 | CmpTy::U32 => {
                // The first source must be a register. A uniform one (the compiler puts
                // scalars and constants first) goes second, as a memory or broadcast
                // operand, with the order mirrored: one broadcast fewer per chunk.
                let (mut a, mut b, mut p) = (li.src[0][0], li.src[1][0], ipred(c)?);
                if a.uniform() && !b.uniform() {
                    (a, b, p) = (b, a, mirrored(p));
                }
                let x = self.opd_reg(a)?;
                let y = self.opd(b)?;
                inverted = self.v_icmp_maybe_inverted(m, p, ty == CmpTy::I32, x, y)?;
            }
            CmpTy::I16 | CmpTy::U16 if li.sdwa.is_none() && const_src(li).is_some() => {
                // A register against a constant (`x == 0` of LLVM's bool arithmetic): the
                // constant's half extended here, the register's in a temporary.
                let signed = ty == CmpTy::I16;
                let (kpos, k) = const_src(li).expect("checked");
                let k = if signed {
                    k as u16 as i16 as i32 as u32
                } else {
                    k & 0xffff
                };
                let src = self.opd_reg(li.src[1 - kpos][0])?;
                let t = self.tmp()?;
                if signed {
                    self.v_slli(t, src, 16)?;
                    self.v_srai(t, t, 16)?;
                } else {
                    let lo = self.opd(Opd::K(0xffff))?;
                    self.v_and(t, src, lo)?;
                    self.release(lo);
                }
                let (x, y) = match kpos {
                    0 => (self.opd_reg(Opd::K(k))?, Vs::R(t)),
                    _ => (t, self.opd(Opd::K(k))?),
                };
                inverted = self.v_icmp_maybe_inverted(m, ipred(c)?, signed, x, y)?;
            }
            CmpTy::I16 | CmpTy::U16 => {
                // The low halves (of the SDWA fields), zero- or sign-extended to 32 bits.
                let (x, y) = self.sdwa_sources(li)?;
                if ty == CmpTy::U16 {
                    let k = self.opd(Opd::K(0xffff))?;
                    self.v_and(x, x, k)?;
                    self.v_and(y, y, k)?;
                    self.release(k);
                } else {
                    for v in [x, y] {
                        self.v_slli(v, v, 16)?;
                        self.v_srai(v, v, 16)?;
                    }
                }
                inverted =
                    self.v_icmp_maybe_inverted(m, ipred(c)?, ty == CmpTy::I16, x, Vs::R(y))?;
            }
            CmpTy::I64 | CmpTy::U64 => self.cmp64(li, m, ipred(c)?, ty == CmpTy::I64)?,
            CmpTy::F64 => self.cmp_f64(li, m, fpred(c))?,
            CmpTy::F16 => {
                // Widening is exact and keeps the order, NaNs included.
                let bit = |m: u8, i: usize| m >> i & 1 != 0;
                let x = self.half_src(li.src[0][0], false, bit(li.abs, 0), bit(li.neg, 0))?;
                let y = self.half_src(li.src[1][0], false, bit(li.abs, 1), bit(li.neg, 1))?;
                self.v_fcmp(m, fpred(c), x, Vs::R(y))?;
                self.free(x);
                self.free(y);
            }
        }
        let target = li.mask_out.unwrap_or(VCC_LO as u8);
        self.mask_out_maybe_inverted(target, m, inverted, li.writes_exec)
    }

    /// `v_cmp_class_f32` and (`wide`) `v_cmp_class_f64`: `m` = the lanes whose src1 has the
    /// bit of src0's class (with src0's abs/neg; `valu::compare::class_bit`: 0 sNaN, 1 qNaN,
    /// 2-5 -inf, -normal, -denormal, -0, 6-9 +0, +denormal, +normal, +inf). The index comes
    /// from integer arithmetic on the bits: with a = |x|, t = [a != 0] + [a >= the smallest
    /// normal] + [a >= inf] counts up from zero through denormal and normal to infinity, so
    /// +x is class 6 + t and -x class 5 - t; a NaN (a above inf's bits) is class 0 or 1 by
    /// its quiet bit. Then src1 >> class. f64 works on the high dword (sign, exponent, quiet
    /// bit, the top of the mantissa) with bit 0 set where the low dword is not zero: that
    /// keeps every comparison with those thresholds (whose low dwords are zero) exact.
    fn class(&mut self, li: &LaneInst, m: M, wide: bool) -> R<()> {
        // (exponent shift, inf + 1 ulp, quiet bit's position) of the word compared.
        let (exp_shift, nan_min, quiet) = match wide {
            false => (23, 0x7f80_0001, 22),
            true => (20, 0x7ff0_0001, 19),
        };
        let min_normal = 1 << exp_shift;
        let x = if wide {
            let mut hi = *li;
            hi.src[0][0] = li.src[0][1];
            self.fsrc(&hi, 0)?
        } else {
            self.fsrc(li, 0)?
        };
        let (a, t) = (self.tmp()?, self.tmp()?);
        let k = |e: &mut Self, n: u32| e.opd(Opd::K(n));
        let c = k(self, 0x7fff_ffff)?;
        self.v_and(a, x, c)?;
        self.release(c);
        if wide {
            // a |= [lo != 0]
            let lo = self.opd_reg(li.src[0][0])?;
            let one = k(self, 1)?;
            self.v_minu(t, lo, one)?;
            self.release(one);
            self.free(lo);
            self.v_or(a, a, Vs::R(t))?;
        }
        let (u, v) = (self.tmp()?, self.tmp()?);
        // t = [a != 0] + [a >= min_normal] + [a >= inf] (inf + min_normal = 2^31)
        let one = k(self, 1)?;
        self.v_minu(t, a, one)?;
        self.v_srli(u, a, exp_shift)?;
        self.v_minu(u, u, one)?;
        self.release(one);
        self.v_add(t, t, Vs::R(u))?;
        let c = k(self, min_normal)?;
        self.v_add(u, a, c)?;
        self.release(c);
        self.v_srli(u, u, 31)?;
        self.v_add(t, t, Vs::R(u))?;
        // t = 6 + t, less 1 + 2t where x is negative.
        self.v_add(u, t, Vs::R(t))?;
        let c = k(self, 1)?;
        self.v_add(u, u, c)?;
        self.release(c);
        self.v_srai(v, x, 31)?;
        self.v_and(u, u, Vs::R(v))?;
        let c = k(self, 6)?;
        self.v_add(t, t, c)?;
        self.release(c);
        self.v_sub(t, t, Vs::R(u))?;
        // v = the lanes that are no NaN (a - nan_min negative), u = a NaN's class (its quiet
        // bit).
        let c = k(self, nan_min)?;
        self.v_sub(v, a, c)?;
        self.release(c);
        self.v_srai(v, v, 31)?;
        self.v_srli(u, x, quiet)?;
        let c = k(self, 1)?;
        self.v_and(u, u, c)?;
        self.release(c);
        self.v_and(t, t, Vs::R(v))?;
        self.v_andn(u, v, Vs::R(u))?;
        self.v_or(t, t, Vs::R(u))?;
        self.free(x);
        for r in [a, u, v] {
            self.free(r);
        }
        // The class's bit of src1 (no modifier applies to it) into the sign.
        let y = self.opd_reg(li.src[1][0])?;
        self.v_srlv(t, y, Vs::R(t))?;
        self.free(y);
        self.v_slli(t, t, 31)?;
        self.m_from_signs(m, t)?;
        self.free(t);
        Ok(())
    }

    /// Sources 0 and 1 in registers the lowering may overwrite, with their SDWA fields
    /// selected (`exec::lanes::sdwa_select`: a byte or word, zero- or sign-extended) when the
    /// instruction has them.
    pub(super) fn sdwa_sources(&mut self, li: &LaneInst) -> R<(V, V)> {
        let (x, y) = (
            self.opd_scratch(li.src[0][0])?,
            self.opd_scratch(li.src[1][0])?,
        );
        for (v, (sel, sext)) in [x, y].into_iter().zip(li.sdwa.unwrap_or([(6, false); 2])) {
            let Some((shift, bits)) = crate::exec::lanes::sdwa_field(sel) else {
                continue;
            };
            self.v_slli(v, v, 32 - bits - shift)?;
            if sext {
                self.v_srai(v, v, 32 - bits)?;
            } else {
                self.v_srli(v, v, 32 - bits)?;
            }
        }
        Ok((x, y))
    }

    /// 64-bit compare of pairs: the high halves decide, unless equal; then the low halves,
    /// unsigned.
    fn cmp64(&mut self, li: &LaneInst, m: M, p: Icmp, signed: bool) -> R<()> {
        let (xl, xh) = (self.opd_reg(li.src[0][0])?, self.opd_reg(li.src[0][1])?);
        let (yl, yh) = (self.opd(li.src[1][0])?, self.opd(li.src[1][1])?);
        match p {
            Icmp::True | Icmp::False => return self.v_icmp(m, p, false, xl, yl),
            Icmp::Eq | Icmp::Ne => {
                let e2 = self.mtmp()?;
                self.v_icmp(m, Icmp::Eq, false, xl, yl)?;
                self.v_icmp(e2, Icmp::Eq, false, xh, yh)?;
                self.m_and(m, m, e2)?;
                if p == Icmp::Ne {
                    // m = !m: xor with all lanes (the result is restricted to EXEC later).
                    self.v_icmp(e2, Icmp::True, false, xl, yl)?;
                    self.m_xor(m, m, e2)?;
                }
                self.mfree(e2);
            }
            _ => {
                let strict = if matches!(p, Icmp::Lt | Icmp::Le) {
                    Icmp::Lt
                } else {
                    Icmp::Gt
                };
                let (eq, lo) = (self.mtmp()?, self.mtmp()?);
                self.v_icmp(m, strict, signed, xh, yh)?;
                self.v_icmp(eq, Icmp::Eq, false, xh, yh)?;
                self.v_icmp(lo, p, false, xl, yl)?;
                self.m_and(eq, eq, lo)?;
                self.m_or(m, m, eq)?;
                self.mfree(eq);
                self.mfree(lo);
            }
        }
        Ok(())
    }
}

/// Which source of a two-source compare is a constant, and the constant (the first, if both).
fn const_src(li: &LaneInst) -> Option<(usize, u32)> {
    (0..2).find_map(|i| match li.src[i][0] {
        Opd::K(k) => Some((i, k)),
        _ => None,
    })
}
