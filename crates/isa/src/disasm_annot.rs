//! LLVM 19's marks on operands their register class does not admit (the gfx940 reference is
//! llvm-objdump-19): `23/*Invalid immediate*/`, `exec/*Invalid register, operand has 'SReg_128'
//! register class*/`. LLVM 15 prints such operands bare (or as `/*invalid immediate*/`).

use crate::op::{Class, OpFlags};
use crate::{Encoding, Gfx, Inst, Op, Operand};
use std::fmt::{self, Write};

/// The register class LLVM 19 names for operand `o` in `slot` (0..3 sources) of `i` when the
/// operand does not belong to it.
fn invalid_class(i: &Inst, slot: usize, o: Operand) -> Option<String> {
    let op = i.op;
    let code = o.raw();
    let scalar_reg = code < 128;
    let n = u32::from(op.src_dwords(slot).max(1));
    let special64 = matches!(code, 102..=107 | 126 | 127);
    if op.flags().has(OpFlags::MAI) {
        let sparse = op.name().starts_with("v_smfmac");
        return match slot {
            0 | 1 if scalar_reg => Some(format!("AV_{}", 32 * n)),
            2 if sparse && scalar_reg => Some("VGPR_32".into()),
            2 if !sparse && scalar_reg => {
                let file = if i.dst.is_agpr() { "AReg" } else { "VReg" };
                Some(format!("{file}_{}", 32 * n))
            }
            _ => None,
        };
    }
    let class = match (op, slot) {
        _ if matches!(i.enc, Encoding::Sop1 | Encoding::Sop2 | Encoding::Sopc)
            && code == Operand::LDS_DIRECT =>
        {
            format!("SReg_{}", 32 * n)
        }
        (Op::V_READLANE_B32, 1) | (Op::V_WRITELANE_B32, 0 | 1) if o.is_vector() => "SReg_32".into(),
        (Op::V_CNDMASK_B32 | Op::V_ADDC_CO_U32 | Op::V_SUBB_CO_U32 | Op::V_SUBBREV_CO_U32, 2)
            if i.enc == Encoding::Vop3 && (o.is_vector() || code == Operand::EXEC_LO) =>
        {
            "SReg_1_XEXEC".into()
        }
        (Op::V_SWAP_B32, 0) if scalar_reg => "VGPR_32".into(),
        (Op::V_MQSAD_U32_U8, 2) if scalar_reg => "VReg_128".into(),
        // 128-bit scalar operands (buffer resources) decoded as a 64-bit special register.
        _ if special64 && matches!(op.class(), Class::Mubuf | Class::Mtbuf) && slot == 2 => {
            "SReg_128".into()
        }
        _ if special64 && op.class() == Class::Smem && slot == 0 && op.src_dwords(0) == 4 => {
            "SReg_128".into()
        }
        _ => return None,
    };
    Some(class)
}

/// After operand `o` of `slot` was printed: LLVM 19's register-class mark, if any (gfx940).
pub(crate) fn mark(w: &mut impl Write, i: &Inst, slot: usize, o: Operand) -> fmt::Result {
    if i.gfx != Gfx::Gfx940 {
        return Ok(());
    }
    match invalid_class(i, slot, o) {
        Some(c) => write!(w, "/*Invalid register, operand has '{c}' register class*/"),
        None => Ok(()),
    }
}
