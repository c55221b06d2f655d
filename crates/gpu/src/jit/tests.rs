//! The JIT against the interpreter (the oracle): random valid instruction sequences of the kinds
//! the JIT translates, run on random register state by both engines, compared bit for bit.

use super::{first_difference, run_code, Isa, JitCode};
use crate::exec::ExecCtx;
use crate::lds::Lds;
use crate::memory::Checker;
use crate::program::{Program, Slot};
use crate::valu::{VopInputs, VopOutputs};
use crate::wave::{Wave, WaveState, EXEC_LO, VCC_LO};
use crate::{DeviceEvents, MemoryMap};
use std::ops::Range;
use std::sync::atomic::AtomicBool;

pub(super) struct NoMemory;
impl MemoryMap for NoMemory {
    fn lookup(&self, _: u64, _: u64) -> Option<Range<u64>> {
        None
    }
}
struct NoEvents;
impl DeviceEvents for NoEvents {}

/// What a test's `ExecCtx` borrows besides the program and the memory checker: the LDS, the
/// VALU operand buffers, the stop flag (shared by the JIT's test files).
pub(super) struct Rig {
    pub lds: Lds,
    vin: Box<VopInputs>,
    vout: Box<VopOutputs>,
    stop: AtomicBool,
}

impl Rig {
    /// A rig with `lds_size` bytes of LDS.
    pub(super) fn new(lds_size: usize) -> Rig {
        let mut lds = Lds::new();
        lds.reset(lds_size);
        Rig {
            lds,
            vin: Box::default(),
            vout: Box::default(),
            stop: AtomicBool::new(false),
        }
    }

    /// A context for `prog` over `mem`, as a dispatch makes it without budget, tracer or JIT
    /// cache (the tests pass generated code to `run_code` themselves).
    pub(super) fn cx<'a>(
        &'a mut self,
        prog: &'a Program,
        mem: Checker<'a>,
        private_size: u32,
    ) -> ExecCtx<'a> {
        ExecCtx {
            prog,
            lds: &mut self.lds,
            mem,
            events: &NoEvents,
            vin: &mut self.vin,
            vout: &mut self.vout,
            private_size,
            budget: 0,
            stop: &self.stop,
            tracer: None,
            gfx900: false,
            jit: None,
        }
    }
}

pub(super) struct Rng(pub u64);
impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub(super) fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.next() as usize % xs.len()]
    }
}

/// A source operand code: a low VGPR, a low SGPR, VCC, or an inline constant.
fn src(r: &mut Rng) -> u32 {
    match r.next() % 8 {
        0..=3 => 256 + (r.next() % 8) as u32,
        4 => (r.next() % 8) as u32,
        5 => 106, // vcc_lo
        _ => r.pick(&[128, 129, 192, 193, 240, 241, 242, 243, 244, 245, 246, 247]),
    }
}

/// A scalar source: a low SGPR, VCC, EXEC, or an inline constant.
fn ssrc(r: &mut Rng) -> u32 {
    match r.next() % 6 {
        0..=2 => (r.next() % 12) as u32,
        3 => r.pick(&[106, 107, 126, 127]),
        _ => r.pick(&[128, 129, 130, 192, 193, 240, 242]),
    }
}

/// A scalar destination: a low SGPR, VCC or EXEC.
fn sdst(r: &mut Rng) -> u32 {
    match r.next() % 8 {
        0 => 106,
        1 => 126,
        _ => (r.next() % 12) as u32,
    }
}

