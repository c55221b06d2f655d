//! Types of `amd_hsa_queue.h` (Debian libhsa-runtime-dev 5.2): AMD's queue, `amd_queue_t` (256
//! bytes; device code and other runtimes read it byte-exact), and its property bits.
//!
//! Generated from the header by the ABI generator (see the crate docs), then checked
//! field by field against C by `tests/layout.rs`.

use crate::hsa::*;

/// C `#define AMD_QUEUE_ALIGN_BYTES 64`.
pub const AMD_QUEUE_ALIGN_BYTES: usize = 64;

/// AMD Queue Properties.
///
/// Values: the constants of C `enum amd_queue_properties_t` below.
pub type amd_queue_properties32_t = u32;

// C `enum amd_queue_properties_t`, typed as its storage word `amd_queue_properties32_t`.

pub const AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_SHIFT: amd_queue_properties32_t = 0;
pub const AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_WIDTH: amd_queue_properties32_t = 1;
pub const AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER: amd_queue_properties32_t = 1;
pub const AMD_QUEUE_PROPERTIES_IS_PTR64_SHIFT: amd_queue_properties32_t = 1;
pub const AMD_QUEUE_PROPERTIES_IS_PTR64_WIDTH: amd_queue_properties32_t = 1;
pub const AMD_QUEUE_PROPERTIES_IS_PTR64: amd_queue_properties32_t = 2;
pub const AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_DEBUG_SGPRS_SHIFT: amd_queue_properties32_t = 2;
pub const AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_DEBUG_SGPRS_WIDTH: amd_queue_properties32_t = 1;
pub const AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_DEBUG_SGPRS: amd_queue_properties32_t = 4;
pub const AMD_QUEUE_PROPERTIES_ENABLE_PROFILING_SHIFT: amd_queue_properties32_t = 3;
pub const AMD_QUEUE_PROPERTIES_ENABLE_PROFILING_WIDTH: amd_queue_properties32_t = 1;
pub const AMD_QUEUE_PROPERTIES_ENABLE_PROFILING: amd_queue_properties32_t = 8;
pub const AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE_SHIFT: amd_queue_properties32_t = 4;
pub const AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE_WIDTH: amd_queue_properties32_t = 1;
pub const AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE: amd_queue_properties32_t = 0x10;
pub const AMD_QUEUE_PROPERTIES_RESERVED1_SHIFT: amd_queue_properties32_t = 5;
pub const AMD_QUEUE_PROPERTIES_RESERVED1_WIDTH: amd_queue_properties32_t = 27;
pub const AMD_QUEUE_PROPERTIES_RESERVED1: amd_queue_properties32_t = 0xffffffe0;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C, align(64))]
pub struct amd_queue_t {
    pub hsa_queue: hsa_queue_t,
    pub reserved1: [u32; 4],
    pub write_dispatch_id: u64,
    pub group_segment_aperture_base_hi: u32,
    pub private_segment_aperture_base_hi: u32,
    pub max_cu_id: u32,
    pub max_wave_id: u32,
    pub max_legacy_doorbell_dispatch_id_plus_1: u64,
    pub legacy_doorbell_lock: u32,
    pub reserved2: [u32; 9],
    pub read_dispatch_id: u64,
    pub read_dispatch_id_field_base_byte_offset: u32,
    pub compute_tmpring_size: u32,
    pub scratch_resource_descriptor: [u32; 4],
    pub scratch_backing_memory_location: u64,
    pub scratch_backing_memory_byte_size: u64,
    pub scratch_wave64_lane_byte_size: u32,
    pub queue_properties: amd_queue_properties32_t,
    pub reserved3: [u32; 2],
    pub queue_inactive_signal: hsa_signal_t,
    pub reserved4: [u32; 14],
}
zeroed_default!(amd_queue_t);
