//! Types of `amd_hsa_signal.h` (Debian libhsa-runtime-dev 5.2): AMD's signal, `amd_signal_t` (64
//! bytes; `hsa_signal_t.handle` is its address), and its kinds.
//!
//! Generated from the header by the ABI generator (see the crate docs), then checked
//! field by field against C by `tests/layout.rs`.

use crate::amd_hsa_queue::amd_queue_t;

/// C `#define AMD_SIGNAL_ALIGN_BYTES 64`.
pub const AMD_SIGNAL_ALIGN_BYTES: usize = 64;

/// AMD Signal Kind Enumeration Values.
///
/// Values: the constants of C `enum amd_signal_kind_t` below.
pub type amd_signal_kind64_t = i64;

// C `enum amd_signal_kind_t`, typed as its storage word `amd_signal_kind64_t`.

pub const AMD_SIGNAL_KIND_INVALID: amd_signal_kind64_t = 0;
pub const AMD_SIGNAL_KIND_USER: amd_signal_kind64_t = 1;
pub const AMD_SIGNAL_KIND_DOORBELL: amd_signal_kind64_t = -1;
pub const AMD_SIGNAL_KIND_LEGACY_DOORBELL: amd_signal_kind64_t = -2;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C, align(64))]
pub struct amd_signal_t {
    pub kind: amd_signal_kind64_t,
    /// C anonymous union; the same 8 bytes are also read as `legacy_hardware_doorbell_ptr: *mut
    /// u32`, `hardware_doorbell_ptr: *mut u64`.
    pub value: i64,
    pub event_mailbox_ptr: u64,
    pub event_id: u32,
    pub reserved1: u32,
    pub start_ts: u64,
    pub end_ts: u64,
    /// C anonymous union; the same 8 bytes are also read as `reserved2: u64`.
    pub queue_ptr: *mut amd_queue_t,
    pub reserved3: [u32; 2],
}
zeroed_default!(amd_signal_t);
