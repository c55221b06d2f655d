//! VALU semantics of GFX9 (gfx900/gfx906): the arithmetic of every VOP1/VOP2/VOP3/VOPC/VOP3P
//! instruction, as loops over the 64 lanes of a wave.
//!
//! How gpu-core uses this module:
//! 1. At decode time, [`resolve`] maps an instruction's mnemonic (`"v_add_f32"`, the name without
//!    `_e32`/`_e64`/`_sdwa`/`_dpp`) to a compact [`ValuOp`], cached in the pre-decoded program.
//!    [`ValuOp::info`] says what the caller must fetch and write: 64-bit sources, 64-bit
//!    destination, carry/VCC input, mask output, whether a VGPR or EXEC is written.
//! 2. At run time the caller fills a reusable [`VopInputs`] (sources already broadcast, SDWA
//!    selected and DPP moved, as raw bits: 32-bit values in the low bits, 64-bit values whole),
//!    calls [`execute`], then does the masked write-back of [`VopOutputs::dst`] (honouring
//!    [`VopOutputs::dst_half`]) and of [`VopOutputs::mask`] (carry-out, compare result, div_scale
//!    VCC; for `v_cmpx_*` also to EXEC).
//!
//! Source modifiers (abs/neg, neg_hi, op_sel, op_sel_hi) and output modifiers (clamp, omod) are
//! applied here, because only the op knows the type they act on. Lanes outside EXEC are computed
//! too (cheaper than masking a vectorized loop) but their results are meaningless; mask bits of
//! inactive lanes are returned as 0.
//!
//! Behaviour decided here (where the ISA text is silent or wrong):
//! - Float results are correctly rounded in all four MODE rounding modes (f16/f32 exactly; f64
//!   add/mul exactly, f64 fma by the sign of an error estimate). Transcendentals (rcp, rsq,
//!   sqrt, log, exp, sin, cos) are computed in f64 and rounded to nearest: within the hardware's
//!   1-ulp class, f32 sqrt/rcp correctly rounded.
//! - NaN results: a NaN input propagates quieted (the first NaN operand, in operand order;
//!   `v_sub` negates its subtrahend first); an invalid operation gives the positive default NaN.
//!   min/max follow the ISA's IEEE-mode rules (sNaN → quieted sNaN; qNaN → the other operand).
//! - Denormals are flushed per MODE (inputs and outputs separately, f32 vs f16/f64);
//!   `v_mad_f32`/`v_mac_f32`/`v_mad_f16` always flush, as the hardware's mad does.
//! - omod is ignored in IEEE mode and when output denormals are on (as LLVM documents).
//! - `v_div_fmas` undoes div_scale's 2^64 (f32) / 2^128 (f64) scaling, upward when its
//!   accumulator is at least 2 and downward otherwise (the ISA text's "2^32" is wrong).

mod bits;
mod compare;
mod convert;
mod divide;
mod farith;
mod fast32;
mod float_env;
mod fmisc;
mod fops;
mod info;
mod int;
mod int16;
mod lanes;
pub mod mfma;
mod names;
mod packed;
mod packed32;
mod round;
mod screen;
mod transcendental;
mod trig_preop;

pub use bits::{perm_byte, BitsOp};
pub use compare::{CmpOp, CmpTy, Cond};
pub use convert::CvtOp;
pub use divide::DivOp;
pub use float_env::{Denorm, Mode, Round};
pub use fops::{FOp, FTy};
pub use int::IntOp;
pub use int16::I16Op;
pub use names::resolve;
pub use packed::PkOp;
pub use packed32::Pk32Op;
pub use transcendental::TrOp;

/// Number of lanes in a wave.
pub const LANES: usize = 64;

/// One source or destination operand across the wave: raw bits per lane.
pub type LaneArray = [u64; LANES];

/// Everything a VALU instruction reads. Built once per wave and reused (no allocation).
#[derive(Clone, Debug)]
pub struct VopInputs {
    /// Up to three sources (src0, src1, src2), raw bits per lane. For VOP2 `v_mac`/`v_fmac`
    /// and `v_madmk`/`v_madak`, the caller puts the operands in mad order:
    /// src0 * src1 + src2 (the accumulator or the literal in src1/src2 as the ISA says).
    pub src: [LaneArray; 3],
    /// Bit i: take |src i| (VOP3 `abs`). Ignored for integer operands.
    pub abs: u8,
    /// Bit i: negate src i (VOP3 `neg`, VOP3P `neg_lo`). Ignored for integer operands, except
    /// the 16-bit integer dot products where the ISA defines none either.
    pub neg: u8,
    /// Bit i: negate the high half of packed src i (VOP3P `neg_hi`).
    pub neg_hi: u8,
    /// Bit i (0..3): src i reads its high 16 bits; bit 3: the result goes to the high 16 bits of
    /// the destination (VOP3 16-bit ops, VOP3P low result, mad_mix).
    pub op_sel: u8,
    /// VOP3P: bit i: the high result reads the high half of src i (assembler default: all set).
    pub op_sel_hi: u8,
    /// VOP3 clamp bit: float results clamp to [0, 1], integer add/sub saturate.
    pub clamp: bool,
    /// VOP3 output modifier: 0 none, 1 ×2, 2 ×4, 3 ×0.5.
    pub omod: u8,
    /// The wave's MODE register.
    pub mode: Mode,
    /// Active lanes.
    pub exec: u64,
    /// Carry-in (`v_addc_co_u32`, `v_subb*`), VCC (`v_div_fmas_*`) or the select mask
    /// (`v_cndmask_b32`).
    pub mask_in: u64,
}

