//! Integer and bit ops against u128/i128 arithmetic and hand-derived bit patterns.

use super::{one, run, Rng};

fn u(x: u32) -> u64 {
    x as u64
}

#[test]
fn add_sub_with_carries_at_the_edges() {
    let a = [0u64, 1, 0xffff_ffff, 0x8000_0000, 0x7fff_ffff, 12345];
    let b = [0u64, 0xffff_ffff, 1, 0x8000_0000, 1, 54321];
    for cin in [0u64, !0] {
        let add = run("v_addc_co_u32", &[&a, &b], |i| i.mask_in = cin);
        let sub = run("v_subb_co_u32", &[&a, &b], |i| i.mask_in = cin);
        let subrev = run("v_subbrev_co_u32", &[&a, &b], |i| i.mask_in = cin);
        for l in 0..6 {
            let c = (cin & 1) as u128;
            let s = a[l] as u128 + b[l] as u128 + c;
            assert_eq!(add.dst[l], (s as u64) & 0xffff_ffff);
            assert_eq!(add.mask >> l & 1, (s >> 32) as u64 & 1, "carry {l}");
            let dft = a[l] as i128 - b[l] as i128 - c as i128;
            assert_eq!(sub.dst[l], (dft as u64) & 0xffff_ffff);
            assert_eq!(sub.mask >> l & 1, (dft < 0) as u64, "borrow {l}");
            let r = b[l] as i128 - a[l] as i128 - c as i128;
            assert_eq!(subrev.dst[l], (r as u64) & 0xffff_ffff);
            assert_eq!(subrev.mask >> l & 1, (r < 0) as u64);
        }
    }
    let co = run("v_add_co_u32", &[&a, &b], |_| {});
    assert_eq!(co.mask & 0x3f, 0b001110);
    // Clamp saturates.
    let c = run("v_add_u32_e64", &[&[0xffff_fff0], &[0x100]], |i| {
        i.clamp = true
    });
    assert_eq!(c.dst[0], 0xffff_ffff);
    let c = run("v_sub_u32_e64", &[&[5], &[6]], |i| i.clamp = true);
    assert_eq!(c.dst[0], 0);
    let c = run("v_add_i32", &[&[0x7fff_ffff], &[1]], |i| i.clamp = true);
    assert_eq!(c.dst[0], 0x7fff_ffff);
    assert_eq!(one("v_add_i32", &[0x7fff_ffff, 1]), 0x8000_0000);
    // Inactive lanes never report a carry.
    let m = run("v_add_co_u32", &[&[0xffff_ffff], &[1]], |i| i.exec = 0b101);
    assert_eq!(m.mask, 0b101);
}

#[test]
fn multiplies_match_wide_arithmetic() {
    let mut rng = Rng(3);
    for _ in 0..2000 {
        let (x, y, z) = (rng.next() as u32, (rng.next() >> 7) as u32, rng.next());
        let (xi, yi) = (x as i32 as i64, y as i32 as i64);
        assert_eq!(
            one("v_mul_lo_u32", &[u(x), u(y)]),
            (x as u64 * y as u64) & 0xffff_ffff
        );
        assert_eq!(
            one("v_mul_hi_u32", &[u(x), u(y)]),
            (x as u64 * y as u64) >> 32
        );
        assert_eq!(
            one("v_mul_hi_i32", &[u(x), u(y)]),
            ((xi * yi) >> 32) as u32 as u64
        );
        let (x24, y24) = (x & 0xff_ffff, y & 0xff_ffff);
        assert_eq!(
            one("v_mul_u32_u24", &[u(x), u(y)]),
            (x24 as u64 * y24 as u64) & 0xffff_ffff
        );
        assert_eq!(
            one("v_mul_hi_u32_u24", &[u(x), u(y)]),
            (x24 as u64 * y24 as u64) >> 32
        );
        let (s24x, s24y) = (((x << 8) as i32 >> 8) as i64, ((y << 8) as i32 >> 8) as i64);
        assert_eq!(
            one("v_mul_i32_i24", &[u(x), u(y)]),
            (s24x * s24y) as u32 as u64
        );
        assert_eq!(
            one("v_mul_hi_i32_i24", &[u(x), u(y)]),
            ((s24x * s24y) >> 32) as u32 as u64
        );
        let wide = x as u128 * y as u128 + z as u128;
        let o = run("v_mad_u64_u32", &[&[u(x)], &[u(y)], &[z]], |_| {});
        assert_eq!(o.dst[0], wide as u64);
        assert_eq!(o.mask & 1, (wide >> 64) as u64);
        let wide = xi as i128 * yi as i128 + z as i64 as i128;
        let o = run("v_mad_i64_i32", &[&[u(x)], &[u(y)], &[z]], |_| {});
        assert_eq!(o.dst[0], wide as u64);
        assert_eq!(o.mask & 1, (wide != wide as i64 as i128) as u64);
        let sum = (x24 as u64 * y24 as u64 + (z & 0xffff_ffff)) & 0xffff_ffff;
        assert_eq!(one("v_mad_u32_u24", &[u(x), u(y), z & 0xffff_ffff]), sum);
    }
}

