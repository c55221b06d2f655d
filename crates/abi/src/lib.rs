//! `#[repr(C)]` Rust mirrors of ROCm 5.2's HSA headers, as Debian's libhsa-runtime-dev installs
//! them under `/usr/include/hsa`: one module per header, all re-exported here. The headers are
//! hsa.h (with the AQL packets), hsa_ext_amd.h, hsa_ven_amd_loader.h, amd_hsa_queue.h,
//! amd_hsa_signal.h, amd_hsa_kernel_code.h, and the image and finalizer extensions
//! (hsa_ext_image.h, hsa_ext_finalize.h) whose entry points ROCm exports and HIP imports.
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
//! The header modules and [`status_text`] are generated from the headers by
//! `crates/abi/gen/generate.py` (libclang; Debian package python3-clang-16, needed only to
//! regenerate): edit the generator, not its output. [`aql`], [`bits`] and [`handles`] are written
//! by hand. The acceptance check is `cargo test -p softhsa-abi`: it compiles a C program against
//! `/usr/include/hsa` and compares every struct's size and alignment, every field's offset, size
//! and exact C type (signedness, constness, callback signatures), every typedef and every
//! constant with this crate, and proves from the headers' text that the list it checks is
//! complete.
//!
//! The crate root re-exports only the C names; the hand-written helpers stay under their module
//! path (`softhsa_abi::aql::packet_header`), so `use softhsa_abi::*` brings in nothing but C.
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
pub mod handles;
pub mod hsa;
pub mod hsa_ext_amd;
pub mod hsa_ext_finalize;
pub mod hsa_ext_image;
pub mod hsa_ven_amd_loader;
pub mod status_text;

pub use amd_hsa_kernel_code::*;
pub use amd_hsa_queue::*;
pub use amd_hsa_signal::*;
pub use hsa::*;
pub use hsa_ext_amd::*;
pub use hsa_ext_finalize::*;
pub use hsa_ext_image::*;
pub use hsa_ven_amd_loader::*;
pub use status_text::*;
