//! Segments run on a few lanes (`lane_rep.rs`): the stencil's neighbour addresses computed
//! for the first and last lane of each row of 16 and filled in, in waves of one row and rows
//! of 16 and 32, and under each condition that sends the wave to the segment's ordinary code
//! (rows of 8, the flag clear, a lane inactive, a pair whose index wraps or whose low dword
//! carries within a row, either way of stepping). Every case must leave the interpreter's
//! registers.

use super::lane_rep::REP_LANES;
use super::tests::{isas, random_wave, Rig, Rng};
use super::tests_mem::OneBuffer;
use super::{first_difference, run_code, JitCode};
use crate::memory::Checker;
use crate::wave::Wave;

/// llvm-mc's text and encoding of each line (gfx900).
const LINES: &[(&str, &[u32])] = &[
    // The index: y * s12 + x + s8 (the low dword of `v_mad_u64_u32`).
    ("v_add_u32_e32 v2, s8, v0", &[0x6804_0008]),
    ("v_mov_b32_e32 v3, 0", &[0x7e06_0280]),
    (
        "v_mad_u64_u32 v[0:1], s[6:7], v1, s12, v[2:3]",
        &[0xd1e8_0600, 0x0408_1901],
    ),
    ("v_mov_b32_e32 v1, 0", &[0x7e02_0280]),
    // The stencil's four neighbours (clang-15's code), then an index stepping down.
    ("v_subrev_u32_e32 v4, s10, v0", &[0x6c08_000a]),
    ("v_mov_b32_e32 v5, 0", &[0x7e0a_0280]),
    (
        "v_lshlrev_b64 v[6:7], 2, v[4:5]",
        &[0xd28f_0006, 0x0002_0882],
    ),
    ("v_add_u32_e32 v4, s10, v0", &[0x6808_000a]),
    ("v_mov_b32_e32 v2, s3", &[0x7e04_0203]),
    ("v_add_co_u32_e32 v6, vcc, s2, v6", &[0x320c_0c02]),
    (
        "v_lshlrev_b64 v[8:9], 2, v[4:5]",
        &[0xd28f_0008, 0x0002_0882],
    ),
    ("v_addc_co_u32_e32 v7, vcc, v2, v7, vcc", &[0x380e_0f02]),
    ("v_add_u32_e32 v4, -1, v0", &[0x6808_00c1]),
    ("v_add_co_u32_e32 v8, vcc, s2, v8", &[0x3210_1002]),
    (
        "v_lshlrev_b64 v[10:11], 2, v[4:5]",
        &[0xd28f_000a, 0x0002_0882],
    ),
    ("v_addc_co_u32_e32 v9, vcc, v2, v9, vcc", &[0x3812_1302]),
    ("v_add_u32_e32 v4, 1, v0", &[0x6808_0081]),
    ("v_add_co_u32_e32 v10, vcc, s2, v10", &[0x3214_1402]),
    (
        "v_lshlrev_b64 v[4:5], 2, v[4:5]",
        &[0xd28f_0004, 0x0002_0882],
    ),
    ("v_addc_co_u32_e32 v11, vcc, v2, v11, vcc", &[0x3816_1702]),
    ("v_add_co_u32_e32 v4, vcc, s2, v4", &[0x3208_0802]),
    ("v_addc_co_u32_e32 v5, vcc, v2, v5, vcc", &[0x380a_0b02]),
    ("v_sub_u32_e32 v12, s13, v0", &[0x6a18_000d]),
    ("v_mov_b32_e32 v13, 0", &[0x7e1a_0280]),
    (
        "v_lshlrev_b64 v[12:13], 2, v[12:13]",
        &[0xd28f_000c, 0x0002_1882],
    ),
    ("v_add_co_u32_e32 v12, vcc, s2, v12", &[0x3218_1802]),
    ("v_addc_co_u32_e32 v13, vcc, v2, v13, vcc", &[0x381a_1b02]),
    // Byte addresses (one step per lane) from a base of their own, s[16:17], up and down.
    ("v_subrev_u32_e32 v16, s14, v0", &[0x6c20_000e]),
    ("v_mov_b32_e32 v17, 0", &[0x7e22_0280]),
    ("v_mov_b32_e32 v22, s17", &[0x7e2c_0211]),
    ("v_add_co_u32_e32 v14, vcc, s16, v16", &[0x321c_2010]),
    ("v_addc_co_u32_e32 v15, vcc, v22, v17, vcc", &[0x381e_2316]),
    ("v_sub_u32_e32 v18, s15, v0", &[0x6a24_000f]),
    ("v_mov_b32_e32 v19, 0", &[0x7e26_0280]),
    ("v_add_co_u32_e32 v20, vcc, s16, v18", &[0x3228_2410]),
    ("v_addc_co_u32_e32 v21, vcc, v22, v19, vcc", &[0x382a_2716]),
    // The segment's lane masks written before anything reads them: dead after it. (The
    // plan keeps the write of s13 after the segment's read and before the compare's.)
    ("s_mov_b64 s[6:7], 0", &[0xbe86_0180]),
    ("s_mov_b32 s13, s13", &[0xbe8d_000d]),
    ("v_cmp_gt_u32_e32 vcc, s13, v0", &[0x7d98_000d]),
    ("s_endpgm", &[0xbf81_0000]),
];

