//! The software GFX9 GPU: dispatch → work-groups → waves, interpreter, LDS, scratch, apertures,
//! barriers and faults.
//!
//! The contract with the runtime (the runtime only uses what is declared in this file):
//! - the runtime builds a [`Kernel`] per loaded kernel (decoded once, cached with the executable),
//! - a queue's packet processor calls [`Device::launch`] for each kernel dispatch packet (or
//!   [`Device::dispatch`], which blocks until the dispatch ends); work-groups run on the
//!   scheduler's workers, and the [`DispatchClient`] hears when the dispatch ended,
//! - every global/flat memory access is checked against the runtime's [`MemoryMap`],
//! - device-side `s_sendmsg` interrupts are reported through [`DeviceEvents`].
//!
//! Inside: [`program`] decodes a kernel once; [`device`] turns a dispatch into a job of the
//! process-wide work-group scheduler ([`sched`]: workers, priorities, parking, global wave
//! sync); [`workgroup`] interleaves a work-group's waves; [`exec`] is the interpreter
//! (one module per instruction family); [`valu`] holds the per-lane VALU arithmetic; [`jit`]
//! translates a program to x86-64 AVX2 code, calling the interpreter for what it does not
//! translate (`SOFTHSA_JIT`).
//!
//! Decisions (beyond DESIGN.md):
//! - Scratch: each worker owns the backing of the work-group it runs; the private segment V#
//!   (`s[0:3]`) has base = that backing, SWIZZLE_ENABLE, element size 4, index stride 64,
//!   ADD_TID; the wave offset SGPR is `wave index * 64 * private size`; Flat Scratch Init is the
//!   64-bit backing address (GFX9) and FLAT_SCRATCH starts at the wave's base. Flat and
//!   `scratch_*` accesses swizzle every dword the same way, so all three views agree.
//! - LDS out of range: reads 0, writes dropped (GFX9 hardware), not a fault. VGPRs are not
//!   cleared between waves (as on hardware); only the work-item id VGPRs are initialised.
//! - `s_trap 3` (llvm.debugtrap) is a no-op (no debugger); other traps fault.
//! - `s_memtime` counts nanoseconds (a 1 GHz shader clock), `s_memrealtime` 100 MHz ticks.
//! - `SOFTHSA_TRACE=isa` + `SOFTHSA_TRACE_WAVE=x,y,z:w` ([`TraceConfig::from_env`]) trace one
//!   wave: each instruction with the scalar registers, SCC and VGPR lanes it changed.
//! - Faults: of the faults seen, the lowest work-group index's is reported; other work-groups
//!   stop within 64 Ki instructions. A panic inside the device becomes `FaultKind::Internal`.
//!   A flat/scratch access past the work-item's private segment is a memory violation at its
//!   flat (private aperture) address.
//! - Agent-side aliases: [`MemoryMap::translate`] may map a range to host memory at a delta;
//!   every checked access adds it, fault reports keep the agent address.
//! - gfx900 devices fault on gfx906-only instructions (illegal instruction).
//! - Plain 32-bit integer VALU ops (no modifiers/SDWA/DPP) run on `[u32; 64]` through
//!   [`exec::int32`], chosen at decode time; the `valu` module stays the reference (PERF.md).
//! - FLAT atomics that land in LDS or scratch are plain read-modify-writes ([`exec::vmem::rmw`]):
//!   no other thread sees those bytes. Global atomics are host atomics.
//! - GDS: ROCm gives user queues none, so a DS access with the GDS bit (and `ds_ordered_count`)
//!   is a GDS range error, reported as a memory violation ([`exec::ds_extra`]).
//! - GWS: 64 resources per [`Device`], shared by all its dispatches; a wave that must wait
//!   re-executes its `ds_gws_*` instruction each time it runs (`Flow::Wait`, [`exec::gws`]).
//! - VSKIP and GPR indexing set [`wave::Wave::gpr_idx_en`], which keeps the JIT's translated
//!   VALU code out of the way; the interpreter skips vector instructions while VSKIP is set.
//! - VINTRP and EXP are graphics-only: an illegal instruction in a compute wave.

use std::ops::Range;

pub mod config;
pub mod device;
pub mod exec;
pub mod fault;
pub mod fpenv;
pub mod grid;
pub mod jit;
pub mod lds;
pub mod line_buf;
pub mod memory;
pub mod program;
pub mod sched;
pub mod trace;
pub mod valu;
pub mod wave;
pub mod workgroup;

pub use device::{
    Device, DeviceConfig, Dispatch, DispatchClient, DispatchStats, GfxVersion, JitStats, JobHandle,
    Launch,
};
pub use fault::{Fault, FaultKind, PacketField};
pub use jit::Engine;
pub use program::{Kernel, Program};
pub use trace::TraceConfig;

/// Base of the flat LDS (group) aperture: above the x86-64 user address space (DESIGN.md).
pub const SHARED_APERTURE_BASE: u64 = 0x0001_0000_0000_0000;
/// Base of the flat scratch (private) aperture.
pub const PRIVATE_APERTURE_BASE: u64 = 0x0002_0000_0000_0000;
/// Size of each aperture (4 GiB: 32-bit offsets).
pub const APERTURE_SIZE: u64 = 1 << 32;

/// The runtime's view of which host ranges the GPU may touch (its allocation registry).
pub trait MemoryMap: Send + Sync {
    /// The known range that contains all of `[addr, addr + len)`, or `None` (a memory fault).
    fn lookup(&self, addr: u64, len: u64) -> Option<Range<u64>>;

    /// Like `lookup`, plus the translation of the range: the host bytes of `addr` are at
    /// `addr.wrapping_add(delta)` (non-zero only for agent-side aliases of host memory).
    fn translate(&self, addr: u64, len: u64) -> Option<(Range<u64>, u64)> {
        self.lookup(addr, len).map(|r| (r, 0))
    }

    /// What the runtime knows about an address a memory fault touched (the allocation it lies
    /// just past, a freed allocation...), for the fault report; `None` when nothing.
    fn describe(&self, _addr: u64) -> Option<String> {
        None
    }
}

/// Notifications from device code to the runtime.
pub trait DeviceEvents: Send + Sync {
    /// `s_sendmsg sendmsg(MSG_INTERRUPT)`: `m0` holds the event id the signal mailbox protocol
    /// wrote. The runtime wakes signal waiters.
    fn interrupt(&self, _m0: u32) {}
}
