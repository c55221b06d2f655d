//! Memory accesses of other sizes than the vector paths', lane by lane on both code
//! generators: a byte or a short per lane (global/flat `load_ubyte/sbyte/ushort/sshort`,
//! `store_byte/short` and their `_d16`/`_d16_hi` forms; the same through the private-segment
//! V#; `ds_read_u8/i8/u16/i16`, `ds_write_b8/b16` and their `_d16`/`_d16_hi` forms), and LDS
//! accesses of 3 or 4 dwords (`ds_read_b96/b128`, `ds_write_b96/b128`).
//!
//! Global and buffer accesses use the vector stubs' interface. When the active lanes are
//! consecutive (`bytes` apart, or a dword apart for scratch, whose swizzle puts lane l's byte
//! at `4 l` from lane 0's; not the `_d16` loads), one span check, then on AVX-512 masked byte
//! or word moves per 16 lanes, on AVX2 (global and flat only) a vector move per 8 lanes that
//! are all active and lane by lane in the other groups. Otherwise the lane-by-lane path of `mem_lanes.rs`: one pass for
//! the lowest and highest address and the span check (size: the access's bytes, as
//! `vmem::access` checks them), one pass of scalar moves in lane order (overlapping stores
//! keep the highest lane's value). A failed check leaves the instruction to the interpreter,
//! which reports the fault. LDS accesses use the DS stub interface
//! (`mem_lds.rs`): one pass checks that every active lane's access lies inside the LDS (else
//! the interpreter runs it: out-of-range reads give 0, writes are dropped), one pass moves
//! the data in lane order; consecutive bytes or shorts (not `_d16` reads) move as vectors, as
//! for global memory. Each lane's address is read just before its own move, so a read
//! whose destination is its address register gives the interpreter's result.

use super::emit::{bind, err, sreg64, Emitter, EXEC, R, W_S};
use super::mem_lds::{ds_stub_returns, DsShape};
use super::mem_vector::{
    exec_byte, exec_word, merge_chunk, stub_returns, VmemShape, LANE_OFFSETS32, SITE_DELTA,
};
use super::select::SubDword;
use super::vx::{zr, Isa, V};
use super::JitCtx;
use iced_x86::code_asm::*;
use std::mem::offset_of;

const J_LDS: i32 = offset_of!(JitCtx, lds) as i32;
const J_LDS_SIZE: i32 = offset_of!(JitCtx, lds_size) as i32;

/// Moves one lane's byte or short between `host` and its dword of the data VGPR at `slot`
/// (eax is scratch): loads zero- or sign-extend to 32 bits and write the whole dword, or with
/// `d16` only one half (the value's low 16 bits); stores take the low bits of the dword, or of
/// its high half (`_d16_hi`).
pub(super) fn narrow_move(
    a: &mut CodeAssembler,
    load: bool,
    s: SubDword,
    host: AsmMemoryOperand,
    slot: AsmMemoryOperand,
) -> R<()> {
    let hi = if s.d16 == Some(true) { 2 } else { 0 };
    if load {
        match (s.bytes, s.sext) {
            (1, false) => a.movzx(eax, byte_ptr(host))?,
            (1, true) => a.movsx(eax, byte_ptr(host))?,
            (_, false) => a.movzx(eax, word_ptr(host))?,
            (_, true) => a.movsx(eax, word_ptr(host))?,
        }
        match s.d16 {
            None => a.mov(dword_ptr(slot), eax)?,
            Some(_) => a.mov(word_ptr(slot + hi), ax)?,
        }
    } else if s.bytes == 1 {
        a.mov(al, byte_ptr(slot + hi))?;
        a.mov(byte_ptr(host), al)?;
    } else {
        a.mov(ax, word_ptr(slot + hi))?;
        a.mov(word_ptr(host), ax)?;
    }
    Ok(())
}

