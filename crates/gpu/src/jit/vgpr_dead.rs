//! Which VGPR writes the rest of a block replaces before anything reads them.
//!
//! LLVM computes 32-bit indexes with `v_mad_u64_u32` and drops the high dword at once:
//! `v_mad_u64_u32 v[0:1], s[4:5], v4, s10, v[2:3]` then `v_mov_b32 v1, 0` (a 2-D kernel's
//! `y * w + x`), or a chain of `h = h * 31 + x` where each multiply-add's high dword is the
//! next one's destination. The 64-bit product costs about 20 host instructions per chunk of
//! lanes; its low dword alone, two. A lowering may leave such a write out
//! ([`super::emit::Emitter::vgpr_unread`]). Likewise a segment need not store a temporary that
//! the next LDS read or lane op replaces (a tiled matrix product's `v_mul_f32 v12, ...` whose
//! `v12` the next `ds_read2_b32 v[12:13]` reloads: [`Dead::after`]).
//!
//! Nor need a wave keep what nothing reads before it ends (outside check mode and the tests that
//! compare every register at the end): the address pair of a kernel's last store, a
//! temporary of its last segment ([`live_out`]: VGPRs no path from a block's end reads, by a
//! fixpoint over the blocks as for lane masks in `mask_live.rs`).
//!
//! Otherwise only inside a block, only where an instruction that writes every active lane replaces the
//! register (a lane op, or a load that is not `_d16`), and only where EXEC does not change in
//! between (so the same lanes are written): the registers at each block's end, at every
//! call-out and wherever the wave leaves the generated code are exactly the interpreter's. A
//! bail-out to the interpreter between the two writes runs the replacing instruction itself
//! before anything reads the register. A fault in between ends the wave with the older value
//! there, as with the lane masks of `mask_live.rs`: its report names kind, pc, lane and
//! address, not registers. Check mode, which compares registers after single instructions,
//! does without it.

use super::plan::Item;
use super::select::{Kind, LaneInst, Opd};

/// A set of the 256 VGPRs, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Vgprs([u128; 2]);

impl Vgprs {
    /// Every VGPR: what an item reads when the JIT cannot say.
    pub const ALL: Vgprs = Vgprs([!0, !0]);

    /// Whether `r` is in the set.
    pub fn has(self, r: u8) -> bool {
        self.0[usize::from(r >> 7)] >> (r & 127) & 1 != 0
    }

    /// Adds `r`.
    pub(super) fn add(&mut self, r: u8) {
        self.0[usize::from(r >> 7)] |= 1 << (r & 127);
    }

    /// `n` registers from `first` (wrapping past v255, as register numbers do).
    fn run(first: u8, n: u8) -> Vgprs {
        let mut s = Vgprs::default();
        (0..n).for_each(|k| s.add(first.wrapping_add(k)));
        s
    }

    /// The intersection.
    pub(super) fn and(self, o: Vgprs) -> Vgprs {
        Vgprs([self.0[0] & o.0[0], self.0[1] & o.0[1]])
    }

    /// The union.
    pub(super) fn or(self, o: Vgprs) -> Vgprs {
        Vgprs([self.0[0] | o.0[0], self.0[1] | o.0[1]])
    }

    /// The registers of `self` not in `o`.
    pub(super) fn minus(self, o: Vgprs) -> Vgprs {
        Vgprs([self.0[0] & !o.0[0], self.0[1] & !o.0[1]])
    }

    /// Whether the set is empty.
    pub(super) fn is_empty(self) -> bool {
        self == Vgprs::default()
    }
}

impl super::liveness::RegSet for Vgprs {
    const EMPTY: Vgprs = Vgprs([0, 0]);
    const ALL: Vgprs = Vgprs::ALL;
    fn union(self, o: Vgprs) -> Vgprs {
        self.or(o)
    }
    fn minus(self, o: Vgprs) -> Vgprs {
        Vgprs::minus(self, o)
    }
}

