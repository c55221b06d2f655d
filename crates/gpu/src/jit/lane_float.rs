//! Lowering of f32 lane arithmetic (add, sub, subrev, mul, fma/fmac, min, max) with VOP3
//! abs/neg source modifiers, in the mode the block guard ensures: round to nearest even, f32
//! denormals kept, IEEE mode. The host computes the same correctly rounded results; where the
//! rules differ is NaN: AMD returns the first NaN operand quieted (a subtrahend's sign
//! flipped) or the positive default NaN, and has its own min/max NaN rules. Any NaN lane takes
//! an out-of-line path that rebuilds those lanes by the interpreter's rules (`valu::fast32`).

use super::emit::{bind, err, Emitter, R};
use super::select::{LaneInst, LaneOp, Opd};
use super::vx::{kr, zr, Isa, Vs, M, V};
use crate::valu::FOp;

const SIGN: u32 = 0x8000_0000;
const QUIET: u32 = 0x0040_0000;
const DEFAULT_NAN: u32 = 0x7fc0_0000;
/// `vcmpps` predicates.
const UNORD: u32 = 3;
const EQ_OQ: u32 = 0;

impl<'p> Emitter<'p> {
    /// Source `i` of a float op with its abs/neg modifiers applied.
    pub(super) fn fsrc(&mut self, li: &LaneInst, i: usize) -> R<V> {
        let (abs, neg) = (li.abs >> i & 1 != 0, li.neg >> i & 1 != 0);
        if !abs && !neg {
            return self.opd_reg(li.src[i][0]);
        }
        let v = self.opd_scratch(li.src[i][0])?;
        self.sign_mods(v, abs, neg)?;
        Ok(v)
    }

    /// `v = -|v|`, `|v|` or `-v` as `abs` and `neg` say, on f32 lanes in place.
    pub(super) fn sign_mods(&mut self, v: V, abs: bool, neg: bool) -> R<()> {
        if abs {
            let k = self.opd(Opd::K(0x7fff_ffff))?;
            self.v_and(v, v, k)?;
            self.release(k);
        }
        if neg {
            let k = self.opd(Opd::K(SIGN))?;
            self.v_xor(v, v, k)?;
            self.release(k);
        }
        Ok(())
    }

    /// Source `i` of a float op as an operand: memory (or, on AVX-512, a broadcast) where it
    /// has no modifiers and no register, for the last source of an instruction to read.
    fn fsrc_opd(&mut self, li: &LaneInst, i: usize) -> R<Vs> {
        if li.abs >> i & 1 == 0 && li.neg >> i & 1 == 0 {
            return self.opd(li.src[i][0]);
        }
        Ok(Vs::R(self.fsrc(li, i)?))
    }

    /// The two sources of a binary f32 op, the one the op reads last as an operand (memory
    /// allowed): for a subtraction its subtrahend, for a commutative op the one not in a
    /// register. Returns (first, last, swapped): swapped when the last is source 0.
    fn fsrc_pair(&mut self, li: &LaneInst, op: FOp) -> R<(V, Vs, bool)> {
        let swap = match op {
            FOp::SubRev => true,
            FOp::Add | FOp::Mul => {
                let mods = li.abs | li.neg;
                mods & 3 == 0 && self.in_reg(li.src[1][0]) && !self.in_reg(li.src[0][0])
            }
            _ => false,
        };
        let (first, last) = if swap { (1, 0) } else { (0, 1) };
        let x = self.fsrc(li, first)?;
        let y = self.fsrc_opd(li, last)?;
        Ok((x, y, swap))
    }

    /// Operand `s` in a register (a temporary taken for a memory or broadcast one).
    fn vs_reg(&mut self, s: Vs) -> R<V> {
        match s {
            Vs::R(v) => Ok(v),
            other => {
                let t = self.tmp()?;
                self.v_mov(t, other)?;
                Ok(t)
            }
        }
    }

    /// Takes `nv` vector and `nm` mask temporaries now, for code out of line to use: the free
    /// sets to install there.
    pub(super) fn reserve(&mut self, nv: usize, nm: usize) -> R<(u32, u32)> {
        let (mut fv, mut fm) = (0u32, 0u32);
        for _ in 0..nv {
            fv |= 1 << self.tmp()?.0;
        }
        for _ in 0..nm {
            fm |= 1 << self.mtmp()?.0;
        }
        Ok((fv, fm))
    }

