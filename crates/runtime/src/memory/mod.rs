//! Regions, AMD memory pools, allocation, and the allocation registry.
//!
//! The API other parts of the runtime use:
//! - [`Memory::allocate`] / [`Memory::free`]: pool allocations (page-granular host memory;
//!   device pools are accounted against the configured device memory size);
//! - [`Memory::register_range`] / [`Memory::unregister_range`]: declare memory the GPU may touch
//!   (loaded code object segments, queue rings, signals, ...) with its owner agent;
//! - [`Memory::registry`]: the [`Registry`], which implements `softhsa_gpu::MemoryMap`;
//! - [`Memory::pool`], [`Memory::agent_pools`], [`Memory::kernarg_pool`]: pool lookup.

mod alias;
mod describe;
mod host;
mod pinning;
mod pointer;
pub mod pool;
pub mod registry;

pub use pointer::{DeallocCallback, PointerInfo};
pub use pool::{Pool, PoolKind};
pub use registry::{Range, RangeKind, Registry, Shared};

use crate::config::{Config, Profile};
use crate::topology::handle::{self, Kind};
use crate::topology::Topology;
use crate::{Error, Result};
use pool::{GROUP_SEGMENT_SIZE, PAGE};
use softhsa_abi::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

/// Pools, the registry, and per-allocation bookkeeping of one runtime instance.
pub struct Memory {
    generation: u32,
    profile: Profile,
    pools: Vec<Pool>,
    registry: Registry,
    /// Agent index → is a GPU (pool access depends on it).
    agent_is_gpu: Vec<bool>,
    /// Allocation start → deallocation callbacks.
    dealloc_callbacks: Mutex<HashMap<u64, Vec<DeallocCallback>>>,
    /// Per agent: HSA_AMD_COHERENCY_TYPE_* set by `hsa_amd_coherency_set_type`.
    coherency: Vec<AtomicU32>,
    /// `SOFTHSA_LOCK_ALIAS`: locked memory gets an agent-side alias (see `alias.rs`).
    lock_alias: bool,
    /// Recently freed allocations, named in fault reports.
    freed: describe::Freed,
}

impl Memory {
    pub fn new(config: &Config, topology: &Topology) -> Result<Memory> {
        let generation = topology.generation();
        let mut pools = Vec::new();
        let mut add = |owner: usize, kind: PoolKind, size: u64| {
            let index = pools.len();
            let h = handle::encode(Kind::Pool, generation, index);
            pools.push(Pool::new(index, h, owner, kind, size, topology));
        };
        let host_bytes = topology.host().memory_bytes / PAGE * PAGE;
        add(0, PoolKind::SystemFine, host_bytes);
        add(0, PoolKind::SystemCoarse, host_bytes);
        for gpu in topology.gpu_agents() {
            add(
                gpu.index,
                PoolKind::Device,
                config.device_memory / PAGE * PAGE,
            );
            add(gpu.index, PoolKind::Group, GROUP_SEGMENT_SIZE);
        }
        let agent_is_gpu: Vec<bool> = topology.agents().iter().map(|a| a.is_gpu()).collect();
        let coherency = agent_is_gpu
            .iter()
            .map(|_| AtomicU32::new(HSA_AMD_COHERENCY_TYPE_COHERENT))
            .collect();
        Ok(Memory {
            generation,
            profile: config.profile,
            pools,
            registry: Registry::default(),
            agent_is_gpu,
            dealloc_callbacks: Mutex::new(HashMap::new()),
            coherency,
            lock_alias: config.lock_alias,
            freed: Default::default(),
        })
    }

    /// The registry (the GPU's `MemoryMap`).
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    pub fn pools(&self) -> &[Pool] {
        &self.pools
    }

    /// The pool of a handle, or HSA_STATUS_ERROR_INVALID_MEMORY_POOL.
    pub fn pool(&self, handle: u64) -> Result<&Pool> {
        self.pool_or(handle, HSA_STATUS_ERROR_INVALID_MEMORY_POOL)
    }

