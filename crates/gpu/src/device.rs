//! The device: kernel dispatches onto the process-wide work-group scheduler ([`crate::sched`]).
//!
//! Two ways in:
//! - [`Device::dispatch`] runs a dispatch to completion, blocking the caller; it borrows its
//!   kernel and memory map (tests, tools, examples).
//! - [`Device::launch`] starts a dispatch and returns; the packet processors use it. The
//!   dispatch owns its kernel and reports its end through a [`DispatchClient`], on whichever
//!   thread finished its last work-group. With `inline`, the caller runs the work-groups itself
//!   while a worker slot is free (no hand-off for small grids); the workers take the rest.
//!
//! Each device (a queue's GPU) owns its global wave sync resources; every device shares the
//! scheduler of its worker count, so the work-groups of all dispatches, of one queue or many,
//! share the workers by priority.

pub use crate::config::{DeviceConfig, GfxVersion, MAX_PRIVATE_SIZE};
use crate::exec::gws::Gws;
use crate::fault::{Fault, PacketField};
use crate::grid::Grid;
use crate::program::Kernel;
use crate::sched::gws::GwsWaiters;
use crate::sched::job::{Job, JobData};
use crate::sched::{scheduler, Scheduler};
use crate::{DeviceEvents, MemoryMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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

/// An asynchronous dispatch ([`Device::launch`]): what [`Dispatch`] says, owned.
pub struct Launch {
    pub kernel: Arc<Kernel>,
    pub grid_size: [u32; 3],
    pub workgroup_size: [u16; 3],
    pub dynamic_group_segment_size: u32,
    pub private_segment_size: u32,
    pub kernarg_address: u64,
    pub packet_address: u64,
    pub queue_address: u64,
    pub dispatch_id: u64,
    /// Queue priority: 0 low, 1 normal, 2 high. Higher-priority work-groups get the workers
    /// first.
    pub priority: usize,
    /// Handed back to [`DispatchClient::finished`].
    pub tag: u64,
}

/// The submitter of asynchronous dispatches: the memory map and event sink of its work-groups,
/// and where their end is reported.
pub trait DispatchClient: Send + Sync {
    fn memory(&self) -> &dyn MemoryMap;
    fn events(&self) -> &dyn DeviceEvents;
    /// The dispatch tagged `tag` ended: its statistics, its first fault, or a cancellation
    /// (an `InvalidDispatch` fault). Called once, on the thread that ended it.
    fn finished(&self, tag: u64, result: Result<DispatchStats, Fault>);

    /// Asked while the submitter runs dispatch `tag` inline: whether it has other work (a
    /// packet processor with packets to launch), in which case a work-group that waits or has
    /// run a while is handed to the workers instead of keeping the submitter. Only the
    /// submitting thread asks, inside its submit call (clients may rely on what that call's
    /// caller keeps alive).
    fn yield_inline(&self, _tag: u64) -> bool {
        false
    }
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

impl DispatchStats {
    pub(crate) fn of(d: &JobData, waves: u64, instructions: u64) -> DispatchStats {
        let config = &d.shared.config;
        let engine = config.engine.effective();
        let gfx900 = config.gfx == GfxVersion::Gfx900;
        let jit = (engine != crate::jit::Engine::Interpreter)
            .then(|| {
                let k = d.kernel();
                k.jit
                    .get(&k.program, engine == crate::jit::Engine::Check, gfx900)
            })
            .flatten()
            .map(|c| JitStats {
                native: c.native,
                slots: c.reachable,
                compile_ns: c.compile_ns,
            });
        DispatchStats {
            engine: if jit.is_some() {
                engine
            } else {
                crate::jit::Engine::Interpreter
            },
            jit,
            workgroups: d.total,
            waves,
            instructions,
            elapsed_ns: d.start.elapsed().as_nanos() as u64,
        }
    }
}

/// What every dispatch of a device shares.
pub(crate) struct DeviceShared {
    pub config: DeviceConfig,
    /// The device's global wave sync resources (`ds_gws_*`), shared by all its dispatches.
    pub gws: Arc<Gws>,
    /// Work-groups parked at GWS operations that wait.
    pub gws_waiters: GwsWaiters,
    pub sched: &'static Scheduler,
}

/// A launched dispatch: to ask whether it is in flight, or to cancel it.
#[derive(Clone, Copy)]
pub struct JobHandle {
    job: &'static Job,
    gen: u32,
}

impl JobHandle {
    /// The handle as a non-zero word (to keep in an atomic; [`Device::handle_from_bits`]).
    pub fn to_bits(self) -> u64 {
        (u64::from(self.gen) << 8 | u64::from(self.job.slot)) + 1
    }
}

/// The software GFX9 GPU.
pub struct Device {
    shared: Arc<DeviceShared>,
}

/// A validated dispatch shape.
struct Geometry {
    grid: Grid,
    total: u64,
    lds: u32,
    private: u32,
}

/// The client of a blocking dispatch: borrowed memory map and events, the result slot.
struct Blocking {
    memory: *const (dyn MemoryMap + 'static),
    events: *const (dyn DeviceEvents + 'static),
    result: Mutex<Option<Result<DispatchStats, Fault>>>,
    thread: std::thread::Thread,
}

// SAFETY: the raw pointers are shared references (`MemoryMap` and `DeviceEvents` are Sync)
// that `Device::dispatch` keeps alive until the dispatch ended; they are not used afterwards.
unsafe impl Send for Blocking {}
// SAFETY: as above.
unsafe impl Sync for Blocking {}

impl DispatchClient for Blocking {
    fn memory(&self) -> &dyn MemoryMap {
        // SAFETY: see `unsafe impl Send for Blocking`: called only while the dispatch runs.
        unsafe { &*self.memory }
    }
    fn events(&self) -> &dyn DeviceEvents {
        // SAFETY: as in `memory`.
        unsafe { &*self.events }
    }
    fn finished(&self, _tag: u64, result: Result<DispatchStats, Fault>) {
        *self.result.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
        self.thread.unpark();
    }
}

impl Device {
    pub fn new(config: DeviceConfig) -> Device {
        let threads = if config.worker_threads == 0 {
            crate::sched::load::host_cores() as usize
        } else {
            config.worker_threads
        };
        Device {
            shared: Arc::new(DeviceShared {
                config,
                gws: Arc::default(),
                gws_waiters: GwsWaiters::default(),
                sched: scheduler(threads),
            }),
        }
    }

    pub fn config(&self) -> &DeviceConfig {
        &self.shared.config
    }

    /// Checks a dispatch's shape against the device's limits.
    fn check(
        &self,
        kernel: &Kernel,
        grid_size: [u32; 3],
        workgroup_size: [u16; 3],
        dynamic_lds: u32,
        private_size: u32,
    ) -> Result<Geometry, Fault> {
        let kd = &kernel.descriptor;
        let name = &kernel.name;
        let grid = Grid::new(grid_size, workgroup_size)
            .map_err(|(field, why)| Fault::bad_packet(name, field, why))?;
        let lds = u64::from(kd.group_segment_fixed_size) + u64::from(dynamic_lds);
        if lds > 64 * 1024 {
            return Err(Fault::bad_packet(
                name,
                PacketField::GroupSegment,
                format!("{lds} bytes of LDS (at most 65536)"),
            ));
        }
        // Checked before rounding up: a size near 2^32 would wrap to 0 and pass.
        let private = private_size.max(kd.private_segment_fixed_size);
        // Scratch backing is allocated per work-group: 1024 work-items x 256 KiB at most.
        if private > MAX_PRIVATE_SIZE {
            return Err(Fault::bad_packet(
                name,
                PacketField::PrivateSegment,
                format!("{private} bytes of scratch per work-item (at most {MAX_PRIVATE_SIZE})"),
            ));
        }
        let private = private.next_multiple_of(4);
        Ok(Geometry {
            total: grid.workgroup_count(),
            grid,
            lds: lds as u32,
            private,
        })
    }

    /// Claims a job, fills it and publishes it.
    #[allow(clippy::too_many_arguments)]
    fn start(
        &self,
        g: Geometry,
        kernel: (*const Kernel, Option<Arc<Kernel>>),
        client: Arc<dyn DispatchClient>,
        addrs: [u64; 4],
        priority: usize,
        tag: u64,
        inline: bool,
    ) -> JobHandle {
        let s = self.shared.sched;
        let c = &self.shared.config;
        let (job, gen) = s.claim();
        job.activate(
            gen,
            JobData {
                kernel: kernel.0,
                kernel_keep: kernel.1,
                client,
                shared: self.shared.clone(),
                grid: g.grid,
                total: g.total,
                lds_size: g.lds,
                private_size: g.private,
                kernarg: addrs[0],
                packet: addrs[1],
                queue: addrs[2],
                dispatch_id: addrs[3],
                priority: priority.min(crate::sched::PRIORITY_LEVELS - 1),
                tag,
                start: Instant::now(),
                parked_cap: c.compute_units.saturating_mul(c.waves_per_cu).max(1),
            },
        );
        s.publish(job, gen, g.total, inline);
        JobHandle { job, gen }
    }

    /// Runs a dispatch to completion (or to its first fault), blocking the caller (which runs
    /// work-groups itself while a worker slot is free).
    pub fn dispatch(&self, d: &Dispatch) -> Result<DispatchStats, Fault> {
        let g = self.check(
            d.kernel,
            d.grid_size,
            d.workgroup_size,
            d.dynamic_group_segment_size,
            d.private_segment_size,
        )?;
        let memory: *const (dyn MemoryMap + '_) = d.memory;
        let events: *const (dyn DeviceEvents + '_) = d.events;
        let client = Arc::new(Blocking {
            // SAFETY: only the lifetime bound changes; `Blocking` uses the pointers while this
            // function waits for the dispatch to end (see its Send impl).
            memory: unsafe {
                std::mem::transmute::<*const (dyn MemoryMap + '_), *const (dyn MemoryMap + 'static)>(
                    memory,
                )
            },
            // SAFETY: as above.
            events: unsafe {
                std::mem::transmute::<
                    *const (dyn DeviceEvents + '_),
                    *const (dyn DeviceEvents + 'static),
                >(events)
            },
            result: Mutex::new(None),
            thread: std::thread::current(),
        });
        let addrs = [
            d.kernarg_address,
            d.packet_address,
            d.queue_address,
            d.dispatch_id,
        ];
        self.start(g, (d.kernel, None), client.clone(), addrs, 1, 0, true);
        loop {
            if let Some(r) = client
                .result
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
            {
                return r;
            }
            std::thread::park_timeout(Duration::from_millis(10));
        }
    }

    /// Starts an asynchronous dispatch; `client.finished(l.tag, ..)` reports its end (possibly
    /// before this returns, on this thread, when it ran inline). A shape the device cannot run
    /// is refused here, without a call to `finished`.
    pub fn launch(
        &self,
        l: Launch,
        client: Arc<dyn DispatchClient>,
        inline: bool,
    ) -> Result<JobHandle, Fault> {
        let g = self.check(
            &l.kernel,
            l.grid_size,
            l.workgroup_size,
            l.dynamic_group_segment_size,
            l.private_segment_size,
        )?;
        let addrs = [
            l.kernarg_address,
            l.packet_address,
            l.queue_address,
            l.dispatch_id,
        ];
        let ptr: *const Kernel = &*l.kernel;
        Ok(self.start(
            g,
            (ptr, Some(l.kernel)),
            client,
            addrs,
            l.priority,
            l.tag,
            inline,
        ))
    }

    /// The handle [`JobHandle::to_bits`] made (`None` for 0 or a word no handle makes).
    pub fn handle_from_bits(&self, bits: u64) -> Option<JobHandle> {
        let b = bits.checked_sub(1)?;
        let job = self.shared.sched.job_at((b & 0xff) as usize)?;
        Some(JobHandle {
            job,
            gen: (b >> 8) as u32,
        })
    }

    /// Whether a launched dispatch has not finished yet.
    pub fn in_flight(&self, h: JobHandle) -> bool {
        self.shared.sched.in_flight(h.job, h.gen)
    }

    /// Stops a launched dispatch (if still in flight); its client hears of it as cancelled.
    pub fn cancel(&self, h: JobHandle) {
        self.shared.sched.cancel(h.job, h.gen)
    }
}
