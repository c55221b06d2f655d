//! Global and flat loads and stores of 1, 2 or 4 dwords per lane, wave-wide, as calls to
//! shared subroutines ("stubs", one per access shape, emitted once per kernel): the call site
//! passes its registers, the stub does the work. That keeps the code of a kernel small (it
//! compiles faster and stays in the instruction cache) for the price of a call. (Bytes and
//! shorts: `mem_narrow.rs`, with the same interface.)
//!
//! The common case is decided with 32-bit compares: the active lanes' addresses are
//! consecutive (lane l at `base + size * l`, no carry between the address halves), so the
//! access is one span check and masked vector moves (fault suppression keeps inactive lanes
//! from touching memory). Lanes in rows (each group of 8 consecutive) take one span check and
//! a move per group (`rows_512`, `mem_rows.rs` on AVX2). Otherwise, on AVX-512, the addresses
//! are built as qwords (32-bit offsets from a uniform base stay dwords, and so do address
//! pairs whose active lanes share their high dword: `mem_gather32.rs`),
//! their span is checked from their minimum and maximum, and gathers and scatters move the
//! data (scatters write in lane order, as the interpreter does, so the highest lane wins where
//! lanes overlap); AVX2 moves them lane by lane (`mem_lanes.rs`; loads of offsets gather).
//! Every naturally aligned 8-byte piece of a multi-dword access moves as one
//! 8-byte element (single-copy atomicity, `docs/MEMORY_MODEL.md`); a multi-dword access that
//! is not 8-byte aligned goes to the interpreter.
//!
//! Stub interface: rdi = the address VGPR (its 64 lanes), rsi = the data VGPR, rdx = the
//! uniform part of the address (the offset, plus the `saddr` base), r9d = the instruction's
//! range-cache site. Returns eax = 0 (done) or 1 (the interpreter must run the instruction).

use super::emit::{bind, sreg64, unless_full_wave, Emitter, EXEC, R, W_S, W_UNFENCED};
use super::lane_rep::{REP_LAZY, W_REP};
use super::select::{SubDword, VmemInst};
use super::vx::{lane_dword, zr, Isa, V};
use super::JitCtx;
use crate::wave::UNFENCED_VECTOR;
use iced_x86::code_asm::*;
use std::mem::offset_of;

/// `JitCtx::sites`: the worker's per-instruction `Site` entries.
pub(super) const J_SITES: i32 = offset_of!(JitCtx, sites) as i32;
/// Bytes of one `Site` entry.
pub(super) const SITE_BYTES: i32 = std::mem::size_of::<crate::memory::Site>() as i32;
/// `Site::hint`: the JIT's notes.
pub(super) const SITE_HINT: i32 = offset_of!(crate::memory::Site, hint) as i32;
/// `Site::delta`: host address = address + delta.
pub(super) const SITE_DELTA: i32 = offset_of!(crate::memory::Site, delta) as i32;
/// `Site::hint`: the rows path served the site.
const ROWS_HINT: i32 = 1;
/// `Site::hint` above bit 0: a countdown (in steps of 2) of calls that go straight to the
/// general path because the fast paths failed at the site. Data-dependent indices (a private
/// array indexed by data, a gather through a table) fail the consecutive and rows checks
/// every time, and each failed try costs about 50 instructions before the general path; the
/// countdown makes every 64th call try them again, so a site whose lanes become
/// consecutive (or one a partial wave misled) is fast again soon.
pub(super) const SKIP_HINTS: i32 = 2 * 63;
const J_SPAN: i32 = offset_of!(JitCtx, span) as i32;
/// `JitCtx::buf_base` (`buf_reuse.rs`).
pub(super) const J_BUF_BASE: i32 = offset_of!(JitCtx, buf_base) as i32;

/// Byte offsets `size * lane` of the 64 lanes, as dwords and as qwords (sizes 4, 8, 16).
pub(super) static LANE_OFFSETS32: [[u32; 64]; 3] = lane_offsets32();
static LANE_OFFSETS64: [[u64; 64]; 3] = lane_offsets64();

const fn lane_offsets32() -> [[u32; 64]; 3] {
    let mut t = [[0u32; 64]; 3];
    let mut s = 0;
    while s < 3 {
        let mut l = 0;
        while l < 64 {
            t[s][l] = (4 << s) * l as u32;
            l += 1;
        }
        s += 1;
    }
    t
}

const fn lane_offsets64() -> [[u64; 64]; 3] {
    let mut t = [[0u64; 64]; 3];
    let mut s = 0;
    while s < 3 {
        let mut l = 0;
        while l < 64 {
            t[s][l] = (4 << s) * l as u64;
            l += 1;
        }
        s += 1;
    }
    t
}

/// For [`Emitter::rows_512`]: the byte offsets 4i of lanes within a group of 8 (twice), then
/// the `vpermd` indices that spread each group's first lane over the group.
static ROW_OFFSETS: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut i = 0;
    while i < 16 {
        t[i] = 4 * (i as u32 % 8);
        t[16 + i] = if i < 8 { 0 } else { 8 };
        i += 1;
    }
    t
};

fn size_index(dwords: u8) -> usize {
    match dwords {
        1 => 0,
        2 => 1,
        _ => 2,
    }
}

/// The chunk's EXEC bits: 16 (AVX-512 chunk c) at byte 2c.
pub(super) fn exec_word(c: i32) -> AsmMemoryOperand {
    word_ptr(rbx + (W_S + 4 * i32::from(EXEC) + 2 * c))
}

/// EXEC bits of lanes 8g..8g+7.
pub(super) fn exec_byte(g: i32) -> AsmMemoryOperand {
    byte_ptr(rbx + (W_S + 4 * i32::from(EXEC) + g))
}

/// AVX2, lanes 8g..8g+7: on to `skip` when none is active, else `mask` = their dword masks
/// (from the EXEC byte-mask table at r15). Clobbers ecx.
pub(super) fn group_mask_or_skip(
    a: &mut CodeAssembler,
    g: i32,
    mask: AsmRegisterYmm,
    skip: CodeLabel,
) -> R<()> {
    a.movzx(ecx, exec_byte(g))?;
    a.test(ecx, ecx)?;
    a.jz(skip)?;
    a.shl(ecx, 5)?;
    a.vmovdqu(mask, ymmword_ptr(r15 + rcx))?;
    Ok(())
}

/// Writes VGPR lanes as one plain 64-byte store: `t` = the 16 lanes at `dst`, `fill` puts
/// the new values into `t` under a mask (merge-masking keeps the other lanes), then `t` goes
/// back whole. The segment that reads the register next gets it forwarded from the store
/// buffer; after a masked store (`vmovdqu32 [dst]{k1}`) the read waits for the store to
/// reach the cache, about 20 cycles (measured on Zen 4: 0.6 ns per plain store-load round,
/// 6.8 ns with a masked store).
pub(super) fn merge_chunk(
    a: &mut CodeAssembler,
    dst: AsmMemoryOperand,
    t: AsmRegisterZmm,
    fill: impl FnOnce(&mut CodeAssembler, AsmRegisterZmm) -> R<()>,
) -> R<()> {
    a.vmovdqu32(t, zmmword_ptr(dst))?;
    fill(a, t)?;
    a.vmovdqu32(zmmword_ptr(dst), t)?;
    Ok(())
}

/// `vpermt2d` indices that take the low (then the high) dwords of 16 qwords in two tables.
static DEINTERLEAVE: [[u32; 16]; 2] = deinterleave();

const fn deinterleave() -> [[u32; 16]; 2] {
    let mut t = [[0u32; 16]; 2];
    let mut i = 0;
    while i < 16 {
        t[0][i] = 2 * i as u32;
        t[1][i] = 2 * i as u32 + 1;
        i += 1;
    }
    t
}

