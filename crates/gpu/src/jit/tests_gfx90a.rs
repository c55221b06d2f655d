//! gfx90a's `v_fmac_f64` (VOP2 with an inline constant, SGPR pair, VGPR pair or literal
//! source 0; VOP3 with abs and neg), `v_pk_mov_b32` (every `op_sel`, sources that are the
//! destination, SGPR pairs and constants) and `v_pk_add/mul/fma_f32` (every `op_sel`,
//! `op_sel_hi`, `neg` and `neg_hi`, sources that are the destination) against the
//! interpreter: runs of one to three such instructions, later ones reading earlier results,
//! over f64 and f32 edges (zeros, denormals, infinities, NaNs with payloads, values that
//! cancel), under full and partial EXEC and in the default mode or ones the block guard sends
//! to the interpreter.

use super::tests::{assert_same_end, fuzz_params, isas, random_wave, run_engine, Rng};
use super::JitCode;
use crate::program::Program;
use crate::wave::Wave;
use softhsa_isa::Gfx;

/// An f64 lane value: an edge or any bits.
fn double(r: &mut Rng) -> u64 {
    match r.next() % 3 {
        0 => r.pick(&[
            0x0000_0000_0000_0000,
            0x8000_0000_0000_0000,
            0x0000_0000_0000_0001,
            0x800f_ffff_ffff_ffff,
            0x7ff0_0000_0000_0000,
            0xfff0_0000_0000_0000,
            0x7ff8_0000_0000_0000,
            0xfff8_0000_0000_0123,
            0x7ff0_0000_0000_0042,
            0x7fef_ffff_ffff_ffff,
            0x3ff0_0000_0000_0000,
            0xbff0_0000_0000_0001,
            0x4000_0000_0000_0000,
        ]),
        1 => {
            // A modest number: products and sums in range, some cancelling.
            let sign = (r.next() & 1) << 63;
            sign | (0x3fe0_0000_0000_0000 + (r.next() % (1 << 53)))
        }
        _ => r.next(),
    }
}

/// An f32 edge or any bits.
fn single(r: &mut Rng) -> u32 {
    match r.next() % 3 {
        0 => r.pick(&[
            0x0000_0000,
            0x8000_0000,
            0x0000_0001,
            0x807f_ffff,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0xffc0_0123,
            0x7f80_0042,
            0x7f7f_ffff,
            0x3f80_0000,
            0xbf80_0001,
            0x0080_0000,
        ]),
        1 => (r.next() as u32 & 0x807f_ffff) | (120 + (r.next() % 16) as u32) << 23,
        _ => r.next() as u32,
    }
}

/// VGPR pairs the programs use (v20..v27), SGPR pair s[30:31].
const PAIRS: [u32; 4] = [20, 22, 24, 26];

fn program(words: &[u32]) -> Program {
    let mut w = words.to_vec();
    w.push(0xbf81_0000); // s_endpgm
    let bytes: Vec<u8> = w.iter().flat_map(|d| d.to_le_bytes()).collect();
    Program::new_for(&bytes, 0x1000, Gfx::Gfx90a)
}

/// One random instruction (its name's start returned for the check that it decoded as meant).
fn instruction(r: &mut Rng, words: &mut Vec<u32>) -> &'static str {
    let vpair = |r: &mut Rng| 256 + r.pick(&PAIRS);
    let dst = |r: &mut Rng| r.pick(&PAIRS);
    match r.next() % 5 {
        3 | 4 => {
            // v_pk_fma_f32 / v_pk_mul_f32 / v_pk_add_f32 with every selection and negation.
            let (op, name) = r.pick(&[
                (0x30u32, "v_pk_fma_f32"),
                (0x31, "v_pk_mul_f32"),
                (0x32, "v_pk_add_f32"),
            ]);
            let three = op == 0x30;
            let n = if three { 3 } else { 2 };
            let src = |r: &mut Rng| match r.next() % 5 {
                0 => 30,
                1 => r.pick(&[240, 242, 245]), // 0.5, 1.0, -2.0
                _ => vpair(r),
            };
            let bits = |r: &mut Rng| (r.next() % (1 << n)) as u32;
            let (mut op_sel, mut op_sel_hi, neg, neg_hi) = (bits(r), bits(r), bits(r), bits(r));
            let srcs = [src(r), src(r), if three { src(r) } else { 0 }];
            let d = dst(r);
            // Each half reading a dword the other writes (the low half the destination's
            // high dword, the high half its low one) is left to the interpreter
            // (`cyclic_packed_f32_stays_exact`); the default selection never is.
            let reads = |sel: u32, dword: u32| {
                (0..n).any(|i| srcs[i] >= 256 && srcs[i] - 256 + (sel >> i & 1) == dword)
            };
            if reads(op_sel, d + 1) && reads(op_sel_hi, d) {
                (op_sel, op_sel_hi) = (0, (1 << n) - 1);
            }
            words.push(
                0x1a7 << 23 | op << 16 | (op_sel_hi >> 2) << 14 | op_sel << 11 | neg_hi << 8 | d,
            );
            words.push(srcs[0] | srcs[1] << 9 | srcs[2] << 18 | (op_sel_hi & 3) << 27 | neg << 29);
            name
        }
        0 => {
            // v_fmac_f64_e32 v[d:d+1], src0, v[s:s+1]
            let src0 = match r.next() % 5 {
                0 => 30,                       // s[30:31]
                1 => r.pick(&[242, 245, 128]), // 1.0, -2.0, 0
                2 => 255,                      // a literal: the high dword
                _ => vpair(r),
            };
            words.push(0x04 << 25 | dst(r) << 17 | r.pick(&PAIRS) << 9 | src0);
            if src0 == 255 {
                words.push(r.pick(&[0x4009_0000, 0xc000_0000, 0x7ff0_0000, 0x0000_0001]));
            }
            "v_fmac_f64_e32"
        }
        1 => {
            // v_fmac_f64_e64 with abs and neg on both sources.
            let (abs, neg) = ((r.next() % 4) as u32, (r.next() % 4) as u32);
            let src0 = match r.next() % 3 {
                0 => 30,
                1 => r.pick(&[242, 245]),
                _ => vpair(r),
            };
            words.push(0x34 << 26 | 0x104 << 16 | abs << 8 | dst(r));
            words.push(src0 | vpair(r) << 9 | neg << 29);
            "v_fmac_f64_e64"
        }
        _ => {
            // v_pk_mov_b32 v[d:d+1], src0, src1 op_sel:[a,b]
            let src = |r: &mut Rng| match r.next() % 4 {
                0 => 30,
                1 => r.pick(&[128, 193, 242]), // 0, -1, 1.0
                _ => vpair(r),
            };
            let op_sel = (r.next() % 4) as u32;
            words.push(0x1a7 << 23 | 0x33 << 16 | op_sel << 11 | dst(r));
            words.push(src(r) | src(r) << 9);
            "v_pk_mov_b32"
        }
    }
}

