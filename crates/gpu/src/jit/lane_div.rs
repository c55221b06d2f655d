//! LLVM's division steps wave-wide: `v_div_scale`, `v_div_fmas` and `v_div_fixup` in f32
//! and f64, which every `a / b` in a kernel compiled without fast math runs (with `v_rcp`
//! and a few fmas between them).
//!
//! Their per-lane rules (`valu::divide`) are mostly special cases: operands near the ends of
//! the exponent range are scaled, zeros, infinities and NaNs get fixed results. For
//! ordinary operands each step is trivial, and that is what nearly every lane of every wave
//! holds (f32 exponents below; f64 the same rules with its own bounds, in `CONSTS`):
//! - `div_scale(s0, den, num)` returns s0 and a clear flag when den and num are normal, den's
//!   biased exponent e1 is at most 252 (1/den is not tiny), num's e2 at least 24, and
//!   -125 <= e2 - e1 <= 95 (no exponent gap to scale away, num/den not tiny);
//! - `div_fmas(s0, s1, s2)` with its VCC bit clear is the fma: f32 takes the host's unless it
//!   is a NaN (the NaN rules differ), f64 runs `v_fma_f64`'s lowering, NaN rules included;
//! - `div_fixup(q, den, num)` returns q's magnitude with the quotient's sign when den and num
//!   are normal, e2 - e1 >= -151 (the quotient does not underflow to zero) and q is no NaN
//!   (f64: finite).
//!
//! So each step first checks its active lanes (a pass that writes nothing); one lane outside
//! the ordinary case sends the whole instruction to the interpreter, which applies every
//! rule (`Emitter::slow_callout`). Otherwise a second pass writes the results. The checks
//! assume the MODE of a float block's guard (denormals kept, round to nearest even), so a
//! block holding these steps is a float block (`WaveOp::float`, `WaveOp::float64`).
//!
//! Before, each step called the interpreter: a division loop ran 2.5x faster than the
//! interpreter where a multiplication loop runs 90x faster.
//!
//! `v_ldexp_f32` and `v_ldexp_f64` (the math library's scaling by a power of two) follow
//! the same pattern: an exponent add where operand and result are normal, the operand
//! itself for zeros, infinities and (quieted) NaNs, the interpreter for any other lane. So do
//! `v_frexp_mant` and `v_frexp_exp_i32` (f32 and f64): for a normal operand the mantissa with
//! the exponent of [0.5, 1), and the exponent less the bias plus one; zeros, infinities and
//! NaNs have fixed results; a denormal operand (which needs normalizing) goes to the
//! interpreter.

use super::emit::{err, sreg32, sreg64, Emitter, EXEC, R};
use super::select::DivStep;
use super::vx::{Icmp, Vs, M, V};
use crate::exec::operand::Src;
use crate::wave::VCC_LO;
use iced_x86::code_asm::*;

/// Constants of the checks, each in 16 lanes (a whole vector on either ISA).
#[repr(align(64))]
struct Consts([[u32; 16]; 35]);

const K_FF: usize = 0;
const K_SIGN: usize = 1;
const K_ABS: usize = 2;
const K_INF: usize = 3;
const K_7FF: usize = 13;
/// The largest finite f64's high dword (magnitude).
const K_MAX64: usize = 14;
/// `v_ldexp_*`, `v_frexp_*`: the quiet bit (f32; f64 in the high dword) and the mantissa's
/// bits (f64's high dword; f32).
const K_QUIET: usize = 25;
const K_MANT64: usize = 26;
const K_QUIET64: usize = 27;
const K_MANT32: usize = 34;
/// `v_frexp_*`, f32 and f64 (high dwords): sign and mantissa bits; the exponent of [0.5, 1)
/// in place; that exponent (the bias less one).
const K_SIGN_MANT: [usize; 2] = [28, 29];
const K_HALF: [usize; 2] = [30, 31];
const K_BIAS1: [usize; 2] = [32, 33];
/// Per range [lo, hi] of an exponent (or difference): the constants lo and hi - lo, for
/// the denominator's exponent e1, the numerator's e2 and e2 - e1.
const SCALE_RANGES: [(usize, usize); 3] = [(4, 5), (6, 7), (8, 9)];
const FIXUP_RANGES: [(usize, usize); 3] = [(10, 11), (10, 11), (12, 24)];
const SCALE_RANGES_64: [(usize, usize); 3] = [(15, 16), (17, 18), (19, 20)];
const FIXUP_RANGES_64: [(usize, usize); 3] = [(15, 21), (15, 21), (22, 23)];

