//! Regression tests for GPU bugs found by the kernel corpus (tests/corpus): each runs the
//! minimal instruction sequence that went wrong and compares with a host-computed value.

mod common;
use common::*;

/// Runs a one-wave kernel (kernarg: out pointer, in pointer) with v2 = in[lane]; the body
/// leaves its result in v1, which is stored to out[lane].
fn one_wave(body: &str, input: &[u32]) -> Vec<u32> {
    let asm = format!(
        "s_load_dwordx4 s[20:23], s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\n\
         v_lshlrev_b32 v9, 2, v0\nglobal_load_dword v2, v9, s[22:23]\ns_waitcnt vmcnt(0)\n\
         {body}\ns_mov_b64 exec, -1\ns_waitcnt vmcnt(0) lgkmcnt(0)\n\
         global_store_dword v9, v1, s[20:21]\ns_endpgm\n"
    );
    let k = kernel(&asm, descriptor());
    let mut out = vec![0u32; 64];
    let map = Map::default();
    let mut input = input.to_vec();
    let args = [map.add(&mut out), map.add(&mut input)];
    run(&device(), &k, &map, &args, [64, 1, 1], [64, 1, 1]).unwrap_or_else(|f| panic!("{f}"));
    out
}

fn inputs() -> Vec<u32> {
    (0..64u32)
        .map(|l| l.wrapping_mul(0x9e37_79b9) ^ (l << 3))
        .collect()
}

/// clang-19's 64-bit division uses `v_madmk_f32 vD, vA, K, vB` (vA * K + vB, K the literal
/// after the instruction); `v_madak_f32 vD, vA, vB, K` is vA * vB + K.
#[test]
fn madmk_and_madak_use_the_literal_in_the_right_place() {
    let inp: Vec<u32> = (0..64u32)
        .map(|l| (l as f32 * 0.75 - 7.0).to_bits())
        .collect();
    let mk = one_wave(
        "v_mov_b32 v3, 0x40400000\nv_madmk_f32 v1, v2, 0x41200000, v3",
        &inp,
    );
    let ak = one_wave(
        "v_mov_b32 v3, 0x40400000\nv_madak_f32 v1, v2, v3, 0x41200000",
        &inp,
    );
    for l in 0..64 {
        let a = f32::from_bits(inp[l]);
        // v_mad_f32 is an unfused multiply-add; these values are exact either way.
        assert_eq!(f32::from_bits(mk[l]), a * 10.0 + 3.0, "madmk lane {l}");
        assert_eq!(f32::from_bits(ak[l]), a * 3.0 + 10.0, "madak lane {l}");
    }
}

/// `v_lshl_or_b32 vD, a, shift, c` = (a << (shift & 31)) | c.
#[test]
fn lshl_or_b32() {
    let inp = inputs();
    let out = one_wave("s_mov_b32 s5, 0x10001\nv_lshl_or_b32 v1, v2, v0, s5", &inp);
    for l in 0..64u32 {
        let want = (inp[l as usize] << (l & 31)) | 0x10001;
        assert_eq!(out[l as usize], want, "lane {l}");
    }
}

/// clang-19 compares bytes with `v_cmp_gt_i16_sdwa s[2:3], v5, v4 src0_sel:BYTE_0`: an SDWA
/// VOPC with SD=1 writes the named SGPR pair, not VCC (switch_case went down the wrong arm).
#[test]
fn sdwa_compare_writes_its_named_sgpr_pair() {
    let inp = inputs();
    // VCC gets a sentinel first: it must survive; s[2:3] gets the compare.
    let out = one_wave(
        "s_mov_b64 vcc, 0x5a5a\nv_mov_b32 v4, 4\n\
         v_cmp_gt_i16_sdwa s[2:3], v2, v4 src0_sel:BYTE_0 src1_sel:DWORD\n\
         v_mov_b32 v1, 0\nv_mov_b32 v5, 1\nv_cndmask_b32_e64 v1, 0, v5, s[2:3]\n\
         v_cndmask_b32_e64 v6, 0, 2, vcc\nv_or_b32 v1, v1, v6",
        &inp,
    );
    for l in 0..64usize {
        // BYTE_0 without sext is zero-extended, then compared as i16.
        let a = (inp[l] & 0xff) as i16;
        let want = u32::from(a > 4) | if 0x5a5a_u64 >> l & 1 != 0 { 2 } else { 0 };
        assert_eq!(out[l], want, "lane {l}");
    }
}
