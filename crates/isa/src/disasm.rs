//! Disassembler: [`Inst`] → llvm-objdump text.
use crate::Inst;
use std::fmt;

/// Display adapter returned by [`Inst::display`].
pub struct Display<'a> {
    inst: &'a Inst,
    pc: u64,
}

impl Inst {
    /// The instruction as llvm-objdump-15 `--mcpu=gfx906` prints it (no address/hex comment).
    /// `pc` is the address of the instruction (used for branch targets).
    pub fn display(&self, pc: u64) -> Display<'_> {
        Display { inst: self, pc }
    }
}

impl fmt::Display for Display<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let _ = self.pc;
        f.write_str(self.inst.op.name())
    }
}
