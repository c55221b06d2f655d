//! Addresses computed only in the lanes their access checks.
//!
//! A streaming kernel spends much of each wave on 64-bit address arithmetic: `x + 4 * i` is a
//! `v_lshlrev_b64` and a `v_add_co_u32`/`v_addc_co_u32` pair per array, about ten host
//! instructions per chunk of lanes on AVX2. When the access after the segment is proven
//! lane-linear (`lane_linear.rs`), its fast path reads the address of lanes 0 and 63 alone
//! (`mem_inline.rs`); where nothing else reads the address either (the block replaces it, or
//! the wave ends, before anything does), the other lanes' values are never looked at.
//!
//! So a full wave's segment leaves those instructions out of its middle chunks: it runs them
//! in the first and last chunk only, which hold lanes 0 and 63. The access's fast path is
//! unchanged. Every other path of the access (a wave of rows, lanes found not consecutive, a
//! miss of the site's range, the stub, a fault) first completes the middle chunks: the
//! deferred instructions again, as a segment of their own, over those chunks
//! ([`super::emit::Emitter::complete_deferred`]). Memory then holds what the whole segment
//! would have written, and the access goes on as before.
//!
//! That is exact only when the deferred instructions can run later and alone, with the same
//! results. [`deferrable`] picks them by these rules, to a fixpoint:
//! - integer lane ops only (no float state, no lane-crossing, no EXEC write);
//! - the VGPRs they write: no other instruction of the segment reads or writes them; past the
//!   access nothing reads them before the block replaces them (or the wave ends), unless the
//!   access itself replaces them (a load's destination); a store's data is not one of them;
//! - the VGPRs they read: no other instruction of the segment writes them, or only before
//!   them and the segment stores them (memory holds the value they read when the completion
//!   runs);
//! - a lane mask they write (a carry): no other instruction of the segment touches it, and
//!   nothing reads it after the segment; SGPRs they read: no other instruction writes them.
//!
//! The completion runs where EXEC is still full (the segment took its full-wave path, and
//! nothing between it and the access changes EXEC); a partial wave ran every chunk.

use super::emit::{Emitter, R};
use super::select::{LaneInst, LaneOp, VmemInst};
use super::vgpr_dead::{lane, Vgprs};
use crate::wave::EXEC_LO;

/// A global access right after a segment whose address the segment may leave out of its
/// middle chunks.
#[derive(Clone, Copy, Debug)]
pub(super) struct NextAccess {
    /// The access's instruction index.
    pub at: u32,
    pub m: VmemInst,
    /// The VGPRs nothing reads after the access before the block replaces them (or the wave
    /// ends): `vgpr_dead::Dead::after_access`.
    pub dead: Vgprs,
}

/// Deferred instructions of a segment, for the access after it to complete.
#[derive(Clone, Debug)]
pub(super) struct Deferred {
    /// The access's instruction index.
    pub at: u32,
    /// The instructions left out of the middle chunks, in order.
    pub insts: Vec<(u32, LaneInst)>,
    /// SGPR lane masks dead after the segment (`mask_live.rs`).
    pub dead_masks: u128,
}

impl Emitter<'_> {
    /// The middle chunks of a full wave's segment that deferred `d` (see the module
    /// documentation): its deferred instructions as a segment of their own, over those
    /// chunks, storing every VGPR they write.
    pub(super) fn complete_deferred(&mut self, d: Deferred) -> R<()> {
        self.middle_only = true;
        let r = self.segment(&d.insts, d.dead_masks, Vgprs::default(), true);
        self.middle_only = false;
        r
    }
}

/// Integer lane ops that read only their own lane and write no EXEC.
fn eligible(li: &LaneInst) -> bool {
    let op = matches!(
        li.op,
        LaneOp::Int(_)
            | LaneOp::MulHiI32
            | LaneOp::Shift64(_)
            | LaneOp::Mad64 { .. }
            | LaneOp::Int16(_)
            | LaneOp::Bits(_)
    );
    op && li.sdwa.is_none() && !li.writes_exec
}

/// Whether SGPR pairs (or an SGPR and a pair) at `a` and `b` overlap.
fn overlap(a: u8, b: u8) -> bool {
    a.abs_diff(b) < 2
}

