//! VGPR writes the block replaces before reading them (`vgpr_dead.rs`): `v_mad_u64_u32` /
//! `v_mad_i64_i32` computing their low dword alone where the high one is such a write, and
//! segments not storing what a later lane op or LDS read replaces. Which writes count (a read
//! in between, an EXEC change in between, a `_d16` read keeping half, no replacement in the
//! block do not), and the code leaving the interpreter's registers in full and partial
//! waves.

use super::tests::{assert_engines_agree, isas};
use super::tests_linear::program;

/// llvm-mc's text and encoding of each line (gfx900); "dead" marks the high dwords the block
/// replaces before reading them.
const LINES: &[(&str, &[u32])] = &[
    // dead: v1 (the 2-D index idiom)
    (
        "v_mad_u64_u32 v[0:1], s[4:5], v2, s10, v[2:3]",
        &[0xd1e8_0400, 0x0408_1502],
    ),
    ("v_mov_b32_e32 v1, 0", &[0x7e02_0280]),
    // v5 is read before it is replaced
    (
        "v_mad_u64_u32 v[4:5], s[6:7], v2, s11, v[6:7]",
        &[0xd1e8_0604, 0x0418_1702],
    ),
    ("v_add_u32_e32 v8, v5, v0", &[0x6810_0105]),
    ("v_mov_b32_e32 v5, 0", &[0x7e0a_0280]),
    // dead: v15, replaced by the next multiply-add past a scalar op; the addend is the
    // destination
    (
        "v_mad_u64_u32 v[14:15], s[8:9], v0, 31, v[14:15]",
        &[0xd1e8_080e, 0x0439_3f00],
    ),
    ("s_add_u32 s20, s20, 1", &[0x8014_8114]),
    // dead: v16
    (
        "v_mad_u64_u32 v[15:16], s[24:25], v14, 31, v[1:2]",
        &[0xd1e8_180f, 0x0405_3f0e],
    ),
    // dead: v21; a product alone, whose mask (0) the replacing move reads
    (
        "v_mad_i64_i32 v[20:21], s[12:13], v3, s10, 0",
        &[0xd1e9_0c14, 0x0200_1503],
    ),
    ("v_mov_b32_e32 v16, 0", &[0x7e20_0280]),
    // dead: v18, but the carry is read: the whole multiply-add
    (
        "v_mad_u64_u32 v[17:18], vcc, v0, s10, v[2:3]",
        &[0xd1e8_6a11, 0x0408_1500],
    ),
    ("v_addc_co_u32_e32 v19, vcc, 0, v0, vcc", &[0x3826_0080]),
    ("v_mov_b32_e32 v18, 0", &[0x7e24_0280]),
    ("v_mov_b32_e32 v21, s12", &[0x7e2a_020c]),
    // EXEC changes before v11 is replaced
    (
        "v_mad_u64_u32 v[10:11], s[14:15], v2, s11, v[12:13]",
        &[0xd1e8_0e0a, 0x0430_1702],
    ),
    ("v_cmpx_gt_u32_e32 vcc, v0, v2", &[0x7db8_0500]),
    ("v_mov_b32_e32 v11, 0", &[0x7e16_0280]),
    // nothing replaces v23 in the block
    (
        "v_mad_u64_u32 v[22:23], s[16:17], v0, v2, v[22:23]",
        &[0xd1e8_1016, 0x045a_0500],
    ),
    ("s_mov_b64 s[4:5], 0", &[0xbe84_0180]),
    ("s_mov_b64 s[8:9], 0", &[0xbe88_0180]),
    ("s_mov_b64 s[24:25], 0", &[0xbe98_0180]),
    // (No mask is read at the end: only the high dwords decide the lowering.)
    ("s_mov_b64 s[6:7], 0", &[0xbe86_0180]),
    ("s_mov_b64 s[14:15], 0", &[0xbe8e_0180]),
    ("s_mov_b64 s[16:17], 0", &[0xbe90_0180]),
    ("s_endpgm", &[0xbf81_0000]),
];

/// The dead writes of [`LINES`]: (instruction, VGPR).
const DEAD: [(u32, u8); 5] = [(0, 1), (5, 15), (7, 16), (8, 21), (10, 18)];

