//! `v_exp_f32` and `v_log_f32` (2^x and log2 x, which every `expf`, `logf`, `powf` and
//! `tanhf` of the math library runs) wave-wide, with exactly the interpreter's results.
//!
//! The interpreter (`valu::transcendental`) computes each in f64 with the host's `exp2` and
//! `log2` and rounds once to f32. Here each lane is computed in f64 by a polynomial whose
//! error is a few f64 ulps, then rounded to f32 the same way. The two f64 values differ, but
//! they round to the same f32 unless the exact result lies within a few f64 ulps of a point
//! halfway between two f32s (where rounding turns). So each lane also rounds its value moved
//! `SLACK` f64 ulps down and up: where those two roundings differ, the lane is that close to
//! a turning point (about one lane in a million) and the whole instruction goes to the
//! interpreter (`Emitter::slow_callout`), as the division steps' unusual lanes do. Since
//! `SLACK` (256 ulps) is far above both errors, the result does not depend on which host
//! library the interpreter has.
//!
//! - exp: x is clamped to [-160, 130] (beyond, the f32 result is 0 or infinity either way;
//!   a NaN becomes -160 and is fixed afterwards), split as n + f with n = round(x), f in
//!   [-1/2, 1/2] (exact), 2^f by its Taylor polynomial of degree 13, scaled by 2^n exactly;
//!   denormal results are rounded by the conversion, as the interpreter's are.
//! - log: x = 2^e * m with m in [sqrt(1/2), sqrt(2)) (exact; f32 denormals are normal f64s),
//!   log2 m = s * Q(s^2) with s = (m - 1)/(m + 1) and Q the atanh series times 2/ln 2 to
//!   s^21, plus e. Zeros, negatives, infinities and NaNs get the interpreter's fixed
//!   results; x = 1 gives 0 exactly and is left out of the check (its neighbours are not).
//!
//! A test (`tests_div::exp_log_match_the_interpreter_on_every_input`, ignored by default)
//! runs every f32 bit pattern through both engines.

use super::emit::{bind, Emitter, R};
use super::vx::{kk, kr, xr, yr, zk, zr, Isa, Vs, M, V};
use crate::exec::operand::Src;
use iced_x86::code_asm::*;

/// f64 ulps each lane's value is moved both ways for the turning-point check.
const SLACK: u64 = 256;

/// Constants, each in one 64-byte row (8 qwords; AVX2 reads the first 32 bytes).
#[repr(align(64))]
struct Consts([[u64; 8]; ROWS]);

const EXP_C: usize = 0; // 14 rows: (ln 2)^k / k!, k = 0..=13
const LOG_C: usize = 14; // 11 rows: 2 / ln 2 / (2k + 1), k = 0..=10
const LO: usize = 25;
const HI: usize = 26;
const MAGIC: usize = 27;
const BIAS: usize = 28;
const SLACK_Q: usize = 29;
const MANT: usize = 30;
const ONE: usize = 31;
const SQRT2: usize = 32;
const EXP1: usize = 33;
const ONE_I: usize = 34;
const EXP_OR: usize = 35;
const EXP_SUB: usize = 36;
/// f32 constants (as dword pairs): the quiet bit, 1.0, +inf, -inf, the default NaN.
const QUIET32: usize = 37;
const ONE32: usize = 38;
const INF32: usize = 39;
const NINF32: usize = 40;
const DNAN32: usize = 41;
const ROWS: usize = 42;

const fn row(q: u64) -> [u64; 8] {
    [q; 8]
}

const fn dwords(d: u32) -> [u64; 8] {
    row((d as u64) << 32 | d as u64)
}

static CONSTS: Consts = {
    let mut t = [[0u64; 8]; ROWS];
    let mut c = 1.0f64;
    let mut k = 0;
    while k <= 13 {
        t[EXP_C + k] = row(c.to_bits());
        c = c * std::f64::consts::LN_2 / (k + 1) as f64;
        k += 1;
    }
    let mut k = 0;
    while k <= 10 {
        let d = 2.0 / std::f64::consts::LN_2 / (2 * k + 1) as f64;
        t[LOG_C + k] = row(d.to_bits());
        k += 1;
    }
    t[LO] = row((-160.0f64).to_bits());
    t[HI] = row(130.0f64.to_bits());
    // 1.5 * 2^52: added to an integer-valued f64 it leaves the integer in the low bits.
    t[MAGIC] = row(0x4338_0000_0000_0000);
    t[BIAS] = row(1023 << 52);
    t[SLACK_Q] = row(SLACK);
    t[MANT] = row((1 << 52) - 1);
    t[ONE] = row(1.0f64.to_bits());
    t[SQRT2] = row(std::f64::consts::SQRT_2.to_bits());
    t[EXP1] = row(1 << 52);
    t[ONE_I] = row(1);
    // 2^52 as bits: or-ed with a small integer i it is the f64 2^52 + i.
    t[EXP_OR] = row(0x4330_0000_0000_0000);
    t[EXP_SUB] = row((4_503_599_627_370_496.0f64 + 1023.0).to_bits());
    t[QUIET32] = dwords(0x0040_0000);
    t[ONE32] = dwords(1f32.to_bits());
    t[INF32] = dwords(0x7f80_0000);
    t[NINF32] = dwords(0xff80_0000);
    t[DNAN32] = dwords(0x7fc0_0000);
    Consts(t)
};