/// The shape of a vector memory access a stub serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct VmemShape {
    pub load: bool,
    pub dwords: u8,
    /// Addresses are VGPR pairs (else a 32-bit VGPR offset added to the uniform base).
    pub pair: bool,
    /// A byte or short per lane (`mem_narrow.rs`; `dwords` is 1).
    pub sub: Option<SubDword>,
    /// A sub-dword scratch access: consecutive lanes are 4 bytes apart (the swizzle).
    pub swizzled: bool,
    /// A FLAT access of dwords: lanes in the private aperture may take `mem_private.rs`.
    pub flat: bool,
    /// Dwords at consecutive addresses by construction (scratch through MUBUF without
    /// per-lane offsets, `mem_buffer.rs`): the stub compares no lanes.
    pub consecutive: bool,
    /// A read-modify-write's load (`buf_reuse.rs`): where its lanes take the offsets path
    /// into scratch, the stub keeps the base for the store in `JitCtx::buf_base`.
    pub keep_base: bool,
}

impl Emitter<'_> {
    /// A global/flat load or store: a call to the stub of its shape.
    pub(super) fn vmem(&mut self, i: u32, m: &VmemInst) -> R<()> {
        let shape = VmemShape {
            load: m.load,
            dwords: m.dwords,
            // A buffer access becomes 32-bit lane offsets from a uniform base (`mem_buffer.rs`).
            pair: m.saddr.is_none() && m.buf.is_none(),
            sub: m.sub,
            swizzled: m.sub.is_some() && m.buf.is_some(),
            flat: m.flat && m.sub.is_none(),
            consecutive: m.sub.is_none() && m.buf.is_some_and(|b| !b.offen),
            keep_base: m.load && self.buf_reuse.iter().any(|&(l, _)| l == i),
        };
        let mut done = self.a.create_label();
        let slow = self.slow_callout(i, done)?;
        if shape.keep_base {
            // (Every path but the stub's offsets path leaves it so.)
            self.a.mov(qword_ptr(r12 + J_BUF_BASE), 0)?;
        }
        // (An address the segment before left to complete is not a load's: not reused.)
        let deferred = self.deferred.as_ref().is_some_and(|d| d.at == i);
        if !m.load && !deferred && self.buf_reuse.iter().any(|&(_, s)| s == i) {
            self.store_at_kept_base(m, done)?;
        }
        let site = self.sites;
        self.sites += 1;
        let mut stub = self.a.create_label();
        if let Some(d) = self.deferred.take().filter(|d| d.at == i) {
            self.deferred_access(m, site, d, done)?;
        }
        let lazy = self.rep_lazy.as_ref().filter(|l| l.loads.contains(&i));
        if let Some(fill) = lazy.map(|l| l.fill) {
            // The segment before ran on a few lanes and left the address unfilled.
            let (mut usual, mut refill) = (self.a.create_label(), self.a.create_label());
            let a = &mut self.a;
            a.mov(rsi, qword_ptr(rbx + W_REP))?;
            a.cmp(dword_ptr(rsi + REP_LAZY), 0)?;
            a.je(usual)?;
            self.rep_rows_access(i, m, site, refill, done)?;
            bind(&mut self.a, &mut refill)?;
            self.a.call(fill)?;
            bind(&mut self.a, &mut usual)?;
        }
        self.vmem_inline(i, m, site, stub, done)?;
        bind(&mut self.a, &mut stub)?;
        if let Some(b) = m.buf {
            self.buffer_address(m, b, slow)?;
        } else {
            address_operands(&mut self.a, m.vaddr, m.saddr, m.offset)?;
        }
        let a = &mut self.a;
        a.lea(rsi, qword_ptr(r13 + 256 * i32::from(m.data)))?;
        a.mov(r9d, site)?;
        self.call_stub(super::stubs::Stub::Vmem(shape))?;
        let a = &mut self.a;
        a.test(eax, eax)?;
        a.jnz(slow)?;
        bind(a, &mut done)
    }

    /// Emits the stub for vector accesses of `shape` (see the module documentation).
    pub(super) fn vmem_stub(&mut self, shape: VmemShape) -> R<()> {
        if shape.sub.is_some() {
            return self.narrow_vmem_stub(shape);
        }
        let isa = self.isa;
        let size = 4 * i32::from(shape.dwords);
        let a = &mut self.a;
        let mut top = a.create_label();
        let mut ok = a.create_label();
        let mut slow = a.create_label();
        let mut scattered = a.create_label();
        a.sub(rsp, 8)?; // 16-byte alignment for the span call
        bind(a, &mut top)?;
        a.mov(rcx, sreg64(EXEC))?;
        a.test(rcx, rcx)?;
        a.jz(ok)?;
        // First active lane f (r10), last active lane (r11).
        a.tzcnt(r10, rcx)?;
        a.lzcnt(r11, rcx)?;
        a.neg(r11)?;
        a.add(r11, 63)?;
        if shape.flat {
            let mut global = a.create_label();
            self.flat_private(shape, global, top, slow)?;
            self.a.jmp(ok)?;
            bind(&mut self.a, &mut global)?;
        }
        let a = &mut self.a;
        if shape.dwords == 3 {
            // AVX2 moves three dwords per lane lane by lane, consecutive or not; AVX-512's
            // paths are for 1, 2 and 4 dwords, so it leaves them to the interpreter.
            match isa {
                Isa::Avx2 => a.jmp(scattered)?,
                Isa::Avx512 => a.jmp(slow)?,
            }
        }
        // The general path (dword accesses): from the fast paths' failure, which starts the
        // site's countdown, and straight from here while it runs.
        let mut general = a.create_label();
        let mut general_skip = a.create_label();
        if shape.consecutive {
            // Lane l at rdx + size * l by construction: nothing to compare.
            a.mov(r8, rdx)?;
        } else if shape.dwords == 1 {
            a.imul_3(rax, r9, SITE_BYTES)?;
            a.add(rax, qword_ptr(r12 + J_SITES))?;
            // (A site without hints, the common case, pays one test.)
            let mut unhinted = a.create_label();
            a.test(byte_ptr(rax + SITE_HINT), 0xff)?;
            a.jz(unhinted)?;
            // A site whose lanes came in rows last time (2-D work-groups) skips the check for
            // consecutive lanes, which would fail at the second row.
            a.test(byte_ptr(rax + SITE_HINT), ROWS_HINT)?;
            a.jnz(scattered)?;
            a.sub(byte_ptr(rax + SITE_HINT), 2)?;
            a.jmp(general_skip)?;
            bind(a, &mut unhinted)?;
        }
        if !shape.consecutive {
            let table = LANE_OFFSETS32[size_index(shape.dwords)].as_ptr() as u64;
            self.consecutive_base(size, shape.pair, table, scattered)?;
        }
        let a = &mut self.a;
        // Span [r8 + size*f, r8 + size*(last+1)).
        a.imul_3(rax, r10, size)?;
        a.add(rax, r8)?;
        a.lea(rcx, qword_ptr(r11 + 1))?;
        a.imul_3(rcx, rcx, size)?;
        a.add(rcx, r8)?;
        self.stub_range_check(!shape.load, top, slow)?;
        let a = &mut self.a;
        a.add(r8, qword_ptr(r11 + SITE_DELTA))?;
        if shape.dwords > 1 {
            // Pairs not 8-byte aligned: AVX2 takes them lane by lane (their qwords split as
            // the interpreter's), AVX-512 leaves them to the interpreter.
            a.test(r8b, 7)?;
            if isa == Isa::Avx2 && !shape.consecutive {
                a.jnz(scattered)?;
            } else {
                a.jnz(slow)?;
            }
        }
        match (isa, shape.dwords) {
            (Isa::Avx512, 1) => self.contiguous1_512(shape.load, self.far_prefetch)?,
            (Isa::Avx512, 2) => self.contiguous2_512(shape.load)?,
            (Isa::Avx512, _) => {
                self.a.mov(r9, LANE_OFFSETS64[2].as_ptr() as u64)?;
                self.gather_scatter_512(shape, true)?;
            }
            (Isa::Avx2, 2 | 4) => self.contiguous_wide_avx2(shape.load, shape.dwords)?,
            (Isa::Avx2, _) => self.contiguous1_avx2(shape.load, self.far_prefetch)?,
        }
        let a = &mut self.a;
        a.jmp(ok)?;
        if shape.consecutive {
            // (No other path: the range check's failure is the interpreter's.)
            return stub_returns(a, &mut ok, &mut slow);
        }
        bind(a, &mut scattered)?;
        if isa == Isa::Avx512 && shape.dwords == 1 {
            self.rows_512(shape, top, slow, general)?;
            self.a.jmp(ok)?;
            self.general_entry(&mut general, &mut general_skip)?;
        }
        // (Address pairs too where their high dwords are uniform: `mem_gather32.rs`.)
        if isa == Isa::Avx512 && shape.dwords == 1 {
            let mut not_offsets = self.a.create_label();
            if shape.pair {
                self.uniform_high(not_offsets)?;
            }
            self.offsets32_512(shape, top, slow)?;
            self.a.jmp(ok)?;
            if shape.pair {
                bind(&mut self.a, &mut not_offsets)?;
            }
        }
        if isa == Isa::Avx512 && (shape.load || shape.dwords < 4) {
            self.scattered_512(shape, top, slow)?;
            self.a.jmp(ok)?;
        }
        if isa == Isa::Avx2 && shape.dwords == 1 {
            self.rows_avx2(shape, top, slow, general)?;
            self.a.jmp(ok)?;
            self.general_entry(&mut general, &mut general_skip)?;
        }
        if isa == Isa::Avx2 && shape.dwords == 1 {
            let mut not_offsets = self.a.create_label();
            if shape.pair {
                self.uniform_high(not_offsets)?;
            }
            self.offsets32_avx2(shape, top, slow)?;
            self.a.jmp(ok)?;
            if shape.pair {
                bind(&mut self.a, &mut not_offsets)?;
            }
        }
        if isa == Isa::Avx2 && shape.dwords == 2 && shape.pair && shape.load {
            // (Two dwords per lane through offsets: `mem_gather64.rs`.)
            let mut not = self.a.create_label();
            self.uniform_high(not)?;
            self.offsets_x2_load_avx2(shape, top, slow, not)?;
            self.a.jmp(ok)?;
            bind(&mut self.a, &mut not)?;
        }
        if isa == Isa::Avx2 {
            self.scattered_lanes(shape, top, slow)?;
            self.a.jmp(ok)?;
        }
        let a = &mut self.a;
        stub_returns(a, &mut ok, &mut slow)
    }

    /// Binds `general` (the fast paths failed: for a full wave, the site's countdown starts;
    /// rax and ecx are free here) and `skip` (the countdown runs) before a stub's general
    /// path. A partial wave's failure is no evidence: its inactive lanes hold stale
    /// addresses that the rows check reads (a 2-D grid's edge waves), and a countdown started
    /// there would send the full waves after it down the general path.
    fn general_entry(&mut self, general: &mut CodeLabel, skip: &mut CodeLabel) -> R<()> {
        let a = &mut self.a;
        bind(a, general)?;
        a.cmp(sreg64(EXEC), -1)?;
        a.jne(*skip)?;
        a.imul_3(rax, r9, SITE_BYTES)?;
        a.add(rax, qword_ptr(r12 + J_SITES))?;
        a.mov(byte_ptr(rax + SITE_HINT), SKIP_HINTS)?;
        bind(a, skip)
    }

    /// In a vector-memory stub (r10 = the first active lane, r11 = the last): whether the
    /// active lanes' addresses are consecutive, `size` bytes apart (lane l's low dword
    /// `base_lo + size * l` without a carry out of the low dwords; `table`: the 64 lanes'
    /// `size * l`), with one high dword for address pairs; else jumps to `not`. Leaves r8 =
    /// lane 0's address: (the high dword, or nothing) + base_lo + the uniform part rdx.
    pub(super) fn consecutive_base(
        &mut self,
        size: i32,
        pair: bool,
        table: u64,
        not: CodeLabel,
    ) -> R<()> {
        let a = &mut self.a;
        // Lane f's address dwords: low in eax, high (address pairs) in r8d.
        a.mov(eax, dword_ptr(rdi + r10 * 4))?;
        if pair {
            a.mov(r8d, dword_ptr(rdi + r10 * 4 + 256))?;
        }
        // Consecutive lanes have low dwords base_lo + size * lane, all inside 32 bits:
        // rax = base_lo = lo_f - size*f >= 0, and base_lo + size*last <= u32::MAX.
        a.imul_3(rcx, r10, size)?;
        a.sub(rax, rcx)?;
        a.jb(not)?;
        a.imul_3(rcx, r11, size)?;
        a.add(rcx, rax)?;
        a.shr(rcx, 32)?;
        a.jnz(not)?;
        // Every active lane's low dword is base_lo + size * lane (and its high dword r8d).
        a.mov(rcx, table)?;
        match self.isa {
            Isa::Avx512 => {
                a.vpbroadcastd(zmm0, eax)?;
                a.vpbroadcastd(zmm1, r8d)?;
                for c in 0..4 {
                    a.kmovw(k1, exec_word(c))?;
                    a.vpaddd(zmm2, zmm0, zmmword_ptr(rcx + 64 * c))?;
                    a.vpcmpd(k2.k1(), zmm2, zmmword_ptr(rdi + 64 * c), 4)?;
                    if pair {
                        a.vpcmpd(k3.k1(), zmm1, zmmword_ptr(rdi + (256 + 64 * c)), 4)?;
                        a.korw(k2, k2, k3)?;
                    }
                    a.kortestw(k2, k2)?;
                    a.jnz(not)?;
                }
            }
            Isa::Avx2 => {
                a.vmovd(xmm0, eax)?;
                a.vpbroadcastd(ymm0, xmm0)?;
                a.vmovd(xmm1, r8d)?;
                a.vpbroadcastd(ymm1, xmm1)?;
                // All 64 lanes active (most waves): the chunks' compares are and-ed together
                // and tested once, no chunk masks.
                let mut masked = a.create_label();
                let mut checked = a.create_label();
                unless_full_wave(a, masked)?;
                a.vpcmpeqd(ymm3, ymm3, ymm3)?;
                for c in 0..8 {
                    a.vpaddd(ymm2, ymm0, ymmword_ptr(rcx + 32 * c))?;
                    a.vpcmpeqd(ymm2, ymm2, ymmword_ptr(rdi + 32 * c))?;
                    a.vpand(ymm3, ymm3, ymm2)?;
                    if pair {
                        a.vpcmpeqd(ymm4, ymm1, ymmword_ptr(rdi + (256 + 32 * c)))?;
                        a.vpand(ymm3, ymm3, ymm4)?;
                    }
                    if c == 0 {
                        // Scattered lanes (data-dependent indices) fail in the first group:
                        // leave before the other seven.
                        a.vpcmpeqd(ymm4, ymm4, ymm4)?;
                        a.vptest(ymm3, ymm4)?;
                        a.jae(not)?;
                    }
                }
                // CF = every lane matched.
                a.vpcmpeqd(ymm4, ymm4, ymm4)?;
                a.vptest(ymm3, ymm4)?;
                a.jae(not)?;
                a.jmp(checked)?;
                bind(a, &mut masked)?;
                for c in 0..8 {
                    a.movzx(r8d, exec_byte(c))?;
                    a.shl(r8d, 5)?;
                    a.vmovdqu(ymm3, ymmword_ptr(r15 + r8))?;
                    a.vpaddd(ymm2, ymm0, ymmword_ptr(rcx + 32 * c))?;
                    a.vpcmpeqd(ymm2, ymm2, ymmword_ptr(rdi + 32 * c))?;
                    if pair {
                        a.vpcmpeqd(ymm4, ymm1, ymmword_ptr(rdi + (256 + 32 * c)))?;
                        a.vpand(ymm2, ymm2, ymm4)?;
                    }
                    // CF = every active lane matched.
                    a.vptest(ymm2, ymm3)?;
                    a.jae(not)?;
                }
                bind(a, &mut checked)?;
                // (r8d held mask offsets: the high dword again.)
                if pair {
                    a.mov(r8d, dword_ptr(rdi + r10 * 4 + 256))?;
                }
            }
        }
        // r8 = lane 0's slot address: (high dword or saddr base) + base_lo + uniform part.
        if pair {
            a.shl(r8, 32)?;
        } else {
            a.xor(r8d, r8d)?;
        }
        a.add(r8, rax)?;
        a.add(r8, rdx)?;
        Ok(())
    }

    /// In a stub: checks `[rax, rcx)` against the range cache of site r9; r11 = the site's
    /// entry on a hit. A miss asks the checker (then `retry`) or goes to `slow`. A store's
    /// hit outside the scratch backing marks the wave's vector stores unfenced (every store
    /// path passes here; a store that then goes to the interpreter marks them there too).
    pub(super) fn stub_range_check(
        &mut self,
        write: bool,
        retry: CodeLabel,
        slow: CodeLabel,
    ) -> R<()> {
        self.site_range_check(write, write, retry, slow)
    }

    /// [`Self::stub_range_check`], marking the wave's stores unfenced on a hit only where
    /// `mark` (an atomic's host read-modify-write is a full barrier: nothing to fence).
    pub(super) fn site_range_check(
        &mut self,
        write: bool,
        mark: bool,
        retry: CodeLabel,
        slow: CodeLabel,
    ) -> R<()> {
        let a = &mut self.a;
        let mut miss = a.create_label();
        let mut hit = a.create_label();
        a.imul_3(r11, r9, SITE_BYTES)?;
        a.add(r11, qword_ptr(r12 + J_SITES))?;
        a.cmp(rax, qword_ptr(r11))?;
        a.jb(miss)?;
        a.cmp(rcx, qword_ptr(r11 + 8))?;
        a.ja(miss)?;
        // A span is never empty: an end that wrapped to its start (lanes at 0 and at the
        // top of the address space) misses, and the checker refuses it.
        a.cmp(rcx, rax)?;
        a.jbe(miss)?;
        a.jmp(hit)?;
        bind(a, &mut miss)?;
        a.push(rdi)?;
        a.push(rsi)?;
        a.push(rdx)?;
        a.push(r9)?;
        a.vzeroupper()?;
        a.mov(r8d, r9d)?;
        a.mov(rdi, r12)?;
        a.mov(rsi, rax)?;
        a.mov(rdx, rcx)?;
        a.mov(ecx, u32::from(write))?;
        a.call(qword_ptr(r12 + J_SPAN))?;
        a.pop(r9)?;
        a.pop(rdx)?;
        a.pop(rsi)?;
        a.pop(rdi)?;
        a.test(eax, eax)?;
        a.jz(slow)?;
        a.jmp(retry)?;
        bind(a, &mut hit)?;
        if mark {
            mark_unfenced(a)?;
        }
        Ok(())
    }

    /// Consecutive dwords at host address r8 (AVX-512): masked moves, 16 lanes at a time.
    pub(super) fn contiguous1_512(&mut self, load: bool, learn: bool) -> R<()> {
        let a = &mut self.a;
        prefetch_ahead(a, load, 256, learn)?;
        for c in 0..4 {
            a.kmovw(k1, exec_word(c))?;
            let host = zmmword_ptr(r8 + 64 * c);
            if load {
                merge_chunk(a, rsi + 64 * c, zmm0, |a, t| Ok(a.vmovdqu32(t.k1(), host)?))?;
            } else {
                a.vmovdqu32(zmm0, zmmword_ptr(rsi + 64 * c))?;
                a.vmovdqu32(host.k1(), zmm0)?;
            }
        }
        Ok(())
    }

    /// Consecutive dword pairs at host address r8 (AVX-512): loads 16 lanes at a time,
    /// stores 8 lanes' qwords at a time.
    fn contiguous2_512(&mut self, load: bool) -> R<()> {
        let a = &mut self.a;
        prefetch_ahead(a, load, 512, self.far_prefetch)?;
        if load {
            // 16 lanes at a time: two qword moves, split into the registers' chunks.
            a.mov(rcx, DEINTERLEAVE.as_ptr() as u64)?;
            a.vmovdqu32(zmm4, zmmword_ptr(rcx))?;
            a.vmovdqu32(zmm5, zmmword_ptr(rcx + 64))?;
            for c in 0..4 {
                a.kmovw(k1, exec_word(c))?;
                a.kshiftrw(k2, k1, 8)?;
                a.vmovdqu64(zmm0.k1().z(), zmmword_ptr(r8 + 128 * c))?;
                a.vmovdqu64(zmm1.k2().z(), zmmword_ptr(r8 + (128 * c + 64)))?;
                a.vmovdqa64(zmm2, zmm0)?;
                a.vpermt2d(zmm2, zmm4, zmm1)?;
                a.vpermt2d(zmm0, zmm5, zmm1)?;
                merge_chunk(a, rsi + 64 * c, zmm3, |a, t| Ok(a.vmovdqa32(t.k1(), zmm2)?))?;
                merge_chunk(a, rsi + (256 + 64 * c), zmm3, |a, t| {
                    Ok(a.vmovdqa32(t.k1(), zmm0)?)
                })?;
            }
            return Ok(());
        }
        for g in 0..8 {
            a.kmovb(k1, exec_byte(g))?;
            let host = zmmword_ptr(r8 + 64 * g);
            let (lo, hi) = (ymmword_ptr(rsi + 32 * g), ymmword_ptr(rsi + (256 + 32 * g)));
            a.vpmovzxdq(zmm0, lo)?;
            a.vpmovzxdq(zmm1, hi)?;
            a.vpsllq(zmm1, zmm1, 32)?;
            a.vporq(zmm0, zmm0, zmm1)?;
            a.vmovdqu64(host.k1(), zmm0)?;
        }
        Ok(())
    }

    /// Consecutive dwords at host address r8 (AVX2): 8 lanes at a time, plain moves when all
    /// 8 are active, `vpmaskmovd` (which never touches inactive lanes' memory) otherwise.
    pub(super) fn contiguous1_avx2(&mut self, load: bool, learn: bool) -> R<()> {
        let a = &mut self.a;
        // All 64 lanes active: eight plain moves.
        let mut masked = a.create_label();
        let mut done = a.create_label();
        unless_full_wave(a, masked)?;
        prefetch_ahead(a, load, 256, learn)?;
        for c in 0..8 {
            move_chunk(a, load, ymmword_ptr(rsi + 32 * c), ymmword_ptr(r8 + 32 * c))?;
        }
        a.jmp(done)?;
        bind(a, &mut masked)?;
        for c in 0..8 {
            let reg = ymmword_ptr(rsi + 32 * c);
            let host = ymmword_ptr(r8 + 32 * c);
            let mut partial = a.create_label();
            let mut next = a.create_label();
            a.movzx(ecx, exec_byte(c))?;
            a.cmp(ecx, 0xff)?;
            a.jne(partial)?;
            move_chunk(a, load, reg, host)?;
            a.jmp(next)?;
            bind(a, &mut partial)?;
            a.test(ecx, ecx)?;
            a.jz(next)?;
            a.shl(ecx, 5)?;
            a.vmovdqu(ymm3, ymmword_ptr(r15 + rcx))?;
            if load {
                a.vpmaskmovd(ymm0, ymm3, host)?;
                a.vpmaskmovd(reg, ymm3, ymm0)?;
            } else {
                a.vmovdqu(ymm0, reg)?;
                a.vpmaskmovd(host, ymm3, ymm0)?;
            }
            bind(a, &mut next)?;
        }
        bind(a, &mut done)
    }

    /// Rows (AVX-512, one dword per lane): each group of 8 lanes is consecutive on its own
    /// (lane 8g+i at `base_g + 4i` in the low dwords, without a carry out of them) and the
    /// high dwords are uniform: a 2-D work-group's rows of 8, 16 or 32 work-items, or a
    /// 1-D access with gaps between groups. One span check over the active lanes' minimum
    /// and maximum, then a masked vector move per group (in lane order, so that overlapping
    /// stores leave the highest lane's value). Otherwise `general`. r10 = the first active
    /// lane (from the stub's top).
    ///
    /// A full wave takes each group's base from its first lane. A partial one (a 2-D grid's
    /// edge waves, whose inactive lanes hold stale addresses) takes it from its active lanes
    /// alone: the least of their `address - 4i`, which every active lane must then match.
    fn rows_512(
        &mut self,
        shape: VmemShape,
        retry: CodeLabel,
        slow: CodeLabel,
        general: CodeLabel,
    ) -> R<()> {
        let mut partial = self.a.create_label();
        let mut done = self.a.create_label();
        self.a.cmp(sreg64(EXEC), -1)?;
        self.a.jne(partial)?;
        self.rows_512_of(shape, retry, slow, general, false)?;
        self.a.jmp(done)?;
        bind(&mut self.a, &mut partial)?;
        self.rows_512_of(shape, retry, slow, general, true)?;
        bind(&mut self.a, &mut done)
    }

    /// [`Self::rows_512`] for a full wave, or a `partial` one.
    fn rows_512_of(
        &mut self,
        shape: VmemShape,
        retry: CodeLabel,
        slow: CodeLabel,
        general: CodeLabel,
        partial: bool,
    ) -> R<()> {
        let a = &mut self.a;
        if shape.pair {
            a.mov(r8d, dword_ptr(rdi + r10 * 4 + 256))?;
            a.vpbroadcastd(zmm1, r8d)?;
        }
        a.mov(rcx, ROW_OFFSETS.as_ptr() as u64)?;
        a.vmovdqu32(zmm5, zmmword_ptr(rcx))?;
        a.vmovdqu32(zmm4, zmmword_ptr(rcx + 64))?;
        a.kxorw(k4, k4, k4)?;
        a.vpternlogd(zmm2, zmm2, zmm2, 0xff)?; // minimum so far: all ones
        a.vpxord(zmm3, zmm3, zmm3)?; // maximum so far: 0
        for c in 0..4 {
            a.kmovw(k1, exec_word(c))?;
            a.vmovdqu32(zmm6, zmmword_ptr(rdi + 64 * c))?;
            // zmm7 = each half's base; lanes must be that + 4i, and not below it (which
            // would be a carry out of the low dword).
            match partial {
                false => a.vpermd(zmm7, zmm4, zmm6)?,
                true => {
                    // The least `address - 4i` of the half's active lanes (inactive: all ones).
                    a.vpsubd(zmm0, zmm6, zmm5)?;
                    a.vpternlogd(zmm7, zmm7, zmm7, 0xff)?;
                    a.vmovdqa32(zmm7.k1(), zmm0)?;
                    a.vpshufd(zmm0, zmm7, 0xb1)?;
                    a.vpminud(zmm7, zmm7, zmm0)?;
                    a.vpshufd(zmm0, zmm7, 0x4e)?;
                    a.vpminud(zmm7, zmm7, zmm0)?;
                    a.vshufi64x2(zmm0, zmm7, zmm7, 0xb1)?;
                    a.vpminud(zmm7, zmm7, zmm0)?;
                }
            }
            a.vpaddd(zmm0, zmm7, zmm5)?;
            a.vpcmpd(k2.k1(), zmm0, zmm6, 4)?;
            a.vpcmpud(k3.k1(), zmm6, zmm7, 1)?;
            a.korw(k2, k2, k3)?;
            if shape.pair {
                a.vpcmpd(k3.k1(), zmm1, zmmword_ptr(rdi + (256 + 64 * c)), 4)?;
                a.korw(k2, k2, k3)?;
            }
            if c == 0 {
                // Scattered lanes fail in the first chunk: leave before the other three.
                a.kortestw(k2, k2)?;
                a.jnz(general)?;
            }
            a.korw(k4, k4, k2)?;
            a.vpminud(zmm2.k1(), zmm2, zmm6)?;
            a.vpmaxud(zmm3.k1(), zmm3, zmm6)?;
        }
        a.kortestw(k4, k4)?;
        a.jnz(general)?;
        reduce_min_max_u32(a)?;
        self.rows_span(shape, retry, slow)?;
        let a = &mut self.a;
        if shape.load {
            // Per chunk: both groups' moves merged into the old lanes, one store.
            for c in 0..4 {
                // An empty group's mask keeps the move from touching memory.
                a.kmovw(k1, exec_word(c))?;
                a.kshiftrw(k2, k1, 8)?;
                match partial {
                    false => {
                        a.mov(eax, dword_ptr(rdi + 64 * c))?;
                        lane_dword(a, Isa::Avx512, ecx, rdi, 64 * c + 32, xmm1)?;
                    }
                    true => {
                        group_base(a, 2 * c, eax, r9, r9d)?;
                        group_base(a, 2 * c + 1, ecx, r9, r9d)?;
                    }
                }
                a.add(rax, r8)?;
                a.add(rcx, r8)?;
                a.vmovdqu32(ymm1, ymmword_ptr(rsi + (64 * c + 32)))?;
                a.vmovdqu32(ymm1.k2(), ymmword_ptr(rcx))?;
                merge_chunk(a, rsi + 64 * c, zmm0, |a, t| {
                    a.vmovdqu32(ymm0.k1(), ymmword_ptr(rax))?;
                    Ok(a.vinserti64x4(t, t, ymm1, 1)?)
                })?;
            }
            return Ok(());
        }
        for g in 0..8 {
            // An empty group's mask keeps the move from touching memory.
            a.kmovb(k1, exec_byte(g))?;
            match partial {
                false => lane_dword(a, Isa::Avx512, eax, rdi, 32 * g, xmm0)?,
                true => group_base(a, g, eax, r9, r9d)?,
            }
            a.add(rax, r8)?;
            a.vmovdqu32(ymm0, ymmword_ptr(rsi + 32 * g))?;
            a.vmovdqu32(ymmword_ptr(rax).k1(), ymm0)?;
        }
        Ok(())
    }

    /// Scattered lanes (AVX-512): the addresses (VGPR pairs if `pair`, else 32-bit offsets,
    /// plus the uniform part rdx) as qwords in zmm16..zmm23 (lanes 8g..8g+7 in zmm16+g), the
    /// span of `size`-byte accesses from their minimum and maximum checked (a miss asks the
    /// checker and goes to `retry`, or to `slow`); r8 = the site's delta.
    pub(super) fn scattered_span_512(
        &mut self,
        pair: bool,
        size: i32,
        write: bool,
        retry: CodeLabel,
        slow: CodeLabel,
    ) -> R<()> {
        let a = &mut self.a;
        a.vpbroadcastq(zmm1, rdx)?;
        for g in 0..8 {
            let d = zr(V(16 + g as u8));
            a.vpmovzxdq(d, ymmword_ptr(rdi + 32 * g))?;
            if pair {
                a.vpmovzxdq(zmm0, ymmword_ptr(rdi + (256 + 32 * g)))?;
                a.vpsllq(zmm0, zmm0, 32)?;
                a.vporq(d, d, zmm0)?;
            }
            a.vpaddq(d, d, zmm1)?;
        }
        a.vpternlogq(zmm2, zmm2, zmm2, 0xff)?; // min so far: all ones
        a.vpxorq(zmm3, zmm3, zmm3)?; // max so far: 0
        for g in 0..8 {
            let s = zr(V(16 + g as u8));
            a.kmovb(k1, exec_byte(g))?;
            a.vpminuq(zmm2.k1(), zmm2, s)?;
            a.vpmaxuq(zmm3.k1(), zmm3, s)?;
        }
        for (r, ymm, xmm, max) in [(zmm2, ymm2, xmm2, false), (zmm3, ymm3, xmm3, true)] {
            a.vextracti64x4(ymm5, r, 1)?;
            if max {
                a.vpmaxuq(ymm, ymm, ymm5)?;
            } else {
                a.vpminuq(ymm, ymm, ymm5)?;
            }
            a.vextracti128(xmm5, ymm, 1)?;
            if max {
                a.vpmaxuq(xmm, xmm, xmm5)?;
            } else {
                a.vpminuq(xmm, xmm, xmm5)?;
            }
            a.vpshufd(xmm5, xmm, 0x4e)?;
            if max {
                a.vpmaxuq(xmm, xmm, xmm5)?;
            } else {
                a.vpminuq(xmm, xmm, xmm5)?;
            }
        }
        a.vmovq(rax, xmm2)?;
        a.vmovq(rcx, xmm3)?;
        a.add(rcx, size)?;
        self.stub_range_check(write, retry, slow)?;
        let a = &mut self.a;
        a.mov(r8, qword_ptr(r11 + SITE_DELTA))?;
        Ok(())
    }

    /// The span of an access whose active lanes' lowest and highest low dword (or 32-bit
    /// offset) are in lane 0 of xmm2 and xmm3, r8d = the uniform high dword of address pairs:
    /// `[addr(lowest), addr(highest) + 4 * dwords)` with 64-bit sums (a wrap misses the
    /// cache and the checker refuses it). A miss asks the checker, then `retry`, or goes to
    /// `slow`. Leaves r8 = the host address of low dword (or offset) 0, r11 = the site.
    pub(super) fn min_max_span(
        &mut self,
        shape: VmemShape,
        retry: CodeLabel,
        slow: CodeLabel,
    ) -> R<()> {
        let a = &mut self.a;
        // r8 = the address of low dword 0: (high dword or nothing) + the uniform part.
        if shape.pair {
            a.shl(r8, 32)?;
        } else {
            a.xor(r8d, r8d)?;
        }
        a.add(r8, rdx)?;
        a.vmovd(eax, xmm2)?;
        a.vmovd(ecx, xmm3)?;
        a.add(rax, r8)?;
        a.lea(rcx, qword_ptr(rcx + r8 + 4 * i32::from(shape.dwords)))?;
        self.stub_range_check(!shape.load, retry, slow)?;
        self.a.add(r8, qword_ptr(r11 + SITE_DELTA))?;
        Ok(())
    }

    /// The rows paths' span, after the active lanes' lowest and highest low dword went to
    /// lane 0 of xmm2 and xmm3 (r8d = the high dword for address pairs): checks it (a miss
    /// asks the checker, then `retry`, or goes to `slow`) and leaves r8 = the host address of
    /// low dword 0; marks the site as served in rows.
    pub(super) fn rows_span(
        &mut self,
        shape: VmemShape,
        retry: CodeLabel,
        slow: CodeLabel,
    ) -> R<()> {
        self.min_max_span(shape, retry, slow)?;
        let a = &mut self.a;
        a.mov(byte_ptr(r11 + SITE_HINT), ROWS_HINT)?;
        Ok(())
    }

    /// Scattered lanes (AVX-512): the addresses as qwords in zmm16..zmm23 (lanes 8g..8g+7 in
    /// zmm16+g), their span from the minimum and maximum, then gathers or scatters.
    fn scattered_512(&mut self, shape: VmemShape, retry: CodeLabel, slow: CodeLabel) -> R<()> {
        self.scattered_span_512(
            shape.pair,
            4 * i32::from(shape.dwords),
            !shape.load,
            retry,
            slow,
        )?;
        let a = &mut self.a;
        if shape.dwords > 1 {
            // Every active lane's address 8-byte aligned, else the interpreter.
            a.mov(eax, 7)?;
            a.vpbroadcastq(zmm4, rax)?;
            for g in 0..8 {
                a.kmovb(k1, exec_byte(g))?;
                a.vptestmq(k2.k1(), zr(V(16 + g as u8)), zmm4)?;
                a.kortestb(k2, k2)?;
                a.jnz(slow)?;
            }
        }
        self.gather_scatter_512(shape, false)?;
        Ok(())
    }

    /// Moves the data of every active lane by gathers/scatters at r8 + (qword index): the
    /// lane offsets table at r9 (`table`), or the address vectors zmm16..zmm23. The data
    /// registers are at rsi. With address vectors, a group of 8 lanes whose active lanes are
    /// consecutive (a row of a 2-D work-group) moves with one masked vector access, and a
    /// load whose active lanes all read one address broadcasts it.
    fn gather_scatter_512(&mut self, shape: VmemShape, table: bool) -> R<()> {
        let nd = i32::from(shape.dwords);
        if !table {
            self.a.mov(
                r10,
                LANE_OFFSETS64[size_index(shape.dwords)].as_ptr() as u64,
            )?;
        }
        for g in 0..8 {
            let a = &mut self.a;
            let mut next = a.create_label();
            let idx = if table {
                a.vmovdqu64(zmm6, zmmword_ptr(r9 + 64 * g))?;
                zmm6
            } else {
                let v = zr(V(16 + g as u8));
                let mut gather = a.create_label();
                a.kmovb(k1, exec_byte(g))?;
                a.kortestb(k1, k1)?;
                a.jz(next)?;
                // rax = lane 8g's address; consecutive if lane i is at rax + size*i. (vmovq
                // has no form for xmm16 and up.)
                a.vmovdqa64(zmm7, v)?;
                a.vmovq(rax, xmm7)?;
                a.vpbroadcastq(zmm7, rax)?;
                if shape.load {
                    let mut spread = a.create_label();
                    a.vpcmpq(k2.k1(), zmm7, v, 4)?;
                    a.kortestb(k2, k2)?;
                    a.jnz(spread)?;
                    // Every active lane reads lane 8g's address (checked: it equals an active
                    // lane's): one read, broadcast (8-byte pieces read whole).
                    a.add(rax, r8)?;
                    if nd == 1 {
                        a.vpbroadcastd(ymm0, dword_ptr(rax))?;
                        a.vmovdqu32(ymmword_ptr(rsi + 32 * g).k1(), ymm0)?;
                    }
                    for p in 0..nd / 2 {
                        let d0 = ymmword_ptr(rsi + (512 * p + 32 * g));
                        let d1 = ymmword_ptr(rsi + (512 * p + 256 + 32 * g));
                        a.vpbroadcastq(zmm0, qword_ptr(rax + 8 * p))?;
                        a.vpmovqd(ymm1, zmm0)?;
                        a.vpsrlq(zmm0, zmm0, 32)?;
                        a.vpmovqd(ymm2, zmm0)?;
                        a.vmovdqu32(d0.k1(), ymm1)?;
                        a.vmovdqu32(d1.k1(), ymm2)?;
                    }
                    a.jmp(next)?;
                    bind(a, &mut spread)?;
                }
                a.vpaddq(zmm7, zmm7, zmmword_ptr(r10))?;
                a.vpcmpq(k2.k1(), zmm7, v, 4)?;
                a.kortestb(k2, k2)?;
                a.jnz(gather)?;
                if nd <= 2 {
                    // Consecutive: masked moves (inactive lanes' memory untouched).
                    a.add(rax, r8)?;
                    let (d0, d1) = (ymmword_ptr(rsi + 32 * g), ymmword_ptr(rsi + (256 + 32 * g)));
                    match (shape.load, nd) {
                        (true, 1) => {
                            a.vmovdqu32(ymm0.k1().z(), ymmword_ptr(rax))?;
                            a.vmovdqu32(d0.k1(), ymm0)?;
                        }
                        (true, _) => {
                            a.vmovdqu64(zmm0.k1().z(), zmmword_ptr(rax))?;
                            a.vpmovqd(ymm1, zmm0)?;
                            a.vpsrlq(zmm0, zmm0, 32)?;
                            a.vpmovqd(ymm2, zmm0)?;
                            a.vmovdqu32(d0.k1(), ymm1)?;
                            a.vmovdqu32(d1.k1(), ymm2)?;
                        }
                        (false, 1) => {
                            a.vmovdqu32(ymm0, d0)?;
                            a.vmovdqu32(ymmword_ptr(rax).k1(), ymm0)?;
                        }
                        (false, _) => {
                            a.vpmovzxdq(zmm0, d0)?;
                            a.vpmovzxdq(zmm1, d1)?;
                            a.vpsllq(zmm1, zmm1, 32)?;
                            a.vporq(zmm0, zmm0, zmm1)?;
                            a.vmovdqu64(zmmword_ptr(rax).k1(), zmm0)?;
                        }
                    }
                    a.jmp(next)?;
                }
                bind(a, &mut gather)?;
                v
            };
            // Qword elements: (d0|d1) at +0 and (d2|d3) at +8; dwords for single-dword ops.
            let parts = if nd == 1 { 1 } else { nd / 2 };
            for p in 0..parts {
                let d0 = ymmword_ptr(rsi + (512 * p + 32 * g));
                let d1 = ymmword_ptr(rsi + (512 * p + 256 + 32 * g));
                let at = |k: i32| ptr(r8 + idx + 8 * k);
                a.kmovb(k2, exec_byte(g))?;
                if shape.load {
                    a.kmovb(k1, exec_byte(g))?;
                    if nd == 1 {
                        a.vpgatherqd(ymm0.k2(), at(p))?;
                        a.vmovdqu32(d0.k1(), ymm0)?;
                    } else {
                        a.vpgatherqq(zmm0.k2(), at(p))?;
                        a.vpmovqd(ymm1, zmm0)?;
                        a.vpsrlq(zmm0, zmm0, 32)?;
                        a.vpmovqd(ymm2, zmm0)?;
                        a.vmovdqu32(d0.k1(), ymm1)?;
                        a.vmovdqu32(d1.k1(), ymm2)?;
                    }
                } else if nd == 1 {
                    a.vmovdqu32(ymm0, d0)?;
                    a.vpscatterqd(at(p).k2(), ymm0)?;
                } else {
                    a.vpmovzxdq(zmm0, d0)?;
                    a.vpmovzxdq(zmm1, d1)?;
                    a.vpsllq(zmm1, zmm1, 32)?;
                    a.vporq(zmm0, zmm0, zmm1)?;
                    a.vpscatterqq(at(p).k2(), zmm0)?;
                }
            }
            bind(a, &mut next)?;
        }
        Ok(())
    }
}