/// A wave of rows `row` lanes wide (x ids 0.., y ids from `y`; `flag`: `Wave::lin_rows`),
/// with x offset s8 = `add`, width s12, neighbour distance s10, base s[2:3], the downward
/// index's start s13; the byte addresses' base s[16:17], offset s14 and start s15.
struct Shape {
    row: usize,
    flag: u8,
    add: u32,
    y: u32,
    width: u32,
    s10: u32,
    base: u64,
    s13: u32,
    bytes: u64,
    s14: u32,
    s15: u32,
}

fn wave(s: &Shape) -> Wave {
    let mut w = random_wave(&mut Rng(5));
    w.v[0] = std::array::from_fn(|l| (l % s.row) as u32);
    w.v[1] = std::array::from_fn(|l| s.y + (l / s.row) as u32);
    w.lin_rows = s.flag;
    w.s[8] = s.add;
    w.s[12] = s.width;
    w.s[10] = s.s10;
    w.s[2] = s.base as u32;
    w.s[3] = (s.base >> 32) as u32;
    w.s[13] = s.s13;
    w.s[14] = s.s14;
    w.s[15] = s.s15;
    w.s[16] = s.bytes as u32;
    w.s[17] = (s.bytes >> 32) as u32;
    w.set_exec(!0);
    for v in w.rep.v.iter_mut() {
        v.fill(0xdead_beef);
    }
    w.rep.runs = 0;
    w
}

/// How far a wave went on a few lanes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Outcome {
    /// The segment's ordinary code only.
    Ordinary,
    /// Gathered and ran, then a row check sent it to the ordinary code.
    Checked,
    /// Ran and filled the VGPRs.
    Runs,
}

