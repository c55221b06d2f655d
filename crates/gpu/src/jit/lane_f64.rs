//! Lowering of f64 lane arithmetic (`v_add_f64`, `v_mul_f64`, `v_fma_f64`, and trunc, floor,
//! ceil, rndne) with VOP3 abs/neg source modifiers, and of conversions to and from f64, on
//! both ISAs, in the mode the block guard ensures: round to nearest even, f64 denormals kept
//! (and the f32 fields as for f32 ops). The host's f64 operations give the interpreter's
//! results (`valu::farith`: the host operation) except for NaN, which AMD returns as the first
//! NaN operand quieted, or the default NaN: any NaN lane takes an out-of-line path that
//! rebuilds those lanes by that rule, as for f32 (`lane_float.rs`).
//!
//! A VGPR pair holds a lane's low dwords in one register and its high dwords in the next.
//! `vpunpckldq`/`vpunpckhdq` of the two make qwords of lanes {0, 1, 4, 5, ...} and {2, 3, 6, 7,
//! ...} of the chunk (each 128-bit block by itself); the op runs on each half, and `vshufps`
//! with 0x88 and 0xdd takes the results' low and high dwords back to lane order. AVX2 does
//! the same on 8-lane chunks (two halves of four qwords) with vector masks; it has no
//! unsigned conversion to f64, so `v_cvt_f64_u32` stays a call-out there.

use super::emit::{bind, err, Emitter, R};
use super::select::{LaneInst, Opd};
use super::vx::{kr, xr, yr, zk, zr, Isa, Vs, M, V};
use crate::valu::{CvtOp, FOp, TrOp};
use iced_x86::code_asm::*;

const QUIET: u64 = 1 << 51;
const DEFAULT_NAN: u64 = 0x7ff8_0000_0000_0000;
/// `vcmppd` predicates: unordered (a NaN operand), ordered, equal (neither a NaN).
const UNORD: i32 = 3;
const ORD: i32 = 7;
const EQ_OQ: i32 = 0;

/// `vpermd` indices taking a chunk's dwords of half 0 (lanes {0, 1, 4, 5, ...}) and of half
/// 1 to the low eight positions.
static HALF_LANES: [[u32; 16]; 2] = [
    [0, 1, 4, 5, 8, 9, 12, 13, 0, 0, 0, 0, 0, 0, 0, 0],
    [2, 3, 6, 7, 10, 11, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0],
];
/// `vpermi2d` indices putting the eight dwords of half 0 (a) and of half 1 (b, 16 + k) back in
/// lane order.
static LANE_ORDER: [u32; 16] = [0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23];
/// AVX2 `vpermq` immediates taking an 8-lane chunk's dword pairs of half 0 (lanes 0, 1, 4, 5:
/// qwords 0 and 2) and of half 1 (qwords 1 and 3) to the low 128 bits; and the one putting
/// the two halves' dwords, joined as [0, 1, 4, 5, 2, 3, 6, 7], back in lane order.
const HALF_QWORDS: [i32; 2] = [0x08, 0x0d];
const JOINED_TO_LANES: i32 = 0xd8;

/// Every qword of a chunk: the quiet bit, and the default NaN (AVX2 out-of-line constants).
static QUIET_Q: [u64; 4] = [QUIET; 4];
static DEFAULT_NAN_Q: [u64; 4] = [DEFAULT_NAN; 4];

/// The `vrndscale*`/`vround*` immediate of a rounding op: the mode (0 nearest even, 1 down, 2
/// up, 3 toward zero) with bit 3 set (no precision exception); `None` for other ops.
pub(super) fn round_imm(op: FOp) -> Option<u32> {
    let mode = match op {
        FOp::Rndne => 0,
        FOp::Floor => 1,
        FOp::Ceil => 2,
        FOp::Trunc => 3,
        _ => return None,
    };
    Some(mode | 8)
}

