//! The state of one work-group (waves, LDS, scratch) as a movable object, and the per-thread
//! state of a runner.
//!
//! A work-group that waits (sleeps, spins past its time slice, blocks at a global wave sync) is
//! parked: its [`WgContext`] moves to its job's list and the runner takes another context.
//! Moving a context moves pointers only: the scratch backing (whose address is in the waves'
//! registers) stays where it is. In the steady state (nothing parks) a runner reuses one context
//! for every work-group it runs, so nothing is allocated per work-group.

use crate::grid::Grid;
use crate::lds::Lds;
use crate::trace::Tracer;
use crate::valu::{VopInputs, VopOutputs};
use crate::wave::{LaunchValues, Wave, WaveStart};

/// What a work-group's [`WaveStart`] is made from besides its work-group id: the job (slot,
/// generation), its kernel descriptor (by address), grid and launch values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StartKey {
    pub job: (u32, u32),
    pub kd: usize,
    pub grid: Grid,
    pub lv: LaunchValues,
}

/// Work-groups a runner ended and their statistics, not yet added to the job.
#[derive(Default)]
pub(crate) struct Tally {
    pub done: u64,
    pub waves: u64,
    pub insts: u64,
}

/// The running average of a job's wave instructions per work-group that batch sizes follow
/// (`job::batch`; `avg` 0: none ended yet), after a work-group of `insts`.
pub(crate) fn wg_average(avg: u64, insts: u64) -> u64 {
    let insts = insts.max(1);
    if avg == 0 {
        insts
    } else {
        (3 * avg + insts) / 4
    }
}

/// One work-group in flight.
pub(crate) struct WgContext {
    /// Linear work-group index in its dispatch.
    pub index: u64,
    /// Waves (`waves[..nw]` are this work-group's; more may be kept for reuse).
    pub waves: Vec<Wave>,
    pub nw: usize,
    pub lds: Lds,
    /// Scratch backing of all its waves (cache-line aligned: `line_buf`).
    pub scratch: crate::line_buf::LineBuf,
    /// Wave instructions executed since the last preemption check.
    pub slice_insts: u64,
    /// When the current time slice's first clock check happened (`None`: not yet).
    pub slice_start: Option<std::time::Instant>,
    /// The last work-group's wave start and what it was made from: the next work-group of the
    /// same dispatch on this context only changes its work-group ids.
    pub start: Option<(StartKey, WaveStart)>,
}

impl WgContext {
    pub fn new() -> Box<WgContext> {
        Box::new(WgContext {
            index: 0,
            waves: Vec::new(),
            nw: 0,
            lds: Lds::new(),
            scratch: crate::line_buf::LineBuf::new(),
            slice_insts: 0,
            slice_start: None,
            start: None,
        })
    }

    /// Waves of a parked context, for the memory cap on parked work-groups.
    pub fn wave_count(&self) -> u32 {
        self.nw as u32
    }
}

/// Spare contexts a runner keeps for reuse.
const SPARE_CONTEXTS: usize = 4;

/// A thread's reusable state for running work-groups: VALU operand buffers, the ISA tracer,
/// spare contexts.
pub(crate) struct Runner {
    pub vin: Box<VopInputs>,
    pub vout: Box<VopOutputs>,
    pub tracer: Option<Tracer>,
    /// The job (slot, generation) the tracer and memory cache were set up for.
    pub job: Option<(u32, u32)>,
    /// The memory ranges checks proved, carried across the work-groups of one job (never
    /// across jobs), fresh or resumed: per runner, not per work-group.
    pub mem_cache: crate::memory::MemCache,
    /// Claimed, unstarted work-group indices of the job it runs (`sched::job::batch`).
    pub batch: std::ops::Range<u64>,
    /// Wave instructions per work-group of that job, a running average (0: none ended yet).
    pub wg_insts: u64,
    #[allow(clippy::vec_box)] // contexts move between runners and parked lists as pointers
    spare: Vec<Box<WgContext>>,
}

impl Runner {
    pub fn new() -> Runner {
        Runner {
            vin: Box::default(),
            vout: Box::default(),
            tracer: None,
            job: None,
            mem_cache: Default::default(),
            batch: 0..0,
            wg_insts: 0,
            spare: Vec::new(),
        }
    }

    /// A context for a new work-group (a spare one when there is one).
    pub fn take_context(&mut self) -> Box<WgContext> {
        self.spare.pop().unwrap_or_else(WgContext::new)
    }

    /// Keeps a finished context for reuse (a few; the rest are freed).
    pub fn give_back(&mut self, c: Box<WgContext>) {
        if self.spare.len() < SPARE_CONTEXTS {
            self.spare.push(c);
        }
    }
}
