//! Operand model against independent host computations.

use softhsa_isa::{decode, Op, Operand};

#[test]
fn inline_integers() {
    for code in 128u16..=208 {
        let want = if code <= 192 {
            code as i64 - 128
        } else {
            192 - code as i64
        };
        let o = Operand(code);
        assert_eq!(o.inline_int(), Some(want as i32));
        assert_eq!(o.inline_bits(32), Some(want as u64 & 0xFFFF_FFFF));
        assert_eq!(o.inline_bits(64), Some(want as u64));
        assert_eq!(o.inline_bits(16), Some(want as u64 & 0xFFFF));
    }
}

#[test]
fn inline_floats_match_host_values() {
    let vals = [0.5f64, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0];
    for (k, v) in vals.iter().enumerate() {
        let o = Operand(240 + k as u16);
        assert_eq!(o.inline_bits(32), Some((*v as f32).to_bits() as u64));
        assert_eq!(o.inline_bits(64), Some(v.to_bits()));
    }
    // 1/(2*pi): the hardware constants are the value rounded to each width.
    let inv = 1.0 / (2.0 * std::f64::consts::PI);
    let o = Operand(248);
    assert_eq!(o.inline_bits(32), Some((inv as f32).to_bits() as u64));
    // f64: AMD's constant is 0x3FC45F306DC9C882, one ulp below the correctly rounded value.
    let d = o.inline_bits(64).expect("f64 const");
    assert!(d.abs_diff(inv.to_bits()) <= 1, "{d:#x}");
    // f16: 0x3118 = 0.1592 (nearest half to 1/(2*pi)).
    let h = o.inline_bits(16).expect("f16 const") as u16;
    let mant = (h & 0x3FF) as f64 / 1024.0 + 1.0;
    let exp = ((h >> 10) & 0x1F) as i32 - 15;
    assert!((mant * 2f64.powi(exp) - inv).abs() < 1e-4);
}

#[test]
fn registers() {
    assert_eq!(Operand::vgpr(7).vgpr_index(), Some(7));
    assert!(Operand(101).is_sgpr() && !Operand(102).is_sgpr());
    assert!(Operand(108).is_ttmp() && Operand(123).is_ttmp() && !Operand(124).is_ttmp());
    assert_eq!(Operand(126).sgpr_index(), Some(126));
    assert!(Operand::NONE.is_none());
}

#[test]
fn same_op_whatever_the_encoding() {
    // v_add_f32 v0, v1, v2 as VOP2, VOP3 (e64), SDWA and DPP.
    let forms: [&[u32]; 4] = [
        &[0x0200_0501],
        &[0xD101_0000, 0x0002_0501],
        &[0x0200_04F9, 0x0606_0601],
        &[0x0200_04FA, 0xFF00_E401],
    ];
    for words in forms {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let i = decode(&bytes).expect("decodes");
        assert_eq!(i.op, Op::V_ADD_F32);
        assert_eq!(i.src[0].vgpr_index(), Some(1));
        assert_eq!(i.src[1].vgpr_index(), Some(2));
    }
}

#[test]
fn op_facts() {
    assert_eq!(Op::V_ADD_F64.src_dwords(0), 2);
    assert_eq!(Op::GLOBAL_LOAD_DWORDX4.mem_dwords(), 4);
    assert_eq!(Op::DS_WRITE_B64.mem_dwords(), 2);
    assert_eq!(Op::DS_READ2_B32.mem_dwords(), 1);
    assert_eq!(Op::DS_READ_B128.mem_dwords(), 4);
    assert!(Op::V_CMPX_EQ_F32.writes_exec() && !Op::V_CMP_EQ_F32.writes_exec());
    assert!(!Op::V_DOT2_F32_F16.on_gfx900() && Op::V_ADD_F32.on_gfx900());
    assert_eq!(Op::S_LOAD_DWORDX2.dst_dwords(), 2);
    assert_eq!(Op::S_WAITCNT.name(), "s_waitcnt");
}

#[test]
fn inst_is_small() {
    assert!(std::mem::size_of::<softhsa_isa::Inst>() <= 48);
}