    pub(super) fn lane_f32(&mut self, _i: u32, li: &LaneInst, op: FOp) -> R<()> {
        let d = li.dst.ok_or_else(|| err("no destination"))?;
        if matches!(op, FOp::Add | FOp::Sub | FOp::SubRev | FOp::Mul) {
            return self.f32_binary(d, li, op);
        }
        let x = self.fsrc(li, 0)?;
        let y = self.fsrc(li, 1)?;
        let zs = if op == FOp::Fma {
            Some(self.fsrc(li, 2)?)
        } else {
            None
        };
        if self.nan_redo.is_some() && super::nan_defer::deferred(li) {
            return self.f32_bare(d, op, x, Vs::R(y), zs);
        }
        let t = self.tmp()?;
        let nan = self.mtmp()?;
        if matches!(op, FOp::Min | FOp::Max) {
            let (fv, fm) = self.reserve(3, 2)?;
            // Non-NaN inputs: min = y < x ? y : x, and of equal values (only ±0 differ) the
            // OR of the bits (-0 wins); max likewise with > and AND (+0 wins).
            let (saved_v, saved_m) = (self.free_v, self.free_m);
            self.free_v = fv;
            self.free_m = fm;
            let (c, m) = (self.tmp()?, self.mtmp()?);
            if op == FOp::Min {
                self.v_fmin(t, y, Vs::R(x))?;
                self.v_or(c, x, Vs::R(y))?;
            } else {
                self.v_fmax(t, y, Vs::R(x))?;
                self.v_and(c, x, Vs::R(y))?;
            }
            self.v_fcmp(m, EQ_OQ, x, Vs::R(y))?;
            self.v_blend(t, m, t, c)?;
            self.free_v = saved_v;
            self.free_m = saved_m;
            self.v_fcmp(nan, UNORD, x, Vs::R(y))?;
            return self.nan_exit(d, t, nan, (fv, fm), move |e| e.minmax_nan(t, x, y, nan));
        }
        match (op, zs) {
            (FOp::Fma, Some(z)) => self.v_fma(t, x, y, z)?,
            _ => return Err(err("float op")),
        }
        let reserved = self.reserve(2, 1)?;
        self.v_fcmp(nan, UNORD, t, Vs::R(t))?;
        self.nan_exit(d, t, nan, reserved, move |e| {
            e.nan_fix(false, t, nan, [Some(x), Some(y), zs])
        })
    }

    /// gfx90a's packed f32 add, multiply or fma (`LaneOp::PkF32`): each half as the f32 op of
    /// the dwords it picks, with their negations, in the order that leaves every dword a half
    /// reads unwritten until it is read. In a deferring chunk (`nan_defer.rs`) each half's
    /// NaN test waits as a single op's does.
    pub(super) fn lane_pk_f32(
        &mut self,
        i: u32,
        li: &LaneInst,
        op: FOp,
        sel: [u8; 2],
        neg: [u8; 2],
        hi_first: bool,
    ) -> R<()> {
        let d = li.dst.ok_or_else(|| err("no destination"))?;
        let half = |h: usize| {
            let mut s = *li;
            s.op = LaneOp::F32(op);
            s.dst = Some(d.wrapping_add(h as u8));
            s.dst_wide = false;
            for k in 0..li.n {
                s.src[k] = [li.src[k][usize::from(sel[h] >> k & 1)], li.src[k][1]];
                s.wide[k] = false;
            }
            s.abs = 0;
            s.neg = neg[h] & 7;
            s
        };
        let (free_v, free_m) = (self.free_v, self.free_m);
        for h in if hi_first { [1, 0] } else { [0, 1] } {
            self.lane_f32(i, &half(h), op)?;
            // (The first half's temporaries are free again.)
            (self.free_v, self.free_m) = (free_v, free_m);
        }
        Ok(())
    }