    /// The same object seen as a region, or HSA_STATUS_ERROR_INVALID_REGION.
    pub fn region(&self, handle: u64) -> Result<&Pool> {
        self.pool_or(handle, HSA_STATUS_ERROR_INVALID_REGION)
    }

    fn pool_or(&self, h: u64, status: u32) -> Result<&Pool> {
        handle::decode(h, Kind::Pool, self.generation)
            .and_then(|i| self.pools.get(i))
            .ok_or(Error::new(status))
    }

    /// Pools (and regions) of an agent, in reporting order.
    pub fn agent_pools(&self, agent: usize) -> impl Iterator<Item = &Pool> {
        self.pools.iter().filter(move |p| p.owner == agent)
    }

    /// The CPU's fine-grained KERNARG pool (kernel arguments, signals, queues).
    pub fn kernarg_pool(&self) -> &Pool {
        &self.pools[0]
    }

    /// HSA_REGION_INFO_* of a region.
    pub fn region_info(&self, region: u64, attribute: u32) -> Result<crate::topology::InfoValue> {
        self.region(region)?.region_info(attribute, self.profile)
    }

    /// HSA_AMD_AGENT_MEMORY_POOL_INFO_* of (agent index, pool).
    pub fn agent_pool_info(
        &self,
        agent: usize,
        pool: u64,
        attribute: u32,
    ) -> Result<crate::topology::InfoValue> {
        let is_gpu = *self
            .agent_is_gpu
            .get(agent)
            .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_AGENT))?;
        self.pool(pool)?.agent_pool_info(agent, is_gpu, attribute)
    }

    /// Allocates `size` bytes from `pool` (`flags`: 0, or HSA_AMD_MEMORY_POOL_PCIE_FLAG = 1).
    /// Sizes are rounded up to the 4 KiB granule; memory is zeroed and 4 KiB aligned.
    pub fn allocate(&self, pool: u64, size: u64, flags: u32) -> Result<*mut u8> {
        let p = self.pool(pool)?;
        self.allocate_in(p, size, flags)
    }

    pub(crate) fn allocate_in(&self, p: &Pool, size: u64, flags: u32) -> Result<*mut u8> {
        if size == 0 || flags > 1 {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
                "size 0 or unknown flags",
            ));
        }
        if !p.alloc_allowed() || size > p.size {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_INVALID_ALLOCATION,
                format!(
                    "{size} bytes from a pool of {} (runtime allocation allowed: {})",
                    p.size,
                    p.alloc_allowed()
                ),
            ));
        }
        let len = size.div_ceil(PAGE) * PAGE;
        // Reserve the budget first so that concurrent allocations cannot overshoot it.
        p.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |u| {
                u.checked_add(len).filter(|&n| n <= p.size)
            })
            .map_err(|used| {
                Error::with_message(
                    HSA_STATUS_ERROR_OUT_OF_RESOURCES,
                    format!(
                        "pool has {} of {} bytes free, {len} requested",
                        p.size - used,
                        p.size
                    ),
                )
            })?;
        let ptr = match host::map(len) {
            Ok(ptr) => ptr,
            Err(e) => {
                p.used.fetch_sub(len, Ordering::AcqRel);
                return Err(e);
            }
        };
        let mut range = Range::new(ptr as u64, len, RangeKind::Allocation, p.owner);
        range.pool = Some(p.index);
        self.registry.insert(range)?;
        Ok(ptr)
    }

    /// Frees a pool allocation. NULL is accepted (as in ROCm); a pointer that is not the start
    /// of a live allocation (double free, foreign pointer) is HSA_STATUS_ERROR_INVALID_ALLOCATION.
    pub fn free(&self, ptr: u64) -> Result<()> {
        if ptr == 0 {
            return Ok(());
        }
        let range = self
            .registry
            .remove_if(ptr, |r| r.kind == RangeKind::Allocation)
            .ok_or_else(|| {
                Error::with_message(
                    HSA_STATUS_ERROR_INVALID_ALLOCATION,
                    format!("{ptr:#x} is not a live allocation"),
                )
            })?;
        self.run_dealloc_callbacks(range.start);
        // SAFETY: the registry held exactly this mapping (made by allocate_in) and no longer
        // does, so it is unmapped once.
        unsafe { host::unmap(ptr as *mut u8, range.len) };
        crate::ipc::memory::release(&range);
        self.freed.push(range.start, range.len);
        if let Some(p) = range.pool.and_then(|i| self.pools.get(i)) {
            p.used.fetch_sub(range.len, Ordering::AcqRel);
        }
        Ok(())
    }

    /// Declares a range the GPU may access (code object segments, queues, signals...).
    pub fn register_range(
        &self,
        start: u64,
        len: u64,
        kind: RangeKind,
        owner_agent: usize,
    ) -> Result<()> {
        self.registry
            .insert(Range::new(start, len, kind, owner_agent))
    }

    /// Withdraws a range declared by [`Memory::register_range`] (by its start).
    pub fn unregister_range(&self, start: u64) -> Result<Range> {
        self.registry
            .remove_if(start, |r| {
                !matches!(
                    r.kind,
                    RangeKind::Allocation
                        | RangeKind::Locked
                        | RangeKind::Registered
                        | RangeKind::Alias
                )
            })
            .ok_or_else(|| {
                Error::with_message(
                    HSA_STATUS_ERROR_INVALID_ARGUMENT,
                    format!("{start:#x} is not a registered range"),
                )
            })
    }

    /// `hsa_amd_coherency_get_type` (GPU agents only).
    pub fn coherency(&self, agent: usize) -> Result<u32> {
        self.gpu_index(agent)
            .map(|i| self.coherency[i].load(Ordering::Relaxed))
    }

    /// `hsa_amd_coherency_set_type`: coherent or non-coherent (host memory is always coherent, so
    /// this only records the choice).
    pub fn set_coherency(&self, agent: usize, kind: u32) -> Result<()> {
        let i = self.gpu_index(agent)?;
        if kind != HSA_AMD_COHERENCY_TYPE_COHERENT && kind != HSA_AMD_COHERENCY_TYPE_NONCOHERENT {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        self.coherency[i].store(kind, Ordering::Relaxed);
        Ok(())
    }

    fn gpu_index(&self, agent: usize) -> Result<usize> {
        match self.agent_is_gpu.get(agent) {
            Some(true) => Ok(agent),
            _ => Err(Error::new(HSA_STATUS_ERROR_INVALID_AGENT)),
        }
    }
}

impl softhsa_gpu::MemoryMap for Memory {
    fn lookup(&self, addr: u64, len: u64) -> Option<std::ops::Range<u64>> {
        self.registry.lookup(addr, len)
    }

    fn translate(&self, addr: u64, len: u64) -> Option<(std::ops::Range<u64>, u64)> {
        self.registry.translate(addr, len)
    }

    fn describe(&self, addr: u64) -> Option<String> {
        self.describe_address(addr)
    }
}

impl Drop for Memory {
    /// Unmaps the allocations still live at shutdown; other ranges belong to their registrants.
    fn drop(&mut self) {
        for r in self.registry.drain() {
            match r.kind {
                // SAFETY: allocation ranges are exactly the mappings made by allocate_in, and the
                // runtime instance (the only path to them through the API) is going away.
                RangeKind::Allocation => unsafe { host::unmap(r.start as *mut u8, r.len) },
                RangeKind::Alias => alias::release(&r),
                _ => {}
            }
            if matches!(r.kind, RangeKind::Allocation | RangeKind::Ipc) {
                crate::ipc::memory::release(&r);
            }
        }
    }
}

#[cfg(test)]
mod tests;