impl<'p> Emitter<'p> {
    /// `d` = the 64-bit constant `k` in every qword.
    fn q_const(&mut self, d: V, k: u64) -> R<()> {
        self.a.mov(rax, k)?;
        match self.isa {
            Isa::Avx512 => self.a.vpbroadcastq(zr(d), rax)?,
            Isa::Avx2 => {
                self.a.vmovq(xr(d), rax)?;
                self.a.vpbroadcastq(yr(d), xr(d))?;
            }
        }
        Ok(())
    }

    /// Source `i` of the op as qwords of the chunk's `half` (0: lanes {0, 1, 4, 5, ...}), with
    /// its abs/neg modifiers applied, in a new temporary.
    fn f64_src(&mut self, li: &LaneInst, i: usize, half: usize) -> R<V> {
        let lo = self.opd_reg(li.src[i][0])?;
        let (abs, neg) = (li.abs >> i & 1 != 0, li.neg >> i & 1 != 0);
        // The modifiers change only the sign, the high dword's bit 31: applied to that dword
        // with a 32-bit constant (a segment home, or a broadcast), before the unpacking.
        let hi = if abs || neg {
            let h = self.opd_scratch(li.src[i][1])?;
            for (on, k, and) in [(abs, 0x7fff_ffff, true), (neg, 0x8000_0000, false)] {
                if on {
                    let k = self.opd(Opd::K(k))?;
                    if and {
                        self.v_and(h, h, k)?;
                    } else {
                        self.v_xor(h, h, k)?;
                    }
                    self.release(k);
                }
            }
            Vs::R(h)
        } else {
            self.opd(li.src[i][1])?
        };
        let t = self.tmp()?;
        let a = &mut self.a;
        match (self.isa, half, hi) {
            (Isa::Avx512, 0, Vs::R(h)) => a.vpunpckldq(zr(t), zr(lo), zr(h))?,
            (Isa::Avx512, 0, Vs::M(m)) => a.vpunpckldq(zr(t), zr(lo), zmmword_ptr(m))?,
            (Isa::Avx512, 0, Vs::B(m)) => a.vpunpckldq(zr(t), zr(lo), dword_bcst(m))?,
            (Isa::Avx512, _, Vs::R(h)) => a.vpunpckhdq(zr(t), zr(lo), zr(h))?,
            (Isa::Avx512, _, Vs::M(m)) => a.vpunpckhdq(zr(t), zr(lo), zmmword_ptr(m))?,
            (Isa::Avx512, _, Vs::B(m)) => a.vpunpckhdq(zr(t), zr(lo), dword_bcst(m))?,
            (Isa::Avx2, 0, Vs::R(h)) => a.vpunpckldq(yr(t), yr(lo), yr(h))?,
            (Isa::Avx2, 0, Vs::M(m)) => a.vpunpckldq(yr(t), yr(lo), ymmword_ptr(m))?,
            (Isa::Avx2, _, Vs::R(h)) => a.vpunpckhdq(yr(t), yr(lo), yr(h))?,
            (Isa::Avx2, _, Vs::M(m)) => a.vpunpckhdq(yr(t), yr(lo), ymmword_ptr(m))?,
            (Isa::Avx2, _, Vs::B(_)) => return Err(err("broadcast operand on AVX2")),
        }
        self.free(lo);
        self.release(hi);
        Ok(t)
    }