#[test]
fn segments_run_on_a_few_lanes_match_the_interpreter() {
    let isas = isas();
    if isas.is_empty() {
        return;
    }
    let prog = super::tests_linear::program(LINES);
    let ordinary = |row, flag| Shape {
        row,
        flag,
        add: 100,
        y: 3,
        width: 1000,
        s10: 1000,
        base: 0x7_1000_0000,
        s13: 50_000,
        bytes: 0x5_2000_0000,
        s14: 20,
        s15: 60_000,
    };
    // (what, shape, lanes inactive, whether the segment runs on a few lanes: gathers and
    // passes its checks, or gathers only, or neither)
    use Outcome::*;
    let mut cases: Vec<(&str, Shape, u64, Outcome)> = vec![
        ("one row", ordinary(64, 64), 0, Runs),
        ("rows of 32", ordinary(32, 32), 0, Runs),
        ("rows of 16", ordinary(16, 16), 0, Runs),
        ("rows of 8", ordinary(8, 8), 0, Ordinary),
        ("flag clear", ordinary(16, 0), 0, Ordinary),
        ("a lane inactive", ordinary(16, 16), 1 << 37, Ordinary),
    ];
    // The base's low dword carries within a row: row 0's lanes from x = 4 on in the pair
    // of index + 1 (row 0's index: 3100 + x).
    cases.push((
        "carry into the high dword",
        Shape {
            base: 0x8_0000_0000 - 4 * 3105,
            ..ordinary(16, 16)
        },
        0,
        Checked,
    ));
    // x + s8 - s10 wraps past 0 within row 0 (lanes 0-7 of it); and in a wave of one row.
    cases.push((
        "index wrapping, rows of 16",
        Shape {
            add: 0,
            y: 0,
            s10: 8,
            ..ordinary(16, 16)
        },
        0,
        Checked,
    ));
    cases.push((
        "index wrapping, one row",
        Shape {
            add: 0,
            y: 0,
            s10: 40,
            ..ordinary(64, 64)
        },
        0,
        Checked,
    ));
    // s13 - index wraps below 0 (the downward step).
    cases.push((
        "downward index wrapping",
        Shape {
            s13: 3100,
            ..ordinary(16, 16)
        },
        0,
        Checked,
    ));
    // Index + 1 alone wraps, at row 0's last lane (index 2^32 - 16 + x there).
    cases.push((
        "index + 1 wrapping",
        Shape {
            add: 0xffff_fff0,
            y: 0,
            s10: 0,
            s14: 0,
            ..ordinary(16, 16)
        },
        0,
        Checked,
    ));
    // The byte index wraps upward in row 0 (index 1 + x, minus 9) from a base 3 below a
    // 4 GiB line: lanes 8-10 of the row (0, 1, 2) do not carry into the high dword, the rest
    // do. The high dwords of the row's ends agree, only the low ones show the wrap.
    cases.push((
        "byte index wrapping upward",
        Shape {
            add: 1,
            y: 0,
            s10: 0,
            bytes: 0x5_ffff_fffd,
            s14: 9,
            ..ordinary(16, 16)
        },
        0,
        Checked,
    ));
    // The downward byte index wraps in row 0 (5 - index) from a base 4 below a 4 GiB line:
    // both ends of the row carry into the high dword.
    cases.push((
        "byte index wrapping downward",
        Shape {
            add: 1,
            y: 0,
            s10: 0,
            bytes: 0x5_ffff_fffc,
            s14: 0xffff_fff6,
            s15: 5,
            ..ordinary(16, 16)
        },
        0,
        Checked,
    ));
    for (what, shape, off, outcome) in &cases {
        let mut w0 = wave(shape);
        w0.set_exec(!off);
        let map = OneBuffer(0..0);
        let mut rig = Rig::new(0);
        let mut wa = w0.clone();
        let mut cx = rig.cx(&prog, Checker::new(&map, 0..0), 0);
        crate::exec::run(&mut wa, &mut cx).expect("the interpreter runs it");
        for &isa in &isas {
            // (On AVX-512 the estimate may prefer the four chunks: forced.)
            super::lane_rep::FORCE.with(|c| c.set(true));
            let jit = JitCode::compile_kernel(&prog, 0, false, false, isa, 1, None);
            super::lane_rep::FORCE.with(|c| c.set(false));
            let jit = jit.expect("compiles");
            assert_eq!(jit.native, jit.reachable, "{what}: translated");
            let mut wb = w0.clone();
            let mut cx = rig.cx(&prog, Checker::new(&map, 0..0), 0);
            run_code(&mut wb, &mut cx, &jit).expect("the JIT runs it");
            let ctx = format!("{isa:?}, {what}");
            assert_eq!(first_difference(&wb, &wa, 0..256), None, "{ctx}");
            // The index as the segment read it, at its few lanes: gathered or not.
            let index: Vec<u32> = REP_LANES.iter().map(|&l| wa.v[0][l as usize]).collect();
            let gathered = wb.rep.v[0][..8] == index[..];
            let seen = match (gathered, wb.rep.runs) {
                (false, 0) => Ordinary,
                (true, 0) => Checked,
                (true, 1) => Runs,
                _ => panic!("{ctx}: {} runs without a gather", wb.rep.runs),
            };
            assert_eq!(seen, *outcome, "{ctx}");
        }
    }
}

/// The stencil's interior: the index and the four neighbours' addresses (one segment), their
/// loads, the sum and its store (at 4 x the index from s[16:17]); the neighbours' addresses
/// are read by the loads only.
const INTERIOR: &[(&str, &[u32])] = &[
    (
        "global_load_dword v2, v[6:7], off",
        &[0xdc50_8000, 0x027f_0006],
    ),
    (
        "global_load_dword v12, v[8:9], off",
        &[0xdc50_8000, 0x0c7f_0008],
    ),
    (
        "global_load_dword v13, v[10:11], off",
        &[0xdc50_8000, 0x0d7f_000a],
    ),
    (
        "global_load_dword v14, v[4:5], off",
        &[0xdc50_8000, 0x0e7f_0004],
    ),
    ("s_waitcnt vmcnt(0)", &[0xbf8c_0f70]),
    ("v_add_f32_e32 v2, v2, v12", &[0x0204_1902]),
    ("v_add_f32_e32 v2, v2, v13", &[0x0204_1b02]),
    ("v_add_f32_e32 v2, v2, v14", &[0x0204_1d02]),
    (
        "v_lshlrev_b64 v[0:1], 2, v[0:1]",
        &[0xd28f_0000, 0x0002_0082],
    ),
    ("v_mov_b32_e32 v3, s17", &[0x7e06_0211]),
    ("v_add_co_u32_e32 v0, vcc, s16, v0", &[0x3200_0010]),
    ("v_addc_co_u32_e32 v1, vcc, v3, v1, vcc", &[0x3802_0303]),
    (
        "global_store_dword v[0:1], v2, off",
        &[0xdc70_8000, 0x007f_0200],
    ),
    ("s_endpgm", &[0xbf81_0000]),
];

