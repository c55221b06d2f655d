//! The f32 division steps (`lane_div.rs`) against the interpreter: LLVM's whole division
//! sequence and the steps alone, on data that is mostly ordinary (their fast path) with lanes
//! at and just past each edge of it (exponents 0/1, 23/24, 252/253, 254/255, gaps 95/96,
//! -125/-126, -151/-152; zeros, infinities, NaNs), under full and partial EXEC, with VGPR,
//! SGPR and constant operands and flags in VCC or an SGPR pair.

use super::tests::{assert_same_end, fuzz_params, isas, random_wave, run_engine, Rng};
use super::JitCode;
use crate::program::Program;

/// VOP3 word 0: opcode `op`, `sdst` (VOP3b) and `vdst`.
fn vop3(op: u32, sdst: u32, vdst: u32) -> u32 {
    0x34 << 26 | op << 16 | sdst << 8 | vdst
}

/// VOP3 word 1: three source operand codes.
fn srcs(s0: u32, s1: u32, s2: u32) -> u32 {
    s0 | s1 << 9 | s2 << 18
}

const VCC: u32 = 106;
const fn v(n: u32) -> u32 {
    256 + n
}
const DIV_SCALE: u32 = 0x1e0;
const DIV_FMAS: u32 = 0x1e2;
const DIV_FIXUP: u32 = 0x1de;
const FMA: u32 = 0x1cb;

/// An f32 with biased exponent `e`, a random sign and mantissa.
fn with_exp(r: &mut Rng, e: u32) -> u32 {
    (r.next() as u32 & 0x8000_0000) | (e & 0xff) << 23 | (r.next() as u32 & 0x7f_ffff)
}

/// A value whose exponent sits at or next to an edge of the division's ordinary range, or
/// a zero, an infinity, a NaN.
fn edge(r: &mut Rng) -> u32 {
    match r.next() % 4 {
        0 => r.pick(&[
            0,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7f80_0001,
        ]),
        _ => {
            let e = r.pick(&[0, 1, 2, 23, 24, 25, 126, 127, 128, 251, 252, 253, 254, 255]);
            with_exp(r, e)
        }
    }
}

/// Numerator and denominator lanes: ordinary (exponents 100-150), or with `rare` odds in
/// 256, an edge of one of them or of the gap between them.
fn operands(r: &mut Rng, rare: u64) -> ([u32; 64], [u32; 64]) {
    let (mut num, mut den) = ([0; 64], [0; 64]);
    for l in 0..64 {
        let e = 100 + (r.next() % 51) as u32;
        num[l] = with_exp(r, e);
        let e = 100 + (r.next() % 51) as u32;
        den[l] = with_exp(r, e);
        if r.next() % 256 < rare {
            match r.next() % 3 {
                0 => num[l] = edge(r),
                1 => den[l] = edge(r),
                _ => {
                    // e2 - e1 at an edge of the gap checks.
                    let gap = r.pick(&[95i32, 96, 97, -124, -125, -126, -151, -152]);
                    let e1 = match gap > 0 {
                        true => 30 + (r.next() % 100) as i32,
                        false => 160 + (r.next() % 80) as i32,
                    };
                    den[l] = with_exp(r, e1 as u32);
                    num[l] = with_exp(r, (e1 + gap) as u32);
                }
            }
        }
    }
    (num, den)
}

/// Runs `code` (an `s_endpgm` appended) from a random wave whose VGPRs 20 and 21 hold `num`
/// and `den` (and VGPR 22 a quotient estimate), under the interpreter and the JIT on each ISA,
/// and asserts they end alike.
fn check(r: &mut Rng, case: usize, code: &[u32], rare: u64, names: &[&str]) {
    let mut words = code.to_vec();
    words.push(0xbf81_0000); // s_endpgm
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let prog = Program::new(&bytes, 0x1000);
    for (k, name) in names.iter().enumerate() {
        let text = prog.text(k as u32);
        assert!(
            text.starts_with(name),
            "instruction {k}: {text}, not {name}"
        );
    }
    let mut w0 = random_wave(r);
    // Most cases run in the float mode kernels use (the blocks' guard); random_wave sometimes
    // flushes denormals, which leaves the whole block to the interpreter.
    if !case.is_multiple_of(8) {
        w0.mode = 0x2f0;
    }
    if case.is_multiple_of(2) {
        w0.set_exec(u64::MAX);
    }
    let (num, den) = operands(r, rare);
    w0.v[20] = num;
    w0.v[21] = den;
    for l in 0..64 {
        // An estimate near the quotient, or now and then an edge value.
        let q = f32::from_bits(num[l]) / f32::from_bits(den[l]);
        w0.v[22][l] = match r.next() % 16 {
            0 => edge(r),
            _ => q.to_bits() ^ (r.next() as u32 & 3),
        };
    }
    // Uniform operands: an ordinary value, now and then an edge.
    for s in [30, 31] {
        w0.s[s] = match r.next() % 4 {
            0 => edge(r),
            _ => {
                let e = 100 + (r.next() % 51) as u32;
                with_exp(r, e)
            }
        };
    }
    let mut a = w0.clone();
    let ra = run_engine(&prog, &mut a, None);
    for isa in isas() {
        let jit = JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
        assert_eq!(jit.native, jit.reachable, "every step translated");
        let mut b = w0.clone();
        let rb = run_engine(&prog, &mut b, Some(&jit));
        assert_same_end(&format!("case {case} {isa:?}"), &prog, (&ra, &a), (&rb, &b));
    }
}

