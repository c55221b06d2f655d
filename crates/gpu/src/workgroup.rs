//! One work-group on one runner: its waves interleaved at `s_barrier`, `s_sleep`, global wave
//! syncs and time-slice ends, sharing the work-group's LDS without locks; and the points where
//! the whole work-group yields its runner (parks) so that others make progress.
//!
//! Time slices cost nothing in the common case: each wave runs with the interpreter's
//! instruction limit set to the end of its slice (the same compare both engines already make
//! for the instruction budget), and the work-group looks at the clock only every
//! [`CHECK_INSTRUCTIONS`] instructions.

use crate::exec::{ExecCtx, ExecFault};
use crate::fault::Fault;
use crate::grid::WorkGroupShape;
use crate::memory::Checker;
use crate::sched::context::{wg_average, Runner, StartKey, Tally, WgContext};
use crate::sched::job::{Job, JobData};
use crate::sched::Scheduler;
use crate::wave::{init_wave, private_vsharp, LaunchValues, Wave, WaveStart, WaveState};
use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Instructions of a work-group between two looks at the clock.
pub const CHECK_INSTRUCTIONS: u64 = 1 << 18;
/// Running time after which a work-group yields to a starved or higher-priority job, or to
/// parked work-groups of its own dispatch.
pub const PREEMPT_AFTER: Duration = Duration::from_millis(2);
/// Running time after which a work-group also lets unstarted work-groups of its own dispatch
/// run (a spin without `s_sleep` waiting for one of them).
pub const START_OTHERS_AFTER: Duration = Duration::from_millis(20);

/// Why a work-group gave its runner up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Park {
    /// Every wave sleeps (`s_sleep`) while other work waits: ready again at once.
    Sleep,
    /// Its time slice ended while other work deserved the runner: ready again at once.
    Slice,
    /// Its waves wait at global wave sync operations (or barriers): ready when the device's
    /// GWS epoch moves past this one.
    Gws { epoch: u64 },
}

pub(crate) enum Outcome {
    /// Every wave ended (counted in the run's tally).
    Done(Box<WgContext>),
    Park(Box<WgContext>, Park),
    Fault(Box<WgContext>, Fault),
}

/// Sets up the waves, LDS and scratch of a fresh work-group. `Err`: host memory ran out.
fn start(job: &Job, ctx: &mut WgContext) -> Result<(), Fault> {
    let d = job.data();
    let kernel = d.kernel();
    let wg_id = d.grid.workgroup_id(ctx.index);
    let shape = WorkGroupShape::new(d.grid.workgroup_extent(wg_id));
    let nw = shape.waves as usize;
    while ctx.waves.len() < nw {
        ctx.waves.push(Wave::new());
    }
    ctx.lds.reset(d.lds_size as usize);
    let wave_bytes = d.private_size * 64;
    let bytes = (wave_bytes as usize * nw).max(1);
    // Host memory exhaustion is a fault of this dispatch, not an abort of the process.
    if ctx.scratch.try_grow(bytes).is_err() {
        return Err(Fault::internal(
            &kernel.name,
            wg_id,
            format!("cannot allocate {bytes} bytes of scratch"),
        ));
    }
    let scratch_base = ctx.scratch.as_mut_ptr() as u64;
    let lv = LaunchValues {
        entry: kernel.entry,
        kernarg: d.kernarg,
        packet: d.packet,
        queue: d.queue,
        dispatch_id: d.dispatch_id,
        scratch_base,
        scratch_wave_bytes: wave_bytes,
        private_size: d.private_size,
        private_vsharp: private_vsharp(scratch_base),
        packed_ids: kernel.program.gfx.unified_vgprs(),
    };
    let key = StartKey {
        job: (job.slot, job.generation()),
        kd: &kernel.descriptor as *const _ as usize,
        grid: d.grid,
        lv,
    };
    let first = match &mut ctx.start {
        Some((k, s)) if *k == key => {
            s.set_workgroup(wg_id);
            s
        }
        slot => {
            let s = WaveStart::new(&kernel.descriptor, &d.grid, wg_id, &lv);
            &slot.insert((key, s)).1
        }
    };
    for (k, w) in ctx.waves[..nw].iter_mut().enumerate() {
        init_wave(w, first, &shape, k as u32, &lv);
    }
    ctx.nw = nw;
    ctx.slice_insts = 0;
    ctx.slice_start = None;
    Ok(())
}

