//! Segments: lane-wise instructions run chunk by chunk in one loop, with the values they use
//! most kept in host registers ("homes") for the whole chunk.
//!
//! Inside an iteration, a VGPR's home holds the chunk's values for the active lanes only
//! (inactive lanes hold whatever the computation left there); at the end of the iteration
//! every written home is stored under the chunk's EXEC, so memory gets exactly what the
//! instructions wrote. That is exact because lane-wise operations never read another lane.
//! Scalar and constant operands are broadcast into homes once, before the loop. Lane masks
//! (VCC, carries, compare results) are read and written in memory as the chunk's bits of the
//! SGPR pair, so an instruction later in the same iteration sees them. The last write of a
//! mask that nothing later in the segment touches is collected in a GPR instead and stored
//! whole after the loop: a 64-bit read of chunk-sized stores (the SALU's `s_and_saveexec`
//! after a compare) cannot be forwarded from the store buffer and stalls the read.

use super::emit::{bind, Emitter, R, W_S};
use super::select::{LaneInst, Opd};
use super::vx::{Isa, Vs, M, V};
use crate::wave::EXEC_LO;
use iced_x86::code_asm::*;

/// Where a value lives during the current segment.
#[derive(Clone, Copy, Debug)]
struct Home {
    reg: V,
    /// VGPRs: loaded (or written) in this iteration.
    valid: bool,
    /// VGPRs: written in this iteration (stored at its end).
    dirty: bool,
}

/// The state of the segment being emitted.
pub(super) struct Seg {
    homes: VecMap<Opd, Home>,
    /// Uniform operands without a home: their snapshot slot in `JitCtx::snap`.
    snaps: VecMap<u8, i32>,
    /// AVX2: constants without a home, in snapshot slots too (read as a memory operand or
    /// with one load, where materializing one takes three instructions).
    ksnaps: VecMap<u32, i32>,
    /// Lane masks held in mask registers in this iteration (SGPR pair, register), most
    /// recently written last; memory holds them too.
    masks: Vec<(u8, M)>,
    /// The instruction being emitted writes a lane mask that a later one of the segment
    /// overwrites unread: only its mask register is set, memory waits for the later one.
    mask_store_dead: bool,
    /// The GPR collecting the chunks' bits of the mask the instruction being emitted writes
    /// (see the module documentation).
    mask_acc: Option<AsmRegister64>,
    /// A later instruction of the segment reads a VGPR the instruction being emitted writes.
    reread: bool,
    /// Nothing reads the lane mask the instruction being emitted writes (`unread_masks`): it
    /// need not be computed or stored.
    mask_unread: bool,
    /// AVX2 (no mask homes): the instruction being emitted hands the lane mask it writes, in
    /// its register, to the instruction of this index ([`handoffs`]).
    hand_out: Option<usize>,
    /// A lane mask held for a later instruction: the SGPR pair, the register, the reader's
    /// index.
    held: Option<(u8, M, usize)>,
    /// VGPRs that hold zero in this iteration (`v_mov_b32 v, 0`: the high half of an index
    /// about to be widened to a 64-bit address).
    zero: Vec<u8>,
    /// VGPRs the block replaces after the segment before reading them, or that nothing reads:
    /// their homes are not stored, nor filled by a run on a few lanes.
    dead_out: super::vgpr_dead::Vgprs,
    /// A deferring iteration: VGPRs whose homes hold an f32 result not tested for NaN yet
    /// (`nan_defer.rs`).
    pending: Vec<u8>,
    /// Temporaries still holding operands' values in this iteration (`temp_cache.rs`).
    temps: super::temp_cache::TempCache,
}

/// A map of a few entries (a segment's homes and snapshot slots: at most a few dozen) as a
/// vector searched linearly: looked up for every operand of every lowering, where hashing
/// cost more than the search.
pub(super) struct VecMap<K, T>(Vec<(K, T)>);

impl<K: PartialEq + Copy, T> VecMap<K, T> {
    fn new() -> Self {
        VecMap(Vec::new())
    }
    fn get(&self, k: &K) -> Option<&T> {
        self.0.iter().find(|e| e.0 == *k).map(|e| &e.1)
    }
    fn get_mut(&mut self, k: &K) -> Option<&mut T> {
        self.0.iter_mut().find(|e| e.0 == *k).map(|e| &mut e.1)
    }
    fn insert(&mut self, k: K, v: T) {
        match self.get_mut(&k) {
            Some(e) => *e = v,
            None => self.0.push((k, v)),
        }
    }
    fn iter_mut(&mut self) -> impl Iterator<Item = (&K, &mut T)> {
        self.0.iter_mut().map(|e| (&e.0, &mut e.1))
    }
    fn entry_or_default(&mut self, k: K) -> &mut T
    where
        T: Default,
    {
        match self.0.iter().position(|e| e.0 == k) {
            Some(i) => &mut self.0[i].1,
            None => {
                self.0.push((k, T::default()));
                &mut self.0.last_mut().expect("just pushed").1
            }
        }
    }
}

/// A segment's per-instruction decisions (see `segment`).
struct PerInst<'a> {
    dead: &'a [bool],
    accs: &'a [Option<usize>],
    reread: &'a [bool],
    unread: &'a [bool],
    hand: &'a [Option<usize>],
    /// Left out of a full wave's middle chunks (`addr_defer.rs`); empty: none.
    skip: &'a [bool],
}

/// The VGPRs an iteration wrote, in their homes (stored at its end).
type Dirty = Vec<(u8, V)>;

/// What a partial-wave chunk leaves besides its VGPRs: the lane masks the segment writes
/// (`masks`; those `collected` in GPRs), and whether a memory access follows at once.
struct Outputs<'a> {
    masks: &'a [u8],
    collected: &'a [(u8, AsmRegister64)],
    mem_next: bool,
}

/// Segments of at most this many instructions run a full wave's chunks unrolled (the loop's
/// test and branch cost as much as a short chunk's work; longer bodies would fill the
/// instruction cache).
const UNROLL_MAX: usize = 12;

/// Lane instructions a kernel unrolls in all, its first segments' in program order: all of a
/// short kernel's (where a wave's few hundred instructions make the loops' overhead count), a
/// bounded part of a long one's (each unrolled instruction is emitted once per chunk: without
/// the bound a 1,000-instruction kernel compiled in 7.7 ms instead of 3.0). 128 rather than 48
/// since unrolled chunks address by displacement: the reduction's wave 12% fewer host
/// instructions, the 1,000-instruction kernel's compile 16% more (about 4.3 ms).
const UNROLL_BUDGET: usize = 128;

/// Lane instructions a kernel unrolls in the copies of its segments for waves with lanes off,
/// in blocks that may run more than once (a divergent loop runs such a copy on every
/// iteration once its first lanes are done): the chunk loop's counter, pointer step and
/// branch cost about as much as a short chunk's work there too. 24 covers a short loop's
/// segments (mandelbrot's 13: its waves 10.5% fewer host instructions) for 3% more compile
/// of the 1,000-instruction kernel (64: 12% more).
const PARTIAL_UNROLL_BUDGET: usize = 24;

