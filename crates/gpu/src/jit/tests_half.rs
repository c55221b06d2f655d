//! f16 add, subtract, multiply and fma (`lane_half.rs`) against the interpreter: VOP2 and
//! VOP3 forms with abs/neg, and the packed forms with every op_sel, op_sel_hi, neg and
//! neg_hi; VGPR, SGPR, inline-constant and literal sources, over operands full
//! of the f16 edges (zeros, denormals, the normal range's ends, infinities, quiet and
//! signaling NaNs) and of sums that cancel, overflow or round to a tie, fmas whose product
//! lies halfway between two f16 values with a tiny addend, under the default
//! mode and modes the block guard sends to the interpreter (f16 denormals flushed, other
//! roundings).

use super::tests::{assert_same_end, fuzz_params, isas, random_wave, run_engine, Rng};
use super::JitCode;
use crate::program::Program;
use crate::wave::Wave;

/// VOP2 opcodes of `v_add_f16`, `v_sub_f16`, `v_subrev_f16`, `v_mul_f16` (VOP3: 0x100 +).
const OPS: [(u32, &str); 4] = [
    (0x1f, "v_add_f16"),
    (0x20, "v_sub_f16"),
    (0x21, "v_subrev_f16"),
    (0x22, "v_mul_f16"),
];

/// An f16 lane value: an edge, a value near another lane's (cancellation, ties), or any.
fn half(r: &mut Rng, other: u16) -> u16 {
    match r.next() % 8 {
        0 => r.pick(&[
            0x0000, 0x8000, // zeros
            0x0001, 0x8001, 0x03ff, 0x0200, // denormals
            0x0400, 0x0401, // the least normals
            0x7bff, 0xfbff, 0x7bfe, // the largest
            0x7c00, 0xfc00, // infinities
            0x7e00, 0xfe00, 0x7e15, // quiet NaNs
            0x7c01, 0xfd55, // signaling NaNs
            0x3c00, 0xbc00, 0x3bff, 0x3c01, 0x1400, 0x5800,
        ]),
        // Near the other operand or its negation: cancellation and exact zeros.
        1 => (other ^ (r.next() as u16 & 0x8000)).wrapping_add(r.next() as u16 % 5),
        // Same exponent as the other, random significand: ties when added.
        2 => (other & 0xfc00) | (r.next() as u16 & 0x3ff),
        // Small: products below the normal range.
        3 => (r.next() as u16 & 0x83ff) | (r.next() as u16 % 8) << 10,
        _ => r.next() as u16,
    }
}

fn program(words: &[u32]) -> Program {
    let mut w = words.to_vec();
    w.push(0xbf81_0000); // s_endpgm
    let bytes: Vec<u8> = w.iter().flat_map(|d| d.to_le_bytes()).collect();
    Program::new(&bytes, 0x1000)
}

/// Random single instructions and pairs (the second reading the first's result), on
/// random waves (full and partial EXEC), each run by the interpreter and by the JIT's code
/// for each ISA of this host, which translates every step.
#[test]
fn f16_arithmetic_matches_the_interpreter() {
    run_cases(0x0f16_a0d5, |r, k, words| {
        if r.next().is_multiple_of(4) {
            // v_fma_f16 (VOP3 0x206) with abs and neg on all three sources, the
            // destination's high half kept.
            let (abs, neg) = ((r.next() % 8) as u32, (r.next() % 8) as u32);
            // (As the second instruction it reads the first's result as a source, or only
            // through the high half it keeps.)
            let s1 = if k == 1 && r.next().is_multiple_of(2) {
                8
            } else {
                21
            };
            let s0 = r.pick(&[256 + 20, 256 + 20, 30, 242]);
            words.push(0x34 << 26 | 0x206 << 16 | abs << 8 | 8);
            words.push(s0 | (256 + s1) << 9 | (256 + 22) << 18 | neg << 29);
            return "v_fma_f16";
        }
        let (op, name) = OPS[r.next() as usize % 4];
        // The second instruction reads the first's destination (v8).
        let s1 = if k == 1 { 8 } else { 21 };
        let src0 = match r.next() % 8 {
            0 => 30,                                 // s30
            1 => r.pick(&[240, 242, 243, 244, 128]), // 0.5, 1.0, -1.0, 2.0, 0
            2 => 255,                                // the literal
            _ => 256 + 20,                           // v20
        };
        let lit = r.pick(&[0x7bff_7c01u32, 0x0000_3555, 0xffff_0001, 0x1234_fe00]);
        if r.next().is_multiple_of(3) {
            // VOP3 with abs [10:8] and neg [31:29] on both sources.
            let (abs, neg) = ((r.next() % 4) as u32, (r.next() % 4) as u32);
            let s0 = if src0 == 255 { 256 + 20 } else { src0 };
            words.push(0x34 << 26 | (0x100 + op) << 16 | abs << 8 | 8);
            words.push(s0 | (256 + s1) << 9 | neg << 29);
        } else {
            words.push(op << 25 | 8 << 17 | s1 << 9 | src0);
            if src0 == 255 {
                words.push(lit);
            }
        }
        name
    });
}

