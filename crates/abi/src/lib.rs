//! `#[repr(C)]` Rust mirrors of ROCm 5.2's HSA headers, as Debian's libhsa-runtime-dev installs
//! them under `/usr/include/hsa`: one module per header, all re-exported here.
//!
//! Conventions (every layer codes against them):
//! - C names exactly (`hsa_status_t`, `HSA_STATUS_ERROR_INVALID_ARGUMENT`, `amd_queue_t`); a C
//!   field named like a Rust keyword gets a trailing underscore (`type_`).
//! - A C enum is `pub type X = u32` (its C underlying type) plus `pub const` values, never a Rust
//!   enum, because C may pass any value. An AMD enum without a typedef that describes a sized
//!   storage word (`enum amd_signal_kind_t` for `amd_signal_kind64_t`) has its constants typed as
//!   that word, so `signal.kind == AMD_SIGNAL_KIND_USER` compiles.
//! - AMD bit-field words keep the header's triples: `X_SHIFT`, `X_WIDTH` and the mask `X`
//!   (see [`bits`] for get/set helpers).
//! - An anonymous C union of equally sized members is its first member (`amd_signal_t::value`,
//!   `amd_signal_t::queue_ptr`, `hsa_amd_event_t::memory_fault`); the field docs name the others.
//! - Callback typedefs are `Option<unsafe extern "C" fn(..)>`.
//! - Every struct is `Clone + Copy + Debug + Default` (all-zero, as C code memsets them); those
//!   without function pointers are also `PartialEq + Eq + Hash`.
//!
//! The six header modules are generated from the headers by a libclang script (kept outside the
//! tree; regenerate by hand-checking against `tests/layout.rs`). The acceptance check is
//! `cargo test -p softhsa-abi`: it compiles a C program against `/usr/include/hsa` and compares
//! every struct's size, alignment and every field's offset and size, every integer typedef and
//! every constant with this crate.
#![allow(non_camel_case_types, non_upper_case_globals, non_snake_case)]

/// `impl Default` as the all-zero value, which is what C code gets from `memset(0)`.
macro_rules! zeroed_default {
    ($($t:ty),* $(,)?) => {$(
        impl Default for $t {
            fn default() -> Self {
                // SAFETY: these `#[repr(C)]` types hold only integers, `bool`, raw pointers,
                // `Option<fn>` and arrays or structs of those, for all of which all-zero bytes
                // are a valid value (0, false, null, None).
                unsafe { core::mem::zeroed() }
            }
        }
    )*};
}

pub mod amd_hsa_kernel_code;
pub mod amd_hsa_queue;
pub mod amd_hsa_signal;
pub mod aql;
pub mod bits;
pub mod hsa;
pub mod hsa_ext_amd;
pub mod hsa_ven_amd_loader;

pub use amd_hsa_kernel_code::*;
pub use amd_hsa_queue::*;
pub use amd_hsa_signal::*;
pub use aql::*;
pub use bits::*;
pub use hsa::*;
pub use hsa_ext_amd::*;
pub use hsa_ven_amd_loader::*;