#[cfg(test)]
thread_local! {
    /// Tests: kernels compiled on this thread unroll nothing (every segment a chunk loop), so
    /// that the fuzzers cover both forms.
    pub(super) static NO_UNROLL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The unroll budget of a kernel being compiled ([`UNROLL_BUDGET`]).
pub(super) fn unroll_budget() -> usize {
    #[cfg(test)]
    if NO_UNROLL.with(|c| c.get()) {
        return 0;
    }
    UNROLL_BUDGET
}

/// The unroll budget of a kernel's partial-wave copies ([`PARTIAL_UNROLL_BUDGET`]).
pub(super) fn partial_unroll_budget() -> usize {
    #[cfg(test)]
    if NO_UNROLL.with(|c| c.get()) {
        return 0;
    }
    PARTIAL_UNROLL_BUDGET
}

/// GPRs no lane lowering uses (they use rax only; rsi/rdi run the chunk loop, if any).
const MASK_ACCS: [AsmRegister64; super::MASK_ACC_SLOTS] = [rcx, rdx, r8, r9, r10, r11];

const J_SNAP: i32 = std::mem::offset_of!(super::JitCtx, snap) as i32;
const J_SNAP_WIDE: i32 = std::mem::offset_of!(super::JitCtx, snap_wide) as i32;
const WIDE_SLOT: i32 = std::mem::size_of::<super::SnapSlot>() as i32;

/// Whether the snapshot slot at `slot` holds a whole chunk (AVX2), not a dword.
fn wide_slot(slot: i32) -> bool {
    (J_SNAP_WIDE..J_SNAP_WIDE + WIDE_SLOT * super::WIDE_SNAP_SLOTS as i32).contains(&slot)
}

/// The snapshot slots a segment has taken: chunk-wide ones (AVX2's first), dword ones.
#[derive(Default)]
struct SnapSlots {
    wide: usize,
    dwords: usize,
}

impl SnapSlots {
    /// The next free slot's offset in `JitCtx`: a chunk-wide one while any is left and
    /// `chunk` allows, else a dword one (`None`: none left).
    fn take(&mut self, chunk: bool) -> Option<i32> {
        if chunk && self.wide < super::WIDE_SNAP_SLOTS {
            self.wide += 1;
            return Some(J_SNAP_WIDE + WIDE_SLOT * (self.wide - 1) as i32);
        }
        (self.dwords < super::SNAP_SLOTS).then(|| {
            self.dwords += 1;
            J_SNAP + 4 * (self.dwords - 1) as i32
        })
    }
}

impl Emitter<'_> {
    /// The chunk-relative memory of VGPR `r` (rdi = this chunk of VGPR 0; unrolled, r13 plus
    /// the chunk's offset).
    pub(super) fn vgpr_mem(&self, r: u8) -> AsmMemoryOperand {
        if self.rep_mode {
            return ptr(rdi + 64 * i32::from(r));
        }
        match self.chunk_at {
            Some(k) => ptr(r13 + (256 * i32::from(r) + self.chunk_disp(k))),
            None => ptr(rdi + 256 * i32::from(r)),
        }
    }

    /// The current chunk of a 256-byte per-lane table whose address is in `base`: the
    /// chunk's lanes are at the same offset in it as in a VGPR (`base` is changed).
    pub(super) fn chunk_table(&mut self, base: AsmRegister64) -> R<Vs> {
        Ok(match self.chunk_at {
            Some(k) => Vs::M(base + self.chunk_disp(k)),
            None => {
                self.a.sub(base, r13)?;
                Vs::M(base + rdi)
            }
        })
    }

    /// The byte offset of chunk `k` within a VGPR.
    pub(super) fn chunk_disp(&self, k: u32) -> i32 {
        k as i32 * self.isa.chunk_bytes()
    }

    /// The chunk's bits of the lane mask in SGPR pair `s`.
    fn mask_mem(&self, s: u8) -> AsmMemoryOperand {
        if self.rep_mode {
            let off = super::lane_rep::REP_MASKS + 4 * i32::from(s);
            return match self.isa {
                Isa::Avx512 => word_ptr(rdi + off),
                Isa::Avx2 => byte_ptr(rdi + off),
            };
        }
        let off = W_S + 4 * i32::from(s);
        match (self.isa, self.chunk_at) {
            (Isa::Avx512, Some(k)) => word_ptr(rbx + (off + 2 * k as i32)),
            (Isa::Avx2, Some(k)) => byte_ptr(rbx + (off + k as i32)),
            (Isa::Avx512, None) => word_ptr(rbx + rsi * 2 + off),
            (Isa::Avx2, None) => byte_ptr(rbx + rsi + off),
        }
    }

    /// Emits segment `insts`; `dead_after`: the scalar registers the rest of the block writes
    /// before it reads them ([`super::mask_live::dead_after_each`]); `vdead`: the VGPRs it
    /// replaces before reading them or nothing reads ([`super::vgpr_dead`]), which the
    /// segment does not store;
    /// `mem_next`: a memory access follows at once.
    pub(super) fn segment(
        &mut self,
        insts: &[(u32, LaneInst)],
        dead_after: u128,
        vdead: super::vgpr_dead::Vgprs,
        mem_next: bool,
    ) -> R<()> {
        let isa = self.isa;
        // (Analyses keyed by the segment's first instruction keep its index.)
        let first_inst = insts[0].0;
        let folded = match self.check {
            true => None,
            false => super::mov_fold::fold_moves(insts),
        };
        let insts: &[(u32, LaneInst)] = folded.as_deref().unwrap_or(insts);
        // Instructions computing only the next access's address, in its checked lanes alone
        // (`addr_defer.rs`): in unrolled full-wave chunks, where each chunk's code is its own.
        let (mut left_out, mut next_at) = (Vec::new(), 0);
        if let Some(next) = self.addr_next.take() {
            if !self.check && insts.len() <= UNROLL_MAX && insts.len() <= self.unroll_left {
                left_out = super::addr_defer::deferrable(insts, &next, dead_after, vdead)
                    .unwrap_or_default();
                next_at = next.at;
            }
        }
        // Homes for the most used values.
        let mut uses: VecMap<Opd, u32> = VecMap::new();
        let mut masks_out = Vec::new();
        for (_, li) in insts {
            let immediate = super::lane_int::immediate_srcs(li);
            for i in (0..li.n).filter(|i| immediate >> i & 1 == 0) {
                let k = if li.wide[i] { 2 } else { 1 };
                for o in &li.src[i][..k] {
                    *uses.entry_or_default(*o) += 1;
                }
            }
            for r in li.vgpr_writes() {
                *uses.entry_or_default(Opd::V(r)) += 1;
            }
            for &k in super::lane_int::consts(li, isa) {
                *uses.entry_or_default(Opd::K(k)) += 1;
            }
            if let Some(m) = li.mask_out {
                if !masks_out.contains(&m) {
                    masks_out.push(m);
                }
            }
        }
        let mut ranked: Vec<(Opd, u32)> = uses.0;
        // A VGPR's home is loaded in every chunk: for one read and no write that costs a load
        // where the reading instruction could take the register from memory itself (one write
        // and no read is stored either way).
        ranked.retain(|&(o, n)| n > 1 || !matches!(o, Opd::V(_)));
        // Most used first; ties by register for a stable layout. Where the segment's f32 ops
        // may run without NaN tests, the registers it reads before it writes come first: a
        // chunk runs twice only if they have homes (`nan_defer.rs`).
        let need = match self.check {
            true => None,
            false => super::nan_defer::needs_homes(insts),
        };
        let first: &[u8] = match &need {
            Some(v) if v.len() <= isa.homes().len() => v,
            _ => &[],
        };
        ranked.sort_by_key(|&(o, n)| {
            let late = !matches!(o, Opd::V(r) if first.contains(&r));
            (late, std::cmp::Reverse(n), o_key(o))
        });
        let mut homes = VecMap::new();
        for ((o, _), &reg) in ranked.iter().zip(isa.homes()) {
            homes.insert(
                *o,
                Home {
                    reg: V(reg),
                    valid: !matches!(o, Opd::V(_)),
                    dirty: false,
                },
            );
        }
        // Uniform values into their homes, or snapshot slots, once: a lane mask written by
        // the segment may be one of them (read before written, by the same instruction).
        let mut snaps = VecMap::new();
        let mut ksnaps = VecMap::new();
        let mut slots = SnapSlots::default();
        for (o, _) in &ranked {
            match (*o, homes.get(o)) {
                (Opd::S(s), Some(h)) => {
                    self.v_mov(h.reg, Vs::B(ptr(rbx + (W_S + 4 * i32::from(s)))))?
                }
                (Opd::K(k), Some(h)) => self.v_const(h.reg, k)?,
                (Opd::S(s), None) => {
                    let sgpr = ptr(rbx + (W_S + 4 * i32::from(s)));
                    let slot = match slots.take(isa == Isa::Avx2) {
                        Some(slot) if wide_slot(slot) => {
                            self.fill_wide(slot, |e, t| e.v_mov(t, Vs::B(sgpr)))?
                        }
                        Some(slot) => {
                            self.a.mov(eax, dword_ptr(sgpr))?;
                            self.a.mov(dword_ptr(r12 + slot), eax)?;
                            slot
                        }
                        None => return Err(super::emit::err("too many uniform operands")),
                    };
                    snaps.insert(s, slot);
                }
                _ => {}
            }
        }
        // Then constants in the slots the SGPRs left (a constant can be materialized at each
        // use instead; an SGPR cannot).
        for (o, _) in &ranked {
            match (*o, homes.get(o)) {
                (Opd::K(k), None) if isa == Isa::Avx2 && k != 0 && k != u32::MAX => {
                    let slot = match slots.take(true) {
                        Some(slot) if wide_slot(slot) => {
                            self.fill_wide(slot, |e, t| e.v_const(t, k))?
                        }
                        Some(slot) => {
                            self.a.mov(dword_ptr(r12 + slot), k)?;
                            slot
                        }
                        None => break,
                    };
                    ksnaps.insert(k, slot);
                }
                _ => {}
            }
        }
        let (mut dead, mut unread) = if self.check {
            (vec![false; insts.len()], vec![false; insts.len()])
        } else {
            (
                dead_mask_stores(insts, !isa.mask_homes().is_empty()),
                unread_masks(insts, dead_after),
            )
        };
        let mut hand = vec![None; insts.len()];
        let off_exec = |li: &LaneInst| li.mask_out.is_some_and(|s| s.abs_diff(EXEC_LO as u8) >= 2);
        if !self.check {
            // A mask the segment writes whole again before anything reads it (not even from
            // its home) need not be computed: the carry-out of each `v_addc` of a run of
            // 64-bit additions, whose VCC the next `v_add_co` replaces.
            let replaced = dead_mask_stores(insts, false);
            for (k, (_, li)) in insts.iter().enumerate() {
                unread[k] |= replaced[k] && off_exec(li);
            }
        }
        if isa.mask_homes().is_empty() && !self.check {
            // Without mask homes a dead store's mask is read by nobody at all (no register
            // keeps it for a later read): it need not be computed either, as the carry-out
            // of each `v_addc` of a run of 64-bit additions.
            for (k, (_, li)) in insts.iter().enumerate() {
                unread[k] |= dead[k] && off_exec(li);
            }
            // A mask that a later carry op or select alone reads goes there in its register.
            for (k, (h, d)) in handoffs(insts).into_iter().enumerate() {
                hand[k] = h;
                dead[k] |= d;
            }
        }
        dead.iter_mut().zip(&unread).for_each(|(d, &u)| *d |= u);
        let accs = mask_accumulators(insts, &unread);
        // A mask nothing reads after the segment needs no zeros for chunks without lanes.
        masks_out.retain(|&m| {
            let last = insts.iter().rposition(|(_, li)| li.mask_out == Some(m));
            !last.is_some_and(|k| unread[k])
        });
        let reread = rereads(insts);
        let defer = need.is_some_and(|v| v.iter().all(|&r| homes.get(&Opd::V(r)).is_some()));
        self.seg = Some(Seg {
            homes,
            snaps,
            ksnaps,
            masks: Vec::new(),
            mask_store_dead: false,
            mask_acc: None,
            reread: false,
            mask_unread: false,
            hand_out: None,
            held: None,
            zero: Vec::new(),
            dead_out: vdead,
            pending: Vec::new(),
            temps: Default::default(),
        });
        let exec = isa.exec_mask();
        let a = &mut self.a;
        let mut top = a.create_label();
        let mut next = a.create_label();
        let mut skip = a.create_label();
        let collected: Vec<(u8, AsmRegister64)> = insts
            .iter()
            .zip(&accs)
            .filter_map(|((_, li), acc)| Some((li.mask_out?, MASK_ACCS[(*acc)?])))
            .collect();
        for &(_, r) in &collected {
            a.xor(r, r)?;
        }
        let rep = match self.middle_only {
            true => None,
            false => self.rep_plan(first_inst, insts, &unread, !collected.is_empty(), defer),
        };
        if rep.is_some() {
            left_out.clear();
        }
        let flags = PerInst {
            dead: &dead,
            accs: &accs,
            reread: &reread,
            unread: &unread,
            hand: &hand,
            skip: &left_out,
        };
        let mut done = self.a.create_label();
        if self.middle_only {
            if !collected.is_empty() {
                return Err(super::emit::err("a completion collects a lane mask"));
            }
            self.full_exec_middle(insts, &flags, done, defer)?;
            bind(&mut self.a, &mut done)?;
            self.seg = None;
            return Ok(());
        }
        if let Some(plan) = rep {
            // (Without `defer`, no second run: nothing jumps back to the chunk's stores.)
            let mut run = |e: &mut Self| {
                e.chunk_at = Some(0);
                let chunk = e.full_chunk(insts, &flags, false, &collected);
                e.chunk_at = None;
                chunk.map(|_| ())
            };
            self.rep_path(&plan, &mut run, done)?;
        }
        let full_path = !self.check;
        if full_path {
            let unrolled = self.full_exec_loop(insts, &flags, done, defer, &collected)?;
            if unrolled && !left_out.is_empty() {
                self.deferred = Some(super::addr_defer::Deferred {
                    at: next_at,
                    insts: insts
                        .iter()
                        .zip(&left_out)
                        .filter(|(_, &x)| x)
                        .map(|(i, _)| *i)
                        .collect(),
                    dead_masks: dead_after,
                });
            }
        }
        if self.linear.segment(first_inst) {
            // A lane-linear value written with lanes inactive (`lane_linear.rs`). Past the
            // full-wave loop, EXEC is partial.
            let mut full = self.a.create_label();
            if !full_path {
                self.a.cmp(super::emit::sreg64(EXEC_LO as u8), -1)?;
                self.a.je(full)?;
            }
            self.a.mov(byte_ptr(rbx + super::emit::W_LIN), 0)?;
            bind(&mut self.a, &mut full)?;
        }
        // (Tests unroll it in blocks that run once too: the fuzzers' kernels have no loops.)
        if !self.check
            && (!self.runs_once || cfg!(test))
            && insts.len() <= UNROLL_MAX
            && insts.len() <= self.partial_unroll_left
        {
            self.partial_unroll_left -= insts.len();
            let out = Outputs {
                masks: &masks_out,
                collected: &collected,
                mem_next,
            };
            self.partial_unrolled(insts, &flags, defer, &out, done)?;
            bind(&mut self.a, &mut done)?;
            for &(s, r) in &collected {
                self.a.mov(qword_ptr(rbx + (W_S + 4 * i32::from(s))), r)?;
            }
            self.seg = None;
            return Ok(());
        }
        let a = &mut self.a;
        a.xor(esi, esi)?;
        a.mov(rdi, r13)?;
        bind(a, &mut top)?;
        // The chunk's EXEC bits; a chunk with no active lane only clears its mask outputs.
        match isa {
            Isa::Avx512 => {
                a.kmovw(
                    super::vx::kr(exec),
                    word_ptr(rbx + rsi * 2 + (W_S + 4 * EXEC_LO as i32)),
                )?;
                a.kortestw(super::vx::kr(exec), super::vx::kr(exec))?;
                a.jz(skip)?;
            }
            Isa::Avx2 => {
                a.movzx(eax, byte_ptr(rbx + rsi + (W_S + 4 * EXEC_LO as i32)))?;
                a.test(eax, eax)?;
                a.jz(skip)?;
                a.shl(eax, 5)?;
                a.vmovdqu(super::vx::yr(V(exec.0)), ymmword_ptr(r15 + rax))?;
            }
        }
        let (dirty, redo) = self.chunk_body(insts, &flags, defer, &collected)?;
        let mut back = self.a.create_label();
        bind(&mut self.a, &mut back)?;
        self.chunk_stores(&dirty, mem_next, next)?;
        let cb = isa.chunk_bytes();
        let chunks = isa.chunks() as i32;
        let a = &mut self.a;
        bind(a, &mut next)?;
        a.add(rdi, cb)?;
        a.inc(esi)?;
        a.cmp(esi, chunks)?;
        a.jb(top)?;
        a.jmp(done)?;
        self.chunk_redo(insts, &flags, redo, back, &dirty, &collected)?;
        // Chunks without active lanes: their mask outputs read 0.
        bind(&mut self.a, &mut skip)?;
        for m in &masks_out {
            if let Some(&(_, r)) = collected.iter().find(|c| c.0 == *m) {
                self.a.shr(r, (64 / chunks) as u32)?;
                continue;
            }
            let mm = self.mask_mem(*m);
            match isa {
                Isa::Avx512 => self.a.mov(mm, 0)?,
                Isa::Avx2 => self.a.mov(mm, 0)?,
            }
        }
        self.a.jmp(next)?;
        bind(&mut self.a, &mut done)?;
        for &(s, r) in &collected {
            self.a.mov(qword_ptr(rbx + (W_S + 4 * i32::from(s))), r)?;
        }
        self.seg = None;
        Ok(())
    }

    /// The segment's chunks for a wave whose 64 lanes are all active (most waves, outside
    /// divergent code), then a jump to `done`; other waves go on past it, to the general
    /// loop. Each chunk skips what the general loop does for partial EXEC (the chunk's mask,
    /// the test for an empty chunk, the `and` of lane masks with EXEC, masked or blended
    /// stores of the registers it writes back), and a short segment is unrolled. Both ISAs:
    /// on AVX-512 too (a Zen 4 core, which splits 512-bit work in two, ran mandelbrot 1.27x,
    /// the reduction 1.17x and the stencil 1.13x faster with it than with masked chunk loops
    /// alone). Returns whether the chunks were unrolled.
    fn full_exec_loop(
        &mut self,
        insts: &[(u32, LaneInst)],
        flags: &PerInst,
        done: CodeLabel,
        defer: bool,
        collected: &[(u8, AsmRegister64)],
    ) -> R<bool> {
        let exec = self.isa.exec_mask();
        let mut general = self.a.create_label();
        let mut top = self.a.create_label();
        super::emit::unless_full_wave(&mut self.a, general)?;
        match self.isa {
            Isa::Avx512 => {
                let k = super::vx::kr(exec);
                self.a.kxnorw(k, k, k)?
            }
            Isa::Avx2 => self.v_ones(V(exec.0))?,
        }
        if insts.len() <= UNROLL_MAX && insts.len() <= self.unroll_left {
            self.unroll_left -= insts.len();
            let chunks = 0..self.isa.chunks() as u32;
            self.full_exec_unrolled(insts, flags, done, defer, collected, chunks)?;
            bind(&mut self.a, &mut general)?;
            return Ok(true);
        }
        self.a.xor(esi, esi)?;
        self.a.mov(rdi, r13)?;
        bind(&mut self.a, &mut top)?;
        let (dirty, redo, back) = self.full_chunk(insts, flags, defer, collected)?;
        let a = &mut self.a;
        a.add(rdi, self.isa.chunk_bytes())?;
        a.inc(esi)?;
        a.cmp(esi, self.isa.chunks() as i32)?;
        a.jb(top)?;
        a.jmp(done)?;
        self.full_redo(insts, flags, redo, back, &dirty, collected)?;
        bind(&mut self.a, &mut general)?;
        Ok(false)
    }

    /// A completion's chunks (`addr_defer.rs`): a full wave's middle ones, unrolled, then a
    /// jump to `done`. The caller knows EXEC is full.
    fn full_exec_middle(
        &mut self,
        insts: &[(u32, LaneInst)],
        flags: &PerInst,
        done: CodeLabel,
        defer: bool,
    ) -> R<()> {
        let exec = self.isa.exec_mask();
        match self.isa {
            Isa::Avx512 => {
                let k = super::vx::kr(exec);
                self.a.kxnorw(k, k, k)?
            }
            Isa::Avx2 => self.v_ones(V(exec.0))?,
        }
        let chunks = self.isa.chunks() as u32;
        self.full_exec_unrolled(insts, flags, done, defer, &[], 1..chunks - 1)
    }

    /// The general loop's chunks one after another, for a wave with lanes off (in a block
    /// that may run more than once): each chunk tests its EXEC bits and skips its work when
    /// none is set, as the loop does, but addresses its VGPRs, lane masks and tables by
    /// displacement ([`Emitter::chunk_at`]), without a counter, a pointer step or a branch
    /// back. Second runs of chunks with NaNs come after the last chunk, then a jump to
    /// `done`.
    fn partial_unrolled(
        &mut self,
        insts: &[(u32, LaneInst)],
        flags: &PerInst,
        defer: bool,
        out: &Outputs,
        done: CodeLabel,
    ) -> R<()> {
        let isa = self.isa;
        let exec = isa.exec_mask();
        let mut redos = Vec::new();
        let emit = || -> R<()> {
            for k in 0..isa.chunks() as u32 {
                self.chunk_at = Some(k);
                let mut skip = self.a.create_label();
                let mut next = self.a.create_label();
                let bits = W_S + 4 * EXEC_LO as i32;
                match isa {
                    Isa::Avx512 => {
                        let m = super::vx::kr(exec);
                        self.a.kmovw(m, word_ptr(rbx + (bits + 2 * k as i32)))?;
                        self.a.kortestw(m, m)?;
                        self.a.jz(skip)?;
                    }
                    Isa::Avx2 => {
                        self.a.movzx(eax, byte_ptr(rbx + (bits + k as i32)))?;
                        self.a.test(eax, eax)?;
                        self.a.jz(skip)?;
                        self.a.shl(eax, 5)?;
                        self.a
                            .vmovdqu(super::vx::yr(V(exec.0)), ymmword_ptr(r15 + rax))?;
                    }
                }
                let (dirty, redo) = self.chunk_body(insts, flags, defer, out.collected)?;
                let mut back = self.a.create_label();
                bind(&mut self.a, &mut back)?;
                self.chunk_stores(&dirty, out.mem_next, next)?;
                self.a.jmp(next)?;
                // No active lane: the chunk's bits of its mask outputs read 0 (a collecting
                // GPR has none set for it).
                bind(&mut self.a, &mut skip)?;
                for m in out.masks {
                    if out.collected.iter().all(|c| c.0 != *m) {
                        let mm = self.mask_mem(*m);
                        self.a.mov(mm, 0)?;
                    }
                }
                bind(&mut self.a, &mut next)?;
                redos.push((k, redo, back, dirty));
            }
            self.a.jmp(done)?;
            for (k, redo, back, dirty) in redos {
                self.chunk_at = Some(k);
                self.chunk_redo(insts, flags, redo, back, &dirty, out.collected)?;
            }
            Ok(())
        };
        let r = emit();
        self.chunk_at = None;
        r
    }

    /// A partial-wave chunk's stores of the homes it wrote (`dirty`), masked or blended, or
    /// whole (then on to `next`) where all its lanes are active. AVX-512 only when a memory
    /// access reads them next (`mem_next`: its address, its data), which is forwarded from a
    /// plain store but waits for a masked one to reach the cache; not in general, since where
    /// chunks of one segment alternate between full and partial, as in a divergent loop, the
    /// mispredicted branch costs more than the store it saves. AVX2 always: it has no cheap
    /// masked store (a partial chunk loads, blends and stores each register).
    fn chunk_stores(&mut self, dirty: &[(u8, V)], mem_next: bool, next: CodeLabel) -> R<()> {
        let isa = self.isa;
        let exec = isa.exec_mask();
        if !dirty.is_empty() && (isa == Isa::Avx2 || mem_next) {
            let mut partial = self.a.create_label();
            match isa {
                Isa::Avx512 => {
                    self.a.kortestw(super::vx::kr(exec), super::vx::kr(exec))?;
                    self.a.jae(partial)?;
                }
                Isa::Avx2 => {
                    self.a.vmovmskps(eax, super::vx::yr(V(exec.0)))?;
                    self.a.cmp(eax, 0xff)?;
                    self.a.jne(partial)?;
                }
            }
            for &(r, v) in dirty {
                let m = self.vgpr_mem(r);
                self.v_mov_to_mem(m, v)?;
            }
            self.a.jmp(next)?;
            bind(&mut self.a, &mut partial)?;
        }
        for &(r, v) in dirty {
            let m = self.vgpr_mem(r);
            self.v_store_masked_blend(m, v, exec)?;
        }
        Ok(())
    }

    /// [`Self::full_exec_loop`]'s chunks one after another for a short segment: no loop
    /// test, counter or pointer step per chunk: each chunk addresses its VGPRs and lane masks
    /// by displacement ([`Emitter::chunk_at`]). Second runs of chunks with NaNs (`defer`)
    /// come after the last chunk, out of line. `ks`: the chunks; the middle ones of a full
    /// wave leave out the instructions `flags.skip` marks.
    fn full_exec_unrolled(
        &mut self,
        insts: &[(u32, LaneInst)],
        flags: &PerInst,
        done: CodeLabel,
        defer: bool,
        collected: &[(u8, AsmRegister64)],
        ks: std::ops::Range<u32>,
    ) -> R<()> {
        let chunks = self.isa.chunks() as u32;
        let middle = |k: u32| !flags.skip.is_empty() && k > 0 && k + 1 < chunks;
        let mut redos = Vec::new();
        let emit = || -> R<()> {
            for k in ks {
                self.chunk_at = Some(k);
                self.middle = middle(k);
                let (dirty, redo, back) = self.full_chunk(insts, flags, defer, collected)?;
                redos.push((k, redo, back, dirty));
            }
            self.a.jmp(done)?;
            for (k, redo, back, dirty) in redos {
                self.chunk_at = Some(k);
                self.middle = middle(k);
                self.full_redo(insts, flags, redo, back, &dirty, collected)?;
            }
            Ok(())
        };
        let r = emit();
        self.chunk_at = None;
        self.middle = false;
        r
    }

    /// [`Self::chunk_redo`] for a full-wave chunk: its second run is full-wave too.
    fn full_redo(
        &mut self,
        insts: &[(u32, LaneInst)],
        flags: &PerInst,
        redo: Option<CodeLabel>,
        back: CodeLabel,
        dirty: &[(u8, V)],
        collected: &[(u8, AsmRegister64)],
    ) -> R<()> {
        self.full_exec = true;
        let redone = self.chunk_redo(insts, flags, redo, back, dirty, collected);
        self.full_exec = false;
        redone
    }

    /// A full-wave chunk: its body, then (at the label returned, where a second run comes
    /// back) the plain stores of the homes it wrote.
    fn full_chunk(
        &mut self,
        insts: &[(u32, LaneInst)],
        flags: &PerInst,
        defer: bool,
        collected: &[(u8, AsmRegister64)],
    ) -> R<(Dirty, Option<CodeLabel>, CodeLabel)> {
        self.full_exec = true;
        let body = self.chunk_body(insts, flags, defer, collected);
        self.full_exec = false;
        let (dirty, redo) = body?;
        let mut back = self.a.create_label();
        bind(&mut self.a, &mut back)?;
        for &(r, v) in &dirty {
            let m = self.vgpr_mem(r);
            self.v_mov_to_mem(m, v)?;
        }
        Ok((dirty, redo, back))
    }

    /// One chunk iteration; with `defer`, its f32 adds, subtractions, multiplies and fmas without
    /// their NaN tests, and NaN tests where their results leave, which jump to the label
    /// returned (`nan_defer.rs`).
    fn chunk_body(
        &mut self,
        insts: &[(u32, LaneInst)],
        f: &PerInst,
        defer: bool,
        collected: &[(u8, AsmRegister64)],
    ) -> R<(Dirty, Option<CodeLabel>)> {
        if !defer {
            return Ok((self.segment_body(insts, f)?, None));
        }
        let redo = self.a.create_label();
        // (An unrolled chunk's second run clears its own bits instead: `clear_chunk_accs`.)
        if self.chunk_at.is_none() {
            self.save_mask_accs(collected)?;
        }
        self.nan_redo = Some(redo);
        let dirty = self.segment_body(insts, f);
        self.nan_redo = None;
        Ok((dirty?, Some(redo)))
    }

    /// Out of the loop, for a chunk whose deferred results held a NaN: the GPRs collecting
    /// lane masks as the chunk found them, the iteration again with its NaN tests, then on to
    /// `back` (the stores of `dirty`, which the iteration wrote again).
    fn chunk_redo(
        &mut self,
        insts: &[(u32, LaneInst)],
        f: &PerInst,
        redo: Option<CodeLabel>,
        back: CodeLabel,
        dirty: &[(u8, V)],
        collected: &[(u8, AsmRegister64)],
    ) -> R<()> {
        let Some(mut redo) = redo else {
            return Ok(());
        };
        bind(&mut self.a, &mut redo)?;
        match self.chunk_at {
            Some(k) => self.clear_chunk_accs(collected, k)?,
            None => self.restore_mask_accs(collected)?,
        }
        let again = self.segment_body(insts, f)?;
        if again != dirty {
            return Err(super::emit::err("a chunk's second run wrote other homes"));
        }
        self.a.jmp(back)?;
        Ok(())
    }

    /// In a deferring iteration, before `li`: NaN tests of the deferred results it reads,
    /// unless it runs bare too or does not care which NaN it reads. Returns whether `li` copies
    /// a deferred result into a homed destination instead (a move or select: the destination
    /// is tested where it leaves).
    fn nan_tests_before(&mut self, li: &LaneInst) -> R<bool> {
        use super::nan_defer::{deferred, nan_blind, nan_transparent, vgpr_reads};
        if deferred(li) || nan_blind(li) {
            return Ok(false);
        }
        let pending = |e: &Self, r: u8| e.seg.as_ref().is_some_and(|g| g.pending.contains(&r));
        let reads_pending = vgpr_reads(li).any(|r| pending(self, r));
        let homed_dst = li.dst.is_some_and(|d| self.home(Opd::V(d)).is_some()) && !li.dst_wide;
        if nan_transparent(li) && homed_dst {
            return Ok(reads_pending);
        }
        let reads: Vec<u8> = vgpr_reads(li).collect();
        self.test_pending(|r| reads.contains(&r))?;
        Ok(false)
    }

    /// NaN tests of the pending results (`nan_defer.rs`) in the VGPRs `which` picks, which
    /// stop pending.
    fn test_pending(&mut self, which: impl Fn(u8) -> bool) -> R<()> {
        let Some(seg) = self.seg.as_mut() else {
            return Ok(());
        };
        let (tested, left): (Vec<u8>, Vec<u8>) = seg.pending.iter().partition(|&&r| which(r));
        seg.pending = left;
        let mut regs = Vec::new();
        for r in tested {
            let h = self
                .home(Opd::V(r))
                .ok_or_else(|| super::emit::err("pending without a home"))?;
            regs.push(h.reg);
        }
        if regs.is_empty() {
            return Ok(());
        }
        self.nan_test_all(&regs)
    }

    /// A deferred result for VGPR `d`: whether it waits in `d`'s home to be tested later
    /// (else the caller tests it before storing it).
    pub(super) fn pend_nan_test(&mut self, d: u8) -> bool {
        if self.home(Opd::V(d)).is_none() {
            return false;
        }
        if let Some(seg) = self.seg.as_mut() {
            if !seg.pending.contains(&d) {
                seg.pending.push(d);
            }
        }
        true
    }

    /// One chunk iteration of a segment's instructions; returns the VGPRs written (their
    /// homes), for the caller to store. Homes become invalid for the next chunk.
    fn segment_body(&mut self, insts: &[(u32, LaneInst)], f: &PerInst) -> R<Vec<(u8, V)>> {
        if let Some(seg) = self.seg.as_mut() {
            seg.held = None; // (from the other copy of the loop)
            seg.zero.clear();
            seg.pending.clear();
            seg.temps.clear(self.a.instructions().len());
        }
        for (k, (i, li)) in insts.iter().enumerate() {
            if self.middle && f.skip.get(k) == Some(&true) {
                continue;
            }
            self.free_all();
            if let Some(seg) = self.seg.as_mut() {
                seg.mask_store_dead = f.dead[k];
                seg.mask_acc = f.accs[k].map(|a| MASK_ACCS[a]);
                seg.reread = f.reread[k];
                seg.mask_unread = f.unread[k];
                seg.hand_out = f.hand[k];
                // A held mask stays reserved up to its reader.
                seg.held = seg.held.filter(|h| h.2 >= k);
                if let Some((_, m, _)) = seg.held {
                    self.free_m &= !(1 << m.0);
                }
            }
            let passes_nan = self.nan_redo.is_some() && self.nan_tests_before(li)?;
            self.lane(*i, li).map_err(|e| {
                super::emit::EmitError(format!("{} (at `{}`)", e.0, self.prog.text(*i)))
            })?;
            if !super::nan_defer::deferred(li) {
                if let Some(seg) = self.seg.as_mut() {
                    seg.pending.retain(|r| li.vgpr_writes().all(|w| w != *r));
                    if passes_nan {
                        seg.pending.extend(li.vgpr_writes());
                    }
                }
            }
        }
        self.free_all();
        // Deferred results still in their homes, before the iteration stores them.
        self.test_pending(|_| true)?;
        // Written VGPRs to memory under EXEC; homes become invalid for the next chunk.
        let mut dirty: Vec<(u8, V)> = Vec::new();
        if let Some(seg) = self.seg.as_mut() {
            seg.masks.clear();
            for (o, h) in seg.homes.iter_mut() {
                if let (Opd::V(r), true) = (*o, h.dirty) {
                    if !seg.dead_out.has(r) {
                        dirty.push((r, h.reg));
                    }
                }
                if let Opd::V(_) = o {
                    h.valid = false;
                    h.dirty = false;
                }
            }
        }
        dirty.sort_by_key(|d| d.0);
        Ok(dirty)
    }

    /// The home of a value, if it has one.
    fn home(&self, o: Opd) -> Option<Home> {
        self.seg.as_ref().and_then(|s| s.homes.get(&o).copied())
    }

    /// Source operand `o` as a vector operand (memory or broadcast allowed).
    pub(super) fn opd(&mut self, o: Opd) -> R<Vs> {
        if let Some(h) = self.home(o) {
            if !h.valid {
                let m = self.vgpr_mem(match o {
                    Opd::V(r) => r,
                    _ => return Err(super::emit::err("invalid uniform home")),
                });
                self.v_mov(h.reg, Vs::M(m))?;
                if let Some(s) = self.seg.as_mut() {
                    if let Some(hh) = s.homes.get_mut(&o) {
                        hh.valid = true;
                    }
                }
            }
            return Ok(Vs::R(h.reg));
        }
        if let Some(v) = self.cached_temp(o) {
            return Ok(Vs::R(v));
        }
        match o {
            Opd::V(r) => Ok(Vs::M(self.vgpr_mem(r))),
            // A slot the instruction can read as an operand (AVX-512's dwords as broadcasts,
            // AVX2's chunks), else a temporary.
            Opd::S(_) | Opd::K(_) => match self.uniform_slot(o)? {
                Some(slot) if self.isa == Isa::Avx512 || wide_slot(slot) => Ok(self.snap_opd(slot)),
                _ => {
                    let t = self.tmp()?;
                    self.uniform_into(t, o)?;
                    self.cache_temp(o, t);
                    Ok(Vs::R(t))
                }
            },
        }
    }

    /// `d` = operand `o` in every lane of the chunk: a scalar or constant without a
    /// register (a home or a cached temporary) is broadcast or built straight into `d`.
    pub(super) fn opd_into(&mut self, d: V, o: Opd) -> R<()> {
        if o.uniform() && self.home(o).is_none() && self.cached_temps_of(o).is_none() {
            return self.uniform_into(d, o);
        }
        let v = self.opd(o)?;
        self.v_mov(d, v)?;
        self.release(v);
        Ok(())
    }

    /// Fills chunk-wide snapshot slot `slot` with the chunk `value` builds in a temporary;
    /// returns `slot`.
    fn fill_wide(&mut self, slot: i32, value: impl FnOnce(&mut Self, V) -> R<()>) -> R<i32> {
        let t = self.tmp()?;
        value(self, t)?;
        self.v_mov_to_mem(r12 + slot, t)?;
        self.free(t);
        Ok(slot)
    }

    /// The snapshot slot of uniform operand `o` in this segment: every SGPR without a home
    /// has one; a constant may (AVX2).
    fn uniform_slot(&self, o: Opd) -> R<Option<i32>> {
        let g = self.seg.as_ref();
        match o {
            Opd::S(s) => g
                .and_then(|g| g.snaps.get(&s).copied())
                .map(Some)
                .ok_or_else(|| super::emit::err("uniform operand without a slot")),
            Opd::K(k) => Ok(g.and_then(|g| g.ksnaps.get(&k).copied())),
            Opd::V(_) => Err(super::emit::err("a VGPR is not uniform")),
        }
    }

    /// The operand reading snapshot slot `slot` (at `r12 + slot`): the whole chunk the
    /// segment's start broadcast to a chunk-wide slot, or a dword broadcast (an operand on
    /// AVX-512; on AVX2 only for a move into a register).
    fn snap_opd(&self, slot: i32) -> Vs {
        match wide_slot(slot) {
            true => Vs::M(ptr(r12 + slot)),
            false => Vs::B(ptr(r12 + slot)),
        }
    }

    /// `d` = the scalar or constant `o` (without a home), from its snapshot slot or built.
    fn uniform_into(&mut self, d: V, o: Opd) -> R<()> {
        match (self.uniform_slot(o)?, o) {
            (Some(slot), _) => self.v_mov(d, self.snap_opd(slot)),
            (None, Opd::K(k)) => self.v_const(d, k),
            _ => Err(super::emit::err("uniform operand without a slot")),
        }
    }

    /// The temporary caching `o`, if any (whether taken or not).
    fn cached_temps_of(&mut self, o: Opd) -> Option<V> {
        let seg = self.seg.as_mut()?;
        seg.temps.sync(self.a.instructions());
        seg.temps.get(o)
    }

    /// The temporary still holding `o` in this iteration (`temp_cache.rs`), taken for the
    /// instruction being emitted; none where it is taken already (two handles to one
    /// temporary would let a lowering's write to one change the other).
    fn cached_temp(&mut self, o: Opd) -> Option<V> {
        let v = self.cached_temps_of(o)?;
        if self.free_v & (1 << v.0) == 0 {
            return None;
        }
        self.free_v &= !(1 << v.0);
        Some(v)
    }

    /// Records that temporary `v` holds `o` from here on.
    fn cache_temp(&mut self, o: Opd, v: V) {
        if let Some(seg) = self.seg.as_mut() {
            seg.temps.sync(self.a.instructions());
            seg.temps.insert(o, v);
        }
    }

    /// The temporaries holding cached operands, as a bit set: [`Emitter::tmp`] hands them
    /// out last.
    pub(super) fn cached_temps(&mut self) -> u32 {
        match self.seg.as_mut() {
            Some(seg) => {
                seg.temps.sync(self.a.instructions());
                seg.temps.regs()
            }
            None => 0,
        }
    }

    /// Whether operand `o` is in a register now (a home, or a temporary still holding it).
    pub(super) fn in_reg(&mut self, o: Opd) -> bool {
        self.home(o).is_some() || self.cached_temps_of(o).is_some()
    }

    /// Frees `s` if it is a temporary (an operand loaded for one use).
    pub(super) fn release(&mut self, s: Vs) {
        if let Vs::R(v) = s {
            self.free(v);
        }
    }

    /// Source operand `o` in a register.
    pub(super) fn opd_reg(&mut self, o: Opd) -> R<V> {
        match self.opd(o)? {
            Vs::R(v) => Ok(v),
            other => {
                let t = self.tmp()?;
                self.v_mov(t, other)?;
                self.cache_temp(o, t);
                Ok(t)
            }
        }
    }

    /// Source operand `o` in a register the lowering may overwrite.
    pub(super) fn opd_scratch(&mut self, o: Opd) -> R<V> {
        let s = self.opd(o)?;
        match s {
            Vs::R(v) if self.isa.temps().contains(&v.0) => Ok(v),
            other => {
                let t = self.tmp()?;
                self.v_mov(t, other)?;
                Ok(t)
            }
        }
    }

    /// Where the result for VGPR `r` is computed: its home, or a temporary stored by
    /// [`Emitter::put`].
    pub(super) fn dst_reg(&mut self, r: u8) -> R<V> {
        match self.home(Opd::V(r)) {
            Some(h) => Ok(h.reg),
            None => self.tmp(),
        }
    }

    /// Finishes writing VGPR `r` with the value in `v` (from [`Emitter::dst_reg`]).
    pub(super) fn put(&mut self, r: u8, v: V) -> R<()> {
        if let Some(seg) = self.seg.as_mut() {
            seg.zero.retain(|&z| z != r);
            seg.temps.forget(Opd::V(r));
        }
        match self.home(Opd::V(r)) {
            Some(h) => {
                if h.reg != v {
                    self.v_mov(h.reg, Vs::R(v))?;
                }
                if let Some(s) = self.seg.as_mut() {
                    if let Some(hh) = s.homes.get_mut(&Opd::V(r)) {
                        hh.valid = true;
                        hh.dirty = true;
                    }
                }
                Ok(())
            }
            None if self.full_exec => {
                let m = self.vgpr_mem(r);
                self.v_mov_to_mem(m, v)?;
                // All lanes stored: the temporary holds what memory does.
                if self.isa.temps().contains(&v.0) {
                    self.cache_temp(Opd::V(r), v);
                }
                Ok(())
            }
            None => {
                let m = self.vgpr_mem(r);
                let exec = self.isa.exec_mask();
                // AVX2, when a later instruction of the iteration reads the register: a blend
                // and a full store (a temporary permitting), since a read cannot be forwarded
                // from a `vpmaskmovd` store and waits for it to retire.
                let reread = self.seg.as_ref().is_some_and(|g| g.reread);
                if self.isa == Isa::Avx2 && reread && self.free_v != 0 {
                    self.v_store_masked_blend(m, v, exec)
                } else {
                    self.v_store_masked_private(m, v, exec)
                }
            }
        }
    }

    /// Whether the block replaces VGPR `r` after the segment being emitted before reading it,
    /// or nothing reads it (the segment need not store it).
    pub(super) fn dead_out(&self, r: u8) -> bool {
        self.seg.as_ref().is_some_and(|g| g.dead_out.has(r))
    }

    /// Leaves VGPR `r` unwritten (the block replaces it before anything reads it:
    /// [`Emitter::vgpr_unread`]): what the iteration knew of its value no longer holds.
    pub(super) fn unwritten(&mut self, r: u8) {
        if let Some(seg) = self.seg.as_mut() {
            seg.zero.retain(|&z| z != r);
            seg.temps.forget(Opd::V(r));
        }
    }

    /// Whether nothing reads the lane mask the instruction being emitted writes: a lowering
    /// may skip computing it ([`Emitter::mask_out`] then writes nothing).
    pub(super) fn mask_unread(&self) -> bool {
        self.seg.as_ref().is_some_and(|g| g.mask_unread)
    }

    /// Records that VGPR `r` holds zero in every lane for the rest of the iteration (it was
    /// just `put`).
    pub(super) fn known_zero_now(&mut self, r: u8) {
        if let Some(seg) = self.seg.as_mut() {
            seg.zero.push(r);
        }
    }

    /// Whether operand `o` is zero in every lane: the constant 0, or a VGPR known to hold zero
    /// in this iteration.
    pub(super) fn known_zero(&self, o: Opd) -> bool {
        o == Opd::K(0)
            || matches!(o, Opd::V(r) if self.seg.as_ref().is_some_and(|g| g.zero.contains(&r)))
    }

    /// The chunk's bits of lane mask `s` (an SGPR pair) in a mask register (read-only: it may
    /// be the mask's home).
    pub(super) fn mask_in(&mut self, s: u8) -> R<M> {
        if let Some(&(_, m)) = self
            .seg
            .as_ref()
            .and_then(|g| g.masks.iter().find(|(r, _)| *r == s))
        {
            return Ok(m);
        }
        if let Some((_, m)) = self
            .seg
            .as_ref()
            .and_then(|g| g.held)
            .map(|(r, m, _)| (r, m))
            .filter(|&(r, _)| r == s)
        {
            return Ok(m);
        }
        let m = self.mtmp()?;
        let mem = self.mask_mem(s);
        match self.isa {
            Isa::Avx512 => self.a.kmovw(super::vx::kr(m), mem)?,
            Isa::Avx2 => {
                self.a.movzx(eax, mem)?;
                self.m_from_gpr(m, eax)?;
            }
        }
        Ok(m)
    }

    /// Writes lane mask `m`, restricted to the chunk's active lanes, as the chunk's bits of
    /// SGPR pair `s` (and of EXEC too when `exec`).
    pub(super) fn mask_out(&mut self, s: u8, m: M, exec_too: bool) -> R<()> {
        self.mask_out_maybe_inverted(s, m, false, exec_too)
    }

    /// [`Emitter::mask_out`] of a mask that may hold the complement of its value
    /// (`inverted`, from [`Emitter::v_icmp_maybe_inverted`]).
    pub(super) fn mask_out_maybe_inverted(
        &mut self,
        s: u8,
        m: M,
        inverted: bool,
        exec_too: bool,
    ) -> R<()> {
        if !exec_too && self.mask_unread() {
            return Ok(());
        }
        self.m_and_exec(m, inverted)?;
        if let Some(seg) = self.seg.as_mut().filter(|_| !exec_too) {
            if let Some(reader) = seg.hand_out {
                seg.held = Some((s, m, reader));
            }
        }
        let dead = !exec_too && self.seg.as_ref().is_some_and(|g| g.mask_store_dead);
        let acc = self.seg.as_ref().and_then(|g| g.mask_acc);
        if let (Some(r), false) = (acc, exec_too) {
            // This chunk's bits enter at the top; after the last chunk, chunk 0's are at the
            // bottom.
            let bits = 64 / self.isa.chunks() as u32;
            self.m_to_gpr(eax, m)?;
            match self.chunk_at {
                // Unrolled: the chunk's bits go straight to their place.
                Some(k) => {
                    if k > 0 {
                        self.a.shl(rax, bits * k)?;
                    }
                }
                None => {
                    self.a.shr(r, bits)?;
                    self.a.shl(rax, 64 - bits)?;
                }
            }
            self.a.or(r, rax)?;
        } else if !dead {
            self.m_to_gpr(eax, m)?;
            let mem = self.mask_mem(s);
            match self.isa {
                Isa::Avx512 => self.a.mov(mem, ax)?,
                Isa::Avx2 => self.a.mov(mem, al)?,
            }
        }
        if exec_too {
            let e = self.mask_mem(EXEC_LO as u8);
            match self.isa {
                Isa::Avx512 => self.a.mov(e, ax)?,
                Isa::Avx2 => self.a.mov(e, al)?,
            }
        }
        // Keep it in a mask home for the rest of the iteration (the oldest home is reused).
        let homes = self.isa.mask_homes();
        if let (Some(seg), false) = (self.seg.as_mut(), homes.is_empty()) {
            // (A pair overlapping `s` is stale now: only memory has its bits right.)
            seg.masks.retain(|(r, _)| r.abs_diff(s) >= 2);
            let h = homes
                .iter()
                .map(|&h| M(h))
                .find(|h| seg.masks.iter().all(|(_, m)| m != h))
                .unwrap_or_else(|| seg.masks.remove(0).1);
            seg.masks.push((s, h));
            if h != m {
                self.a.kmovw(super::vx::kr(h), super::vx::kr(m))?;
            }
        }
        Ok(())
    }
}

