//! The `amd_queue_t` fields set at creation, and the read/write index operations of the API
//! (`hsa_queue_{load,store,cas,add}_*_index_*`) in every memory order.

use super::caps::AgentQueueCaps;
use super::ring::{off, QueueMemory, PROPERTY_IS_PTR64};
use super::Queue;
use crate::signal::{MemoryOrder, Signal};
use std::sync::atomic::Ordering;

/// Fills the `amd_queue_t` as ROCm does for a new queue (the mapping starts zeroed).
pub(super) fn init_amd_queue(
    mem: &QueueMemory,
    caps: &AgentQueueCaps,
    qtype: u32,
    features: u32,
    doorbell: Signal,
    id: u64,
) {
    let r = Ordering::Relaxed;
    mem.u32_at(off::TYPE).store(qtype, r);
    mem.u32_at(off::FEATURES).store(features, r);
    mem.u64_at(off::BASE_ADDRESS).store(mem.ring_addr(), r);
    mem.u64_at(off::DOORBELL_SIGNAL).store(doorbell.0, r);
    mem.u32_at(off::SIZE).store(mem.size(), r);
    mem.u64_at(off::ID).store(id, r);
    mem.u32_at(off::GROUP_APERTURE_HI)
        .store((softhsa_gpu::SHARED_APERTURE_BASE >> 32) as u32, r);
    mem.u32_at(off::PRIVATE_APERTURE_HI)
        .store((softhsa_gpu::PRIVATE_APERTURE_BASE >> 32) as u32, r);
    mem.u32_at(off::MAX_CU_ID)
        .store(caps.cu_count.saturating_sub(1), r);
    mem.u32_at(off::MAX_WAVE_ID)
        .store(caps.waves_per_cu.saturating_sub(1), r);
    mem.u32_at(off::READ_DISPATCH_ID_FIELD_BASE_BYTE_OFFSET)
        .store(off::READ_DISPATCH_ID as u32, r);
    mem.u32_at(off::QUEUE_PROPERTIES)
        .store(PROPERTY_IS_PTR64, r);
    // Publish the fields before the queue pointer is handed out.
    std::sync::atomic::fence(Ordering::Release);
}

fn load_order(o: MemoryOrder) -> Ordering {
    match o {
        MemoryOrder::Relaxed | MemoryOrder::Release => Ordering::Relaxed,
        _ => Ordering::Acquire,
    }
}

fn store_order(o: MemoryOrder) -> Ordering {
    match o {
        MemoryOrder::Relaxed | MemoryOrder::Acquire => Ordering::Relaxed,
        _ => Ordering::Release,
    }
}

fn rmw_order(o: MemoryOrder) -> Ordering {
    match o {
        MemoryOrder::Relaxed => Ordering::Relaxed,
        MemoryOrder::Acquire => Ordering::Acquire,
        MemoryOrder::Release => Ordering::Release,
        MemoryOrder::AcqRel => Ordering::AcqRel,
    }
}

impl Queue {
    pub fn load_read_index(&self, o: MemoryOrder) -> u64 {
        self.mem.read_index().load(load_order(o))
    }
    pub fn store_read_index(&self, v: u64, o: MemoryOrder) {
        self.mem.read_index().store(v, store_order(o));
    }
    pub fn load_write_index(&self, o: MemoryOrder) -> u64 {
        self.mem.write_index().load(load_order(o))
    }
    pub fn store_write_index(&self, v: u64, o: MemoryOrder) {
        self.mem.write_index().store(v, store_order(o));
    }
    /// Returns the value observed (equal to `expected` when the swap happened).
    pub fn cas_write_index(&self, expected: u64, v: u64, o: MemoryOrder) -> u64 {
        let fail = if load_order(o) == Ordering::Acquire {
            Ordering::Acquire
        } else {
            Ordering::Relaxed
        };
        self.mem
            .write_index()
            .compare_exchange(expected, v, rmw_order(o), fail)
            .unwrap_or_else(|x| x)
    }
    /// Returns the previous write index.
    pub fn add_write_index(&self, v: u64, o: MemoryOrder) -> u64 {
        self.mem.write_index().fetch_add(v, rmw_order(o))
    }
}