/// Moves the 8 lanes of a VGPR chunk (`reg`) from (`load`) or to host memory, all active
/// (AVX2; through ymm0).
/// After a store's range hit (r11 = the site's entry): unless the site's range is the scratch
/// backing, the wave's vector stores are unfenced until its next release
/// (`docs/MEMORY_MODEL.md`). Every store path passes here.
pub(super) fn mark_unfenced(a: &mut CodeAssembler) -> R<()> {
    let mut private = a.create_label();
    let flag = (crate::memory::PRIVATE_SITE >> 8) as i32;
    a.test(byte_ptr(r11 + (SITE_HINT + 1)), flag)?;
    a.jnz(private)?;
    a.or(byte_ptr(rbx + W_UNFENCED), i32::from(UNFENCED_VECTOR))?;
    bind(a, &mut private)
}

pub(super) fn move_chunk(
    a: &mut CodeAssembler,
    load: bool,
    reg: AsmMemoryOperand,
    host: AsmMemoryOperand,
) -> R<()> {
    if load {
        a.vmovdqu(ymm0, host)?;
        a.vmovdqu(reg, ymm0)?;
    } else {
        a.vmovdqu(ymm0, reg)?;
        a.vmovdqu(host, ymm0)?;
    }
    Ok(())
}

/// Moves one VGPR's 64 dwords (at `reg`: base register, displacement) to or from 256 bytes of
/// host memory (at `host`; `load`: host to register); with `masked`, only the lanes active in
/// EXEC, the others untouched on both sides (AVX2: chunk masks from the table at r15;
/// AVX-512: k1, per chunk).
pub(super) fn move_wave(
    a: &mut CodeAssembler,
    isa: Isa,
    load: bool,
    reg: (AsmRegister64, i32),
    host: (AsmRegister64, i32),
    masked: bool,
) -> R<()> {
    if !masked {
        for g in 0..4 {
            let (v, h) = (reg.0 + (reg.1 + 64 * g), host.0 + (host.1 + 64 * g));
            move_group(a, isa, load, v, h)?;
        }
        return Ok(());
    }
    let (bytes, chunks) = (isa.chunk_bytes(), isa.chunks() as i32);
    for c in 0..chunks {
        let (v, h) = (reg.0 + (reg.1 + bytes * c), host.0 + (host.1 + bytes * c));
        match isa {
            Isa::Avx2 => {
                a.movzx(eax, exec_byte(c))?;
                a.shl(eax, 5)?;
                a.vmovdqu(ymm1, ymmword_ptr(r15 + rax))?;
                if load {
                    a.vpmaskmovd(ymm0, ymm1, ymmword_ptr(h))?;
                    a.vpmaskmovd(ymmword_ptr(v), ymm1, ymm0)?;
                } else {
                    a.vmovdqu(ymm0, ymmword_ptr(v))?;
                    a.vpmaskmovd(ymmword_ptr(h), ymm1, ymm0)?;
                }
            }
            Isa::Avx512 => {
                a.kmovw(k1, exec_word(c))?;
                if load {
                    a.vmovdqu32(zmm0.k1().z(), zmmword_ptr(h))?;
                    a.vmovdqu32(zmmword_ptr(v).k1(), zmm0)?;
                } else {
                    a.vmovdqu32(zmm0.k1().z(), zmmword_ptr(v))?;
                    a.vmovdqu32(zmmword_ptr(h).k1(), zmm0)?;
                }
            }
        }
    }
    Ok(())
}

