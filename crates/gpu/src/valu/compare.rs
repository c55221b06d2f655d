//! `v_cmp_*`, `v_cmpx_*` and `v_cmp_class_*` for every type and condition: a 64-bit lane mask.

use super::float_env::{fmt_of, Env, Fmt, SrcMods};
use super::lanes::mask2;
use super::round::to_f64;
use super::{LaneArray, VopInputs, VopOutputs};

/// Operand type of a compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum CmpTy {
    F16,
    F32,
    F64,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
}

impl CmpTy {
    /// Parses a mnemonic type suffix (`f32`, `u64`, ...).
    pub fn from_suffix(s: &str) -> Option<Self> {
        Some(match s {
            "f16" => CmpTy::F16,
            "f32" => CmpTy::F32,
            "f64" => CmpTy::F64,
            "i16" => CmpTy::I16,
            "u16" => CmpTy::U16,
            "i32" => CmpTy::I32,
            "u32" => CmpTy::U32,
            "i64" => CmpTy::I64,
            "u64" => CmpTy::U64,
            _ => return None,
        })
    }

    /// A float type.
    pub fn is_float(self) -> bool {
        matches!(self, CmpTy::F16 | CmpTy::F32 | CmpTy::F64)
    }

    /// The operand type for [`super::OpInfo`].
    pub fn ty(self) -> super::Ty {
        use super::Ty;
        match self {
            CmpTy::F16 => Ty::F16,
            CmpTy::F32 => Ty::F32,
            CmpTy::F64 => Ty::F64,
            CmpTy::I16 | CmpTy::U16 => Ty::U16,
            CmpTy::I32 | CmpTy::U32 => Ty::U32,
            CmpTy::I64 | CmpTy::U64 => Ty::U64,
        }
    }
}

/// Compare condition. Float conditions `N*` are true for unordered operands; the integer ones
/// use `Ne` and `Tru` for `ne` and `t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Cond {
    F,
    Lt,
    Eq,
    Le,
    Gt,
    Lg,
    Ge,
    O,
    U,
    Nge,
    Nlg,
    Ngt,
    Nle,
    Neq,
    Nlt,
    Tru,
    Ne,
    /// `v_cmp_class`: src1 is a mask of classes.
    Class,
}

impl Cond {
    /// Parses a condition name; `float` selects the float or the integer set.
    pub fn from_name(s: &str, float: bool) -> Option<Self> {
        use Cond::*;
        let c = match s {
            "f" => F,
            "lt" => Lt,
            "eq" => Eq,
            "le" => Le,
            "gt" => Gt,
            "ge" => Ge,
            "class" if float => Class,
            "lg" | "o" | "u" | "nge" | "nlg" | "ngt" | "nle" | "neq" | "nlt" | "tru" if float => {
                match s {
                    "lg" => Lg,
                    "o" => O,
                    "u" => U,
                    "nge" => Nge,
                    "nlg" => Nlg,
                    "ngt" => Ngt,
                    "nle" => Nle,
                    "neq" => Neq,
                    "nlt" => Nlt,
                    _ => Tru,
                }
            }
            "ne" if !float => Ne,
            "t" if !float => Tru,
            _ => return None,
        };
        Some(c)
    }
}

/// A compare: type, condition, and whether it also writes EXEC (`v_cmpx`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CmpOp {
    /// Operand type.
    pub ty: CmpTy,
    /// Condition.
    pub cond: Cond,
    /// `v_cmpx_*`.
    pub x: bool,
}

