//! The float atomics of gfx908+ (`*_atomic_add_f32`, `*_atomic_pk_add_f16/bf16`,
//! `*_atomic_add/min/max_f64`, `ds_add_f64`): the value each leaves in memory.
//!
//! Rounding is to nearest even. f32 adds flush denormal inputs and results to signed zeros
//! (the hardware's f32 atomics cannot keep denormals, which is why LLVM only selects them under
//! a flushing denormal mode); f64 and packed f16/bf16 keep them. f64 min/max follow the VALU's
//! IEEE-mode rules (a signaling NaN gives a quiet NaN, a quiet NaN loses to a number).
//!
//! A NaN operand of an add gives the memory value's NaN, quieted, if it is one, else the data's
//! ([`add_f32`], [`add_f64`]): x86's rule for `vaddss old, data`, which the JIT's lowering is.
//! Rust's `a + b` would leave the choice to LLVM, which may commute the operands.

use super::vmem::AtomicOp;
use crate::valu::{FOp, FTy, Mode, VopInputs, VopOutputs};

fn flush32(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// f32 `old + data` with a NaN result pinned (module documentation); denormals kept.
pub fn add_f32(old: u32, data: u32) -> u32 {
    let (x, y) = (f32::from_bits(old), f32::from_bits(data));
    if x.is_nan() {
        old | 0x0040_0000
    } else if y.is_nan() {
        data | 0x0040_0000
    } else {
        (x + y).to_bits()
    }
}

/// f64 `old + data` with a NaN result pinned as in [`add_f32`].
pub fn add_f64(old: u64, data: u64) -> u64 {
    let (x, y) = (f64::from_bits(old), f64::from_bits(data));
    if x.is_nan() {
        old | 0x0008_0000_0000_0000
    } else if y.is_nan() {
        data | 0x0008_0000_0000_0000
    } else {
        (x + y).to_bits()
    }
}

/// One lane's f16 or bf16 add (`bf`: bfloat16), rounded to nearest even.
fn add16(a: u16, b: u16, bf: bool) -> u16 {
    if bf {
        let s = f32::from_bits(u32::from(a) << 16) + f32::from_bits(u32::from(b) << 16);
        let u = s.to_bits();
        if s.is_nan() {
            return 0x7fc0;
        }
        // f32 → bf16, ties to even (the sum of two bf16 values is exact in f32).
        let r = u + 0x7fff + (u >> 16 & 1);
        (r >> 16) as u16
    } else {
        let mut inp = VopInputs::default();
        let mut out = VopOutputs::default();
        // Default MODE: round to nearest even, f16/f64 denormals kept, IEEE mode.
        inp.mode = Mode::default();
        inp.src[0][0] = u64::from(a);
        inp.src[1][0] = u64::from(b);
        inp.exec = 1;
        let _ = crate::valu::execute(
            crate::valu::ValuOp::Float(FOp::Add, FTy::F16),
            &inp,
            &mut out,
        );
        out.dst[0] as u16
    }
}

/// f64 min/max with the VALU's semantics.
fn minmax64(op: FOp, a: u64, b: u64) -> u64 {
    let mut inp = VopInputs::default();
    let mut out = VopOutputs::default();
    inp.mode = Mode::default();
    inp.src[0][0] = a;
    inp.src[1][0] = b;
    inp.exec = 1;
    let _ = crate::valu::execute(crate::valu::ValuOp::Float(op, FTy::F64), &inp, &mut out);
    out.dst[0]
}

/// The new memory value of float atomic `op` on `old` with operand `data`.
pub fn apply(op: AtomicOp, old: u64, data: u64) -> u64 {
    match op {
        AtomicOp::AddF32 => {
            let flush = |v: u32| flush32(f32::from_bits(v)).to_bits();
            let s = add_f32(flush(old as u32), flush(data as u32));
            u64::from(flush(s))
        }
        AtomicOp::PkAddF16 | AtomicOp::PkAddBf16 => {
            let bf = op == AtomicOp::PkAddBf16;
            let lo = add16(old as u16, data as u16, bf);
            let hi = add16((old >> 16) as u16, (data >> 16) as u16, bf);
            u64::from(lo) | u64::from(hi) << 16
        }
        AtomicOp::AddF64 => add_f64(old, data),
        AtomicOp::MinF64 => minmax64(FOp::Min, old, data),
        AtomicOp::MaxF64 => minmax64(FOp::Max, old, data),
        _ => old,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_atomics() {
        let f = |x: f32| u64::from(x.to_bits());
        assert_eq!(apply(AtomicOp::AddF32, f(1.5), f(2.25)), f(3.75));
        assert_eq!(apply(AtomicOp::AddF32, f(1e-40), f(0.0)), f(0.0));
        // f16 1.0 + 2.0 = 3.0 in both halves.
        assert_eq!(
            apply(AtomicOp::PkAddF16, 0x3c00_3c00, 0x4000_4000),
            0x4200_4200
        );
        // bf16 1.0 + 1.0 = 2.0.
        assert_eq!(apply(AtomicOp::PkAddBf16, 0x3f80, 0x3f80), 0x4000);
        let d = |x: f64| x.to_bits();
        assert_eq!(apply(AtomicOp::AddF64, d(0.1), d(0.2)), d(0.1 + 0.2));
        assert_eq!(apply(AtomicOp::MinF64, d(-1.0), d(2.0)), d(-1.0));
        assert_eq!(apply(AtomicOp::MaxF64, d(f64::NAN), d(2.0)), d(2.0));
    }

    #[test]
    fn a_nan_sum_is_the_memory_values_nan_first() {
        // Signaling NaNs with payloads, computed here from their fields.
        let snan32 = |payload: u32| 0x7f80_0000 | payload;
        let (a, b) = (snan32(0x11), 0xffc0_0022);
        assert_eq!(add_f32(a, b), a | 1 << 22);
        assert_eq!(add_f32(b, a), b);
        assert_eq!(add_f32(1.0f32.to_bits(), a), a | 1 << 22);
        assert_eq!(add_f32(a, 1.0f32.to_bits()), a | 1 << 22);
        // Infinities of both signs: the host's default NaN, whichever comes first.
        let (inf, ninf) = (f32::INFINITY.to_bits(), f32::NEG_INFINITY.to_bits());
        assert!(f32::from_bits(add_f32(inf, ninf)).is_nan());
        assert_eq!(add_f32(inf, ninf), add_f32(ninf, inf));
        // Denormals stay (the f32 atomic add of `apply` flushes them, this does not).
        assert_eq!(add_f32(1, 1), 2);
        let snan64 = 0x7ff0_0000_0000_0005u64;
        assert_eq!(add_f64(snan64, 0xfff8_0000_0000_0009), snan64 | 1 << 51);
        assert_eq!(add_f64(2.0f64.to_bits(), snan64), snan64 | 1 << 51);
        // The global f32 add flushes, then pins the same way.
        assert_eq!(
            apply(AtomicOp::AddF32, u64::from(b), u64::from(a)),
            u64::from(b)
        );
    }
}
