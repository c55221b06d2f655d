//! The float arithmetic family (`v_add_f32`, `v_fma_f64`, `v_min3_f16`, ...): one op enum over
//! the three formats, dispatched once per instruction to a lane loop.

use super::farith::{add, fma, mad, mad_legacy, mul, mul_legacy};
use super::fast32;
use super::float_env::{fmt_of, output_mods, Env, Fmt, Round, SrcMods, F16, F32, F64};
use super::fmisc::{cube, fract, frexp_exp, frexp_mant, max, med3, min, round_int, Cube, IntRound};
use super::lanes::{map1, map2, map3};
use super::round::ldexp_bits;
use super::{DstHalf, LaneArray, VopInputs, VopOutputs};

/// Float format of an op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FTy {
    /// IEEE half.
    F16,
    /// IEEE single.
    F32,
    /// IEEE double.
    F64,
}

impl FTy {
    /// The bit layout.
    pub fn fmt(self) -> Fmt {
        match self {
            FTy::F16 => F16,
            FTy::F32 => F32,
            FTy::F64 => F64,
        }
    }

    /// The operand type for [`super::OpInfo`].
    pub fn ty(self) -> super::Ty {
        match self {
            FTy::F16 => super::Ty::F16,
            FTy::F32 => super::Ty::F32,
            FTy::F64 => super::Ty::F64,
        }
    }
}

/// Float arithmetic ops. `v_mac_*`/`v_madmk_*`/`v_madak_*` are [`FOp::Mad`] and `v_fmac_*`
/// is [`FOp::Fma`], with the caller placing operands as src0 * src1 + src2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FOp {
    Add,
    Sub,
    SubRev,
    Mul,
    MulLegacy,
    Fma,
    Mad,
    MadLegacy,
    /// gfx9 `v_fma_f16` (op_sel form): like `Fma`, but keeps the other 16 bits of the dst.
    FmaKeep16,
    /// gfx9 `v_mad_f16`/`v_mac_f16`/`v_madak_f16`/`v_madmk_f16`: `Mad`, other 16 bits kept.
    MadKeep16,
    Min,
    Max,
    Min3,
    Max3,
    Med3,
    /// src1 is a signed integer exponent (i32; i16 for f16).
    Ldexp,
    Fract,
    Trunc,
    Ceil,
    Floor,
    Rndne,
    FrexpMant,
    /// Integer result (i32; i16 for f16): no output modifiers.
    FrexpExp,
    CubeId,
    CubeSc,
    CubeTc,
    CubeMa,
}

impl FOp {
    /// Number of sources.
    pub fn num_src(self) -> u8 {
        use FOp::*;
        match self {
            Fract | Trunc | Ceil | Floor | Rndne | FrexpMant | FrexpExp => 1,
            Fma | Mad | MadLegacy | FmaKeep16 | MadKeep16 | Min3 | Max3 | Med3 => 3,
            CubeId | CubeSc | CubeTc | CubeMa => 3,
            _ => 2,
        }
    }
}

/// Runs a float op in format `ty`.
pub fn exec(op: FOp, ty: FTy, inp: &VopInputs, out: &mut VopOutputs) -> bool {
    match ty {
        FTy::F16 => run::<16>(op, inp, out),
        FTy::F32 => run::<32>(op, inp, out),
        FTy::F64 => run::<64>(op, inp, out),
    }
    true
}

/// Source reader: op_sel half selection (f16 only), then abs/neg.
#[derive(Clone, Copy)]
pub struct Reader {
    shift: [u32; 3],
    all: u64,
    mods: SrcMods,
}

impl Reader {
    /// Reader for three sources of format `fmt`.
    #[inline(always)]
    pub fn new(fmt: Fmt, inp: &VopInputs) -> Self {
        let mut shift = [0; 3];
        if fmt.width == 16 {
            for (i, s) in shift.iter_mut().enumerate() {
                *s = if inp.op_sel >> i & 1 != 0 { 16 } else { 0 };
            }
        }
        Reader {
            shift,
            all: fmt.all(),
            mods: SrcMods::new(inp.abs, inp.neg, [fmt; 3]),
        }
    }

    /// Source `i` of one lane.
    #[inline(always)]
    pub fn get(&self, i: usize, x: u64) -> u64 {
        self.mods.get(i, (x >> self.shift[i]) & self.all)
    }
}

