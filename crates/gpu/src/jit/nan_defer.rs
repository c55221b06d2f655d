//! f32 arithmetic without a NaN test per instruction: NaN tests where values leave a run of
//! adds, subtractions, multiplies and fmas, and a second run of the chunk when one finds a
//! NaN.
//!
//! x86 and GFX9 differ only in which NaN an add, subtraction, multiply or fma returns (x86: a
//! NaN operand quieted, which one by its own order, or for an invalid operation such as
//! inf - inf the negative default NaN; GFX9: the first NaN operand quieted, a NaN subtrahend
//! negated, or the positive default NaN, `valu::fast32`); both return a NaN in exactly the
//! same lanes, and a NaN entering such an op comes out of it a NaN. So in a chunk these ops
//! run bare
//! (`lane_float.rs`), and their results are tested for NaN (in active lanes) only where they
//! leave the run: when another kind of instruction reads them (float compares and conversions
//! to integers excepted: their results do not depend on which NaN they read; moves, selects and
//! min/max pass the test on to their result), when one is written to memory, and, for
//! those still in registers, at the chunk's end before its stores. A NaN there sends the chunk
//! to run again from its start with the per-instruction NaN fix-ups, out of line. (A NaN the
//! data held is found the same way: that costs time, never exactness.)
//!
//! Running a chunk again must read what it read the first time. Its results wait in their
//! homes until the chunk's end, but a VGPR without a home and a lane mask are written to
//! memory where the instruction writes them, so a segment qualifies only if it never reads
//! such a register before it writes it, and does not write EXEC. Lane masks collected in GPRs
//! across chunks (`segment.rs`) are saved at each chunk's start and restored for the second
//! run.

use super::emit::{Emitter, R};
use super::select::{LaneInst, LaneOp, Opd};
use super::vx::{kr, yr, Isa, Vs, V};
use crate::exec::int32::Int32;
use crate::valu::FOp;
use iced_x86::code_asm::*;

/// `vcmpps` predicate: unordered (either operand NaN).
const UNORD: u32 = 3;
const J_ACCS: i32 = std::mem::offset_of!(super::JitCtx, nan_accs) as i32;

/// Whether instruction `li` runs without its NaN test in a deferring chunk.
pub(super) fn deferred(li: &LaneInst) -> bool {
    matches!(
        li.op,
        LaneOp::F32(FOp::Add | FOp::Sub | FOp::SubRev | FOp::Mul | FOp::Fma)
            // (gfx90a's packed add, multiply and fma: two such ops, `lane_pk_f32`.)
            | LaneOp::PkF32 { .. }
    )
}

/// Whether `li`'s results are the same whichever NaN its sources hold (float compares, and
/// conversions from f32 to integers, which make every NaN 0): a deferred result it reads
/// needs no test.
pub(super) fn nan_blind(li: &LaneInst) -> bool {
    use crate::valu::CvtOp::*;
    match li.op {
        LaneOp::Cmp(t, _) => t.is_float(),
        LaneOp::Cvt(op) => matches!(op, I32F32 | U32F32 | RpiI32F32 | FlrI32F32),
        _ => false,
    }
}

/// Whether `li`'s result is one of its sources per lane, or not a NaN unless a source is one
/// (a move, a select, f32 min/max: of quiet NaNs, which every deferred result is, min/max
/// return the other operand or the second NaN): a deferred NaN it reads is tested where its
/// result leaves instead.
pub(super) fn nan_transparent(li: &LaneInst) -> bool {
    // (A select with sign modifiers changes a NaN's sign: not its source.)
    let plain_select = li.abs == 0 && li.neg == 0;
    match li.op {
        LaneOp::Int(Int32::Cndmask) => plain_select,
        LaneOp::Int(Int32::Mov) | LaneOp::F32(FOp::Min | FOp::Max) => true,
        _ => false,
    }
}

/// The VGPRs `li` reads.
pub(super) fn vgpr_reads(li: &LaneInst) -> impl Iterator<Item = u8> + '_ {
    (0..li.n).flat_map(move |i| {
        let k = if li.wide[i] { 2 } else { 1 };
        li.src[i][..k].iter().filter_map(|o| match o {
            Opd::V(r) => Some(*r),
            _ => None,
        })
    })
}