/// `vcmpps`/`vcmppd` predicates.
const UNORD: u32 = 3;
const ORD: u32 = 7;
const EQ_OQ: u32 = 0;
const LT_OQ: u32 = 0x11;
const GT_OQ: u32 = 0x1e;
const NEQ_OQ: u32 = 0x0c;

/// A packed-double (or packed-qword) operation of the lowering.
#[derive(Clone, Copy)]
enum Pd {
    Add,
    Sub,
    Mul,
    Div,
    Max,
    Min,
    /// d = d * x + y
    Fma,
    AndQ,
    OrQ,
    AddQ,
    SubQ,
}

/// The second operand: a register or a row of [`CONSTS`] (addressed through rsi).
#[derive(Clone, Copy)]
enum Y {
    R(V),
    K(usize),
}

impl Emitter<'_> {
    /// `d = x (op) y` on 8 (AVX-512) or 4 (AVX2) f64 lanes.
    fn pd(&mut self, op: Pd, d: V, x: V, y: Y) -> R<()> {
        let a = &mut self.a;
        macro_rules! both {
            ($zf:ident, $yf:ident) => {
                match (self.isa, y) {
                    (Isa::Avx512, Y::R(s)) => a.$zf(zr(d), zr(x), zr(s))?,
                    (Isa::Avx512, Y::K(k)) => a.$zf(zr(d), zr(x), zmmword_ptr(rsi + 64 * k))?,
                    (Isa::Avx2, Y::R(s)) => a.$yf(yr(d), yr(x), yr(s))?,
                    (Isa::Avx2, Y::K(k)) => a.$yf(yr(d), yr(x), ymmword_ptr(rsi + 64 * k))?,
                }
            };
        }
        match op {
            Pd::Add => both!(vaddpd, vaddpd),
            Pd::Sub => both!(vsubpd, vsubpd),
            Pd::Mul => both!(vmulpd, vmulpd),
            Pd::Div => both!(vdivpd, vdivpd),
            Pd::Max => both!(vmaxpd, vmaxpd),
            Pd::Min => both!(vminpd, vminpd),
            Pd::Fma => {
                debug_assert!(d != x);
                both!(vfmadd213pd, vfmadd213pd)
            }
            Pd::AndQ => both!(vpandq, vpand),
            Pd::OrQ => both!(vporq, vpor),
            Pd::AddQ => both!(vpaddq, vpaddq),
            Pd::SubQ => both!(vpsubq, vpsubq),
        }
        Ok(())
    }

    /// `d` = row `k` of [`CONSTS`].
    fn pd_const(&mut self, d: V, k: usize) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.vmovapd(zr(d), zmmword_ptr(rsi + 64 * k))?,
            Isa::Avx2 => self.a.vmovapd(yr(d), ymmword_ptr(rsi + 64 * k))?,
        }
        Ok(())
    }

    /// `d` = half `h` of the f32 lanes of `x`, as f64s.
    fn widen_half(&mut self, d: V, x: V, h: u32) -> R<()> {
        let a = &mut self.a;
        match (self.isa, h) {
            (Isa::Avx512, 0) => a.vcvtps2pd(zr(d), yr(x))?,
            (Isa::Avx512, _) => {
                a.vextractf64x4(yr(d), zr(x), 1)?;
                a.vcvtps2pd(zr(d), yr(d))?;
            }
            (Isa::Avx2, 0) => a.vcvtps2pd(yr(d), xr(x))?,
            (Isa::Avx2, _) => {
                a.vextractf128(xr(d), yr(x), 1)?;
                a.vcvtps2pd(yr(d), xr(d))?;
            }
        }
        Ok(())
    }

    /// `d`'s low half = the f64 lanes of `x` rounded to f32 (round to nearest even).
    fn narrow(&mut self, d: V, x: V) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.vcvtpd2ps(yr(d), zr(x))?,
            Isa::Avx2 => self.a.vcvtpd2ps(xr(d), yr(x))?,
        }
        Ok(())
    }

    /// 2^x of the f64 lanes of `x` (clobbered), into `p`; `n` clobbered.
    fn exp2_pd(&mut self, p: V, x: V, n: V) -> R<()> {
        self.pd(Pd::Max, x, x, Y::K(LO))?;
        self.pd(Pd::Min, x, x, Y::K(HI))?;
        match self.isa {
            Isa::Avx512 => self.a.vrndscalepd(zr(n), zr(x), 0)?,
            Isa::Avx2 => self.a.vroundpd(yr(n), yr(x), 0)?,
        }
        self.pd(Pd::Sub, x, x, Y::R(n))?;
        self.pd_const(p, EXP_C + 13)?;
        for k in (0..13).rev() {
            self.pd(Pd::Fma, p, x, Y::K(EXP_C + k))?;
        }
        // 2^n: n's integer into the exponent field.
        self.pd(Pd::Add, n, n, Y::K(MAGIC))?;
        match self.isa {
            Isa::Avx512 => self.a.vpsllq(zr(n), zr(n), 52)?,
            Isa::Avx2 => self.a.vpsllq(yr(n), yr(n), 52)?,
        }
        self.pd(Pd::AddQ, n, n, Y::K(BIAS))?;
        self.pd(Pd::Mul, p, p, Y::R(n))
    }

    /// log2 of the f64 lanes of `x` (clobbered; positive and finite where it matters), into
    /// `p`; `n`, `t` clobbered; `m` a mask temporary.
    fn log2_pd(&mut self, p: V, x: V, n: V, t: V, m: M) -> R<()> {
        // n = the biased exponent, x = the mantissa in [1, 2).
        match self.isa {
            Isa::Avx512 => self.a.vpsrlq(zr(n), zr(x), 52)?,
            Isa::Avx2 => self.a.vpsrlq(yr(n), yr(x), 52)?,
        }
        self.pd(Pd::AndQ, x, x, Y::K(MANT))?;
        self.pd(Pd::OrQ, x, x, Y::K(ONE))?;
        // Above sqrt(2): halve the mantissa, one more in the exponent.
        match self.isa {
            Isa::Avx512 => {
                let a = &mut self.a;
                a.vcmppd(kr(m), zr(x), zmmword_ptr(rsi + 64 * SQRT2), GT_OQ)?;
                a.vpaddq(zk(zr(n), m), zr(n), zmmword_ptr(rsi + 64 * ONE_I))?;
                a.vpsubq(zk(zr(x), m), zr(x), zmmword_ptr(rsi + 64 * EXP1))?;
            }
            Isa::Avx2 => {
                let a = &mut self.a;
                a.vcmppd(yr(t), yr(x), ymmword_ptr(rsi + 64 * SQRT2), GT_OQ)?;
                // (t is -1 where it holds.)
                a.vpsubq(yr(n), yr(n), yr(t))?;
                a.vpand(yr(t), yr(t), ymmword_ptr(rsi + 64 * EXP1))?;
                a.vpsubq(yr(x), yr(x), yr(t))?;
            }
        }
        // n = e as an f64 (exact).
        self.pd(Pd::OrQ, n, n, Y::K(EXP_OR))?;
        self.pd(Pd::Sub, n, n, Y::K(EXP_SUB))?;
        // s = (m - 1) / (m + 1) (m - 1 exact), t = s^2.
        self.pd(Pd::Add, t, x, Y::K(ONE))?;
        self.pd(Pd::Sub, x, x, Y::K(ONE))?;
        self.pd(Pd::Div, x, x, Y::R(t))?;
        self.pd(Pd::Mul, t, x, Y::R(x))?;
        self.pd_const(p, LOG_C + 10)?;
        for k in (0..10).rev() {
            self.pd(Pd::Fma, p, t, Y::K(LOG_C + k))?;
        }
        self.pd(Pd::Mul, p, p, Y::R(x))?;
        self.pd(Pd::Add, p, p, Y::R(n))
    }

    /// `v_exp_f32` (`log` false) or `v_log_f32` (`log`) of instruction `i`: VGPR `dst` from
    /// `src` (see the module documentation).
    pub(super) fn exp_log(&mut self, i: u32, dst: u8, src: Src, log: bool) -> R<()> {
        let done = self.a.create_label();
        let slow = self.slow_callout(i, done)?;
        self.a.mov(rsi, CONSTS.0.as_ptr() as u64)?;
        let [s, x, n, p, t] = [
            self.tmp()?,
            self.tmp()?,
            self.tmp()?,
            self.tmp()?,
            self.tmp()?,
        ];
        let [e, ord, h] = [self.mtmp()?, self.mtmp()?, self.mtmp()?];
        let k = |n: usize| Vs::M(rsi + 64 * n as i32);
        let cb = self.isa.chunk_bytes();
        let xlane =
            |c: i32, h: u32| r12 + (super::lane_cross::J_XLANE + c * cb + h as i32 * cb / 2);
        for chunk in 0..self.isa.chunks() as i32 {
            self.div_src(s, src, chunk)?;
            self.chunk_exec(e, chunk, None)?;
            // ord = the active lanes the check applies to: numbers (exp); positive finite
            // numbers other than 1 (log).
            if log {
                self.v_xor(t, t, Vs::R(t))?;
                self.v_fcmp(ord, GT_OQ, s, Vs::R(t))?;
                self.v_fcmp(h, LT_OQ, s, k(INF32))?;
                self.m_and(ord, ord, h)?;
                self.v_fcmp(h, NEQ_OQ, s, k(ONE32))?;
                self.m_and(ord, ord, h)?;
            } else {
                self.v_fcmp(ord, ORD, s, Vs::R(s))?;
            }
            self.m_and(ord, ord, e)?;
            for half in 0..2 {
                self.widen_half(x, s, half)?;
                if log {
                    self.log2_pd(p, x, n, t, h)?;
                } else {
                    self.exp2_pd(p, x, n)?;
                }
                self.narrow(n, p)?;
                match self.isa {
                    Isa::Avx512 => self.a.vmovups(ymmword_ptr(xlane(chunk, half)), yr(n))?,
                    Isa::Avx2 => self.a.vmovups(xmmword_ptr(xlane(chunk, half)), xr(n))?,
                }
                // The value moved SLACK ulps down (x) and up (p), each rounded.
                self.pd(Pd::SubQ, x, p, Y::K(SLACK_Q))?;
                self.pd(Pd::AddQ, p, p, Y::K(SLACK_Q))?;
                self.narrow(x, x)?;
                self.narrow(p, p)?;
                match self.isa {
                    Isa::Avx512 => {
                        let a = &mut self.a;
                        if half == 0 {
                            a.kmovw(kr(h), kr(ord))?;
                        } else {
                            a.kshiftrw(kr(h), kr(ord), 8)?;
                        }
                        a.vpcmpd(kk(kr(h), h), yr(x), yr(p), 4)?;
                        a.kortestb(kr(h), kr(h))?;
                    }
                    Isa::Avx2 => {
                        let a = &mut self.a;
                        let oh = yr(V(ord.0));
                        if half == 0 {
                            a.vmovdqa(xr(n), xr(V(ord.0)))?;
                        } else {
                            a.vextracti128(xr(n), oh, 1)?;
                        }
                        a.vpcmpeqd(xr(x), xr(x), xr(p))?;
                        a.vpandn(xr(x), xr(x), xr(n))?;
                        a.vptest(xr(x), xr(x))?;
                    }
                }
                self.a.jnz(slow)?;
            }
            // Fixed results: NaNs quieted; log's zeros, negatives and +inf.
            let r = x;
            self.v_mov(r, Vs::M(xlane(chunk, 0)))?;
            self.v_fcmp(h, UNORD, s, Vs::R(s))?;
            self.v_or(t, s, k(QUIET32))?;
            self.v_blend(r, h, r, t)?;
            if log {
                let fixed = [(EQ_OQ, NINF32), (LT_OQ, DNAN32), (EQ_OQ, INF32)];
                for (j, (pred, value)) in fixed.into_iter().enumerate() {
                    match j {
                        0 => {
                            self.v_xor(t, t, Vs::R(t))?;
                            self.v_fcmp(h, pred, s, Vs::R(t))?;
                        }
                        1 => self.v_fcmp(h, pred, s, Vs::R(t))?,
                        _ => self.v_fcmp(h, pred, s, k(INF32))?,
                    }
                    self.v_mov(n, k(value))?;
                    self.v_blend(r, h, r, n)?;
                }
            }
            self.v_mov_to_mem(xlane(chunk, 0), r)?;
        }
        for chunk in 0..self.isa.chunks() as i32 {
            self.chunk_exec(e, chunk, None)?;
            self.v_mov(s, Vs::M(xlane(chunk, 0)))?;
            let row = self.vgpr_chunk(dst, chunk);
            self.v_store_masked_blend(row, s, e)?;
        }
        for v in [s, x, n, p, t] {
            self.free(v);
        }
        for m in [e, ord, h] {
            self.mfree(m);
        }
        let mut done = done;
        bind(&mut self.a, &mut done)
    }
}
