//! The builtins `cl_math` checks: OpenCL expressions, host references and ulp bounds.

/// Where a function's inputs come from.
#[derive(Clone, Copy)]
pub enum Dom {
    /// Any value, including specials (±0, ±inf, NaN, denormals).
    Any,
    /// Finite values with |x| ≤ the bound (trig arguments, exp arguments).
    Within(f64),
    /// x in [lo, hi].
    Range(f64, f64),
}

/// One builtin: its OpenCL expression over `x` (and `z`), the host reference, and the allowed
/// error in ulps for half, float and double.
pub struct Case {
    pub name: &'static str,
    pub expr: &'static str,
    pub host: fn(f64, f64) -> f64,
    pub ulp: [u64; 3],
    pub dom: [Dom; 2],
}

macro_rules! case {
    ($name:ident, $expr:literal, |$x:ident, $z:ident| $host:expr, $ulp:expr, $d0:expr, $d1:expr) => {
        Case {
            name: stringify!($name),
            expr: $expr,
            host: |$x, $z| $host,
            ulp: $ulp,
            dom: [$d0, $d1],
        }
    };
}

/// half sin: the library's bitcode returns NaN for finite inputs (see half_trig.rs, which
/// tests it).
const ELSEWHERE: u64 = u64::MAX;

/// The builtins under test (the spec bound, then +1 for the reference's rounding).
pub fn cases() -> Vec<Case> {
    use Dom::*;
    let big = Within(1e4);
    vec![
        case!(add, "x + z", |x, z| x + z, [0, 0, 0], Any, Any),
        case!(mul, "x * z", |x, z| x * z, [0, 0, 0], Any, Any),
        case!(div, "x / z", |x, z| x / z, [1, 3, 0], Any, Any),
        case!(
            fmaf,
            "fma(x, z, x)",
            |x, z| x.mul_add(z, x),
            [0, 0, 0],
            Any,
            Any
        ),
        case!(sqrt_, "sqrt(x)", |x, _z| x.sqrt(), [1, 4, 0], Any, Any),
        case!(
            rsqrt_,
            "rsqrt(x)",
            |x, _z| 1.0 / x.sqrt(),
            [2, 3, 3],
            Any,
            Any
        ),
        case!(sin_, "sin(x)", |x, _z| x.sin(), [ELSEWHERE, 5, 5], big, Any),
        case!(cos_, "cos(x)", |x, _z| x.cos(), [3, 5, 5], big, Any),
        case!(tan_, "tan(x)", |x, _z| x.tan(), [3, 7, 7], big, Any),
        case!(
            exp_,
            "exp(x)",
            |x, _z| x.exp(),
            [3, 4, 4],
            Within(100.0),
            Any
        ),
        case!(
            exp2_,
            "exp2(x)",
            |x, _z| x.exp2(),
            [3, 4, 4],
            Within(130.0),
            Any
        ),
        case!(log_, "log(x)", |x, _z| x.ln(), [3, 4, 4], Any, Any),
        case!(log2_, "log2(x)", |x, _z| x.log2(), [3, 4, 4], Any, Any),
        case!(log10_, "log10(x)", |x, _z| x.log10(), [3, 4, 4], Any, Any),
        case!(
            pow_,
            "pow(x, z)",
            |x, z| x.powf(z),
            [3, 17, 17],
            Range(0.0, 50.0),
            Within(20.0)
        ),
        case!(atan_, "atan(x)", |x, _z| x.atan(), [3, 6, 6], Any, Any),
        case!(
            atan2_,
            "atan2(x, z)",
            |x, z| x.atan2(z),
            [3, 7, 7],
            Any,
            Any
        ),
        case!(
            asin_,
            "asin(x)",
            |x, _z| x.asin(),
            [3, 5, 5],
            Range(-1.0, 1.0),
            Any
        ),
        case!(
            acos_,
            "acos(x)",
            |x, _z| x.acos(),
            [3, 5, 5],
            Range(-1.0, 1.0),
            Any
        ),
        case!(
            sinh_,
            "sinh(x)",
            |x, _z| x.sinh(),
            [3, 5, 5],
            Within(80.0),
            Any
        ),
        case!(
            tanh_,
            "tanh(x)",
            |x, _z| x.tanh(),
            [3, 6, 6],
            Within(30.0),
            Any
        ),
        case!(cbrt_, "cbrt(x)", |x, _z| x.cbrt(), [3, 3, 3], Any, Any),
        case!(
            hypot_,
            "hypot(x, z)",
            |x, z| x.hypot(z),
            [3, 5, 5],
            Any,
            Any
        ),
        case!(
            cosh_,
            "cosh(x)",
            |x, _z| x.cosh(),
            [3, 5, 5],
            Within(80.0),
            Any
        ),
        case!(
            expm1_,
            "expm1(x)",
            |x, _z| x.exp_m1(),
            [3, 4, 4],
            Within(80.0),
            Any
        ),
        case!(log1p_, "log1p(x)", |x, _z| x.ln_1p(), [3, 3, 3], Any, Any),
        case!(asinh_, "asinh(x)", |x, _z| x.asinh(), [3, 5, 5], Any, Any),
        case!(
            acosh_,
            "acosh(x)",
            |x, _z| x.acosh(),
            [3, 5, 5],
            Range(1.0, 1e6),
            Any
        ),
        case!(
            atanh_,
            "atanh(x)",
            // Rust's atanh loses ~10 ulp near ±1 (it rounds 2x/(1-x) first); this does not.
            |x, _z| 0.5 * (x.ln_1p() - (-x).ln_1p()),
            [3, 6, 6],
            Range(-1.0, 1.0),
            Any
        ),
        case!(
            sinpi_,
            "sinpi(x)",
            |x, _z| sinpi(x),
            [3, 5, 5],
            Within(1e4),
            Any
        ),
        case!(
            cospi_,
            "cospi(x)",
            |x, _z| sinpi(x + 0.5),
            [3, 5, 5],
            Within(1e4),
            Any
        ),
        case!(
            pown_,
            "pown(x, (int)z)",
            |x, z| x.powi(z as i32),
            [3, 17, 17],
            Within(8.0),
            Within(30.0)
        ),
        case!(
            exp10_,
            "exp10(x)",
            |x, _z| 10f64.powf(x),
            [3, 4, 4],
            Within(38.0),
            Any
        ),
        case!(ceil_, "ceil(x)", |x, _z| x.ceil(), [0, 0, 0], Any, Any),
        case!(trunc_, "trunc(x)", |x, _z| x.trunc(), [0, 0, 0], Any, Any),
        case!(round_, "round(x)", |x, _z| x.round(), [0, 0, 0], Any, Any),
        case!(
            fdim_,
            "fdim(x, z)",
            |x, z| if x > z {
                x - z
            } else if x.is_nan() || z.is_nan() {
                f64::NAN
            } else {
                0.0
            },
            [0, 0, 0],
            Any,
            Any
        ),
        case!(fmax_, "fmax(x, z)", |x, z| x.max(z), [0, 0, 0], Any, Any),
        case!(fabs_, "fabs(x)", |x, _z| x.abs(), [0, 0, 0], Any, Any),
        case!(floor_, "floor(x)", |x, _z| x.floor(), [0, 0, 0], Any, Any),
        case!(
            rint_,
            "rint(x)",
            |x, _z| x.round_ties_even(),
            [0, 0, 0],
            Any,
            Any
        ),
        case!(fmod_, "fmod(x, z)", |x, z| x % z, [0, 0, 0], Any, Any),
        case!(
            ldexp_,
            "ldexp(x, (int)z)",
            |x, z| x * 2f64.powi(z as i32),
            [0, 0, 0],
            Any,
            Within(40.0)
        ),
        case!(fmin_, "fmin(x, z)", |x, z| x.min(z), [0, 0, 0], Any, Any),
        case!(
            copysign_,
            "copysign(x, z)",
            |x, z| x.copysign(z),
            [0, 0, 0],
            Any,
            Any
        ),
    ]
}

/// sin(πx), reduced exactly first (x − round(x) is exact), so the host's rounding of πr is
/// harmless near the zeros.
fn sinpi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let n = x.round();
    let r = x - n;
    let s = (std::f64::consts::PI * r).sin();
    let s = if n % 2.0 == 0.0 { s } else { -s };
    // sinpi(±n) is ±0 with the sign of x.
    if s == 0.0 {
        0.0f64.copysign(x)
    } else {
        s
    }
}
