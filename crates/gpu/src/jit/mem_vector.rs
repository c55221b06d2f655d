//! Vector memory (global/flat loads and stores of dwords) and LDS accesses.

use super::emit::{err, Emitter, R};
use super::select::{DsInst, VmemInst};

impl Emitter<'_> {
    /// A global/flat load or store.
    pub(super) fn vmem(&mut self, _i: u32, _m: &VmemInst) -> R<()> {
        Err(err("vmem not yet"))
    }

    /// An LDS load or store.
    pub(super) fn ds(&mut self, _i: u32, _d: &DsInst) -> R<()> {
        Err(err("ds not yet"))
    }
}
