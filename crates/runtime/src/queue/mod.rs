//! AQL queues and their packet processors.
//!
//! A queue is a [`QueueMemory`] (the `amd_queue_t` whose head is the `hsa_queue_t` programs see,
//! and the packet ring) plus, for queues the runtime processes, a packet processor thread (the
//! `processor` module: packets launched in order, overlapping unless the barrier bit says
//! otherwise) and the queue's [`completion::QueueClient`], through which the GPU reports the
//! end of each dispatch (fences, read index, completion signal, errors). The queue's priority
//! (`hsa_amd_queue_set_priority`) orders its work-groups against other queues' on the workers. The `hsa_queue_t*` handed
//! out is the `amd_queue_t` address; the table of live queues validates it. Read and write
//! indexes live in `read_dispatch_id` and `write_dispatch_id`, as on ROCm, so device code and
//! HIP find them where they expect.
//!
//! ```no_run
//! use softhsa_runtime::queue::QueueType;
//! softhsa_runtime::init().unwrap();
//! let rt = softhsa_runtime::runtime().unwrap();
//! let gpu = rt.topology.gpu_agents().next().unwrap().handle;
//! let q = rt.queues.create(&rt, gpu, 64, QueueType::Multi, None, u32::MAX, u32::MAX).unwrap();
//! rt.queues.destroy(&rt, q.addr()).unwrap();
//! ```

pub mod agent_dispatch;
mod caps;
mod completion;
mod index;
pub mod packets;
mod parker;
mod processor;
pub mod ring;
mod rotation;
#[cfg(test)]
mod tests;

pub use agent_dispatch::{AgentCall, AgentFunction, CALL_FUNCTION};
pub use caps::AgentQueueCaps;
pub use completion::QueueClient;
pub use ring::QueueMemory;

use crate::signal::{MemoryOrder, Signal};
use crate::{config::Config, Error, Result, Runtime};
use arc_swap::ArcSwap;
use softhsa_abi::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;

/// `hsa_queue_type_t` values a queue may be created with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum QueueType {
    Multi = 0,
    Single = 1,
    /// `HSA_QUEUE_TYPE_COOPERATIVE`: a multi-producer queue for cooperative launches (every
    /// softhsa queue has the global wave sync resources they use).
    Cooperative = 2,
}

/// `hsa_queue_feature_t` bits.
pub const FEATURE_KERNEL_DISPATCH: u32 = 1;
pub const FEATURE_AGENT_DISPATCH: u32 = 2;

/// Called on the packet processor thread when the queue enters the error state.
pub type ErrorCallback = Box<dyn Fn(hsa_status_t, u64) + Send + Sync>;

/// Queue states (HSA: active, error, inactive).
pub const STATE_ACTIVE: u8 = 0;
pub const STATE_ERROR: u8 = 1;
pub const STATE_INACTIVE: u8 = 2;

/// One queue. Shared by the table, the packet processor and API callers.
pub struct Queue {
    pub mem: QueueMemory,
    pub agent: u64,
    doorbell: Signal,
    /// Address of the doorbell's value: the channel the processor sleeps on while the queue is
    /// empty (`signal::notify`).
    doorbell_value: u64,
    owns_doorbell: bool,
    state: AtomicU8,
    stop: AtomicBool,
    callback: Option<ErrorCallback>,
    processor: Mutex<Option<JoinHandle<()>>>,
    /// The size hints of `hsa_queue_create` (UINT32_MAX: none), for dispatch scratch sizing.
    pub private_segment_hint: u32,
    pub group_segment_hint: u32,
    cu_mask: Mutex<Vec<u32>>,
    priority: AtomicU64,
    /// Runs the kernel dispatch packets (GPU queues only).
    device: Option<softhsa_gpu::Device>,
    /// Index of the next packet the processor launches (packets below it are launched).
    launched: AtomicU64,
    /// Kernel dispatches launched and not yet ended.
    in_flight: AtomicU32,
    /// Where the processor sleeps while dispatches end.
    parker: parker::Parker,
    /// Start timestamp of each slot's packet (profiling and the timeline).
    start_ts: Box<[AtomicU64]>,
    /// The dispatch of each slot's packet (`JobHandle::to_bits`), to cancel it.
    jobs: Box<[AtomicU64]>,
    /// The right to launch packets: held by the processor, or by the thread that ended a
    /// dispatch while the processor waits (see `processor`).
    launcher: AtomicBool,
    /// What the GPU reports dispatch ends to (set once the queue is shared).
    client: OnceLock<Arc<dyn softhsa_gpu::DispatchClient>>,
}

