//! Waves switched to at `s_barrier` and `s_endpgm` in generated code (`wave_switch.rs`):
//! one run of a work-group's round leaves every wave as the interpreter leaves it when the
//! waves run one after another, with their own turns (time slices, the dispatch's budget),
//! stopping where the work-group loop would take over.

use super::tests::{isas, random_wave, NoMemory, Rig, Rng};
use super::tests_linear::program;
use super::{JitCode, WaveRunner};
use crate::exec::{ExecCtx, ExecFault};
use crate::memory::Checker;
use crate::program::Program;
use crate::wave::{Wave, WaveState, WAVE_SLICE};

/// v1 = s8 + id; s10 times v3 += 3; barrier; v2 = s9 ^ v1; s11 times v3 += 3; barrier;
/// v4 = v3 + v2; end. Each loop reads MODE (`s_getreg`), a call-out to the interpreter,
/// which checks the wave's budget itself.
fn kernel() -> Program {
    program(&[
        ("v_add_u32_e32 v1, s8, v0", &[0x6802_0008]),
        ("s_cmp_eq_u32 s10, 0", &[0xbf06_800a]),
        ("s_cbranch_scc1 4", &[0xbf85_0004]),
        ("s_sub_u32 s10, s10, 1", &[0x808a_810a]),
        ("v_add_u32_e32 v3, 3, v3", &[0x6806_0683]),
        ("s_getreg_b32 s12, hwreg(HW_REG_MODE)", &[0xb88c_f801]),
        ("s_branch 65530", &[0xbf82_fffa]),
        ("s_barrier", &[0xbf8a_0000]),
        ("v_xor_b32_e32 v2, s9, v1", &[0x2a04_0209]),
        ("s_cmp_eq_u32 s11, 0", &[0xbf06_800b]),
        ("s_cbranch_scc1 4", &[0xbf85_0004]),
        ("s_sub_u32 s11, s11, 1", &[0x808b_810b]),
        ("v_add_u32_e32 v3, 3, v3", &[0x6806_0683]),
        ("s_getreg_b32 s12, hwreg(HW_REG_MODE)", &[0xb88c_f801]),
        ("s_branch 65530", &[0xbf82_fffa]),
        ("s_barrier", &[0xbf8a_0000]),
        ("v_add_u32_e32 v4, v3, v2", &[0x6808_0503]),
        ("s_endpgm", &[0xbf81_0000]),
    ])
}

/// Four waves: loop counts `loops` (s10, s11), random registers otherwise.
fn waves(loops: [(u32, u32); 4]) -> Vec<Wave> {
    let mut rng = Rng(77);
    (0..4)
        .map(|k| {
            let mut w = random_wave(&mut rng);
            w.set_exec(!0);
            w.pc = 0;
            w.executed = 0;
            w.index = k as u32;
            (w.s[10], w.s[11]) = loops[k];
            w
        })
        .collect()
}

/// The work-group loop's turn for wave `w` in the interpreter: `start_turn`, then a run.
fn interp_turn(cx: &mut ExecCtx, w: &mut Wave, limit: u64) -> Result<(), ExecFault> {
    cx.budget = w.start_turn(limit);
    crate::exec::run(w, cx)
}

/// One round from wave `k` as the runner does it: the index it ended with, the instructions
/// it counted, the result, and the switches it made.
fn jit_round(
    cx: &mut ExecCtx,
    code: &JitCode,
    ws: &mut [Wave],
    k: usize,
    limit: u64,
) -> (usize, u64, Result<(), ExecFault>, u64) {
    let mut runner = WaveRunner::with_code(cx, code, limit);
    cx.budget = ws[k].start_turn(limit);
    let ran = runner.run(ws, k, cx);
    (ran.last, ran.insts, ran.result, runner.switches_made())
}

fn assert_same(a: &Wave, b: &Wave, what: &str) {
    assert_eq!(a.state, b.state, "{what}: state");
    assert_eq!((a.pc, a.executed), (b.pc, b.executed), "{what}: pc, count");
    assert_eq!(a.time_slice, b.time_slice, "{what}: time slice");
    assert_eq!(a.s[..], b.s[..], "{what}: SGPRs");
    assert_eq!(a.v[..8], b.v[..8], "{what}: VGPRs");
}

/// Loop counts of the first case: each wave's own.
const MAIN: [(u32, u32); 4] = [(5, 1), (0, 7), (9, 0), (2, 3)];