/// Per instruction of a segment: whether the lane mask it writes is written again by a later
/// instruction of the segment before memory could be read (that one's store makes memory
/// right; the chunk loop has no exit between them). Reads in between are allowed where they
/// are served by the mask's register (`cached`: AVX-512 keeps the latest masks in k6/k7, and
/// no other mask written in between can have evicted it).
fn dead_mask_stores(insts: &[(u32, LaneInst)], cached: bool) -> Vec<bool> {
    (0..insts.len())
        .map(|k| {
            let li = &insts[k].1;
            let Some(s) = li.mask_out.filter(|_| !li.writes_exec) else {
                return false;
            };
            for (_, later) in &insts[k + 1..] {
                if as_value(later, s) {
                    return false;
                }
                // (A read of exactly `s` comes from its register while it is cached.)
                if as_mask(later, s) && !(cached && later.mask_in == Some(s)) {
                    return false;
                }
                match later.mask_out {
                    Some(t) if t == s && !later.writes_exec => return true,
                    Some(_) => return false,
                    None => {}
                }
            }
            false
        })
        .collect()
}

/// AVX2, per instruction of a segment: the instruction its lane mask goes to in its register
/// (the first that reads the pair, as its carry-in or select mask and nothing else of it,
/// with only instructions between that neither touch lane masks nor take mask temporaries),
/// and whether its store is then dead (the pair is written whole again before anything else
/// reads memory's copy: a `v_add_co`/`v_addc` pair, or compares feeding `v_cndmask`es).
fn handoffs(insts: &[(u32, LaneInst)]) -> Vec<(Option<usize>, bool)> {
    use super::select::LaneOp;
    use crate::exec::int32::Int32::{self, *};
    let mask_op = |op: Int32| matches!(op, AddCo | SubCo | SubRevCo | Addc | Subb | SubbRev);
    // Lowerings that take no mask temporary and touch no lane mask may run in between: a
    // 64-bit shift too (an address's `v_lshlrev_b64` sits between the carry pair of the
    // address before it), unless it is arithmetic by a lane-varying count.
    let passes = |li: &LaneInst| {
        li.mask_in.is_none()
            && li.mask_out.is_none()
            && match li.op {
                LaneOp::Int(op) => !mask_op(op) && !matches!(op, Cndmask | MulHiU),
                LaneOp::Int16(_) | LaneOp::Bits(_) => true,
                LaneOp::Shift64(kind) => kind != 2 || matches!(li.src[0][0], Opd::K(_)),
                _ => false,
            }
    };
    (0..insts.len())
        .map(|k| {
            let li = &insts[k].1;
            let Some(s) = li
                .mask_out
                .filter(|&s| !li.writes_exec && s.abs_diff(EXEC_LO as u8) >= 2)
            else {
                return (None, false);
            };
            let mut j = k + 1;
            while j < insts.len() && passes(&insts[j].1) && !as_value(&insts[j].1, s) {
                j += 1;
            }
            let Some((_, reader)) = insts.get(j) else {
                return (None, false);
            };
            let reads = matches!(reader.op, LaneOp::Int(Addc | Subb | SubbRev | Cndmask));
            if !reads || reader.mask_in != Some(s) || as_value(reader, s) {
                return (None, false);
            }
            // Dead: the pair is written whole before any other read of memory's copy.
            let writes = |li: &LaneInst| match li.mask_out {
                Some(t) if t == s && !li.writes_exec => Some(true),
                Some(t) if t.abs_diff(s) < 2 => Some(false),
                _ => None,
            };
            if let Some(w) = writes(reader) {
                return (Some(j), w);
            }
            for (_, later) in &insts[j + 1..] {
                if as_value(later, s) || as_mask(later, s) {
                    return (Some(j), false);
                }
                if let Some(w) = writes(later) {
                    return (Some(j), w);
                }
            }
            (Some(j), false)
        })
        .collect()
}