    /// An f32 add, subtraction or multiply: its last source read straight from memory where
    /// it is there, and the NaN test's fix-up out of line.
    fn f32_binary(&mut self, d: u8, li: &LaneInst, op: FOp) -> R<()> {
        let (x, y, swapped) = self.fsrc_pair(li, op)?;
        // (Sub: x - y. SubRev reads source 1 first: y is its source 0, the subtrahend.)
        let op = if op == FOp::SubRev { FOp::Sub } else { op };
        if self.nan_redo.is_some() && super::nan_defer::deferred(li) {
            return self.f32_bare(d, op, x, y, None);
        }
        let t = self.tmp()?;
        let nan = self.mtmp()?;
        match op {
            FOp::Add => self.v_fadd(t, x, y)?,
            FOp::Sub => self.v_fsub(t, x, y)?,
            _ => self.v_fmul(t, x, y)?,
        }
        // The fix-up's temporaries: nan3's two, a negated subtrahend, the operand out of
        // memory.
        let nv = 2 + usize::from(op == FOp::Sub) + usize::from(!matches!(y, Vs::R(_)));
        let reserved = self.reserve(nv, 1)?;
        self.v_fcmp(nan, UNORD, t, Vs::R(t))?;
        self.nan_exit(d, t, nan, reserved, move |e| {
            // nan3 of the operands in the instruction's order, as the op reads them: a
            // subtrahend negated. (Memory and registers still hold them: the result is
            // written after the fix-up.)
            let y = e.vs_reg(y)?;
            let ops = match op {
                FOp::Sub => {
                    let f = e.tmp()?;
                    e.v_const(f, SIGN)?;
                    e.v_xor(f, y, Vs::R(f))?;
                    [Some(x), Some(f), None]
                }
                _ if swapped => [Some(y), Some(x), None],
                _ => [Some(x), Some(y), None],
            };
            e.nan_fix(false, t, nan, ops)
        })
    }

    /// An add, subtraction, multiply or fma without its NaN test, in a deferring chunk
    /// (`nan_defer.rs`): its result is tested where it leaves the run of such ops.
    fn f32_bare(&mut self, d: u8, op: FOp, x: V, y: Vs, z: Option<V>) -> R<()> {
        let t = self.dst_reg(d)?;
        match (op, z, y) {
            (FOp::Add, _, _) => self.v_fadd(t, x, y)?,
            (FOp::Mul, _, _) => self.v_fmul(t, x, y)?,
            (FOp::Sub, _, _) => self.v_fsub(t, x, y)?,
            (FOp::Fma, Some(z), Vs::R(y)) => self.v_fma(t, x, y, z)?,
            _ => return Err(err("float op without a NaN test")),
        }
        if self.pend_nan_test(d) {
            self.put(d, t)
        } else {
            // Stored now: tested now.
            self.nan_test(t)?;
            self.put(d, t)
        }
    }

    /// f32 trunc, floor, ceil, rndne: x86's rounding to an integer keeps the sign of zero and
    /// quiets a NaN with its payload, as `valu::fmisc::round_int` does.
    pub(super) fn lane_f32_round(&mut self, li: &LaneInst, op: FOp) -> R<()> {
        let d = li.dst.ok_or_else(|| err("no destination"))?;
        if op == FOp::Fract {
            return self.fract(li, d);
        }
        let imm = super::lane_f64::round_imm(op).ok_or_else(|| err("rounding op"))?;
        let x = self.fsrc(li, 0)?;
        let r = self.dst_reg(d)?;
        match self.isa {
            Isa::Avx512 => self.a.vrndscaleps(zr(r), zr(x), imm)?,
            Isa::Avx2 => self.a.vroundps(super::vx::yr(r), super::vx::yr(x), imm)?,
        }
        self.put(d, r)
    }

    /// `v_fract_f32` as `valu::fmisc::fract`: x - floor(x) (exact for every f32), at most
    /// the largest f32 below 1; a NaN quieted (x86's subtraction), infinities give the
    /// default NaN.
    fn fract(&mut self, li: &LaneInst, d: u8) -> R<()> {
        let imm = super::lane_f64::round_imm(FOp::Floor).ok_or_else(|| err("rounding op"))?;
        let x = self.fsrc(li, 0)?;
        let r = self.tmp()?;
        match self.isa {
            Isa::Avx512 => self.a.vrndscaleps(zr(r), zr(x), imm)?,
            Isa::Avx2 => self.a.vroundps(super::vx::yr(r), super::vx::yr(x), imm)?,
        }
        self.v_fsub(r, x, Vs::R(r))?;
        // min(below_one, r): the second operand where r is a NaN.
        let k = self.tmp()?;
        self.v_const(k, 1f32.to_bits() - 1)?;
        self.v_fmin(r, k, Vs::R(r))?;
        self.free(k);
        self.put_default_nan(d, r, x)
    }

