//! Memory pools (AMD) and regions (HSA core): one object, one handle, two attribute sets.
//!
//! Per agent, as hip-bringup.md requires:
//! - CPU: a GLOBAL fine-grained pool with KERNARG, and a GLOBAL coarse-grained pool, both sized
//!   to the host's physical memory;
//! - each GPU: a GLOBAL coarse-grained pool of the configured device memory size (its budget),
//!   and a GROUP pool of 64 KiB (the LDS), which cannot be allocated from.

use crate::config::Profile;
use crate::topology::{InfoValue, Topology};
use crate::{Error, Result};
use softhsa_abi::*;
use std::sync::atomic::AtomicU64;

/// Allocation granule and alignment of the GLOBAL pools (a page).
pub const PAGE: u64 = 4096;
/// LDS bytes per work-group on GFX9.
pub const GROUP_SEGMENT_SIZE: u64 = 64 << 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoolKind {
    SystemFine,
    SystemCoarse,
    Device,
    Group,
}

/// One pool.
#[derive(Debug)]
pub struct Pool {
    pub index: usize,
    pub handle: u64,
    /// Index of the owning agent.
    pub owner: usize,
    pub kind: PoolKind,
    pub size: u64,
    /// Bytes currently allocated (pages), checked against `size` for device pools.
    pub(crate) used: AtomicU64,
    /// Memory clock and bus width reported by the AMD region attributes.
    bus_width: u32,
    clock_mhz: u32,
}

impl Pool {
    pub(crate) fn new(
        index: usize,
        handle: u64,
        owner: usize,
        kind: PoolKind,
        size: u64,
        topo: &Topology,
    ) -> Pool {
        let board = topo.agents()[owner].gpu.as_ref().map(|g| g.board);
        Pool {
            index,
            handle,
            owner,
            kind,
            size,
            used: AtomicU64::new(0),
            bus_width: board.map_or(0, |b| b.memory_width),
            clock_mhz: board.map_or(0, |b| b.memory_max_mhz),
        }
    }

    pub fn segment(&self) -> u32 {
        match self.kind {
            PoolKind::Group => HSA_AMD_SEGMENT_GROUP,
            _ => HSA_AMD_SEGMENT_GLOBAL,
        }
    }

    /// HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_* (same bits as HSA_REGION_GLOBAL_FLAG_*).
    pub fn global_flags(&self) -> u32 {
        match self.kind {
            PoolKind::SystemFine => {
                HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT
                    | HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED
            }
            PoolKind::SystemCoarse | PoolKind::Device => {
                HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED
            }
            PoolKind::Group => 0,
        }
    }

    pub fn alloc_allowed(&self) -> bool {
        self.kind != PoolKind::Group
    }

    fn granule(&self) -> u64 {
        if self.alloc_allowed() {
            PAGE
        } else {
            0
        }
    }

    pub fn is_system(&self) -> bool {
        matches!(self.kind, PoolKind::SystemFine | PoolKind::SystemCoarse)
    }

    /// HSA_AMD_MEMORY_POOL_INFO_*.
    pub fn pool_info(&self, attribute: u32) -> Result<InfoValue> {
        Ok(match attribute {
            HSA_AMD_MEMORY_POOL_INFO_SEGMENT => InfoValue::U32(self.segment()),
            HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS => InfoValue::U32(self.global_flags()),
            HSA_AMD_MEMORY_POOL_INFO_SIZE => InfoValue::U64(self.size),
            HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED => InfoValue::Bool(self.alloc_allowed()),
            HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE => InfoValue::U64(self.granule()),
            HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT => InfoValue::U64(self.granule()),
            HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL => InfoValue::Bool(self.is_system()),
            HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE => {
                InfoValue::U64(if self.alloc_allowed() { self.size } else { 0 })
            }
            _ => return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT)),
        })
    }

    /// HSA_REGION_INFO_* and HSA_AMD_REGION_INFO_*.
    pub fn region_info(&self, attribute: u32, profile: Profile) -> Result<InfoValue> {
        Ok(match attribute {
            HSA_REGION_INFO_SEGMENT => InfoValue::U32(match self.kind {
                PoolKind::Group => HSA_REGION_SEGMENT_GROUP,
                _ => HSA_REGION_SEGMENT_GLOBAL,
            }),
            HSA_REGION_INFO_GLOBAL_FLAGS => InfoValue::U32(self.global_flags()),
            HSA_REGION_INFO_SIZE => InfoValue::U64(self.size),
            HSA_REGION_INFO_ALLOC_MAX_SIZE => {
                InfoValue::U64(if self.alloc_allowed() { self.size } else { 0 })
            }
            HSA_REGION_INFO_ALLOC_MAX_PRIVATE_WORKGROUP_SIZE => InfoValue::U32(0),
            HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED => InfoValue::Bool(self.alloc_allowed()),
            HSA_REGION_INFO_RUNTIME_ALLOC_GRANULE => InfoValue::U64(self.granule()),
            HSA_REGION_INFO_RUNTIME_ALLOC_ALIGNMENT => InfoValue::U64(self.granule()),
            // Device memory of a discrete (base profile) board is not host-accessible in HSA
            // terms, although softhsa's is host memory underneath.
            HSA_AMD_REGION_INFO_HOST_ACCESSIBLE => InfoValue::Bool(
                self.is_system() || (self.kind == PoolKind::Device && profile == Profile::Full),
            ),
            HSA_AMD_REGION_INFO_BASE => InfoValue::U64(0),
            HSA_AMD_REGION_INFO_BUS_WIDTH => InfoValue::U32(self.bus_width),
            HSA_AMD_REGION_INFO_MAX_CLOCK_FREQUENCY => InfoValue::U32(self.clock_mhz),
            _ => return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT)),
        })
    }

    /// HSA_AMD_MEMORY_POOL_ACCESS_* of `agent` (an index) to this pool, as ROCm decides it:
    /// the owner always; CPUs reach system memory by default, GPUs after allow_access; device
    /// memory is reachable by others after allow_access; group memory only by its owner.
    pub fn access(&self, agent: usize, agent_is_gpu: bool) -> u32 {
        if agent == self.owner {
            HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT
        } else if self.kind == PoolKind::Group {
            HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED
        } else if self.is_system() && !agent_is_gpu {
            HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT
        } else {
            HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT
        }
    }

    /// HSA_AMD_AGENT_MEMORY_POOL_INFO_*: one PCIe hop between distinct agents that may access.
    pub fn agent_pool_info(
        &self,
        agent: usize,
        agent_is_gpu: bool,
        attribute: u32,
    ) -> Result<InfoValue> {
        let access = self.access(agent, agent_is_gpu);
        let hops =
            u32::from(agent != self.owner && access != HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED);
        Ok(match attribute {
            HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS => InfoValue::U32(access),
            HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS => InfoValue::U32(hops),
            HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO => {
                InfoValue::Bytes(if hops == 0 { vec![] } else { pcie_link() })
            }
            _ => return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT)),
        })
    }
}

/// One hsa_amd_memory_pool_link_info_t (28 bytes): a PCIe link with 64/32-bit atomics and
/// coherence (all true of host memory), latency/bandwidth unknown (0), NUMA distance 20.
fn pcie_link() -> Vec<u8> {
    let mut b = vec![0u8; 28];
    b[16] = 1; // atomic_support_32bit
    b[17] = 1; // atomic_support_64bit
    b[18] = 1; // coherent_support
    b[20..24].copy_from_slice(&HSA_AMD_LINK_INFO_TYPE_PCIE.to_ne_bytes());
    b[24..28].copy_from_slice(&20u32.to_ne_bytes());
    b
}