    pub(super) fn lane_f64(&mut self, li: &LaneInst, op: FOp) -> R<()> {
        let d = li.dst.ok_or_else(|| err("no destination"))?;
        if matches!(op, FOp::Min | FOp::Max) {
            return self.f64_minmax(li, d, op == FOp::Max);
        }
        if op == FOp::Fract {
            return self.f64_fract(li, d);
        }
        let mut res = [V(0); 2];
        for (half, r_out) in res.iter_mut().enumerate() {
            let mut q = [None; 3];
            for (i, s) in q.iter_mut().enumerate().take(li.n) {
                *s = Some(self.f64_src(li, i, half)?);
            }
            let get = |k: usize| q[k].ok_or_else(|| err("f64 operand"));
            let r = self.tmp()?;
            if let Some(imm) = round_imm(op) {
                // A NaN comes out quieted with its payload, as `valu::fmisc::round_int` has it.
                match self.isa {
                    Isa::Avx512 => self.a.vrndscalepd(zr(r), zr(get(0)?), imm)?,
                    Isa::Avx2 => self.a.vroundpd(yr(r), yr(get(0)?), imm)?,
                }
                self.free(get(0)?);
                *r_out = r;
                continue;
            }
            let (x, y) = (get(0)?, get(1)?);
            let a = &mut self.a;
            match (self.isa, op) {
                (Isa::Avx512, FOp::Add) => a.vaddpd(zr(r), zr(x), zr(y))?,
                (Isa::Avx512, FOp::Mul) => a.vmulpd(zr(r), zr(x), zr(y))?,
                (Isa::Avx512, FOp::Fma) => {
                    a.vmovapd(zr(r), zr(x))?;
                    a.vfmadd213pd(zr(r), zr(y), zr(get(2)?))?;
                }
                (Isa::Avx2, FOp::Add) => a.vaddpd(yr(r), yr(x), yr(y))?,
                (Isa::Avx2, FOp::Mul) => a.vmulpd(yr(r), yr(x), yr(y))?,
                (Isa::Avx2, FOp::Fma) => {
                    a.vmovapd(yr(r), yr(x))?;
                    a.vfmadd213pd(yr(r), yr(y), yr(get(2)?))?;
                }
                _ => return Err(err("f64 op")),
            }
            self.nan_fixup_f64(r, q)?;
            q.into_iter().flatten().for_each(|v| self.free(v));
            *r_out = r;
        }
        self.put_halves(d, res)
    }

    /// `v_fract_f64` as `valu::fmisc::fract`: x - floor(x) (the host's subtraction, as the
    /// interpreter's), at most the largest f64 below 1 (x a tiny negative number: 1 - tiny
    /// rounds to 1); a NaN comes out quieted with its payload (x86's floor, then its
    /// subtraction returning the first NaN operand), an infinity as the default NaN
    /// (x86's negative one from inf - inf made positive, out of line).
    fn f64_fract(&mut self, li: &LaneInst, d: u8) -> R<()> {
        let floor = round_imm(FOp::Floor).ok_or_else(|| err("rounding op"))?;
        let mut res = [V(0); 2];
        for (half, r_out) in res.iter_mut().enumerate() {
            let x = self.f64_src(li, 0, half)?;
            let (r, k) = (self.tmp()?, self.tmp()?);
            self.q_const(k, 1f64.to_bits() - 1)?;
            let a = &mut self.a;
            match self.isa {
                Isa::Avx512 => {
                    a.vrndscalepd(zr(r), zr(x), floor)?;
                    a.vsubpd(zr(r), zr(x), zr(r))?;
                    // min(below_one, r): r where it is a NaN.
                    a.vminpd(zr(r), zr(k), zr(r))?;
                }
                Isa::Avx2 => {
                    a.vroundpd(yr(r), yr(x), floor)?;
                    a.vsubpd(yr(r), yr(x), yr(r))?;
                    a.vminpd(yr(r), yr(k), yr(r))?;
                }
            }
            self.free(k);
            let nan = self.mtmp()?;
            self.nan_q(nan, r)?;
            self.out_of_line_if(nan, (1, 1), move |e| {
                // The NaN lanes whose input was a number (an infinity): the default NaN.
                let xn = e.mtmp()?;
                e.nan_q(xn, x)?;
                e.m_andn(nan, xn, nan)?;
                let k = e.tmp()?;
                e.q_const(k, DEFAULT_NAN)?;
                e.blend_q(r, nan, k)
            })?;
            self.mfree(nan);
            self.free(x);
            *r_out = r;
        }
        self.put_halves(d, res)
    }