/// The lane loops of one format (`W` bits; generic so closures see a constant format).
fn run<const W: u32>(op: FOp, inp: &VopInputs, out: &mut VopOutputs) {
    let fmt = fmt_of::<W>();
    let env: Env = inp.mode.env(fmt);
    if W == 32
        && env.round == Round::NearestEven
        && fast32::run(
            op,
            inp,
            &mut out.dst,
            !env.denorm.keep_in,
            !env.denorm.keep_out,
        )
    {
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
        return;
    }
    let r = Reader::new(fmt, inp);
    let s = &inp.src;
    let d: &mut LaneArray = &mut out.dst;
    let e = &env;
    match op {
        FOp::Add => map2(d, &s[0], &s[1], |x, y| {
            add(fmt, r.get(0, x), r.get(1, y), e)
        }),
        FOp::Sub => map2(d, &s[0], &s[1], |x, y| {
            add(fmt, r.get(0, x), r.get(1, y) ^ fmt.sign(), e)
        }),
        FOp::SubRev => map2(d, &s[0], &s[1], |x, y| {
            add(fmt, r.get(1, y), r.get(0, x) ^ fmt.sign(), e)
        }),
        FOp::Mul => map2(d, &s[0], &s[1], |x, y| {
            mul(fmt, r.get(0, x), r.get(1, y), e)
        }),
        FOp::MulLegacy => map2(d, &s[0], &s[1], |x, y| {
            mul_legacy(fmt, r.get(0, x), r.get(1, y), e)
        }),
        FOp::Fma | FOp::FmaKeep16 => map3(d, s, |x, y, z| {
            fma(fmt, r.get(0, x), r.get(1, y), r.get(2, z), e)
        }),
        FOp::Mad | FOp::MadKeep16 => map3(d, s, |x, y, z| {
            mad(fmt, r.get(0, x), r.get(1, y), r.get(2, z), e)
        }),
        FOp::MadLegacy => map3(d, s, |x, y, z| {
            mad_legacy(fmt, r.get(0, x), r.get(1, y), r.get(2, z), e)
        }),
        FOp::Min => map2(d, &s[0], &s[1], |x, y| {
            min(fmt, r.get(0, x), r.get(1, y), e)
        }),
        FOp::Max => map2(d, &s[0], &s[1], |x, y| {
            max(fmt, r.get(0, x), r.get(1, y), e)
        }),
        FOp::Min3 => map3(d, s, |x, y, z| {
            min(fmt, min(fmt, r.get(0, x), r.get(1, y), e), r.get(2, z), e)
        }),
        FOp::Max3 => map3(d, s, |x, y, z| {
            max(fmt, max(fmt, r.get(0, x), r.get(1, y), e), r.get(2, z), e)
        }),
        FOp::Med3 => map3(d, s, |x, y, z| {
            med3(fmt, r.get(0, x), r.get(1, y), r.get(2, z), e)
        }),
        FOp::Ldexp => map2(d, &s[0], &s[1], |x, y| {
            // The exponent is an integer operand: no float modifiers, i16 for f16.
            let k = if fmt.width == 16 {
                y as u16 as i16 as i64
            } else {
                y as u32 as i32 as i64
            };
            ldexp_bits(fmt, r.get(0, x), k.clamp(-10000, 10000) as i32, e)
        }),
        FOp::Fract => map1(d, &s[0], |x| fract(fmt, r.get(0, x), e)),
        FOp::Trunc => map1(d, &s[0], |x| {
            round_int(fmt, r.get(0, x), IntRound::Trunc, e)
        }),
        FOp::Ceil => map1(d, &s[0], |x| round_int(fmt, r.get(0, x), IntRound::Ceil, e)),
        FOp::Floor => map1(d, &s[0], |x| {
            round_int(fmt, r.get(0, x), IntRound::Floor, e)
        }),
        FOp::Rndne => map1(d, &s[0], |x| {
            round_int(fmt, r.get(0, x), IntRound::Rndne, e)
        }),
        FOp::CubeId | FOp::CubeSc | FOp::CubeTc | FOp::CubeMa => {
            let which = match op {
                FOp::CubeId => Cube::Id,
                FOp::CubeSc => Cube::Sc,
                FOp::CubeTc => Cube::Tc,
                _ => Cube::Ma,
            };
            map3(d, s, |x, y, z| {
                cube(fmt, which, r.get(0, x), r.get(1, y), r.get(2, z), e)
            })
        }
        FOp::FrexpMant => map1(d, &s[0], |x| frexp_mant(fmt, r.get(0, x), e)),
        FOp::FrexpExp => {
            let m = if fmt.width == 16 { 0xffff } else { 0xffff_ffff };
            map1(d, &s[0], |x| frexp_exp(fmt, r.get(0, x), e) as u64 & m);
            return;
        }
    }
    if inp.clamp || inp.omod != 0 {
        output_mods(d, fmt, inp.omod, inp.clamp, inp.mode.dx10_clamp, e);
    }
    out.dst_half = half16(fmt, inp, matches!(op, FOp::FmaKeep16 | FOp::MadKeep16));
}

/// Which half a 16-bit result writes: op_sel bit 3 selects the high half; the gfx9 forms that
/// have op_sel keep the other half, the rest (VOP1/VOP2 ops, `*_legacy` VOP3 forms) zero it.
pub fn half16(fmt: Fmt, inp: &VopInputs, keeps: bool) -> DstHalf {
    match (fmt.width == 16, inp.op_sel & 8 != 0, keeps) {
        (true, true, _) => DstHalf::HiKeepLo,
        (true, false, true) => DstHalf::LoKeepHi,
        _ => DstHalf::Full,
    }
}
