//! Inter-process sharing on one machine: `hsa_amd_ipc_memory_*` and `hsa_amd_ipc_signal_*`.
//!
//! Memory and signals are shared through memfd files (see [`shared`]); an IPC handle names the
//! exporting process, its descriptor of the file and a random tag in the file's name
//! ([`handle`]). The allocation registry stays the source of truth: an exported allocation's
//! record holds its shared file, an attached mapping is a registry range of kind
//! [`crate::memory::RangeKind::Ipc`] (pointer type `HSA_EXT_POINTER_TYPE_IPC`).
//!
//! A handle of a process that has exited, of a freed allocation, or a forged one is refused with
//! `HSA_STATUS_ERROR_INVALID_ARGUMENT`; the exported bytes outlive their exporter as long as
//! another process has them mapped, as device memory shared through ROCm does.

pub mod handle;
pub mod memory;
pub mod shared;
pub mod signal;
