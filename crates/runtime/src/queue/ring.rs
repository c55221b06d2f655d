//! A queue's memory: the 256-byte `amd_queue_t` (whose head is the `hsa_queue_t` programs see)
//! and the packet ring, both page-aligned anonymous mappings that device code may read.

use crate::{Error, Result};
use softhsa_abi::HSA_STATUS_ERROR_OUT_OF_RESOURCES;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, Ordering};

/// Bytes of one AQL packet.
pub const PACKET_BYTES: u64 = 64;
/// `HSA_PACKET_TYPE_INVALID` in the low byte of a header.
pub const PACKET_TYPE_INVALID: u16 = 1;

/// Byte offsets in `amd_queue_t` (amd_hsa_queue.h).
pub mod off {
    use softhsa_abi::amd_queue_t as Q;
    use std::mem::offset_of;
    pub const TYPE: u64 = offset_of!(Q, hsa_queue.type_) as u64;
    pub const FEATURES: u64 = offset_of!(Q, hsa_queue.features) as u64;
    pub const BASE_ADDRESS: u64 = offset_of!(Q, hsa_queue.base_address) as u64;
    pub const DOORBELL_SIGNAL: u64 = offset_of!(Q, hsa_queue.doorbell_signal) as u64;
    pub const SIZE: u64 = offset_of!(Q, hsa_queue.size) as u64;
    pub const ID: u64 = offset_of!(Q, hsa_queue.id) as u64;
    pub const WRITE_DISPATCH_ID: u64 = offset_of!(Q, write_dispatch_id) as u64;
    pub const GROUP_APERTURE_HI: u64 = offset_of!(Q, group_segment_aperture_base_hi) as u64;
    pub const PRIVATE_APERTURE_HI: u64 = offset_of!(Q, private_segment_aperture_base_hi) as u64;
    pub const MAX_CU_ID: u64 = offset_of!(Q, max_cu_id) as u64;
    pub const MAX_WAVE_ID: u64 = offset_of!(Q, max_wave_id) as u64;
    pub const READ_DISPATCH_ID: u64 = offset_of!(Q, read_dispatch_id) as u64;
    pub const READ_DISPATCH_ID_FIELD_BASE_BYTE_OFFSET: u64 =
        offset_of!(Q, read_dispatch_id_field_base_byte_offset) as u64;
    pub const QUEUE_PROPERTIES: u64 = offset_of!(Q, queue_properties) as u64;
    pub const QUEUE_INACTIVE_SIGNAL: u64 = offset_of!(Q, queue_inactive_signal) as u64;
    pub const AMD_QUEUE_BYTES: u64 = std::mem::size_of::<Q>() as u64;
}

/// `amd_queue_properties_t` bits.
pub const PROPERTY_IS_PTR64: u32 = softhsa_abi::AMD_QUEUE_PROPERTIES_IS_PTR64;
pub const PROPERTY_ENABLE_PROFILING: u32 = softhsa_abi::AMD_QUEUE_PROPERTIES_ENABLE_PROFILING;

/// One anonymous mapping, unmapped on drop.
struct Mapping {
    base: u64,
    len: u64,
}

impl Mapping {
    fn new(len: u64) -> Result<Mapping> {
        // SAFETY: a fresh anonymous private mapping; it aliases no existing memory.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len as usize,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(Error::new(HSA_STATUS_ERROR_OUT_OF_RESOURCES));
        }
        Ok(Mapping {
            base: p as u64,
            len,
        })
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly what `new` mapped; the owner (QueueMemory) is being dropped.
        unsafe { libc::munmap(self.base as *mut libc::c_void, self.len as usize) };
    }
}

/// The `amd_queue_t` and ring of one queue. Both are zeroed; every packet header is INVALID.
pub struct QueueMemory {
    header: Mapping,
    ring: Mapping,
    size: u32,
}

impl QueueMemory {
    pub fn new(size: u32) -> Result<QueueMemory> {
        let page = 4096;
        let ring_len = (size as u64 * PACKET_BYTES).div_ceil(page) * page;
        let mem = QueueMemory {
            header: Mapping::new(page)?,
            ring: Mapping::new(ring_len)?,
            size,
        };
        for i in 0..size as u64 {
            mem.packet_header(i)
                .store(PACKET_TYPE_INVALID, Ordering::Relaxed);
        }
        Ok(mem)
    }

    /// Address of the `amd_queue_t` (= the `hsa_queue_t*` handed to programs).
    pub fn queue_addr(&self) -> u64 {
        self.header.base
    }

    pub fn ring_addr(&self) -> u64 {
        self.ring.base
    }

    /// `(base, len)` of both mappings, for the allocation registry.
    pub fn regions(&self) -> [(u64, u64); 2] {
        [
            (self.header.base, self.header.len),
            (self.ring.base, self.ring.len),
        ]
    }

    pub fn size(&self) -> u32 {
        self.size
    }

    pub fn u32_at(&self, offset: u64) -> &AtomicU32 {
        debug_assert!(offset + 4 <= off::AMD_QUEUE_BYTES && offset.is_multiple_of(4));
        // SAFETY: in-bounds, aligned field of the amd_queue_t mapping owned by `self`; shared
        // with programs and device code, so it is only accessed atomically here.
        unsafe { AtomicU32::from_ptr((self.header.base + offset) as *mut u32) }
    }

    pub fn u64_at(&self, offset: u64) -> &AtomicU64 {
        debug_assert!(offset + 8 <= off::AMD_QUEUE_BYTES && offset.is_multiple_of(8));
        // SAFETY: as in `u32_at`, for an 8-byte aligned field.
        unsafe { AtomicU64::from_ptr((self.header.base + offset) as *mut u64) }
    }

    /// Address of the packet slot for packet index `index`.
    pub fn slot_addr(&self, index: u64) -> u64 {
        self.ring.base + (index % self.size as u64) * PACKET_BYTES
    }

    /// The 16-bit header of the slot for `index`, which producers release-store last.
    pub fn packet_header(&self, index: u64) -> &AtomicU16 {
        // SAFETY: the slot lies inside the ring mapping owned by `self` and is 64-byte aligned.
        unsafe { AtomicU16::from_ptr(self.slot_addr(index) as *mut u16) }
    }

    /// Copies the 64 bytes of the slot for `index` (after its header was seen valid).
    pub fn read_packet(&self, index: u64) -> [u64; 8] {
        let p = self.slot_addr(index);
        // SAFETY: as in `packet_header`; the fields are read as relaxed atomics because the
        // producer may still be writing other slots next to this one.
        std::array::from_fn(|i| unsafe {
            AtomicU64::from_ptr((p + 8 * i as u64) as *mut u64).load(Ordering::Relaxed)
        })
    }

    pub fn read_index(&self) -> &AtomicU64 {
        self.u64_at(off::READ_DISPATCH_ID)
    }

    pub fn write_index(&self) -> &AtomicU64 {
        self.u64_at(off::WRITE_DISPATCH_ID)
    }
}