/// Moves 16 lanes' dwords (64 bytes) between a VGPR's lanes at `reg` and host memory at
/// `host` (`load`: host to register): two chunks on AVX2, one on AVX-512.
pub(super) fn move_group(
    a: &mut CodeAssembler,
    isa: Isa,
    load: bool,
    reg: AsmMemoryOperand,
    host: AsmMemoryOperand,
) -> R<()> {
    match isa {
        Isa::Avx2 => {
            move_chunk(a, load, ymmword_ptr(reg), ymmword_ptr(host))?;
            move_chunk(a, load, ymmword_ptr(reg + 32), ymmword_ptr(host + 32))
        }
        Isa::Avx512 => {
            let (from, to) = if load {
                (zmmword_ptr(host), zmmword_ptr(reg))
            } else {
                (zmmword_ptr(reg), zmmword_ptr(host))
            };
            a.vmovdqu32(zmm0, from)?;
            a.vmovdqu32(to, zmm0)?;
            Ok(())
        }
    }
}

/// `dst` = the low address dword of lane 8g's slot in a group of 8 lanes whose active ones
/// are consecutive (a partial wave's rows, whose inactive lanes hold stale addresses): the
/// first active lane f's address - 4f (lane 8g + 7's for an empty group, whose move is
/// masked off). rdi = the address VGPR; clobbers `tmp` (`tmp32` its low half).
pub(super) fn group_base(
    a: &mut CodeAssembler,
    g: i32,
    dst: AsmRegister32,
    tmp: AsmRegister64,
    tmp32: AsmRegister32,
) -> R<()> {
    a.movzx(tmp32, exec_byte(g))?;
    a.or(tmp32, 0x80)?;
    a.tzcnt(tmp32, tmp32)?;
    a.mov(dst, dword_ptr(rdi + tmp * 4 + 32 * g))?;
    a.shl(tmp32, 2)?;
    a.sub(dst, tmp32)?;
    Ok(())
}