impl Queue {
    /// The `hsa_queue_t*` / `amd_queue_t*` of this queue.
    pub fn addr(&self) -> u64 {
        self.mem.queue_addr()
    }
    pub fn doorbell(&self) -> Signal {
        self.doorbell
    }
    pub fn state(&self) -> u8 {
        self.state.load(Ordering::Acquire)
    }
    /// Whether dispatches record start/end timestamps (`hsa_amd_profiling_set_profiler_enabled`).
    pub fn profiling(&self) -> bool {
        self.mem
            .u32_at(ring::off::QUEUE_PROPERTIES)
            .load(Ordering::Relaxed)
            & ring::PROPERTY_ENABLE_PROFILING
            != 0
    }
    pub fn set_profiling(&self, enable: bool) {
        let p = self.mem.u32_at(ring::off::QUEUE_PROPERTIES);
        if enable {
            p.fetch_or(ring::PROPERTY_ENABLE_PROFILING, Ordering::Relaxed);
        } else {
            p.fetch_and(!ring::PROPERTY_ENABLE_PROFILING, Ordering::Relaxed);
        }
    }
    /// `hsa_amd_queue_cu_set_mask`: recorded (work-groups use every worker regardless).
    pub fn set_cu_mask(&self, mask: &[u32]) {
        *self.cu_mask.lock().unwrap_or_else(|e| e.into_inner()) = mask.to_vec();
    }
    /// `hsa_amd_queue_cu_get_mask`: the mask set last, or all CUs of the agent.
    pub fn cu_mask(&self, num_bits: u32, max_cu: u32) -> Vec<u32> {
        let m = self
            .cu_mask
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        (0..num_bits.div_ceil(32))
            .map(|w| match m.get(w as usize) {
                Some(v) => *v,
                None if m.is_empty() => caps::all_cus_word(w, max_cu),
                None => 0,
            })
            .collect()
    }
    pub fn set_priority(&self, p: u64) {
        self.priority.store(p, Ordering::Relaxed);
    }
    /// `hsa_amd_queue_priority_t`: 0 low, 1 normal (the default), 2 high.
    pub fn priority(&self) -> u64 {
        self.priority.load(Ordering::Relaxed)
    }
    fn start_ts(&self, index: u64) -> u64 {
        self.start_ts[(index % self.start_ts.len() as u64) as usize].load(Ordering::Relaxed)
    }
    fn set_start_ts(&self, index: u64, t: u64) {
        self.start_ts[(index % self.start_ts.len() as u64) as usize].store(t, Ordering::Relaxed);
    }
    fn job_of(&self, index: u64) -> u64 {
        self.jobs[(index % self.jobs.len() as u64) as usize].load(Ordering::Acquire)
    }
    fn set_job_of(&self, index: u64, bits: u64) {
        self.jobs[(index % self.jobs.len() as u64) as usize].store(bits, Ordering::Release);
    }
    /// Timeline track of the queue: its id, offset from the worker and copy tracks.
    fn track(&self) -> u64 {
        (1 << 20) + self.mem.u64_at(ring::off::ID).load(Ordering::Relaxed)
    }
}

/// Every live queue, by `amd_queue_t` address, and the agent dispatch functions.
#[derive(Default)]
pub struct Queues {
    /// Read on every queue API call (host threads writing packets to their queues at once):
    /// published through an `ArcSwap`, so a lookup takes no lock and writes no shared line.
    /// Changes (create, destroy) copy it under `change`.
    table: ArcSwap<HashMap<u64, Arc<Queue>>>,
    change: Mutex<()>,
    next_id: AtomicU64,
    pub agent_functions: agent_dispatch::AgentFunctions,
}

impl Queues {
    pub fn new(config: &Config) -> Result<Queues> {
        softhsa_gpu::sched::load::set_spin_policy(config.spin);
        Ok(Queues::default())
    }

    /// Looks a `hsa_queue_t*` up: INVALID_QUEUE unless it is a live queue.
    pub fn get(&self, addr: u64) -> Result<Arc<Queue>> {
        self.with(addr, Arc::clone)
    }

