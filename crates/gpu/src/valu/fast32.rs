//! Branch-free f32 lane loops for the hottest ops in round-to-nearest-even (the mode compute
//! kernels run in): add/sub/mul/fma/mad/min/max (`v_mad_f32` = `v_mac_f32` here too). Every special case (NaN choice, denormal
//! flushing, signed zeros) is a select, so the loops vectorize. The general code in `farith` /
//! `fmisc` defines the same results for every mode; tests compare both against the host.

use super::fops::FOp;
use super::{LaneArray, VopInputs};

const SIGN: u32 = 0x8000_0000;
const EXP: u32 = 0x7f80_0000;
const QUIET: u32 = 0x0040_0000;
const DEFAULT_NAN: u32 = 0x7fc0_0000;

#[inline(always)]
fn is_nan(x: u32) -> bool {
    x & !SIGN > EXP
}

/// Input denormals to signed zero when `FLUSH`.
#[inline(always)]
fn fin<const FLUSH: bool>(x: u32) -> u32 {
    if FLUSH && x & EXP == 0 {
        x & SIGN
    } else {
        x
    }
}

/// Output denormals to signed zero when `FLUSH`.
#[inline(always)]
fn fout<const FLUSH: bool>(x: u32) -> u32 {
    if FLUSH && x & EXP == 0 {
        x & SIGN
    } else {
        x
    }
}

/// NaN result selection: the first NaN input quieted, else the default NaN.
#[inline(always)]
fn nan3(x: u32, y: u32, z: u32) -> u32 {
    if is_nan(x) {
        x | QUIET
    } else if is_nan(y) {
        y | QUIET
    } else if is_nan(z) {
        z | QUIET
    } else {
        DEFAULT_NAN
    }
}

/// Finishes an arithmetic result: NaN rule, output flush.
#[inline(always)]
fn done<const FO: bool>(r: f32, x: u32, y: u32, z: u32) -> u32 {
    if r.is_nan() {
        nan3(x, y, z)
    } else {
        fout::<FO>(r.to_bits())
    }
}

/// f32 fma rounded once: exact product in f64, sum made round-to-odd, then rounded to f32.
#[inline(always)]
fn fma(x: f32, y: f32, z: f32) -> f32 {
    let p = x as f64 * y as f64;
    let c = z as f64;
    let s = p + c;
    let bb = s - p;
    let e = (p - (s - bb)) + (c - bb);
    let bits = s.to_bits();
    let toward = if (e > 0.0) == (s > 0.0) {
        bits + 1
    } else {
        bits.wrapping_sub(1)
    };
    let fix = e != 0.0 && bits & 1 == 0 && s.is_finite();
    f64::from_bits(if fix { toward } else { bits }) as f32
}

/// IEEE-mode min/max of non-NaN values with -0 < +0 (NaN cases handled by the caller).
#[inline(always)]
fn less(x: u32, y: u32) -> bool {
    let (a, b) = (f32::from_bits(x), f32::from_bits(y));
    a < b || (a == b && x & SIGN > y & SIGN)
}

/// min (`MAX` false) or max with the ISA's NaN rules (`ieee`: sNaN gives the quieted sNaN).
#[inline(always)]
fn minmax<const MAX: bool>(x: u32, y: u32, ieee: bool) -> u32 {
    let pick_y = if MAX { less(x, y) } else { less(y, x) };
    let num = if pick_y { y } else { x };
    let snan = |v: u32| is_nan(v) && v & QUIET == 0;
    if ieee && snan(x) {
        x | QUIET
    } else if ieee && snan(y) {
        y | QUIET
    } else if is_nan(x) {
        if is_nan(y) {
            y | QUIET
        } else {
            y
        }
    } else if is_nan(y) {
        x
    } else {
        num
    }
}

/// Runs `op` if it has a fast form; false otherwise. `fi`/`fo`: flush input/output denormals.
pub fn run(op: FOp, inp: &VopInputs, d: &mut LaneArray, fi: bool, fo: bool) -> bool {
    match (fi, fo) {
        (false, false) => run_t::<false, false>(op, inp, d),
        (false, true) => run_t::<false, true>(op, inp, d),
        (true, false) => run_t::<true, false>(op, inp, d),
        (true, true) => run_t::<true, true>(op, inp, d),
    }
}

fn run_t<const FI: bool, const FO: bool>(op: FOp, inp: &VopInputs, d: &mut LaneArray) -> bool {
    // Source modifiers as masks: operand = (x & and) ^ xor.
    let and: [u32; 3] = std::array::from_fn(|i| if inp.abs >> i & 1 != 0 { !SIGN } else { !0 });
    let xor: [u32; 3] = std::array::from_fn(|i| if inp.neg >> i & 1 != 0 { SIGN } else { 0 });
    let [s0, s1, s2] = &inp.src;
    let g = |i: usize, v: u64| fin::<FI>((v as u32 & and[i]) ^ xor[i]);
    let f = f32::from_bits;
    let ieee = inp.mode.ieee;
    macro_rules! lanes2 {
        (|$x:ident, $y:ident| $e:expr) => {
            for ((o, &a), &b) in d.iter_mut().zip(s0).zip(s1) {
                let ($x, $y) = (g(0, a), g(1, b));
                *o = ($e) as u64;
            }
        };
    }
    macro_rules! lanes3 {
        (|$x:ident, $y:ident, $z:ident| $e:expr) => {
            for (((o, &a), &b), &c) in d.iter_mut().zip(s0).zip(s1).zip(s2) {
                let ($x, $y, $z) = (g(0, a), g(1, b), g(2, c));
                *o = ($e) as u64;
            }
        };
    }
    match op {
        FOp::Add => lanes2!(|x, y| done::<FO>(f(x) + f(y), x, y, 0)),
        // Subtraction is addition of the negated operand, NaN sign included.
        FOp::Sub => lanes2!(|x, y| done::<FO>(f(x) - f(y), x, y ^ SIGN, 0)),
        FOp::SubRev => lanes2!(|x, y| done::<FO>(f(y) - f(x), y, x ^ SIGN, 0)),
        FOp::Mul => lanes2!(|x, y| done::<FO>(f(x) * f(y), x, y, 0)),
        FOp::Fma => lanes3!(|x, y, z| done::<FO>(fma(f(x), f(y), f(z)), x, y, z)),
        FOp::Mad => lanes3!(|x, y, z| {
            // The hardware mad flushes denormals whatever the mode, and rounds the product.
            let (x, y, z) = (fin::<true>(x), fin::<true>(y), fin::<true>(z));
            let p = done::<true>(f(x) * f(y), x, y, 0);
            done::<true>(f(p) + f(z), p, z, 0)
        }),
        FOp::Min => lanes2!(|x, y| fout::<FO>(minmax::<false>(x, y, ieee))),
        FOp::Max => lanes2!(|x, y| fout::<FO>(minmax::<true>(x, y, ieee))),
        _ => return false,
    }
    true
}