/// Runs (or resumes) the work-group in `ctx` until it ends, faults or parks.
/// `inline`: the runner is the dispatch's submitter, which may want to get back to its own work
/// ([`crate::DispatchClient::yield_inline`]).
///
/// Each work-group that ends is added to `tally`. Then `next` (the runner's loop's choice,
/// given the runner's batch) may name the next fresh work-group: when it has the ended one's
/// shape, it runs in the same context, set up as the loop would set it up, without leaving
/// (the runner's set-up for a work-group costs a short kernel's wave as much as its own code).
/// The outcome is the last work-group's.
// Never inlined: whether the compiler inlined it into `run_job`'s loop changed with unrelated
// edits elsewhere in the crate, and inlined it cost 67 more host instructions per wave (a
// streaming kernel's wave is about 900).
#[inline(never)]
pub(crate) fn run_context(
    s: &'static Scheduler,
    job: &'static Job,
    mut ctx: Box<WgContext>,
    r: &mut Runner,
    inline: bool,
    tally: &mut Tally,
    next: &mut dyn FnMut(&mut Range<u64>) -> Option<u64>,
) -> Outcome {
    let d = job.data();
    if ctx.nw == 0 {
        if let Err(f) = start(job, &mut ctx) {
            return Outcome::Fault(ctx, f);
        }
    }
    let res = catch_unwind(AssertUnwindSafe(|| {
        run_waves(s, job, &mut ctx, r, inline, tally, next)
    }));
    match res {
        Ok(Ok(Some(park))) => Outcome::Park(ctx, park),
        Ok(Ok(None)) => {
            ctx.nw = 0;
            Outcome::Done(ctx)
        }
        Ok(Err(f)) => {
            ctx.nw = 0;
            Outcome::Fault(ctx, f)
        }
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            let wg = d.grid.workgroup_id(ctx.index);
            // The context's state is unknown after a panic: start from a fresh one.
            // (Its claimed work-groups stay claimed: they still must be counted.)
            let batch = std::mem::replace(&mut r.batch, 0..0);
            *r = Runner::new();
            r.batch = batch;
            let f = Fault::internal(&d.kernel().name, wg, msg);
            Outcome::Fault(WgContext::new(), f)
        }
    }
}

