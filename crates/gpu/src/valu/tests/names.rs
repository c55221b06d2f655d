//! Every VALU op of the isa crate's table (generated from LLVM's disassembler) resolves, and the
//! operand widths and EXEC writes this module reports agree with that table.

use crate::valu::{resolve, resolve_op};
use softhsa_isa::{Class, Op};

/// VALU-class ops that are not arithmetic (gpu-core moves lanes itself) or that this module
/// does not hold.
const NOT_HERE: &[&str] = &[
    "v_nop",
    "v_clrexcp",
    "v_readlane_b32",
    "v_readfirstlane_b32",
    "v_writelane_b32",
    "v_swap_b32",
    "v_movrels_b32",
    "v_movreld_b32",
    "v_movrelsd_b32",
    // 128-bit operands: exec::wide_sad.
    "v_mqsad_u32_u8",
];

fn valu_ops() -> impl Iterator<Item = Op> {
    Op::all().iter().copied().filter(|op| {
        matches!(
            op.class(),
            Class::Vop1 | Class::Vop2 | Class::Vop3 | Class::Vopc | Class::Vop3p
        ) && !op.name().starts_with("v_interp")
    })
}

#[test]
fn every_valu_op_resolves() {
    assert!(
        valu_ops().count() > 400,
        "the isa table lists the GFX9 VALU"
    );
    let missing: Vec<&str> = valu_ops()
        .filter(|op| resolve_op(*op).is_none() && !NOT_HERE.contains(&op.name()))
        .map(|op| op.name())
        .collect();
    assert!(missing.is_empty(), "no semantics for {missing:?}");
    for n in NOT_HERE {
        assert!(
            resolve(n).is_none(),
            "{n} is listed as not here but resolves"
        );
    }
}

#[test]
fn operand_widths_agree_with_the_isa_table() {
    for op in valu_ops() {
        let Some(v) = resolve_op(op) else { continue };
        let info = v.info();
        for i in 0..usize::from(info.num_src).min(op.num_srcs()) {
            assert_eq!(
                info.src[i].is_64(),
                op.src_dwords(i) == 2,
                "{}: src{i} width",
                op.name()
            );
        }
        if info.writes_vgpr {
            assert_eq!(
                info.dst.is_64(),
                op.dst_dwords() == 2,
                "{}: dst width",
                op.name()
            );
        }
        assert_eq!(info.writes_exec, op.writes_exec(), "{}: EXEC", op.name());
        assert_eq!(
            !info.writes_vgpr,
            op.class() == Class::Vopc,
            "{}: VGPR dst",
            op.name()
        );
    }
}
