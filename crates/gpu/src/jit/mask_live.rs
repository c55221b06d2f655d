//! Which scalar registers the rest of a block overwrites before it reads them.
//!
//! A segment's lane ops write lane masks (VCC, a carry pair) that the code after the segment
//! often replaces before anything reads them: `v_add_co_u32` / `v_addc_co_u32` pairs compute
//! every 64-bit address, and each pair's VCC is overwritten by the next pair in a later
//! segment, past a memory access. Such a mask need not be stored at all (nor collected chunk by
//! chunk). Only the block's own instructions are looked at, in program order; whatever the
//! block does not write before it reads, and everything at its end, counts as live, so the
//! registers a wave ends with, waits at a barrier with or hands to the interpreter in a
//! call-out are always exact. A bail-out to the interpreter inside the block runs the same
//! instructions in the same order, so it too writes such a register before reading it.

use super::plan::{Block, Item};
use super::select::{Cond2, Kind, LaneInst};
use crate::exec::operand::Src;
use crate::wave::{EXEC_LO, M0, VCC_LO};

/// A set of the 128 scalar registers, one bit each.
type Regs = u128;

fn reg(r: usize) -> Regs {
    1u128 << (r & 127)
}

fn pair(r: usize) -> Regs {
    reg(r) | reg(r + 1)
}

/// The scalar registers `item` reads and writes (a write is of the whole register, whatever
/// the lanes); reads are taken before writes. `None`: it may read any of them. `s_endpgm`
/// reads nothing unless `exact_end` (see [`live_out`]).
fn effects(item: &Item, exact_end: bool) -> Option<(Regs, Regs)> {
    match item {
        Item::Seg(insts) => {
            // The items after a segment see its instructions in program order, chunk by
            // chunk; a register both read and written in it reads first unless a write
            // precedes every read (the plan keeps uniform reads of a mask the segment writes
            // out of it).
            let (mut r, mut w) = (0, 0);
            for (_, li) in insts {
                let (lr, lw) = lane(li);
                r |= lr & !w;
                w |= lw;
            }
            Some((r, w))
        }
        Item::Callout(_) => None,
        Item::Op(_, Kind::End) if !exact_end => Some((0, 0)),
        Item::Op(_, k) => op(k),
    }
}

/// The scalar registers `item` may write (`None`: any of them, and for a scalar load, whose
/// destination [`op`] leaves out).
pub(super) fn item_sgpr_writes(item: &Item) -> Option<Regs> {
    match item {
        Item::Op(_, Kind::Smem(_)) => None,
        _ => effects(item, true).map(|(_, w)| w),
    }
}

fn lane(li: &LaneInst) -> (Regs, Regs) {
    let mut r = pair(EXEC_LO);
    li.sgpr_values().for_each(|s| r |= reg(s.into()));
    if let Some(m) = li.mask_in {
        r |= pair(m.into());
    }
    let mut w = 0;
    if let Some(m) = li.mask_out {
        w |= pair(m.into());
    }
    if li.writes_exec {
        w |= pair(EXEC_LO);
    }
    (r, w)
}

/// Whether lane op `li` writes EXEC (`v_cmpx`, or a compare into EXEC).
pub(super) fn lane_writes_exec(li: &LaneInst) -> bool {
    lane(li).1 & pair(EXEC_LO) != 0
}

/// Whether wave-wide item `k` may write EXEC (where the JIT cannot say, it may).
pub(super) fn may_write_exec(k: &Kind) -> bool {
    // (`op` leaves a scalar load's destination out.)
    let load_exec = match k {
        Kind::Smem(m) => {
            let first = usize::from(m.dst);
            (first..first + usize::from(m.dwords)).any(|r| r & !1 == EXEC_LO)
        }
        _ => false,
    };
    load_exec || op(k).is_none_or(|(_, w)| w & pair(EXEC_LO) != 0)
}