static CONSTS: Consts = {
    const fn splat(k: u32) -> [u32; 16] {
        [k; 16]
    }
    // f32 (biased exponents 0-255): div_scale e1 in [1, 252], e2 in [24, 254], e2 - e1 in
    // [-125, 95]; div_fixup e1 and e2 in [1, 254], e2 - e1 >= -151 (at most 253).
    // f64 (0-2047): div_scale e1 in [1, 2044], e2 in [54, 2046], e2 - e1 in [-1021, 767];
    // div_fixup e1 and e2 in [1, 2046], e2 - e1 >= -1076 (at most 2045).
    Consts([
        splat(0xff),
        splat(0x8000_0000),
        splat(0x7fff_ffff),
        splat(0x7f80_0000),
        splat(1),
        splat(252 - 1),
        splat(24),
        splat(254 - 24),
        splat(-125i32 as u32),
        splat((95 + 125) as u32),
        splat(1),
        splat(254 - 1),
        splat(-151i32 as u32),
        splat(0x7ff),
        splat(0x7fef_ffff),
        splat(1),
        splat(2044 - 1),
        splat(54),
        splat(2046 - 54),
        splat(-1021i32 as u32),
        splat((767 + 1021) as u32),
        splat(2046 - 1),
        splat(-1076i32 as u32),
        splat((2045 + 1076) as u32),
        splat((253 + 151) as u32),
        splat(0x0040_0000),
        splat(0x000f_ffff),
        splat(0x0008_0000),
        splat(0x807f_ffff),
        splat(0x800f_ffff),
        splat(126 << 23),
        splat(1022 << 20),
        splat(126),
        splat(1022),
        splat(0x007f_ffff),
    ])
};

/// `vcmpps` predicate: unordered (a NaN operand).
const UNORD: u32 = 3;

