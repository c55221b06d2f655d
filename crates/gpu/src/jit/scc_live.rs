//! Where SCC is dead: a scalar op whose SCC the code after it replaces before any read
//! need not compute it.
//!
//! Divergent control flow is a run of 64-bit EXEC ops (`s_and_saveexec_b64`, `s_or_b64
//! exec`, `s_andn2_b64`: a loop with a data-dependent exit has a dozen per iteration), each
//! of which sets SCC; branches test EXEC or VCC, and the next scalar op sets SCC again. A
//! `test`, a `setcc` and a store of the byte per op were a third of such an op's code.
//!
//! The same rules as for the other scalar registers (`mask_live.rs`), by a backward fixpoint
//! over the plan's blocks: whatever may read every register (a call-out, a wave op, a
//! barrier, a jump through a register, and `s_endpgm` where the wave's registers must be
//! exact at its end) reads SCC; memory accesses neither read nor write it (a fault ends the
//! wave, and a bail-out to the interpreter runs the same instructions, so it too writes SCC
//! before reading it). Check mode, which compares SCC after every instruction, leaves
//! nothing out.

use super::plan::{Block, Item};
use super::salu::Salu;
use super::select::{Cond2, Kind};

/// SCC as the one register of the shared fixpoint's sets ([`super::liveness`]).
const SCC: u128 = 1;

/// Whether `item` reads SCC (before writing it) and whether it writes it, as sets of
/// [`SCC`]. `None`: it may read it.
fn effects(item: &Item, exact_end: bool) -> Option<(u128, u128)> {
    let (r, w) = match item {
        // (No lane op reads or writes SCC.)
        Item::Seg(_) => (false, false),
        Item::Callout(_) => return None,
        Item::Op(_, k) => match k {
            Kind::Salu(s) => s.op.scc(),
            Kind::Branch(Cond2::Scc(_)) => (true, false),
            Kind::Lane(_)
            | Kind::Smem(_)
            | Kind::Vmem(_)
            | Kind::Ds(_)
            | Kind::DsAtomic(_)
            | Kind::VAtomic(_)
            | Kind::Branch(_)
            | Kind::Waitcnt(_)
            | Kind::Nop => (false, false),
            Kind::End if !exact_end => (false, false),
            Kind::End | Kind::Wave(_) | Kind::Barrier | Kind::JumpAddr { .. } => return None,
        },
    };
    Some((SCC * u128::from(r), SCC * u128::from(w)))
}

/// Per block, whether a block it may go on to (`succs`; `None`: unknown) may read SCC before
/// writing it.
pub(super) fn live_out(
    blocks: &[Block],
    succs: &[Option<Vec<usize>>],
    exact_end: bool,
) -> Vec<bool> {
    let transfer: Vec<(u128, u128)> = blocks
        .iter()
        .map(|b| super::liveness::block_transfer(&b.items, |i| effects(i, exact_end)))
        .collect();
    super::liveness::live_out(succs, &transfer)
        .into_iter()
        .map(|l| l & SCC != 0)
        .collect()
}

/// For each item of a block, whether the SCC it leaves is never read (`live_out`: SCC may be
/// read after the block).
pub(super) fn dead_after_each(items: &[Item], live_out: bool, exact_end: bool) -> Vec<bool> {
    let live = SCC * u128::from(live_out);
    super::liveness::live_after_each(items, live, |i| effects(i, exact_end))
        .into_iter()
        .map(|l| l & SCC == 0)
        .collect()
}

impl Salu {
    /// Whether the op reads SCC and whether it writes it (as `exec::salu` does).
    pub(super) fn scc(self) -> (bool, bool) {
        use Salu::*;
        match self {
            Cselect32 | Cselect64 => (true, false),
            AddcU32 | SubbU32 => (true, true),
            Bin32(_)
            | Bin64(_)
            | Shift64(_)
            | Not32
            | Not64
            | AddU32
            | SubU32
            | AddI32
            | SubI32
            | SaveExec(_)
            | Cmp32(_)
            | Cmp64(_)
            | MinMax(_)
            | Bcnt32 { .. }
            | Bcnt64 { .. }
            | Bitcmp32 { .. }
            | BfeU32
            | BfeI32 => (false, true),
            Mov32
            | Mov64
            | MulI32
            | Brev32
            | MulHiU32
            | MulHiI32
            | Sext32 { .. }
            | FirstBit32 { .. } => (false, false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jit::plan::Plan;
    use crate::program::Program;

    /// The plan of these instruction words (outside check mode; `exact_end` as given).
    fn plan(words: &[u32], exact_end: bool) -> (Plan, Vec<bool>) {
        let code: Vec<u8> = words.iter().flat_map(|d| d.to_le_bytes()).collect();
        let prog = Program::new(&code, 0);
        let p = Plan::new(&prog, 0, false, false);
        let live = live_out(&p.blocks, &p.succs, exact_end);
        (p, live)
    }

    const S_AND_B64_S0_S2_S4: u32 = 0x8680_0402; // s_and_b64 s[0:1], s[2:3], s[4:5]
    const S_OR_B64_S6_S0_S2: u32 = 0x8786_0200; // s_or_b64 s[6:7], s[0:1], s[2:3]
    const S_MOV_B32_S8_S0: u32 = 0xbe88_0000; // s_mov_b32 s8, s0
    const S_CSELECT_B32_S9_S0_S1: u32 = 0x8509_0100; // s_cselect_b32 s9, s0, s1
    const S_ENDPGM: u32 = 0xbf81_0000;

    /// A scalar op's SCC is dead where a later op of the block writes it first, live where
    /// a `s_cselect` reads it, and at the end of the wave only when its registers must be
    /// exact there.
    #[test]
    fn scc_dead_until_the_next_write() {
        // and (SCC) ; or (SCC) ; mov ; end
        let words = [
            S_AND_B64_S0_S2_S4,
            S_OR_B64_S6_S0_S2,
            S_MOV_B32_S8_S0,
            S_ENDPGM,
        ];
        let (p, live) = plan(&words, false);
        assert_eq!(p.blocks.len(), 1);
        let b = &p.blocks[0];
        assert!(!live[0]);
        assert_eq!(dead_after_each(&b.items, live[0], false), [true; 4]);
        // Exact at the end: the `or`'s SCC is read by s_endpgm (after which nothing is).
        let (p, live) = plan(&words, true);
        let d = dead_after_each(&p.blocks[0].items, live[0], true);
        assert_eq!(d, [true, false, false, true]);

        // and ; cselect (reads SCC) ; or ; end
        let words = [
            S_AND_B64_S0_S2_S4,
            S_CSELECT_B32_S9_S0_S1,
            S_OR_B64_S6_S0_S2,
            S_ENDPGM,
        ];
        let (p, live) = plan(&words, false);
        let d = dead_after_each(&p.blocks[0].items, live[0], false);
        assert_eq!(d, [false, true, true, true]);
    }
}