/// One random SOP1/SOP2/SOPC/VOP1/VOP2/VOPC/VOP3 encoding (two dwords: a literal may follow).
pub(super) fn random_inst(r: &mut Rng) -> [u32; 2] {
    let vdst = (r.next() % 8) as u32;
    let lit = r.next() as u32;
    match r.next() % 9 {
        // VOP1: 0x3f [31:25], vdst [24:17], op [16:9], src0 [8:0]
        8 => [
            0x3f << 25 | vdst << 17 | ((r.next() % 0x60) as u32) << 9 | src(r),
            lit,
        ],
        // SOPK: 0b1011 [31:28], op [27:23], sdst [22:16], simm16
        7 => {
            let op = (r.next() % 16) as u32;
            [
                0xb << 28 | op << 23 | sdst(r) << 16 | (r.next() as u32 & 0xffff),
                lit,
            ]
        }
        // SOP2: 0b10 [31:30], op [29:23], sdst [22:16], ssrc1 [15:8], ssrc0 [7:0]
        4 => {
            let op = (r.next() % 48) as u32;
            [
                2 << 30 | op << 23 | sdst(r) << 16 | ssrc(r) << 8 | ssrc(r),
                lit,
            ]
        }
        // SOP1: 0x17d [31:23], sdst [22:16], op [15:8], ssrc0 [7:0]
        5 => {
            let op = (r.next() % 56) as u32;
            [0x17d << 23 | sdst(r) << 16 | op << 8 | ssrc(r), lit]
        }
        // SOPC: 0x17e [31:23], op [22:16], ssrc1 [15:8], ssrc0 [7:0]
        6 => {
            let op = (r.next() % 20) as u32;
            [0x17e << 23 | op << 16 | ssrc(r) << 8 | ssrc(r), lit]
        }
        // VOP2: [30:25] op, [24:17] vdst, [16:9] vsrc1, [8:0] src0
        0 | 1 => {
            let op = (r.next() % 64) as u32;
            [
                op << 25 | vdst << 17 | ((r.next() % 8) as u32) << 9 | src(r),
                lit,
            ]
        }
        // VOPC: 0x3e << 25, [24:17] op, [16:9] vsrc1, [8:0] src0
        2 => {
            let op = (r.next() % 256) as u32;
            [
                0x3e << 25 | op << 17 | ((r.next() % 8) as u32) << 9 | src(r),
                lit,
            ]
        }
        // VOP3 (VOP3a/b): 0x34 << 26, [25:16] op, [7:0] vdst/sdst; second dword: srcs
        _ => {
            let op = (r.next() % 0x300) as u32;
            let dst = if r.next().is_multiple_of(2) {
                vdst
            } else {
                (r.next() % 8) as u32 * 2 // an SGPR pair for compares and carries
            };
            let sdst = ((r.next() % 4) as u32 * 2) << 8;
            // Float source modifiers now and then (VOP3a abs [10:8], neg [31:29]).
            let (abs, neg) = if r.next().is_multiple_of(4) {
                ((r.next() % 8) as u32, (r.next() % 8) as u32)
            } else {
                (0, 0)
            };
            let sdst = if abs != 0 { abs << 8 } else { sdst };
            [
                0x34 << 26 | op << 16 | sdst | dst,
                src(r) | src(r) << 9 | src(r) << 18 | neg << 29,
            ]
        }
    }
}

pub(super) fn random_wave(r: &mut Rng) -> Wave {
    let mut w = Wave::new();
    for s in w.s.iter_mut() {
        *s = r.next() as u32;
    }
    let specials = [
        0u32,
        1,
        u32::MAX,
        0x8000_0000,
        0x7f80_0000, // +inf
        0xff80_0000, // -inf
        0x7fc0_0000, // qNaN
        0x7f80_0001, // sNaN
        0x0000_0001, // denormal
        0x8000_0000, // -0
        0x3f80_0000, // 1.0
        0x4b80_0000,
    ];
    for reg in w.v.iter_mut().take(12) {
        for v in reg.iter_mut() {
            *v = if r.next().is_multiple_of(4) {
                r.pick(&specials)
            } else if r.next().is_multiple_of(2) {
                // floats of moderate magnitude, so sums and products stay finite
                (0x3000_0000 + (r.next() % 0x1800_0000)) as u32 | (r.next() as u32 & 0x8000_0000)
            } else {
                r.next() as u32
            };
        }
    }
    let exec = match r.next() % 3 {
        0 => u64::MAX,
        1 => r.next(),
        _ => r.next() & r.next(),
    };
    w.set_exec(exec);
    w.s[VCC_LO] = r.next() as u32;
    w.s[VCC_LO + 1] = r.next() as u32;
    // IEEE round-to-nearest with f32 denormals (what kernels run with), sometimes flushing.
    w.mode = if r.next().is_multiple_of(5) {
        0x2c0
    } else {
        0x2f0
    };
    w.state = WaveState::Running;
    w
}

