//! The common global access inline: a full wave whose 64 lanes load or store one dword
//! each at consecutive addresses (lane l at `base + 4l`), a streaming kernel's every access.
//! The stub of its shape (`mem_vector.rs`) does the same work after a call, a search for the
//! first and last active lanes and the set-up of its general checks; here the call site
//! checks the lanes itself and moves the data, about 40 host instructions fewer per access.
//! Anything else (a partial wave, a site the stub marked for its rows path or its countdown,
//! lanes not consecutive, a miss of the site's range cache) calls the stub as before, which
//! decides everything again from the start: this path only ever takes the stub's fast case.
//!
//! Only a kernel with at most [`INLINE_MAX`] such accesses inlines them (all of them): each
//! adds about 90 instructions of code, run once per wave. In a kernel with many (the
//! reduction's sixteen strided loads) the larger code ran slower than the calls it saved
//! (0.90x on the 2-core machine, 0.72-1.00x on the 16-core one, though 6% fewer host
//! instructions): its per-wave code no longer fits the decoded-instruction cache.

use super::emit::{bind, sreg64, Emitter, EXEC, R, W_LIN};
use super::lane_linear::covered;
use super::lane_rep::rep_offset;
use super::mem_vector::{
    mark_unfenced, move_group, move_wave, prefetch_ahead, J_SITES, LANE_OFFSETS32, SITE_BYTES,
    SITE_DELTA, SITE_HINT,
};
use super::plan::{Item, Plan};
use super::select::{Kind, VmemInst};
use super::vx::{lane_dword, Isa};
use iced_x86::code_asm::*;

/// The most global dword accesses a kernel may have for them to be inlined.
pub(super) const INLINE_MAX: usize = 4;