#[test]
fn bit_field_ops() {
    assert_eq!(one("v_bfe_u32", &[0xdead_beef, 8, 12]), 0xdbe);
    assert_eq!(one("v_bfe_i32", &[0xdead_beef, 8, 12]), 0xffff_fdbe);
    assert_eq!(one("v_bfe_i32", &[0x0000_7000, 12, 3]), 0xffff_ffff);
    assert_eq!(one("v_bfe_u32", &[0xffff_ffff, 4, 0]), 0);
    assert_eq!(
        one("v_bfi_b32", &[0x00ff_00ff, 0x1234_5678, 0xabcd_ef01]),
        0xab34_ef78
    );
    assert_eq!(one("v_bfm_b32", &[5, 3]), 0b1111_1000);
    assert_eq!(
        one("v_alignbit_b32", &[0x1234_5678, 0x9abc_def0, 8]),
        0x789a_bcde
    );
    assert_eq!(
        one("v_alignbyte_b32", &[0x1234_5678, 0x9abc_def0, 3]),
        0x3456_789a
    );
    // perm: selectors 0..7 bytes of {src0, src1}, 12 = 0x00, 13+ = 0xff, 8..11 sign bytes.
    assert_eq!(
        one("v_perm_b32", &[0x0011_2233, 0x4455_6677, 0x0004_0703]),
        0x7733_0044
    );
    assert_eq!(
        one("v_perm_b32", &[0x8000_0000, 0x0000_8000, 0x0c0d_0b08]),
        0x00ff_ffff
    );
    assert_eq!(one("v_ffbh_u32", &[0x0001_0000]), 15);
    assert_eq!(one("v_ffbh_u32", &[0]), 0xffff_ffff);
    assert_eq!(one("v_ffbl_b32", &[0x0001_0000]), 16);
    assert_eq!(one("v_ffbh_i32", &[0xffff_0000]), 16);
    assert_eq!(one("v_ffbh_i32", &[0x4000_0000]), 1);
    assert_eq!(one("v_ffbh_i32", &[0xffff_ffff]), 0xffff_ffff);
    assert_eq!(one("v_bfrev_b32", &[1]), 0x8000_0000);
    assert_eq!(one("v_lshlrev_b32", &[33, 3]), 6);
    assert_eq!(one("v_ashrrev_i32", &[4, 0x8000_0000]), 0xf800_0000);
    assert_eq!(
        one("v_lshrrev_b64", &[4, 0x8000_0000_0000_0000]),
        0x0800_0000_0000_0000
    );
    assert_eq!(
        one("v_ashrrev_i64", &[68, 0x8000_0000_0000_0000]),
        0xf800_0000_0000_0000
    );
    assert_eq!(one("v_lshl_add_u32", &[3, 4, 5]), 53);
    assert_eq!(one("v_add_lshl_u32", &[3, 4, 5]), 224);
    assert_eq!(one("v_lshl_or_b32", &[3, 4, 5]), 53);
    assert_eq!(one("v_and_or_b32", &[0xf0, 0x3c, 1]), 0x31);
    assert_eq!(one("v_or3_b32", &[1, 2, 4]), 7);
    assert_eq!(one("v_xad_u32", &[0xff, 0x0f, 1]), 0xf1);
    assert_eq!(one("v_add3_u32", &[0xffff_ffff, 2, 3]), 4);
    assert_eq!(one("v_xnor_b32", &[0xf0f0_f0f0, 0xff00_ff00]), 0xf00f_f00f);
    assert_eq!(one("v_bcnt_u32_b32", &[0xff00_ff01, 1]), 18);
}