/// Per instruction of a segment: the accumulator (index into [`MASK_ACCS`]) that collects the
/// lane mask it writes, when nothing later in the segment reads or writes that mask (so memory
/// may wait for the end of the loop; reads earlier in the iteration see memory's old chunk
/// bits, as they would with per-chunk stores). EXEC and compares that also write EXEC keep
/// per-chunk stores: the next chunk's iteration reads its EXEC bits from memory.
fn mask_accumulators(insts: &[(u32, LaneInst)], unread: &[bool]) -> Vec<Option<usize>> {
    let mut next = 0;
    (0..insts.len())
        .map(|k| {
            let li = &insts[k].1;
            let s = li.mask_out.filter(|_| !li.writes_exec)?;
            if s.abs_diff(EXEC_LO as u8) < 2
                || s % 2 != 0
                || unread[k]
                || insts[k + 1..].iter().any(|(_, later)| touches(later, s))
                || next == MASK_ACCS.len()
            {
                return None;
            }
            next += 1;
            Some(next - 1)
        })
        .collect()
}

/// Whether lane instruction `li` reads an SGPR of the pair at `s` as a uniform value.
fn as_value(li: &LaneInst, s: u8) -> bool {
    // (`s - 1` is not in the pair.)
    li.sgpr_values().any(|r| r.wrapping_sub(s) < 2)
}

