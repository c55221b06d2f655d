//! LDS reads and writes of 1 or 2 dwords per address (`ds_read/write_b32/b64`, the
//! `read2`/`write2` forms), wave-wide with gathers and scatters over the work-group's LDS, as
//! calls to a stub per access shape (see `mem_vector.rs`). Bytes, shorts and 3-4 dwords per
//! address take the same interface to the stubs of `mem_narrow.rs`.
//!
//! Every active lane's access must lie inside the LDS (`address + bytes <= size`); otherwise
//! the interpreter runs the instruction (out-of-range reads return 0 and writes are dropped,
//! lane by lane, as on GFX9). Scatters write in lane order, so where lanes collide the
//! highest lane wins, as in the interpreter. A `write2` whose two addresses are not one
//! contiguous pair (offset1 = offset0 + 1 element) goes lane by lane (both writes of lane 0,
//! then of lane 1, ...: not a pair of scatters' order). AVX2 reads a chunk of 8 active lanes
//! at one address or at consecutive dwords with one broadcast or move, others with dword
//! gathers; it writes such a consecutive chunk of dwords with one store (of qwords, two
//! stores of the interleaved dwords), the rest lane by lane (scalar moves in lane order).
//!
//! Stub interface: rdi = the address VGPR, rsi = the data (writes) or destination (reads)
//! VGPR of the first access, rdx = that of the second (a `write2` pair's second data VGPR,
//! or the second read's destination), ecx / r8d = the byte offsets of the two accesses.
//! Returns eax = 0 (done) or 1 (the interpreter must run the instruction).

use super::emit::{bind, Emitter, EXEC, R, W_S};
use super::mem_vector::{exec_byte, exec_word, merge_chunk, move_group, move_wave};
use super::select::{DsInst, SubDword};
use super::stubs::Stub;
use super::vx::{zr, Isa, V};
use super::JitCtx;
use iced_x86::code_asm::*;
use std::mem::offset_of;

/// Byte offsets 4 * lane and 8 * lane of 16 lanes (consecutive dwords and qwords).
pub(super) static LANE_OFFSETS4: [u32; 16] =
    [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60];
static LANE_OFFSETS8: [u32; 16] = [
    0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120,
];

/// `JitCtx::lds` and `JitCtx::lds_size`: the work-group's LDS and its size in bytes.
pub(super) const J_LDS: i32 = offset_of!(JitCtx, lds) as i32;
pub(super) const J_LDS_SIZE: i32 = offset_of!(JitCtx, lds_size) as i32;

/// An access the lane-linear path serves: `ds_read_b32`, `ds_read2_b32`, `ds_write_b32`.
pub(super) fn lin_ds(d: &DsInst) -> bool {
    d.sub.is_none() && d.dwords == 1 && (d.load || !d.two)
}

/// Each access of a lane-linear LDS instruction ([`lin_ds`]): its byte offset, its VGPR.
fn ds_dword_accesses(d: &DsInst) -> Vec<(i32, u8)> {
    if d.load && d.two {
        vec![
            (d.offset0 as i32, d.dst),
            (d.offset1 as i32, d.dst.wrapping_add(1)),
        ]
    } else if d.load {
        vec![(d.offset0 as i32, d.dst)]
    } else {
        vec![(d.offset0 as i32, d.data0)]
    }
}

/// The largest byte offset of `accesses`.
fn last_offset(accesses: &[(i32, u8)]) -> i32 {
    accesses.iter().map(|&(off, _)| off).max().unwrap_or(0)
}

/// The shape of an LDS access a stub serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct DsShape {
    pub load: bool,
    /// Bytes per access: 4 or 8 (a `write2_b32` pair is one 8-byte access).
    pub bytes: u8,
    /// Two accesses per lane (read2).
    pub two: bool,
    /// A byte or short per lane (`mem_narrow.rs`).
    pub sub: Option<SubDword>,
}

