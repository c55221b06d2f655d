//! Moves folded into the instruction that overwrites their destination (`mov_fold.rs`): which
//! fold and which must not (the source changed in between, EXEC changed in between, the next
//! reader not overwriting the move's register, a 64-bit reader other than the widening
//! shift), and the folded code leaving the interpreter's registers in full and partial waves.

use super::mov_fold::fold_moves;
use super::select::{select, Kind, LaneInst, Opd};
use super::tests::assert_engines_agree;
use super::tests_linear::program;
use crate::program::{Program, Slot};

/// llvm-mc's text and encoding of each line (gfx900); "fold" marks the moves that fold.
const LINES: &[(&str, &[u32])] = &[
    ("v_mov_b32_e32 v3, s11", &[0x7e06_020b]), // fold: the address's high half
    ("v_add_co_u32_e32 v2, vcc, s10, v0", &[0x3204_000a]),
    ("v_addc_co_u32_e32 v3, vcc, v3, v1, vcc", &[0x3806_0303]),
    ("v_mov_b32_e32 v1, 0", &[0x7e02_0280]), // the next reader keeps v1
    (
        "v_lshlrev_b64 v[4:5], 2, v[0:1]",
        &[0xd28f_0004, 0x0002_0082],
    ),
    (
        "v_lshlrev_b64 v[0:1], 2, v[0:1]",
        &[0xd28f_0000, 0x0002_0082],
    ),
    ("v_mov_b32_e32 v6, s4", &[0x7e0c_0204]), // the next reader writes no VGPR
    (
        "v_cmp_gt_u32_e64 s[4:5], v6, v2",
        &[0xd0cc_0004, 0x0002_0506],
    ),
    ("v_mul_f32_e32 v6, v6, v4", &[0x0a0c_0906]),
    ("v_mov_b32_e32 v7, s5", &[0x7e0e_0205]), // fold: s5 as the compare left it
    ("v_add_u32_e32 v7, v7, v1", &[0x680e_0307]),
    ("v_mov_b32_e32 v8, v2", &[0x7e10_0302]), // v2 changes before the reader
    ("v_add_u32_e32 v2, 1, v2", &[0x6804_0481]),
    ("v_sub_u32_e32 v8, v8, v3", &[0x6a10_0708]),
    ("v_mov_b32_e32 v9, s6", &[0x7e12_0206]), // the reader writes another VGPR
    ("v_add_u32_e32 v10, v9, v0", &[0x6814_0109]),
    ("v_mov_b32_e32 v11, v0", &[0x7e16_0300]), // fold: both sources
    ("v_mul_lo_u32 v11, v11, v11", &[0xd285_000b, 0x0002_170b]),
    ("v_mov_b32_e32 v7, s5", &[0x7e0e_0205]), // EXEC changes before the reader
    ("v_cmpx_gt_u32_e32 vcc, v0, v2", &[0x7db8_0500]),
    ("v_add_u32_e32 v7, v7, v1", &[0x680e_0307]),
    ("v_mov_b32_e32 v12, s4", &[0x7e18_0204]), // s4 changes before the reader
    (
        "v_cmp_lt_u32_e64 s[4:5], v0, v1",
        &[0xd0c9_0004, 0x0002_0300],
    ),
    ("v_add_u32_e32 v12, v12, v0", &[0x6818_010c]),
    ("v_mov_b32_e32 v13, 0", &[0x7e1a_0280]), // fold: a zero high half widened
    (
        "v_lshlrev_b64 v[12:13], 2, v[12:13]",
        &[0xd28f_000c, 0x0002_1882],
    ),
    ("v_mov_b32_e32 v14, 1.0", &[0x7e1c_02f2]), // fold: a constant into a float op
    ("v_sub_f32_e32 v14, v14, v4", &[0x041c_090e]),
    ("v_mov_b32_e32 v15, vcc_lo", &[0x7e1e_026a]), // vcc changes before the reader
    ("v_add_co_u32_e32 v16, vcc, v0, v1", &[0x3220_0300]),
    ("v_xor_b32_e32 v15, v15, v16", &[0x2a1e_210f]),
    ("s_endpgm", &[0xbf81_0000]),
];

/// The moves of [`LINES`] that fold.
const FOLDED: [u32; 5] = [0, 9, 16, 24, 26];

/// The lane instructions of `prog` (all but its last, `s_endpgm`), as the selector makes them.
fn lane_insts(prog: &Program) -> Vec<(u32, LaneInst)> {
    (0..prog.slots.len() as u32 - 1)
        .map(|i| match &prog.slots[i as usize] {
            Slot::Ok(x) => match select(x, false) {
                Some(Kind::Lane(li)) => (i, li),
                other => panic!("line {i}: {other:?}"),
            },
            _ => panic!("line {i} does not decode"),
        })
        .collect()
}

#[test]
fn moves_fold_only_where_their_value_is_unchanged_and_overwritten() {
    let prog = program(LINES);
    let insts = lane_insts(&prog);
    let folded = fold_moves(&insts).expect("moves fold");
    let kept: Vec<u32> = folded.iter().map(|(i, _)| *i).collect();
    let want: Vec<u32> = insts
        .iter()
        .map(|(i, _)| *i)
        .filter(|i| !FOLDED.contains(i))
        .collect();
    assert_eq!(kept, want, "the instructions left");
    let at = |i: u32| folded.iter().find(|(k, _)| *k == i).expect("kept").1;
    assert_eq!(at(2).src[0][0], Opd::S(11));
    assert_eq!(at(10).src[0][0], Opd::S(5));
    assert_eq!((at(17).src[0][0], at(17).src[1][0]), (Opd::V(0), Opd::V(0)));
    assert_eq!(at(25).src[1], [Opd::V(12), Opd::K(0)]);
    assert_eq!(at(27).src[0][0], Opd::K(0x3f80_0000));
    // The readers of the moves that stay read their registers still.
    assert_eq!(at(13).src[0][0], Opd::V(8));
    assert_eq!(at(20).src[0][0], Opd::V(7));
    assert_eq!(at(23).src[0][0], Opd::V(12));
    assert_eq!(at(30).src[0][0], Opd::V(15));
}

#[test]
fn folded_moves_leave_the_interpreters_registers() {
    let prog = program(LINES);
    assert_engines_agree(&prog, 0x00f0_1d00, 24);
}