/// Scattered lanes' bytes or shorts (AVX-512), after [`Emitter::scattered_span_512`]: the
/// qword addresses in zmm16..zmm23 go to the stack, then each active lane in order moves its
/// element at its address + the delta in r8 (the highest lane's store stays where lanes
/// overlap).
fn narrow_lanes_512(a: &mut CodeAssembler, load: bool, s: SubDword) -> R<()> {
    a.sub(rsp, 512)?;
    for g in 0..8 {
        a.vmovdqu64(zmmword_ptr(rsp + 64 * g), zr(V(16 + g as u8)))?;
    }
    let mut lane = a.create_label();
    a.mov(rcx, sreg64(EXEC))?;
    bind(a, &mut lane)?;
    a.tzcnt(r10, rcx)?;
    a.mov(r11, qword_ptr(rsp + r10 * 8))?;
    a.add(r11, r8)?;
    narrow_move(a, load, s, AsmMemoryOperand::from(r11), rsi + r10 * 4)?;
    a.blsr(rcx, rcx)?;
    a.jnz(lane)?;
    a.add(rsp, 512)?;
    Ok(())
}

/// Byte offsets `size * lane` of the 64 lanes for sizes 1 and 2.
static NARROW_OFFSETS: [[u32; 64]; 2] = {
    let mut t = [[0u32; 64]; 2];
    let mut l = 0;
    while l < 64 {
        t[0][l] = l as u32;
        t[1][l] = 2 * l as u32;
        l += 1;
    }
    t
};

/// Consecutive lanes' bytes or shorts at host address r8 (AVX-512), 16 lanes at a time:
/// masked byte or word moves (no inactive lane's memory touched), lanes `bytes` apart
/// (extended or narrowed with `vpmov*`) or a dword apart (`swizzled`: the element is the low
/// byte or word of each dword; a byte or word mask spread from EXEC by `pdep`). Loads merge
/// into the register's old lanes and store it whole (`merge_chunk`).
fn narrow_vectors_512(a: &mut CodeAssembler, load: bool, s: SubDword, swizzled: bool) -> R<()> {
    let bits = 8 * u32::from(s.bytes);
    for c in 0..4 {
        a.kmovw(k1, exec_word(c))?;
        if swizzled {
            // k2: the low byte (word) of each active lane's dword.
            a.movzx(ecx, exec_word(c))?;
            if s.bytes == 1 {
                a.mov(rax, 0x1111_1111_1111_1111u64)?;
                a.pdep(rcx, rcx, rax)?;
                a.kmovq(k2, rcx)?;
            } else {
                a.mov(eax, 0x5555_5555)?;
                a.pdep(ecx, ecx, eax)?;
                a.kmovd(k2, ecx)?;
            }
        }
        let span = if swizzled {
            64
        } else {
            16 * i32::from(s.bytes)
        };
        let host = r8 + span * c;
        if load {
            match (swizzled, s.bytes, s.sext) {
                (false, 1, sext) => {
                    a.vmovdqu8(xmm0.k1().z(), xmmword_ptr(host))?;
                    if sext {
                        a.vpmovsxbd(zmm0, xmm0)?;
                    } else {
                        a.vpmovzxbd(zmm0, xmm0)?;
                    }
                }
                (false, _, sext) => {
                    a.vmovdqu16(ymm0.k1().z(), ymmword_ptr(host))?;
                    if sext {
                        a.vpmovsxwd(zmm0, ymm0)?;
                    } else {
                        a.vpmovzxwd(zmm0, ymm0)?;
                    }
                }
                (true, b, sext) => {
                    if b == 1 {
                        a.vmovdqu8(zmm0.k2().z(), zmmword_ptr(host))?;
                    } else {
                        a.vmovdqu16(zmm0.k2().z(), zmmword_ptr(host))?;
                    }
                    if sext {
                        a.vpslld(zmm0, zmm0, 32 - bits)?;
                        a.vpsrad(zmm0, zmm0, 32 - bits)?;
                    }
                }
            }
            merge_chunk(a, rsi + 64 * c, zmm3, |a, t| Ok(a.vmovdqa32(t.k1(), zmm0)?))?;
        } else {
            a.vmovdqu32(zmm0, zmmword_ptr(rsi + 64 * c))?;
            if s.d16 == Some(true) {
                a.vpsrld(zmm0, zmm0, 16)?;
            }
            match (swizzled, s.bytes) {
                (false, 1) => {
                    a.vpmovdb(xmm0, zmm0)?;
                    a.vmovdqu8(xmmword_ptr(host).k1(), xmm0)?;
                }
                (false, _) => {
                    a.vpmovdw(ymm0, zmm0)?;
                    a.vmovdqu16(ymmword_ptr(host).k1(), ymm0)?;
                }
                (true, 1) => a.vmovdqu8(zmmword_ptr(host).k2(), zmm0)?,
                (true, _) => a.vmovdqu16(zmmword_ptr(host).k2(), zmm0)?,
            }
        }
    }
    Ok(())
}