/// Runs `w` under the interpreter (`code` = None) or the given generated code.
pub(super) fn run_engine(
    prog: &Program,
    w: &mut Wave,
    code: Option<&JitCode>,
) -> Result<(), crate::exec::ExecFault> {
    let map = NoMemory;
    let mut rig = Rig::new(0);
    let mut cx = rig.cx(prog, Checker::new(&map, 0..0), 0);
    match code {
        Some(c) => run_code(w, &mut cx, c),
        None => crate::exec::run(w, &mut cx),
    }
}

/// Runs `prog` from `cases` random waves (every other one with all lanes active, the rest with
/// a random EXEC) under the interpreter and under the JIT on each ISA of this host, and asserts
/// that both end alike.
pub(super) fn assert_engines_agree(prog: &Program, seed: u64, cases: u32) {
    let mut r = Rng(seed);
    for case in 0..cases {
        let mut w0 = random_wave(&mut r);
        if case % 2 == 0 {
            w0.set_exec(u64::MAX);
        }
        let mut a = w0.clone();
        let ra = run_engine(prog, &mut a, None);
        for isa in isas() {
            let jit = JitCode::compile(prog, 0, false, false, isa).expect("compiles");
            let mut b = w0.clone();
            let rb = run_engine(prog, &mut b, Some(&jit));
            assert_same_end(&format!("case {case} {isa:?}"), prog, (&ra, &a), (&rb, &b));
        }
    }
}

/// The ISAs this host runs: AVX-512 (where present) and AVX2.
pub(super) fn isas() -> Vec<Isa> {
    match super::host_isa() {
        Some(Isa::Avx512) => vec![Isa::Avx512, Isa::Avx2],
        Some(Isa::Avx2) => vec![Isa::Avx2],
        None => vec![],
    }
}

/// The fuzzers' seed and case count: `JIT_FUZZ_SEED` and `JIT_FUZZ_CASES` override the
/// defaults (a longer campaign than the test suite's).
pub(super) fn fuzz_params(seed: u64, cases: usize) -> (u64, usize) {
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse().ok());
    (
        env("JIT_FUZZ_SEED").unwrap_or(seed) | 1,
        env("JIT_FUZZ_CASES").map_or(cases, |c: u64| c as usize),
    )
}

/// Whether the fuzzers use `x`: register-only ops (and memory ops, which the memory fuzzer
/// sets up addresses for) that exist on gfx906, no control flow.
pub(super) fn fuzzable(x: &crate::program::XInst) -> bool {
    use softhsa_isa::Encoding::*;
    let enc = x.inst.enc;
    let name = x.inst.op.name();
    let scalar_ok = matches!(enc, Sop1 | Sop2 | Sopc | Sopk)
        && ![
            "pc",
            "setvskip",
            "movrel",
            "gpr_idx",
            "setreg",
            "getreg",
            "rfe",
            "wqm",
            "quadmask",
            "call",
            "s_cbranch",
        ]
        .iter()
        .any(|s| name.contains(s));
    let memory = matches!(enc, Ds | Global | Flat | Smem | Mubuf);
    (scalar_ok || memory || matches!(enc, Vop1 | Vop2 | Vopc | Vop3))
        && !["readlane", "readfirstlane", "movrel"]
            .iter()
            .any(|s| name.contains(s))
        // (`v_swap_b32`, not the atomics' swaps.)
        && (memory || !name.contains("swap"))
}

/// A program of `n` valid instructions from `gen` (those the decoder and interpreter accept
/// and the fuzzers use), then `s_endpgm`; and how many of them are SOP1/SOP2/SOPC.
fn random_program(r: &mut Rng, n: usize, gen: fn(&mut Rng) -> [u32; 2]) -> (Program, usize) {
    let (code, scalars) = random_code(r, n, gen);
    (Program::new(&code, 0x1000), scalars)
}

/// The code of [`random_program`].
pub(super) fn random_code(
    r: &mut Rng,
    n: usize,
    gen: fn(&mut Rng) -> [u32; 2],
) -> (Vec<u8>, usize) {
    let mut code: Vec<u8> = Vec::new();
    let mut scalars = 0;
    for _ in 0..n {
        let (bytes, scalar) = random_bytes(r, gen);
        scalars += usize::from(scalar);
        code.extend_from_slice(&bytes);
    }
    code.extend_from_slice(&0xbf81_0000u32.to_le_bytes()); // s_endpgm
    (code, scalars)
}

