//! Lowering of f16 add, subtract and multiply (`v_add/sub/subrev/mul_f16`, and both halves
//! of `v_pk_add_f16` and `v_pk_mul_f16`) through f32, in the mode the block guards ensure
//! (round to nearest even for f16 and f32, f16 denormals kept). The interpreter (`valu::farith`) rounds the exact result once to f16.
//! Here each f16 source widens exactly to f32 (`vcvtph2ps`), the f32 operation rounds, and
//! `vcvtps2ph` rounds again to f16; the two roundings give the one rounding's result:
//! - a product of two f16 significands has at most 22 bits and every f16 product's exponent
//!   lies inside f32's normal range, so the f32 product is exact;
//! - a sum: double rounding through a format of p' ≥ 2p + 2 bits is innocuous for addition
//!   (Figueroa, "When is double rounding innocuous?", 1995; 24 ≥ 2·11 + 2), and where the sum
//!   is below f16's normal range it is a multiple of 2^-24 and so exact in both formats.
//!
//! - an fma (`v_fma_f16`, `v_pk_fma_f16`): the exact value rounded to odd in f32 (toward
//!   zero, the last bit set where that was inexact), after which a rounding to a format of
//!   p ≤ 24 - 2 bits gives the exact value's rounding (Boldo and Melquiond, "Emulation of
//!   FMA and correctly rounded sums: proved algorithms using rounding to odd", 2008). Every
//!   term is a multiple of 2^-48, so a nonzero result is an f32 normal, and an exact zero
//!   gets the same sign toward zero as to nearest. AVX-512 rounds the f32 fma down, up and
//!   toward zero (embedded rounding); AVX2, which has no per-instruction rounding, adds the
//!   exact product to the addend to nearest and gets the addition's exact error (TwoSum),
//!   from which the odd neighbour follows (see [`Emitter::fma_to_odd_avx2`]).
//!
//! f32's denormal mode cannot matter: no f16 value or such result is an f32 denormal. NaNs
//! follow the f32 rules (`lane_float.rs`): widening keeps a NaN's sign and payload and sets
//! the quiet bit, narrowing keeps the sign and the payload's top, so the first NaN operand
//! quieted (a subtrahend's sign flipped) and the default NaN come out as the interpreter's
//! f16 ones. A scalar result is zero-extended (`valu::fops::half16`: these forms zero the
//! high half).
//!
//! The f16 values of a chunk travel packed: the chunk's 16 (AVX-512) or 8 (AVX2) words in
//! the low half of a vector register, the form `vcvtph2ps` reads and `vcvtps2ph` writes.

use super::emit::{err, Emitter, R};
use super::select::{LaneInst, Opd};
use super::vx::{kr, xr, yr, zk, zr, Isa, Vs, V};
use crate::valu::FOp;

const SIGN: u32 = 0x8000_0000;
/// `vcmpps` predicate: unordered (either operand NaN).
const UNORD: u32 = 3;
/// `vcmpps` predicate: ordered and not equal (false where either operand is NaN).
const NEQ_OQ: u32 = 0x0c;

