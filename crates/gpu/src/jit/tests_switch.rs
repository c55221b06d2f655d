//! Waves switched to at `s_barrier` and `s_endpgm` in generated code, and barriers released
//! there (`wave_switch.rs`): one run of a work-group leaves every wave as the interpreter
//! leaves it when the waves run in the work-group loop's order, with their own turns (time
//! slices, the dispatch's budget), stopping where the loop would take over.

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
    kernel_then(&[])
}

/// [`kernel`] with `more` lines after its end.
fn kernel_then(more: &[(&str, &[u32])]) -> Program {
    let mut lines: Vec<(&str, &[u32])> = vec![
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
    ];
    lines.extend_from_slice(more);
    program(&lines)
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

/// The work-group loop's order in the interpreter, for waves that start running: rounds of
/// turns in index order, the barrier released when every wave waits at it or is done, until
/// a turn ends otherwise or every wave is done. The wave it ended with and that turn's result.
fn interp_group(cx: &mut ExecCtx, ws: &mut [Wave], limit: u64) -> (usize, Result<(), ExecFault>) {
    let mut last = 0;
    loop {
        for (k, w) in ws.iter_mut().enumerate() {
            if w.state != WaveState::Running {
                continue;
            }
            last = k;
            let r = interp_turn(cx, w, limit);
            if r.is_err() || !matches!(w.state, WaveState::Barrier | WaveState::Done) {
                return (k, r);
            }
        }
        if ws.iter().all(|w| w.state == WaveState::Done) {
            return (last, Ok(()));
        }
        for w in ws.iter_mut() {
            if w.state == WaveState::Barrier {
                w.state = WaveState::Running;
            }
        }
    }
}

/// What one run of the runner from wave `k` did.
struct JitRun {
    last: usize,
    insts: u64,
    result: Result<(), ExecFault>,
    released: bool,
    switches: u64,
}

/// One run from wave `k`, its turn started as the loop starts it, the loop's clock due
/// after `clock_in` instructions.
fn jit_run_clock(
    cx: &mut ExecCtx,
    code: &JitCode,
    ws: &mut [Wave],
    (k, limit, clock_in): (usize, u64, u64),
) -> JitRun {
    let mut runner = WaveRunner::with_code(cx, code, limit);
    cx.budget = ws[k].start_turn(limit);
    let ran = runner.run(ws, k, cx, clock_in, None);
    JitRun {
        last: ran.last,
        insts: ran.insts,
        result: ran.result,
        released: ran.released,
        switches: runner.switches_made(),
    }
}

/// One run from wave `k`, the clock far.
fn jit_run(cx: &mut ExecCtx, code: &JitCode, ws: &mut [Wave], k: usize, limit: u64) -> JitRun {
    jit_run_clock(cx, code, ws, (k, limit, u64::MAX))
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
    let count = |ws: &[Wave]| ws.iter().map(|w| w.executed).sum::<u64>();
    for isa in isas() {
        let code = JitCode::compile(&prog, 0, false, false, isa).unwrap();
        assert!(code.switches, "{isa:?}: barriers and the end switch waves");
        let mut rig = Rig::new(0);
        let mut cx = rig.cx(&prog, Checker::new(&map, 0..0), 0);

        // The whole work-group in one run from wave 0: three rounds, two releases, eleven
        // switches (three per round, one to wave 0 after each release).
        let limit = 1 << 20;
        let (mut jw, mut iw) = (waves(MAIN), waves(MAIN));
        let j = jit_run(&mut cx, &code, &mut jw, 0, limit);
        j.result.unwrap();
        let (il, ir) = interp_group(&mut cx, &mut iw, limit);
        ir.unwrap();
        assert_eq!((j.last, j.released, j.switches), (il, true, 11), "{isa:?}");
        assert_eq!(j.insts, count(&jw), "{isa:?}: the run's count");
        for k in 0..4 {
            assert_same(&jw[k], &iw[k], &format!("{isa:?} wave {k}"));
        }
        assert!(jw.iter().all(|w| w.state == WaveState::Done), "{isa:?}");

        // A wave that is done is passed over; the run stops before one waiting at a global
        // wave sync (whether it runs again is the loop's to say), and releases nothing.
        for (state, last) in [(WaveState::Done, 3), (WaveState::Gws, 1)] {
            let mut jw = waves([(1, 1); 4]);
            jw[2].state = state;
            let untouched = [jw[2].clone(), jw[3].clone()];
            let j = jit_run(&mut cx, &code, &mut jw, 0, limit);
            j.result.unwrap();
            assert_eq!(j.last, last, "{isa:?}: wave 2 {state:?}");
            assert_same(
                &jw[2],
                &untouched[0],
                &format!("{isa:?}: the {state:?} wave"),
            );
            if state == WaveState::Gws {
                assert!(!j.released, "{isa:?}");
                assert_same(&jw[3], &untouched[1], &format!("{isa:?}: after {state:?}"));
                assert!(jw[..2].iter().all(|w| w.state == WaveState::Barrier));
            }
        }

        // A stop request: the round ends at the barrier, not released.
        let mut jw = waves([(0, 0); 4]);
        cx.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let j = jit_run(&mut cx, &code, &mut jw, 0, limit);
        cx.stop.store(false, std::sync::atomic::Ordering::Relaxed);
        j.result.unwrap();
        assert_eq!((j.last, j.released), (3, false), "{isa:?}: stopped");
        assert!(jw
            .iter()
            .all(|w| w.state == WaveState::Barrier && w.pc == 8));

        // A program with a global wave sync operation (here never reached) does not switch:
        // the loop must see each change of the device's GWS before the next wave runs.
        let gws = kernel_then(&[("ds_gws_barrier v1 gds", &[0xd93b_0000, 0x0000_0001])]);
        let gcode = JitCode::compile(&gws, 0, false, false, isa).unwrap();
        let mut grig = Rig::new(0);
        let mut gcx = grig.cx(&gws, Checker::new(&map, 0..0), 0);
        // Each run is one wave's, the last one's too (whose barrier every wave reached).
        let mut jw = waves(MAIN);
        for k in 0..4 {
            let j = jit_run(&mut gcx, &gcode, &mut jw, k, limit);
            j.result.unwrap();
            assert_eq!(
                (j.last, j.released, j.switches),
                (k, false, 0),
                "{isa:?}: GWS"
            );
            assert!(
                jw[k + 1..].iter().all(|w| w.pc == 0),
                "{isa:?}: GWS, others not run"
            );
        }
        assert!(
            jw.iter().all(|w| w.state == WaveState::Barrier),
            "{isa:?}: GWS"
        );

        // The loop's clock due (the waves ran that many instructions): nothing released, the
        // loop looks at the clock first.
        let mut jw = waves(MAIN);
        let j = jit_run_clock(&mut cx, &code, &mut jw, (0, limit, 30));
        j.result.unwrap();
        assert_eq!((j.last, j.released), (3, false), "{isa:?}: the clock due");
        assert!(j.insts >= 30 && jw.iter().all(|w| w.state == WaveState::Barrier));
        let j = jit_run_clock(&mut cx, &code, &mut waves(MAIN), (0, limit, j.insts + 1));
        assert!(j.released, "{isa:?}: the clock due after the first round");

        // A wave switched to gets a time slice of its own (its call-outs too): wave 1 loops
        // past it in the second round and stops there (sliced), waves 2 and 3 released and
        // not run. (The first loops make the waves' counts, and so their slices' ends,
        // differ.)
        let big = (WAVE_SLICE as u32) / 6 + 100;
        let sliced = [(3, 3), (40, big), (3, 3), (3, 3)];
        let (mut jw, mut iw) = (waves(sliced), waves(sliced));
        let j = jit_run(&mut cx, &code, &mut jw, 0, limit);
        j.result.unwrap();
        let (il, ir) = interp_group(&mut cx, &mut iw, limit);
        ir.unwrap();
        assert_eq!((j.last, il), (1, 1), "{isa:?}: sliced");
        assert_eq!(jw[1].state, WaveState::Sliced, "{isa:?}");
        assert!(j.insts > WAVE_SLICE, "{isa:?}: {} counted", j.insts);
        for k in 0..4 {
            assert_same(&jw[k], &iw[k], &format!("{isa:?} sliced, wave {k}"));
        }

        // The dispatch's budget: wave 2's loop runs out of it in the second round; the run
        // reports that wave's fault, as the interpreter does.
        let limit = 400;
        let budget = [(3, 3), (3, 3), (3, 200), (3, 3)];
        let (mut jw, mut iw) = (waves(budget), waves(budget));
        let j = jit_run(&mut cx, &code, &mut jw, 0, limit);
        let (il, ir) = interp_group(&mut cx, &mut iw, limit);
        assert_eq!((j.last, il), (2, 2), "{isa:?}: the wave out of budget");
        let (je, ie) = (j.result.unwrap_err(), ir.unwrap_err());
        assert_eq!(format!("{je:?}"), format!("{ie:?}"), "{isa:?}: the fault");
        for k in 0..4 {
            assert_same(&jw[k], &iw[k], &format!("{isa:?} budget, wave {k}"));
        }
    }
}

/// The work-group loop's side of [`super::GroupEnd`] for a test: `groups` more work-groups,
/// each four fresh waves with the given loop counts; the waves of each ended one kept.
struct Groups {
    groups: Vec<[(u32, u32); 4]>,
    ended: Vec<Vec<Wave>>,
    asked: usize,
}

impl super::GroupEnd for Groups {
    fn chain(&mut self, ws: &mut [Wave], _: &mut ExecCtx) -> Option<u64> {
        self.asked += 1;
        let loops = self.groups.pop()?;
        self.ended.push(ws.to_vec());
        ws.clone_from_slice(&waves(loops));
        Some(u64::MAX)
    }
}

/// Where the loop lets it, the last wave of a work-group to end goes on in generated code
/// with the next work-group the loop sets up (`wave_switch.rs`, `GroupEnd`): one run does
/// three work-groups, each left as the interpreter leaves it, asks at each one's end (the
/// last time in vain: the run ends), and counts only the last one's instructions as its own.
#[test]
fn work_groups_chain_in_one_run() {
    let prog = kernel();
    let map = NoMemory;
    let count = |ws: &[Wave]| ws.iter().map(|w| w.executed).sum::<u64>();
    let order = [
        MAIN,
        [(1, 0), (0, 2), (3, 3), (0, 0)],
        [(4, 4), (0, 1), (1, 0), (2, 2)],
    ];
    for isa in isas() {
        let code = JitCode::compile(&prog, 0, false, false, isa).unwrap();
        let mut rig = Rig::new(0);
        let mut cx = rig.cx(&prog, Checker::new(&map, 0..0), 0);
        let limit = 1 << 20;
        let mut groups = Groups {
            groups: vec![order[2], order[1]],
            ended: Vec::new(),
            asked: 0,
        };
        let mut jw = waves(order[0]);
        let mut runner = WaveRunner::with_code(&cx, &code, limit);
        cx.budget = jw[0].start_turn(limit);
        let ran = runner.run(&mut jw, 0, &mut cx, u64::MAX, Some(&mut groups));
        ran.result.unwrap();
        assert_eq!(groups.asked, 3, "{isa:?}: asked at each work-group's end");
        assert_eq!(ran.last, 3, "{isa:?}");
        assert_eq!(
            ran.insts,
            count(&jw),
            "{isa:?}: the last work-group's count"
        );
        groups.ended.push(jw);
        for (g, loops) in order.iter().enumerate() {
            let mut iw = waves(*loops);
            interp_group(&mut cx, &mut iw, limit).1.unwrap();
            for (k, (jw, iw)) in groups.ended[g].iter().zip(&iw).enumerate() {
                assert_same(jw, iw, &format!("{isa:?} work-group {g} wave {k}"));
            }
        }
    }
}
