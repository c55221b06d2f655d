//! Which VGPR writes the rest of a block replaces before anything reads them.
//!
//! LLVM computes 32-bit indexes with `v_mad_u64_u32` and drops the high dword at once:
//! `v_mad_u64_u32 v[0:1], s[4:5], v4, s10, v[2:3]` then `v_mov_b32 v1, 0` (a 2-D kernel's
//! `y * w + x`), or a chain of `h = h * 31 + x` where each multiply-add's high dword is the
//! next one's destination. The 64-bit product costs about 20 host instructions per chunk of
//! lanes; its low dword alone, two. A lowering may leave such a write out
//! ([`super::emit::Emitter::vgpr_unread`]).
//!
//! Only inside a block, only where a lane op (which writes every active lane) replaces the
//! register, and only where EXEC does not change in between (so the same lanes are written):
//! the registers at each block's end, at every call-out and wherever the wave leaves the
//! generated code are exactly the interpreter's. A bail-out to the interpreter between the
//! two writes runs the replacing instruction itself before anything reads the register. Check
//! mode, which compares registers after single instructions, does without it.

use super::plan::Item;
use super::select::{Kind, LaneInst, Opd};

/// A set of the 256 VGPRs, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Vgprs([u128; 2]);

impl Vgprs {
    /// Every VGPR: what an item reads when the JIT cannot say.
    const ALL: Vgprs = Vgprs([!0, !0]);

    /// Whether `r` is in the set.
    pub fn has(self, r: u8) -> bool {
        self.0[usize::from(r >> 7)] >> (r & 127) & 1 != 0
    }

    fn add(&mut self, r: u8) {
        self.0[usize::from(r >> 7)] |= 1 << (r & 127);
    }

    /// `n` registers from `first` (wrapping past v255, as register numbers do).
    fn run(first: u8, n: u8) -> Vgprs {
        let mut s = Vgprs::default();
        (0..n).for_each(|k| s.add(first.wrapping_add(k)));
        s
    }

    fn and(self, o: Vgprs) -> Vgprs {
        Vgprs([self.0[0] & o.0[0], self.0[1] & o.0[1]])
    }

    fn or(self, o: Vgprs) -> Vgprs {
        Vgprs([self.0[0] | o.0[0], self.0[1] | o.0[1]])
    }

    fn minus(self, o: Vgprs) -> Vgprs {
        Vgprs([self.0[0] & !o.0[0], self.0[1] & !o.0[1]])
    }

    fn is_empty(self) -> bool {
        self == Vgprs::default()
    }
}

/// The VGPRs lane op `li` reads (its sources; a kept destination is one of them) and writes.
fn lane(li: &LaneInst) -> (Vgprs, Vgprs) {
    let mut r = Vgprs::default();
    for i in 0..li.n {
        let k = if li.wide[i] { 2 } else { 1 };
        for o in &li.src[i][..k] {
            if let Opd::V(v) = o {
                r.add(*v);
            }
        }
    }
    let mut w = Vgprs::default();
    li.vgpr_writes().for_each(|v| w.add(v));
    (r, w)
}

/// The VGPRs a wave-wide item may read (all where the JIT cannot say). Its writes are not
/// counted: a load may keep some lanes' or bits' old values, so only lane ops end a write's
/// life.
fn op_reads(k: &Kind) -> Vgprs {
    match k {
        Kind::Salu(_) | Kind::Smem(_) | Kind::Branch(_) | Kind::Waitcnt(_) | Kind::Nop => {
            Vgprs::default()
        }
        // The address pair (or offset) and the data, also a load's: counting too much only
        // keeps a write.
        Kind::Vmem(m) => Vgprs::run(m.vaddr, 2).or(Vgprs::run(m.data, m.dwords.max(1))),
        Kind::Lane(li) => lane(li).0,
        Kind::Ds(_) | Kind::Wave(_) | Kind::End | Kind::Barrier | Kind::JumpAddr { .. } => {
            Vgprs::ALL
        }
    }
}

/// For each lane op of the block's segments that has some (by instruction index, in block
/// order), the VGPRs it writes that a later lane op of the block replaces, with EXEC
/// unchanged, before any item reads them.
pub(super) fn dead_writes(items: &[Item]) -> Vec<(u32, Vgprs)> {
    let mut out = Vec::new();
    // Going backwards: the registers a lane op replaces, under the EXEC of this point,
    // before anything reads them.
    let mut dead = Vgprs::default();
    let mut step = |dead: &mut Vgprs, i: Option<u32>, li: &LaneInst| {
        if super::mask_live::lane_writes_exec(li) {
            // (Its own writes happen under the EXEC before it, as do those before it.)
            *dead = Vgprs::default();
        }
        let (r, w) = lane(li);
        if let Some(i) = i {
            let d = dead.and(w);
            if !d.is_empty() {
                out.push((i, d));
            }
        }
        *dead = dead.or(w).minus(r);
    };
    for item in items.iter().rev() {
        match item {
            Item::Seg(insts) => {
                for (i, li) in insts.iter().rev() {
                    step(&mut dead, Some(*i), li);
                }
            }
            Item::Op(_, Kind::Lane(li)) => step(&mut dead, None, li),
            Item::Op(_, k) if super::mask_live::may_write_exec(k) => dead = Vgprs::default(),
            Item::Op(_, k) => dead = dead.minus(op_reads(k)),
            Item::Callout(_) => dead = Vgprs::default(),
        }
    }
    out.reverse();
    out
}
