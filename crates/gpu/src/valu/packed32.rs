//! gfx90a's packed FP32 (VOP3P on register pairs): `v_pk_fma_f32`, `v_pk_mul_f32`,
//! `v_pk_add_f32` and `v_pk_mov_b32`.
//!
//! Each 64-bit operand holds two f32 values. The low result reads dword `op_sel[i]` of source
//! i, the high result dword `op_sel_hi[i]`; `neg_lo`/`neg_hi` negate the values each result
//! reads. Arithmetic follows MODE's f32 rounding and denormal fields, and clamp clamps each
//! result to [0, 1]. `v_pk_mov_b32` moves dword `op_sel[0]` of src0 to the low half and dword
//! `op_sel[1]` of src1 to the high half.

use super::farith::{add, fma, mul};
use super::float_env::{output_mods, F32};
use super::lanes::map3;
use super::{VopInputs, VopOutputs};

/// Packed FP32 ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Pk32Op {
    Fma,
    Mul,
    Add,
    Mov,
}

impl Pk32Op {
    /// Number of sources.
    pub fn num_src(self) -> u8 {
        match self {
            Pk32Op::Fma => 3,
            _ => 2,
        }
    }
}

/// Runs a packed FP32 op.
pub fn exec(op: Pk32Op, inp: &VopInputs, out: &mut VopOutputs) -> bool {
    let env = inp.mode.env(F32);
    let bit = |m: u8, i: usize| m >> i & 1 != 0;
    let dword = |x: u64, hi: bool| if hi { x >> 32 } else { x & 0xffff_ffff };
    // The value result `h` (0 low, 1 high) reads from source i.
    let pick = |x: u64, i: usize, h: usize| {
        let sel = if h == 0 { inp.op_sel } else { inp.op_sel_hi };
        let neg = if h == 0 { inp.neg } else { inp.neg_hi };
        dword(x, bit(sel, i)) ^ if bit(neg, i) { F32.sign() } else { 0 }
    };
    if op == Pk32Op::Mov {
        map3(&mut out.dst, &inp.src, |a, b, _| {
            dword(a, bit(inp.op_sel, 0)) | dword(b, bit(inp.op_sel, 1)) << 32
        });
        return true;
    }
    let mut halves = [[0u64; 64]; 2];
    for (h, dst) in halves.iter_mut().enumerate() {
        map3(dst, &inp.src, |a, b, c| {
            let (x, y) = (pick(a, 0, h), pick(b, 1, h));
            match op {
                Pk32Op::Fma => fma(F32, x, y, pick(c, 2, h), &env),
                Pk32Op::Mul => mul(F32, x, y, &env),
                _ => add(F32, x, y, &env),
            }
        });
        if inp.clamp {
            output_mods(dst, F32, 0, true, inp.mode.dx10_clamp, &env);
        }
    }
    for (l, d) in out.dst.iter_mut().enumerate() {
        *d = halves[0][l] | halves[1][l] << 32;
    }
    true
}
