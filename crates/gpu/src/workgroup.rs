//! One work-group on one worker thread: its waves interleaved at s_barrier, s_sleep and wave
//! end, sharing the work-group's LDS without locks.

use crate::device::DispatchCtx;
use crate::exec::{ExecCtx, ExecFault};
use crate::fault::Fault;
use crate::grid::WorkGroupShape;
use crate::lds::Lds;
use crate::memory::Checker;
use crate::trace::{TraceConfig, Tracer};
use crate::valu::{VopInputs, VopOutputs};
use crate::wave::{init_wave, private_vsharp, LaunchValues, Wave, WaveState};

/// A worker thread's reusable state: waves, LDS, scratch backing, VALU operand buffers.
pub struct Worker {
    waves: Vec<Wave>,
    lds: Lds,
    scratch: Vec<u64>,
    vin: Box<VopInputs>,
    vout: Box<VopOutputs>,
    tracer: Option<Tracer>,
    /// The memory range of the last successful check, carried across this dispatch's
    /// work-groups (never across dispatches).
    mem_cache: crate::memory::MemCache,
}

impl Worker {
    pub fn new() -> Self {
        Worker {
            waves: Vec::new(),
            lds: Lds::new(),
            scratch: Vec::new(),
            vin: Box::default(),
            vout: Box::default(),
            tracer: None,
            mem_cache: Default::default(),
        }
    }
}

impl Worker {
    /// Prepares for a new dispatch: sets (or clears) the ISA trace, forgets cached ranges.
    pub fn begin_dispatch(&mut self, trace: Option<&TraceConfig>, kernel: &str) {
        self.tracer = trace.map(|c| Tracer::new(c.clone(), kernel));
        self.mem_cache = Default::default();
    }
}

impl Default for Worker {
    fn default() -> Self {
        Self::new()
    }
}

/// Runs work-group `index` of the dispatch; returns (waves, wave instructions).
pub(crate) fn run_workgroup(
    ctx: &DispatchCtx,
    wk: &mut Worker,
    index: u64,
) -> Result<(u64, u64), Fault> {
    let d = ctx.d;
    let kernel = d.kernel;
    let wg_id = ctx.grid.workgroup_id(index);
    let shape = WorkGroupShape::new(ctx.grid.workgroup_extent(wg_id));
    let nw = shape.waves as usize;
    while wk.waves.len() < nw {
        wk.waves.push(Wave::new());
    }
    wk.lds.reset(ctx.lds_size as usize);
    let wave_bytes = ctx.private_size * 64;
    let words = (wave_bytes as usize * nw).div_ceil(8).max(1);
    if wk.scratch.len() < words {
        // Host memory exhaustion is a fault of this dispatch, not an abort of the process.
        if wk
            .scratch
            .try_reserve_exact(words - wk.scratch.len())
            .is_err()
        {
            return Err(Fault::internal(
                &kernel.name,
                wg_id,
                format!("cannot allocate {} bytes of scratch", words * 8),
            ));
        }
        wk.scratch.resize(words, 0);
    }
    let scratch_base = wk.scratch.as_mut_ptr() as u64;
    let lv = LaunchValues {
        entry: kernel.entry,
        kernarg: d.kernarg_address,
        packet: d.packet_address,
        queue: d.queue_address,
        dispatch_id: d.dispatch_id,
        scratch_base,
        scratch_wave_bytes: wave_bytes,
        private_size: ctx.private_size,
        private_vsharp: private_vsharp(scratch_base),
        packed_ids: kernel.program.gfx.unified_vgprs(),
    };
    for (k, w) in wk.waves[..nw].iter_mut().enumerate() {
        init_wave(
            w,
            &kernel.descriptor,
            &ctx.grid,
            &shape,
            wg_id,
            k as u32,
            &lv,
        );
    }
    let mut cx = ExecCtx {
        prog: &kernel.program,
        lds: &mut wk.lds,
        mem: Checker::new(d.memory, scratch_base..scratch_base + 8 * words as u64)
            .with_cache(std::mem::take(&mut wk.mem_cache)),
        events: d.events,
        vin: &mut wk.vin,
        vout: &mut wk.vout,
        private_size: ctx.private_size,
        budget: ctx.config.wave_instruction_budget,
        stop: &ctx.stop,
        tracer: wk.tracer.as_mut(),
        gfx900: ctx.config.gfx == crate::device::GfxVersion::Gfx900,
        jit: Some(&kernel.jit),
    };
    let _gws = crate::exec::gws::enter(ctx.gws);
    let waves = &mut wk.waves[..nw];
    // VSKIP must skip every vector instruction, which only the interpreter checks each time.
    let engine = if kernel.program.uses_vskip {
        crate::jit::Engine::Interpreter
    } else {
        ctx.config.engine.effective()
    };
    loop {
        let mut running = false;
        for w in waves.iter_mut() {
            if w.state == WaveState::Running {
                running = true;
                if let Err(e) = crate::jit::run(w, &mut cx, engine) {
                    return Err(report(ctx, w, e));
                }
            }
        }
        if waves.iter().all(|w| w.state == WaveState::Done) {
            break;
        }
        if !waves.iter().any(|w| w.state == WaveState::Running) {
            // Every live wave waits at the barrier: release them all.
            for w in waves.iter_mut().filter(|w| w.state == WaveState::Barrier) {
                w.state = WaveState::Running;
            }
        } else if !running {
            break;
        }
    }
    wk.mem_cache = cx.mem.take_cache();
    let insts = waves.iter().map(|w| w.executed).sum();
    Ok((nw as u64, insts))
}

fn report(ctx: &DispatchCtx, w: &Wave, e: ExecFault) -> Fault {
    let prog = &ctx.d.kernel.program;
    Fault {
        kind: e.kind,
        kernel: ctx.d.kernel.name.as_str().into(),
        pc: prog.addr(w.pc),
        instruction: prog.text(w.pc).into(),
        workgroup: w.workgroup,
        wave: w.index,
        lane: e.lane,
        address: e.address,
        note: None,
    }
}