impl Emitter<'_> {
    /// For access `m` (instruction `i`) at range-cache `site`: the inline paths that apply
    /// (they fall through to `stub` for the stub's call, and jump to `done` after a move).
    pub(super) fn vmem_inline(
        &mut self,
        i: u32,
        m: &VmemInst,
        site: u32,
        stub: CodeLabel,
        done: CodeLabel,
    ) -> R<()> {
        // (`Some(narrow)`: proven, in rows of 16-32 lanes only.)
        let lin = self.linear.linear(i);
        if lin == Some(false) && m.saddr.is_some() {
            return self.lin_saddr_access(m, site, stub, done);
        }
        if !covered(m) || !(lin.is_some() || self.inline_vmem) {
            return Ok(());
        }
        let mut checked = self.a.create_label();
        if let Some(narrow) = lin {
            let fallback = if self.inline_vmem { checked } else { stub };
            if narrow {
                self.lin_rows_access(m, site, true, fallback, stub, done)?;
            } else if self.linear.rows {
                let mut rows = self.a.create_label();
                self.lin_access(m, site, rows, stub, done)?;
                bind(&mut self.a, &mut rows)?;
                self.lin_rows_access(m, site, false, fallback, stub, done)?;
            } else {
                self.lin_access(m, site, fallback, stub, done)?;
            }
        }
        if self.inline_vmem {
            bind(&mut self.a, &mut checked)?;
            self.checked_access(m, site, stub, done)?;
        }
        Ok(())
    }

    /// A lane-linear access whose address the segment before it computed in its first and
    /// last chunks alone (`addr_defer.rs`): [`Self::lin_access`]'s fast path; every other way
    /// on first completes the middle chunks of a full wave, then goes on past here, to the
    /// access's usual paths.
    pub(super) fn deferred_access(
        &mut self,
        m: &VmemInst,
        site: u32,
        d: super::addr_defer::Deferred,
        done: CodeLabel,
    ) -> R<()> {
        let mut complete = self.a.create_label();
        self.lin_access(m, site, complete, complete, done)?;
        bind(&mut self.a, &mut complete)?;
        // (A partial wave ran every chunk of the segment.)
        let mut partial = self.a.create_label();
        super::emit::unless_full_wave(&mut self.a, partial)?;
        self.complete_deferred(d)?;
        bind(&mut self.a, &mut partial)
    }

    /// A lane-linear access (`lane_linear.rs`): in a wave of one row (`Wave::lin_rows` 64,
    /// else on to `fallback`), lane l's address is lane 0's + 4l exactly when lane 63's is
    /// lane 0's + 252.
    fn lin_access(
        &mut self,
        m: &VmemInst,
        site: u32,
        fallback: CodeLabel,
        stub: CodeLabel,
        done: CodeLabel,
    ) -> R<()> {
        self.lin_gate(site, fallback, stub)?;
        let a = &mut self.a;
        let (lo, hi) = (256 * i32::from(m.vaddr), 256 * i32::from(m.vaddr) + 256);
        a.mov(eax, dword_ptr(r13 + lo))?;
        a.mov(r8d, dword_ptr(r13 + hi))?;
        a.shl(r8, 32)?;
        a.or(r8, rax)?;
        lane_dword(a, self.isa, ecx, r13, lo + 252, xmm0)?;
        lane_dword(a, self.isa, edx, r13, hi + 252, xmm0)?;
        a.shl(rdx, 32)?;
        a.or(rdx, rcx)?;
        a.lea(rcx, qword_ptr(r8 + 252))?;
        a.cmp(rcx, rdx)?;
        a.jne(stub)?;
        self.inline_move(m, stub, done)
    }

    /// A lane-linear `saddr` access: in a wave of one row (else on to `stub`), lane l's
    /// offset is lane 0's + 4l unless lane 0's is within 252 of 2^32.
    fn lin_saddr_access(
        &mut self,
        m: &VmemInst,
        site: u32,
        stub: CodeLabel,
        done: CodeLabel,
    ) -> R<()> {
        let base = m.saddr.ok_or_else(|| super::emit::err("saddr"))?;
        self.lin_gate(site, stub, stub)?;
        let a = &mut self.a;
        a.mov(eax, dword_ptr(r13 + 256 * i32::from(m.vaddr)))?;
        a.cmp(eax, (u32::MAX - 252) as i32)?;
        a.ja(stub)?;
        a.mov(r8, sreg64(base))?;
        a.add(r8, rax)?;
        self.inline_move(m, stub, done)
    }

    /// A wave of one row (`Wave::lin_rows` 64, else on to `fallback`), then
    /// [`Self::site_fast`].
    fn lin_gate(&mut self, site: u32, fallback: CodeLabel, stub: CodeLabel) -> R<()> {
        self.a.cmp(byte_ptr(rbx + W_LIN), 64)?;
        self.a.jne(fallback)?;
        self.site_fast(site, stub)
    }

    /// A lane-linear access in a wave of rows of 16 or more lanes (`Wave::lin_rows`; only 16
    /// or 32 when proven for `narrow` rows; else on to `fallback`): along each group of 16
    /// lanes (inside one row) lane l's address is
    /// the group's first + 4l exactly when the first's low dword does not carry within the
    /// group and the last lane's high dword is the first's (`lane_linear.rs`: a wrap of the
    /// index would move the last lane by c·2^32). Each group's 64 bytes are checked against
    /// the site's range, then all four move (in lane order: where a store's groups overlap,
    /// the highest lane's value stays, as in the interpreter).
    fn lin_rows_access(
        &mut self,
        m: &VmemInst,
        site: u32,
        narrow: bool,
        fallback: CodeLabel,
        stub: CodeLabel,
        done: CodeLabel,
    ) -> R<()> {
        self.rows_access(m, site, narrow, None, fallback, stub, done)
    }

    /// Load `m` (instruction `i`) on the rows path with its address from `Wave::rep`, where
    /// the segment before it ran on a few lanes and left the address VGPRs unfilled
    /// (`lane_rep.rs`, `RepFile::lazy` set; rsi = `Wave::rep`): the rows' first and last
    /// lanes are there. Anything else goes to `refill`, which fills the VGPRs and takes the
    /// load's usual paths.
    pub(super) fn rep_rows_access(
        &mut self,
        i: u32,
        m: &VmemInst,
        site: u32,
        refill: CodeLabel,
        done: CodeLabel,
    ) -> R<()> {
        let narrow = self.linear.linear(i) == Some(true);
        self.rows_access(m, site, narrow, Some(rsi), refill, refill, done)
    }

    /// [`Self::lin_rows_access`], the addresses' first and last lanes of each group read from
    /// the VGPRs, or from `Wave::rep` at `rep`.
    #[allow(clippy::too_many_arguments)]
    fn rows_access(
        &mut self,
        m: &VmemInst,
        site: u32,
        narrow: bool,
        rep: Option<AsmRegister64>,
        fallback: CodeLabel,
        stub: CodeLabel,
        done: CodeLabel,
    ) -> R<()> {
        rows_gate(&mut self.a, narrow, fallback)?;
        // A countdown to the general path is the stub's to follow (the rows hint is not).
        self.site_hinted(site, stub, 0xfe)?;
        let a = &mut self.a;
        // rdx = the highest offset into the site's range a group may start at.
        a.mov(rdx, qword_ptr(r11 + 8))?;
        a.sub(rdx, qword_ptr(r11))?;
        a.jbe(stub)?;
        a.sub(rdx, 64)?;
        a.jb(stub)?;
        let (lo, hi) = (256 * i32::from(m.vaddr), 256 * i32::from(m.vaddr) + 256);
        let groups = [(r8, r8d), (r9, r9d), (r10, r10d), (rdi, edi)];
        for (g, &(r, r32)) in groups.iter().enumerate() {
            match rep {
                // Group g's first and last lanes, where the run left them.
                Some(base) => {
                    let (first, last) = (16 * g as u32, 16 * g as u32 + 15);
                    a.mov(eax, dword_ptr(base + rep_offset(m.vaddr, first)?))?;
                    a.cmp(eax, (u32::MAX - 60) as i32)?;
                    a.ja(stub)?;
                    a.mov(r32, dword_ptr(base + rep_offset(m.vaddr + 1, first)?))?;
                    a.mov(ecx, dword_ptr(base + rep_offset(m.vaddr + 1, last)?))?;
                }
                None => {
                    let g = 64 * g as i32;
                    a.mov(eax, dword_ptr(r13 + (lo + g)))?;
                    a.cmp(eax, (u32::MAX - 60) as i32)?;
                    a.ja(stub)?;
                    a.mov(r32, dword_ptr(r13 + (hi + g)))?;
                    lane_dword(a, self.isa, ecx, r13, hi + g + 60, xmm0)?;
                }
            }
            a.cmp(r32, ecx)?;
            a.jne(stub)?;
            a.shl(r, 32)?;
            a.or(r, rax)?;
            if m.offset != 0 {
                a.add(r, m.offset)?;
            }
            a.mov(rcx, r)?;
            a.sub(rcx, qword_ptr(r11))?;
            a.cmp(rcx, rdx)?;
            a.ja(stub)?;
        }
        if !m.load {
            mark_unfenced(a)?;
        }
        a.mov(rcx, qword_ptr(r11 + SITE_DELTA))?;
        let data = 256 * i32::from(m.data);
        for (g, &(r, _)) in groups.iter().enumerate() {
            let v = r13 + (data + 64 * g as i32);
            move_group(a, self.isa, m.load, v, r + rcx)?;
        }
        a.jmp(done)?;
        Ok(())
    }

    /// A full wave (else on to `stub`) and a site without a hint: r11 = the site.
    fn site_fast(&mut self, site: u32, stub: CodeLabel) -> R<()> {
        // A hint (rows, or the countdown to the general path) is the stub's to follow.
        self.site_hinted(site, stub, 0xff)
    }

    /// A full wave (else on to `stub`) and a site without any of the `hints` bits: r11 =
    /// the site.
    fn site_hinted(&mut self, site: u32, stub: CodeLabel, hints: i32) -> R<()> {
        let at = SITE_BYTES * site as i32;
        let a = &mut self.a;
        a.cmp(sreg64(EXEC), -1)?;
        a.jne(stub)?;
        // Base registers keep the displacements below in one byte: the code of a kernel
        // with many accesses stays small (its every access runs once per wave, from the
        // decoders rather than the op cache).
        a.mov(r11, qword_ptr(r12 + J_SITES))?;
        a.add(r11, at)?;
        a.test(byte_ptr(r11 + SITE_HINT), hints)?;
        a.jnz(stub)?;
        Ok(())
    }

    /// Any global dword access of a full wave: every lane's address checked.
    fn checked_access(
        &mut self,
        m: &VmemInst,
        site: u32,
        stub: CodeLabel,
        done: CodeLabel,
    ) -> R<()> {
        self.site_fast(site, stub)?;
        let a = &mut self.a;
        a.lea(rdi, qword_ptr(r13 + 256 * i32::from(m.vaddr)))?;
        a.lea(rsi, qword_ptr(rdi + 256))?;
        // Lane 0's low dword; lane 63's, 252 above it, must not carry out of the low dword.
        a.mov(eax, dword_ptr(rdi))?;
        a.cmp(eax, (u32::MAX - 252) as i32)?;
        a.ja(stub)?;
        // Every lane's low dword lane 0's + 4l, every high dword lane 0's: the differences
        // (xor) of all chunks collected in one register.
        a.mov(r8d, dword_ptr(rsi))?;
        a.mov(rcx, LANE_OFFSETS32[0].as_ptr() as u64)?;
        match self.isa {
            Isa::Avx2 => {
                a.vmovd(xmm0, eax)?;
                a.vpbroadcastd(ymm0, xmm0)?;
                a.vmovd(xmm1, r8d)?;
                a.vpbroadcastd(ymm1, xmm1)?;
                a.vpxor(ymm4, ymm4, ymm4)?;
                for c in 0..8 {
                    a.vpaddd(ymm2, ymm0, ymmword_ptr(rcx + 32 * c))?;
                    a.vpxor(ymm2, ymm2, ymmword_ptr(rdi + 32 * c))?;
                    a.vpxor(ymm3, ymm1, ymmword_ptr(rsi + 32 * c))?;
                    a.vpor(ymm4, ymm4, ymm2)?;
                    a.vpor(ymm4, ymm4, ymm3)?;
                    if c == 0 {
                        // Scattered lanes differ in the first chunk: leave at once.
                        a.vptest(ymm4, ymm4)?;
                        a.jnz(stub)?;
                    }
                }
                a.vptest(ymm4, ymm4)?;
                a.jnz(stub)?;
            }
            Isa::Avx512 => {
                a.vpbroadcastd(zmm0, eax)?;
                a.vpbroadcastd(zmm1, r8d)?;
                a.vpxord(zmm4, zmm4, zmm4)?;
                for c in 0..4 {
                    a.vpaddd(zmm2, zmm0, zmmword_ptr(rcx + 64 * c))?;
                    a.vpxord(zmm2, zmm2, zmmword_ptr(rdi + 64 * c))?;
                    a.vpxord(zmm3, zmm1, zmmword_ptr(rsi + 64 * c))?;
                    // zmm4 |= zmm2 | zmm3
                    a.vpternlogd(zmm4, zmm2, zmm3, 0xfe)?;
                    if c == 0 || c == 3 {
                        // (After the first chunk: scattered lanes leave at once.)
                        a.vptestmd(k2, zmm4, zmm4)?;
                        a.kortestw(k2, k2)?;
                        a.jnz(stub)?;
                    }
                }
            }
        }
        a.shl(r8, 32)?;
        a.add(r8, rax)?;
        self.inline_move(m, stub, done)
    }

    /// The access of a wave whose lanes were found consecutive from r8 = lane 0's address,
    /// r11 = the site: the span [r8 + offset, + 256) against the site's proven range (a miss
    /// is the stub's: it asks the checker), then the move.
    fn inline_move(&mut self, m: &VmemInst, stub: CodeLabel, done: CodeLabel) -> R<()> {
        let a = &mut self.a;
        if m.offset != 0 {
            a.add(r8, m.offset)?;
        }
        a.cmp(r8, qword_ptr(r11))?;
        a.jb(stub)?;
        a.lea(rcx, qword_ptr(r8 + 256))?;
        a.cmp(rcx, qword_ptr(r11 + 8))?;
        a.ja(stub)?;
        a.cmp(rcx, r8)?;
        a.jbe(stub)?;
        if !m.load {
            mark_unfenced(a)?;
        }
        a.add(r8, qword_ptr(r11 + SITE_DELTA))?;
        prefetch_ahead(a, m.load, 256, self.far_prefetch)?;
        move_wave(
            a,
            self.isa,
            m.load,
            (r13, 256 * i32::from(m.data)),
            (r8, 0),
            false,
        )?;
        a.jmp(done)?;
        Ok(())
    }
}

/// A wave of rows of 16 lanes or more (`Wave::lin_rows`), below 64 if `narrow`; else on to
/// `fallback`.
pub(super) fn rows_gate(a: &mut CodeAssembler, narrow: bool, fallback: CodeLabel) -> R<()> {
    a.cmp(byte_ptr(rbx + W_LIN), 16)?;
    a.jb(fallback)?;
    if narrow {
        a.cmp(byte_ptr(rbx + W_LIN), 64)?;
        a.jae(fallback)?;
    }
    Ok(())
}

/// Whether the kernel of `plan` inlines its global dword accesses (it has at most
/// [`INLINE_MAX`]).
pub(super) fn inlines(plan: &Plan) -> bool {
    let n = plan
        .blocks
        .iter()
        .flat_map(|b| &b.items)
        .filter(|it| matches!(it, Item::Op(_, Kind::Vmem(m)) if covered(m)))
        .count();
    n <= INLINE_MAX
}
