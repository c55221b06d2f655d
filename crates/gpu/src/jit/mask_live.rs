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

use super::plan::Item;
use super::select::{Cond2, Kind, LaneInst};
use crate::exec::operand::Src;
use crate::wave::{EXEC_LO, M0, VCC_LO};

/// A set of the 128 scalar registers, one bit each.
type Regs = u128;

/// All of them: what an instruction reads when the JIT cannot say.
const ALL: Regs = !0;

fn reg(r: usize) -> Regs {
    1u128 << (r & 127)
}

fn pair(r: usize) -> Regs {
    reg(r) | reg(r + 1)
}

/// The scalar registers `item` reads and writes (a write is of the whole register, whatever
/// the lanes); reads are taken before writes. `None`: it may read any of them.
fn effects(item: &Item) -> Option<(Regs, Regs)> {
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
        Item::Op(_, k) => op(k),
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
        Kind::Ds(_) => (pair(EXEC_LO) | reg(M0), 0),
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

/// The registers that `rest` (the items of a block after a segment) writes before any read:
/// a value left in them by the segment is never read.
pub(super) fn dead_after(rest: &[Item]) -> Regs {
    let (mut seen, mut dead) = (0, 0);
    for item in rest {
        let Some((r, w)) = effects(item) else {
            return dead;
        };
        seen |= r;
        dead |= w & !seen;
        seen |= w;
        if seen == ALL {
            break;
        }
    }
    dead
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
    use crate::jit::vx::Isa;
    use crate::program::Program;

    /// The first block's items for these instruction words.
    fn items(words: &[u32]) -> Vec<Item> {
        let code: Vec<u8> = words.iter().flat_map(|d| d.to_le_bytes()).collect();
        let prog = Program::new(&code, 0);
        Plan::new(&prog, 0, false, false, Isa::Avx512).blocks[0]
            .items
            .clone()
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
            mask_dead(dead_after(&it[1..]), VCC)
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
        let it = items(&[add[0], add[1], load[0], load[1], add[0], add[1], ENDPGM]);
        assert!(matches!(it[1], Item::Op(_, Kind::Vmem(_))), "{it:?}");
        assert!(!mask_dead(dead_after(&it[1..]), 0));
        // s_load_dword s4, s[0:1], 0x0: the scalar load's base.
        let it = items(&[add[0], add[1], 0xc002_0100, 0, add[0], add[1], ENDPGM]);
        assert!(matches!(it[1], Item::Op(_, Kind::Smem(_))), "{it:?}");
        assert!(!mask_dead(dead_after(&it[1..]), 0));
        // Without the load, the second add overwrites the pair unread.
        let it = items(&[add[0], add[1], 0xbf80_0000, add[0], add[1], ENDPGM]);
        assert!(mask_dead(dead_after(&it[1..]), 0), "{it:?}");
    }
}