/// A global or FLAT access's address operands for its stub: rdi = the address VGPR `vaddr`
/// (a pair, or 32-bit offsets with `saddr`), rdx = the uniform part (the offset, plus the
/// `saddr` base).
pub(super) fn address_operands(
    a: &mut CodeAssembler,
    vaddr: u8,
    saddr: Option<u8>,
    offset: i32,
) -> R<()> {
    a.lea(rdi, qword_ptr(r13 + 256 * i32::from(vaddr)))?;
    match saddr {
        Some(s) => {
            a.mov(rdx, sreg64(s))?;
            if offset != 0 {
                a.add(rdx, offset)?;
            }
        }
        None => a.mov(rdx, i64::from(offset))?,
    }
    Ok(())
}

/// A vector-memory stub's two exits (it entered with `sub rsp, 8`): `slow` returns eax = 1
/// (the interpreter runs the instruction), `ok` eax = 0.
pub(super) fn stub_returns(
    a: &mut CodeAssembler,
    ok: &mut CodeLabel,
    slow: &mut CodeLabel,
) -> R<()> {
    bind(a, slow)?;
    a.mov(eax, 1)?;
    a.add(rsp, 8)?;
    a.ret()?;
    bind(a, ok)?;
    a.xor(eax, eax)?;
    a.add(rsp, 8)?;
    a.ret()?;
    Ok(())
}

