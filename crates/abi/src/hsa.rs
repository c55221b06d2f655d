//! Types of `hsa.h` (Debian libhsa-runtime-dev 5.2): HSA 1.x core runtime API: status codes,
//! system/agent/region/queue/signal/executable enums and handles, and the AQL packet formats.
//!
//! Split by topic in the order of the header; everything is re-exported here.

mod agent;
mod code_object;
mod executable;
mod isa;
mod packet;
mod queue;
mod region;
mod signal;
mod status;

pub use agent::*;
pub use code_object::*;
pub use executable::*;
pub use isa::*;
pub use packet::*;
pub use queue::*;
pub use region::*;
pub use signal::*;
pub use status::*;