/// Per instruction of segment `insts`, right before access `next`: whether the segment's
/// full-wave path may leave it out of its middle chunks (see the module documentation).
/// `dead_masks`: the SGPR lane masks dead after the segment; `seg_dead`: the VGPRs the segment
/// does not store (`vgpr_dead::Dead::after`). `None` where no write of the access's address
/// would be left out.
pub(super) fn deferrable(
    insts: &[(u32, LaneInst)],
    next: &NextAccess,
    dead_masks: u128,
    seg_dead: Vgprs,
) -> Option<Vec<bool>> {
    let m = &next.m;
    // (The shape whose fast path reads lanes 0 and 63 of a pair: one dword per lane.)
    if !super::lane_linear::covered(m) {
        return None;
    }
    let mut unread_after = next.dead;
    let mut store_data = Vgprs::default();
    match m.load {
        true => unread_after.add(m.data),
        false => store_data.add(m.data),
    }
    let mut d: Vec<bool> = insts.iter().map(|(_, li)| eligible(li)).collect();
    loop {
        // What the other instructions read and write (SGPRs: single registers read as
        // values, pairs read as masks, pairs written).
        let (mut reads, mut writes) = (Vgprs::default(), Vgprs::default());
        let (mut values, mut masks_in, mut masks_out) = (Vec::new(), Vec::new(), Vec::new());
        let mut last_write = [None; 256];
        for (j, ((_, li), _)) in insts.iter().zip(&d).enumerate().filter(|(_, (_, &x))| !x) {
            let (r, w) = lane(li);
            reads = reads.or(r);
            writes = writes.or(w);
            li.vgpr_writes()
                .for_each(|v| last_write[usize::from(v)] = Some(j));
            values.extend(li.sgpr_values());
            masks_in.extend(li.mask_in);
            masks_out.extend(li.mask_out);
        }
        let written = |s: u8| masks_out.iter().any(|&t: &u8| s.wrapping_sub(t) < 2);
        let touched = |s: u8| {
            written(s)
                || written(s + 1)
                || values.iter().any(|&v: &u8| v.wrapping_sub(s) < 2)
                || masks_in.iter().any(|&t: &u8| overlap(t, s))
        };
        let mut changed = false;
        for k in 0..insts.len() {
            if !d[k] {
                continue;
            }
            let li = &insts[k].1;
            let (r, w) = lane(li);
            // A source another instruction writes: only before this one, and stored.
            let settled = (0..=255u8)
                .filter(|&v| r.has(v))
                .all(|v| last_write[usize::from(v)].is_none_or(|j| j < k && !seg_dead.has(v)));
            let mut ok = w.and(reads).is_empty()
                && w.and(writes).is_empty()
                && w.minus(unread_after).is_empty()
                && w.and(store_data).is_empty()
                && settled;
            if let Some(s) = li.mask_out {
                ok &= !overlap(s, EXEC_LO as u8)
                    && super::mask_live::mask_dead(dead_masks, s)
                    && !touched(s);
            }
            ok &= !li.sgpr_values().any(written);
            ok &= !li.mask_in.is_some_and(|s| written(s) || written(s + 1));
            if !ok {
                d[k] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let addr = |r: u8| r == m.vaddr || r == m.vaddr.wrapping_add(1);
    let found = insts
        .iter()
        .zip(&d)
        .any(|((_, li), &x)| x && li.vgpr_writes().any(addr));
    found.then_some(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jit::plan::{Item, Plan};
    use crate::jit::select::Kind;
    use crate::jit::tests::isas;
    use crate::jit::tests_linear::{program, FIRST_LOAD};

    /// Saxpy as clang-15 compiles it for gfx900 (`z[i] = a * x[i] + y[i]`) from its index.
    fn saxpy() -> Vec<(&'static str, &'static [u32])> {
        let mut lines = FIRST_LOAD.to_vec();
        lines.extend_from_slice(&[
            ("v_mov_b32_e32 v3, s3", &[0x7e06_0203][..]),
            ("v_add_co_u32_e32 v2, vcc, s2, v0", &[0x3204_0002]),
            ("v_addc_co_u32_e32 v3, vcc, v3, v1, vcc", &[0x3806_0303]),
            (
                "global_load_dword v2, v[2:3], off",
                &[0xdc50_8000, 0x027f_0002],
            ),
            ("v_mov_b32_e32 v3, s9", &[0x7e06_0209]),
            ("v_add_co_u32_e32 v0, vcc, s8, v0", &[0x3200_0008]),
            ("v_addc_co_u32_e32 v1, vcc, v3, v1, vcc", &[0x3802_0303]),
            ("s_waitcnt vmcnt(1)", &[0xbf8c_0f71]),
            ("v_mul_f32_e32 v4, s0, v4", &[0x0a08_0800]),
            ("s_waitcnt vmcnt(0)", &[0xbf8c_0f70]),
            ("v_add_f32_e32 v2, v4, v2", &[0x0204_0504]),
            (
                "global_store_dword v[0:1], v2, off",
                &[0xdc70_8000, 0x007f_0200],
            ),
            ("s_endpgm", &[0xbf81_0000]),
        ]);
        lines
    }

    /// For each segment of `lines`' first block that a global access follows: the text of
    /// the instructions [`deferrable`] leaves out (with `dead_end`: as compiled outside
    /// tests, nothing read after the wave's end).
    fn deferred(lines: &[(&str, &[u32])], dead_end: bool) -> Vec<Vec<String>> {
        let prog = program(lines);
        let mut all = Vec::new();
        for isa in isas() {
            crate::jit::plan::FINAL_MASKS_DEAD.with(|c| c.set(dead_end));
            let plan = Plan::new(&prog, 0, false, false);
            crate::jit::plan::FINAL_MASKS_DEAD.with(|c| c.set(false));
            let b = &plan.blocks[0];
            let dead = super::super::vgpr_dead::analyse(&b.items, b.vlive_out);
            let masks =
                super::super::mask_live::dead_after_each(&b.items, b.live_out, plan.exact_end);
            let mut got = Vec::new();
            for (p, item) in b.items.iter().enumerate() {
                let (Item::Seg(insts), Some(Item::Op(at, Kind::Vmem(m)))) =
                    (item, b.items.get(p + 1))
                else {
                    continue;
                };
                let after = dead.after_access.iter().find(|(j, _)| j == at);
                let next = NextAccess {
                    at: *at,
                    m: *m,
                    dead: after.expect("the access's dead VGPRs").1,
                };
                let after_seg = dead.after.iter().find(|(j, _)| *j == insts[0].0);
                let seg_dead = after_seg.expect("the segment's dead VGPRs").1;
                let d = deferrable(insts, &next, masks[p], seg_dead).unwrap_or_default();
                got.push(
                    insts
                        .iter()
                        .zip(d)
                        .filter(|(_, x)| *x)
                        .map(|((i, _), _)| prog.text(*i).to_string())
                        .collect(),
                );
            }
            if !all.is_empty() {
                assert_eq!(got, all, "{isa:?}: the same on both ISAs");
            }
            all = got;
        }
        all
    }

    #[test]
    fn saxpy_defers_each_address_only_its_access_reads() {
        if isas().is_empty() {
            return;
        }
        let saxpy = saxpy();
        let pair =
            |k: usize| -> Vec<String> { saxpy[k..k + 3].iter().map(|l| l.0.to_string()).collect() };
        // The first address: v[0:1] is read again by the next ones, so its shift stays.
        // The last, the store's: read by nothing after the wave's end outside tests, by the
        // final comparison in them.
        assert_eq!(deferred(&saxpy, true), [pair(2), pair(6), pair(10)]);
        assert_eq!(deferred(&saxpy, false), [pair(2), pair(6), Vec::new()]);
    }

    #[test]
    fn addresses_read_or_fed_by_other_instructions_are_not_deferred() {
        if isas().is_empty() {
            return;
        }
        let first = &FIRST_LOAD[..5];
        let load = FIRST_LOAD[5];
        // The address and the carry replaced after the load (read by nothing after it).
        let replaced = [
            ("v_mov_b32_e32 v3, s3", &[0x7e06_0203][..]),
            ("v_mov_b32_e32 v2, 7", &[0x7e04_0287]),
            ("s_mov_b64 vcc, 0", &[0xbeea_0180]),
            ("s_endpgm", &[0xbf81_0000]),
        ];
        // The address read by another instruction of the segment.
        let read = [("v_add_u32_e32 v5, v2, v0", &[0x680a_0102][..])];
        // The carry read by a select.
        let carry = [(
            "v_cndmask_b32_e64 v6, 0, 1, vcc",
            &[0xd100_0006, 0x01a9_0280][..],
        )];
        // The index the address adds overwritten after it.
        let source = [("v_mov_b32_e32 v0, 7", &[0x7e00_0287][..])];
        for (what, extra) in [("none", &[][..]), ("read", &read), ("carry", &carry)]
            .into_iter()
            .chain([("source", &source[..])])
        {
            let mut lines = first.to_vec();
            lines.extend_from_slice(extra);
            lines.push(load);
            lines.extend_from_slice(&replaced);
            let want = match what {
                "none" => vec![FIRST_LOAD[2..5].iter().map(|l| l.0.to_string()).collect()],
                _ => vec![Vec::new()],
            };
            assert_eq!(deferred(&lines, false), want, "{what}");
        }
        // A store's data computed in the segment is read in every lane.
        let end: (&str, &[u32]) = ("s_endpgm", &[0xbf81_0000]);
        let lines = [
            ("v_mov_b32_e32 v3, s11", &[0x7e06_020b][..]),
            ("v_add_co_u32_e32 v2, vcc, s10, v0", &[0x3204_000a]),
            ("v_addc_co_u32_e32 v3, vcc, v3, v1, vcc", &[0x3806_0303]),
            (
                "global_store_dword v[2:3], v3, off",
                &[0xdc70_8000, 0x007f_0302],
            ),
            end,
        ];
        assert_eq!(deferred(&lines, true), [Vec::<String>::new()]);
    }
}