impl Emitter<'_> {
    /// An LDS load or store.
    pub(super) fn ds(&mut self, i: u32, d: &DsInst) -> R<()> {
        let mut done = self.a.create_label();
        let slow = self.slow_callout(i, done)?;
        let elem = 4 * d.dwords;
        let pair_write = !d.load && d.two && d.dwords == 1 && d.offset1 == d.offset0 + 4;
        let n_dst = u32::from(d.dwords) * if d.two { 2 } else { 1 };
        let overlap = d.load && (0..n_dst).any(|k| d.dst.wrapping_add(k as u8) == d.addr);
        // Bytes, shorts, 3 and 4 dwords go lane by lane (`mem_narrow.rs`).
        let lanes = d.sub.is_some() || d.dwords > 2;
        let native = lanes
            || match self.isa {
                Isa::Avx512 => true,
                // AVX2 reads chunk by chunk, each chunk's addresses loaded before its data
                // is written: a read into its own address register is fine, but a `read2`'s
                // second pass would read addresses the first overwrote. Writes go lane by
                // lane.
                Isa::Avx2 => !d.load || !overlap || !d.two,
            };
        if !native {
            self.a.jmp(slow)?;
            return bind(&mut self.a, &mut done);
        }
        let shape = DsShape {
            load: d.load,
            bytes: match d.sub {
                Some(s) => s.bytes,
                None if pair_write => 8,
                None => elem,
            },
            two: d.two && !pair_write,
            sub: d.sub,
        };
        let (first, second) = if d.load {
            (d.dst, d.dst.wrapping_add(d.dwords))
        } else if pair_write || d.two {
            // (A `write2_b64`'s high dwords follow each data VGPR.)
            (d.data0, d.data1)
        } else {
            (d.data0, d.data0.wrapping_add(1))
        };
        // Proven one address per row, or linear along rows of 2-D work-groups: the rows
        // path (its fallback the plain stub: a classification it skipped must not be
        // trusted by the block's later reads).
        // (`Some(narrow)`: proven, in rows of 16-32 lanes only.)
        let (linear, same) = match lin_ds(d) {
            true => (
                self.linear.linear(i),
                d.load.then(|| self.linear.same_in_rows(i)).flatten(),
            ),
            false => (None, None),
        };
        let rows = same.is_some() || (linear.is_some() && self.linear.rows);
        let narrow = linear == Some(true) || same == Some(true);
        let stub = if !lanes && !rows && self.ds_classified(d.load, d.dwords) {
            self.ds_class_slot(d.addr)?;
            Stub::DsClassified(shape)
        } else {
            Stub::Ds(shape)
        };
        if linear.is_some() || same.is_some() {
            let mut call = self.a.create_label();
            let mut by_rows = self.a.create_label();
            if linear == Some(false) {
                let fallback = if rows { by_rows } else { call };
                self.lin_ds_access(d, fallback, call, done)?;
            }
            if rows {
                bind(&mut self.a, &mut by_rows)?;
                self.rows_ds_access(d, same.is_some(), narrow, call, done)?;
            }
            bind(&mut self.a, &mut call)?;
        }
        let a = &mut self.a;
        a.lea(rdi, qword_ptr(r13 + 256 * i32::from(d.addr)))?;
        a.lea(rsi, qword_ptr(r13 + 256 * i32::from(first)))?;
        a.lea(rdx, qword_ptr(r13 + 256 * i32::from(second)))?;
        a.mov(ecx, d.offset0)?;
        a.mov(r8d, d.offset1)?;
        self.call_stub(stub)?;
        let a = &mut self.a;
        a.test(eax, eax)?;
        a.jnz(slow)?;
        bind(a, &mut done)
    }

    /// A lane-linear `ds_read_b32`, `ds_read2_b32` or `ds_write_b32` (`lane_linear.rs`):
    /// in a wave of one row (`Wave::lin_rows` 64; else on to `fallback`), lane l's address is
    /// lane 0's + 4l, so one check of lanes 0 and 63's span against the LDS size covers
    /// every lane, and the active lanes move as vectors (masked by EXEC when some are
    /// inactive).
    fn lin_ds_access(
        &mut self,
        d: &DsInst,
        fallback: CodeLabel,
        stub: CodeLabel,
        done: CodeLabel,
    ) -> R<()> {
        let isa = self.isa;
        let a = &mut self.a;
        a.cmp(byte_ptr(rbx + super::emit::W_LIN), 64)?;
        a.jne(fallback)?;
        // r9 = the host address of lane 0's first access; the span of both accesses'
        // 64 lanes in the LDS (zero-extended sums: a wrap is out of range too).
        let accesses = ds_dword_accesses(d);
        let hi = last_offset(&accesses);
        a.mov(eax, dword_ptr(r13 + 256 * i32::from(d.addr)))?;
        a.lea(rcx, qword_ptr(rax + (hi + 256)))?;
        a.cmp(rcx, qword_ptr(r12 + J_LDS_SIZE))?;
        a.ja(stub)?;
        a.mov(r9, qword_ptr(r12 + J_LDS))?;
        a.add(r9, rax)?;
        let mut partial = a.create_label();
        a.cmp(qword_ptr(rbx + (W_S + 4 * i32::from(EXEC))), -1)?;
        a.jne(partial)?;
        for &(off, reg) in &accesses {
            move_wave(
                a,
                isa,
                d.load,
                (r13, 256 * i32::from(reg)),
                (r9, off),
                false,
            )?;
        }
        a.jmp(done)?;
        bind(a, &mut partial)?;
        // Inactive lanes neither read nor write the LDS, and keep their VGPR lanes.
        for &(off, reg) in &accesses {
            move_wave(a, isa, d.load, (r13, 256 * i32::from(reg)), (r9, off), true)?;
        }
        a.jmp(done)?;
        Ok(())
    }

    /// An LDS dword access (`ds_read_b32`, `ds_read2_b32`, `ds_write_b32`) in a wave of rows
    /// of at least 16 lanes (`Wave::lin_rows`; only 16 or 32 when proven for `narrow` rows;
    /// else, or with lanes inactive, on to `stub`)
    /// whose address is proven the same along each row (`same`: reads only) or lane 0's +
    /// 4l (`lane_linear.rs`): each group of 16 lanes (inside one row) reads one dword per
    /// access, broadcast, or moves 64 bytes; every group's span is checked against the LDS
    /// size before anything moves (zero-extended sums: a wrap is out of range too), and
    /// groups move in lane order (where a write's groups overlap, the highest lane's value
    /// stays, as in the interpreter).
    fn rows_ds_access(
        &mut self,
        d: &DsInst,
        same: bool,
        narrow: bool,
        stub: CodeLabel,
        done: CodeLabel,
    ) -> R<()> {
        let isa = self.isa;
        let a = &mut self.a;
        super::mem_inline::rows_gate(a, narrow, stub)?;
        a.cmp(qword_ptr(rbx + (W_S + 4 * i32::from(EXEC))), -1)?;
        a.jne(stub)?;
        let accesses = ds_dword_accesses(d);
        let hi = last_offset(&accesses);
        let span = if same { 4 } else { 64 };
        // (r10 is left alone: the classified stub's slot.)
        let groups = [r8, r11, rdi, rsi];
        for (g, &r) in groups.iter().enumerate() {
            a.mov(
                eax,
                dword_ptr(r13 + (256 * i32::from(d.addr) + 64 * g as i32)),
            )?;
            a.lea(rcx, qword_ptr(rax + (hi + span)))?;
            a.cmp(rcx, qword_ptr(r12 + J_LDS_SIZE))?;
            a.ja(stub)?;
            a.mov(r, rax)?;
        }
        a.mov(r9, qword_ptr(r12 + J_LDS))?;
        for (g, &r) in groups.iter().enumerate() {
            let g = 64 * g as i32;
            for &(off, reg) in &accesses {
                let v = r13 + (256 * i32::from(reg) + g);
                let h = r9 + r + off;
                match (isa, same) {
                    (Isa::Avx2, true) => {
                        a.vpbroadcastd(ymm0, dword_ptr(h))?;
                        a.vmovdqu(ymmword_ptr(v), ymm0)?;
                        a.vmovdqu(ymmword_ptr(v + 32), ymm0)?;
                    }
                    (Isa::Avx512, true) => {
                        a.vpbroadcastd(zmm0, dword_ptr(h))?;
                        a.vmovdqu32(zmmword_ptr(v), zmm0)?;
                    }
                    (_, false) => move_group(a, isa, d.load, v, h)?,
                }
            }
        }
        a.jmp(done)?;
        Ok(())
    }

    /// Emits the stub for LDS accesses of `shape` (see the module documentation).
    pub(super) fn ds_stub(&mut self, shape: DsShape) -> R<()> {
        if shape.sub.is_some() || shape.bytes > 8 {
            return self.ds_lanes_stub(shape);
        }
        let a = &mut self.a;
        let mut ok = a.create_label();
        let mut slow = a.create_label();
        lds_stub_start(a, shape.bytes, ok, slow)?;
        let parts = if shape.two { 2 } else { 1 };
        match self.isa {
            Isa::Avx512 => {
                lds_range_512(a, parts, slow)?;
                if !shape.load && shape.two {
                    self.lds_write_lanes(shape)?;
                }
                for p in (0..parts).filter(|_| shape.load || !shape.two) {
                    let first = 16 + 4 * p as u8;
                    // Part 0 moves through rsi (and rdx for a pair's second dword).
                    let (lo, hi) = if p == 0 { (rsi, rdx) } else { (rdx, rdx) };
                    if shape.bytes == 4 {
                        self.lds_dwords_512(shape.load, first, lo)?;
                    } else if shape.load {
                        self.lds_qwords_512(true, first, lo, 256)?;
                    } else {
                        // A b64 write: rsi, rsi + 1; a write2 pair: rsi, rdx.
                        let second = if shape.two || lo == hi { 256 } else { 0 };
                        self.lds_qwords_512(false, first, lo, second)?;
                    }
                }
            }
            Isa::Avx2 => {
                a.vmovd(xmm1, r10d)?;
                a.vpbroadcastd(ymm1, xmm1)?;
                for p in 0..parts {
                    let off = if p == 0 { ecx } else { r8d };
                    self.lds_range_avx2(off, slow)?;
                }
                if shape.load {
                    for p in 0..parts {
                        let (off, dst) = if p == 0 { (ecx, rsi) } else { (r8d, rdx) };
                        self.lds_read_avx2(off, dst, shape.bytes == 8)?;
                    }
                } else if !shape.two {
                    self.lds_write_avx2(shape.bytes == 8)?;
                } else {
                    self.lds_write_lanes(shape)?;
                }
            }
        }
        ds_stub_returns(&mut self.a, &mut ok, &mut slow)
    }

    /// Writes lane by lane, lanes in order, after the range check (r9 = the LDS): each active
    /// lane's data dword (8-byte accesses: and the dword at rdx, the pair's second) at LDS
    /// address `addr + ecx`; for a `write2`, its first data (rsi) at `addr + ecx` and then its
    /// second (rdx) at `addr + r8d`, each with its next VGPR's dword for `write2_b64`.
    fn lds_write_lanes(&mut self, shape: DsShape) -> R<()> {
        let wide = shape.bytes == 8;
        let a = &mut self.a;
        let mut lane = a.create_label();
        a.mov(r11, qword_ptr(rbx + (W_S + 4 * i32::from(EXEC))))?;
        // rbx (the wave, not needed past EXEC) and rbp hold the data and the address.
        a.push(rbx)?;
        a.push(rbp)?;
        bind(a, &mut lane)?;
        a.tzcnt(rax, r11)?;
        a.mov(r10d, dword_ptr(rdi + rax * 4))?;
        let parts: &[(AsmRegister64, AsmRegister64)] = if shape.two {
            &[(rcx, rsi), (r8, rdx)]
        } else {
            &[(rcx, rsi)]
        };
        for &(off, data) in parts {
            // 32-bit LDS address: both registers hold zero-extended dwords.
            a.lea(ebp, dword_ptr(r10 + off))?;
            a.mov(ebx, dword_ptr(data + rax * 4))?;
            a.mov(dword_ptr(r9 + rbp), ebx)?;
            if wide {
                let hi = if shape.two {
                    dword_ptr(data + rax * 4 + 256)
                } else {
                    dword_ptr(rdx + rax * 4)
                };
                a.mov(ebx, hi)?;
                a.mov(dword_ptr(r9 + rbp + 4), ebx)?;
            }
        }
        a.blsr(r11, r11)?;
        a.jnz(lane)?;
        a.pop(rbp)?;
        a.pop(rbx)?;
        Ok(())
    }

    /// One or two dwords per lane (`ds_write_b32`; `ds_write_b64`, its high dwords at rdx)
    /// written on AVX2, after the range check (r9 = the LDS, ecx = the offset): a chunk of 8
    /// lanes that are all active at consecutive addresses (a tile's row, a reduction's slots,
    /// 64-bit keys staged for an exchange) is one vector store (two of the interleaved
    /// dwords for pairs); the others lane by lane. Chunks go in order and so do lanes within
    /// one, so the highest lane's value stays where addresses overlap.
    fn lds_write_avx2(&mut self, wide: bool) -> R<()> {
        chunk_constants_avx2(&mut self.a, ecx)?;
        let a = &mut self.a;
        if wide {
            a.mov(rax, LANE_OFFSETS8.as_ptr() as u64)?;
            a.vmovdqu(ymm8, ymmword_ptr(rax))?;
        }
        a.push(rbp)?;
        for c in 0..8 {
            let mut lane = a.create_label();
            let mut next = a.create_label();
            a.movzx(r11d, exec_byte(c))?;
            a.test(r11d, r11d)?;
            a.jz(next)?;
            a.cmp(r11d, 0xff)?;
            a.jne(lane)?;
            a.vpaddd(ymm0, ymm2, ymmword_ptr(rdi + 32 * c))?;
            a.vpbroadcastd(ymm6, xmm0)?;
            a.vpaddd(ymm7, ymm6, ymm8)?;
            a.vpcmpeqd(ymm7, ymm7, ymm0)?;
            // CF of `vptest x, ones` = every lane of x set.
            a.vptest(ymm7, ymm9)?;
            a.jae(lane)?;
            a.vmovd(eax, xmm0)?;
            a.vmovdqu(ymm0, ymmword_ptr(rsi + 32 * c))?;
            if wide {
                a.vmovdqu(ymm1, ymmword_ptr(rdx + 32 * c))?;
                super::mem_wide::to_lanes(a, 2)?;
                a.vmovdqu(ymmword_ptr(r9 + rax + 32), ymm1)?;
            }
            a.vmovdqu(ymmword_ptr(r9 + rax), ymm0)?;
            a.jmp(next)?;
            bind(a, &mut lane)?;
            a.tzcnt(r10, r11)?;
            // 32-bit LDS address: both registers hold zero-extended dwords.
            a.mov(ebp, dword_ptr(rdi + r10 * 4 + 32 * c))?;
            a.add(ebp, ecx)?;
            a.mov(eax, dword_ptr(rsi + r10 * 4 + 32 * c))?;
            a.mov(dword_ptr(r9 + rbp), eax)?;
            if wide {
                a.mov(eax, dword_ptr(rdx + r10 * 4 + 32 * c))?;
                a.mov(dword_ptr(r9 + rbp + 4), eax)?;
            }
            a.blsr(r11d, r11d)?;
            a.jnz(lane)?;
            bind(a, &mut next)?;
        }
        a.pop(rbp)?;
        Ok(())
    }

    /// Jumps to `slow` if an active lane's `addr + off` (32-bit) passes the limit in ymm1
    /// (AVX2).
    pub(super) fn lds_range_avx2(&mut self, off: AsmRegister32, slow: CodeLabel) -> R<()> {
        let a = &mut self.a;
        // x >u lim: maxu(x, lim) != lim.
        a.vmovd(xmm2, off)?;
        a.vpbroadcastd(ymm2, xmm2)?;
        for c in 0..8 {
            a.movzx(eax, exec_byte(c))?;
            a.shl(eax, 5)?;
            a.vmovdqu(ymm3, ymmword_ptr(r15 + rax))?;
            a.vpaddd(ymm0, ymm2, ymmword_ptr(rdi + 32 * c))?;
            a.vpmaxud(ymm0, ymm0, ymm1)?;
            a.vpcmpeqd(ymm0, ymm0, ymm1)?;
            // CF = every active lane within the limit.
            a.vptest(ymm0, ymm3)?;
            a.jae(slow)?;
        }
        Ok(())
    }

    /// One dword per lane at the addresses in zmm`first`.. (AVX-512): per chunk of 16 lanes,
    /// one masked vector move when the active lanes are consecutive, a broadcast when a read's
    /// active lanes share one address, a gather or scatter otherwise. The data register's
    /// lanes at `reg`.
    fn lds_dwords_512(&mut self, load: bool, first: u8, reg: AsmRegister64) -> R<()> {
        let a = &mut self.a;
        a.mov(r10, LANE_OFFSETS4.as_ptr() as u64)?;
        for c in 0..4 {
            let idx = zr(V(first + c as u8));
            let data = zmmword_ptr(reg + 64 * c);
            let (mut next, mut gather) = (a.create_label(), a.create_label());
            a.kmovw(k1, exec_word(c))?;
            a.kortestw(k1, k1)?;
            a.jz(next)?;
            // eax = lane 16c's address (an active lane's, wherever a test below passes).
            a.vmovdqa64(zmm7, idx)?;
            a.vmovd(eax, xmm7)?;
            a.vpbroadcastd(zmm7, eax)?;
            if load {
                let mut spread = a.create_label();
                a.vpcmpd(k2.k1(), zmm7, idx, 4)?;
                a.kortestw(k2, k2)?;
                a.jnz(spread)?;
                merge_chunk(a, reg + 64 * c, zmm3, |a, t| {
                    Ok(a.vpbroadcastd(t.k1(), dword_ptr(r9 + rax))?)
                })?;
                a.jmp(next)?;
                bind(a, &mut spread)?;
            }
            // Consecutive in 32 bits, and without wrapping (then eax + 4l are the addresses).
            a.cmp(eax, -64)?;
            a.ja(gather)?;
            a.vpaddd(zmm7, zmm7, zmmword_ptr(r10))?;
            a.vpcmpd(k2.k1(), zmm7, idx, 4)?;
            a.kortestw(k2, k2)?;
            a.jnz(gather)?;
            if load {
                merge_chunk(a, reg + 64 * c, zmm3, |a, t| {
                    Ok(a.vmovdqu32(t.k1(), zmmword_ptr(r9 + rax))?)
                })?;
            } else {
                a.vmovdqu32(zmm3, data)?;
                a.vmovdqu32(zmmword_ptr(r9 + rax).k1(), zmm3)?;
            }
            a.jmp(next)?;
            bind(a, &mut gather)?;
            a.kmovw(k2, exec_word(c))?;
            if load {
                merge_chunk(a, reg + 64 * c, zmm3, |a, t| {
                    Ok(a.vpgatherdd(t.k2(), ptr(r9 + idx))?)
                })?;
            } else {
                a.vmovdqu32(zmm3, data)?;
                a.vpscatterdd(ptr(r9 + idx).k2(), zmm3)?;
            }
            bind(a, &mut next)?;
        }
        Ok(())
    }

    /// One qword per lane at the addresses in zmm`first`.. (AVX-512, 8 lanes per move,
    /// gather or scatter, with the fast paths of [`Emitter::lds_dwords_512`]): reads split
    /// into the registers at `reg` and `reg + 256`; writes join the registers at `reg` and
    /// `reg + second` (256: the next VGPR; 0: the one at rdx).
    fn lds_qwords_512(&mut self, load: bool, first: u8, reg: AsmRegister64, second: i32) -> R<()> {
        let a = &mut self.a;
        a.mov(r10, LANE_OFFSETS8.as_ptr() as u64)?;
        for g in 0..8 {
            let (mut next, mut gather) = (a.create_label(), a.create_label());
            // Lanes 8g..8g+7: half of chunk g / 2.
            let z = zr(V(first + (g / 2) as u8));
            if g % 2 == 0 {
                a.vmovdqa64(zmm0, z)?;
            } else {
                a.vextracti64x4(ymm0, z, 1)?;
            }
            a.kmovb(k1, exec_byte(g))?;
            a.kortestb(k1, k1)?;
            a.jz(next)?;
            let (lo, hi) = (ymmword_ptr(reg + 32 * g), ymmword_ptr(reg + (256 + 32 * g)));
            let hi_src = if second == 0 {
                ymmword_ptr(rdx + 32 * g)
            } else {
                ymmword_ptr(reg + (second + 32 * g))
            };
            // Split 8 qwords (zmm3) into the two registers, or join them.
            let split = |a: &mut CodeAssembler| -> R<()> {
                a.vpmovqd(ymm4, zmm3)?;
                a.vpsrlq(zmm3, zmm3, 32)?;
                a.vpmovqd(ymm5, zmm3)?;
                a.vmovdqu32(lo.k1(), ymm4)?;
                a.vmovdqu32(hi.k1(), ymm5)?;
                Ok(())
            };
            let join = |a: &mut CodeAssembler| -> R<()> {
                a.vpmovzxdq(zmm3, lo)?;
                a.vpmovzxdq(zmm4, hi_src)?;
                a.vpsllq(zmm4, zmm4, 32)?;
                a.vporq(zmm3, zmm3, zmm4)?;
                Ok(())
            };
            a.vmovd(eax, xmm0)?;
            a.vpbroadcastd(ymm7, eax)?;
            if load {
                let mut spread = a.create_label();
                a.vpcmpd(k2.k1(), ymm7, ymm0, 4)?;
                a.kortestb(k2, k2)?;
                a.jnz(spread)?;
                a.vpbroadcastq(zmm3, qword_ptr(r9 + rax))?;
                split(a)?;
                a.jmp(next)?;
                bind(a, &mut spread)?;
            }
            a.cmp(eax, -64)?;
            a.ja(gather)?;
            a.vpaddd(ymm7, ymm7, ymmword_ptr(r10))?;
            a.vpcmpd(k2.k1(), ymm7, ymm0, 4)?;
            a.kortestb(k2, k2)?;
            a.jnz(gather)?;
            if load {
                a.vmovdqu64(zmm3.k1().z(), zmmword_ptr(r9 + rax))?;
                split(a)?;
            } else {
                join(a)?;
                a.vmovdqu64(zmmword_ptr(r9 + rax).k1(), zmm3)?;
            }
            a.jmp(next)?;
            bind(a, &mut gather)?;
            a.kmovb(k2, exec_byte(g))?;
            if load {
                a.vpgatherdq(zmm3.k2(), ptr(r9 + ymm0))?;
                split(a)?;
            } else {
                join(a)?;
                a.vpscatterdq(ptr(r9 + ymm0).k2(), zmm3)?;
            }
            bind(a, &mut next)?;
        }
        Ok(())
    }

    /// LDS reads on AVX2, 8 lanes at a time, merged into the destination (at `dst`) under
    /// EXEC: a chunk whose lanes are all active and read one address (a tile's row broadcast)
    /// or consecutive dwords is one broadcast or one move; otherwise dword gathers (two per
    /// lane for qwords).
    fn lds_read_avx2(&mut self, off: AsmRegister32, dst: AsmRegister64, qwords: bool) -> R<()> {
        chunk_constants_avx2(&mut self.a, off)?;
        let a = &mut self.a;
        let parts: &[(i32, i32)] = if qwords {
            &[(0, 0), (256, 4)]
        } else {
            &[(0, 0)]
        };
        for c in 0..8 {
            let mut gather = a.create_label();
            let mut uniform = a.create_label();
            let mut next = a.create_label();
            a.movzx(eax, exec_byte(c))?;
            a.vpaddd(ymm0, ymm2, ymmword_ptr(rdi + 32 * c))?;
            a.cmp(eax, 0xff)?;
            a.jne(gather)?;
            // CF of `vptest x, ones` = every lane of x set.
            a.vpbroadcastd(ymm6, xmm0)?;
            a.vpcmpeqd(ymm7, ymm6, ymm0)?;
            a.vptest(ymm7, ymm9)?;
            a.jb(uniform)?;
            if !qwords {
                a.vpaddd(ymm7, ymm6, ymm8)?;
                a.vpcmpeqd(ymm7, ymm7, ymm0)?;
                a.vptest(ymm7, ymm9)?;
                a.jae(gather)?;
                a.vmovd(eax, xmm0)?;
                a.vmovdqu(ymm4, ymmword_ptr(r9 + rax))?;
                a.vmovdqu(ymmword_ptr(dst + 32 * c), ymm4)?;
                a.jmp(next)?;
            } else {
                a.jmp(gather)?;
            }
            // One address for all 8 lanes.
            bind(a, &mut uniform)?;
            a.vmovd(eax, xmm0)?;
            for &(reg_off, byte) in parts {
                a.vpbroadcastd(ymm4, dword_ptr(r9 + rax + byte))?;
                a.vmovdqu(ymmword_ptr(dst + (reg_off + 32 * c)), ymm4)?;
            }
            a.jmp(next)?;
            bind(a, &mut gather)?;
            a.shl(eax, 5)?;
            a.vmovdqu(ymm3, ymmword_ptr(r15 + rax))?;
            for &(reg_off, byte) in parts {
                let r = ymmword_ptr(dst + (reg_off + 32 * c));
                a.vmovdqu(ymm4, r)?;
                a.vmovdqa(ymm5, ymm3)?;
                // Inactive lanes keep the register's value (the gather leaves them).
                a.vpgatherdd_3(ymm4, ptr(r9 + ymm0 + byte), ymm5)?;
                a.vmovdqu(r, ymm4)?;
            }
            bind(a, &mut next)?;
        }
        Ok(())
    }
}