fn op(k: &Kind) -> Option<(Regs, Regs)> {
    Some(match k {
        Kind::Lane(li) => lane(li),
        Kind::Salu(s) => {
            let (mut r, mut w) = (0, 0);
            s.regs(|x| r |= reg(x.into()), |x| w |= reg(x.into()));
            (r, w)
        }
        // (Its destination is not counted as written: a conservative choice, it rarely ends a
        // mask's life.)
        Kind::Smem(m) => {
            let mut r = pair(m.base.into());
            if let Some(Src::S(x)) = m.soffset {
                r |= reg(x.into());
            }
            (r, 0)
        }
        Kind::Vmem(m) => {
            let mut r = pair(EXEC_LO) | m.saddr.map_or(0, |s| pair(s.into()));
            if let Some(b) = m.buf {
                r |= pair(b.rsrc.into()) | pair(usize::from(b.rsrc) + 2);
                if let Src::S(s) = b.soffset {
                    r |= reg(s.into());
                }
            }
            (r, 0)
        }
        Kind::Ds(_) | Kind::DsAtomic(_) => (pair(EXEC_LO) | reg(M0), 0),
        Kind::VAtomic(m) => (pair(EXEC_LO) | m.saddr.map_or(0, |s| pair(s.into())), 0),
        Kind::Branch(c) => (
            match c {
                Cond2::Always | Cond2::Scc(_) => 0,
                Cond2::VccZ(_) => pair(VCC_LO),
                Cond2::ExecZ(_) => pair(EXEC_LO),
            },
            0,
        ),
        Kind::Waitcnt(_) | Kind::Nop => (0, 0),
        Kind::Wave(_) | Kind::End | Kind::Barrier | Kind::JumpAddr { .. } => return None,
    })
}

/// Per block, the registers live at its end: those a block it may go on to (`succs`; `None`:
/// unknown, or code the interpreter runs) can read before writing them, by a backward
/// fixpoint over the blocks. What waits at a barrier, jumps through a register or calls out
/// reads everything, as in [`dead_after_each`]; so does `s_endpgm` with `exact_end` (check
/// mode, which compares a wave's registers with the interpreter's, and the differential
/// tests). Otherwise nothing reads a wave's scalar registers after its end: the last 64-bit
/// address's carry, a final compare's mask, go unwritten, like a mask that every path
/// overwrites before reading it (a loop's carries, a 64-bit address's VCC before the next
/// block's compare).
pub(super) fn live_out(
    blocks: &[Block],
    succs: &[Option<Vec<usize>>],
    exact_end: bool,
) -> Vec<Regs> {
    let transfer: Vec<(Regs, Regs)> = blocks
        .iter()
        .map(|b| super::liveness::block_transfer(&b.items, |i| effects(i, exact_end)))
        .collect();
    super::liveness::live_out(succs, &transfer)
}

/// For each item of a block, the registers whose value after it is never read: those the
/// items after it write before any read, or that they neither read nor write and are not live
/// after the block (`live_out`). One backward pass (a block of a fully unrolled loop has
/// thousands of items, and a forward scan per segment was quadratic: an eighth of such a
/// kernel's compile).
pub(super) fn dead_after_each(items: &[Item], live_out: Regs, exact_end: bool) -> Vec<Regs> {
    super::liveness::live_after_each(items, live_out, |i| effects(i, exact_end))
        .into_iter()
        .map(|live| !live)
        .collect()
}

