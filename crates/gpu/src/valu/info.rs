//! [`ValuOp::info`]: operand counts, types and mask traffic per op, for the caller.

use super::divide::DivOp;
use super::fops::{FOp, FTy};
use super::int::IntOp;
use super::packed::PkOp;
use super::{OpInfo, Ty, ValuOp};

impl OpInfo {
    fn new(num_src: u8, src: [Ty; 3], dst: Ty) -> Self {
        OpInfo {
            num_src,
            src,
            dst,
            writes_vgpr: true,
            reads_mask: false,
            writes_mask: false,
            writes_exec: false,
        }
    }
    fn uniform(num_src: u8, ty: Ty) -> Self {
        Self::new(num_src, [ty; 3], ty)
    }
}

fn int_info(op: IntOp) -> OpInfo {
    use IntOp::*;
    use Ty::*;
    match op {
        AddCo | SubCo | SubrevCo => OpInfo {
            writes_mask: true,
            ..OpInfo::uniform(2, U32)
        },
        Addc | Subb | Subbrev => OpInfo {
            reads_mask: true,
            writes_mask: true,
            ..OpInfo::uniform(2, U32)
        },
        Cndmask => OpInfo {
            reads_mask: true,
            ..OpInfo::uniform(2, U32)
        },
        MadU64U32 | MadI64I32 => OpInfo {
            writes_mask: true,
            ..OpInfo::new(3, [U32, U32, U64], U64)
        },
        LshlrevB64 | LshrrevB64 | AshrrevI64 => OpInfo::new(2, [U32, U64, U64], U64),
        QsadPk | MqsadPk => OpInfo::new(3, [U64, U32, U64], U64),
        ScreenPartition4se => OpInfo::uniform(1, U32),
        MadU24 | MadI24 | MadU32U16 | MadI32I16 | Add3 | Xad | LshlAdd | AddLshl | Min3U32
        | Max3U32 | Min3I32 | Max3I32 | Med3U32 | Med3I32 | SadU8 | SadHiU8 | SadU16 | SadU32
        | MsadU8 | LerpU8 => OpInfo::uniform(3, U32),
        _ => OpInfo::uniform(2, U32),
    }
}

fn float_info(op: FOp, ty: FTy) -> OpInfo {
    let t = ty.ty();
    let int = if ty == FTy::F16 { Ty::U16 } else { Ty::U32 };
    match op {
        FOp::Ldexp => OpInfo::new(2, [t, int, t], t),
        FOp::FrexpExp => OpInfo::new(1, [t; 3], int),
        _ => OpInfo::uniform(op.num_src(), t),
    }
}

fn pk_info(op: PkOp) -> OpInfo {
    use PkOp::*;
    use Ty::*;
    match op {
        AddF16 | MulF16 | FmaF16 | MinF16 | MaxF16 => OpInfo::uniform(op.num_src(), PkF16),
        MixF32 { .. } => OpInfo::uniform(3, F32),
        MixLoF16 { .. } | MixHiF16 { .. } => OpInfo::new(3, [F32; 3], F16),
        Dot2F32F16 => OpInfo::new(3, [PkF16, PkF16, F32], F32),
        Dot2I32I16 | Dot2U32U16 | Dot4I32I8 | Dot4U32U8 | Dot8I32I4 | Dot8U32U4 => {
            OpInfo::new(3, [U32; 3], U32)
        }
        _ => OpInfo::uniform(op.num_src(), PkU16),
    }
}

impl ValuOp {
    /// What the caller must read and write for this op.
    pub fn info(self) -> OpInfo {
        match self {
            ValuOp::Int(o) => int_info(o),
            ValuOp::Bits(o) => OpInfo::uniform(o.num_src(), Ty::U32),
            ValuOp::Int16(o) => OpInfo::uniform(o.num_src(), Ty::U16),
            ValuOp::Float(o, t) => float_info(o, t),
            ValuOp::Cvt(o) => {
                let (n, s, d) = o.shape();
                OpInfo::new(n, [s, s, if n == 3 { Ty::U32 } else { s }], d)
            }
            ValuOp::Trans(_, t) => OpInfo::uniform(1, t.ty()),
            ValuOp::Div(o, t) => {
                let base = OpInfo::uniform(3, t.ty());
                match o {
                    DivOp::Scale => OpInfo {
                        writes_mask: true,
                        ..base
                    },
                    DivOp::Fmas => OpInfo {
                        reads_mask: true,
                        ..base
                    },
                    DivOp::Fixup | DivOp::FixupKeep16 => base,
                    DivOp::TrigPreop => OpInfo::new(2, [Ty::F64, Ty::U32, Ty::U32], Ty::F64),
                }
            }
            ValuOp::Cmp(c) => {
                let t = c.ty.ty();
                // The class mask is always a 32-bit operand.
                let s1 = if c.cond == super::Cond::Class {
                    Ty::U32
                } else {
                    t
                };
                OpInfo {
                    writes_vgpr: false,
                    writes_mask: true,
                    writes_exec: c.x,
                    ..OpInfo::new(2, [t, s1, t], t)
                }
            }
            ValuOp::Pk(o) => pk_info(o),
        }
    }
}
