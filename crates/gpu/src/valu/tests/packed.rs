//! VOP3P: operand selection, packed f16/i16 math, mix ops and dot products.

use super::{f, one, run, Rng};
use crate::valu::DstHalf;

#[test]
fn packed_f16_add_with_op_sel_and_neg() {
    // src0 = {hi 2.0, lo 1.0}, src1 = {hi 4.0, lo 0.5}.
    let (a, b) = (0x4000_3c00u64, 0x4400_3800u64);
    assert_eq!(
        run("v_pk_add_f16", &[&[a], &[b]], |_| {}).dst[0],
        0x4600_3e00
    );
    // op_sel swaps which half feeds the low result; op_sel_hi = 0 feeds the high from low halves.
    let o = run("v_pk_add_f16", &[&[a], &[b]], |i| {
        i.op_sel = 0b01;
        i.op_sel_hi = 0b00;
    });
    assert_eq!(o.dst[0], 0x3e00_4100);
    // neg_lo on src1 and neg_hi on src0: lo = 1 - 0.5, hi = -2 + 4.
    let o = run("v_pk_add_f16", &[&[a], &[b]], |i| {
        i.neg = 0b10;
        i.neg_hi = 0b01;
    });
    assert_eq!(o.dst[0], 0x4000_3800);
    assert_eq!(one("v_pk_mul_f16", &[a, b]), 0x4800_3800);
    assert_eq!(one("v_pk_fma_f16", &[a, b, a]), 0x4900_3e00);
    assert_eq!(one("v_pk_max_f16", &[a, b]), 0x4400_3c00);
    assert_eq!(one("v_pk_min_f16", &[a, b]), 0x4000_3800);
    let o = run("v_pk_add_f16", &[&[0x3c00_3c00], &[0x3c00_bc00]], |i| {
        i.clamp = true
    });
    assert_eq!(o.dst[0], 0x3c00_0000);
}

#[test]
fn packed_integer_ops() {
    assert_eq!(
        one("v_pk_add_u16", &[0xffff_0001, 0x0002_0002]),
        0x0001_0003
    );
    assert_eq!(
        run("v_pk_add_u16", &[&[0xffff_0001], &[0x0002_0002]], |i| i
            .clamp =
            true)
        .dst[0],
        0xffff_0003
    );
    assert_eq!(
        one("v_pk_sub_i16", &[0x8000_0005, 0x0001_0007]),
        0x7fff_fffe
    );
    assert_eq!(
        one("v_pk_mul_lo_u16", &[0x0100_0003, 0x0100_0005]),
        0x0000_000f
    );
    assert_eq!(
        one("v_pk_mad_i16", &[0xffff_0002, 0x0003_0003, 0x0001_0001]),
        0xfffe_0007
    );
    assert_eq!(
        one("v_pk_max_i16", &[0xffff_0001, 0x0001_ffff]),
        0x0001_0001
    );
    assert_eq!(
        one("v_pk_min_u16", &[0xffff_0001, 0x0001_ffff]),
        0x0001_0001
    );
    assert_eq!(
        one("v_pk_lshlrev_b16", &[0x0001_0004, 0x0003_0001]),
        0x0006_0010
    );
    assert_eq!(
        one("v_pk_ashrrev_i16", &[0x0001_0004, 0x8000_8000]),
        0xc000_f800
    );
    assert_eq!(
        one("v_pk_lshrrev_b16", &[0x0011_0004, 0x8000_8000]),
        0x4000_0800
    );
}

#[test]
fn mix_ops_select_f16_or_f32_sources() {
    // src0 f16 (high half 2.0), src1 f32 3.0, src2 f16 low half 1.0: 2 * 3 + 1.
    let o = run(
        "v_fma_mix_f32",
        &[&[0x4000_0000], &[f(3.0)], &[0x0000_3c00]],
        |i| {
            i.op_sel = 0b001;
            i.op_sel_hi = 0b101;
        },
    );
    assert_eq!(o.dst[0], f(7.0));
    let o = run(
        "v_fma_mixlo_f16",
        &[&[f(1.5)], &[f(2.0)], &[f(0.25)]],
        |i| i.op_sel_hi = 0,
    );
    assert_eq!((o.dst[0], o.dst_half), (0x4280, DstHalf::LoKeepHi));
    let o = run(
        "v_mad_mixhi_f16",
        &[&[f(1.5)], &[f(2.0)], &[f(0.25)]],
        |i| {
            i.op_sel_hi = 0;
            i.neg = 0b100;
        },
    );
    assert_eq!((o.dst[0], o.dst_half), (0x4180, DstHalf::HiKeepLo));
    // neg_hi acts as abs for mix sources.
    let o = run("v_fma_mix_f32", &[&[f(-2.0)], &[f(3.0)], &[0]], |i| {
        i.op_sel_hi = 0;
        i.neg_hi = 0b001;
    });
    assert_eq!(o.dst[0], f(6.0));
}