/// The VGPRs lane op `li` reads (its sources; a kept destination is one of them) and writes.
pub(super) fn lane(li: &LaneInst) -> (Vgprs, Vgprs) {
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

/// The VGPRs a wave-wide item may read (all where the JIT cannot say) and those it replaces
/// in every active lane: a load's destination, unless it keeps half of each dword (`_d16`).
fn op_effects(k: &Kind) -> (Vgprs, Vgprs) {
    let whole = |sub: Option<super::select::SubDword>| sub.is_none_or(|s| s.d16.is_none());
    match k {
        Kind::Salu(_) | Kind::Smem(_) | Kind::Branch(_) | Kind::Waitcnt(_) | Kind::Nop => {
            (Vgprs::default(), Vgprs::default())
        }
        // The address pair (or offset) and a store's data: counting too much only keeps a
        // write.
        Kind::Vmem(m) => {
            let addr = Vgprs::run(m.vaddr, 2);
            let data = Vgprs::run(m.data, m.dwords.max(1));
            match m.load && whole(m.sub) {
                true => (addr, data),
                false => (addr.or(data), Vgprs::default()),
            }
        }
        Kind::Ds(d) => {
            let addr = Vgprs::run(d.addr, 1);
            let n = d.dwords.max(1);
            match (d.load, whole(d.sub)) {
                (true, true) => (addr, Vgprs::run(d.dst, if d.two { 2 * n } else { n })),
                (true, false) => (addr.or(Vgprs::run(d.dst, 2 * n)), Vgprs::default()),
                (false, _) => (
                    addr.or(Vgprs::run(d.data0, n)).or(Vgprs::run(d.data1, n)),
                    Vgprs::default(),
                ),
            }
        }
        // The old values replace the destination in every active lane.
        Kind::DsAtomic(d) => {
            let n = d.regs();
            let reads = Vgprs::run(d.addr, 1).or(Vgprs::run(d.data0, n));
            let reads = match d.reads_data1() {
                true => reads.or(Vgprs::run(d.data1, n)),
                false => reads,
            };
            let writes = match d.rtn {
                true => Vgprs::run(d.dst, n),
                false => Vgprs::default(),
            };
            (reads, writes)
        }
        Kind::VAtomic(m) => {
            let addr = Vgprs::run(m.vaddr, if m.saddr.is_some() { 1 } else { 2 });
            let reads = addr.or(Vgprs::run(m.data, m.data_regs()));
            let writes = match m.rtn {
                true => Vgprs::run(m.dst, m.regs()),
                false => Vgprs::default(),
            };
            (reads, writes)
        }
        Kind::Lane(li) => lane(li),
        Kind::Wave(_) | Kind::End | Kind::Barrier | Kind::JumpAddr { .. } => {
            (Vgprs::ALL, Vgprs::default())
        }
    }
}

/// The VGPRs `item` may read: everything where the JIT cannot say (what the interpreter runs
/// included), nothing at `s_endpgm` unless `exact_end`.
fn reads(item: &Item, exact_end: bool) -> Vgprs {
    match item {
        Item::Seg(insts) => insts
            .iter()
            .fold(Vgprs::default(), |a, (_, li)| a.or(lane(li).0)),
        Item::Op(_, Kind::End) if !exact_end => Vgprs::default(),
        Item::Op(_, k) => op_effects(k).0,
        Item::Callout(_) => Vgprs::ALL,
    }
}

/// The VGPRs block `items` may read before writing them: a lane-wise read counts unless the
/// block wrote the register before it with EXEC unchanged in between (then every lane that
/// reads was written there). Whatever the JIT cannot say reads everything, in every lane;
/// `s_endpgm` nothing.
fn upward_exposed(items: &[Item]) -> Vgprs {
    let (mut exposed, mut written) = (Vgprs::default(), Vgprs::default());
    for item in items {
        match item {
            Item::Seg(insts) => {
                for (_, li) in insts {
                    let (r, w) = lane(li);
                    exposed = exposed.or(r.minus(written));
                    if super::mask_live::lane_writes_exec(li) {
                        written = Vgprs::default();
                    }
                    written = written.or(w);
                }
            }
            Item::Op(_, k) => {
                // Lane-wise reads only: a cross-lane op (DPP, `ds_bpermute_b32`,
                // `v_readlane_b32`: what the JIT cannot say) may read lanes the block's write
                // under its EXEC left alone.
                let r = reads(item, false);
                exposed = exposed.or(match k {
                    Kind::Lane(_)
                    | Kind::Vmem(_)
                    | Kind::Ds(_)
                    | Kind::DsAtomic(_)
                    | Kind::VAtomic(_) => r.minus(written),
                    _ => r,
                });
                if super::mask_live::may_write_exec(k) {
                    written = Vgprs::default();
                }
                written = written.or(op_effects(k).1);
            }
            Item::Callout(_) => {
                exposed = Vgprs::ALL;
                written = Vgprs::default();
            }
        }
    }
    exposed
}

/// Per block, the VGPRs some path from its end (`succs`; `None`: unknown) may read before the
/// wave ends: what a later block may read before writing it ([`upward_exposed`]). A write
/// does not end a life across blocks (a lane op under a partial EXEC keeps the other lanes,
/// which a block after a join may read), only a read after it in its own block with EXEC
/// unchanged. With `exact_end` (check mode, tests), everything is live.
pub(super) fn live_out(
    blocks: &[super::plan::Block],
    succs: &[Option<Vec<usize>>],
    exact_end: bool,
) -> Vec<Vgprs> {
    let n = blocks.len();
    if exact_end {
        return vec![Vgprs::ALL; n];
    }
    // (A write does not end a life here: `defined` is empty.)
    let transfer: Vec<(Vgprs, Vgprs)> = blocks
        .iter()
        .map(|b| (upward_exposed(&b.items), Vgprs::default()))
        .collect();
    super::liveness::live_out(succs, &transfer)
}

/// What the JIT may leave unwritten in a block ([`analyse`]): "dead" below means replaced
/// before any read (EXEC unchanged) or read by nothing before the wave ends.
#[derive(Debug, Default)]
pub(super) struct Dead {
    /// For each lane op of the block's segments that has some (by instruction index, in block
    /// order), the VGPRs it writes that the block replaces, with EXEC unchanged, before any
    /// item reads them, or that nothing reads before the wave ends.
    pub writes: Vec<(u32, Vgprs)>,
    /// For each segment (by its first instruction's index), the VGPRs the block replaces after
    /// it, with EXEC unchanged, before any item reads them, or that nothing reads before the
    /// wave ends: what the segment writes there need not leave its registers.
    pub after: Vec<(u32, Vgprs)>,
    /// For each global access (by instruction index), the VGPRs the block replaces after it,
    /// with EXEC unchanged, before any item reads them, or that nothing reads before the wave
    /// ends: an address only the access reads may stay unwritten in most lanes
    /// (`addr_defer.rs`).
    pub after_access: Vec<(u32, Vgprs)>,
}

/// The dead writes of a block's items (in execution order); `live_out`: the VGPRs read after
/// the block ([`live_out`]).
pub(super) fn analyse(items: &[Item], live_out: Vgprs) -> Dead {
    let mut out = Dead::default();
    // Going backwards: the registers replaced in every lane of the EXEC of this point before
    // anything reads them (`dead`), and those nothing reads before the wave ends (`gone`,
    // whatever EXEC does).
    let mut dead = Vgprs::default();
    let mut gone = Vgprs::ALL.minus(live_out);
    let step = |dead: &mut Vgprs, (r, w): (Vgprs, Vgprs), exec: bool| {
        if exec {
            // (Its own writes happen under the EXEC before it, as do those before it.)
            *dead = Vgprs::default();
        }
        *dead = dead.or(w).minus(r);
    };
    for item in items.iter().rev() {
        match item {
            Item::Seg(insts) => {
                // (Where the segment changes EXEC, what it wrote before under the older EXEC
                // may outlive what replaces it after.)
                let exec = insts
                    .iter()
                    .any(|(_, li)| super::mask_live::lane_writes_exec(li));
                let replaced = if exec { Vgprs::default() } else { dead };
                out.after.push((insts[0].0, replaced.or(gone)));
                for (i, li) in insts.iter().rev() {
                    let effects = lane(li);
                    let d = dead.or(gone).and(effects.1);
                    if !d.is_empty() {
                        out.writes.push((*i, d));
                    }
                    step(&mut dead, effects, super::mask_live::lane_writes_exec(li));
                    gone = gone.minus(effects.0);
                }
            }
            Item::Op(i, k) => {
                if let Kind::Vmem(_) = k {
                    out.after_access.push((*i, dead.or(gone)));
                }
                step(
                    &mut dead,
                    op_effects(k),
                    super::mask_live::may_write_exec(k),
                );
                gone = gone.minus(reads(item, false));
            }
            Item::Callout(_) => {
                dead = Vgprs::default();
                gone = Vgprs::default();
            }
        }
    }
    out.writes.reverse();
    out.after.reverse();
    out.after_access.reverse();
    out
}

/// The VGPRs the JIT may leave unwritten in block `b`: dead writes of its lane ops, and what
/// its segments write that the block replaces after them (or nothing reads).
#[cfg(test)]
fn left_out(b: &super::plan::Block) -> Vgprs {
    let dead = analyse(&b.items, b.vlive_out);
    let mut all = Vgprs::default();
    for (_, s) in &dead.writes {
        all = all.or(*s);
    }
    for (p, item) in b.items.iter().enumerate() {
        if let Item::Seg(insts) = item {
            let written = insts
                .iter()
                .fold(Vgprs::default(), |a, (_, li)| a.or(lane(li).1));
            if let Some((_, s)) = dead.after.iter().find(|(i, _)| *i == insts[0].0) {
                all = all.or(s.and(written));
            }
            // An address the next access alone reads (`addr_defer.rs`).
            if let Some(Item::Op(i, Kind::Vmem(_))) = b.items.get(p + 1) {
                if let Some((_, s)) = dead.after_access.iter().find(|(j, _)| j == i) {
                    all = all.or(s.and(written));
                }
            }
        }
    }
    all
}

/// Every VGPR the JIT may leave unwritten somewhere in `plan`. Tests: a wave that faults ends
/// with their older values where the rest of its block would have replaced them (the fault's
/// report names kind, pc, lane and address, not registers).
#[cfg(test)]
pub(super) fn maybe_unwritten(plan: &super::plan::Plan) -> Vec<u8> {
    let all = plan
        .blocks
        .iter()
        .fold(Vgprs::default(), |a, b| a.or(left_out(b)));
    (0..=255u8).filter(|&r| all.has(r)).collect()
}

/// Every VGPR the JIT may leave unwritten in `plan` because nothing reads it before the wave
/// ends (tests that compile as outside tests compare the others at a wave's end).
#[cfg(test)]
pub(super) fn unread_at_end(plan: &super::plan::Plan) -> Vec<u8> {
    let all = plan.blocks.iter().fold(Vgprs::default(), |a, b| {
        a.or(left_out(b).minus(b.vlive_out))
    });
    (0..=255u8).filter(|&r| all.has(r)).collect()
}