impl Emitter<'_> {
    pub(super) fn lane_f16(&mut self, li: &LaneInst, op: FOp) -> R<()> {
        let d = li.dst.ok_or_else(|| err("no destination"))?;
        let bit = |m: u8, i: usize| m >> i & 1 != 0;
        let x = self.half_src(li.src[0][0], false, bit(li.abs, 0), bit(li.neg, 0))?;
        let y = self.half_src(li.src[1][0], false, bit(li.abs, 1), bit(li.neg, 1))?;
        let fma = op == FOp::FmaKeep16;
        let z = match fma {
            true => Some(self.half_src(li.src[2][0], false, bit(li.abs, 2), bit(li.neg, 2))?),
            false => None,
        };
        // (SubRev: source 1 minus source 0.)
        let (x, y, op) = match op {
            FOp::SubRev => (y, x, FOp::Sub),
            FOp::FmaKeep16 => (x, y, FOp::Fma),
            _ => (x, y, op),
        };
        let h = self.half_op(op, x, y, z)?;
        // v_fma_f16 keeps the destination's high half (read as source 2's second word).
        let keep = match fma {
            true => {
                let old = self.opd_reg(li.src[2][1])?;
                let t = self.tmp()?;
                let k = self.opd(Opd::K(0xffff_0000))?;
                self.v_and(t, old, k)?;
                self.release(k);
                self.free(old);
                Some(t)
            }
            false => None,
        };
        let r = self.dst_reg(d)?;
        self.unpack_halves(r, h)?;
        self.free(h);
        if let Some(t) = keep {
            self.v_or(r, r, Vs::R(t))?;
            self.free(t);
        }
        self.put(d, r)
    }

    /// `v_sqrt_f16`: the f32 square root of the widened source (correctly rounded) rounded
    /// to f16, which is the correctly rounded f16 root the interpreter computes (double
    /// rounding is innocuous for the square root from 24 to 11 bits, as for the sum). A NaN
    /// source comes out quieted (x86 passes it through with the quiet bit set, and the
    /// narrowing keeps its sign and payload's top); the root of a negative number is the
    /// positive default NaN, where x86 gives the negative one (fixed up out of line).
    pub(super) fn lane_sqrt_f16(&mut self, li: &LaneInst) -> R<()> {
        let d = li.dst.ok_or_else(|| err("no destination"))?;
        let x = self.half_src(li.src[0][0], false, li.abs & 1 != 0, li.neg & 1 != 0)?;
        let t = self.tmp()?;
        match self.isa {
            Isa::Avx512 => self.a.vsqrtps(zr(t), zr(x))?,
            Isa::Avx2 => self.a.vsqrtps(yr(t), yr(x))?,
        }
        self.default_nan_fix(t, x)?;
        self.free(x);
        self.narrow_to_halves(t, t)?;
        let r = self.dst_reg(d)?;
        self.unpack_halves(r, t)?;
        self.free(t);
        self.put(d, r)
    }

    /// `v_pack_b32_f16`: source 0's low (`op_sel` bit 0: high) half below source 1's low (bit
    /// 1: high) half, abs clearing and neg flipping each half's sign bit.
    pub(super) fn lane_pack_f16(&mut self, li: &LaneInst, op_sel: u8) -> R<()> {
        let d = li.dst.ok_or_else(|| err("no destination"))?;
        let mut halves = [V(0); 2];
        for (i, h) in halves.iter_mut().enumerate() {
            let s = self.opd_reg(li.src[i][0])?;
            let t = self.tmp()?;
            // The half in place: low for source 0, high for source 1.
            match (i, op_sel >> i & 1 != 0) {
                (0, true) => self.v_srli(t, s, 16)?,
                (1, false) => self.v_slli(t, s, 16)?,
                (_, high) => {
                    let k = self.opd(Opd::K(if high { 0xffff_0000 } else { 0xffff }))?;
                    self.v_and(t, s, k)?;
                    self.release(k);
                }
            }
            self.free(s);
            let sign = 0x8000u32 << (16 * i);
            if li.abs >> i & 1 != 0 {
                let k = self.opd(Opd::K(!sign))?;
                self.v_and(t, t, k)?;
                self.release(k);
            }
            if li.neg >> i & 1 != 0 {
                let k = self.opd(Opd::K(sign))?;
                self.v_xor(t, t, k)?;
                self.release(k);
            }
            *h = t;
        }
        let r = self.dst_reg(d)?;
        self.v_or(r, halves[0], Vs::R(halves[1]))?;
        self.free(halves[0]);
        self.free(halves[1]);
        self.put(d, r)
    }

    /// `v_pk_add_f16`/`v_pk_mul_f16`: half k (0 low, 1 high) from the sources' halves that
    /// bit i of `sel[k]` picks for source i (1: its high half), negated where bit i of
    /// `neg[k]` is set.
    pub(super) fn lane_pk_f16(
        &mut self,
        li: &LaneInst,
        op: FOp,
        sel: [u8; 2],
        neg: [u8; 2],
    ) -> R<()> {
        let d = li.dst.ok_or_else(|| err("no destination"))?;
        let bit = |m: u8, i: usize| m >> i & 1 != 0;
        let mut halves = [V(0); 2];
        // On AVX2 the first half waits in a mask temporary (a plain ymm register there), so
        // that the second half's fma and NaN fix-up have the vector temporaries they need.
        let mut parked = None;
        for k in 0..2 {
            let x = self.half_src(li.src[0][0], bit(sel[k], 0), false, bit(neg[k], 0))?;
            let y = self.half_src(li.src[1][0], bit(sel[k], 1), false, bit(neg[k], 1))?;
            let z = match op {
                FOp::Fma => {
                    Some(self.half_src(li.src[2][0], bit(sel[k], 2), false, bit(neg[k], 2))?)
                }
                _ => None,
            };
            halves[k] = self.half_op(op, x, y, z)?;
            if k == 0 && self.isa == Isa::Avx2 {
                let m = self.mtmp()?;
                self.v_mov(V(m.0), Vs::R(halves[0]))?;
                self.free(halves[0]);
                halves[0] = V(m.0);
                parked = Some(m);
            }
        }
        let r = self.dst_reg(d)?;
        let t = self.tmp()?;
        self.unpack_halves(r, halves[0])?;
        self.unpack_halves(t, halves[1])?;
        self.v_slli(t, t, 16)?;
        self.v_or(r, r, Vs::R(t))?;
        self.free(t);
        match parked {
            Some(m) => self.mfree(m),
            None => self.free(halves[0]),
        }
        self.free(halves[1]);
        self.put(d, r)
    }

    /// `x op y` (Add, Sub or Mul), or `x * y + z` (Fma), of f16 operands widened to f32
    /// (freed), NaNs by the f32 rules, rounded to 16 f16 words in the low half of the
    /// returned temporary.
    fn half_op(&mut self, op: FOp, x: V, y: V, z: Option<V>) -> R<V> {
        let t = self.tmp()?;
        match (op, z) {
            (FOp::Add, _) => self.v_fadd(t, x, Vs::R(y))?,
            (FOp::Sub, _) => self.v_fsub(t, x, Vs::R(y))?,
            (FOp::Mul, _) => self.v_fmul(t, x, Vs::R(y))?,
            (FOp::Fma, Some(z)) if self.isa == Isa::Avx512 => self.fma_to_odd(t, x, y, z)?,
            (FOp::Fma, Some(z)) => self.fma_to_odd_avx2(t, x, y, z)?,
            _ => return Err(err("f16 op")),
        }
        let nan = self.mtmp()?;
        self.v_fcmp(nan, UNORD, t, Vs::R(t))?;
        let sub = op == FOp::Sub;
        // The fix-up's temporaries: nan3's two and a negated subtrahend.
        self.out_of_line_if(nan, (2 + usize::from(sub), 1), move |e| {
            let y = match sub {
                true => {
                    let f = e.tmp()?;
                    e.v_const(f, SIGN)?;
                    e.v_xor(f, y, Vs::R(f))?;
                    f
                }
                false => y,
            };
            e.nan_fix(false, t, nan, [Some(x), Some(y), z])
        })?;
        self.mfree(nan);
        self.free(x);
        self.free(y);
        if let Some(z) = z {
            self.free(z);
        }
        self.narrow_to_halves(t, t)?;
        Ok(t)
    }

    /// `t = x * y + z` in f32 rounded to odd: toward zero, the last bit set where rounding
    /// down and rounding up give different values (inexact).
    fn fma_to_odd(&mut self, t: V, x: V, y: V, z: V) -> R<()> {
        let (u, w) = (self.tmp()?, self.tmp()?);
        self.v_mov(t, Vs::R(x))?;
        self.v_mov(u, Vs::R(x))?;
        self.v_mov(w, Vs::R(x))?;
        self.a.vfmadd213ps(zr(t), zr(y), zr(z).rz_sae())?;
        self.a.vfmadd213ps(zr(u), zr(y), zr(z).ru_sae())?;
        self.a.vfmadd213ps(zr(w), zr(y), zr(z).rd_sae())?;
        let m = self.mtmp()?;
        self.a.vpcmpd(kr(m), zr(u), zr(w), 4)?; // not equal
        let k = self.opd(Opd::K(1))?;
        self.v_mov(u, k)?;
        self.release(k);
        self.a.vpord(zk(zr(t), m), zr(t), zr(u))?;
        self.mfree(m);
        self.free(u);
        self.free(w);
        Ok(())
    }

    /// `t = x * y + z` in f32 rounded to odd, on AVX2 (round to nearest is MXCSR's mode
    /// here): the product is exact (two 11-bit significands, well inside f32's range), so
    /// only the sum rounds. TwoSum (Knuth; exact in round to nearest without overflow) gives
    /// s = RN(p + z) and its error e = p + z - s exactly. s is one of the two f32 neighbours
    /// of the exact value; where e is not zero and s is even, the odd one is the other
    /// neighbour: s's bits plus one where e has s's sign (the exact value lies further from
    /// zero), minus one where it has the opposite sign. (Stepping down from a power of two
    /// lands on the binade below's last value, the right neighbour there too; s is never zero
    /// where e is not, and an infinite or NaN s has a NaN e and stays.)
    fn fma_to_odd_avx2(&mut self, t: V, x: V, y: V, z: V) -> R<()> {
        // (Two of the scratch registers are mask temporaries, plain ymm registers on AVX2:
        // the packed fma's second half has only one vector temporary left.)
        let (pm, bm) = (self.mtmp()?, self.mtmp()?);
        let (p, b, e) = (V(pm.0), V(bm.0), self.tmp()?);
        self.v_fmul(p, x, Vs::R(y))?;
        self.v_fadd(t, p, Vs::R(z))?;
        self.v_fsub(b, t, Vs::R(p))?; // the part of s that came from z
        self.v_fsub(e, t, Vs::R(b))?;
        self.v_fsub(e, p, Vs::R(e))?; // p's rounding error
        self.v_fsub(b, z, Vs::R(b))?; // z's
        self.v_fadd(e, e, Vs::R(b))?;
        // b = -1 where e and s differ in sign, 0 where they agree.
        self.v_xor(b, e, Vs::R(t))?;
        self.v_srai(b, b, 31)?;
        // e = -1 where the step applies: e not zero (nor NaN) and s's last bit clear.
        self.v_xor(p, p, Vs::R(p))?;
        self.a.vcmpps(yr(e), yr(e), yr(p), NEQ_OQ)?;
        self.v_slli(p, t, 31)?;
        self.v_srai(p, p, 31)?;
        self.a.vpandn(yr(e), yr(p), yr(e))?;
        // s + 1, or s + 1 - 2 where the signs differ.
        self.v_sub(t, t, Vs::R(e))?;
        self.v_and(b, b, Vs::R(e))?;
        self.v_slli(b, b, 1)?;
        self.v_add(t, t, Vs::R(b))?;
        self.mfree(pm);
        self.mfree(bm);
        self.free(e);
        Ok(())
    }

    /// An f16 operand widened to f32: the low (`high`: high) halves of `o`, then abs/neg.
    pub(super) fn half_src(&mut self, o: Opd, high: bool, abs: bool, neg: bool) -> R<V> {
        let s = self.opd_reg(o)?;
        let t = self.tmp()?;
        self.pack_halves(t, s, high)?;
        self.free(s);
        self.widen_halves(t, t)?;
        self.sign_mods(t, abs, neg)?;
        Ok(t)
    }

    /// The low (`high`: high) words of `s`'s dwords packed in lane order into `t`'s low half.
    pub(super) fn pack_halves(&mut self, t: V, s: V, high: bool) -> R<()> {
        match (self.isa, high) {
            (Isa::Avx512, false) => self.a.vpmovdw(yr(t), zr(s))?,
            (Isa::Avx512, true) => {
                self.v_srli(t, s, 16)?;
                self.a.vpmovdw(yr(t), zr(t))?;
            }
            (Isa::Avx2, _) => {
                // Each word as a dword below 2^16, which the saturating pack keeps. The pack
                // works within 128-bit halves: its qwords 0 and 2 hold the 8 words in order.
                if high {
                    self.v_srli(t, s, 16)?;
                } else {
                    let k = self.opd(Opd::K(0xffff))?;
                    self.v_and(t, s, k)?;
                    self.release(k);
                }
                self.a.vpackusdw(yr(t), yr(t), yr(t))?;
                self.a.vpermq(yr(t), yr(t), 0x08)?;
            }
        }
        Ok(())
    }

    /// `r` = the f32 values of the f16 words packed in `t` (exact).
    pub(super) fn widen_halves(&mut self, r: V, t: V) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.vcvtph2ps(zr(r), yr(t))?,
            Isa::Avx2 => self.a.vcvtph2ps(yr(r), xr(t))?,
        }
        Ok(())
    }

    /// `t`'s packed words = `x` rounded to f16, to nearest even (immediate 0).
    pub(super) fn narrow_to_halves(&mut self, t: V, x: V) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.vcvtps2ph(yr(t), zr(x), 0)?,
            Isa::Avx2 => self.a.vcvtps2ph(xr(t), yr(x), 0)?,
        }
        Ok(())
    }

    /// `r`'s dwords = the words packed in `h`, zero-extended.
    pub(super) fn unpack_halves(&mut self, r: V, h: V) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.vpmovzxwd(zr(r), yr(h))?,
            Isa::Avx2 => self.a.vpmovzxwd(yr(r), xr(h))?,
        }
        Ok(())
    }
}