/// Reduces the unsigned dword minima in zmm2 and maxima in zmm3 to lane 0 of xmm2 and xmm3
/// (zmm5 is clobbered).
pub(super) fn reduce_min_max_u32(a: &mut CodeAssembler) -> R<()> {
    for (z, ymm, max) in [(zmm2, ymm2, false), (zmm3, ymm3, true)] {
        a.vextracti64x4(ymm5, z, 1)?;
        if max {
            a.vpmaxud(ymm, ymm, ymm5)?;
        } else {
            a.vpminud(ymm, ymm, ymm5)?;
        }
    }
    reduce_min_max_u32_ymm(a)
}

/// Reduces the unsigned dword minima in ymm2 and maxima in ymm3 to lane 0 of xmm2 and xmm3
/// (xmm5 is clobbered; AVX2).
pub(super) fn reduce_min_max_u32_ymm(a: &mut CodeAssembler) -> R<()> {
    for (ymm, xmm, max) in [(ymm2, xmm2, false), (ymm3, xmm3, true)] {
        a.vextracti128(xmm5, ymm, 1)?;
        for step in [None, Some(0x4e), Some(0xb1)] {
            if let Some(imm) = step {
                a.vpshufd(xmm5, xmm, imm)?;
            }
            if max {
                a.vpmaxud(xmm, xmm, xmm5)?;
            } else {
                a.vpminud(xmm, xmm, xmm5)?;
            }
        }
    }
    Ok(())
}

