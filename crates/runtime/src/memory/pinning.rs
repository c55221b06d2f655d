//! Host memory made visible to agents: `hsa_amd_memory_lock*` and `hsa_memory_register`.
//!
//! Host memory is already shared with the software GPU, so pinning only records the range in the
//! registry (which is what makes device accesses to it legal). Memory inside a pool allocation
//! is already known: locking or registering it succeeds without a new record, as in ROCm.
//! Pins may overlap (programs pin what they like); pinning the same range again nests (a count),
//! and unlocking names a pin by its start. With aliases on (the base-profile default), locking
//! returns an agent-side alias address instead of the host address (see `alias.rs`).

use super::{Memory, Range, RangeKind};
use crate::{Error, Result};
use softhsa_abi::*;

impl Memory {
    /// `hsa_amd_memory_lock` / `_lock_to_pool`: returns the agent address: the host address,
    /// or its alias when aliasing is on. `agents`: indices that may access (empty: every agent);
    /// `pool`: the pool to attribute the memory to (default: the CPU's fine-grained pool).
    pub fn lock(&self, ptr: u64, size: u64, agents: &[usize], pool: Option<usize>) -> Result<u64> {
        let range = self.pin_range(ptr, size, RangeKind::Locked, agents, pool.or(Some(0)))?;
        match range {
            None => Ok(ptr),
            Some(r) if self.lock_alias => self.registry.pin_aliased(r, super::alias::reserve),
            Some(r) => self.registry.pin(r).map(|()| ptr),
        }
    }

    /// `hsa_amd_memory_unlock`: `ptr` is the host address (or, leniently, its alias).
    pub fn unlock(&self, ptr: u64) -> Result<()> {
        let host = match self.registry.alias_delta(ptr) {
            Some(delta) => ptr.wrapping_add(delta),
            None => ptr,
        };
        self.unpin(host, RangeKind::Locked)
    }

    /// `hsa_memory_register`.
    pub fn register(&self, ptr: u64, size: u64) -> Result<()> {
        self.pin(ptr, size, RangeKind::Registered, &[], None)
    }

    /// `hsa_memory_deregister`.
    pub fn deregister(&self, ptr: u64) -> Result<()> {
        self.unpin(ptr, RangeKind::Registered)
    }

    fn pin(
        &self,
        ptr: u64,
        size: u64,
        kind: RangeKind,
        agents: &[usize],
        pool: Option<usize>,
    ) -> Result<()> {
        match self.pin_range(ptr, size, kind, agents, pool)? {
            Some(r) => self.registry.pin(r),
            None => Ok(()),
        }
    }

    /// The pin record for a lock/register call; `None` when the memory is already known (inside
    /// a pool allocation).
    fn pin_range(
        &self,
        ptr: u64,
        size: u64,
        kind: RangeKind,
        agents: &[usize],
        pool: Option<usize>,
    ) -> Result<Option<Range>> {
        if ptr == 0 || size == 0 {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
                "NULL pointer or size 0",
            ));
        }
        if self.inside_allocation(ptr, size) {
            return Ok(None);
        }
        let all = (1u64 << self.agent_is_gpu.len()) - 1;
        let mut range = Range::new(ptr, size, kind, 0);
        range.access = if agents.is_empty() {
            all
        } else {
            agents.iter().fold(1, |m, &a| m | 1 << a)
        };
        range.pool = pool;
        Ok(Some(range))
    }

    fn unpin(&self, ptr: u64, kind: RangeKind) -> Result<()> {
        if let Some(alias) = self.registry.unpin(ptr, kind) {
            if let Some(a) = alias {
                super::alias::release(&a);
            }
            return Ok(());
        }
        if self.inside_allocation(ptr, 1) {
            return Ok(());
        }
        Err(Error::with_message(
            HSA_STATUS_ERROR_INVALID_ARGUMENT,
            format!("{ptr:#x} is not {kind:?} memory"),
        ))
    }

    /// Pool allocations are already device-accessible: pinning inside one records nothing.
    fn inside_allocation(&self, ptr: u64, size: u64) -> bool {
        self.registry
            .find_range(ptr)
            .is_some_and(|r| r.kind == RangeKind::Allocation && r.contains(ptr, size))
    }
}