/// For a segment worth deferring (two or more NaN tests fewer per chunk at best) whose masks
/// allow a second run (see the module documentation): the VGPRs that must have homes for it
/// to defer ([`anti_dependent`]). `None`: it does not defer.
pub(super) fn needs_homes(insts: &[(u32, LaneInst)]) -> Option<Vec<u8>> {
    let worth = insts.iter().filter(|(_, li)| deferred(li)).count() >= 2;
    (worth && masks_restartable(insts)).then(|| anti_dependent(insts))
}

/// The VGPRs the segment reads before it writes them (an accumulator `v0 = v0 + v9`): a
/// second run of a chunk reads them again, so they need homes, which hold the results until
/// the chunk's end.
fn anti_dependent(insts: &[(u32, LaneInst)]) -> Vec<u8> {
    let (mut read_first, mut written) = ([false; 256], [false; 256]);
    for (_, li) in insts {
        // An instruction reads its sources before it writes.
        for r in vgpr_reads(li) {
            read_first[usize::from(r)] |= !written[usize::from(r)];
        }
        for r in li.vgpr_writes() {
            written[usize::from(r)] = true;
        }
    }
    (0..=255u8)
        .filter(|&r| read_first[usize::from(r)] && written[usize::from(r)])
        .collect()
}

/// Whether the segment leaves EXEC alone and reads no lane mask before writing it (masks go
/// to memory where they are written).
fn masks_restartable(insts: &[(u32, LaneInst)]) -> bool {
    let pair = |s: u8| 3u128 << (s & 126);
    let (mut read_first, mut written) = (0u128, 0u128);
    for (_, li) in insts {
        if li.writes_exec {
            return false;
        }
        if let Some(m) = li.mask_in {
            // (Pairs are even in valid code; an odd one counts both neighbours.)
            read_first |= (pair(m) | pair(m.wrapping_add(1))) & !written;
        }
        if let Some(m) = li.mask_out {
            written |= pair(m) | pair(m.wrapping_add(1));
        }
    }
    read_first & written == 0
}

