//! Kept for code that imported HSA constants from here while `softhsa_abi` was incomplete:
//! everything is `softhsa_abi`'s now. Import from `softhsa_abi` directly.

pub use softhsa_abi::*;