impl Default for VopInputs {
    fn default() -> Self {
        Self {
            src: [[0; LANES]; 3],
            abs: 0,
            neg: 0,
            neg_hi: 0,
            op_sel: 0,
            op_sel_hi: 0b111,
            clamp: false,
            omod: 0,
            mode: Mode::default(),
            exec: !0,
            mask_in: 0,
        }
    }
}

/// Which part of the 32-bit destination VGPR an op writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DstHalf {
    /// The whole register (or pair for 64-bit results).
    #[default]
    Full,
    /// Bits 15:0; bits 31:16 keep their old value (`v_mad_mixlo_f16`).
    LoKeepHi,
    /// Bits 31:16 (the low 16 bits of `dst` moved up); bits 15:0 keep their old value.
    HiKeepLo,
}

/// Everything a VALU instruction produces.
#[derive(Clone, Debug)]
pub struct VopOutputs {
    /// Destination per lane (32-bit results in the low bits, upper bits zero).
    pub dst: LaneArray,
    /// Carry-out / compare result / div_scale VCC, one bit per lane (0 for inactive lanes).
    pub mask: u64,
    /// Which part of the destination register to write.
    pub dst_half: DstHalf,
}

impl Default for VopOutputs {
    fn default() -> Self {
        Self {
            dst: [0; LANES],
            mask: 0,
            dst_half: DstHalf::Full,
        }
    }
}

/// The op exists in GFX9 but this module does not implement it (a fault of the dispatch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unsupported(pub ValuOp);

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "VALU operation {:?} is not implemented", self.0)
    }
}

impl std::error::Error for Unsupported {}

/// Element type an operand or result has (what abs/neg/clamp act on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// 16-bit integer (or bits).
    U16,
    /// 32-bit integer (or bits).
    U32,
    /// 64-bit integer (or bits).
    U64,
    /// IEEE half.
    F16,
    /// IEEE single.
    F32,
    /// IEEE double.
    F64,
    /// Two packed halves (VOP3P f16).
    PkF16,
    /// Two packed 16-bit integers.
    PkU16,
    /// Two packed f32 (a register pair; gfx90a's packed FP32).
    PkF32,
}

impl Ty {
    /// True for 64-bit types (the operand is a VGPR/SGPR pair).
    pub fn is_64(self) -> bool {
        matches!(self, Ty::U64 | Ty::F64 | Ty::PkF32)
    }
}

/// What the caller needs to know about an op (see [`ValuOp::info`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpInfo {
    /// Number of sources read (0..=3).
    pub num_src: u8,
    /// Type of each source (only the first `num_src` matter).
    pub src: [Ty; 3],
    /// Type of the destination.
    pub dst: Ty,
    /// Writes a VGPR destination (false for `v_cmp*`).
    pub writes_vgpr: bool,
    /// Reads [`VopInputs::mask_in`] (carry-in, VCC, cndmask selector).
    pub reads_mask: bool,
    /// Produces [`VopOutputs::mask`] (to VCC for VOP2/VOPC, to SDST for VOP3b/VOP3 compares).
    pub writes_mask: bool,
    /// `v_cmpx_*`: the mask is also written to EXEC.
    pub writes_exec: bool,
}

pub use names::ValuOp;

/// Runs `op` over all lanes of `inp`, writing `out`.
pub fn execute(op: ValuOp, inp: &VopInputs, out: &mut VopOutputs) -> Result<(), Unsupported> {
    out.dst_half = DstHalf::Full;
    out.mask = 0;
    let done = match op {
        ValuOp::Int(o) => int::exec(o, inp, out),
        ValuOp::Bits(o) => bits::exec(o, inp, out),
        ValuOp::Int16(o) => int16::exec(o, inp, out),
        ValuOp::Float(o, t) => fops::exec(o, t, inp, out),
        ValuOp::Cvt(o) => convert::exec(o, inp, out),
        ValuOp::Trans(o, t) => transcendental::exec(o, t, inp, out),
        ValuOp::Div(o, t) => divide::exec(o, t, inp, out),
        ValuOp::Cmp(o) => compare::exec(o, inp, out),
        ValuOp::Pk(o) => packed::exec(o, inp, out),
        ValuOp::Pk32(o) => packed32::exec(o, inp, out),
    };
    if done {
        out.mask &= inp.exec;
        Ok(())
    } else {
        Err(Unsupported(op))
    }
}

/// The [`ValuOp`] of a decoded instruction's op (`None` for non-VALU ops and lane moves).
pub fn resolve_op(op: softhsa_isa::Op) -> Option<ValuOp> {
    resolve(op.name())
}

/// [`execute`] keyed by the isa crate's op (resolves on every call; prefer caching
/// [`resolve_op`]'s result in the pre-decoded program).
pub fn execute_op(
    op: softhsa_isa::Op,
    inp: &VopInputs,
    out: &mut VopOutputs,
) -> Result<(), UnknownOp> {
    let v = resolve_op(op).ok_or(UnknownOp(op))?;
    execute(v, inp, out).map_err(|_| UnknownOp(op))
}

/// The op is not a VALU arithmetic op, or its semantics are not implemented here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownOp(pub softhsa_isa::Op);

impl std::fmt::Display for UnknownOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no VALU semantics for {}", self.0.name())
    }
}

impl std::error::Error for UnknownOp {}

#[cfg(test)]
mod tests;