#[test]
fn dot_products_match_sums() {
    let mut rng = Rng(8);
    for _ in 0..500 {
        let (a, b, c) = (rng.next() as u32, rng.next() as u32, rng.next() as u32);
        let (a6, b6, c6) = (a as u64, b as u64, c as u64);
        let lanes = |bits: u32, signed: bool, x: u32| -> Vec<i64> {
            (0..32 / bits)
                .map(|k| {
                    let v = (x >> (k * bits)) as u64 & ((1 << bits) - 1);
                    if signed {
                        ((v << (64 - bits)) as i64) >> (64 - bits)
                    } else {
                        v as i64
                    }
                })
                .collect()
        };
        for (name, bits, signed) in [
            ("v_dot2_i32_i16", 16, true),
            ("v_dot2_u32_u16", 16, false),
            ("v_dot4_i32_i8", 8, true),
            ("v_dot4_u32_u8", 8, false),
            ("v_dot8_i32_i4", 4, true),
            ("v_dot8_u32_u4", 4, false),
        ] {
            let (x, y) = (lanes(bits, signed, a), lanes(bits, signed, b));
            let acc = if signed { c as i32 as i64 } else { c as i64 };
            let sum: i64 = acc + x.iter().zip(&y).map(|(p, q)| p * q).sum::<i64>();
            assert_eq!(one(name, &[a6, b6, c6]), sum as u64 & 0xffff_ffff, "{name}");
            let sat = if signed {
                sum.clamp(i32::MIN as i64, i32::MAX as i64)
            } else {
                sum.clamp(0, u32::MAX as i64)
            };
            let o = run(name, &[&[a6], &[b6], &[c6]], |i| i.clamp = true);
            assert_eq!(o.dst[0], sat as u64 & 0xffff_ffff, "{name} clamp");
        }
    }
    // f16 dot: 1*2 + 3*0.5 + 10 = 13.5.
    assert_eq!(
        one("v_dot2_f32_f16", &[0x4200_3c00, 0x3800_4000, f(10.0)]),
        f(13.5)
    );
}

#[test]
fn vop3_op_sel_on_16_bit_float_ops() {
    // src0 high half 2.0, src1 low half 3.0: 2 + 3 = 5 into the high half of the destination.
    let o = run("v_add_f16_e64", &[&[0x4000_0000], &[0x0000_4200]], |i| {
        i.op_sel = 0b1001
    });
    assert_eq!((o.dst[0], o.dst_half), (0x4500, DstHalf::HiKeepLo));
    // Without op_sel the low halves are used and the result is zero-extended.
    let o = run("v_add_f16_e64", &[&[0x4000_3c00], &[0x0000_4200]], |_| {});
    assert_eq!((o.dst[0], o.dst_half), (0x4400, DstHalf::Full));
    let o = run(
        "v_fma_f16",
        &[&[0x3c00_0000], &[0x4000], &[0x4400_0000]],
        |i| i.op_sel = 0b1101,
    );
    assert_eq!((o.dst[0], o.dst_half), (0x4600, DstHalf::HiKeepLo));
}

#[test]
fn gfx9_16_bit_mads_keep_the_other_half() {
    // The op_sel-capable gfx9 forms write only their half; the legacy and VOP1/VOP2 forms
    // zero the high half (LLVM's zeroesHigh16BitsOfDest for GFX9).
    let src: [&[u64]; 3] = [&[0x3c00], &[0x4000], &[0x3c00]];
    for (name, half) in [
        ("v_mad_f16", DstHalf::LoKeepHi),
        ("v_mac_f16", DstHalf::LoKeepHi),
        ("v_fma_f16", DstHalf::LoKeepHi),
        ("v_div_fixup_f16", DstHalf::LoKeepHi),
        ("v_mad_u16", DstHalf::LoKeepHi),
        ("v_mad_i16", DstHalf::LoKeepHi),
        ("v_mad_legacy_f16", DstHalf::Full),
        ("v_fma_legacy_f16", DstHalf::Full),
        ("v_div_fixup_legacy_f16", DstHalf::Full),
        ("v_mad_legacy_u16", DstHalf::Full),
        ("v_add_f16", DstHalf::Full),
    ] {
        assert_eq!(run(name, &src, |_| {}).dst_half, half, "{name}");
    }
    assert_eq!(one("v_mad_f16", &[0x3c00, 0x4000, 0x3c00]), 0x4200);
    assert_eq!(one("v_mad_legacy_f16", &[0x3c00, 0x4000, 0x3c00]), 0x4200);
    assert_eq!(one("v_fma_legacy_f16", &[0x3c00, 0x4000, 0x3c00]), 0x4200);
}