/// The wave loop. `Ok(None)`: every wave ended; `Ok(Some)`: the work-group parks.
fn run_waves(
    s: &'static Scheduler,
    job: &'static Job,
    ctx: &mut WgContext,
    r: &mut Runner,
    inline: bool,
    tally: &mut Tally,
    next: &mut dyn FnMut(&mut Range<u64>) -> Option<u64>,
) -> Result<Option<Park>, Fault> {
    let d = job.data();
    let kernel = d.kernel();
    let config = &d.shared.config;
    let nw = ctx.nw;
    let scratch_base = ctx.scratch.as_mut_ptr() as u64;
    let scratch_end = scratch_base + ctx.scratch.len() as u64;
    let mut cx = ExecCtx {
        prog: &kernel.program,
        lds: &mut ctx.lds,
        mem: Checker::new(d.client.memory(), scratch_base..scratch_end)
            .with_cache(std::mem::take(&mut r.mem_cache)),
        events: d.client.events(),
        vin: &mut r.vin,
        vout: &mut r.vout,
        private_size: d.private_size,
        budget: 0,
        stop: &job.stop,
        tracer: r.tracer.as_mut(),
        gfx900: config.gfx == crate::device::GfxVersion::Gfx900,
        jit: Some(&kernel.jit),
    };
    let waves = &mut ctx.waves[..nw];
    // VSKIP must skip every vector instruction, which only the interpreter checks each time.
    let engine = if kernel.program.uses_vskip {
        crate::jit::Engine::Interpreter
    } else {
        config.engine.effective()
    };
    let limit = config.wave_instruction_budget;
    let mut runner = crate::jit::WaveRunner::new(&cx, engine, limit);
    let mut chain = Chain {
        d,
        tally,
        batch: &mut r.batch,
        wg_insts: &mut r.wg_insts,
        index: &mut ctx.index,
        start: &mut ctx.start,
        slice_insts: &mut ctx.slice_insts,
        slice_start: &mut ctx.slice_start,
        next,
    };
    let gws = &d.shared.gws;
    // A change of the device's GWS made here wakes the work-groups parked at GWS operations.
    let mut gws_epoch = gws.epoch();
    let result = loop {
        if job.stop.load(Ordering::Relaxed) {
            // Another work-group faulted or the dispatch was cancelled: this one ends.
            chain.end(waves);
            break Ok(None);
        }
        let mut progressed = false;
        let mut sleeping = false;
        let mut k = 0;
        while k < nw {
            let w = &mut waves[k];
            match w.state {
                WaveState::Running | WaveState::Sleeping | WaveState::Sliced => {}
                // Its GWS operation executes again once the GWS changed.
                WaveState::Gws if gws.epoch() != w.gws_epoch => {}
                _ => {
                    k += 1;
                    continue;
                }
            }
            cx.budget = w.start_turn(limit);
            // The run may go on with later waves (`jit/wave_switch.rs`).
            let clock_in = CHECK_INSTRUCTIONS.saturating_sub(*chain.slice_insts);
            let ran = runner.run(waves, k, &mut cx, clock_in, Some(&mut chain));
            let (last, w) = (ran.last, &waves[ran.last]);
            if let Err(e) = ran.result {
                return Err(report(d, w, e));
            }
            *chain.slice_insts += ran.insts;
            if ran.released {
                // Generated code started later rounds: this is the last one's progress.
                progressed = ran.round_progress;
                sleeping = false;
            } else {
                // (Waves before `last` wait at the barrier or are done: progress.)
                progressed |= last > k;
            }
            match w.state {
                WaveState::Sleeping => sleeping = true,
                WaveState::Sliced | WaveState::Gws => {}
                _ => progressed = true,
            }
            let e = gws.epoch();
            if e != gws_epoch {
                gws_epoch = e;
                progressed = true;
                d.shared.gws_waiters.wake();
            }
            k = last + 1;
        }
        if waves.iter().all(|w| w.state == WaveState::Done) {
            if chain.next_group(waves, cx.lds) {
                continue;
            }
            chain.end(waves);
            break Ok(None);
        }
        let can_run = |w: &Wave| {
            matches!(
                w.state,
                WaveState::Running | WaveState::Sleeping | WaveState::Sliced
            )
        };
        if !waves.iter().any(can_run) {
            if let Some(w) = waves.iter().find(|w| w.state == WaveState::Gws) {
                if waves
                    .iter()
                    .all(|w| w.state != WaveState::Gws || w.gws_epoch == gws_epoch)
                {
                    break Ok(Some(Park::Gws { epoch: w.gws_epoch }));
                }
                continue;
            }
            // Every live wave waits at the barrier: release them all. (Then the clock, as
            // after any round: waves that meet at barriers forever yield the runner too.)
            for w in waves.iter_mut().filter(|w| w.state == WaveState::Barrier) {
                w.state = WaveState::Running;
            }
        }
        let submitter_busy = || inline && d.client.yield_inline(d.tag);
        if sleeping
            && !progressed
            && (job.has_work()
                || !chain.batch.is_empty()
                || s.work_elsewhere(job.slot)
                || submitter_busy())
        {
            break Ok(Some(Park::Sleep));
        }
        if *chain.slice_insts >= CHECK_INSTRUCTIONS {
            // The clock is read from the first check on: short work-groups never read it.
            *chain.slice_insts = 0;
            let ran = chain.slice_start.get_or_insert_with(Instant::now).elapsed();
            if ran >= PREEMPT_AFTER
                && (job.has_ready()
                    || (ran >= START_OTHERS_AFTER && (job.startable() || !chain.batch.is_empty()))
                    || s.better_elsewhere(job.slot, d.priority)
                    || submitter_busy())
            {
                break Ok(Some(Park::Slice));
            }
        }
    };
    if result.as_ref().is_ok_and(|p| p.is_some()) {
        *chain.slice_start = None; // a new slice when it resumes
    }
    // The proven ranges stay with the runner (they hold for every work-group of the job).
    r.mem_cache = cx.mem.take_cache();
    result
}

