//! [`ValuOp`], the compact per-instruction key of the VALU, and [`resolve`] from mnemonics.
//!
//! Compares and plain float arithmetic are parsed from their regular names; everything else is
//! listed once in [`TABLE`].

use super::bits::BitsOp;
use super::compare::{CmpOp, CmpTy, Cond};
use super::convert::CvtOp;
use super::divide::DivOp;
use super::fops::{FOp, FTy};
use super::int::IntOp;
use super::int16::I16Op;
use super::packed::PkOp;
use super::transcendental::TrOp;

/// One VALU operation, resolved once at decode time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValuOp {
    /// 32/64-bit integer arithmetic.
    Int(IntOp),
    /// 32-bit logic and bit fields.
    Bits(BitsOp),
    /// 16-bit integer arithmetic.
    Int16(I16Op),
    /// Float arithmetic in one format.
    Float(FOp, FTy),
    /// Conversions and packing.
    Cvt(CvtOp),
    /// rcp/rsq/sqrt/log/exp/sin/cos.
    Trans(TrOp, FTy),
    /// Division helpers (div_scale, div_fmas, div_fixup) and trig_preop.
    Div(DivOp, FTy),
    /// v_cmp*/v_cmpx*/v_cmp_class*.
    Cmp(CmpOp),
    /// VOP3P packed math, mad_mix/fma_mix and dot products.
    Pk(PkOp),
}

/// Float ops whose names are `v_<stem>_f16|f32|f64`.
const FLOAT_STEMS: &[(&str, FOp)] = &[
    ("add", FOp::Add),
    ("sub", FOp::Sub),
    ("subrev", FOp::SubRev),
    ("mul", FOp::Mul),
    ("mul_legacy", FOp::MulLegacy),
    ("fma", FOp::Fma),
    ("fmac", FOp::Fma),
    ("mad", FOp::Mad),
    ("mac", FOp::Mad),
    ("madmk", FOp::Mad),
    ("madak", FOp::Mad),
    ("mad_legacy", FOp::MadLegacy),
    ("min", FOp::Min),
    ("max", FOp::Max),
    ("min3", FOp::Min3),
    ("max3", FOp::Max3),
    ("med3", FOp::Med3),
    ("ldexp", FOp::Ldexp),
    ("fract", FOp::Fract),
    ("trunc", FOp::Trunc),
    ("ceil", FOp::Ceil),
    ("floor", FOp::Floor),
    ("rndne", FOp::Rndne),
    ("frexp_mant", FOp::FrexpMant),
    ("cubeid", FOp::CubeId),
    ("cubesc", FOp::CubeSc),
    ("cubetc", FOp::CubeTc),
    ("cubema", FOp::CubeMa),
];

/// Transcendental ops whose names are `v_<stem>_f16|f32|f64`.
const TRANS_STEMS: &[(&str, TrOp)] = &[
    ("rcp", TrOp::Rcp),
    ("rcp_iflag", TrOp::Rcp),
    ("rsq", TrOp::Rsq),
    ("sqrt", TrOp::Sqrt),
    ("log", TrOp::Log),
    ("exp", TrOp::Exp),
    ("log_legacy", TrOp::Log),
    ("exp_legacy", TrOp::Exp),
    ("sin", TrOp::Sin),
    ("cos", TrOp::Cos),
];

/// Division helpers whose names are `v_<stem>_f16|f32|f64`.
const DIV_STEMS: &[(&str, DivOp)] = &[
    ("div_scale", DivOp::Scale),
    ("div_fmas", DivOp::Fmas),
    ("div_fixup", DivOp::Fixup),
    ("trig_preop", DivOp::TrigPreop),
];