#[test]
fn only_writes_replaced_before_a_read_with_exec_unchanged_are_dead() {
    let prog = program(LINES);
    for isa in isas() {
        let plan = super::plan::Plan::new(&prog, 0, false, false);
        assert_eq!(plan.blocks.len(), 1, "one block");
        let dead =
            super::vgpr_dead::analyse(&plan.blocks[0].items, plan.blocks[0].vlive_out).writes;
        let got: Vec<(u32, u8)> = dead
            .iter()
            .flat_map(|&(i, s)| (0..=255u8).filter(move |&r| s.has(r)).map(move |r| (i, r)))
            .collect();
        assert_eq!(got, DEAD, "{isa:?}");
    }
    // Replaced in the next block: not dead (a block's end may be where the wave stops).
    let prog = program(&[
        (
            "v_mad_u64_u32 v[0:1], s[4:5], v2, s10, v[2:3]",
            &[0xd1e8_0400, 0x0408_1502],
        ),
        ("s_branch 0", &[0xbf82_0000]),
        ("v_mov_b32_e32 v1, 0", &[0x7e02_0280]),
        ("s_endpgm", &[0xbf81_0000]),
    ]);
    let plan = super::plan::Plan::new(&prog, 0, false, false);
    assert_eq!(plan.blocks.len(), 2, "two blocks");
    assert_eq!(
        super::vgpr_dead::analyse(&plan.blocks[0].items, plan.blocks[0].vlive_out).writes,
        []
    );
}

#[test]
fn multiply_adds_without_their_high_dword_end_as_in_the_interpreter() {
    let prog = program(LINES);
    assert_engines_agree(&prog, 0x0dea_d0d0, 24);
}

/// Segments followed by LDS reads (a run without LDS: they read zeros); "dead after" marks the
/// VGPRs the segment need not store.
const LDS_LINES: &[(&str, &[u32])] = &[
    // dead after: v3 (the read replaces it); v4 is read by nobody but not replaced
    ("v_mul_lo_u32 v3, v0, v1", &[0xd285_0003, 0x0002_0300]),
    ("v_add_u32_e32 v4, v3, v2", &[0x6808_0503]),
    ("s_add_u32 s20, s20, 1", &[0x8014_8114]),
    ("ds_read_b32 v3, v5", &[0xd86c_0000, 0x0300_0005]),
    // a `_d16` read keeps v6's high half
    ("v_add_u32_e32 v6, v7, v8", &[0x680c_1107]),
    ("ds_read_u8_d16 v6, v5", &[0xd8ac_0000, 0x0600_0005]),
    // EXEC changes in a later segment, before the read
    ("v_add_u32_e32 v9, v10, v11", &[0x6812_170a]),
    ("ds_write_b32 v5, v0", &[0xd81a_0000, 0x0000_0005]),
    ("v_cmpx_gt_u32_e32 vcc, v0, v2", &[0x7db8_0500]),
    ("ds_read_b32 v9, v5", &[0xd86c_0000, 0x0900_0005]),
    // EXEC changes in the segment itself, after the write
    ("v_sub_u32_e32 v12, v1, v0", &[0x6a18_0101]),
    ("v_cmpx_gt_u32_e32 vcc, v2, v0", &[0x7db8_0102]),
    ("ds_read_b32 v12, v5", &[0xd86c_0000, 0x0c00_0005]),
    // a store reads v13 first
    ("v_xor_b32_e32 v13, v0, v1", &[0x2a1a_0300]),
    ("ds_write_b32 v5, v13", &[0xd81a_0000, 0x0000_0d05]),
    ("ds_read_b32 v13, v5", &[0xd86c_0000, 0x0d00_0005]),
    // dead after: v14 (a read2 replaces v14 and v15)
    ("v_or_b32_e32 v14, v0, v2", &[0x281c_0500]),
    (
        "ds_read2_b32 v[14:15], v5 offset1:1",
        &[0xd86e_0100, 0x0e00_0005],
    ),
    ("s_endpgm", &[0xbf81_0000]),
];

#[test]
fn segments_leave_out_only_what_the_block_replaces_before_reading_it() {
    let prog = program(LDS_LINES);
    for isa in isas() {
        let plan = super::plan::Plan::new(&prog, 0, false, false);
        assert_eq!(plan.blocks.len(), 1, "one block");
        let dead = super::vgpr_dead::analyse(&plan.blocks[0].items, plan.blocks[0].vlive_out);
        let after = |first: u32, r: u8| {
            let s = dead.after.iter().find(|&&(i, _)| i == first);
            s.expect("a segment starts there").1.has(r)
        };
        // (Segment by first instruction, VGPR, dead after it.)
        for (first, r, want) in [
            (0, 3, true),
            (0, 4, false),
            (4, 6, false),
            (6, 9, false),
            (10, 12, false),
            (13, 13, false),
            (16, 14, true),
        ] {
            assert_eq!(
                after(first, r),
                want,
                "{isa:?}: v{r} after the segment at {first}"
            );
        }
    }
    assert_engines_agree(&prog, 0x1d5d_ead0, 24);
}