/// A run's work-groups, one after another in one context (see [`run_context`]): what the
/// runner's loop would do between two of them, done inside the run.
struct Chain<'a> {
    d: &'a JobData,
    tally: &'a mut Tally,
    /// The runner's batch and its average of wave instructions per work-group.
    batch: &'a mut Range<u64>,
    wg_insts: &'a mut u64,
    /// The context's work-group index, wave start and time slice.
    index: &'a mut u64,
    start: &'a mut Option<(StartKey, WaveStart)>,
    slice_insts: &'a mut u64,
    slice_start: &'a mut Option<Instant>,
    next: &'a mut dyn FnMut(&mut Range<u64>) -> Option<u64>,
}

/// Counts a work-group whose waves (`waves`) ended in `tally` and in the runner's average of
/// wave instructions per work-group (`wg_insts`).
fn count_group(tally: &mut Tally, wg_insts: &mut u64, waves: &[Wave]) {
    let insts = waves.iter().map(|w| w.executed).sum();
    tally.done += 1;
    tally.waves += waves.len() as u64;
    tally.insts += insts;
    *wg_insts = wg_average(*wg_insts, insts);
}

impl Chain<'_> {
    /// Counts the work-group whose waves (`waves`) ended.
    fn end(&mut self, waves: &[Wave]) {
        count_group(self.tally, self.wg_insts, waves);
    }

    /// Where the loop would take the next work-group of the batch now and it has the shape of
    /// the one whose waves all ended: counts that one and sets the next one up in its place
    /// (its waves, scratch and wave start are there: only the ids change). `false`: nothing
    /// changed.
    fn next_group(&mut self, waves: &mut [Wave], lds: &mut crate::lds::Lds) -> bool {
        let (d, index) = (self.d, *self.index);
        let (Some((key, first)), Some(i)) = (self.start.as_mut(), self.batch.clone().next()) else {
            return false;
        };
        let id = match i == index + 1 {
            true => d.grid.next_id(first.wg_id()),
            false => d.grid.workgroup_id(i),
        };
        let extent = d.grid.workgroup_extent(first.wg_id());
        if d.grid.workgroup_extent(id) != extent || (self.next)(self.batch) != Some(i) {
            return false;
        }
        count_group(self.tally, self.wg_insts, waves);
        *self.index = i;
        first.set_workgroup(id);
        let shape = WorkGroupShape::new(extent);
        for (k, w) in waves.iter_mut().enumerate() {
            init_wave(w, first, &shape, k as u32, &key.lv);
        }
        lds.reset(d.lds_size as usize);
        *self.slice_insts = 0;
        *self.slice_start = None;
        true
    }
}

impl crate::jit::GroupEnd for Chain<'_> {
    fn chain(&mut self, waves: &mut [Wave], cx: &mut ExecCtx) -> Option<u64> {
        self.next_group(waves, cx.lds).then_some(CHECK_INSTRUCTIONS)
    }
}

fn report(d: &JobData, w: &Wave, e: ExecFault) -> Fault {
    let prog = &d.kernel().program;
    Fault {
        kind: e.kind,
        kernel: d.kernel().name.as_str().into(),
        pc: prog.addr(w.pc),
        instruction: prog.text(w.pc).into(),
        workgroup: w.workgroup,
        wave: w.index,
        lane: e.lane,
        address: e.address,
        note: None,
    }
}
