//! Types of `hsa_ext_amd.h` (Debian libhsa-runtime-dev 5.2): ROCm's AMD extensions: memory pools,
//! vendor packets, profiling, pointer info, IPC, events, SVM attributes.
//!
//! Split by topic in the order of the header; everything is re-exported here.

mod agent;
mod event;
mod memory;
mod packet;
mod pointer;
mod signal;

pub use agent::*;
pub use event::*;
pub use memory::*;
pub use packet::*;
pub use pointer::*;
pub use signal::*;
