//! AMDGPU code objects (ELF64, code object v2 to v5): parsing and validation, no runtime state.
//!
//! The model every other crate uses is [`KernelDescriptor`]: the launch description of one kernel,
//! decoded from a v3+ kernel descriptor or a v2 `amd_kernel_code_t`.

pub mod descriptor;

pub use descriptor::{FloatDenormMode, FloatRoundMode, KernelDescriptor};
