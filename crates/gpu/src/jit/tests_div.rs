//! The f32 division steps (`lane_div.rs`) against the interpreter: LLVM's whole division
//! sequence and the steps alone, on data that is mostly ordinary (their fast path) with lanes
//! at and just past each edge of it (exponents 0/1, 23/24, 252/253, 254/255, gaps 95/96,
//! -125/-126, -151/-152; zeros, infinities, NaNs), under full and partial EXEC, with VGPR,
//! SGPR and constant operands and flags in VCC or an SGPR pair.

use super::tests::{assert_same_end, fuzz_params, isas, random_wave, run_engine, Rng};
use super::JitCode;
use crate::program::Program;
use crate::wave::Wave;

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
/// 256 (only in lane `only`, if given), an edge of one of them or of the gap between them.
fn operands(r: &mut Rng, rare: u64, only: Option<usize>) -> ([u32; 64], [u32; 64]) {
    let (mut num, mut den) = ([0; 64], [0; 64]);
    for l in 0..64 {
        let e = 100 + (r.next() % 51) as u32;
        num[l] = with_exp(r, e);
        let e = 100 + (r.next() % 51) as u32;
        den[l] = with_exp(r, e);
        let pick = r.next() % 256 < rare;
        if only.map_or(pick, |o| o == l) {
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

/// `code` and an `s_endpgm`, checked to decode as `names` say.
fn program(code: &[u32], names: &[&str]) -> Program {
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
    prog
}

/// A random wave: most cases in the float mode kernels use (the blocks' guard; random_wave
/// sometimes flushes denormals, which leaves the whole block to the interpreter), every
/// other one with all lanes active.
fn start_wave(r: &mut Rng, case: usize) -> Wave {
    let mut w0 = random_wave(r);
    if !case.is_multiple_of(8) {
        w0.mode = 0x2f0;
    }
    if case.is_multiple_of(2) {
        w0.set_exec(u64::MAX);
    }
    w0
}

/// Runs `prog` from `w0` under the interpreter and the JIT on each ISA (every instruction
/// translated) and asserts they end alike.
pub(super) fn compare(prog: &Program, w0: &Wave, case: usize) {
    let mut a = w0.clone();
    let ra = run_engine(prog, &mut a, None);
    for isa in isas() {
        let jit = JitCode::compile(prog, 0, false, false, isa).expect("compiles");
        assert_eq!(jit.native, jit.reachable, "every step translated");
        let mut b = w0.clone();
        let rb = run_engine(prog, &mut b, Some(&jit));
        assert_same_end(&format!("case {case} {isa:?}"), prog, (&ra, &a), (&rb, &b));
    }
}

/// Runs `code` (an `s_endpgm` appended) from a random wave whose VGPRs 20 and 21 hold `num`
/// and `den` (and VGPR 22 a quotient estimate), under the interpreter and the JIT on each ISA,
/// and asserts they end alike.
fn check(r: &mut Rng, case: usize, code: &[u32], rare: u64, names: &[&str]) {
    let prog = program(code, names);
    let mut w0 = start_wave(r, case);
    // One case in four with rare edges: exactly one edge lane (see `check64`).
    let only = (rare > 0 && case % 8 >= 6).then(|| (r.next() % 64) as usize);
    let (num, den) = operands(r, rare, only);
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
    compare(&prog, &w0, case);
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

const DIV_SCALE_64: u32 = 0x1e1;
const DIV_FMAS_64: u32 = 0x1e3;
const DIV_FIXUP_64: u32 = 0x1df;
const FMA_64: u32 = 0x1cc;
const MUL_64: u32 = 0x281;

/// An f64 with biased exponent `e`: (low dword, high dword).
fn with_exp64(r: &mut Rng, e: u32) -> (u32, u32) {
    let hi = (r.next() as u32 & 0x8000_0000) | (e & 0x7ff) << 20 | (r.next() as u32 & 0xf_ffff);
    (r.next() as u32, hi)
}

/// An f64 at or next to an edge of the f64 steps' ordinary range (or a zero, infinity, NaN).
fn edge64(r: &mut Rng) -> (u32, u32) {
    match r.next() % 4 {
        0 => r.pick(&[
            (0, 0),
            (0, 0x8000_0000),
            (0, 0x7ff0_0000),
            (0, 0xfff0_0000),
            (0, 0x7ff8_0000),
            (1, 0x7ff0_0000),
            (1, 0),
        ]),
        _ => {
            let e = r.pick(&[
                0, 1, 2, 53, 54, 55, 1022, 1023, 1024, 2043, 2044, 2045, 2046, 2047,
            ]);
            with_exp64(r, e)
        }
    }
}

/// Runs `code` like [`check`], with f64 operands: numerators in v[20:21], denominators in
/// v[22:23] (ordinary exponents 900-1150, or with `rare` odds in 256 an edge of one of them
/// or of the gap between them), an estimate near the quotient in v[24:25].
fn check64(r: &mut Rng, case: usize, code: &[u32], rare: u64, names: &[&str]) {
    let prog = program(code, names);
    let mut w0 = start_wave(r, case);
    let f = |(lo, hi): (u32, u32)| f64::from_bits(u64::from(hi) << 32 | u64::from(lo));
    // One case in four with rare edges: exactly one edge lane, so that a wrong check of one
    // edge is not hidden by another lane sending the wave to the interpreter.
    let only = (rare > 0 && case % 8 >= 6).then(|| (r.next() % 64) as usize);
    for l in 0..64 {
        let e = 900 + (r.next() % 251) as u32;
        let mut num = with_exp64(r, e);
        let e = 900 + (r.next() % 251) as u32;
        let mut den = with_exp64(r, e);
        let pick = r.next() % 256 < rare;
        if only.map_or(pick, |o| o == l) {
            match r.next() % 3 {
                0 => num = edge64(r),
                1 => den = edge64(r),
                _ => {
                    let gap = r.pick(&[766i32, 767, 768, -1020, -1021, -1022, -1075, -1076, -1077]);
                    let e1 = match gap > 0 {
                        true => 100 + (r.next() % 900) as i32,
                        false => 1100 + (r.next() % 900) as i32,
                    };
                    den = with_exp64(r, e1 as u32);
                    num = with_exp64(r, (e1 + gap).clamp(0, 2047) as u32);
                }
            }
        }
        let q = match r.next() % 16 {
            0 => edge64(r),
            _ => {
                let b = (f(num) / f(den)).to_bits() ^ (r.next() & 3);
                (b as u32, (b >> 32) as u32)
            }
        };
        for (reg, (lo, hi)) in [(20, num), (22, den), (24, q)] {
            w0.v[reg][l] = lo;
            w0.v[reg + 1][l] = hi;
        }
    }
    for s in [30, 32] {
        let e = 900 + (r.next() % 251) as u32;
        let (lo, hi) = if r.next().is_multiple_of(4) {
            edge64(r)
        } else {
            with_exp64(r, e)
        };
        w0.s[s] = lo;
        w0.s[s + 1] = hi;
    }
    compare(&prog, &w0, case);
}

/// The f64 steps in the order LLVM's f64 division runs them (its v_rcp_f64 replaced by an
/// fma, which the JIT translates: the values need not be a quotient for the comparison),
/// and each step alone with VGPR pairs, SGPR pairs (s[30:31], s[32:33]) and constants.
#[test]
fn f64_division_steps_match_the_interpreter() {
    if !super::host_supported() {
        return;
    }
    let (seed, cases) = fuzz_params(0x64_d1f, 900);
    let mut r = Rng(seed);
    for case in 0..cases {
        let rare = if case % 4 < 2 { 0 } else { 16 };
        if case % 2 == 0 {
            let pair = r.pick(&[VCC, 4]);
            let code = [
                vop3(DIV_SCALE_64, pair, 2),
                srcs(v(22), v(22), v(20)), // v[2:3] = scale(den, den, num)
                vop3(FMA_64, 0, 4),
                srcs(v(2), v(24), 242) | 1 << 29, // v[4:5] = fma(-v[2:3], q, 1.0)
                vop3(DIV_SCALE_64, VCC, 6),
                srcs(v(20), v(22), v(20)), // v[6:7] = scale(num, den, num), flags in VCC
                vop3(MUL_64, 0, 8),
                srcs(v(6), v(4), 0), // v[8:9] = v[6:7] * v[4:5]
                vop3(FMA_64, 0, 10),
                srcs(v(2), v(8), v(6)) | 1 << 29, // v[10:11] = fma(-v[2:3], v[8:9], v[6:7])
                vop3(DIV_FMAS_64, 0, 10),
                srcs(v(10), v(4), v(8)), // v[10:11] = fmas(v[10:11], v[4:5], v[8:9])
                vop3(DIV_FIXUP_64, 0, 12),
                srcs(v(10), v(22), v(20)), // v[12:13] = fixup(v[10:11], den, num)
            ];
            let names = [
                "v_div_scale_f64",
                "v_fma_f64",
                "v_div_scale_f64",
                "v_mul_f64",
                "v_fma_f64",
                "v_div_fmas_f64",
                "v_div_fixup_f64",
            ];
            check64(&mut r, case, &code, rare, &names);
            continue;
        }
        let opd = |r: &mut Rng, vgpr: u32| match r.next() % 6 {
            0 => r.pick(&[30, 32]),
            1 => r.pick(&[242, 244, 128, 247]),
            _ => v(vgpr),
        };
        let (op, name, pair) = match case / 2 % 3 {
            0 => (DIV_SCALE_64, "v_div_scale_f64", r.pick(&[VCC, 6])),
            1 => (DIV_FMAS_64, "v_div_fmas_f64", 0),
            _ => (DIV_FIXUP_64, "v_div_fixup_f64", 0),
        };
        let s0 = match op {
            DIV_SCALE_64 => {
                let x = r.pick(&[20, 22]);
                opd(&mut r, x)
            }
            _ => opd(&mut r, 24),
        };
        let (s1, s2) = (opd(&mut r, 22), opd(&mut r, 20));
        let mut code = vec![];
        let mut names = vec![];
        if op == DIV_FMAS_64 && r.next().is_multiple_of(2) {
            code.push(0xbeea_0180); // s_mov_b64 vcc, 0
            names.push("s_mov_b64");
        }
        let dst = r.pick(&[8, 20, 24, 23]);
        code.extend([vop3(op, pair, dst), srcs(s0, s1, s2)]);
        names.push(name);
        check64(&mut r, case, &code, rare, &names);
    }
}

/// `v_ldexp_f32` against the interpreter: normal operands scaled inside and just past the
/// normal range (results with exponents 0, 1, 254, 255), zeros, infinities, signaling and
/// quiet NaNs, denormals; scales small, at ±253/254 and huge; from VGPRs, SGPRs and
/// constants; one odd lane only in a quarter of the cases.
#[test]
fn ldexp_matches_the_interpreter() {
    if !super::host_supported() {
        return;
    }
    let (seed, cases) = fuzz_params(0x1d_e8f, 600);
    let mut r = Rng(seed);
    for case in 0..cases {
        let opd = |r: &mut Rng, vgpr: u32, s: u32| match r.next() % 6 {
            0 => s,
            1 => r.pick(&[242, 128 + 3, 193]), // 1.0 (as bits), 3, -1
            _ => v(vgpr),
        };
        let (s0, s1) = (opd(&mut r, 20, 30), opd(&mut r, 21, 31));
        let dst = r.pick(&[8, 20, 21]);
        let prog = program(&[vop3(0x288, 0, dst), srcs(s0, s1, 0)], &["v_ldexp_f32"]);
        let mut w0 = start_wave(&mut r, case);
        let odd = case % 4;
        let only = (odd == 3).then(|| (r.next() % 64) as usize);
        for l in 0..64 {
            let e = 60 + (r.next() % 130) as u32;
            let mut x = with_exp(&mut r, e);
            let mut n = (r.next() % 101) as i32 - 50;
            if odd > 0 && only.map_or(r.next().is_multiple_of(8), |o| o == l) {
                match r.next() % 3 {
                    0 => x = edge(&mut r),
                    1 => {
                        n = r.pick(&[
                            253,
                            254,
                            -253,
                            -254,
                            1 << 20,
                            -(1 << 20),
                            i32::MIN,
                            i32::MAX,
                        ])
                    }
                    _ => {
                        // The result's exponent at an edge of the normal range.
                        let want = r.pick(&[0i32, 1, 2, 253, 254, 255]);
                        n = want - e as i32;
                    }
                }
            }
            w0.v[20][l] = x;
            w0.v[21][l] = n as u32;
        }
        w0.s[30] = with_exp(&mut r, 127);
        w0.s[31] = r.pick(&[0u32, 5, -7i32 as u32, 300]);
        compare(&prog, &w0, case);
    }
}

/// `v_ldexp_f64` against the interpreter: normal operands scaled inside and just past the
/// normal range (results with exponents 0, 1, 2046, 2047), zeros, infinities, signaling NaNs
/// (one with only low mantissa bits set) and quiet ones, denormals; scales small, at ±2045
/// and huge; operands from VGPR pairs, SGPR pairs and constants; one odd lane only in a
/// quarter of the cases.
#[test]
fn ldexp64_matches_the_interpreter() {
    if !super::host_supported() {
        return;
    }
    let (seed, cases) = fuzz_params(0x1d_e64, 600);
    let mut r = Rng(seed);
    for case in 0..cases {
        let s0 = match r.next() % 6 {
            0 => 30,
            1 => r.pick(&[242, 128 + 3, 193]), // 1.0, 3, -1 (as f64 constants)
            _ => v(20),
        };
        let s1 = match r.next() % 6 {
            0 => 32,
            1 => r.pick(&[128 + 3, 193]),
            _ => v(22),
        };
        // (19: the destination's high dword is the source's low one.)
        let dst = r.pick(&[8, 19, 20, 21, 22]);
        let prog = program(&[vop3(0x284, 0, dst), srcs(s0, s1, 0)], &["v_ldexp_f64"]);
        let mut w0 = start_wave(&mut r, case);
        let odd = case % 4;
        let only = (odd == 3).then(|| (r.next() % 64) as usize);
        for l in 0..64 {
            let e = 500 + (r.next() % 1000) as u32;
            let mut x = with_exp64(&mut r, e);
            let mut n = (r.next() % 401) as i32 - 200;
            if odd > 0 && only.map_or(r.next().is_multiple_of(8), |o| o == l) {
                match r.next() % 3 {
                    0 => {
                        x = r.pick(&[
                            (0, 0),
                            (0, 0x8000_0000),
                            (0, 0x7ff0_0000),
                            (0, 0xfff0_0000),
                            (0, 0x7ff8_0000),
                            (1, 0x7ff0_0000),
                            (0, 0xfff4_0000),
                            (7, 0x0000_0000),
                            (0, 0x0008_0000),
                            (0, 0x8000_0001),
                        ])
                    }
                    1 => {
                        n = r.pick(&[
                            2045,
                            2046,
                            -2045,
                            -2046,
                            1 << 20,
                            -(1 << 20),
                            i32::MIN,
                            i32::MAX,
                        ])
                    }
                    _ => {
                        // The result's exponent at an edge of the normal range.
                        let want = r.pick(&[0i32, 1, 2, 2045, 2046, 2047]);
                        n = want - e as i32;
                    }
                }
            }
            (w0.v[20][l], w0.v[21][l]) = x;
            w0.v[22][l] = n as u32;
        }
        (w0.s[30], w0.s[31]) = with_exp64(&mut r, 1023);
        w0.s[32] = r.pick(&[0u32, 5, -7i32 as u32, 3000]);
        compare(&prog, &w0, case);
    }
}

/// `v_frexp_mant` and `v_frexp_exp_i32`, f32 and f64, against the interpreter: normal
/// operands of every exponent, zeros, infinities, signaling and quiet NaNs (f64: one with
/// only low mantissa bits set), denormals (one odd lane only in a quarter of the cases);
/// from VGPRs, SGPRs and constants, VOP1 and VOP3.
#[test]
fn frexp_matches_the_interpreter() {
    if !super::host_supported() {
        return;
    }
    let (seed, cases) = fuzz_params(0xf_e4e9, 400);
    let mut r = Rng(seed);
    // (VOP1 opcode, f64, name)
    let ops = [
        (0x33u32, false, "v_frexp_exp_i32_f32"),
        (0x34, false, "v_frexp_mant_f32"),
        (0x30, true, "v_frexp_exp_i32_f64"),
        (0x31, true, "v_frexp_mant_f64"),
    ];
    for case in 0..cases {
        let (op, wide, name) = ops[case % 4];
        let s0 = match r.next() % 6 {
            0 => 30,
            1 => r.pick(&[242, 128 + 3, 193, 128]), // 1.0, 3, -1, 0
            _ => v(20),
        };
        let dst = r.pick(&[8, 20, 21]);
        // VOP3 with abs (word 0 bit 8) and neg (word 1 bit 29) now and then.
        let (abs, neg) = (r.next() as u32 % 4 / 3, r.next() as u32 % 4 / 3);
        let words: &[u32] = if r.next().is_multiple_of(2) {
            &[0x3f << 25 | dst << 17 | op << 9 | s0]
        } else {
            &[vop3(0x140 + op, abs, dst), s0 | neg << 29]
        };
        let prog = program(words, &[name]);
        let mut w0 = start_wave(&mut r, case);
        let odd = case / 4 % 4;
        let only = (odd == 3).then(|| (r.next() % 64) as usize);
        for l in 0..64 {
            let special = odd > 0 && only.map_or(r.next().is_multiple_of(8), |o| o == l);
            let e = r.next() as u32;
            let (lo, hi) = match (wide, special) {
                (false, false) => (with_exp(&mut r, 1 + e % 254), 0),
                (false, true) => (edge(&mut r), 0),
                (true, false) => with_exp64(&mut r, 1 + e % 2046),
                (true, true) => match r.next() % 2 {
                    0 => edge64(&mut r),
                    _ => r.pick(&[(1, 0x7ff0_0000), (0, 0xfff4_0000), (3, 0), (0, 0x8008_0000)]),
                },
            };
            w0.v[20][l] = lo;
            w0.v[21][l] = hi;
        }
        (w0.s[30], w0.s[31]) = with_exp64(&mut r, 1000);
        if !wide {
            w0.s[30] = with_exp(&mut r, 100);
        }
        compare(&prog, &w0, case);
    }
}