/// Three blocks: v1 read by the branch target, v3 by the fall-through, v4, v5 and v6 by
/// nobody before the wave ends; v7 replaced by the fall-through before it reads it, the branch
/// target not reading it; v8 replaced by the branch target, but read after an EXEC change.
const END_LINES: &[(&str, &[u32])] = &[
    ("v_add_u32_e32 v1, v0, v2", &[0x6802_0500]),
    ("v_mul_lo_u32 v3, v0, v1", &[0xd285_0003, 0x0002_0300]),
    ("v_xor_b32_e32 v4, v0, v2", &[0x2a08_0500]),
    ("v_sub_u32_e32 v7, v0, v2", &[0x6a0e_0500]),
    ("v_and_b32_e32 v8, v0, v2", &[0x2610_0500]),
    ("v_cmp_gt_u32_e32 vcc, v0, v2", &[0x7d98_0500]),
    ("s_cbranch_vccz 3", &[0xbf86_0003]),
    ("v_mov_b32_e32 v7, v3", &[0x7e0e_0303]),
    ("v_add_u32_e32 v5, v7, v0", &[0x680a_0107]),
    ("s_endpgm", &[0xbf81_0000]),
    ("v_mov_b32_e32 v8, v1", &[0x7e10_0301]),
    ("v_cmpx_gt_u32_e32 vcc, v0, v2", &[0x7db8_0500]),
    ("v_or_b32_e32 v6, v8, v0", &[0x280c_0108]),
    ("s_endpgm", &[0xbf81_0000]),
];

/// v9 replaced by the fall-through, then read from one lane whatever EXEC
/// (`v_readlane_b32`: a lane the replacing write, under a partial EXEC, left alone holds the
/// first block's value).
const READLANE_LINES: &[(&str, &[u32])] = &[
    ("v_or_b32_e32 v9, v0, v2", &[0x2812_0500]),
    ("v_cmp_gt_u32_e32 vcc, v0, v2", &[0x7d98_0500]),
    ("s_cbranch_vccz 5", &[0xbf86_0005]),
    ("v_mov_b32_e32 v9, v3", &[0x7e12_0303]),
    ("v_readlane_b32 s10, v9, 5", &[0xd289_000a, 0x0001_0b09]),
    ("v_add_u32_e32 v5, s10, v0", &[0x680a_000a]),
    ("s_endpgm", &[0xbf81_0000]),
    ("v_mov_b32_e32 v6, v1", &[0x7e0c_0301]),
    ("s_endpgm", &[0xbf81_0000]),
];

/// Outside check mode and the tests that compare every register at a wave's end, nothing
/// reads a VGPR after `s_endpgm`: a write that no path reads before the end, or before
/// replacing it with EXEC unchanged, is dead, across blocks too (`vgpr_dead::live_out`); with
/// exact ends, none is.
#[test]
fn writes_no_path_reads_before_the_wave_ends_are_dead() {
    let prog = program(END_LINES);
    let dead_writes = |plan: &super::plan::Plan| -> Vec<(u32, u8)> {
        plan.blocks
            .iter()
            .flat_map(|b| super::vgpr_dead::analyse(&b.items, b.vlive_out).writes)
            .flat_map(|(i, s)| (0..=255u8).filter(move |&r| s.has(r)).map(move |r| (i, r)))
            .collect()
    };
    for isa in isas() {
        super::plan::FINAL_MASKS_DEAD.with(|c| c.set(true));
        let plan = super::plan::Plan::new(&prog, 0, false, false);
        super::plan::FINAL_MASKS_DEAD.with(|c| c.set(false));
        assert_eq!(plan.blocks.len(), 3, "three blocks");
        assert_eq!(
            dead_writes(&plan),
            [(2, 4), (3, 7), (8, 5), (12, 6)],
            "{isa:?}"
        );
        assert_eq!(
            super::vgpr_dead::unread_at_end(&plan),
            [4, 5, 6, 7],
            "{isa:?}"
        );
        let exact = super::plan::Plan::new(&prog, 0, false, false);
        assert_eq!(dead_writes(&exact), [], "{isa:?}: exact ends");
        super::plan::FINAL_MASKS_DEAD.with(|c| c.set(true));
        let plan = super::plan::Plan::new(&program(READLANE_LINES), 0, false, false);
        super::plan::FINAL_MASKS_DEAD.with(|c| c.set(false));
        assert_eq!(dead_writes(&plan), [(5, 5), (7, 6)], "{isa:?}: readlane");
    }
    // Compiled both ways (unrolled and as chunk loops), the other registers end as in the
    // interpreter.
    let mut r = super::tests::Rng(0x5eed_e4d5);
    for case in [2, 5, 8, 11] {
        super::tests::compiled_matches_interpreter(&mut r, case, &prog);
        super::tests::compiled_matches_interpreter(&mut r, case, &program(READLANE_LINES));
    }
}
