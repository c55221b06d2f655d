//! `v_exp_f32` and `v_log_f32` (`lane_explog.rs`) against the interpreter: every exponent,
//! the edges of both ranges (exp's overflow and underflow, denormal results; log's zeros,
//! denormals, 1 and its neighbours, powers of two), infinities, signaling and quiet NaNs,
//! negatives; lanes next to a rounding turning point (the interpreter's path); and, ignored
//! by default, every f32 bit pattern.

use super::tests::{fuzz_params, isas, random_wave, run_engine, Rng};
use super::tests_div::compare;
use super::JitCode;
use crate::program::Program;
use crate::wave::Wave;

const V_EXP: u32 = 0x20;
const V_LOG: u32 = 0x21;

/// VOP1 `op vdst, src0` (src0 an operand code).
fn vop1(op: u32, vdst: u32, src0: u32) -> u32 {
    0x3f << 25 | vdst << 17 | op << 9 | src0
}

fn program(words: &[u32]) -> Program {
    let mut w = words.to_vec();
    w.push(0xbf81_0000); // s_endpgm
    let bytes: Vec<u8> = w.iter().flat_map(|d| d.to_le_bytes()).collect();
    Program::new(&bytes, 0x1000)
}

/// Whether the f64 value of op at `x` (the host's, as the interpreter computes it) is within
/// 300 f64 ulps of a point where rounding to f32 turns: the lowering's check sends such a
/// lane to the interpreter.
fn near_turning_point(log: bool, x: f32) -> bool {
    let v = if log {
        (x as f64).log2()
    } else {
        (x as f64).exp2()
    };
    if !v.is_finite() || v == 0.0 {
        return false;
    }
    let b = v.to_bits();
    f64::from_bits(b - 300) as f32 != f64::from_bits(b + 300) as f32
}

/// Inputs whose results lie next to a turning point, found by a scan from `start`.
fn turning_inputs(log: bool, start: u32, n: usize) -> Vec<u32> {
    (start..)
        .filter(|&b| near_turning_point(log, f32::from_bits(b)))
        .take(n)
        .collect()
}

/// A lane's input: mostly ordinary for the op, otherwise an edge or a special value.
fn operand(r: &mut Rng, log: bool) -> u32 {
    let bits = r.next() as u32;
    match r.next() % 8 {
        0 => r.pick(&[
            0,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7f80_0001, // signaling NaN
            0xffc1_2345,
            1,           // the least denormal
            0x007f_ffff, // the largest denormal
            0x0080_0000,
            0x3f80_0000, // 1
            0x3f7f_ffff,
            0x3f80_0001,
            0x4300_0000, // 128
            0x42ff_ffff,
            0xc315_0000, // -149
            0xc316_0000, // -150
            0xc2fc_0000, // -126
            0x4f00_0000,
        ]),
        1 => bits,
        2 => (bits & 0x807f_ffff) | (r.next() as u32 % 256) << 23,
        _ if log => bits & 0x7fff_ffff,
        // exp: |x| below 256, mostly.
        _ => (bits & 0x807f_ffff) | (100 + r.next() as u32 % 36) << 23,
    }
}

/// Random waves, VGPR and SGPR and constant sources, the destination its own source now
/// and then, under full and partial EXEC; a quarter of the cases with a lane next to a
/// turning point.
#[test]
fn exp_log_match_the_interpreter() {
    if !super::host_supported() {
        return;
    }
    let (seed, cases) = fuzz_params(0xe4_9106, 200);
    let mut r = Rng(seed);
    let turning = [
        turning_inputs(false, 0x3f12_3456, 3),
        turning_inputs(true, 0x4012_3456, 3),
    ];
    for case in 0..cases {
        let log = case % 2 == 1;
        let op = if log { V_LOG } else { V_EXP };
        let src = match r.next() % 6 {
            0 => 30,                                  // s30
            1 => r.pick(&[240, 242, 243, 128, 0xc1]), // 0.5, 1.0, -1.0, 0, -1
            _ => 256 + 20,                            // v20
        };
        let dst = r.pick(&[8, 20]);
        let prog = program(&[vop1(op, dst, src)]);
        let text = prog.text(0);
        let name = if log { "v_log_f32" } else { "v_exp_f32" };
        assert!(text.starts_with(name), "{text}");
        let mut w0 = random_wave(&mut r);
        if !case.is_multiple_of(8) {
            w0.mode = 0x2f0;
        }
        if case % 4 < 2 {
            w0.set_exec(u64::MAX);
        }
        for l in 0..64 {
            w0.v[20][l] = operand(&mut r, log);
        }
        if case % 8 >= 6 {
            let l = (r.next() % 64) as usize;
            w0.v[20][l] = r.pick(&turning[usize::from(log)]);
        }
        w0.s[30] = operand(&mut r, log);
        compare(&prog, &w0, case);
    }
}

/// Every f32 bit pattern through `v_exp_f32` and `v_log_f32` under both engines (64
/// instructions of 64 lanes per run; all threads of the host): 13 s on the 16-core machine,
/// about 1.5 minutes on 2 cores. `cargo test --release -p softhsa-gpu every_input --
/// --ignored`.
#[test]
#[ignore]
fn exp_log_match_the_interpreter_on_every_input() {
    if !super::host_supported() {
        return;
    }
    for op in [V_EXP, V_LOG] {
        let words: Vec<u32> = (0..64).map(|j| vop1(op, 100 + j, 256 + j)).collect();
        let prog = program(&words);
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        let runs = 1u64 << 20; // 4,096 inputs each
        std::thread::scope(|s| {
            for t in 0..threads as u64 {
                let prog = &prog;
                s.spawn(move || {
                    let jits: Vec<JitCode> = isas()
                        .into_iter()
                        .map(|isa| JitCode::compile(prog, 0, false, false, isa).expect("compiles"))
                        .collect();
                    let mut w0 = Wave::new();
                    w0.mode = 0x2f0;
                    w0.set_exec(u64::MAX);
                    let mut run = t;
                    while run < runs {
                        for j in 0..64 {
                            for l in 0..64 {
                                w0.v[j][l] = (run << 12 | (j as u64) << 6 | l as u64) as u32;
                            }
                        }
                        let mut a = w0.clone();
                        run_engine(prog, &mut a, None).expect("runs");
                        for jit in &jits {
                            let mut b = w0.clone();
                            run_engine(prog, &mut b, Some(jit)).expect("runs");
                            for j in 100..164 {
                                for l in 0..64 {
                                    assert_eq!(
                                        a.v[j][l],
                                        b.v[j][l],
                                        "op {op:#x} input {:#010x}",
                                        w0.v[j - 100][l]
                                    );
                                }
                            }
                        }
                        run += threads as u64;
                    }
                });
            }
        });
    }
}
