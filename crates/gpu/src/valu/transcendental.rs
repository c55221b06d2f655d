//! `v_rcp/rsq/sqrt/log/exp/sin/cos` in f16/f32/f64.
//!
//! The hardware's versions are approximations within about 1 ulp; here each is computed in f64
//! and rounded once to the format (f32/f16 results are then within 0.5 ulp plus the f64 error,
//! f64 rcp and sqrt are correctly rounded). `log` and `exp` are base 2; `sin` and `cos` take
//! their argument in revolutions (sin(2π·x)). Special values follow the ISA tables.

use super::float_env::{fmt_of, output_mods, Env, Fmt, Round, SrcMods};
use super::fops::FTy;
use super::lanes::map1;
use super::round::{round_to, to_f64};
use super::{DstHalf, VopInputs, VopOutputs};

/// Transcendental ops (`*_legacy` and `rcp_iflag` resolve to the plain forms).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum TrOp {
    Rcp,
    Rsq,
    Sqrt,
    Log,
    Exp,
    Sin,
    Cos,
}

/// sin(2π·r) for any finite r: the argument is reduced exactly to [-0.5, 0.5] first.
#[inline(always)]
fn sin_rev(v: f64) -> f64 {
    let r = v - v.round_ties_even();
    if r == 0.0 || r.abs() == 0.5 {
        // Exact zeros of sin: keep the sign of the reduced argument.
        return f64::copysign(0.0, r);
    }
    (r * std::f64::consts::TAU).sin()
}

/// cos(2π·r) for any finite r.
#[inline(always)]
fn cos_rev(v: f64) -> f64 {
    let r = v - v.round_ties_even();
    if r.abs() == 0.25 {
        return 0.0;
    }
    (r * std::f64::consts::TAU).cos()
}

/// The exact value of one op at `v` (special values included), as f64.
#[inline(always)]
fn eval(op: TrOp, v: f64) -> f64 {
    match op {
        TrOp::Rcp => 1.0 / v,
        TrOp::Rsq => {
            if v == 0.0 {
                f64::copysign(f64::INFINITY, v)
            } else {
                1.0 / v.sqrt()
            }
        }
        TrOp::Sqrt => v.sqrt(),
        TrOp::Log => {
            if v == 0.0 {
                f64::NEG_INFINITY
            } else {
                v.log2()
            }
        }
        TrOp::Exp => v.exp2(),
        TrOp::Sin => {
            if v.is_infinite() {
                f64::NAN
            } else if v == 0.0 {
                v
            } else {
                sin_rev(v)
            }
        }
        TrOp::Cos => {
            if v.is_infinite() {
                f64::NAN
            } else {
                cos_rev(v)
            }
        }
    }
}

/// One lane: bits of `fmt` in, bits of `fmt` out.
#[inline(always)]
fn lane(op: TrOp, fmt: Fmt, x: u64, env: &Env) -> u64 {
    let x = fmt.flush_in(x, env);
    if fmt.is_nan(x) {
        return fmt.quiet(x);
    }
    let v = to_f64(fmt, x);
    if fmt.width == 64 {
        let r = eval(op, v);
        if r.is_nan() {
            return fmt.default_nan();
        }
        return fmt.flush_out(r.to_bits(), env);
    }
    let r = eval(op, v);
    if r.is_nan() {
        return fmt.default_nan();
    }
    fmt.flush_out(round_to(fmt, r, 0.0, Round::NearestEven), env)
}

/// Runs a transcendental op in format `ty`.
pub fn exec(op: TrOp, ty: FTy, inp: &VopInputs, out: &mut VopOutputs) -> bool {
    match ty {
        FTy::F16 => run::<16>(op, inp, out),
        FTy::F32 => run::<32>(op, inp, out),
        FTy::F64 => run::<64>(op, inp, out),
    }
    true
}

fn run<const W: u32>(op: TrOp, inp: &VopInputs, out: &mut VopOutputs) {
    let fmt = fmt_of::<W>();
    let env = inp.mode.env(fmt);
    let m = SrcMods::new(inp.abs, inp.neg, [fmt; 3]);
    let sh = if fmt.width == 16 && inp.op_sel & 1 != 0 {
        16
    } else {
        0
    };
    map1(&mut out.dst, &inp.src[0], |a| {
        lane(op, fmt, m.get(0, (a >> sh) & fmt.all()), &env)
    });
    if inp.clamp || inp.omod != 0 {
        output_mods(
            &mut out.dst,
            fmt,
            inp.omod,
            inp.clamp,
            inp.mode.dx10_clamp,
            &env,
        );
    }
    if fmt.width == 16 && inp.op_sel & 8 != 0 {
        out.dst_half = DstHalf::HiKeepLo;
    }
}