    /// Runs `f` with the live queue at `hsa_queue_t*` `addr` (INVALID_QUEUE if none), without
    /// taking a reference to it: the index operations of the C API.
    pub fn with<R>(&self, addr: u64, f: impl FnOnce(&Arc<Queue>) -> R) -> Result<R> {
        let table = self.table.load();
        let q = table
            .get(&addr)
            .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_QUEUE))?;
        Ok(f(q))
    }

    /// Changes the table (under the change lock): `edit` gets a copy, which replaces it.
    fn change<R>(&self, edit: impl FnOnce(&mut HashMap<u64, Arc<Queue>>) -> R) -> R {
        let _g = self.change.lock().unwrap_or_else(|e| e.into_inner());
        let mut copy = HashMap::clone(&self.table.load());
        let r = edit(&mut copy);
        self.table.store(Arc::new(copy));
        r
    }

    /// `true` when `s` is a signal a live queue created and owns (its doorbell, its
    /// `queue_inactive_signal`): the program may use it but not destroy it (a stale handle of
    /// the program's can name the same slot).
    pub fn owns_signal(&self, s: Signal) -> bool {
        let table = self.table.load();
        table.values().any(|q| {
            (q.owns_doorbell && q.doorbell == s)
                || q.mem
                    .u64_at(ring::off::QUEUE_INACTIVE_SIGNAL)
                    .load(Ordering::Relaxed)
                    == s.0
        })
    }

    /// `hsa_queue_create`. `size` is raised to the agent's minimum; see hsa.h for the errors.
    #[allow(clippy::too_many_arguments)]
    pub fn create(
        &self,
        rt: &Runtime,
        agent: u64,
        size: u32,
        qtype: QueueType,
        callback: Option<ErrorCallback>,
        private_segment_hint: u32,
        group_segment_hint: u32,
    ) -> Result<Arc<Queue>> {
        let caps = caps::agent_queue_caps(rt, agent)?;
        if size == 0 || !size.is_power_of_two() || size > caps.max_size {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        let size = size.max(caps.min_size);
        let weak = match crate::runtime() {
            Some(arc) if std::ptr::eq(&*arc, rt) => Arc::downgrade(&arc),
            _ => return Err(Error::new(HSA_STATUS_ERROR_NOT_INITIALIZED)),
        };
        let doorbell = rt.signals.create(0)?;
        let q = self
            .build(
                rt,
                &caps,
                agent,
                size,
                qtype as u32,
                caps.features,
                doorbell,
                true,
                callback,
            )
            .inspect_err(|_| drop(rt.signals.destroy(doorbell)))?;
        let q = Arc::new(Queue {
            private_segment_hint,
            group_segment_hint,
            ..q
        });
        let client: Arc<dyn softhsa_gpu::DispatchClient> = Arc::new(QueueClient {
            rt: crate::runtime().ok_or(Error::new(HSA_STATUS_ERROR_NOT_INITIALIZED))?,
            queue: Arc::downgrade(&q),
        });
        let _ = q.client.set(client);
        let qp = q.clone();
        let handle = std::thread::Builder::new()
            .name(format!(
                "softhsa-queue-{}",
                q.mem.u64_at(ring::off::ID).load(Ordering::Relaxed)
            ))
            .spawn(move || processor::run(qp, weak))
            .map_err(|_| Error::new(HSA_STATUS_ERROR_OUT_OF_RESOURCES))?;
        *q.processor.lock().unwrap_or_else(|e| e.into_inner()) = Some(handle);
        self.insert(rt, q.clone());
        Ok(q)
    }

    /// `hsa_soft_queue_create`: the ring and indexes, processed by the program, not by softhsa.
    pub fn create_soft(
        &self,
        rt: &Runtime,
        size: u32,
        qtype: u32,
        features: u32,
        doorbell: Signal,
    ) -> Result<Arc<Queue>> {
        if size == 0 || !size.is_power_of_two() || qtype > QueueType::Cooperative as u32 {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        if doorbell.0 == 0 || features & !(FEATURE_KERNEL_DISPATCH | FEATURE_AGENT_DISPATCH) != 0 {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        rt.signals.get(doorbell)?;
        let caps = caps::soft_queue_caps(rt);
        let q = self.build(rt, &caps, 0, size, qtype, features, doorbell, false, None)?;
        let q = Arc::new(q);
        self.insert(rt, q.clone());
        Ok(q)
    }

    #[allow(clippy::too_many_arguments)]
    fn build(
        &self,
        rt: &Runtime,
        caps: &AgentQueueCaps,
        agent: u64,
        size: u32,
        qtype: u32,
        features: u32,
        doorbell: Signal,
        owns_doorbell: bool,
        callback: Option<ErrorCallback>,
    ) -> Result<Queue> {
        let doorbell_value = rt.signals.get(doorbell)?.value_ptr() as u64;
        let mem = QueueMemory::new(size)?;
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        index::init_amd_queue(&mem, caps, qtype, features, doorbell, id);
        let inactive = rt.signals.create(0)?;
        mem.u64_at(ring::off::QUEUE_INACTIVE_SIGNAL)
            .store(inactive.0, Ordering::Relaxed);
        for (base, len) in mem.regions() {
            caps::register_memory(rt, base, len)?;
        }
        Ok(Queue {
            mem,
            agent,
            doorbell,
            doorbell_value,
            owns_doorbell,
            state: AtomicU8::new(STATE_ACTIVE),
            stop: AtomicBool::new(false),
            callback,
            processor: Mutex::new(None),
            private_segment_hint: u32::MAX,
            group_segment_hint: u32::MAX,
            cu_mask: Mutex::new(Vec::new()),
            priority: AtomicU64::new(u64::from(HSA_AMD_QUEUE_PRIORITY_NORMAL)),
            device: caps.device.clone().map(softhsa_gpu::Device::new),
            launched: AtomicU64::new(0),
            in_flight: AtomicU32::new(0),
            parker: parker::Parker::default(),
            start_ts: (0..size).map(|_| AtomicU64::new(0)).collect(),
            jobs: (0..size).map(|_| AtomicU64::new(0)).collect(),
            launcher: AtomicBool::new(false),
            client: OnceLock::new(),
        })
    }

    fn insert(&self, _rt: &Runtime, q: Arc<Queue>) {
        self.change(|t| t.insert(q.addr(), q));
    }

    /// `hsa_queue_inactivate`: no further packets are processed; the queue stays valid.
    pub fn inactivate(&self, addr: u64) -> Result<()> {
        let q = self.get(addr)?;
        stop_processor(&q);
        let _ = q.state.compare_exchange(
            STATE_ACTIVE,
            STATE_INACTIVE,
            Ordering::AcqRel,
            Ordering::Relaxed,
        );
        Ok(())
    }

    /// `hsa_queue_destroy`: stops the processor, frees the queue and the signals it owns.
    pub fn destroy(&self, rt: &Runtime, addr: u64) -> Result<()> {
        let q = self
            .change(|t| t.remove(&addr))
            .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_QUEUE))?;
        stop_processor(&q);
        if q.owns_doorbell {
            let _ = rt.signals.destroy(q.doorbell);
        }
        let inactive = Signal(
            q.mem
                .u64_at(ring::off::QUEUE_INACTIVE_SIGNAL)
                .load(Ordering::Relaxed),
        );
        let _ = rt.signals.destroy(inactive);
        for (base, len) in q.mem.regions() {
            caps::deregister_memory(rt, base, len);
        }
        Ok(())
    }

    /// Rust API for AGENT_DISPATCH packets: see [`agent_dispatch`].
    pub fn register_agent_function(&self, function: u16, f: AgentFunction) -> Result<()> {
        self.agent_functions.register(function, f)
    }

    /// Stops every packet processor (runtime shut-down).
    pub fn shut_down(&self) {
        let all: Vec<_> = self.change(|t| t.drain().map(|(_, q)| q).collect());
        for q in all {
            stop_processor(&q);
        }
    }
}

/// Asks the processor to stop and joins it (unless called from it, e.g. by its error callback).
/// It sleeps on its parker or its doorbell's channel (both woken here), or for at most
/// `POLL` while a barrier packet waits on other signals; waking every sleeper of the process
/// instead made destroying one of 2,000 idle queues wake all 2,000 processors.
fn stop_processor(q: &Queue) {
    q.stop.store(true, Ordering::Release);
    q.parker.notify();
    crate::signal::notify::wake(q.doorbell_value);
    let handle = q.processor.lock().unwrap_or_else(|e| e.into_inner()).take();
    if let Some(h) = handle {
        if h.thread().id() != std::thread::current().id() {
            let _ = h.join();
        }
    }
}

/// Used by tests and the example: rings a queue's doorbell as HIP does.
pub fn ring_doorbell(rt: &Runtime, q: &Queue, index: u64) -> Result<()> {
    rt.signals
        .get(q.doorbell)?
        .store(index as i64, MemoryOrder::Release);
    Ok(())
}