/// `vpshufb` masks that gather each dword's low byte (word) into the low 4 (8) bytes of each
/// 128-bit half, then the `vpermd` indices that join the halves' packed dwords: 0, 4 (bytes);
/// 0, 1, 4, 5 (words).
static PACK_AVX2: [[u8; 32]; 4] = {
    let mut t = [[0x80u8; 32]; 4];
    let mut i = 0;
    while i < 4 {
        t[0][i] = 4 * i as u8;
        t[0][16 + i] = 4 * i as u8;
        t[1][2 * i] = 4 * i as u8;
        t[1][2 * i + 1] = 4 * i as u8 + 1;
        t[1][16 + 2 * i] = 4 * i as u8;
        t[1][16 + 2 * i + 1] = 4 * i as u8 + 1;
        i += 1;
    }
    // Dword indices (little-endian); the dwords past the packed ones are not stored.
    let idx = [[0u8, 4, 0, 0, 0, 0, 0, 0], [0, 1, 4, 5, 0, 0, 0, 0]];
    let mut k = 0;
    while k < 32 {
        t[2][k] = if k % 4 == 0 { idx[0][k / 4] } else { 0 };
        t[3][k] = if k % 4 == 0 { idx[1][k / 4] } else { 0 };
        k += 1;
    }
    t
};

/// Consecutive lanes' bytes or shorts (`bytes` apart) at host address r8 (AVX2), 8 lanes at
/// a time: a group whose lanes are all active moves as one vector (`vpmovzx/sx` loads; stores
/// packed by `vpshufb` and `vpermd`), a partly active group lane by lane (in lane order).
fn narrow_vectors_avx2(a: &mut CodeAssembler, load: bool, s: SubDword) -> R<()> {
    let b = i32::from(s.bytes);
    a.mov(r10, PACK_AVX2.as_ptr() as u64)?;
    a.vmovdqu(ymm1, ymmword_ptr(r10 + 32 * (b - 1)))?;
    a.vmovdqu(ymm2, ymmword_ptr(r10 + (64 + 32 * (b - 1))))?;
    for g in 0..8 {
        let (mut partial, mut lane, mut next) =
            (a.create_label(), a.create_label(), a.create_label());
        let host = r8 + 8 * b * g;
        let regs = ymmword_ptr(rsi + 32 * g);
        a.movzx(ecx, exec_byte(g))?;
        a.cmp(ecx, 0xff)?;
        a.jne(partial)?;
        if load {
            match (b, s.sext) {
                (1, false) => a.vpmovzxbd(ymm0, qword_ptr(host))?,
                (1, true) => a.vpmovsxbd(ymm0, qword_ptr(host))?,
                (_, false) => a.vpmovzxwd(ymm0, xmmword_ptr(host))?,
                (_, true) => a.vpmovsxwd(ymm0, xmmword_ptr(host))?,
            }
            a.vmovdqu(regs, ymm0)?;
        } else {
            a.vmovdqu(ymm0, regs)?;
            if s.d16 == Some(true) {
                a.vpsrld(ymm0, ymm0, 16)?;
            }
            a.vpshufb(ymm0, ymm0, ymm1)?;
            a.vpermd(ymm0, ymm2, ymm0)?;
            if b == 1 {
                a.vmovq(qword_ptr(host), xmm0)?;
            } else {
                a.vmovdqu(xmmword_ptr(host), xmm0)?;
            }
        }
        a.jmp(next)?;
        bind(a, &mut partial)?;
        a.test(ecx, ecx)?;
        a.jz(next)?;
        bind(a, &mut lane)?;
        // edx = the lane in the group (rdx, the uniform part, is in r8 already).
        a.tzcnt(edx, ecx)?;
        let slot = rsi + rdx * 4 + 32 * g;
        let at = match b {
            1 => r8 + rdx + 8 * g,
            _ => r8 + rdx * 2 + 16 * g,
        };
        narrow_move(a, load, s, at, slot)?;
        a.blsr(ecx, ecx)?;
        a.jnz(lane)?;
        bind(a, &mut next)?;
    }
    Ok(())
}