/// The lane mask of `cond(ca(a[l]), cb(b[l]))`, the condition chosen outside the lane loop.
/// IEEE operators give the unordered (NaN) behaviour: ordered conditions false, `N*` true.
#[allow(clippy::neg_cmp_op_on_partial_ord)]
#[inline(always)]
fn by_cond<T: PartialOrd + Copy>(
    cond: Cond,
    a: &LaneArray,
    b: &LaneArray,
    ca: impl Fn(u64) -> T,
    cb: impl Fn(u64) -> T,
) -> u64 {
    use Cond::*;
    // A macro, not a function pointer, so each condition's loop is inlined and vectorized.
    macro_rules! m {
        (|$p:ident, $q:ident| $e:expr) => {
            mask2(a, b, |x, y| {
                let ($p, $q) = (ca(x), cb(y));
                $e
            })
        };
    }
    let lg = |p: T, q: T| p.partial_cmp(&q).is_some_and(|o| o.is_ne());
    match cond {
        F | Class => 0,
        Tru => !0,
        Lt => m!(|p, q| p < q),
        Eq => m!(|p, q| p == q),
        Le => m!(|p, q| p <= q),
        Gt => m!(|p, q| p > q),
        Lg => m!(|p, q| lg(p, q)),
        Ge => m!(|p, q| p >= q),
        O => m!(|p, q| p.partial_cmp(&q).is_some()),
        U => m!(|p, q| p.partial_cmp(&q).is_none()),
        Nge => m!(|p, q| !(p >= q)),
        Nlg => m!(|p, q| !lg(p, q)),
        Ngt => m!(|p, q| !(p > q)),
        Nle => m!(|p, q| !(p <= q)),
        Neq | Ne => m!(|p, q| p != q),
        Nlt => m!(|p, q| !(p < q)),
    }
}

/// The class bit of x (ISA order: sNaN, qNaN, -inf, -normal, -denormal, -0, +0, +denormal,
/// +normal, +inf).
#[inline(always)]
pub fn class_bit(fmt: Fmt, x: u64) -> u32 {
    if fmt.is_snan(x) {
        return 0;
    }
    if fmt.is_nan(x) {
        return 1;
    }
    let k = if fmt.is_inf(x) {
        0
    } else if fmt.is_zero(x) {
        3
    } else if fmt.is_denorm(x) {
        2
    } else {
        1
    };
    if fmt.is_neg(x) {
        2 + k
    } else {
        9 - k
    }
}

fn float_cmp<const W: u32>(cond: Cond, inp: &VopInputs) -> u64 {
    let fmt = fmt_of::<W>();
    let env: Env = inp.mode.env(fmt);
    let m = SrcMods::new(inp.abs, inp.neg, [fmt; 3]);
    let all = fmt.all();
    let (a, b) = (&inp.src[0], &inp.src[1]);
    if cond == Cond::Class {
        return mask2(a, b, |x, y| y >> class_bit(fmt, m.get(0, x & all)) & 1 != 0);
    }
    // Operand i after modifiers and input denormal flushing.
    let op = |i: usize, v: u64| fmt.flush_in(m.get(i, v & all), &env);
    match W {
        32 => by_cond(
            cond,
            a,
            b,
            |v| f32::from_bits(op(0, v) as u32),
            |v| f32::from_bits(op(1, v) as u32),
        ),
        _ => by_cond(
            cond,
            a,
            b,
            |v| to_f64(fmt, op(0, v)),
            |v| to_f64(fmt, op(1, v)),
        ),
    }
}

/// Runs a compare: the result goes to `out.mask`.
pub fn exec(op: CmpOp, inp: &VopInputs, out: &mut VopOutputs) -> bool {
    let c = op.cond;
    let (a, b) = (&inp.src[0], &inp.src[1]);
    out.mask = match op.ty {
        CmpTy::F16 => float_cmp::<16>(c, inp),
        CmpTy::F32 => float_cmp::<32>(c, inp),
        CmpTy::F64 => float_cmp::<64>(c, inp),
        CmpTy::I16 => by_cond(c, a, b, |v| v as u16 as i16, |v| v as u16 as i16),
        CmpTy::U16 => by_cond(c, a, b, |v| v as u16, |v| v as u16),
        CmpTy::I32 => by_cond(c, a, b, |v| v as u32 as i32, |v| v as u32 as i32),
        CmpTy::U32 => by_cond(c, a, b, |v| v as u32, |v| v as u32),
        CmpTy::I64 => by_cond(c, a, b, |v| v as i64, |v| v as i64),
        CmpTy::U64 => by_cond(c, a, b, |v| v, |v| v),
    };
    true
}