/// One valid instruction from `gen` (one the decoder and interpreter accept and the fuzzers
/// use): its bytes, and whether it is SOP1/SOP2/SOPC.
fn random_bytes(r: &mut Rng, gen: fn(&mut Rng) -> [u32; 2]) -> (Vec<u8>, bool) {
    loop {
        let bytes: Vec<u8> = gen(r).iter().flat_map(|d| d.to_le_bytes()).collect();
        let probe = Program::new(&bytes, 0);
        let Some(Slot::Ok(x)) = probe.slots.first() else {
            continue;
        };
        if !fuzzable(x) {
            continue;
        }
        use softhsa_isa::Encoding::{Sop1, Sop2, Sopc};
        let scalar = matches!(x.inst.enc, Sop1 | Sop2 | Sopc);
        return (bytes[..usize::from(x.inst.len)].to_vec(), scalar);
    }
}

/// The program as text, for failure messages.
fn listing(prog: &Program) -> String {
    (0..prog.slots.len() as u32)
        .map(|i| prog.text(i).to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs `prog` from a random wave in the interpreter and, for each ISA, as compiled code, and
/// asserts that they end alike ([`assert_same_end`]); returns the translated and reachable
/// instructions summed over the ISAs.
pub(super) fn compiled_matches_interpreter(
    r: &mut Rng,
    case: usize,
    prog: &Program,
) -> (usize, usize) {
    let w0 = random_wave(r);
    let mut a = w0.clone();
    let ra = run_engine(prog, &mut a, None);
    let (mut native, mut reachable) = (0, 0);
    for isa in isas() {
        // Odd cases without unrolled segments: both forms of a full wave's chunks run. One
        // case in three as compiled outside tests, the lane masks and VGPRs nothing reads
        // after the wave's end unwritten: those are left out of the comparison.
        let dead_end = case % 3 == 2;
        super::segment::NO_UNROLL.with(|c| c.set(case % 2 == 1));
        super::plan::FINAL_MASKS_DEAD.with(|c| c.set(dead_end));
        let jit = JitCode::compile(prog, 0, false, false, isa);
        let unread = match dead_end {
            true => super::vgpr_dead::unread_at_end(&super::plan::Plan::new(prog, 0, false, false)),
            false => Vec::new(),
        };
        super::segment::NO_UNROLL.with(|c| c.set(false));
        super::plan::FINAL_MASKS_DEAD.with(|c| c.set(false));
        let jit = jit.unwrap_or_else(|e| panic!("case {case} {isa:?}: {e}\n{}", listing(prog)));
        native += jit.native;
        reachable += jit.reachable;
        let mut b = w0.clone();
        let rb = run_engine(prog, &mut b, Some(&jit));
        for &r in &unread {
            b.v[usize::from(r)] = a.v[usize::from(r)];
        }
        if dead_end && b.state == crate::wave::WaveState::Done {
            // (Nothing reads SCC after the wave's end either: `scc_live`.)
            b.scc = a.scc;
            for m in super::tests_mem::mask_outputs(prog) {
                let m = usize::from(m);
                if m < crate::wave::EXEC_LO {
                    b.s[m] = a.s[m];
                    b.s[m + 1] = a.s[m + 1];
                }
            }
        }
        assert_same_end(&format!("case {case} {isa:?}"), prog, (&ra, &a), (&rb, &b));
    }
    (native, reachable)
}

/// Asserts that the JIT's run (`rb`, wave `b`) of `prog` ended as the interpreter's (`ra`,
/// wave `a`): how and where the wave stopped, how many instructions it ran (the path), its
/// registers and EXEC. `what` names the case.
pub(super) fn assert_same_end(
    what: &str,
    prog: &Program,
    (ra, a): (&Result<(), crate::exec::ExecFault>, &Wave),
    (rb, b): (&Result<(), crate::exec::ExecFault>, &Wave),
) {
    assert_eq!(ra, rb, "{what}: how the wave stopped\n{}", listing(prog));
    assert_eq!(
        a.pc,
        b.pc,
        "{what}: where the wave stopped\n{}",
        listing(prog)
    );
    assert_eq!(a.executed, b.executed, "{what}: path\n{}", listing(prog));
    let diff = first_difference(b, a, 0..256);
    assert!(
        diff.is_none(),
        "{what}: {}\n{}",
        diff.unwrap_or_default(),
        listing(prog)
    );
    assert_eq!(a.exec(), b.exec(), "{what}: exec\n{}", listing(prog));
}

/// A kernel that is not the first code of its program (a code object holds many): its
/// tables cover its own instructions, and waves entering it run as in the interpreter.
#[test]
fn a_kernel_after_others_compiles_alone_and_matches() {
    if !super::host_supported() {
        return;
    }
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    for case in 0..50 {
        // Another kernel of 2,000 instructions first, then this one.
        let (mut code, _) = random_code(&mut r, 2000, random_inst);
        let (body, _) = random_code(&mut r, 24, random_inst);
        code.extend_from_slice(&body);
        let prog = Program::new(&code, 0x1000);
        let entry = prog
            .index_of(0x1000 + (code.len() - body.len()) as u64)
            .expect("entry");
        for isa in isas() {
            let jit = JitCode::compile(&prog, entry, false, false, isa).expect("compiles");
            assert!(
                jit.entries.len() <= 26 && jit.first >= entry,
                "case {case}: tables of {} instructions from {} for a kernel of 25 at {entry}",
                jit.entries.len(),
                jit.first
            );
            let w0 = {
                let mut w = random_wave(&mut r);
                w.pc = entry;
                w
            };
            let (mut a, mut b) = (w0.clone(), w0.clone());
            let ra = run_engine(&prog, &mut a, None);
            let rb = run_engine(&prog, &mut b, Some(&jit));
            assert_same_end(&format!("case {case} {isa:?}"), &prog, (&ra, &a), (&rb, &b));
        }
    }
}

#[test]
fn random_sequences_match_the_interpreter() {
    if !super::host_supported() {
        return; // the interpreter is the only engine here
    }
    let isas = isas();
    let (seed, cases) = fuzz_params(0x2545_f491_4f6c_dd1d, 3000);
    let mut r = Rng(seed);
    let (mut translated, mut total, mut scalars) = (0usize, 0usize, 0usize);
    for _case in 0..cases {
        let (prog, s) = random_program(&mut r, 24, random_inst);
        scalars += s;
        let w0 = random_wave(&mut r);
        let mut a = w0.clone();
        let ra = run_engine(&prog, &mut a, None);
        for &isa in &isas {
            let jit = JitCode::compile(&prog, 0, false, false, isa)
                .unwrap_or_else(|e| panic!("case {_case} {isa:?}: {e}\n{}", listing(&prog)));
            translated += jit.native;
            total += jit.reachable;
            let mut b = w0.clone();
            let rb = run_engine(&prog, &mut b, Some(&jit));
            assert_eq!(
                ra,
                rb,
                "case {_case} {isa:?}: how the wave stopped\n{}",
                listing(&prog)
            );
            assert_eq!(a.pc, b.pc, "case {_case} {isa:?}: where the wave stopped");
            let diff = first_difference(&b, &a, 0..256);
            assert!(
                diff.is_none(),
                "case {_case} {isa:?} (mode {:#x}): {}\n{}\n{}",
                w0.mode,
                diff.unwrap_or_default(),
                listing(&prog),
                super::plan::Plan::new(&prog, 0, false, false).describe(&prog)
            );
            assert_eq!(a.executed, b.executed, "instruction counts");
            assert_eq!(a.exec(), b.exec());
        }
    }
    // The sequences must exercise the translation, not only the call-outs.
    eprintln!("{translated} of {total} translated, {scalars} scalar");
    assert!(translated * 4 > total, "{translated} of {total} translated");
}

#[test]
fn check_mode_runs_the_same_sequences() {
    if !super::host_supported() {
        return;
    }
    // v_add_f32 v1, v2, v3; v_add_co_u32 v4, vcc, v5, v6; v_cmp_lt_u32 vcc, v1, v4; s_endpgm
    let words: [u32; 4] = [0x0202_0702, 0x3208_0d05, 0x7d92_0901, 0xbf81_0000];
    let code: Vec<u8> = words.iter().flat_map(|d| d.to_le_bytes()).collect();
    let prog = Program::new(&code, 0);
    let mut r = Rng(7);
    let w0 = random_wave(&mut r);
    let mut a = w0.clone();
    assert_eq!(run_engine(&prog, &mut a, None), Ok(()));
    for isa in isas() {
        let jit = JitCode::compile(&prog, 0, true, false, isa).expect("compiles");
        let mut b = w0.clone();
        assert_eq!(run_engine(&prog, &mut b, Some(&jit)), Ok(()));
        assert!(first_difference(&b, &a, 0..256).is_none());
    }
    let _ = EXEC_LO;
}

/// One instruction of a lane-mask chain: compares into VCC or an SGPR pair, carry ops with
/// their carry-in and carry-out pairs, `v_cndmask_b32` selecting by a pair, and now and then a
/// plain VALU op or a SALU op reading a pair as a value, so that masks are handed from one
/// instruction to the next, read later, overwritten or left live in every order; 64-bit
/// shifts (of pairs whose high half may have been zeroed by `v_mov_b32`) may sit between a
/// mask's writer and its reader.
pub(super) fn random_mask_inst(r: &mut Rng) -> [u32; 2] {
    let vdst = (r.next() % 8) as u32;
    let pair = |r: &mut Rng| r.pick(&[0u32, 2, 4, 106, 106]);
    let lit = r.next() as u32;
    match r.next() % 10 {
        // VOPC, 32-bit integer compares (i32 0xc0-0xc7, u32 0xc8-0xcf) into VCC.
        0 | 1 => {
            let op = 0xc0 + (r.next() % 16) as u32;
            [
                0x3e << 25 | op << 17 | ((r.next() % 8) as u32) << 9 | src(r),
                lit,
            ]
        }
        // The same compares as VOP3 into a pair.
        2 => {
            let op = 0xc0 + (r.next() % 16) as u32;
            [0x34 << 26 | op << 16 | pair(r), src(r) | src(r) << 9]
        }
        // VOP2 v_cndmask_b32 (0) and the carry ops (0x19-0x1e) with VCC.
        3 | 4 => {
            let op = r.pick(&[0u32, 0x19, 0x1a, 0x1b, 0x1c, 0x1c, 0x1d, 0x1e]);
            [
                op << 25 | vdst << 17 | ((r.next() % 8) as u32) << 9 | src(r),
                lit,
            ]
        }
        // VOP3b carry ops: carry-out pair in [14:8], carry-in pair as src2.
        5 | 6 => {
            let op = 0x100 + r.pick(&[0x19u32, 0x1a, 0x1b, 0x1c, 0x1c, 0x1d, 0x1e]);
            [
                0x34 << 26 | op << 16 | pair(r) << 8 | vdst,
                src(r) | src(r) << 9 | pair(r) << 18,
            ]
        }
        // VOP3 v_cndmask_b32 with a pair.
        7 => [
            0x34 << 26 | 0x100 << 16 | vdst,
            src(r) | src(r) << 9 | pair(r) << 18,
        ],
        // A SALU op reading a pair as a value: s_and_b64 / s_or_b64 / s_xor_b64.
        8 => {
            let op = r.pick(&[12u32, 14, 16]);
            [
                2 << 30 | op << 23 | pair(r) << 16 | pair(r) << 8 | pair(r),
                lit,
            ]
        }
        // A 64-bit shift (v_lshlrev_b64, v_lshrrev_b64, v_ashrrev_i64) of a VGPR pair by a
        // constant or a VGPR: an address computation between a carry pair's two halves.
        9 if r.next().is_multiple_of(2) => {
            let op = 0x28f + (r.next() % 3) as u32;
            let count = if r.next().is_multiple_of(2) {
                128 + (r.next() % 40) as u32
            } else {
                256 + (r.next() % 8) as u32
            };
            [
                0x34 << 26 | op << 16 | vdst,
                count | (256 + (r.next() % 8) as u32) << 9,
            ]
        }
        // v_mov_b32 v, 0: a zero high half for a following 64-bit shift.
        9 if r.next().is_multiple_of(2) => [0x3f << 25 | vdst << 17 | 1 << 9 | 128, lit],
        // A plain VALU op: v_add_u32 (0x34) or v_xor_b32 (0x15).
        _ => {
            let op = r.pick(&[0x34u32, 0x15]);
            [
                op << 25 | vdst << 17 | ((r.next() % 8) as u32) << 9 | src(r),
                lit,
            ]
        }
    }
}

/// Lane-mask chains (`random_mask_inst`) under both engines: the JIT keeps a mask in a
/// register for the next instruction, skips stores and computations of masks nobody reads,
/// folds complements into the EXEC `and`; memory and registers must come out as the
/// interpreter's.
#[test]
fn mask_chains_match_the_interpreter() {
    if !super::host_supported() {
        return;
    }
    let (seed, cases) = fuzz_params(0x9e37_79b9_7f4a_7c15, 2000);
    let mut r = Rng(seed);
    let (mut translated, mut total) = (0usize, 0usize);
    for case in 0..cases {
        let (prog, _) = random_program(&mut r, 16, random_mask_inst);
        let (native, reachable) = compiled_matches_interpreter(&mut r, case, &prog);
        translated += native;
        total += reachable;
    }
    eprintln!("{translated} of {total} translated");
    assert!(
        translated * 10 > total * 9,
        "{translated} of {total} translated"
    );
}

/// Lane-mask chains cut into blocks: forward branches on SCC, VCC and EXEC over one to three
/// instructions, and a loop that runs three times around the middle part (counted in s40,
/// which the chains never write), so that masks cross block ends, meet at branch targets and
/// go around a back edge: what the JIT's liveness across blocks decides. The interpreter is
/// the oracle for the registers at the end and the path taken (instruction counts).
#[test]
fn mask_chains_across_blocks_match_the_interpreter() {
    if !super::host_supported() {
        return;
    }
    let (seed, cases) = fuzz_params(0x3c6e_f372_fe94_f82b, 1500);
    let mut r = Rng(seed);
    let dwords = |v: &[Vec<u8>]| v.iter().map(|b| b.len() / 4).sum::<usize>() as i32;
    // Instructions of one region, with forward branches that stay inside it.
    let region = |r: &mut Rng, n: usize| -> Vec<Vec<u8>> {
        let insts: Vec<Vec<u8>> = (0..n)
            .map(|_| random_bytes(r, random_mask_inst).0)
            .collect();
        let mut out = Vec::new();
        for k in 0..n {
            if r.next().is_multiple_of(3) && k + 1 < n {
                let skip = 1 + (r.next() as usize % 3).min(n - k - 2);
                // s_cbranch_scc0/scc1/vccz/vccnz/execz
                let op = r.pick(&[4u32, 5, 6, 7, 8]);
                let imm = dwords(&insts[k..k + skip]) as u32;
                out.push((0xbf80_0000 | op << 16 | imm).to_le_bytes().to_vec());
            }
            out.push(insts[k].clone());
        }
        out
    };
    for case in 0..cases {
        let mut code: Vec<Vec<u8>> = vec![0xbea8_0083u32.to_le_bytes().to_vec()]; // s_mov_b32 s40, 3
        code.extend(region(&mut r, 6));
        let body = region(&mut r, 8);
        let back = dwords(&body) + 3; // the body, s_sub, s_cmp and the branch itself
        code.extend(body);
        code.push(0x80a8_8128u32.to_le_bytes().to_vec()); // s_sub_u32 s40, s40, 1
        code.push(0xbf07_8028u32.to_le_bytes().to_vec()); // s_cmp_lg_u32 s40, 0
        code.push(
            (0xbf85_0000u32 | (-back as u16) as u32)
                .to_le_bytes()
                .to_vec(),
        ); // s_cbranch_scc1
        code.extend(region(&mut r, 6));
        code.push(0xbf81_0000u32.to_le_bytes().to_vec()); // s_endpgm
        let bytes: Vec<u8> = code.concat();
        let prog = Program::new(&bytes, 0x1000);
        compiled_matches_interpreter(&mut r, case, &prog);
    }
}
