//! Shared subroutines of a kernel's generated code (one per memory-access shape, and the
//! call-out to the interpreter), emitted once, after the blocks, when first needed.

use super::emit::{bind, Emitter};
use super::mem_lds::DsShape;
use super::mem_vector::VmemShape;
use iced_x86::code_asm::CodeLabel;

/// A stub's identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Stub {
    Vmem(VmemShape),
    Ds(DsShape),
    /// The body of every call-out to the interpreter.
    Callout,
    /// Classifies an LDS address register (`lds_class.rs`).
    LdsClassify,
    /// LDS reads through a classified address register.
    DsClassified(DsShape),
}

impl Emitter<'_> {
    /// The label of `stub` (scheduled for emission on first use).
    pub(super) fn stub(&mut self, stub: Stub) -> CodeLabel {
        if let Some(&l) = self.stubs.get(&stub) {
            return l;
        }
        let l = self.a.create_label();
        self.stubs.insert(stub, l);
        let mut at = l;
        self.cold(move |e| {
            bind(&mut e.a, &mut at)?;
            // The bound copy (its instruction index names its address after assembly).
            e.stubs.insert(stub, at);
            e.free_all();
            match stub {
                Stub::Vmem(s) => e.vmem_stub(s),
                Stub::Ds(s) => e.ds_stub(s),
                Stub::Callout => e.callout_stub(),
                Stub::LdsClassify => e.lds_classify_stub(),
                Stub::DsClassified(s) => e.lds_classified_stub(s),
            }
        });
        l
    }
}