/// Every other VALU mnemonic.
const TABLE: &[(&str, ValuOp)] = &{
    use BitsOp as B;
    use CvtOp as C;
    use I16Op as H;
    use IntOp as I;
    use PkOp as P;
    use ValuOp::{Bits, Cvt, Float, Int, Int16, Pk};
    [
        ("v_mov_b32", Bits(B::Mov)),
        ("v_and_b32", Bits(B::And)),
        ("v_or_b32", Bits(B::Or)),
        ("v_xor_b32", Bits(B::Xor)),
        ("v_xnor_b32", Bits(B::Xnor)),
        ("v_not_b32", Bits(B::Not)),
        ("v_lshlrev_b32", Bits(B::Lshlrev)),
        ("v_lshrrev_b32", Bits(B::Lshrrev)),
        ("v_ashrrev_i32", Bits(B::Ashrrev)),
        ("v_bfrev_b32", Bits(B::Bfrev)),
        ("v_ffbh_u32", Bits(B::FfbhU32)),
        ("v_ffbl_b32", Bits(B::FfblB32)),
        ("v_ffbh_i32", Bits(B::FfbhI32)),
        ("v_bfe_u32", Bits(B::BfeU32)),
        ("v_bfe_i32", Bits(B::BfeI32)),
        ("v_bfi_b32", Bits(B::Bfi)),
        ("v_bfm_b32", Bits(B::Bfm)),
        ("v_alignbit_b32", Bits(B::Alignbit)),
        ("v_alignbyte_b32", Bits(B::Alignbyte)),
        ("v_perm_b32", Bits(B::Perm)),
        ("v_and_or_b32", Bits(B::AndOr)),
        ("v_or3_b32", Bits(B::Or3)),
        ("v_lshl_or_b32", Bits(B::LshlOr)),
        ("v_add_u32", Int(I::AddU32)),
        ("v_sub_u32", Int(I::SubU32)),
        ("v_subrev_u32", Int(I::SubrevU32)),
        ("v_add_i32", Int(I::AddI32)),
        ("v_sub_i32", Int(I::SubI32)),
        ("v_add_co_u32", Int(I::AddCo)),
        ("v_sub_co_u32", Int(I::SubCo)),
        ("v_subrev_co_u32", Int(I::SubrevCo)),
        ("v_addc_co_u32", Int(I::Addc)),
        ("v_subb_co_u32", Int(I::Subb)),
        ("v_subbrev_co_u32", Int(I::Subbrev)),
        ("v_mul_lo_u32", Int(I::MulLo)),
        ("v_mul_hi_u32", Int(I::MulHiU32)),
        ("v_mul_hi_i32", Int(I::MulHiI32)),
        ("v_mul_u32_u24", Int(I::MulU24)),
        ("v_mul_hi_u32_u24", Int(I::MulHiU24)),
        ("v_mul_i32_i24", Int(I::MulI24)),
        ("v_mul_hi_i32_i24", Int(I::MulHiI24)),
        ("v_mad_u32_u24", Int(I::MadU24)),
        ("v_mad_i32_i24", Int(I::MadI24)),
        ("v_mad_u32_u16", Int(I::MadU32U16)),
        ("v_mad_i32_i16", Int(I::MadI32I16)),
        ("v_mad_u64_u32", Int(I::MadU64U32)),
        ("v_mad_i64_i32", Int(I::MadI64I32)),
        ("v_add3_u32", Int(I::Add3)),
        ("v_xad_u32", Int(I::Xad)),
        ("v_lshl_add_u32", Int(I::LshlAdd)),
        ("v_add_lshl_u32", Int(I::AddLshl)),
        ("v_min_u32", Int(I::MinU32)),
        ("v_max_u32", Int(I::MaxU32)),
        ("v_min_i32", Int(I::MinI32)),
        ("v_max_i32", Int(I::MaxI32)),
        ("v_min3_u32", Int(I::Min3U32)),
        ("v_max3_u32", Int(I::Max3U32)),
        ("v_min3_i32", Int(I::Min3I32)),
        ("v_max3_i32", Int(I::Max3I32)),
        ("v_med3_u32", Int(I::Med3U32)),
        ("v_med3_i32", Int(I::Med3I32)),
        ("v_sad_u8", Int(I::SadU8)),
        ("v_sad_hi_u8", Int(I::SadHiU8)),
        ("v_sad_u16", Int(I::SadU16)),
        ("v_sad_u32", Int(I::SadU32)),
        ("v_msad_u8", Int(I::MsadU8)),
        ("v_lerp_u8", Int(I::LerpU8)),
        ("v_qsad_pk_u16_u8", Int(I::QsadPk)),
        ("v_mqsad_pk_u16_u8", Int(I::MqsadPk)),
        ("v_screen_partition_4se_b32", Int(I::ScreenPartition4se)),
        ("v_mbcnt_lo_u32_b32", Int(I::MbcntLo)),
        ("v_mbcnt_hi_u32_b32", Int(I::MbcntHi)),
        ("v_bcnt_u32_b32", Int(I::Bcnt)),
        ("v_cndmask_b32", Int(I::Cndmask)),
        ("v_lshlrev_b64", Int(I::LshlrevB64)),
        ("v_lshrrev_b64", Int(I::LshrrevB64)),
        ("v_ashrrev_i64", Int(I::AshrrevI64)),
        ("v_add_u16", Int16(H::AddU16)),
        ("v_sub_u16", Int16(H::SubU16)),
        ("v_subrev_u16", Int16(H::SubrevU16)),
        ("v_add_i16", Int16(H::AddI16)),
        ("v_sub_i16", Int16(H::SubI16)),
        ("v_mul_lo_u16", Int16(H::MulLoU16)),
        ("v_lshlrev_b16", Int16(H::LshlrevB16)),
        ("v_lshrrev_b16", Int16(H::LshrrevB16)),
        ("v_ashrrev_i16", Int16(H::AshrrevI16)),
        ("v_max_u16", Int16(H::MaxU16)),
        ("v_max_i16", Int16(H::MaxI16)),
        ("v_min_u16", Int16(H::MinU16)),
        ("v_min_i16", Int16(H::MinI16)),
        ("v_max3_u16", Int16(H::Max3U16)),
        ("v_max3_i16", Int16(H::Max3I16)),
        ("v_min3_u16", Int16(H::Min3U16)),
        ("v_min3_i16", Int16(H::Min3I16)),
        ("v_med3_u16", Int16(H::Med3U16)),
        ("v_med3_i16", Int16(H::Med3I16)),
        ("v_mad_u16", Int16(H::MadU16Keep)),
        ("v_mad_i16", Int16(H::MadI16Keep)),
        ("v_mad_legacy_u16", Int16(H::MadU16)),
        ("v_mad_legacy_i16", Int16(H::MadI16)),
        // gfx9's op_sel forms of the 16-bit mads keep the other half of the destination; their
        // `_legacy` (gfx8) forms zero it.
        ("v_mad_f16", Float(FOp::MadKeep16, FTy::F16)),
        ("v_mac_f16", Float(FOp::MadKeep16, FTy::F16)),
        ("v_madak_f16", Float(FOp::MadKeep16, FTy::F16)),
        ("v_madmk_f16", Float(FOp::MadKeep16, FTy::F16)),
        ("v_fma_f16", Float(FOp::FmaKeep16, FTy::F16)),
        ("v_mad_legacy_f16", Float(FOp::Mad, FTy::F16)),
        ("v_fma_legacy_f16", Float(FOp::Fma, FTy::F16)),
        ("v_div_fixup_f16", ValuOp::Div(DivOp::FixupKeep16, FTy::F16)),
        (
            "v_div_fixup_legacy_f16",
            ValuOp::Div(DivOp::Fixup, FTy::F16),
        ),
        ("v_cvt_f32_i32", Cvt(C::F32I32)),
        ("v_cvt_f32_u32", Cvt(C::F32U32)),
        ("v_cvt_i32_f32", Cvt(C::I32F32)),
        ("v_cvt_u32_f32", Cvt(C::U32F32)),
        ("v_cvt_rpi_i32_f32", Cvt(C::RpiI32F32)),
        ("v_cvt_flr_i32_f32", Cvt(C::FlrI32F32)),
        ("v_cvt_off_f32_i4", Cvt(C::OffF32I4)),
        ("v_cvt_f16_f32", Cvt(C::F16F32)),
        ("v_cvt_f32_f16", Cvt(C::F32F16)),
        ("v_cvt_f32_f64", Cvt(C::F32F64)),
        ("v_cvt_f64_f32", Cvt(C::F64F32)),
        ("v_cvt_i32_f64", Cvt(C::I32F64)),
        ("v_cvt_u32_f64", Cvt(C::U32F64)),
        ("v_cvt_f64_i32", Cvt(C::F64I32)),
        ("v_cvt_f64_u32", Cvt(C::F64U32)),
        ("v_cvt_f32_ubyte0", Cvt(C::F32Ubyte(0))),
        ("v_cvt_f32_ubyte1", Cvt(C::F32Ubyte(1))),
        ("v_cvt_f32_ubyte2", Cvt(C::F32Ubyte(2))),
        ("v_cvt_f32_ubyte3", Cvt(C::F32Ubyte(3))),
        ("v_cvt_f16_u16", Cvt(C::F16U16)),
        ("v_cvt_f16_i16", Cvt(C::F16I16)),
        ("v_cvt_u16_f16", Cvt(C::U16F16)),
        ("v_cvt_i16_f16", Cvt(C::I16F16)),
        ("v_cvt_norm_i16_f16", Cvt(C::NormI16F16)),
        ("v_cvt_norm_u16_f16", Cvt(C::NormU16F16)),
        (
            "v_frexp_exp_i32_f32",
            ValuOp::Float(FOp::FrexpExp, FTy::F32),
        ),
        (
            "v_frexp_exp_i32_f64",
            ValuOp::Float(FOp::FrexpExp, FTy::F64),
        ),
        (
            "v_frexp_exp_i16_f16",
            ValuOp::Float(FOp::FrexpExp, FTy::F16),
        ),
        ("v_cvt_pkrtz_f16_f32", Cvt(C::PkrtzF16F32)),
        ("v_cvt_pknorm_i16_f32", Cvt(C::PknormI16F32)),
        ("v_cvt_pknorm_u16_f32", Cvt(C::PknormU16F32)),
        ("v_cvt_pknorm_i16_f16", Cvt(C::PknormI16F16)),
        ("v_cvt_pknorm_u16_f16", Cvt(C::PknormU16F16)),
        ("v_pknorm_i16_f16", Cvt(C::PknormI16F16)),
        ("v_pknorm_u16_f16", Cvt(C::PknormU16F16)),
        ("v_cvt_pk_u16_u32", Cvt(C::PkU16U32)),
        ("v_cvt_pk_i16_i32", Cvt(C::PkI16I32)),
        ("v_cvt_pk_u8_f32", Cvt(C::PkU8F32)),
        // The accumulating form: the destination is the third source (see exec::vector).
        ("v_cvt_pkaccum_u8_f32", Cvt(C::PkU8F32)),
        ("v_pack_b32_f16", Cvt(C::PackB32F16)),
        ("v_sat_pk_u8_i16", Cvt(C::SatPkU8I16)),
        ("v_pk_add_f16", Pk(P::AddF16)),
        ("v_pk_mul_f16", Pk(P::MulF16)),
        ("v_pk_fma_f16", Pk(P::FmaF16)),
        ("v_pk_min_f16", Pk(P::MinF16)),
        ("v_pk_max_f16", Pk(P::MaxF16)),
        ("v_pk_add_u16", Pk(P::AddU16)),
        ("v_pk_add_i16", Pk(P::AddI16)),
        ("v_pk_sub_u16", Pk(P::SubU16)),
        ("v_pk_sub_i16", Pk(P::SubI16)),
        ("v_pk_mul_lo_u16", Pk(P::MulLoU16)),
        ("v_pk_mad_u16", Pk(P::MadU16)),
        ("v_pk_mad_i16", Pk(P::MadI16)),
        ("v_pk_min_u16", Pk(P::MinU16)),
        ("v_pk_min_i16", Pk(P::MinI16)),
        ("v_pk_max_u16", Pk(P::MaxU16)),
        ("v_pk_max_i16", Pk(P::MaxI16)),
        ("v_pk_lshlrev_b16", Pk(P::LshlrevB16)),
        ("v_pk_lshrrev_b16", Pk(P::LshrrevB16)),
        ("v_pk_ashrrev_i16", Pk(P::AshrrevI16)),
        ("v_mad_mix_f32", Pk(P::MixF32 { fused: false })),
        ("v_mad_mixlo_f16", Pk(P::MixLoF16 { fused: false })),
        ("v_mad_mixhi_f16", Pk(P::MixHiF16 { fused: false })),
        ("v_fma_mix_f32", Pk(P::MixF32 { fused: true })),
        ("v_fma_mixlo_f16", Pk(P::MixLoF16 { fused: true })),
        ("v_fma_mixhi_f16", Pk(P::MixHiF16 { fused: true })),
        ("v_dot2_f32_f16", Pk(P::Dot2F32F16)),
        ("v_dot2_i32_i16", Pk(P::Dot2I32I16)),
        ("v_dot2_u32_u16", Pk(P::Dot2U32U16)),
        ("v_dot4_i32_i8", Pk(P::Dot4I32I8)),
        ("v_dot4_u32_u8", Pk(P::Dot4U32U8)),
        ("v_dot8_i32_i4", Pk(P::Dot8I32I4)),
        ("v_dot8_u32_u4", Pk(P::Dot8U32U4)),
    ]
};

