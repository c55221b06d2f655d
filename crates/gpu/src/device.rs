//! The device: configuration, dispatches, and the worker threads that run work-groups.
//!
//! Work-groups run on a process-wide pool of worker threads (one pool per worker count, shared
//! by every device and queue): a dispatch starts at most one task per worker (never more than
//! it has work-groups), and each task takes work-group indices from a shared counter. A
//! dispatch of one work-group runs on the calling thread. Several dispatches may run at once;
//! their tasks interleave on the pool. Each worker thread keeps its [`Worker`] (waves, LDS,
//! scratch) across dispatches.

use crate::fault::{Fault, FaultKind, PacketField};
use crate::grid::Grid;
use crate::program::Kernel;
use crate::trace::TraceConfig;
use crate::workgroup::{run_workgroup, Worker};
use crate::{DeviceEvents, MemoryMap};
use std::cell::RefCell;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

thread_local! {
    /// The reusable state of the work-groups run on this thread.
    static WORKER: RefCell<Worker> = RefCell::new(Worker::new());
}

/// The shared pool with `threads` workers (created on first use).
fn pool(threads: usize) -> Option<Arc<rayon::ThreadPool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let mut pools = POOLS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(p) = pools.get(&threads) {
        return Some(p.clone());
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("softhsa-gpu-{i}"))
        .build()
        .ok()
        .map(Arc::new)?;
    pools.insert(threads, p.clone());
    Some(p)
}

/// Largest private segment per work-item a dispatch may ask for.
pub const MAX_PRIVATE_SIZE: u32 = 256 * 1024;

/// The GPU model this device reports and executes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GfxVersion {
    Gfx900,
    #[default]
    Gfx906,
    /// MI100: gfx906's instructions plus the matrix cores (MFMA) and the AGPRs.
    Gfx908,
    /// MI200: AGPRs as memory operands, f64 MFMA, packed FP32, 64-bit DPP, f64 atomics.
    Gfx90a,
    /// MI300 (gfx940/941/942): as gfx90a, plus architected flat scratch, fp8/xf32 MFMA.
    Gfx940,
    Gfx941,
    Gfx942,
}

impl GfxVersion {
    /// The LLVM processor name.
    pub fn name(self) -> &'static str {
        match self {
            GfxVersion::Gfx900 => "gfx900",
            GfxVersion::Gfx906 => "gfx906",
            GfxVersion::Gfx908 => "gfx908",
            GfxVersion::Gfx90a => "gfx90a",
            GfxVersion::Gfx940 => "gfx940",
            GfxVersion::Gfx941 => "gfx941",
            GfxVersion::Gfx942 => "gfx942",
        }
    }

    /// The instruction set its code is decoded as (gfx941/gfx942 share gfx940's).
    pub fn isa(self) -> softhsa_isa::Gfx {
        match self {
            GfxVersion::Gfx900 => softhsa_isa::Gfx::Gfx900,
            GfxVersion::Gfx906 => softhsa_isa::Gfx::Gfx906,
            GfxVersion::Gfx908 => softhsa_isa::Gfx::Gfx908,
            GfxVersion::Gfx90a => softhsa_isa::Gfx::Gfx90a,
            GfxVersion::Gfx940 | GfxVersion::Gfx941 | GfxVersion::Gfx942 => {
                softhsa_isa::Gfx::Gfx940
            }
        }
    }
}

/// Device configuration.
#[derive(Clone, Debug)]
pub struct DeviceConfig {
    pub gfx: GfxVersion,
    /// Compute units reported to software (does not limit host parallelism).
    pub compute_units: u32,
    /// Worker threads per dispatch; 0 means all host cores.
    pub worker_threads: usize,
    /// Max instructions one wave may execute before it faults (0: unlimited).
    pub wave_instruction_budget: u64,
    /// `SOFTHSA_TRACE=isa`: trace one wave's instructions.
    pub trace: Option<TraceConfig>,
    /// The engine that runs waves (`SOFTHSA_JIT`).
    pub engine: crate::jit::Engine,
}

