//! Queries and operations on known memory: pointer info, access grants, fill, deallocation
//! callbacks.

use super::{Memory, RangeKind};
use crate::{Error, Result};
use softhsa_abi::*;
use std::ffi::c_void;

/// What `hsa_amd_pointer_info` reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PointerInfo {
    /// HSA_EXT_POINTER_TYPE_*.
    pub kind: u32,
    /// The agent-side base address (an alias's own start, for aliased locked memory).
    pub base: u64,
    /// The host-side base address (differs from `base` only for aliased locked memory).
    pub host_base: u64,
    pub size: u64,
    pub user_data: u64,
    /// Owner agent index.
    pub owner: usize,
    pub global_flags: u32,
    /// Indices of the agents that may access it.
    pub accessible: Vec<usize>,
}

/// A callback of `hsa_amd_register_deallocation_callback`.
#[derive(Clone, Copy, Debug)]
pub struct DeallocCallback {
    pub func: unsafe extern "C" fn(*mut c_void, *mut c_void),
    pub user_data: usize,
}

impl Memory {
    /// `hsa_amd_pointer_info`: `None` for memory the runtime does not know (type UNKNOWN).
    pub fn pointer_info(&self, ptr: u64) -> Option<PointerInfo> {
        let r = self.registry.find(ptr)?;
        let kind = match r.kind {
            RangeKind::Locked | RangeKind::Registered | RangeKind::Alias => {
                HSA_EXT_POINTER_TYPE_LOCKED
            }
            RangeKind::Ipc => HSA_EXT_POINTER_TYPE_IPC,
            // SVM (HMM) memory is not an HSA allocation: ROCm reports it as unknown.
            RangeKind::Svm => return None,
            _ => HSA_EXT_POINTER_TYPE_HSA,
        };
        // Host side of an alias; agent side of an aliased pin.
        let host_base = r.start.wrapping_add(r.delta);
        let base = r.alias.unwrap_or(r.start);
        let global_flags = r.pool.and_then(|p| self.pools.get(p)).map_or(
            // Runtime-owned host memory (queues, signals, code) is fine-grained system memory.
            HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED,
            |p| p.global_flags(),
        );
        let accessible = (0..self.agent_is_gpu.len())
            .filter(|i| r.access & (1 << i) != 0)
            .collect();
        Some(PointerInfo {
            kind,
            base,
            host_base,
            size: r.len,
            user_data: r.user_data,
            owner: r.owner,
            global_flags,
            accessible,
        })
    }

    /// Where the runtime itself reads or writes `[ptr, ptr + len)`: the host bytes of an
    /// agent-side alias, else `ptr` unchanged (known or not: callers that accept unknown memory
    /// rely on the program's word, as `hsa_memory_copy` does).
    pub fn host_address(&self, ptr: u64, len: u64) -> u64 {
        self.registry.resolve(ptr, len).unwrap_or(ptr)
    }

    /// `hsa_amd_pointer_info_set_userdata`.
    pub fn set_user_data(&self, ptr: u64, user_data: u64) -> Result<()> {
        self.registry.update(ptr, |r| r.user_data = user_data)
    }

    /// `hsa_amd_agents_allow_access` / `hsa_memory_assign_agent`: grant agents (indices).
    pub fn allow_access(&self, ptr: u64, agents: &[usize]) -> Result<()> {
        let bits = agents.iter().fold(0u64, |m, &a| m | 1 << a);
        self.registry.update(ptr, |r| r.access |= bits)
    }

    /// `hsa_amd_memory_fill`: `count` 32-bit words of `value` at `ptr`, which must be 4-byte
    /// aligned and lie inside one known range (never a wild host write).
    pub fn fill(&self, ptr: u64, value: u32, count: u64) -> Result<()> {
        if ptr == 0 || !ptr.is_multiple_of(4) {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
                "NULL or unaligned pointer",
            ));
        }
        if count == 0 {
            return Ok(());
        }
        let bytes = count
            .checked_mul(4)
            .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT))?;
        // Only memory the program owns: its allocations (and those it attached from another
        // process), the host memory it locked, registered or gave SVM attributes (ROCm: "not
        // allocated by the HSA runtime" is INVALID_ARGUMENT). The runtime's own ranges
        // (signals, queues, loaded code) are not the program's to fill.
        let range = self
            .registry
            .find_span(ptr, bytes)
            .filter(|r| {
                matches!(
                    r.kind,
                    RangeKind::Allocation
                        | RangeKind::Locked
                        | RangeKind::Registered
                        | RangeKind::Alias
                        | RangeKind::Ipc
                        | RangeKind::Svm
                )
            })
            .ok_or_else(|| {
                Error::with_message(
                    HSA_STATUS_ERROR_INVALID_ARGUMENT,
                    format!("[{ptr:#x}, +{bytes:#x}) is not inside memory the program allocated"),
                )
            })?;
        let host = ptr.wrapping_add(range.delta);
        // SAFETY: `host` is the span's host address inside one registered range (an alias
        // translated to its locked memory, which keeps the page offset, hence the alignment):
        // allocations are live mappings, locked/registered ranges are host memory the program
        // declared valid. 4-byte alignment was checked above.
        let words = unsafe { std::slice::from_raw_parts_mut(host as *mut u32, count as usize) };
        words.fill(value);
        Ok(())
    }

    /// `hsa_amd_register_deallocation_callback`: `ptr` must be inside a pool allocation.
    pub fn add_dealloc_callback(&self, ptr: u64, cb: DeallocCallback) -> Result<()> {
        let start = self.allocation_start(ptr)?;
        self.dealloc_callbacks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(start)
            .or_default()
            .push(cb);
        Ok(())
    }

    /// `hsa_amd_deregister_deallocation_callback`.
    pub fn remove_dealloc_callback(
        &self,
        ptr: u64,
        func: unsafe extern "C" fn(*mut c_void, *mut c_void),
    ) -> Result<()> {
        let start = self.allocation_start(ptr)?;
        let mut all = self
            .dealloc_callbacks
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let list = all
            .get_mut(&start)
            .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT))?;
        let i = list
            .iter()
            .position(|c| std::ptr::fn_addr_eq(c.func, func))
            .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT))?;
        list.remove(i);
        Ok(())
    }

    fn allocation_start(&self, ptr: u64) -> Result<u64> {
        self.registry
            .find(ptr)
            .filter(|r| r.kind == RangeKind::Allocation)
            .map(|r| r.start)
            .ok_or_else(|| {
                Error::with_message(
                    HSA_STATUS_ERROR_INVALID_ARGUMENT,
                    format!("{ptr:#x} is not a pool allocation"),
                )
            })
    }

    /// Runs (and forgets) the callbacks of an allocation being freed, before its memory goes.
    pub(super) fn run_dealloc_callbacks(&self, start: u64) {
        let list = self
            .dealloc_callbacks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&start);
        for cb in list.into_iter().flatten() {
            // SAFETY: the program registered this function for this allocation; HSA specifies
            // that it is called with the allocation's address and the registered user data.
            unsafe { (cb.func)(start as *mut c_void, cb.user_data as *mut c_void) };
        }
    }
}