impl Emitter<'_> {
    /// Division step `step` of instruction `i`: VGPR `dst` from `src`, `div_scale`'s flags into
    /// the pair `mask` (see the module documentation).
    pub(super) fn div(&mut self, i: u32, step: DivStep, dst: u8, mask: u8, src: [Src; 3]) -> R<()> {
        let done = self.a.create_label();
        let slow = self.slow_callout(i, done)?;
        if step == DivStep::Fmas {
            self.unflagged_or(slow)?;
        }
        let ([a, b, c, d], [e, g, h]) = self.div_regs()?;
        let k = |n: usize| Vs::M(rsi + 64 * n as i32);
        let chunks = self.isa.chunks() as i32;
        // The checks: nothing written yet, so the interpreter may still run the instruction.
        for chunk in 0..chunks {
            self.chunk_exec(e, chunk, None)?;
            match step {
                DivStep::Fmas => {
                    self.fma_chunk(a, [b, c], src, chunk)?;
                    self.v_fcmp(g, UNORD, a, Vs::R(a))?;
                    self.m_and(g, g, e)?;
                }
                DivStep::Scale | DivStep::Fixup => {
                    self.out_of_range(step, false, src, chunk, [a, b, c, d], [e, g, h])?
                }
            }
            self.m_test(g)?;
            self.a.jnz(slow)?;
        }
        // Every active lane is ordinary: the results.
        for chunk in 0..chunks {
            match step {
                DivStep::Scale => self.div_src(a, src[0], chunk)?,
                DivStep::Fmas => self.fma_chunk(a, [b, c], src, chunk)?,
                DivStep::Fixup => {
                    // The quotient's sign (den ^ num) on the estimate's magnitude.
                    self.div_src(b, src[1], chunk)?;
                    self.div_src(c, src[2], chunk)?;
                    self.v_xor(b, b, Vs::R(c))?;
                    self.v_and(b, b, k(K_SIGN))?;
                    self.div_src(a, src[0], chunk)?;
                    self.v_and(a, a, k(K_ABS))?;
                    self.v_or(a, a, Vs::R(b))?;
                }
            }
            self.chunk_exec(e, chunk, None)?;
            let row = self.vgpr_chunk(dst, chunk);
            self.v_store_masked_blend(row, a, e)?;
        }
        let flags = (step == DivStep::Scale).then_some(mask);
        self.div_end(flags, [a, b, c, d], [e, g, h], done)
    }

    /// The f64 step `step` of instruction `i` (see [`Emitter::div`]): VGPR pair `dst`; `fma`
    /// the fma `v_div_fmas_f64` is where VCC is clear. The checks read only the operands'
    /// high dwords (sign, exponent, the top of the mantissa): div_scale's result is src0
    /// whole, div_fixup's src0's low dword and its high dword with the quotient's sign.
    pub(super) fn div64(
        &mut self,
        i: u32,
        step: DivStep,
        dst: u8,
        mask: u8,
        src: [Src; 3],
        fma: Option<super::select::LaneInst>,
    ) -> R<()> {
        let mut done = self.a.create_label();
        let slow = self.slow_callout(i, done)?;
        if step == DivStep::Fmas {
            let f = fma.ok_or_else(|| err("v_div_fmas_f64 without its fma"))?;
            self.unflagged_or(slow)?;
            self.segment(&[(i, f)], 0, Default::default(), false)?;
            return super::emit::bind(&mut self.a, &mut done);
        }
        let ([a, b, c, d], [e, g, h]) = self.div_regs()?;
        let k = |n: usize| Vs::M(rsi + 64 * n as i32);
        let chunks = self.isa.chunks() as i32;
        for chunk in 0..chunks {
            self.chunk_exec(e, chunk, None)?;
            self.out_of_range(step, true, src, chunk, [a, b, c, d], [e, g, h])?;
            self.m_test(g)?;
            self.a.jnz(slow)?;
        }
        for chunk in 0..chunks {
            // The high dwords, then the low ones (src0's, both steps).
            self.div_src64(a, src[0], chunk, true)?;
            if step == DivStep::Fixup {
                self.div_src64(b, src[1], chunk, true)?;
                self.div_src64(c, src[2], chunk, true)?;
                self.v_xor(b, b, Vs::R(c))?;
                self.v_and(b, b, k(K_SIGN))?;
                self.v_and(a, a, k(K_ABS))?;
                self.v_or(a, a, Vs::R(b))?;
            }
            self.div_src64(c, src[0], chunk, false)?;
            self.chunk_exec(e, chunk, None)?;
            for (v, r) in [(a, dst + 1), (c, dst)] {
                let row = self.vgpr_chunk(r, chunk);
                self.v_store_masked_blend(row, v, e)?;
            }
        }
        let flags = (step == DivStep::Scale).then_some(mask);
        self.div_end(flags, [a, b, c, d], [e, g, h], done)
    }

    /// `v_ldexp_f32 v[dst], src0, src1` or (`wide`) `v_ldexp_f64 v[dst:dst+1], ...`
    /// (instruction `i`): x * 2^n is x with n added to its exponent where x is normal and so
    /// is the result (`valu::round::ldexp_bits` rounds nothing there), x itself where x is a
    /// zero or an infinity, x quieted where a NaN; a lane with anything else (a denormal
    /// operand, a result out of the normal range) sends the instruction to the interpreter
    /// before anything is written. f64 works on the high dwords, where sign, exponent (11
    /// bits from bit 20) and quiet bit (bit 19) are; its low dword is the operand's in every
    /// case handled here.
    pub(super) fn ldexp(&mut self, i: u32, dst: u8, src: [Src; 2], wide: bool) -> R<()> {
        let done = self.a.create_label();
        let slow = self.slow_callout(i, done)?;
        let ([a, b, c, d], [e, g, h]) = self.div_regs()?;
        let k = |n: usize| Vs::M(rsi + 64 * n as i32);
        let (shift, exp_max, range, mant, quiet) = match wide {
            false => (23, K_FF, FIXUP_RANGES[0], K_MANT32, K_QUIET),
            true => (20, K_7FF, FIXUP_RANGES_64[0], K_MANT64, K_QUIET64),
        };
        // `v` = the operand's (high) dword; `v` |= its low dword (f64).
        let high = |e: &mut Self, v: V, chunk: i32| match wide {
            true => e.div_src64(v, src[0], chunk, true),
            false => e.div_src(v, src[0], chunk),
        };
        let or_low = |e: &mut Self, v: V, t: V, chunk: i32| -> R<()> {
            if wide {
                e.div_src64(t, src[0], chunk, false)?;
                e.v_or(v, v, Vs::R(t))?;
            }
            Ok(())
        };
        let chunks = self.isa.chunks() as i32;
        for chunk in 0..chunks {
            self.chunk_exec(e, chunk, None)?;
            high(self, a, chunk)?;
            self.div_src(c, src[1], chunk)?;
            // g = x normal and the result's exponent e + n normal (in 32-bit arithmetic
            // that also bounds n: e + n in range only for n in range - e).
            self.v_srli(b, a, shift)?;
            self.v_and(b, b, k(exp_max))?;
            self.v_add(c, c, Vs::R(b))?;
            self.v_sub(d, b, k(range.0))?;
            self.v_icmp(g, Icmp::Le, false, d, k(range.1))?;
            self.v_sub(d, c, k(range.0))?;
            self.v_icmp(h, Icmp::Le, false, d, k(range.1))?;
            self.m_and(g, g, h)?;
            // ... or x an infinity or a NaN (exponent all ones) ...
            self.v_icmp(h, Icmp::Eq, false, b, k(exp_max))?;
            self.m_or(g, g, h)?;
            // ... or a zero (every bit zero but the sign).
            self.v_and(d, a, k(K_ABS))?;
            or_low(self, d, c, chunk)?;
            self.v_xor(c, c, Vs::R(c))?;
            self.v_icmp(h, Icmp::Eq, false, d, Vs::R(c))?;
            self.m_or(g, g, h)?;
            self.m_andn(g, g, e)?;
            self.m_test(g)?;
            self.a.jnz(slow)?;
        }
        for chunk in 0..chunks {
            high(self, a, chunk)?;
            self.div_src(c, src[1], chunk)?;
            // b = x with n added to the exponent.
            self.v_slli(c, c, shift)?;
            self.v_add(b, a, Vs::R(c))?;
            // g = the normal lanes; h = the NaNs: exponent all ones, mantissa not zero.
            self.v_srli(c, a, shift)?;
            self.v_and(c, c, k(exp_max))?;
            self.v_icmp(h, Icmp::Eq, false, c, k(exp_max))?;
            self.v_sub(c, c, k(range.0))?;
            self.v_icmp(g, Icmp::Le, false, c, k(range.1))?;
            self.v_and(d, a, k(mant))?;
            or_low(self, d, c, chunk)?;
            self.v_xor(c, c, Vs::R(c))?;
            self.v_icmp(e, Icmp::Eq, false, d, Vs::R(c))?;
            self.m_andn(h, e, h)?;
            // NaNs quieted, normal lanes scaled, zeros and infinities as they are.
            self.v_or(d, a, k(quiet))?;
            self.v_blend(a, h, a, d)?;
            self.v_blend(a, g, a, b)?;
            self.chunk_exec(e, chunk, None)?;
            // (The low dword read before the high one is written: the pairs may overlap.)
            if wide {
                self.div_src64(c, src[0], chunk, false)?;
            }
            let row = self.vgpr_chunk(dst.wrapping_add(u8::from(wide)), chunk);
            self.v_store_masked_blend(row, a, e)?;
            if wide {
                let row = self.vgpr_chunk(dst, chunk);
                self.v_store_masked_blend(row, c, e)?;
            }
        }
        self.div_end(None, [a, b, c, d], [e, g, h], done)
    }

    /// `v_frexp_mant` (`mant`) or `v_frexp_exp_i32` of f32 or (`wide`) f64 `src` into VGPR
    /// (pair) `dst` (instruction `i`), as `valu::fmisc::frexp_*`: for a normal x the sign and
    /// mantissa with the exponent of [0.5, 1), and x's exponent less the bias plus one; x
    /// itself for a zero or an infinity (exponent 0), x quieted for a NaN (exponent 0). A
    /// denormal lane sends the instruction to the interpreter before anything is written.
    /// f64 works on the high dwords (the low dword is the mantissa's, unchanged).
    pub(super) fn frexp(
        &mut self,
        i: u32,
        dst: u8,
        src: Src,
        wide: bool,
        mant: bool,
        (abs, neg): (bool, bool),
    ) -> R<()> {
        let done = self.a.create_label();
        let slow = self.slow_callout(i, done)?;
        let ([a, b, c, d], [e, g, h]) = self.div_regs()?;
        let k = |n: usize| Vs::M(rsi + 64 * n as i32);
        let w = usize::from(wide);
        let (shift, exp_max, range) = match wide {
            false => (23, K_FF, FIXUP_RANGES[0]),
            true => (20, K_7FF, FIXUP_RANGES_64[0]),
        };
        let chunks = self.isa.chunks() as i32;
        // d = |x| with (f64) the low dword's bits folded in: zero only for a zero.
        let magnitude = |e: &mut Self, chunk: i32| -> R<()> {
            e.v_and(d, a, k(K_ABS))?;
            if wide {
                e.div_src64(c, src, chunk, false)?;
                e.v_or(d, d, Vs::R(c))?;
            }
            Ok(())
        };
        // The (high) dword, the modifiers applied to its sign.
        let high = |e: &mut Self, v: V, chunk: i32| -> R<()> {
            match wide {
                true => e.div_src64(v, src, chunk, true)?,
                false => e.div_src(v, src, chunk)?,
            }
            if abs {
                e.v_and(v, v, k(K_ABS))?;
            }
            if neg {
                e.v_xor(v, v, k(K_SIGN))?;
            }
            Ok(())
        };
        for chunk in 0..chunks {
            // g = the denormals: exponent 0, not a zero.
            self.chunk_exec(e, chunk, None)?;
            high(self, a, chunk)?;
            magnitude(self, chunk)?;
            self.v_xor(c, c, Vs::R(c))?;
            self.v_icmp(h, Icmp::Eq, false, d, Vs::R(c))?;
            self.v_srli(b, a, shift)?;
            self.v_and(b, b, k(exp_max))?;
            self.v_icmp(g, Icmp::Eq, false, b, Vs::R(c))?;
            self.m_andn(g, h, g)?;
            self.m_and(g, g, e)?;
            self.m_test(g)?;
            self.a.jnz(slow)?;
        }
        for chunk in 0..chunks {
            high(self, a, chunk)?;
            // b = the exponent; g = the normal lanes.
            self.v_srli(b, a, shift)?;
            self.v_and(b, b, k(exp_max))?;
            self.v_sub(c, b, k(range.0))?;
            self.v_icmp(g, Icmp::Le, false, c, k(range.1))?;
            if mant {
                // h = the NaNs: exponent all ones, magnitude above the infinity's.
                self.v_icmp(h, Icmp::Eq, false, b, k(exp_max))?;
                if wide {
                    self.v_and(d, a, k(K_MANT64))?;
                    self.div_src64(c, src, chunk, false)?;
                    self.v_or(d, d, Vs::R(c))?;
                } else {
                    self.v_and(d, a, k(K_MANT32))?;
                }
                self.v_xor(c, c, Vs::R(c))?;
                self.v_icmp(e, Icmp::Eq, false, d, Vs::R(c))?;
                self.m_andn(h, e, h)?;
                // NaNs quieted, normal lanes' exponent replaced, zeros and infinities kept.
                let quiet = if wide { K_QUIET64 } else { K_QUIET };
                self.v_or(d, a, k(quiet))?;
                self.v_blend(a, h, a, d)?;
                self.v_and(d, a, k(K_SIGN_MANT[w]))?;
                self.v_or(d, d, k(K_HALF[w]))?;
                self.v_blend(a, g, a, d)?;
            } else {
                // The exponent less the bias plus one where normal, else 0.
                self.v_sub(a, b, k(K_BIAS1[w]))?;
                self.v_xor(c, c, Vs::R(c))?;
                self.v_blend(a, g, c, a)?;
            }
            self.chunk_exec(e, chunk, None)?;
            if wide && mant {
                self.div_src64(c, src, chunk, false)?;
                for (v, r) in [(a, dst.wrapping_add(1)), (c, dst)] {
                    let row = self.vgpr_chunk(r, chunk);
                    self.v_store_masked_blend(row, v, e)?;
                }
            } else {
                let row = self.vgpr_chunk(dst, chunk);
                self.v_store_masked_blend(row, a, e)?;
            }
        }
        self.div_end(None, [a, b, c, d], [e, g, h], done)
    }

    /// On to `slow` where an active lane's VCC bit is set (`v_div_fmas`: div_scale scaled
    /// that lane; the interpreter scales its result back).
    fn unflagged_or(&mut self, slow: CodeLabel) -> R<()> {
        self.a.mov(rax, sreg64(VCC_LO as u8))?;
        self.a.and(rax, sreg64(EXEC))?;
        Ok(self.a.jnz(slow)?)
    }

    /// A step's temporaries (four vectors, three masks), rsi = the checks' constants.
    fn div_regs(&mut self) -> R<([V; 4], [M; 3])> {
        self.a.mov(rsi, CONSTS.0.as_ptr() as u64)?;
        let v = [self.tmp()?, self.tmp()?, self.tmp()?, self.tmp()?];
        Ok((v, [self.mtmp()?, self.mtmp()?, self.mtmp()?]))
    }

    /// After a step's results: `div_scale`'s flags (`flags`: their pair) cleared (no lane
    /// scaled: every flag clear, inactive lanes' too, as the interpreter writes them), the
    /// temporaries freed, the slow path's return bound.
    fn div_end(&mut self, flags: Option<u8>, vs: [V; 4], ms: [M; 3], mut done: CodeLabel) -> R<()> {
        if let Some(pair) = flags {
            self.a.mov(sreg64(pair), 0)?;
        }
        vs.into_iter().for_each(|v| self.free(v));
        ms.into_iter().for_each(|m| self.mfree(m));
        super::emit::bind(&mut self.a, &mut done)
    }

    /// `g` = the lanes of `e` (chunk `chunk`'s active ones) where `div_scale` or `div_fixup`
    /// (`step`, f64 if `wide`) leaves the ordinary case: den's (src1) or num's (src2)
    /// exponent, or their difference, out of its range, or for `div_fixup` a NaN (f64: a
    /// non-finite) estimate (src0). Only the high dwords of f64 operands are read. `t`
    /// clobbered; `h` a mask temporary.
    fn out_of_range(
        &mut self,
        step: DivStep,
        wide: bool,
        src: [Src; 3],
        chunk: i32,
        [a, b, c, d]: [V; 4],
        [e, g, h]: [M; 3],
    ) -> R<()> {
        let k = |n: usize| Vs::M(rsi + 64 * n as i32);
        let (shift, exp, ranges, limit) = match (wide, step) {
            (false, DivStep::Scale) => (23, K_FF, SCALE_RANGES, K_INF),
            (false, _) => (23, K_FF, FIXUP_RANGES, K_INF),
            (true, DivStep::Scale) => (20, K_7FF, SCALE_RANGES_64, K_MAX64),
            (true, _) => (20, K_7FF, FIXUP_RANGES_64, K_MAX64),
        };
        // b, c = the exponents of den and num; d = their difference.
        for (v, s) in [(b, src[1]), (c, src[2])] {
            self.div_src_high(v, s, chunk, wide)?;
            self.v_srli(v, v, shift)?;
            self.v_and(v, v, k(exp))?;
        }
        self.v_sub(d, c, Vs::R(b))?;
        // g = the lanes whose three values are in range.
        for (n, (v, (lo, span))) in [b, c, d].into_iter().zip(ranges).enumerate() {
            self.v_sub(a, v, k(lo))?;
            let t = if n == 0 { g } else { h };
            self.v_icmp(t, Icmp::Le, false, a, k(span))?;
            if n > 0 {
                self.m_and(g, g, h)?;
            }
        }
        if step == DivStep::Fixup {
            self.div_src_high(a, src[0], chunk, wide)?;
            self.v_and(a, a, k(K_ABS))?;
            self.v_icmp(h, Icmp::Le, false, a, k(limit))?;
            self.m_and(g, g, h)?;
        }
        self.m_andn(g, g, e)
    }

    /// `d` = source `s` (f32), or the high dwords of f64 source `s` (`wide`).
    fn div_src_high(&mut self, d: V, s: Src, chunk: i32, wide: bool) -> R<()> {
        match wide {
            true => self.div_src64(d, s, chunk, true),
            false => self.div_src(d, s, chunk),
        }
    }

    /// `d` = the high (`hi`) or low dwords of 64-bit source `s` in the lanes of chunk `chunk`
    /// (eax clobbered).
    fn div_src64(&mut self, d: V, s: Src, chunk: i32, hi: bool) -> R<()> {
        let half = u8::from(hi);
        match s {
            Src::V(r) => self.div_src(d, Src::V(r + half), chunk),
            Src::S(x) => self.div_src(d, Src::S(x + half), chunk),
            Src::Imm(k) => self.v_const(d, (k >> (32 * u32::from(half))) as u32),
            _ => Err(err("division operand")),
        }
    }

    /// `a` = fma(src0, src1, src2) of chunk `chunk` (`t` clobbered).
    fn fma_chunk(&mut self, a: V, t: [V; 2], src: [Src; 3], chunk: i32) -> R<()> {
        self.div_src(a, src[0], chunk)?;
        self.div_src(t[0], src[1], chunk)?;
        self.div_src(t[1], src[2], chunk)?;
        self.v_fma(a, a, t[0], t[1])
    }

    /// VGPR `r`'s lanes of chunk `chunk` in the wave's register file.
    pub(super) fn vgpr_chunk(&self, r: u8, chunk: i32) -> AsmMemoryOperand {
        r13 + (256 * i32::from(r) + chunk * self.isa.chunk_bytes())
    }

    /// `d` = source `s` in the lanes of chunk `chunk` (eax clobbered).
    pub(super) fn div_src(&mut self, d: V, s: Src, chunk: i32) -> R<()> {
        match s {
            Src::V(r) => {
                let row = self.vgpr_chunk(r, chunk);
                self.v_mov(d, Vs::M(row))
            }
            Src::S(x) => {
                self.a.mov(eax, sreg32(x))?;
                self.v_bcast_gpr(d, eax)
            }
            Src::Imm(k) => self.v_const(d, k as u32),
            _ => Err(err("division operand")),
        }
    }
}