/// Splits `stem_fNN` into the stem and its float type.
fn float_suffix(name: &str) -> Option<(&str, FTy)> {
    let (stem, ty) = name.rsplit_once('_')?;
    let ty = match ty {
        "f16" => FTy::F16,
        "f32" => FTy::F32,
        "f64" => FTy::F64,
        _ => return None,
    };
    Some((stem, ty))
}

/// Parses `v_cmp[x]_<cond>_<type>` and `v_cmp[x]_class_<type>`.
fn compare(name: &str) -> Option<CmpOp> {
    let (x, rest) = if let Some(r) = name.strip_prefix("v_cmpx_") {
        (true, r)
    } else {
        (false, name.strip_prefix("v_cmp_")?)
    };
    let (cond, ty) = rest.rsplit_once('_')?;
    let ty = CmpTy::from_suffix(ty)?;
    let cond = Cond::from_name(cond, ty.is_float())?;
    Some(CmpOp { ty, cond, x })
}

/// The [`ValuOp`] of a VALU mnemonic (lower case; `_e32`/`_e64`/`_sdwa`/`_dpp` suffixes are
/// ignored). `None` for names that are not VALU arithmetic (lane moves such as
/// `v_readlane_b32`, interpolation, or unknown names).
pub fn resolve(mnemonic: &str) -> Option<ValuOp> {
    let mut name = mnemonic;
    for suffix in ["_e32", "_e64", "_sdwa", "_dpp", "_e64_dpp"] {
        if let Some(n) = name.strip_suffix(suffix) {
            name = n;
        }
    }
    if let Some(c) = compare(name) {
        return Some(ValuOp::Cmp(c));
    }
    if let Some((_, op)) = TABLE.iter().find(|(n, _)| *n == name) {
        return Some(*op);
    }
    let (stem, ty) = float_suffix(name.strip_prefix("v_")?)?;
    if let Some((_, op)) = FLOAT_STEMS.iter().find(|(n, _)| *n == stem) {
        return Some(ValuOp::Float(*op, ty));
    }
    if let Some((_, op)) = TRANS_STEMS.iter().find(|(n, _)| *n == stem) {
        return Some(ValuOp::Trans(*op, ty));
    }
    DIV_STEMS
        .iter()
        .find(|(n, _)| *n == stem)
        .map(|(_, op)| ValuOp::Div(*op, ty))
}