#[test]
fn waves_switched_to_end_as_the_interpreter_leaves_them() {
    let prog = kernel();
    let map = NoMemory;
    for isa in isas() {
        let code = JitCode::compile(&prog, 0, false, false, isa).unwrap();
        assert!(code.switches, "{isa:?}: barriers and the end switch waves");
        let mut rig = Rig::new(0);
        let mut cx = rig.cx(&prog, Checker::new(&map, 0..0), 0);
        let count = |ws: &[Wave]| ws.iter().map(|w| w.executed).sum::<u64>();

        // Three rounds of four waves, the budget far: each round is one run from wave 0,
        // three switches; the interpreter runs the waves in turn.
        let limit = 1 << 20;
        let (mut jw, mut iw) = (waves(MAIN), waves(MAIN));
        for round in 0..3 {
            let before = count(&jw);
            let (last, insts, r, sw) = jit_round(&mut cx, &code, &mut jw, 0, limit);
            r.unwrap();
            assert_eq!(
                (last, sw),
                (3, 3),
                "{isa:?} round {round}: one run, three switches"
            );
            assert_eq!(
                insts,
                count(&jw) - before,
                "{isa:?} round {round}: its count"
            );
            for (k, w) in iw.iter_mut().enumerate() {
                interp_turn(&mut cx, w, limit).unwrap();
                assert_same(&jw[k], w, &format!("{isa:?} round {round} wave {k}"));
            }
            let end = if round == 2 {
                WaveState::Done
            } else {
                WaveState::Barrier
            };
            assert!(jw.iter().all(|w| w.state == end), "{isa:?} round {round}");
            for w in jw.iter_mut().chain(iw.iter_mut()) {
                if w.state == WaveState::Barrier {
                    w.state = WaveState::Running;
                }
            }
        }

        // Waves the loop would not run are passed over (done, at the barrier); the run stops
        // before one waiting at a global wave sync (the loop decides whether it runs).
        for (state, last) in [
            (WaveState::Done, 3),
            (WaveState::Barrier, 3),
            (WaveState::Gws, 1),
        ] {
            let mut jw = waves([(1, 1); 4]);
            jw[2].state = state;
            let untouched = [jw[2].clone(), jw[3].clone()];
            let (l, _, r, _) = jit_round(&mut cx, &code, &mut jw, 0, limit);
            r.unwrap();
            assert_eq!(l, last, "{isa:?}: wave 2 {state:?}");
            assert_same(
                &jw[2],
                &untouched[0],
                &format!("{isa:?}: the {state:?} wave"),
            );
            if last == 1 {
                assert_same(&jw[3], &untouched[1], &format!("{isa:?}: after {state:?}"));
            }
        }

        // A wave switched to gets a time slice of its own (its call-outs too): wave 1 loops
        // past it in the second round and stops there (sliced), waves 2 and 3 not run. (The
        // first loops make the waves' counts, and so their slices' ends, differ.)
        let big = (WAVE_SLICE as u32) / 6 + 100;
        let sliced = [(3, 3), (40, big), (3, 3), (3, 3)];
        let (mut jw, mut iw) = (waves(sliced), waves(sliced));
        for round in 0..2 {
            let (last, insts, r, _) = jit_round(&mut cx, &code, &mut jw, 0, limit);
            r.unwrap();
            let expect = if round == 0 { 3 } else { 1 };
            assert_eq!(last, expect, "{isa:?} sliced round {round}");
            for (k, w) in iw.iter_mut().enumerate().take(last + 1) {
                interp_turn(&mut cx, w, limit).unwrap();
                assert_same(&jw[k], w, &format!("{isa:?} sliced round {round} wave {k}"));
            }
            if round == 1 {
                assert_eq!(jw[1].state, WaveState::Sliced, "{isa:?}");
                assert!(insts > WAVE_SLICE, "{isa:?}: {insts} counted");
                assert_same(&jw[2], &iw[2], &format!("{isa:?}: wave 2 not run"));
            }
            for w in jw.iter_mut().chain(iw.iter_mut()) {
                w.state = WaveState::Running;
            }
        }

        // The dispatch's budget: wave 2's loop runs out of it in the second round; the run
        // reports that wave's fault, as the interpreter does.
        let limit = 400;
        let budget = [(3, 3), (3, 3), (3, 200), (3, 3)];
        let (mut jw, mut iw) = (waves(budget), waves(budget));
        for round in 0..2 {
            let (last, _, r, _) = jit_round(&mut cx, &code, &mut jw, 0, limit);
            let mut ir = Ok(());
            for (k, w) in iw.iter_mut().enumerate().take(last + 1) {
                ir = interp_turn(&mut cx, w, limit);
                assert_same(&jw[k], w, &format!("{isa:?} budget round {round} wave {k}"));
            }
            if round == 1 {
                assert_eq!(last, 2, "{isa:?}: the wave out of budget");
                let (je, ie) = (r.unwrap_err(), ir.unwrap_err());
                assert_eq!(format!("{je:?}"), format!("{ie:?}"), "{isa:?}: the fault");
            } else {
                r.unwrap();
                assert_eq!(last, 3);
            }
            for w in jw.iter_mut().chain(iw.iter_mut()) {
                w.state = WaveState::Running;
            }
        }
    }
}
