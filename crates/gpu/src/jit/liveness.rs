//! The backward fixpoint over a plan's blocks that both liveness analyses share: lane masks
//! and other scalar registers (`mask_live.rs`), SCC (`scc_live.rs`) and VGPRs (`vgpr_dead.rs`).

use super::plan::Item;

/// A set of registers, as the fixpoint needs it.
pub(super) trait RegSet: Copy + Eq {
    /// No register.
    const EMPTY: Self;
    /// Every register: what a block's unknown successor may read.
    const ALL: Self;
    /// The registers in either set.
    fn union(self, o: Self) -> Self;
    /// The registers in `self` and not in `o`.
    fn minus(self, o: Self) -> Self;
}

impl RegSet for u128 {
    const EMPTY: u128 = 0;
    const ALL: u128 = !0;
    fn union(self, o: u128) -> u128 {
        self | o
    }
    fn minus(self, o: u128) -> u128 {
        self & !o
    }
}

/// Per block, the registers live at its end: those a block it may go on to (`succs`; `None`:
/// unknown, everything is live) can read before writing them. `transfer[k]`: block `k`'s
/// (used: read before written in it, defined: written before any read in it), so that
/// `live_in = used | (live_out & !defined)`; one step per block and round.
pub(super) fn live_out<S: RegSet>(succs: &[Option<Vec<usize>>], transfer: &[(S, S)]) -> Vec<S> {
    let n = transfer.len();
    let mut live_in = vec![S::EMPTY; n];
    let mut out = vec![S::EMPTY; n];
    loop {
        let mut changed = false;
        for k in (0..n).rev() {
            out[k] = match &succs[k] {
                None => S::ALL,
                Some(v) => v.iter().fold(S::EMPTY, |a, &s| a.union(live_in[s])),
            };
            let (used, defined) = transfer[k];
            let live = used.union(out[k].minus(defined));
            if live != live_in[k] {
                live_in[k] = live;
                changed = true;
            }
        }
        if !changed {
            return out;
        }
    }
}

/// A block's `(used, defined)` for [`live_out`], composed from its items' effects (`effects`:
/// what an item reads before writing and what it writes; `None`: it may read anything, so it
/// uses and defines everything), so that the fixpoint's rounds cost one step per block.
pub(super) fn block_transfer<S: RegSet>(
    items: &[Item],
    effects: impl Fn(&Item) -> Option<(S, S)>,
) -> (S, S) {
    items
        .iter()
        .rev()
        .fold((S::EMPTY, S::EMPTY), |(used, defined), item| {
            let (r, w) = effects(item).unwrap_or((S::ALL, S::ALL));
            (r.union(used.minus(w)), defined.union(w))
        })
}

/// For each item of a block, the registers some later item (or a block after it: `live_out`)
/// may read before writing them. One backward pass.
pub(super) fn live_after_each<S: RegSet>(
    items: &[Item],
    live_out: S,
    effects: impl Fn(&Item) -> Option<(S, S)>,
) -> Vec<S> {
    let mut after = vec![S::EMPTY; items.len()];
    let mut live = live_out;
    for (p, item) in items.iter().enumerate().rev() {
        after[p] = live;
        let (r, w) = effects(item).unwrap_or((S::ALL, S::ALL));
        live = r.union(live.minus(w));
    }
    after
}