/// The loads after a segment run on a few lanes read their addresses from `Wave::rep` and
/// the segment leaves those VGPRs unfilled (`RepFile::lazy`), where nothing else reads them:
/// the sums stored are the interpreter's. A load that leaves its fast path (the first wave:
/// the site's range not yet proven) fills them first: then they are the interpreter's.
#[test]
fn loads_read_addresses_left_in_the_rep_file() {
    let isas = isas();
    if isas.is_empty() {
        return;
    }
    // The index (LINES' first four), the neighbours (the next eighteen), then INTERIOR.
    let lines: Vec<(&str, &[u32])> = LINES[..22].iter().chain(INTERIOR).copied().collect();
    let prog = super::tests_linear::program(&lines);
    // The input's 1024 floats, then the output's.
    let mut mem: Vec<u32> = (0..2048u32)
        .map(|k| (1.0f32 + k as f32 * 0.375).to_bits())
        .collect();
    mem[1024..].fill(0);
    let base = mem.as_mut_ptr() as u64;
    let map = OneBuffer(base..base + 8192);
    // Rows of 16 (y from 3), width 64 and neighbours a row apart: indexes 228..615.
    let shape = Shape {
        row: 16,
        flag: 16,
        add: 100,
        y: 3,
        width: 64,
        s10: 64,
        base,
        s13: 0,
        bytes: base + 4096,
        s14: 0,
        s15: 0,
    };
    let w0 = wave(&shape);
    let mut rig = Rig::new(0);
    let mut wa = w0.clone();
    let mut cx = rig.cx(&prog, Checker::new(&map, 0..0), 0);
    crate::exec::run(&mut wa, &mut cx).expect("the interpreter runs it");
    let out = |m: &mut Vec<u32>| -> Vec<u32> {
        let o = m[1024..].to_vec();
        m[1024..].fill(0);
        o
    };
    let want = out(&mut mem);
    assert!(
        want.iter().filter(|&&x| x != 0).count() >= 64,
        "sums stored"
    );
    // Two rows further down.
    let w1 = wave(&Shape { y: 5, ..shape });
    let mut wa1 = w1.clone();
    let mut cx = rig.cx(&prog, Checker::new(&map, 0..0), 0);
    crate::exec::run(&mut wa1, &mut cx).expect("the interpreter runs it");
    let want1 = out(&mut mem);
    assert!(want1 != want);
    for &isa in &isas {
        // (As outside tests: VGPRs nothing reads after the block may be left unwritten.)
        super::plan::FINAL_MASKS_DEAD.with(|c| c.set(true));
        super::lane_rep::FORCE.with(|c| c.set(true));
        let jit = JitCode::compile_kernel(&prog, 0, false, false, isa, 1, None);
        super::lane_rep::FORCE.with(|c| c.set(false));
        super::plan::FINAL_MASKS_DEAD.with(|c| c.set(false));
        let jit = jit.expect("compiles");
        let mut cx = rig.cx(&prog, Checker::new(&map, 0..0), 0);
        // The first wave proves the sites' ranges on the loads' usual paths.
        let mut wb = w0.clone();
        run_code(&mut wb, &mut cx, &jit).expect("the JIT runs it");
        assert_eq!(wb.rep.runs, 1, "{isa:?}: ran on a few lanes");
        assert_eq!(wb.rep.lazy, 0, "{isa:?}: filled before the usual paths");
        let got = out(&mut mem);
        let k = (0..1024).find(|&k| got[k] != want[k]);
        assert!(
            k.is_none(),
            "{isa:?}: first wave's sums, at {k:?}: {:?}",
            k.map(|k| (f32::from_bits(got[k]), f32::from_bits(want[k])))
        );
        for r in 4..12 {
            assert_eq!(wb.v[r], wa.v[r], "{isa:?}: first wave, v{r}");
        }
        // The second takes the fast path with the addresses from `Wave::rep`.
        let mut wc = w0.clone();
        run_code(&mut wc, &mut cx, &jit).expect("the JIT runs it");
        assert_eq!(wc.rep.lazy, 1, "{isa:?}: the loads read `Wave::rep`");
        assert!(out(&mut mem) == want, "{isa:?}: second wave's sums");
        // (Unfilled: the addresses stay what the wave held before.)
        assert_eq!(wc.v[6], w0.v[6], "{isa:?}: v6 left unfilled");
        // A wave after it in the same registers (as on a worker) takes the segment's
        // ordinary code (the rows flag clear): the flag left set must not send its loads
        // to `Wave::rep`.
        let mut wd = w1.clone();
        wd.rep = wc.rep.clone();
        wd.lin_rows = 0;
        run_code(&mut wd, &mut cx, &jit).expect("the JIT runs it");
        assert_eq!(wd.rep.lazy, 0, "{isa:?}: cleared by the ordinary code");
        assert!(out(&mut mem) == want1, "{isa:?}: third wave's sums");
    }
}
