//! f32 segments against the interpreter: runs of adds, subtractions, multiplies and fmas (which
//! chunks run without NaN tests, `nan_defer.rs`) among compares, selects, carries, min/max
//! and fma, over registers full of infinities, quiet and signaling NaNs, zeros and
//! denormals, so that chunks raise the invalid-operation flag and run again.

use super::tests::{compiled_matches_interpreter, fuzz_params, random_code, Rng};
use crate::program::Program;

/// A VGPR source (v0-v11: more than AVX2 has homes for, so that some results go to memory
/// mid-chunk) or, now and then, an SGPR, an inline constant or a literal.
fn fsrc(r: &mut Rng) -> u32 {
    match r.next() % 10 {
        0..=6 => 256 + (r.next() % 12) as u32,
        7 => (r.next() % 8) as u32,
        8 => r.pick(&[240, 242, 243, 244, 128]), // 0.5, 1.0, -1.0, 2.0, 0
        _ => 255,                                // the literal
    }
}

/// One instruction (and a literal word): mostly f32 add/sub/subrev/mul, VOP2 and VOP3 with
/// abs/neg, among the other lane ops a float segment holds.
fn float_inst(r: &mut Rng) -> [u32; 2] {
    let vdst = (r.next() % 12) as u32;
    let vsrc1 = (r.next() % 12) as u32;
    let lit = r.pick(&[
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_1234,
        0x7f80_0001,
        0x0000_0001,
        0x3f80_0000,
    ]);
    let vop2 = |op: u32, src0: u32| [op << 25 | vdst << 17 | vsrc1 << 9 | src0, lit];
    match r.next() % 16 {
        // v_add/sub/subrev/mul_f32 (VOP2 1, 2, 3, 5)
        0..=7 => vop2(r.pick(&[1, 2, 3, 5]), fsrc(r)),
        // VOP3 forms with source modifiers: abs [10:8], neg [31:29]
        8..=9 => {
            let op = 0x100 + r.pick(&[1u32, 2, 3, 5]);
            let (abs, neg) = ((r.next() % 4) as u32, (r.next() % 4) as u32);
            let s0 = 256 + (r.next() % 12) as u32;
            let s1 = 256 + (r.next() % 12) as u32;
            [
                0x34 << 26 | op << 16 | abs << 8 | vdst,
                s0 | s1 << 9 | neg << 29,
            ]
        }
        // v_cmp_lt_f32 / v_cmp_u_f32 / v_cmp_gt_f32 -> VCC (VOPC)
        10 => [
            0x3e << 25 | r.pick(&[0x41u32, 0x48, 0x44]) << 17 | vsrc1 << 9 | fsrc(r),
            lit,
        ],
        // v_cndmask_b32 (reads VCC), v_min_f32, v_max_f32
        11 => vop2(r.pick(&[0, 0xa, 0xb]), fsrc(r)),
        // v_add_co_u32 / v_addc_co_u32 (write VCC; the second reads it first)
        12 => vop2(r.pick(&[0x19, 0x1c]), 256 + (r.next() % 12) as u32),
        // v_mac_f32 and v_fmac_f32 (read their destination), v_add_u32
        13 => vop2(r.pick(&[0x16, 0x3b, 0x34]), fsrc(r)),
        // v_fma_f32 (VOP3 0x1cb)
        14 => {
            let s = |r: &mut Rng| 256 + (r.next() % 12) as u32;
            [
                0x34 << 26 | 0x1cb << 16 | vdst,
                s(r) | s(r) << 9 | s(r) << 18,
            ]
        }
        // v_mov_b32, v_cvt_f32_i32/u32 (which read a NaN as an integer), v_cvt_u32/i32_f32,
        // v_cvt_rpi/flr_i32_f32 (VOP1 1, 5, 6, 7, 8, 0xc, 0xd)
        _ => [
            0x3f << 25 | vdst << 17 | r.pick(&[1u32, 5, 6, 7, 8, 0xc, 0xd]) << 9 | fsrc(r),
            lit,
        ],
    }
}

/// Segments of 4-24 float-heavy instructions from random waves (whose registers hold
/// infinities and NaNs in a quarter of their lanes), both ISAs, compared with the interpreter.
#[test]
fn float_segments_match_the_interpreter() {
    if !super::host_supported() {
        return;
    }
    let (seed, cases) = fuzz_params(0x5851_f42d_4c95_7f2d, 3000);
    let mut r = Rng(seed);
    for case in 0..cases {
        let n = 4 + (r.next() % 21) as usize;
        let (code, _) = random_code(&mut r, n, float_inst);
        let prog = Program::new(&code, 0x1000);
        compiled_matches_interpreter(&mut r, case, &prog);
    }
}

/// A kernel's blocks leave out the MODE check where its waves' MODE is known and nothing in
/// the program changes it (`JitCode::compile_kernel`), and keep it otherwise: a denormal sum
/// under a flushing MODE (the kernel's own, or one an `s_setreg` sets) comes out flushed, as
/// the interpreter computes it, not as the IEEE lowering would.
#[test]
fn fixed_mode_checked_where_it_fails_or_changes() {
    use super::tests::{isas, run_engine};
    use super::JitCode;
    if !super::host_supported() {
        return;
    }
    const V_ADD_F32_V0_V1_V2: [u32; 1] = [0x0200_0501];
    const S_ENDPGM: u32 = 0xbf81_0000;
    // s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 0: f32 and f64 denormals flushed.
    const SETREG_FLUSH: [u32; 2] = [0xba00_1901, 0];
    let words = |pre: &[u32]| -> Vec<u8> {
        let mut w = pre.to_vec();
        w.extend(V_ADD_F32_V0_V1_V2);
        w.push(S_ENDPGM);
        w.iter().flat_map(|d| d.to_le_bytes()).collect()
    };
    let (ieee, flush) = (0x2f0, 0x2c0);
    // (Kernel MODE, code before the add, the sum of two smallest denormals.)
    let cases = [
        (ieee, words(&[]), 2u32),
        (flush, words(&[]), 0),
        (ieee, words(&SETREG_FLUSH), 0),
    ];
    for (mode, code, want) in cases {
        let prog = Program::new(&code, 0x1000);
        for isa in isas() {
            let jit = JitCode::compile_kernel(&prog, 0, false, false, isa, 0, Some(mode))
                .expect("compiles");
            let mut w = crate::wave::Wave::new();
            w.mode = mode;
            w.set_exec(u64::MAX);
            w.v[1] = [1; 64];
            w.v[2] = [1; 64];
            w.state = crate::wave::WaveState::Running;
            let mut a = w.clone();
            run_engine(&prog, &mut a, None).expect("interpreter");
            run_engine(&prog, &mut w, Some(&jit)).expect("JIT");
            assert_eq!(a.v[0][0], want, "interpreter, MODE {mode:#x} {isa:?}");
            assert_eq!(w.v[0], a.v[0], "JIT, MODE {mode:#x} {isa:?}");
        }
    }
}
