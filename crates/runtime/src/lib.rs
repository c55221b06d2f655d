//! softhsa's HSA runtime, as a safe Rust API.
//!
//! The C ABI (`softhsa-capi`) is a thin layer over this crate. Layout of the modules:
//! - [`config`]: `SOFTHSA_*` environment variables.
//! - [`system`]: system attributes, extensions, timestamps.
//! - [`topology`]: CPU and GPU agents, ISAs, caches.
//! - [`memory`]: regions, AMD pools, the allocation registry the GPU checks addresses against.
//! - [`signal`]: `amd_signal_t` signals, waits, groups, async handlers.
//! - [`queue`]: AQL queues and their packet processors.
//! - [`dispatch`]: kernel dispatch packets handed to the software GPU.
//! - [`loader`]: code object readers and executables.
//! - [`image`]: the images extension (image and sampler objects, formats, transfers).
//! - [`ipc`]: memory and signals shared with other processes.
//! - [`svm`]: SVM attributes of host memory (managed memory).

pub mod config;
pub mod copy;
pub mod dispatch;
pub mod error;
pub mod image;
pub mod ipc;
pub mod loader;
pub mod memory;
pub mod profiling;
pub mod queue;
pub mod signal;
pub mod svm;
pub mod system;
pub mod topology;

mod global;

pub use error::{Error, Result};
pub use global::{init, runtime, shut_down, with_current, Runtime};