impl Default for DeviceConfig {
    fn default() -> Self {
        DeviceConfig {
            gfx: GfxVersion::Gfx906,
            compute_units: 60,
            worker_threads: 0,
            wave_instruction_budget: 1 << 32,
            trace: None,
            engine: crate::jit::Engine::from_env(),
        }
    }
}

/// One kernel dispatch, as the packet processor sees it.
pub struct Dispatch<'a> {
    pub kernel: &'a Kernel,
    pub grid_size: [u32; 3],
    pub workgroup_size: [u16; 3],
    /// Packet's group_segment_size: bytes of LDS beyond the kernel's fixed LDS.
    pub dynamic_group_segment_size: u32,
    /// Packet's private_segment_size (bytes per work-item); the kernel's fixed size is the floor.
    pub private_segment_size: u32,
    pub kernarg_address: u64,
    /// Address of the AQL packet (dispatch ptr).
    pub packet_address: u64,
    /// Address of the amd_queue_t (queue ptr).
    pub queue_address: u64,
    pub dispatch_id: u64,
    pub memory: &'a dyn MemoryMap,
    pub events: &'a dyn DeviceEvents,
}

/// What a completed dispatch did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DispatchStats {
    pub workgroups: u64,
    pub waves: u64,
    /// Wave instructions executed (one per wave per instruction).
    pub instructions: u64,
    pub elapsed_ns: u64,
    /// The engine that ran the waves.
    pub engine: crate::jit::Engine,
    /// With the JIT: instructions of the kernel's code translated inline, of all, and how long
    /// the (one-time, cached) compilation took.
    pub jit: Option<JitStats>,
}

/// What the JIT made of a dispatch's program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JitStats {
    pub native: usize,
    pub slots: usize,
    pub compile_ns: u64,
}

/// Shared state of one dispatch in flight.
pub(crate) struct DispatchCtx<'a> {
    pub d: &'a Dispatch<'a>,
    pub grid: Grid,
    pub config: &'a DeviceConfig,
    pub lds_size: u32,
    pub private_size: u32,
    pub stop: AtomicBool,
    /// The device's global wave sync resources.
    pub gws: &'a Arc<crate::exec::gws::Gws>,
}

/// The software GFX9 GPU.
pub struct Device {
    config: DeviceConfig,
    threads: usize,
    /// `None` if the pool could not be created: dispatches then run on the calling thread.
    pool: Option<Arc<rayon::ThreadPool>>,
    /// GWS: shared by all dispatches of this device (`ds_gws_*`).
    gws: Arc<crate::exec::gws::Gws>,
}

impl Device {
    pub fn new(config: DeviceConfig) -> Device {
        let threads = if config.worker_threads == 0 {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        } else {
            config.worker_threads
        };
        let pool = if threads > 1 { pool(threads) } else { None };
        Device {
            config,
            threads,
            pool,
            gws: Default::default(),
        }
    }

    pub fn config(&self) -> &DeviceConfig {
        &self.config
    }