impl Emitter<'_> {
    /// In a deferring chunk: to the chunk's second run if an active lane of `v` is a NaN.
    pub(super) fn nan_test(&mut self, v: V) -> R<()> {
        self.nan_test_all(&[v])
    }

    /// In a deferring chunk: to the chunk's second run if an active lane of any of `vs` is a
    /// NaN (an unordered compare tests two registers at once).
    pub(super) fn nan_test_all(&mut self, vs: &[V]) -> R<()> {
        let Some(redo) = self.nan_redo else {
            return Err(super::emit::err("a NaN test outside a deferring chunk"));
        };
        let Some(&first) = vs.first() else {
            return Ok(());
        };
        let any = self.mtmp()?;
        for (k, pair) in vs.chunks(2).enumerate() {
            let (x, y) = (pair[0], pair.get(1).copied().unwrap_or(first));
            if k == 0 {
                self.v_fcmp(any, UNORD, x, Vs::R(y))?;
            } else {
                let m = self.mtmp()?;
                self.v_fcmp(m, UNORD, x, Vs::R(y))?;
                self.m_or(any, any, m)?;
                self.mfree(m);
            }
        }
        let exec = self.isa.exec_mask();
        match self.isa {
            Isa::Avx512 => self.a.ktestw(kr(any), kr(exec))?,
            Isa::Avx2 => self.a.vptest(yr(V(any.0)), yr(V(exec.0)))?,
        }
        self.a.jnz(redo)?;
        self.mfree(any);
        Ok(())
    }

    /// At a deferring chunk's start: the GPRs collecting lane masks (`accs`), kept for a
    /// second run.
    pub(super) fn save_mask_accs(&mut self, accs: &[(u8, AsmRegister64)]) -> R<()> {
        for (i, &(_, r)) in accs.iter().enumerate() {
            self.a.mov(qword_ptr(r12 + (J_ACCS + 8 * i as i32)), r)?;
        }
        Ok(())
    }

    /// Before a chunk's second run: the collecting GPRs as the chunk found them.
    pub(super) fn restore_mask_accs(&mut self, accs: &[(u8, AsmRegister64)]) -> R<()> {
        for (i, &(_, r)) in accs.iter().enumerate() {
            self.a.mov(r, qword_ptr(r12 + (J_ACCS + 8 * i as i32)))?;
        }
        Ok(())
    }

    /// Before the second run of unrolled chunk `k`: the collecting GPRs without what its
    /// first run put in. An unrolled chunk ors its bits in at their place, above the earlier
    /// chunks' and below nothing yet, so keeping the bits below its own is the state the
    /// chunk found (no copy saved on the hot path, as the loop's shifting collection needs).
    pub(super) fn clear_chunk_accs(&mut self, accs: &[(u8, AsmRegister64)], k: u32) -> R<()> {
        let below = 64 / self.isa.chunks() as u32 * k;
        for &(_, r) in accs {
            if below == 0 {
                self.a.xor(r, r)?;
            } else {
                self.a.shl(r, 64 - below)?;
                self.a.shr(r, 64 - below)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jit::plan::{Item, Plan};
    use crate::program::Program;

    /// The first segment of the code of these instruction words.
    fn first_segment(words: &[u32]) -> Vec<(u32, LaneInst)> {
        let code: Vec<u8> = words.iter().flat_map(|d| d.to_le_bytes()).collect();
        let prog = Program::new(&code, 0);
        let plan = Plan::new(&prog, 0, false, false);
        plan.blocks[0]
            .items
            .iter()
            .find_map(|i| match i {
                Item::Seg(s) => Some(s.clone()),
                _ => None,
            })
            .expect("a segment")
    }

    // v_add_f32 v2, v0, v1; v_mul_f32 v3, v2, v1; s_endpgm
    const ADD_MUL: [u32; 3] = [0x0204_0300, 0x0a06_0302, 0xbf81_0000];
    // v_add_f32 v0, v0, v1 (reads v0 before writing it); v_mul_f32 v3, v0, v1; s_endpgm
    const ADD_IN_PLACE: [u32; 3] = [0x0200_0300, 0x0a06_0300, 0xbf81_0000];

    /// Whether the segment defers with the VGPRs `homed` has homes for.
    fn defers(seg: &[(u32, LaneInst)], homed: impl Fn(u8) -> bool) -> bool {
        needs_homes(seg).is_some_and(|v| v.into_iter().all(homed))
    }

    #[test]
    fn a_register_read_then_written_needs_a_home() {
        let seg = first_segment(&ADD_IN_PLACE);
        assert_eq!(needs_homes(&seg), Some(vec![0]));
        assert!(defers(&seg, |_| true), "with homes the results wait");
        assert!(
            !defers(&seg, |r| r != 0),
            "v0 stored mid-chunk, then read again"
        );
        assert!(
            defers(&seg, |r| r == 0),
            "the others are written before read"
        );
        let seg = first_segment(&ADD_MUL);
        assert!(defers(&seg, |_| false), "nothing read after it is written");
    }

    #[test]
    fn one_float_op_keeps_its_test() {
        // v_add_f32 v2, v0, v1; v_add_u32 v3, v2, v1; s_endpgm
        let seg = first_segment(&[0x0204_0300, 0x6806_0302, 0xbf81_0000]);
        assert_eq!(needs_homes(&seg), None);
    }

    #[test]
    fn a_carry_read_before_written_blocks() {
        // v_addc_co_u32 v2, vcc, v0, v1, vcc (reads VCC, then writes it); two f32 ops.
        let mut words = vec![0x3804_0300];
        words.extend_from_slice(&ADD_MUL);
        assert_eq!(needs_homes(&first_segment(&words)), None);
        // v_add_co_u32 v2, vcc, v0, v1 first: VCC written before the carry reads it.
        let mut words = vec![0x3204_0300, 0x3804_0300];
        words.extend_from_slice(&ADD_MUL);
        assert!(defers(&first_segment(&words), |_| true));
    }
}