impl Emitter<'_> {
    /// The vector-memory stub of a sub-dword `shape` (the interface of `mem_vector.rs`): the
    /// active lanes one by one.
    pub(super) fn narrow_vmem_stub(&mut self, shape: VmemShape) -> R<()> {
        let s = shape.sub.ok_or_else(|| err("a narrow stub for dwords"))?;
        // Consecutive lanes: `bytes` apart, or a dword apart (scratch).
        let stride = if shape.swizzled { 4 } else { s.bytes };
        // (AVX2 has no byte masks: scratch goes lane by lane there.)
        let vector =
            (!shape.load || s.d16.is_none()) && (self.isa == Isa::Avx512 || !shape.swizzled);
        let a = &mut self.a;
        let (mut top, mut ok, mut slow) = (a.create_label(), a.create_label(), a.create_label());
        let mut lanes = a.create_label();
        a.sub(rsp, 8)?; // 16-byte alignment for the span call
        bind(a, &mut top)?;
        a.mov(rcx, sreg64(EXEC))?;
        a.test(rcx, rcx)?;
        a.jz(ok)?;
        if vector {
            // First active lane (r10), last (r11).
            a.tzcnt(r10, rcx)?;
            a.lzcnt(r11, rcx)?;
            a.neg(r11)?;
            a.add(r11, 63)?;
            let table = match stride {
                4 => LANE_OFFSETS32[0].as_ptr(),
                n => NARROW_OFFSETS[usize::from(n) - 1].as_ptr(),
            } as u64;
            let stride = i32::from(stride);
            self.consecutive_base(stride, shape.pair, table, lanes)?;
            // Span [r8 + stride * first, r8 + stride * last + bytes).
            let a = &mut self.a;
            a.imul_3(rax, r10, stride)?;
            a.add(rax, r8)?;
            a.imul_3(rcx, r11, stride)?;
            a.lea(rcx, qword_ptr(rcx + r8 + i32::from(s.bytes)))?;
            self.stub_range_check(!shape.load, top, slow)?;
            let a = &mut self.a;
            a.add(r8, qword_ptr(r11 + SITE_DELTA))?;
            match self.isa {
                Isa::Avx512 => narrow_vectors_512(a, shape.load, s, stride == 4)?,
                Isa::Avx2 => narrow_vectors_avx2(a, shape.load, s)?,
            }
            a.jmp(ok)?;
        }
        bind(&mut self.a, &mut lanes)?;
        match self.isa {
            Isa::Avx512 => {
                let b = i32::from(s.bytes);
                self.scattered_span_512(shape.pair, b, !shape.load, top, slow)?;
                narrow_lanes_512(&mut self.a, shape.load, s)?;
            }
            Isa::Avx2 => self.scattered_lanes(shape, top, slow)?,
        }
        let a = &mut self.a;
        a.jmp(ok)?;
        stub_returns(a, &mut ok, &mut slow)
    }

    /// In the DS lanes stub (r9 = the LDS, r10 = its size - `bytes`, ecx = the offset):
    /// whether the active lanes' address VGPRs are consecutive, lane l's `base + bytes * l`
    /// (the vector stubs' check, with the offset as the uniform part), and the last active
    /// lane's access inside the LDS, so that no lane's address + offset wraps 32 bits; then
    /// r8 = the host address of lane 0's element, else a jump to `not` with edx = the offset.
    fn lds_consecutive(&mut self, bytes: u8, not: CodeLabel) -> R<()> {
        let size = i32::from(bytes);
        let a = &mut self.a;
        let exec = qword_ptr(rbx + (W_S + 4 * i32::from(EXEC)));
        a.mov(edx, ecx)?;
        a.tzcnt(r10, exec)?;
        a.lzcnt(r11, exec)?;
        a.neg(r11)?;
        a.add(r11, 63)?;
        let table = NARROW_OFFSETS[usize::from(bytes) - 1].as_ptr() as u64;
        self.consecutive_base(size, false, table, not)?;
        // r8 = base + offset (64 bits): the last lane's address r8 + size * last must be
        // at most the LDS size - bytes.
        let a = &mut self.a;
        a.imul_3(rax, r11, size)?;
        a.add(rax, r8)?;
        a.mov(rcx, qword_ptr(r12 + J_LDS_SIZE))?;
        a.sub(rcx, size)?;
        a.cmp(rax, rcx)?;
        a.ja(not)?;
        a.add(r8, r9)?;
        Ok(())
    }

    /// The DS stub of a sub-dword or 3-4 dword `shape` (the interface of `mem_lds.rs`, one
    /// access per lane at offset ecx).
    pub(super) fn ds_lanes_stub(&mut self, shape: DsShape) -> R<()> {
        let a = &mut self.a;
        let (mut ok, mut slow, mut lane) = (a.create_label(), a.create_label(), a.create_label());
        let exec = qword_ptr(rbx + (W_S + 4 * i32::from(EXEC)));
        a.cmp(exec, 0)?;
        a.je(ok)?;
        a.mov(r9, qword_ptr(r12 + J_LDS))?;
        // r10 = size - bytes (no lane fits when negative).
        a.mov(r10, qword_ptr(r12 + J_LDS_SIZE))?;
        a.sub(r10, i32::from(shape.bytes))?;
        a.jb(slow)?;
        if let Some(s) = shape.sub.filter(|s| !shape.load || s.d16.is_none()) {
            let mut lanes = a.create_label();
            self.lds_consecutive(s.bytes, lanes)?;
            let a = &mut self.a;
            match self.isa {
                Isa::Avx512 => narrow_vectors_512(a, shape.load, s, false)?,
                Isa::Avx2 => narrow_vectors_avx2(a, shape.load, s)?,
            }
            a.jmp(ok)?;
            // Not consecutive: the offset and the limit again.
            bind(a, &mut lanes)?;
            a.mov(ecx, edx)?;
            a.mov(r10, qword_ptr(r12 + J_LDS_SIZE))?;
            a.sub(r10, i32::from(shape.bytes))?;
        }
        // Every active lane's address + offset (32 bits, wrapping) <= size - bytes (VEX
        // code, run by both code generators).
        let a = &mut self.a;
        a.vmovd(xmm1, r10d)?;
        a.vpbroadcastd(ymm1, xmm1)?;
        self.lds_range_avx2(ecx, slow)?;
        let a = &mut self.a;
        // The moves, lanes in order: rdx = the lane (the interface's second register, unused
        // here); rbp (the instruction count, saved) = its 32-bit LDS address.
        a.push(rbp)?;
        a.mov(r11, exec)?;
        bind(a, &mut lane)?;
        a.tzcnt(rdx, r11)?;
        a.mov(ebp, dword_ptr(rdi + rdx * 4))?;
        a.add(ebp, ecx)?;
        match shape.sub {
            Some(s) => narrow_move(a, shape.load, s, r9 + rbp, rsi + rdx * 4)?,
            None => {
                for k in 0..i32::from(shape.bytes) / 4 {
                    let (host, reg) = (
                        dword_ptr(r9 + rbp + 4 * k),
                        dword_ptr(rsi + rdx * 4 + 256 * k),
                    );
                    if shape.load {
                        a.mov(r8d, host)?;
                        a.mov(reg, r8d)?;
                    } else {
                        a.mov(r8d, reg)?;
                        a.mov(host, r8d)?;
                    }
                }
            }
        }
        a.blsr(r11, r11)?;
        a.jnz(lane)?;
        a.pop(rbp)?;
        ds_stub_returns(a, &mut ok, &mut slow)
    }
}