    /// Runs a dispatch to completion (or to its first fault), blocking the caller.
    pub fn dispatch(&self, d: &Dispatch) -> Result<DispatchStats, Fault> {
        let start = Instant::now();
        let kd = &d.kernel.descriptor;
        let name = &d.kernel.name;
        let grid = Grid::new(d.grid_size, d.workgroup_size)
            .map_err(|(field, why)| Fault::bad_packet(name, field, why))?;
        let lds = u64::from(kd.group_segment_fixed_size) + u64::from(d.dynamic_group_segment_size);
        if lds > 64 * 1024 {
            return Err(Fault::bad_packet(
                name,
                PacketField::GroupSegment,
                format!("{lds} bytes of LDS (at most 65536)"),
            ));
        }
        // Checked before rounding up: a size near 2^32 would wrap to 0 and pass.
        let private = d.private_segment_size.max(kd.private_segment_fixed_size);
        // Scratch backing is allocated per worker: 1024 work-items x 256 KiB = 256 MiB at most.
        if private > MAX_PRIVATE_SIZE {
            return Err(Fault::bad_packet(
                name,
                PacketField::PrivateSegment,
                format!("{private} bytes of scratch per work-item (at most {MAX_PRIVATE_SIZE})"),
            ));
        }
        let ctx = DispatchCtx {
            d,
            grid,
            config: &self.config,
            lds_size: lds as u32,
            private_size: private.next_multiple_of(4),
            stop: AtomicBool::new(false),
            gws: &self.gws,
        };
        let total = grid.workgroup_count();
        let next = AtomicU64::new(0);
        let waves = AtomicU64::new(0);
        let insts = AtomicU64::new(0);
        // Of the faults seen, the lowest work-group index's is reported.
        let fault: Mutex<Option<(u64, Fault)>> = Mutex::new(None);
        let work_loop = |worker: &mut Worker| loop {
            if ctx.stop.load(Ordering::Relaxed) {
                break;
            }
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= total {
                break;
            }
            let r = catch_unwind(AssertUnwindSafe(|| run_workgroup(&ctx, worker, i)));
            let r = r.unwrap_or_else(|p| {
                let msg = p
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                *worker = Worker::new();
                Err(Fault::internal(name, grid.workgroup_id(i), msg))
            });
            match r {
                Ok((w, n)) => {
                    waves.fetch_add(w, Ordering::Relaxed);
                    insts.fetch_add(n, Ordering::Relaxed);
                }
                Err(f) => {
                    ctx.stop.store(true, Ordering::Relaxed);
                    let mut g = fault.lock().unwrap_or_else(|e| e.into_inner());
                    if g.as_ref().is_none_or(|(j, _)| i < *j) {
                        *g = Some((i, f));
                    }
                    break;
                }
            }
        };
        let work = || {
            WORKER.with(|cell| match cell.try_borrow_mut() {
                Ok(mut worker) => {
                    worker.begin_dispatch(self.config.trace.as_ref(), name);
                    work_loop(&mut worker);
                }
                // Tasks never nest on a thread; should one, it works with its own state.
                Err(_) => {
                    let mut worker = Worker::new();
                    worker.begin_dispatch(self.config.trace.as_ref(), name);
                    work_loop(&mut worker);
                }
            })
        };
        let workers = (self.threads as u64).min(total).max(1) as usize;
        match (&self.pool, workers) {
            (Some(pool), 2..) => pool.scope(|s| {
                for _ in 0..workers {
                    s.spawn(|_| work());
                }
            }),
            _ => work(),
        }
        if let Some((_, mut f)) = fault.into_inner().unwrap_or_else(|e| e.into_inner()) {
            if let FaultKind::MemoryViolation { address, .. } = f.kind {
                f.note = d.memory.describe(address).map(Into::into);
            }
            return Err(f);
        }
        let engine = self.config.engine.effective();
        let gfx900 = self.config.gfx == GfxVersion::Gfx900;
        let jit = (engine != crate::jit::Engine::Interpreter)
            .then(|| {
                d.kernel.jit.get(
                    &d.kernel.program,
                    engine == crate::jit::Engine::Check,
                    gfx900,
                )
            })
            .flatten()
            .map(|c| JitStats {
                native: c.native,
                slots: c.reachable,
                compile_ns: c.compile_ns,
            });
        let engine = if jit.is_some() {
            engine
        } else {
            crate::jit::Engine::Interpreter
        };
        Ok(DispatchStats {
            engine,
            jit,
            workgroups: total,
            waves: waves.into_inner(),
            instructions: insts.into_inner(),
            elapsed_ns: start.elapsed().as_nanos() as u64,
        })
    }
}