/// Whether both registers of lane mask `s` are in `dead`.
pub(super) fn mask_dead(dead: Regs, s: u8) -> bool {
    let p = pair(s.into());
    dead & p == p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jit::plan::Plan;
    use crate::program::Program;

    /// The blocks for these instruction words.
    fn blocks(words: &[u32]) -> Vec<Block> {
        let code: Vec<u8> = words.iter().flat_map(|d| d.to_le_bytes()).collect();
        let prog = Program::new(&code, 0);
        Plan::new(&prog, 0, false, false).blocks
    }

    /// The first block's items for these instruction words.
    fn items(words: &[u32]) -> Vec<Item> {
        blocks(words)[0].items.clone()
    }

    /// What the first block's rest leaves dead after its first item.
    fn dead_after_first(words: &[u32]) -> Regs {
        let b = &blocks(words)[0];
        dead_after_each(&b.items, b.live_out, true)[0]
    }

    /// The definition, item by item: the registers `rest` (the items after one) writes before
    /// any read, or neither reads nor writes when they are not live after the block.
    fn dead_after_scan(rest: &[Item], live_out: Regs) -> Regs {
        let (mut seen, mut dead) = (0, 0);
        for item in rest {
            let Some((r, w)) = effects(item, true) else {
                return dead;
            };
            seen |= r;
            dead |= w & !seen;
            seen |= w;
        }
        dead | !(seen | live_out)
    }

    /// The backward pass gives, after every item of every block, what the scan of the items
    /// after it gives: random lane-mask chains and random instructions of every kind
    /// (call-outs, memory, branches that cut blocks).
    #[test]
    fn one_backward_pass_agrees_with_a_scan_after_each_item() {
        use crate::jit::tests::{random_code, random_inst, random_mask_inst, Rng};
        let mut r = Rng(0x6a09_e667_f3bc_c908);
        let (mut compared, mut dead_masks) = (0, 0);
        for case in 0..400 {
            let gen = if case % 2 == 0 {
                random_mask_inst
            } else {
                random_inst
            };
            let (code, _) = random_code(&mut r, 48, gen);
            let prog = Program::new(&code, 0);
            for b in Plan::new(&prog, 0, false, false).blocks {
                let each = dead_after_each(&b.items, b.live_out, true);
                assert_eq!(each.len(), b.items.len());
                for (p, &d) in each.iter().enumerate() {
                    let want = dead_after_scan(&b.items[p + 1..], b.live_out);
                    assert_eq!(d, want, "case {case}, item {p} of {:?}", b.items);
                    compared += 1;
                    dead_masks += usize::from(mask_dead(d, VCC));
                }
            }
        }
        // Enough items, and VCC both dead and live among them.
        assert!(compared > 4000, "{compared}");
        assert!(dead_masks > 100 && dead_masks < compared, "{dead_masks}");
    }

    const VCC: u8 = VCC_LO as u8;
    // v_add_co_u32_e32 v2, vcc, s10, v0 (writes VCC)
    const ADD_CO: u32 = 0x3204_000a;
    const ENDPGM: u32 = 0xbf81_0000;

    /// VCC written in one segment and again in a later one, with a load between them: dead,
    /// unless the load reads it (as `saddr`) or the block ends first.
    #[test]
    fn a_mask_is_dead_only_when_overwritten_before_any_read() {
        // global_load_dword v4, v[2:3], off
        let off = [0xdc50_8000, 0x047f_0002];
        // global_load_dword v4, v2, vcc (saddr)
        let vcc = [0xdc50_8000, 0x046a_0002];
        let dead_at_first = |words: &[u32]| {
            let it = items(words);
            assert!(matches!(it[0], Item::Seg(_)), "{it:?}");
            mask_dead(dead_after_first(words), VCC)
        };
        assert!(dead_at_first(&[ADD_CO, off[0], off[1], ADD_CO, ENDPGM]));
        assert!(!dead_at_first(&[ADD_CO, vcc[0], vcc[1], ADD_CO, ENDPGM]));
        assert!(!dead_at_first(&[ADD_CO, off[0], off[1], ENDPGM]));
        // s_mov_b64 s[0:1], vcc reads it.
        assert!(!dead_at_first(&[
            ADD_CO,
            off[0],
            off[1],
            0xbe80_016a,
            ADD_CO,
            ENDPGM
        ]));
        // s_mov_b64 vcc, s[0:1] writes it unread.
        assert!(dead_at_first(&[
            ADD_CO,
            off[0],
            off[1],
            0xbeea_0100,
            ENDPGM
        ]));
    }

    /// A carry pair read as a load's `saddr` base is live.
    #[test]
    fn a_mask_read_as_a_base_address_is_live() {
        // v_add_co_u32_e64 v2, s[0:1], s10, v0; global_load_dword v4, v2, s[0:1] (saddr);
        // v_add_co_u32_e64 v2, s[0:1], s10, v0; s_endpgm
        let (add, load) = ([0xd119_0002, 0x0002_000a], [0xdc50_8000, 0x0400_0002]);
        let w = [add[0], add[1], load[0], load[1], add[0], add[1], ENDPGM];
        let it = items(&w);
        assert!(matches!(it[1], Item::Op(_, Kind::Vmem(_))), "{it:?}");
        assert!(!mask_dead(dead_after_first(&w), 0));
        // s_load_dword s4, s[0:1], 0x0: the scalar load's base.
        let w = [add[0], add[1], 0xc002_0100, 0, add[0], add[1], ENDPGM];
        let it = items(&w);
        assert!(matches!(it[1], Item::Op(_, Kind::Smem(_))), "{it:?}");
        assert!(!mask_dead(dead_after_first(&w), 0));
        // Without the load, the second add overwrites the pair unread.
        let w = [add[0], add[1], 0xbf80_0000, add[0], add[1], ENDPGM];
        assert!(mask_dead(dead_after_first(&w), 0), "{:?}", items(&w));
    }

    // s_cbranch_scc0 over the next instruction; s_nop 0; s_mov_b64 s[0:1], vcc (reads VCC).
    const CBRANCH_SCC0_SKIP1: u32 = 0xbf84_0001;
    const NOP: u32 = 0xbf80_0000;
    const READ_VCC: u32 = 0xbe80_016a;

    /// A mask the block leaves is dead when every block it may go on to writes it before
    /// reading it, and live when one of them reads it first.
    #[test]
    fn liveness_follows_the_blocks_a_block_goes_on_to() {
        // Block 0: VCC = carry; branch (SCC) to block 2 or fall into block 1 (s_nop, then
        // block 2). Block 2 writes VCC again, then ends.
        let both_write = [ADD_CO, CBRANCH_SCC0_SKIP1, NOP, ADD_CO, ENDPGM];
        let b = blocks(&both_write);
        assert_eq!(b.len(), 3, "{b:?}");
        assert!(mask_dead(dead_after_first(&both_write), VCC), "{b:?}");
        // Block 2 reads VCC first: live on the taken path and through block 1.
        let reads = [ADD_CO, CBRANCH_SCC0_SKIP1, NOP, READ_VCC, ADD_CO, ENDPGM];
        assert!(!mask_dead(dead_after_first(&reads), VCC));
        // Only the fall-through path reads it (block 1 reads VCC, block 2 writes it).
        let one_path = [ADD_CO, CBRANCH_SCC0_SKIP1, READ_VCC, ADD_CO, ENDPGM];
        assert!(!mask_dead(dead_after_first(&one_path), VCC));
        // The end of the wave reads everything: its registers stay exact.
        let ends = [ADD_CO, CBRANCH_SCC0_SKIP1, NOP, ENDPGM];
        assert!(!mask_dead(dead_after_first(&ends), VCC));
    }

    /// A loop's carry: written in the body, overwritten at the head before any read (dead), or
    /// read by the head's first instruction (live around the back edge).
    #[test]
    fn liveness_goes_around_loops() {
        // Block 0: s_nop. Block 1 (head): VCC = carry, s_cbranch_scc0 back to block 1 (-3
        // dwords: to the add), then s_endpgm.
        let loop_overwrites = [NOP, ADD_CO, 0xbf84_fffe, ENDPGM];
        let b = blocks(&loop_overwrites);
        assert_eq!(b.len(), 3, "{b:?}");
        let head = &b[1];
        assert!(!mask_dead(
            dead_after_each(&head.items, head.live_out, true)[0],
            VCC
        ));
        // The carry's only readers are the next iteration's add (which writes it first) and
        // s_endpgm (which reads all): live, because the loop may end.
        assert_ne!(head.live_out & pair(VCC.into()), 0);
        // A loop whose exit writes VCC before s_endpgm: dead on both paths.
        let exit_writes = [NOP, ADD_CO, 0xbf84_fffe, ADD_CO, ENDPGM];
        let b = blocks(&exit_writes);
        let head = &b[1];
        assert!(
            mask_dead(dead_after_each(&head.items, head.live_out, true)[0], VCC),
            "{b:?}"
        );
        // The head reads VCC first (s_mov_b64 s[0:1], vcc; then the add): live.
        let head_reads = [NOP, READ_VCC, ADD_CO, 0xbf84_fffd, ADD_CO, ENDPGM];
        let b = blocks(&head_reads);
        let body = b
            .iter()
            .find(|b| b.items.iter().any(|i| matches!(i, Item::Seg(_))))
            .unwrap();
        let k = body
            .items
            .iter()
            .position(|i| matches!(i, Item::Seg(_)))
            .unwrap();
        assert!(
            !mask_dead(dead_after_each(&body.items, body.live_out, true)[k], VCC),
            "{b:?}"
        );
    }
}