/// Runs random programs of one or two instructions (case by case; `inst(r, k, words)`
/// appends instruction k's words and returns its name) from [`half_wave`]s: each program's
/// disassembly checked, then [`compare`]d.
fn run_cases(seed: u64, mut inst: impl FnMut(&mut Rng, usize, &mut Vec<u32>) -> &'static str) {
    let (seed, cases) = fuzz_params(seed, 600);
    let mut r = Rng(seed);
    for case in 0..cases {
        let mut words = Vec::new();
        let names: Vec<_> = (0..1 + case % 2)
            .map(|k| inst(&mut r, k, &mut words))
            .collect();
        let prog = program(&words);
        for (k, name) in names.iter().enumerate() {
            let text = prog.text(k as u32);
            assert!(text.starts_with(name), "case {case}: {text}");
        }
        compare(&prog, &half_wave(&mut r, case), case);
    }
}

/// Runs `prog` from `w0` under the interpreter and under the JIT's code for each ISA of this
/// host, which must translate every step, and asserts they end alike.
fn compare(prog: &Program, w0: &Wave, case: usize) {
    let mut a = w0.clone();
    let ra = run_engine(prog, &mut a, None);
    for isa in isas() {
        let jit = JitCode::compile(prog, 0, false, false, isa).expect("compiles");
        assert_eq!(
            jit.native, jit.reachable,
            "case {case} {isa:?}: every step translated"
        );
        let mut b = w0.clone();
        let rb = run_engine(prog, &mut b, Some(&jit));
        assert_same_end(&format!("case {case} {isa:?}"), prog, (&ra, &a), (&rb, &b));
    }
}

/// A random wave whose v20, v21, v22 and s30 hold f16 values in both halves (v21's near
/// v20's, v22 an addend),
/// under full or partial EXEC, in the default mode or one the guards refuse (f16 denormals
/// flushed; f16 rounding toward zero; f32 rounding toward +infinity).
fn half_wave(r: &mut Rng, case: usize) -> Wave {
    let mut w0 = random_wave(r);
    w0.mode = match case % 8 {
        5 => 0x230,
        6 => 0x2fc,
        7 => 0x2f1,
        _ => 0x2f0,
    };
    if case % 4 < 2 {
        w0.set_exec(u64::MAX);
    }
    w0.s[30] = u32::from(half(r, 0x3c00)) | u32::from(half(r, 0x4000)) << 16;
    for l in 0..64 {
        let mut pair = [0u32; 2];
        for k in 0..2 {
            let a = half(r, 0x3c00);
            let b = half(r, a);
            let (a, b) = if r.next().is_multiple_of(2) {
                (a, b)
            } else {
                (b, a)
            };
            pair[0] |= u32::from(a) << (16 * k);
            pair[1] |= u32::from(b) << (16 * k);
        }
        // Now and then v21's low half near v20's high one (the packed forms may pair them).
        if r.next().is_multiple_of(4) {
            let b = half(r, (pair[0] >> 16) as u16);
            pair[1] = (pair[1] & 0xffff_0000) | u32::from(b);
        }
        // One lane in eight: a product exactly halfway between two f16 values (3 or 5 or 7
        // times 1 + 2^-10, or times 1 - 2^-11) and a tiny addend, which decides the rounding
        // (double rounding through f32 to nearest would land on the tie).
        let mut c = u32::from(half(r, 0x0400)) | u32::from(half(r, 0x8001)) << 16;
        if r.next().is_multiple_of(8) {
            let a = r.pick(&[0x4200u32, 0x4500, 0x4700, 0xc200]);
            let b = r.pick(&[0x3c01u32, 0x3bff, 0x3c03]);
            pair = [a | a << 16, b | b << 16];
            c = r.pick(&[0x0001u32, 0x8001, 0x0003, 0x8000, 0x0100]) * 0x1_0001;
        }
        w0.v[20][l] = pair[0];
        w0.v[21][l] = pair[1];
        w0.v[22][l] = c;
    }
    w0
}

/// `v_pk_add_f16`, `v_pk_mul_f16` and `v_pk_fma_f16` (VOP3P 0xf, 0x10, 0xe) with random
/// op_sel, op_sel_hi, neg and neg_hi, alone and as a pair (the second reading the first's
/// result).
#[test]
fn packed_f16_arithmetic_matches_the_interpreter() {
    run_cases(0x0f16_9ac4, |r, k, words| {
        let (op, name) = r.pick(&[
            (0xfu32, "v_pk_add_f16"),
            (0x10, "v_pk_mul_f16"),
            (0xe, "v_pk_fma_f16"),
        ]);
        let s1 = if k == 1 { 8 } else { 21 };
        let src0 = match r.next() % 6 {
            0 => 30,                            // s30
            1 => r.pick(&[240, 242, 243, 128]), // 0.5, 1.0, -1.0, 0
            _ => 256 + 20,                      // v20
        };
        // (The add and multiply have no source 2: its field and bits stay 0.)
        let (src2, m) = match op {
            0xe => (256 + 22, 7),
            _ => (0, 3),
        };
        let mut bits = || (r.next() % 8) as u32 & m;
        let (op_sel, op_sel_hi, neg, neg_hi) = (bits(), bits(), bits(), bits());
        // VOP3P: op_sel [13:11], op_sel_hi[2] 14, neg_hi [10:8]; second word: src2 [26:18]
        // (v22), op_sel_hi[1:0] [28:27], neg [31:29].
        words
            .push(0x1a7 << 23 | op << 16 | (op_sel_hi >> 2) << 14 | op_sel << 11 | neg_hi << 8 | 8);
        words.push(src0 | (256 + s1) << 9 | src2 << 18 | (op_sel_hi & 3) << 27 | neg << 29);
        name
    });
}

