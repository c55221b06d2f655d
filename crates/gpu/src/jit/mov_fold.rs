//! Moves folded into the instruction that overwrites their destination. LLVM materializes a
//! 64-bit address's high half as `v_mov_b32 v3, s11` followed by
//! `v_addc_co_u32 v3, vcc, v3, v1, vcc`: the move's value lives for one instruction, which
//! overwrites it. Reading `s11` there instead leaves the same registers after the pair (the
//! move's lanes are exactly the ones the second instruction writes: EXEC does not change in
//! between) and saves the copy in every chunk. Likewise `v_mov_b32 v1, 0` before the 64-bit
//! shift that widens `v[0:1]` into an address and overwrites `v1`.

use super::select::{LaneInst, LaneOp, Opd};
use crate::exec::int32::Int32;
use crate::valu::CmpTy;
use crate::wave::EXEC_LO;

/// `insts` with each move folded into the instruction that overwrites its destination, where
/// that is safe (`None`: nothing folds). Folded moves are left out; their instruction
/// indices are gone from the result, the rest keep theirs.
pub(super) fn fold_moves(insts: &[(u32, LaneInst)]) -> Option<Vec<(u32, LaneInst)>> {
    // (Most segments have no move: no copy of them.)
    if insts.len() < 2 || !insts.iter().any(|(_, li)| plain_move(li).is_some()) {
        return None;
    }
    let mut out: Vec<(u32, LaneInst)> = insts.to_vec();
    let mut dropped = vec![false; out.len()];
    let mut any = false;
    for k in 0..out.len() {
        let Some((dst, src)) = plain_move(&out[k].1) else {
            continue;
        };
        let Some(j) = (k + 1..out.len()).find(|&j| reads(&out[j].1, dst) || writes(&out[j].1, dst))
        else {
            continue;
        };
        let between = &out[k + 1..j];
        let consumer = &out[j].1;
        let unchanged = between
            .iter()
            .all(|(_, li)| !li.writes_exec && !clobbers(li, src));
        let narrow = takes_any_operand(consumer)
            && consumer.dst == Some(dst)
            && !consumer.dst_wide
            && reads(consumer, dst)
            && !reads_wide(consumer, dst);
        // `v_mov_b32 v1, 0` then `v_lshlrev_b64 v[0:1], n, v[0:1]`: a 32-bit index widened
        // to an address. The shift knows a zero high half (`Emitter::known_zero`).
        let zero_high = src == Opd::K(0)
            && matches!(consumer.op, LaneOp::Shift64(_))
            && writes(consumer, dst)
            && consumer.src[1][1] == Opd::V(dst)
            && consumer.src[1][0] != Opd::V(dst)
            && consumer.src[0][0] != Opd::V(dst);
        if !unchanged || !(narrow || zero_high) {
            continue;
        }
        let c = &mut out[j].1;
        if zero_high {
            c.src[1][1] = src;
        }
        for i in 0..c.n {
            if c.src[i][0] == Opd::V(dst) {
                c.src[i][0] = src;
            }
        }
        dropped[k] = true;
        any = true;
    }
    any.then(|| {
        out.into_iter()
            .zip(dropped)
            .filter(|(_, d)| !d)
            .map(|(x, _)| x)
            .collect()
    })
}

/// `v_mov_b32 dst, src` without modifiers: (dst, src).
fn plain_move(li: &LaneInst) -> Option<(u8, Opd)> {
    let plain = li.op == LaneOp::Int(Int32::Mov)
        && li.n == 1
        && !li.wide[0]
        && !li.dst_wide
        && li.abs == 0
        && li.neg == 0
        && li.sdwa.is_none()
        && !li.writes_exec;
    let dst = li.dst.filter(|_| plain)?;
    (li.src[0][0] != Opd::V(dst)).then_some((dst, li.src[0][0]))
}

/// Ops whose lowerings take any operand kind (a VGPR, an SGPR, a constant) in every 32-bit
/// source.
fn takes_any_operand(li: &LaneInst) -> bool {
    li.sdwa.is_none()
        && match li.op {
            LaneOp::Int(_) | LaneOp::F32(_) => true,
            LaneOp::Cmp(t, _) => matches!(t, CmpTy::I32 | CmpTy::U32 | CmpTy::F32),
            _ => false,
        }
}

/// Whether `li` reads VGPR `r` (in any source, 32-bit or a pair's half).
fn reads(li: &LaneInst, r: u8) -> bool {
    (0..li.n).any(|i| {
        let k = if li.wide[i] { 2 } else { 1 };
        li.src[i][..k].contains(&Opd::V(r))
    })
}

/// Whether `li` reads VGPR `r` as a half of a 64-bit source.
fn reads_wide(li: &LaneInst, r: u8) -> bool {
    (0..li.n).any(|i| li.wide[i] && li.src[i].contains(&Opd::V(r)))
}

/// Whether `li` writes VGPR `r`.
fn writes(li: &LaneInst, r: u8) -> bool {
    li.vgpr_writes().any(|w| w == r)
}

/// Whether `li` changes the value of operand `o` (a VGPR it writes, an SGPR of the lane mask
/// it writes, EXEC for `v_cmpx`).
fn clobbers(li: &LaneInst, o: Opd) -> bool {
    match o {
        Opd::V(r) => writes(li, r),
        Opd::S(s) => {
            li.mask_out
                .is_some_and(|m| s == m || s == m.wrapping_add(1))
                || (li.writes_exec && (s == EXEC_LO as u8 || s == EXEC_LO as u8 + 1))
        }
        Opd::K(_) => false,
    }
}