/// How far ahead of its address a consecutive access always prefetches: where the same
/// instruction of the work-group after next goes when each work-group of 256 work-items
/// reads one dword each (2 KiB).
pub(super) const PREFETCH_AHEAD: i32 = 2048;

/// `Site::last` and `Site::ahead`: a consecutive access's prefetch notes.
const SITE_LAST: i32 = offset_of!(crate::memory::Site, last) as i32;
const SITE_AHEAD: i32 = offset_of!(crate::memory::Site, ahead) as i32;
/// `Wave::index`: the wave's index in its work-group.
const W_INDEX: i32 = offset_of!(crate::wave::Wave, index) as i32;

/// Whether consecutive global accesses also prefetch a work-group ahead where the step
/// between work-groups is longer than [`PREFETCH_AHEAD`] ([`prefetch_ahead`]'s `learn`):
/// `SOFTHSA_JIT_PREFETCH` = `far` or `near`, else on AMD hosts only. Measured side by side
/// (`docs/BENCHMARKS.md`): the reduction 2.2x faster on one worker of a 2-core AMD EPYC, 7%
/// slower on 16 workers of a 16-core Xeon, whose own prefetchers kept up.
pub(super) fn far_prefetch() -> bool {
    #[cfg(test)]
    if let Some(on) = FAR_PREFETCH.with(|c| c.get()) {
        return on;
    }
    static FAR: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FAR.get_or_init(|| match std::env::var("SOFTHSA_JIT_PREFETCH").as_deref() {
        Ok("far") => true,
        Ok("near") => false,
        _ => host_is_amd(),
    })
}

