//! VGPR writes the block replaces before reading them (`vgpr_dead.rs`), and
//! `v_mad_u64_u32` / `v_mad_i64_i32` computing their low dword alone where the high one is
//! such a write: which writes count (a read in between, an EXEC change in between, no
//! replacement in the block do not), and the code leaving the interpreter's registers in full
//! and partial waves.

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
        let plan = super::plan::Plan::new(&prog, 0, false, false, isa);
        assert_eq!(plan.blocks.len(), 1, "one block");
        let dead = super::vgpr_dead::dead_writes(&plan.blocks[0].items);
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
    let plan = super::plan::Plan::new(&prog, 0, false, false, isas()[0]);
    assert_eq!(plan.blocks.len(), 2, "two blocks");
    assert_eq!(super::vgpr_dead::dead_writes(&plan.blocks[0].items), []);
}

#[test]
fn multiply_adds_without_their_high_dword_end_as_in_the_interpreter() {
    let prog = program(LINES);
    assert_engines_agree(&prog, 0x0dea_d0d0, 24);
}