    /// `v_min_f64`/`v_max_f64` in IEEE mode (`valu::fmisc::min/max`): without NaNs, y < x ?
    /// y : x (`vminpd y, x`; max likewise), and of equal operands (only ±0 differ) the OR of
    /// the bits (-0 wins) for min, the AND (+0 wins) for max. A NaN lane is fixed out of line
    /// ([`Emitter::minmax_nan_f64`]).
    fn f64_minmax(&mut self, li: &LaneInst, d: u8, max: bool) -> R<()> {
        let mut res = [V(0); 2];
        for (half, r_out) in res.iter_mut().enumerate() {
            let x = self.f64_src(li, 0, half)?;
            let y = self.f64_src(li, 1, half)?;
            let (r, c) = (self.tmp()?, self.tmp()?);
            let a = &mut self.a;
            match self.isa {
                Isa::Avx512 => {
                    let m = self.mtmp()?;
                    let a = &mut self.a;
                    if max {
                        a.vmaxpd(zr(r), zr(y), zr(x))?;
                        a.vpandq(zr(c), zr(x), zr(y))?;
                    } else {
                        a.vminpd(zr(r), zr(y), zr(x))?;
                        a.vporq(zr(c), zr(x), zr(y))?;
                    }
                    a.vcmppd(kr(m), zr(x), zr(y), EQ_OQ)?;
                    a.vmovapd(zk(zr(r), m), zr(c))?;
                    self.mfree(m);
                }
                Isa::Avx2 => {
                    if max {
                        a.vmaxpd(yr(r), yr(y), yr(x))?;
                        a.vpand(yr(c), yr(x), yr(y))?;
                    } else {
                        a.vminpd(yr(r), yr(y), yr(x))?;
                        a.vpor(yr(c), yr(x), yr(y))?;
                    }
                    let m = self.tmp()?;
                    let a = &mut self.a;
                    a.vcmppd(yr(m), yr(x), yr(y), EQ_OQ)?;
                    a.vblendvpd(yr(r), yr(r), yr(c), yr(m))?;
                    self.free(m);
                }
            }
            self.free(c);
            let any = self.mtmp()?;
            match self.isa {
                Isa::Avx512 => self.a.vcmppd(kr(any), zr(x), zr(y), UNORD)?,
                Isa::Avx2 => self.a.vcmppd(yr(V(any.0)), yr(x), yr(y), UNORD)?,
            }
            self.out_of_line_if(any, (2, 2), move |e| e.minmax_nan_f64(r, x, y, any))?;
            self.mfree(any);
            self.free(x);
            self.free(y);
            *r_out = r;
        }
        self.put_halves(d, res)
    }

    /// Qword lanes of `any` (x or y a NaN) in `r` = min/max's NaN result in IEEE mode
    /// (`valu::fmisc::minmax_nan`): a signaling NaN wins quieted (x before y); else a quiet
    /// NaN yields the other operand, y quieted if both are NaN. Two vector temporaries and
    /// two masks.
    fn minmax_nan_f64(&mut self, r: V, x: V, y: V, any: M) -> R<()> {
        let (f, q) = (self.tmp()?, self.tmp()?);
        let (m, s) = (self.mtmp()?, self.mtmp()?);
        // Lowest priority first: later assignments win.
        self.v_mov(f, Vs::R(x))?; // y NaN, x not: x
        self.nan_q(m, x)?;
        self.blend_q(f, m, y)?; // x NaN: y ...
        self.nan_q(s, y)?;
        self.m_and(s, s, m)?;
        self.quiet_q(q, y)?;
        self.blend_q(f, s, q)?; // ... quieted when NaN too
        for v in [y, x] {
            self.snan_q(s, v, q)?;
            self.quiet_q(q, v)?;
            self.blend_q(f, s, q)?;
        }
        self.blend_q(r, any, f)
    }