#[cfg(test)]
thread_local! {
    /// Tests: [`far_prefetch`] for kernels compiled on this thread, whatever the host.
    pub(super) static FAR_PREFETCH: std::cell::Cell<Option<bool>> =
        const { std::cell::Cell::new(None) };
}

/// Whether the host CPU's vendor is AMD (CPUID leaf 0: "AuthenticAMD").
fn host_is_amd() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let id = std::arch::x86_64::__cpuid(0);
        [id.ebx, id.edx, id.ecx] == [0x6874_7541, 0x6974_6e65, 0x444d_4163]
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Prefetches the `bytes` at r8 + [`PREFETCH_AHEAD`] (for writing when `!load`), where the
/// same instruction of the work-group after next goes when each work-group of 256 work-items
/// reads a dword each, as streaming kernels walk their buffers. Between two such accesses a
/// wave runs hundreds of instructions, so without it each wave waited for its lines alone
/// (saxpy on the 2-core machine spent 40% of its time in the load stub's moves). A prefetch
/// never faults, past the buffer's end included.
///
/// With `learn` (r11 = the site, a global access; not scratch, whose waves reuse one
/// backing) also at the site's [`crate::memory::Site::ahead`], where the next work-group's
/// wave 0 went from the last one's, when that step is longer: wave 0 of each work-group
/// records its address and the step. In the reduction (sixteen loads per work-item, 1 KiB
/// apart per wave, 16 KiB per work-group) the fixed distance is the same wave's load after
/// next, a few hundred cycles ahead: too late for lines from memory on a 2-core AMD
/// machine, which ran it 2x slower. Clobbers rcx.
pub(super) fn prefetch_ahead(a: &mut CodeAssembler, load: bool, bytes: i32, learn: bool) -> R<()> {
    let fixed = PREFETCH_AHEAD;
    let prefetch = |a: &mut CodeAssembler, at: AsmMemoryOperand| match load {
        true => a.prefetcht0(at),
        false => a.prefetchw(at),
    };
    for line in (0..bytes).step_by(64) {
        prefetch(a, byte_ptr(r8 + (fixed + line)))?;
    }
    if learn {
        // A longer step learned: one work-group ahead too.
        let mut near = a.create_label();
        a.mov(rcx, qword_ptr(r11 + SITE_AHEAD))?;
        a.test(rcx, rcx)?;
        a.jz(near)?;
        for line in (0..bytes).step_by(64) {
            prefetch(a, byte_ptr(r8 + rcx + line))?;
        }
        bind(a, &mut near)?;
        // Wave 0 learns: the step since the last work-group's wave 0 (none before the
        // site's first).
        let mut done = a.create_label();
        a.cmp(dword_ptr(rbx + W_INDEX), 0)?;
        a.jne(done)?;
        a.mov(rcx, qword_ptr(r11 + SITE_LAST))?;
        a.mov(qword_ptr(r11 + SITE_LAST), r8)?;
        a.test(rcx, rcx)?;
        a.jz(done)?;
        a.neg(rcx)?;
        a.add(rcx, r8)?;
        let mut far = a.create_label();
        a.cmp(rcx, fixed)?;
        a.jg(far)?;
        a.xor(ecx, ecx)?;
        bind(a, &mut far)?;
        a.mov(qword_ptr(r11 + SITE_AHEAD), rcx)?;
        bind(a, &mut done)?;
    }
    Ok(())
}