/// Whether lane instruction `li` reads an SGPR of the pair at `s` as its lane mask.
fn as_mask(li: &LaneInst, s: u8) -> bool {
    li.mask_in.is_some_and(|m| m.abs_diff(s) < 2)
}

/// Whether lane instruction `li` reads or writes any SGPR of the pair at `s`.
fn touches(li: &LaneInst, s: u8) -> bool {
    as_value(li, s) || as_mask(li, s) || li.mask_out.is_some_and(|m| m.abs_diff(s) < 2)
}

/// Per instruction of a segment: whether the lane mask it writes is never read: nothing later
/// in the segment touches it, and the rest of the block writes it before reading it
/// (`dead_after`). Such a mask is neither stored nor collected.
fn unread_masks(insts: &[(u32, LaneInst)], dead_after: u128) -> Vec<bool> {
    (0..insts.len())
        .map(|k| {
            let li = &insts[k].1;
            li.mask_out
                .filter(|&s| !li.writes_exec && s.abs_diff(EXEC_LO as u8) >= 2)
                .is_some_and(|s| {
                    super::mask_live::mask_dead(dead_after, s)
                        && !insts[k + 1..].iter().any(|(_, later)| touches(later, s))
                })
        })
        .collect()
}

/// Per instruction of a segment: whether a later instruction reads a VGPR it writes.
fn rereads(insts: &[(u32, LaneInst)]) -> Vec<bool> {
    let reads = |li: &LaneInst, r: u8| {
        (0..li.n).any(|i| {
            let k = if li.wide[i] { 2 } else { 1 };
            li.src[i][..k].contains(&Opd::V(r))
        })
    };
    (0..insts.len())
        .map(|k| {
            insts[k]
                .1
                .vgpr_writes()
                .any(|r| insts[k + 1..].iter().any(|(_, later)| reads(later, r)))
        })
        .collect()
}

/// A total order on operands for stable home assignment.
fn o_key(o: Opd) -> (u8, u32) {
    match o {
        Opd::V(r) => (0, u32::from(r)),
        Opd::S(s) => (1, u32::from(s)),
        Opd::K(k) => (2, k),
    }
}