    /// Stores `t` to VGPR `d`, with the lanes of `nan` fixed out of line by `fix` (which may
    /// use the `reserved` temporaries) first.
    fn nan_exit(
        &mut self,
        d: u8,
        t: V,
        nan: M,
        reserved: (u32, u32),
        fix: impl FnOnce(&mut Emitter<'p>) -> R<()> + 'p,
    ) -> R<()> {
        self.m_test(nan)?;
        let mut cold = self.a.create_label();
        let mut back = self.a.create_label();
        self.a.jnz(cold)?;
        bind(&mut self.a, &mut back)?;
        self.put(d, t)?;
        self.cold(move |e| {
            bind(&mut e.a, &mut cold)?;
            e.free_v = reserved.0;
            e.free_m = reserved.1;
            fix(e)?;
            e.free_all();
            Ok(e.a.jmp(back)?)
        });
        Ok(())
    }

    /// Lanes of `nan` in `t` = the first NaN of `ops` quieted, else the default NaN.
    pub(super) fn nan3(&mut self, t: V, nan: M, ops: [Option<V>; 3]) -> R<()> {
        let (r, m) = (self.tmp()?, self.mtmp()?);
        // Lowest priority first: later assignments win.
        self.v_const(r, DEFAULT_NAN)?;
        for s in ops.into_iter().rev().flatten() {
            self.v_fcmp(m, UNORD, s, Vs::R(s))?;
            self.quiet_into(r, m, s)?;
        }
        self.v_blend(t, nan, t, r)
    }

    /// `r = m ? (s | QUIET) : r` (one vector temporary).
    fn quiet_into(&mut self, r: V, m: M, s: V) -> R<()> {
        let q = self.tmp()?;
        self.v_const(q, QUIET)?;
        self.v_or(q, s, Vs::R(q))?;
        self.v_blend(r, m, r, q)?;
        self.free(q);
        Ok(())
    }

    /// min/max with a NaN operand (IEEE mode, as `valu::fast32::minmax`): a signaling NaN
    /// wins quieted (x before y); else a quiet NaN yields the other operand, y quieted if
    /// both are NaN. Lanes of `any` (either operand NaN) of `t` are replaced.
    fn minmax_nan(&mut self, t: V, x: V, y: V, any: M) -> R<()> {
        let (r, m, s) = (self.tmp()?, self.mtmp()?, self.mtmp()?);
        // Lowest priority first.
        self.v_mov(r, Vs::R(x))?; // y NaN, x not: x
        self.v_fcmp(m, UNORD, x, Vs::R(x))?;
        self.v_blend(r, m, r, y)?; // x NaN: y ...
        self.v_fcmp(s, UNORD, y, Vs::R(y))?;
        self.m_and(s, s, m)?;
        self.quiet_into(r, s, y)?; // ... quieted when NaN too
        self.snan(s, y)?;
        self.quiet_into(r, s, y)?;
        self.snan(s, x)?;
        self.quiet_into(r, s, x)?;
        self.v_blend(t, any, t, r)
    }

    /// `m` = lanes where `v` is a signaling NaN (a NaN with the quiet bit clear); one vector
    /// temporary.
    fn snan(&mut self, m: M, v: V) -> R<()> {
        self.v_fcmp(m, UNORD, v, Vs::R(v))?;
        let q = self.tmp()?;
        match self.isa {
            Isa::Avx512 => {
                self.v_const(q, QUIET)?;
                self.a.vptestnmd(super::vx::kk(kr(m), m), zr(v), zr(q))?;
            }
            Isa::Avx2 => {
                // The quiet bit to the sign, spread: all-ones in quiet lanes.
                self.v_slli(q, v, 9)?;
                self.v_srai(q, q, 31)?;
                let (mv, qv) = (super::vx::yr(V(m.0)), super::vx::yr(q));
                self.a.vpandn(mv, qv, mv)?;
            }
        }
        self.free(q);
        Ok(())
    }
}
