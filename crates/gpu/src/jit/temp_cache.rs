//! Which temporaries of a segment's chunk still hold an operand's value: a VGPR without a
//! home just written (its store is in memory, its value still in the temporary that computed
//! it) or read, an SGPR or constant just broadcast (AVX2 has no broadcast operands). A later
//! read of the same operand in the same chunk takes the register instead of loading or
//! broadcasting again; AVX2's six homes leave most of a long segment's VGPRs without one.
//!
//! Validity is decided from the instructions emitted since: an entry dies when an
//! instruction writes its register (its first operand, as every vector instruction names its
//! destination), and all die at a label (code that jumps there may have left anything in the
//! registers), a jump or call (out-of-line paths come back through labels, calls clobber all
//! vector registers), `vzeroupper`/`vzeroall` and gathers (which also write their mask
//! operand). Each emitted instruction is looked at once.

use super::select::Opd;
use super::vx::V;
use iced_x86::{Instruction, Mnemonic, OpKind, Register};

/// Operands held in temporaries, valid up to the instruction `seen`.
#[derive(Default)]
pub(super) struct TempCache {
    entries: Vec<(Opd, V)>,
    seen: usize,
}

impl TempCache {
    /// Forgets everything; `at` is the number of instructions emitted so far.
    pub(super) fn clear(&mut self, at: usize) {
        self.entries.clear();
        self.seen = at;
    }

    /// Drops the entries the instructions emitted since the last call invalidate.
    pub(super) fn sync(&mut self, emitted: &[Instruction]) {
        let new = emitted.get(self.seen..).unwrap_or_default();
        self.seen = emitted.len();
        if self.entries.is_empty() {
            return;
        }
        for i in new {
            if clobbers_all(i) {
                self.entries.clear();
                return;
            }
            if let Some(n) = vector_dest(i) {
                self.entries.retain(|e| usize::from(e.1 .0) != n);
            }
        }
    }

    /// The register holding `o` (after [`TempCache::sync`]).
    pub(super) fn get(&self, o: Opd) -> Option<V> {
        self.entries.iter().find(|e| e.0 == o).map(|e| e.1)
    }

    /// Records that `v` holds `o` now (after [`TempCache::sync`]): `v`'s and `o`'s other
    /// entries are stale.
    pub(super) fn insert(&mut self, o: Opd, v: V) {
        self.forget(o);
        self.entries.retain(|e| e.1 != v);
        self.entries.push((o, v));
    }

    /// `o` changes (a VGPR written elsewhere than in a cached temporary).
    pub(super) fn forget(&mut self, o: Opd) {
        self.entries.retain(|e| e.0 != o);
    }

    /// The registers holding entries, as a bit set.
    pub(super) fn regs(&self) -> u32 {
        self.entries.iter().fold(0, |m, e| m | 1 << e.1 .0)
    }
}

/// The number of the vector register `i` writes as its first operand.
fn vector_dest(i: &Instruction) -> Option<usize> {
    if i.op0_kind() != OpKind::Register {
        return None;
    }
    let r = i.op0_register();
    let first = if r.is_xmm() {
        Register::XMM0
    } else if r.is_ymm() {
        Register::YMM0
    } else if r.is_zmm() {
        Register::ZMM0
    } else {
        return None;
    };
    Some(r as usize - first as usize)
}

/// Whether `i` may leave any vector register changed, or be reached with other contents.
fn clobbers_all(i: &Instruction) -> bool {
    // A label is set on the next instruction added (as its `ip`).
    i.ip() != 0
        || matches!(
            i.mnemonic(),
            Mnemonic::Ja
                | Mnemonic::Jae
                | Mnemonic::Jb
                | Mnemonic::Jbe
                | Mnemonic::Je
                | Mnemonic::Jne
                | Mnemonic::Jg
                | Mnemonic::Jge
                | Mnemonic::Jl
                | Mnemonic::Jle
                | Mnemonic::Jo
                | Mnemonic::Jno
                | Mnemonic::Jp
                | Mnemonic::Jnp
                | Mnemonic::Js
                | Mnemonic::Jns
                | Mnemonic::Jmp
                | Mnemonic::Call
                | Mnemonic::Ret
                | Mnemonic::Jrcxz
                | Mnemonic::Jecxz
                | Mnemonic::Loop
                | Mnemonic::Loope
                | Mnemonic::Loopne
                | Mnemonic::Vzeroupper
                | Mnemonic::Vzeroall
                | Mnemonic::Vpgatherdd
                | Mnemonic::Vpgatherdq
                | Mnemonic::Vpgatherqd
                | Mnemonic::Vpgatherqq
                | Mnemonic::Vgatherdps
                | Mnemonic::Vgatherdpd
                | Mnemonic::Vgatherqps
                | Mnemonic::Vgatherqpd
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use iced_x86::code_asm::*;

    #[test]
    fn writes_labels_and_jumps_end_entries() {
        let mut a = CodeAssembler::new(64).unwrap();
        let mut c = TempCache::default();
        c.insert(Opd::V(3), V(1));
        c.insert(Opd::S(4), V(2));
        // A store of ymm1 and a write of xmm0 keep both; a write of xmm2 ends S4's.
        a.vmovdqu(ymmword_ptr(rdi), ymm1).unwrap();
        a.vpxor(xmm0, xmm0, xmm0).unwrap();
        c.sync(a.instructions());
        assert_eq!(
            (c.get(Opd::V(3)), c.get(Opd::S(4))),
            (Some(V(1)), Some(V(2)))
        );
        a.vpaddd(xmm2, xmm1, xmm1).unwrap();
        c.sync(a.instructions());
        assert_eq!((c.get(Opd::V(3)), c.get(Opd::S(4))), (Some(V(1)), None));
        // Re-inserting a register moves it to the new operand.
        c.insert(Opd::K(7), V(1));
        assert_eq!((c.get(Opd::V(3)), c.get(Opd::K(7))), (None, Some(V(1))));
        assert_eq!(c.regs(), 1 << 1);
        // A label ends everything.
        let mut l = a.create_label();
        a.set_label(&mut l).unwrap();
        a.nop().unwrap();
        c.sync(a.instructions());
        assert_eq!(c.get(Opd::K(7)), None);
        // So does a jump, and a gather (its mask operand is written too).
        c.insert(Opd::V(5), V(3));
        a.jne(l).unwrap();
        c.sync(a.instructions());
        assert_eq!(c.get(Opd::V(5)), None);
        c.insert(Opd::V(5), V(3));
        a.vpgatherdd_3(ymm0, ptr(rax + ymm1 * 4), ymm3).unwrap();
        c.sync(a.instructions());
        assert_eq!(c.get(Opd::V(5)), None);
    }
}