    /// `m` = the qword lanes of `v` that are NaNs.
    fn nan_q(&mut self, m: M, v: V) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.vcmppd(kr(m), zr(v), zr(v), UNORD)?,
            Isa::Avx2 => self.a.vcmppd(yr(V(m.0)), yr(v), yr(v), UNORD)?,
        }
        Ok(())
    }

    /// `m` = the qword lanes of `v` that are signaling NaNs (`t` clobbered). On AVX2 only
    /// the mask's sign bits are meaningful (all `blend_q` reads).
    fn snan_q(&mut self, m: M, v: V, t: V) -> R<()> {
        self.nan_q(m, v)?;
        match self.isa {
            Isa::Avx512 => {
                self.q_const(t, QUIET)?;
                self.a.vptestnmq(super::vx::kk(kr(m), m), zr(v), zr(t))?;
            }
            Isa::Avx2 => {
                // The quiet bit (51) to the sign; its complement within the NaN lanes.
                self.a.vpsllq(yr(t), yr(v), 12)?;
                self.a.vpandn(yr(V(m.0)), yr(t), yr(V(m.0)))?;
            }
        }
        Ok(())
    }

    /// `d` = `v` with the quiet bit set.
    fn quiet_q(&mut self, d: V, v: V) -> R<()> {
        self.q_const(d, QUIET)?;
        self.v_or(d, d, Vs::R(v))
    }

    /// `d` = `v` in the qword lanes of `m`.
    fn blend_q(&mut self, d: V, m: M, v: V) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.vmovapd(zk(zr(d), m), zr(v))?,
            Isa::Avx2 => self.a.vblendvpd(yr(d), yr(d), yr(v), yr(V(m.0)))?,
        }
        Ok(())
    }

    /// `v_rcp_f64`, `v_sqrt_f64`, `v_rsq_f64`: the interpreter computes them as the host's
    /// correctly rounded f64 operations (`valu::transcendental`; rsq as 1 / sqrt, rounded
    /// twice), so do these; a NaN result is the operand quieted or the default NaN, as for
    /// the arithmetic ops.
    pub(super) fn lane_f64_trans(&mut self, li: &LaneInst, op: TrOp) -> R<()> {
        let d = li.dst.ok_or_else(|| err("no destination"))?;
        let mut res = [V(0); 2];
        for (half, r_out) in res.iter_mut().enumerate() {
            let x = self.f64_src(li, 0, half)?;
            let r = self.tmp()?;
            let one = |e: &mut Self, t: V| e.q_const(t, 1f64.to_bits());
            match op {
                TrOp::Sqrt => self.sqrt_pd(r, x)?,
                TrOp::Rcp => {
                    one(self, r)?;
                    self.div_pd(r, r, x)?;
                }
                TrOp::Rsq => {
                    let t = self.tmp()?;
                    self.sqrt_pd(t, x)?;
                    one(self, r)?;
                    self.div_pd(r, r, t)?;
                    self.free(t);
                }
                _ => return Err(err("f64 transcendental")),
            }
            self.nan_fixup_f64(r, [Some(x), None, None])?;
            self.free(x);
            *r_out = r;
        }
        self.put_halves(d, res)
    }

    /// Lanes of result `r` (qwords of one half) that are NaN get the GFX9 NaN of operands `q`
    /// ([`Emitter::nan3_f64`]), out of line.
    fn nan_fixup_f64(&mut self, r: V, q: [Option<V>; 3]) -> R<()> {
        let nan = self.mtmp()?;
        match self.isa {
            Isa::Avx512 => self.a.vcmppd(kr(nan), zr(r), zr(r), UNORD)?,
            Isa::Avx2 => self.a.vcmppd(yr(V(nan.0)), yr(r), yr(r), UNORD)?,
        }
        // AVX2 has 6 vector temporaries (a fma's second half holds 5): its fix-up takes
        // its constants from memory and quiets the operands in place.
        let temps = match self.isa {
            Isa::Avx512 => (2, 1),
            Isa::Avx2 => (1, 1),
        };
        self.out_of_line_if(nan, temps, move |e| e.nan_fix(true, r, nan, q))?;
        self.mfree(nan);
        Ok(())
    }

    /// Runs `fix` out of line where a lane of mask `m` is set, with `temps` (vectors,
    /// masks) taken now for it; past the return its temporaries are free again (it is done
    /// with them and with the operands).
    pub(super) fn out_of_line_if(
        &mut self,
        m: M,
        temps: (usize, usize),
        fix: impl FnOnce(&mut Emitter<'p>) -> R<()> + 'p,
    ) -> R<()> {
        let reserved = self.reserve(temps.0, temps.1)?;
        self.m_test(m)?;
        let mut cold = self.a.create_label();
        let mut back = self.a.create_label();
        self.a.jnz(cold)?;
        bind(&mut self.a, &mut back)?;
        self.cold(move |e| {
            bind(&mut e.a, &mut cold)?;
            e.free_v = reserved.0;
            e.free_m = reserved.1;
            fix(e)?;
            e.free_all();
            Ok(e.a.jmp(back)?)
        });
        self.free_v |= reserved.0;
        self.free_m |= reserved.1;
        Ok(())
    }

    fn sqrt_pd(&mut self, d: V, s: V) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.vsqrtpd(zr(d), zr(s))?,
            Isa::Avx2 => self.a.vsqrtpd(yr(d), yr(s))?,
        }
        Ok(())
    }

    fn div_pd(&mut self, d: V, x: V, y: V) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.vdivpd(zr(d), zr(x), zr(y))?,
            Isa::Avx2 => self.a.vdivpd(yr(d), yr(x), yr(y))?,
        }
        Ok(())
    }

    /// `m` = the lanes where source 0 (p) source 1 as f64, `p` a `vcmppd` predicate, with the
    /// abs/neg modifiers. Each half's qword results go back to lane order as values do
    /// ([`Emitter::put_halves`]); AVX-512 through vectors (`vpmovm2q`, `vpmovd2m`).
    pub(super) fn cmp_f64(&mut self, li: &LaneInst, m: M, p: u32) -> R<()> {
        let e = self.mtmp()?;
        for (half, mk) in [(0, m), (1, e)] {
            let x = self.f64_src(li, 0, half)?;
            let y = self.f64_src(li, 1, half)?;
            match self.isa {
                Isa::Avx512 => self.a.vcmppd(kr(mk), zr(x), zr(y), p)?,
                Isa::Avx2 => self.a.vcmppd(yr(V(mk.0)), yr(x), yr(y), p)?,
            }
            self.free(x);
            self.free(y);
        }
        match self.isa {
            Isa::Avx2 => self.a.vshufps(yr(V(m.0)), yr(V(m.0)), yr(V(e.0)), 0x88)?,
            Isa::Avx512 => {
                let (t0, t1) = (self.tmp()?, self.tmp()?);
                self.a.vpmovm2q(zr(t0), kr(m))?;
                self.a.vpmovm2q(zr(t1), kr(e))?;
                self.a.vshufps(zr(t0), zr(t0), zr(t1), 0x88)?;
                self.a.vpmovd2m(kr(m), zr(t0))?;
                self.free(t0);
                self.free(t1);
            }
        }
        self.mfree(e);
        Ok(())
    }

    /// Writes VGPR pair `d` from the qword results of the chunk's two halves (the low dwords
    /// of both, in lane order, to `d`; the high ones to `d + 1`).
    fn put_halves(&mut self, d: u8, [r0, r1]: [V; 2]) -> R<()> {
        // Straight into the pair's homes where it has them (homes are never r0 or r1).
        let (rl, rh) = (self.dst_reg(d)?, self.dst_reg(d.wrapping_add(1))?);
        match self.isa {
            Isa::Avx512 => {
                self.a.vshufps(zr(rl), zr(r0), zr(r1), 0x88)?;
                self.a.vshufps(zr(rh), zr(r0), zr(r1), 0xdd)?;
            }
            Isa::Avx2 => {
                self.a.vshufps(yr(rl), yr(r0), yr(r1), 0x88)?;
                self.a.vshufps(yr(rh), yr(r0), yr(r1), 0xdd)?;
            }
        }
        self.put(d, rl)?;
        self.put(d.wrapping_add(1), rh)
    }

    /// `d = table` (64 bytes).
    fn load_table(&mut self, d: V, table: &'static [u32; 16]) -> R<()> {
        self.a.mov(rax, table.as_ptr() as u64)?;
        self.a.vmovdqu32(zr(d), zmmword_ptr(rax))?;
        Ok(())
    }

    /// Conversions to and from f64. Every f32 and 32-bit integer is exact in f64; f64 -> f32
    /// rounds by MXCSR (nearest even, as the guard wants). x86 converts a NaN as the
    /// interpreter does (`convert_nan`): sign and payload kept, quiet bit set.
    pub(super) fn lane_f64_cvt(&mut self, li: &LaneInst, op: CvtOp) -> R<()> {
        let d = li.dst.ok_or_else(|| err("no destination"))?;
        if matches!(op, CvtOp::F32F64 | CvtOp::I32F64 | CvtOp::U32F64) {
            let mut res = [V(0); 2];
            for (half, r_out) in res.iter_mut().enumerate() {
                let q = self.f64_src(li, 0, half)?;
                let r = self.tmp()?;
                if op == CvtOp::I32F64 {
                    // `valu::convert::float_to_int`: a NaN is 0, the rest truncated and
                    // clamped to i32's range. x86 gives i32::MIN for a NaN and anything out
                    // of range, which is right only below: NaNs zeroed (+0.0) and the top
                    // clamped to i32::MAX first.
                    self.q_const(r, (i32::MAX as f64).to_bits())?;
                    match self.isa {
                        Isa::Avx512 => {
                            let m = self.mtmp()?;
                            self.a.vcmppd(kr(m), zr(q), zr(q), ORD)?;
                            self.a.vmovapd(zk(zr(q), m).z(), zr(q))?;
                            self.mfree(m);
                            self.a.vminpd(zr(q), zr(q), zr(r))?;
                            self.a.vcvttpd2dq(yr(r), zr(q))?;
                        }
                        Isa::Avx2 => {
                            let m = self.tmp()?;
                            self.a.vcmppd(yr(m), yr(q), yr(q), ORD)?;
                            self.a.vandpd(yr(q), yr(q), yr(m))?;
                            self.free(m);
                            self.a.vminpd(yr(q), yr(q), yr(r))?;
                            self.a.vcvttpd2dq(xr(r), yr(q))?;
                        }
                    }
                } else if op == CvtOp::U32F64 {
                    // The same with the range [0, u32::MAX]: max(q, 0) raises negatives to 0
                    // and takes the second operand, 0, for a NaN; the top clamped, then the
                    // unsigned truncation. AVX2 has only the signed one: the clamped value
                    // truncated first (exact), moved down by 2^31 (exact) into i32's range,
                    // converted, and its sign bit flipped back.
                    match self.isa {
                        Isa::Avx512 => {
                            self.a.vxorpd(zr(r), zr(r), zr(r))?;
                            self.a.vmaxpd(zr(q), zr(q), zr(r))?;
                            self.q_const(r, (u32::MAX as f64).to_bits())?;
                            self.a.vminpd(zr(q), zr(q), zr(r))?;
                            self.a.vcvttpd2udq(yr(r), zr(q))?;
                        }
                        Isa::Avx2 => {
                            self.a.vxorpd(yr(r), yr(r), yr(r))?;
                            self.a.vmaxpd(yr(q), yr(q), yr(r))?;
                            self.q_const(r, (u32::MAX as f64).to_bits())?;
                            self.a.vminpd(yr(q), yr(q), yr(r))?;
                            self.a.vroundpd(yr(q), yr(q), 3)?;
                            self.q_const(r, 2f64.powi(31).to_bits())?;
                            self.a.vsubpd(yr(q), yr(q), yr(r))?;
                            self.a.vcvttpd2dq(xr(r), yr(q))?;
                            self.v_const(q, 0x8000_0000)?;
                            self.a.vpxor(xr(r), xr(r), xr(q))?;
                        }
                    }
                } else {
                    match self.isa {
                        Isa::Avx512 => self.a.vcvtpd2ps(yr(r), zr(q))?,
                        Isa::Avx2 => self.a.vcvtpd2ps(xr(r), yr(q))?,
                    }
                }
                self.free(q);
                *r_out = r;
            }
            if self.isa == Isa::Avx2 {
                // [0, 1, 4, 5] and [2, 3, 6, 7] joined, then the middle qwords swapped.
                let [r0, r1] = res;
                self.a.vinserti128(yr(r0), yr(r0), xr(r1), 1)?;
                self.a.vpermq(yr(r0), yr(r0), JOINED_TO_LANES)?;
                self.free(r1);
                return self.put(d, r0);
            }
            let idx = self.tmp()?;
            self.load_table(idx, &LANE_ORDER)?;
            self.a.vpermi2d(zr(idx), zr(res[0]), zr(res[1]))?;
            return self.put(d, idx);
        }
        let x = if op == CvtOp::F64F32 {
            self.fsrc(li, 0)?
        } else {
            self.opd_reg(li.src[0][0])?
        };
        let mut res = [V(0); 2];
        for (half, r_out) in res.iter_mut().enumerate() {
            let t = self.tmp()?;
            let r = self.tmp()?;
            let a = &mut self.a;
            match self.isa {
                Isa::Avx512 => {
                    a.mov(rax, HALF_LANES[half].as_ptr() as u64)?;
                    a.vmovdqu32(zr(t), zmmword_ptr(rax))?;
                    a.vpermd(zr(t), zr(t), zr(x))?;
                    match op {
                        CvtOp::F64F32 => a.vcvtps2pd(zr(r), yr(t))?,
                        CvtOp::F64I32 => a.vcvtdq2pd(zr(r), yr(t))?,
                        _ => a.vcvtudq2pd(zr(r), yr(t))?,
                    }
                }
                Isa::Avx2 => {
                    a.vpermq(yr(t), yr(x), HALF_QWORDS[half])?;
                    match op {
                        CvtOp::F64F32 => a.vcvtps2pd(yr(r), xr(t))?,
                        CvtOp::F64I32 => a.vcvtdq2pd(yr(r), xr(t))?,
                        _ => {
                            // u32: with the sign bit flipped it is the i32 x - 2^31; its
                            // (exact) double plus 2^31 is exact too.
                            self.v_const(r, 0x8000_0000)?;
                            self.a.vpxor(xr(t), xr(t), xr(r))?;
                            self.a.vcvtdq2pd(yr(r), xr(t))?;
                            self.q_const(t, 2f64.powi(31).to_bits())?;
                            self.a.vaddpd(yr(r), yr(r), yr(t))?;
                        }
                    }
                }
            }
            self.free(t);
            *r_out = r;
        }
        self.put_halves(d, res)
    }

    /// Qword lanes of `nan` in `r` = the first NaN of `ops` quieted, else the default NaN
    /// (`Fmt::nan_of`). AVX-512: two vector temporaries and one mask; AVX2: one of each, the
    /// constants from memory and the operands (temporaries the op is done with) quieted in
    /// place.
    pub(super) fn nan3_f64(&mut self, r: V, nan: M, ops: [Option<V>; 3]) -> R<()> {
        if self.isa == Isa::Avx2 {
            let (fix, m) = (self.tmp()?, self.mtmp()?);
            let mv = yr(V(m.0));
            self.a.mov(rax, DEFAULT_NAN_Q.as_ptr() as u64)?;
            self.a.vmovdqu(yr(fix), ymmword_ptr(rax))?;
            self.a.mov(rax, QUIET_Q.as_ptr() as u64)?;
            // Lowest priority first: later assignments win.
            for s in ops.into_iter().rev().flatten() {
                self.a.vcmppd(mv, yr(s), yr(s), UNORD)?;
                self.a.vpor(yr(s), yr(s), ymmword_ptr(rax))?;
                self.a.vblendvpd(yr(fix), yr(fix), yr(s), mv)?;
            }
            self.a.vblendvpd(yr(r), yr(r), yr(fix), yr(V(nan.0)))?;
            return Ok(());
        }
        let (fix, q, m) = (self.tmp()?, self.tmp()?, self.mtmp()?);
        // Lowest priority first: later assignments win.
        self.q_const(fix, DEFAULT_NAN)?;
        for s in ops.into_iter().rev().flatten() {
            self.a.vcmppd(kr(m), zr(s), zr(s), UNORD)?;
            self.q_const(q, QUIET)?;
            self.a.vporq(zr(q), zr(q), zr(s))?;
            self.a.vmovapd(zk(zr(fix), m), zr(q))?;
        }
        self.a.vmovapd(zk(zr(r), nan), zr(fix))?;
        Ok(())
    }
}