/// `v_cvt_f32_f16_sdwa` (VOP1 0xb) of `WORD_0`, `WORD_1` or `DWORD` (its low half), from a
/// VGPR or an SGPR, into the whole destination; alone and after a packed add that writes
/// its source.
#[test]
fn sdwa_f16_conversion_matches_the_interpreter() {
    run_cases(0x0f16_5d3a, |r, k, words| {
        if k == 0 && r.next().is_multiple_of(2) {
            // v_pk_add_f16 v8, v20, v21 (the next conversion reads v8).
            words.push(0x1a7 << 23 | 0xf << 16 | 8);
            words.push((256 + 20) | (256 + 21) << 9 | 3 << 27);
            return "v_pk_add_f16";
        }
        let sel = r.pick(&[4u32, 5, 6]);
        // Second word: src0 [7:0] (v8, v20 or s30 with S0, bit 23), dst_sel [10:8] = DWORD,
        // src0_sel [18:16].
        let src0 = r.pick(&[8u32, 20, 20, 30 | 1 << 23]);
        words.push(0x3f << 25 | 9 << 17 | 0xb << 9 | 0xf9);
        words.push(src0 | 6 << 8 | sel << 16);
        "v_cvt_f32_f16_sdwa"
    });
}

/// f16 compares (`v_cmp_*_f16` and `v_cmpx_*_f16`, VOPC 0x20-0x3f, every condition; VOP3
/// with abs and neg into an SGPR pair) and `v_sqrt_f16` (VOP1 0x3e; VOP3 0x17e with abs and
/// neg), alone and as a pair whose second instruction follows the first (the square root's
/// result compared, or a compare's lanes square-rooted under the EXEC it wrote).
#[test]
fn f16_compares_and_sqrt_match_the_interpreter() {
    run_cases(0x0f16_c3a7, |r, k, words| {
        let src0 = match r.next() % 6 {
            0 => 30,                                 // s30
            1 => r.pick(&[240, 242, 243, 244, 128]), // 0.5, 1.0, -1.0, 2.0, 0
            _ => 256 + 20,                           // v20
        };
        if r.next().is_multiple_of(3) {
            // v_sqrt_f16 v8 (read by a second compare as v21's stand-in).
            if r.next().is_multiple_of(2) {
                words.push(0x3f << 25 | 8 << 17 | 0x3e << 9 | src0);
            } else {
                let (abs, neg) = ((r.next() % 2) as u32, (r.next() % 2) as u32);
                words.push(0x34 << 26 | 0x17e << 16 | abs << 8 | 8);
                words.push(src0 | neg << 29);
            }
            return "v_sqrt_f16";
        }
        let op = 0x20 + (r.next() % 32) as u32;
        let s1 = if k == 1 { 8 } else { 21 };
        let name = if op >= 0x30 { "v_cmpx_" } else { "v_cmp_" };
        if r.next().is_multiple_of(3) {
            // VOP3 into s[40:41], abs [10:8] and neg [31:29] on both sources.
            let (abs, neg) = ((r.next() % 4) as u32, (r.next() % 4) as u32);
            words.push(0x34 << 26 | op << 16 | abs << 8 | 40);
            words.push(src0 | (256 + s1) << 9 | neg << 29);
        } else {
            words.push(0x3e << 25 | op << 17 | s1 << 9 | src0);
        }
        name
    });
}

/// `v_pack_b32_f16` (VOP3 0x2a0) with random op_sel, abs and neg on both sources, alone and
/// as the second of a pair (packing the first's result).
#[test]
fn f16_pack_matches_the_interpreter() {
    run_cases(0x0f16_9acb, |r, k, words| {
        let s1 = if k == 1 { 8 } else { 21 };
        let src0 = match r.next() % 4 {
            0 => 30,                       // s30
            1 => r.pick(&[240, 243, 128]), // 0.5, -1.0, 0
            _ => 256 + 20,                 // v20
        };
        let (op_sel, abs, neg) = (
            (r.next() % 4) as u32,
            (r.next() % 4) as u32,
            (r.next() % 4) as u32,
        );
        words.push(0x34 << 26 | 0x2a0 << 16 | op_sel << 11 | abs << 8 | 8);
        words.push(src0 | (256 + s1) << 9 | neg << 29);
        "v_pack_b32_f16"
    });
}