fn wave(r: &mut Rng, case: usize) -> Wave {
    let mut w0 = random_wave(r);
    // Default mode, or f64 denormals flushed / rounding toward zero (the guard's
    // interpreter), now and then.
    w0.mode = match case % 8 {
        6 => 0x0f0,
        7 => 0x2fc,
        _ => 0x2f0,
    };
    if case % 4 < 2 {
        w0.set_exec(u64::MAX);
    }
    let d = double(r);
    w0.s[30] = d as u32;
    w0.s[31] = (d >> 32) as u32;
    for l in 0..64 {
        for p in PAIRS {
            let v = match r.next() % 2 {
                0 => double(r),
                _ => u64::from(single(r)) | u64::from(single(r)) << 32,
            };
            w0.v[p as usize][l] = v as u32;
            w0.v[p as usize + 1][l] = (v >> 32) as u32;
        }
    }
    w0
}

#[test]
fn fmac_f64_and_packed_f32_match_the_interpreter() {
    let (seed, cases) = fuzz_params(0x90a_f64, 800);
    let mut r = Rng(seed);
    let isas = isas();
    for case in 0..cases {
        let mut words = Vec::new();
        let names: Vec<_> = (0..1 + case % 3)
            .map(|_| instruction(&mut r, &mut words))
            .collect();
        let prog = program(&words);
        for (k, name) in names.iter().enumerate() {
            let text = prog.text(k as u32);
            assert!(text.starts_with(name), "case {case}: {text}");
        }
        let w0 = wave(&mut r, case);
        let mut a = w0.clone();
        let ra = run_engine(&prog, &mut a, None);
        for &isa in &isas {
            let jit = JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
            assert_eq!(
                jit.native,
                jit.reachable,
                "case {case} {isa:?}: every step translated: {:?}",
                (0..names.len() as u32)
                    .map(|k| prog.text(k))
                    .collect::<Vec<_>>()
            );
            let mut b = w0.clone();
            let rb = run_engine(&prog, &mut b, Some(&jit));
            assert_same_end(&format!("case {case} {isa:?}"), &prog, (&ra, &a), (&rb, &b));
        }
    }
}

/// A packed f32 op whose halves each read the dword the other writes (`v_pk_mul_f32 v[24:25],
/// v[24:25], v[24:25] op_sel:[0,1] op_sel_hi:[0,0]`: the low half reads v25, the high half
/// v24) runs in the interpreter, with the same results.
#[test]
fn cyclic_packed_f32_stays_exact() {
    let prog = program(&[0x1a7 << 23 | 0x31 << 16 | 0b10 << 11 | 24, 280 | 280 << 9]);
    assert!(
        prog.text(0)
            .starts_with("v_pk_mul_f32 v[24:25], v[24:25], v[24:25] op_sel:[0,1]"),
        "{}",
        prog.text(0)
    );
    let mut r = Rng(0xc1c);
    for case in 0..8 {
        let w0 = wave(&mut r, case);
        let mut a = w0.clone();
        let ra = run_engine(&prog, &mut a, None);
        for &isa in &isas() {
            let jit = JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
            assert_eq!(jit.native + 1, jit.reachable, "{isa:?}: the op left out");
            let mut b = w0.clone();
            let rb = run_engine(&prog, &mut b, Some(&jit));
            assert_same_end(&format!("case {case} {isa:?}"), &prog, (&ra, &a), (&rb, &b));
        }
    }
}