/// LLVM's f32 division, as clang emits it for `a / b` (the flags of the denominator's
/// scaling in an SGPR pair or VCC), on mostly ordinary data with a few edge lanes.
#[test]
fn division_sequences_match_the_interpreter() {
    if !super::host_supported() {
        return;
    }
    let (seed, cases) = fuzz_params(0x51_d1ff, 600);
    let mut r = Rng(seed);
    for case in 0..cases {
        let pair = r.pick(&[VCC, 4, 10]);
        let code = [
            vop3(DIV_SCALE, pair, 1),
            srcs(v(21), v(21), v(20)), // v1 = scale(den, den, num)
            vop3(DIV_SCALE, VCC, 2),
            srcs(v(20), v(21), v(20)), // v2 = scale(num, den, num), flags in VCC
            0x7e06_4501,               // v_rcp_f32 v3, v1
            vop3(FMA, 0, 4),
            srcs(v(1), v(3), 242) | 1 << 29, // v4 = fma(-v1, v3, 1.0)
            vop3(FMA, 0, 3),
            srcs(v(4), v(3), v(3)), // v3 = fma(v4, v3, v3)
            0x0a0a_0702,            // v_mul_f32 v5, v2, v3
            vop3(FMA, 0, 6),
            srcs(v(1), v(5), v(2)) | 1 << 29, // v6 = fma(-v1, v5, v2)
            vop3(FMA, 0, 5),
            srcs(v(6), v(3), v(5)), // v5 = fma(v6, v3, v5)
            vop3(FMA, 0, 1),
            srcs(v(1), v(5), v(2)) | 1 << 29, // v1 = fma(-v1, v5, v2)
            vop3(DIV_FMAS, 0, 1),
            srcs(v(1), v(3), v(5)), // v1 = fmas(v1, v3, v5)
            vop3(DIV_FIXUP, 0, 7),
            srcs(v(1), v(21), v(20)), // v7 = fixup(v1, den, num)
        ];
        let names = [
            "v_div_scale_f32",
            "v_div_scale_f32",
            "v_rcp_f32",
            "v_fma_f32",
            "v_fma_f32",
            "v_mul_f32",
            "v_fma_f32",
            "v_fma_f32",
            "v_fma_f32",
            "v_div_fmas_f32",
            "v_div_fixup_f32",
        ];
        // Half the cases ordinary in every lane, the rest with about one edge lane in 16.
        let rare = if case % 4 < 2 { 0 } else { 16 };
        check(&mut r, case, &code, rare, &names);
    }
}

/// Each step alone with random operand kinds (VGPRs, the SGPRs s30/s31, inline constants)
/// and a random VCC before `v_div_fmas_f32` (set lanes go to the interpreter).
#[test]
fn division_steps_match_the_interpreter() {
    if !super::host_supported() {
        return;
    }
    let (seed, cases) = fuzz_params(0xd1_5c0e, 900);
    let mut r = Rng(seed);
    for case in 0..cases {
        let opd = |r: &mut Rng, vgpr: u32| match r.next() % 6 {
            0 => r.pick(&[30, 31]),
            1 => r.pick(&[242, 244, 128, 247]), // 1.0, 2.0, 0, -4.0
            _ => v(vgpr),
        };
        let (op, name, pair) = match case % 3 {
            0 => (DIV_SCALE, "v_div_scale_f32", r.pick(&[VCC, 6])),
            1 => (DIV_FMAS, "v_div_fmas_f32", 0),
            _ => (DIV_FIXUP, "v_div_fixup_f32", 0),
        };
        // (num, den) as the steps read them: scale(x, den, num), fixup(q, den, num).
        let s0 = match op {
            DIV_SCALE => {
                let x = r.pick(&[20, 21]);
                opd(&mut r, x)
            }
            _ => opd(&mut r, 22),
        };
        let (s1, s2) = (opd(&mut r, 21), opd(&mut r, 20));
        let mut code = vec![];
        let mut names = vec![];
        if op == DIV_FMAS && r.next().is_multiple_of(2) {
            // VCC clear first (as the numerator's div_scale leaves it for ordinary lanes).
            code.push(0xbeea_0180); // s_mov_b64 vcc, 0
            names.push("s_mov_b64");
        }
        let dst = r.pick(&[8, 20, 22]);
        code.extend([vop3(op, pair, dst), srcs(s0, s1, s2)]);
        names.push(name);
        let rare = r.pick(&[0, 0, 8, 64]);
        check(&mut r, case, &code, rare, &names);
    }
}
