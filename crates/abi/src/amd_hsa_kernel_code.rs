//! Types of `amd_hsa_kernel_code.h` (Debian libhsa-runtime-dev 5.2): Code object v2 kernel header
//! `amd_kernel_code_t` (256 bytes) with its bit-field words as shift/width/mask constants.
//!
//! Split by topic in the order of the header; everything is re-exported here.

mod kernel_code;
mod rsrc;

pub use kernel_code::*;
pub use rsrc::*;