#[test]
fn mbcnt_counts_lanes_below() {
    let m: u64 = 0xf0f0_0000_ffff_0001;
    let lo = run("v_mbcnt_lo_u32_b32", &[&[m & 0xffff_ffff], &[0]], |_| {});
    let hi = run("v_mbcnt_hi_u32_b32", &[&[m >> 32], &lo.dst], |_| {});
    for l in 0..64 {
        let want = (m & ((1u128 << l) - 1) as u64).count_ones() as u64;
        assert_eq!(hi.dst[l], want, "lane {l}");
    }
}

#[test]
fn min_max_sad_and_16_bit_ops() {
    assert_eq!(one("v_min_i32", &[0xffff_ffff, 1]), 0xffff_ffff);
    assert_eq!(one("v_max_u32", &[0xffff_ffff, 1]), 0xffff_ffff);
    assert_eq!(one("v_med3_u32", &[5, 1, 3]), 3);
    assert_eq!(
        one("v_sad_u8", &[0x0102_0304, 0x0401_0302, 10]),
        10 + 2 + 1 + 3
    );
    assert_eq!(
        one("v_sad_hi_u8", &[0x0102_0304, 0x0401_0302, 10]),
        10 + (6 << 16)
    );
    assert_eq!(one("v_sad_u16", &[0x0001_0010, 0x0003_0001, 1]), 1 + 2 + 15);
    assert_eq!(one("v_sad_u32", &[3, 10, 1]), 8);
    assert_eq!(one("v_msad_u8", &[0x0102_0304, 0x0001_0300, 0]), 1);
    assert_eq!(
        one("v_lerp_u8", &[0x0102_0304, 0x0302_0100, 0x0000_0001]),
        0x0202_0202
    );
    assert_eq!(one("v_add_u16", &[0xffff, 2]), 1);
    assert_eq!(
        run("v_add_u16", &[&[0xffff], &[2]], |i| i.clamp = true).dst[0],
        0xffff
    );
    assert_eq!(one("v_sub_i16", &[0x8000, 1]), 0x7fff);
    assert_eq!(
        run("v_sub_i16", &[&[0x8000], &[1]], |i| i.clamp = true).dst[0],
        0x8000
    );
    assert_eq!(one("v_mul_lo_u16", &[0x1234, 0x0100]), 0x3400);
    assert_eq!(one("v_ashrrev_i16", &[17, 0x8000]), 0xc000);
    assert_eq!(one("v_max_i16", &[0xffff, 1]), 1);
    assert_eq!(one("v_mad_u16", &[300, 300, 7]), (90007 & 0xffff) as u64);
    assert_eq!(one("v_mad_u32_u16", &[0xffff, 0xffff, 1]), 0xfffe_0002);
    // op_sel picks high halves and places the result high.
    let o = run(
        "v_mad_u16",
        &[&[0x0003_0000], &[0x0000_0005], &[0x0001_0000]],
        |i| i.op_sel = 0b1101,
    );
    assert_eq!((o.dst[0], o.dst_half), (16, crate::valu::DstHalf::HiKeepLo));
    assert_eq!(
        run("v_cndmask_b32", &[&[1], &[2]], |i| i.mask_in = 0b10).dst[..2],
        [1, 2]
    );
}

#[test]
fn quad_sads_slide_over_src0() {
    let mut rng = Rng(17);
    for _ in 0..200 {
        let (a, b, c) = (rng.next(), rng.next() as u32 as u64, rng.next());
        let bytes = |v: u64, k: u64| (v >> (8 * k)) & 0xff;
        let mut q = 0u64;
        let mut mq = 0u64;
        for w in 0..4 {
            let (mut s, mut ms) = ((c >> (16 * w)) & 0xffff, (c >> (16 * w)) & 0xffff);
            for k in 0..4 {
                let (x, y) = (bytes(a, w + k), bytes(b, k));
                s += x.abs_diff(y);
                if y != 0 {
                    ms += x.abs_diff(y);
                }
            }
            q |= (s & 0xffff) << (16 * w);
            mq |= (ms & 0xffff) << (16 * w);
        }
        assert_eq!(one("v_qsad_pk_u16_u8", &[a, b, c]), q);
        assert_eq!(one("v_mqsad_pk_u16_u8", &[a, b, c]), mq);
    }
}