/// The AVX2 LDS paths' constants: ymm2 = the access's offset in every lane, ymm8 = the byte
/// offsets 0, 4, ..., 28 of a chunk's consecutive dwords, ymm9 = all ones (rax is clobbered).
/// An LDS stub's start: to `ok` when no lane is active; r9 = the LDS, r10 = its size less
/// `bytes` (the highest address an access may start at; to `slow` when none fits).
pub(super) fn lds_stub_start(
    a: &mut CodeAssembler,
    bytes: u8,
    ok: CodeLabel,
    slow: CodeLabel,
) -> R<()> {
    a.cmp(qword_ptr(rbx + (W_S + 4 * i32::from(EXEC))), 0)?;
    a.je(ok)?;
    a.mov(r9, qword_ptr(r12 + J_LDS))?;
    a.mov(r10, qword_ptr(r12 + J_LDS_SIZE))?;
    a.sub(r10, i32::from(bytes))?;
    a.jb(slow)?;
    Ok(())
}

/// Jumps to `slow` if an active lane's `addr + off` (32-bit) passes the limit in r10d
/// (AVX-512): the addresses at rdi, the offsets in ecx (and r8d for a second part); leaves
/// each part's addresses, chunk by chunk, in zmm16.. (zmm20.. the second's).
pub(super) fn lds_range_512(a: &mut CodeAssembler, parts: usize, slow: CodeLabel) -> R<()> {
    a.vpbroadcastd(zmm1, r10d)?;
    for p in 0..parts {
        a.vpbroadcastd(zmm2, if p == 0 { ecx } else { r8d })?;
        for c in 0..4 {
            let r = zr(V(16 + 4 * p as u8 + c as u8));
            a.vpaddd(r, zmm2, zmmword_ptr(rdi + 64 * c))?;
        }
    }
    for c in 0..4 {
        a.kmovw(k1, exec_word(c))?;
        for p in 0..parts {
            let r = zr(V(16 + 4 * p as u8 + c as u8));
            a.vpcmpud(k2.k1(), r, zmm1, 6)?; // NLE: above the limit
            a.kortestw(k2, k2)?;
            a.jnz(slow)?;
        }
    }
    Ok(())
}

fn chunk_constants_avx2(a: &mut CodeAssembler, off: AsmRegister32) -> R<()> {
    a.vmovd(xmm2, off)?;
    a.vpbroadcastd(ymm2, xmm2)?;
    a.mov(rax, super::mem_vector::LANE_OFFSETS32[0].as_ptr() as u64)?;
    a.vmovdqu(ymm8, ymmword_ptr(rax))?;
    a.vpcmpeqd(ymm9, ymm9, ymm9)?;
    Ok(())
}

/// A DS stub's two exits: `ok` returns eax = 0, `slow` eax = 1 (the interpreter runs the
/// instruction).
pub(super) fn ds_stub_returns(
    a: &mut CodeAssembler,
    ok: &mut CodeLabel,
    slow: &mut CodeLabel,
) -> R<()> {
    bind(a, ok)?;
    a.xor(eax, eax)?;
    a.ret()?;
    bind(a, slow)?;
    a.mov(eax, 1)?;
    a.ret()?;
    Ok(())
}
