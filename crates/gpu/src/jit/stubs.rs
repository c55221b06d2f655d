//! Shared subroutines of a kernel's generated code (one per memory-access shape, and the
//! call-out to the interpreter), emitted once per kernel, after the blocks, when first needed.
//!
//! (Sharing them between the kernels of a process, compiled once into mappings of their own
//! and called by address, was tried: it saved 3% of a large kernel's compile and nothing on a
//! process's first; see docs/JIT.md, "Compile time".)

use super::emit::{Emitter, R};
use super::mem_atomic::VAtomicShape;
use super::mem_lds::DsShape;
use super::mem_lds_atomic::DsAtomicShape;
use super::mem_vector::VmemShape;
use super::nan_stub::NanShape;
use iced_x86::code_asm::CodeLabel;

/// A stub's identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Stub {
    Vmem(VmemShape),
    Ds(DsShape),
    /// An LDS atomic (`mem_lds_atomic.rs`).
    DsAtomic(DsAtomicShape),
    /// A global atomic (`mem_atomic.rs`).
    VAtomic(VAtomicShape),
    /// The body of every call-out to the interpreter.
    Callout,
    /// Classifies an LDS address register (`lds_class.rs`).
    LdsClassify,
    /// `s_barrier` and `s_endpgm`: on to the round's next wave, or out (`wave_switch.rs`;
    /// jumped to).
    NextWave,
    /// LDS reads through a classified address register.
    DsClassified(DsShape),
    /// The GFX9 NaN of an f32 or f64 op's NaN lanes (`nan_stub.rs`).
    Nan(NanShape),
    /// A read-modify-write's store to the addresses its load checked (`buf_reuse.rs`).
    KeptBaseStore,
}

impl Emitter<'_> {
    /// Calls `stub`, its arguments in place.
    pub(super) fn call_stub(&mut self, stub: Stub) -> R<()> {
        let l = self.local_stub(stub);
        Ok(self.a.call(l)?)
    }

    /// The label of `stub`'s copy in the code being emitted (emitted after everything else,
    /// on first use).
    pub(super) fn local_stub(&mut self, stub: Stub) -> CodeLabel {
        if let Some(&l) = self.stubs.get(&stub) {
            return l;
        }
        let l = self.a.create_label();
        self.stubs.insert(stub, l);
        let mut at = l;
        self.cold(move |e| {
            e.bind_kept(&mut at)?;
            // The bound copy (for its address).
            e.stubs.insert(stub, at);
            e.free_all();
            match stub {
                Stub::Vmem(s) => e.vmem_stub(s),
                Stub::Ds(s) => e.ds_stub(s),
                Stub::DsAtomic(s) => e.ds_atomic_stub(s),
                Stub::VAtomic(s) => e.vatomic_stub(s),
                Stub::Callout => e.callout_stub(),
                Stub::LdsClassify => e.lds_classify_stub(),
                Stub::NextWave => e.next_wave_stub(),
                Stub::DsClassified(s) => e.lds_classified_stub(s),
                Stub::Nan(s) => e.nan_stub(s),
                Stub::KeptBaseStore => e.kept_base_store_stub(),
            }
        });
        l
    }
}
