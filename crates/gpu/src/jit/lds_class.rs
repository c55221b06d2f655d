//! LDS reads through an address register whose shape is already known (AVX-512).
//!
//! Kernels read LDS tiles through a few address registers with many constant offsets
//! (`ds_read2_b32 v[..], v5 offset0:2 offset1:3`, eight times in a row with the same v5). The
//! shape of the addresses in the register (every 16-lane chunk reading one address, or
//! consecutive dwords) and their maximum do not depend on the offset, so the first such read
//! of a block classifies the register into a slot of [`JitCtx::lds_cls`], and every read
//! through it until the register or EXEC may change (tracked statically, per block) needs
//! only one range check and one broadcast or masked move per chunk and access. Any other
//! shape, or an access that may leave the LDS, goes to the general DS stub.
//!
//! Classify stub: rdi = the address VGPR, r10 = the slot. Read stub: the DS stub interface
//! (`mem_lds.rs`) plus r10 = the slot.

use super::emit::{bind, Emitter, EXEC, R, W_S};
use super::mem_lds::{DsShape, J_LDS, J_LDS_SIZE, LANE_OFFSETS4};
use super::mem_vector::{exec_word, merge_chunk, reduce_min_max_u32};
use super::select::Kind;
use super::stubs::Stub;
use super::JitCtx;
use iced_x86::code_asm::*;
use std::mem::offset_of;

/// Slots per worker: address registers classified at once in a block.
pub(crate) const LDS_CLASS_SLOTS: usize = 4;

/// What the classify stub found for one address register (`#[repr(C)]`: generated code
/// reads the fields).
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct LdsClass {
    /// [`BROADCAST`], [`CONSECUTIVE`] or [`OTHER`].
    kind: u32,
    /// The largest active lane's address.
    max: u32,
    _pad: [u32; 2],
    /// Per 16-lane chunk: its first active lane's address (the broadcast address), or for a
    /// chunk without active lanes an active lane's (a read there stays inside).
    bcast: [u32; 4],
    /// Per chunk: where lane 16c's dword would be were the chunk consecutive.
    first: [u32; 4],
    _pad2: [u32; 4],
}

/// Bytes per slot (generated code indexes slots by this).
const SLOT: i32 = 64;
const _: () = assert!(std::mem::size_of::<LdsClass>() == SLOT as usize);

const BROADCAST: u32 = 1;
const CONSECUTIVE: u32 = 2;
const OTHER: u32 = 3;

const K_KIND: i32 = offset_of!(LdsClass, kind) as i32;
const K_MAX: i32 = offset_of!(LdsClass, max) as i32;
const K_BCAST: i32 = offset_of!(LdsClass, bcast) as i32;
const K_FIRST: i32 = offset_of!(LdsClass, first) as i32;
const J_CLS: i32 = offset_of!(JitCtx, lds_cls) as i32;

/// Which VGPRs have a valid classification in which slot, at the current point of the block
/// being emitted.
#[derive(Default)]
pub(super) struct ClassState {
    regs: [Option<u8>; LDS_CLASS_SLOTS],
    /// The slot to reuse when all are taken (round robin).
    next: usize,
}

impl ClassState {
    /// Forgets everything (a block start, a call-out, an EXEC write).
    pub(super) fn clear(&mut self) {
        self.regs = [None; LDS_CLASS_SLOTS];
    }

    /// Forgets VGPR `r` (written).
    fn forget(&mut self, r: u8) {
        for x in &mut self.regs {
            if *x == Some(r) {
                *x = None;
            }
        }
    }

    /// A slot for `r`, which the caller then classifies.
    fn assign(&mut self, r: u8) -> usize {
        let s = self
            .regs
            .iter()
            .position(Option::is_none)
            .unwrap_or_else(|| {
                self.next = (self.next + 1) % LDS_CLASS_SLOTS;
                self.next
            });
        self.regs[s] = Some(r);
        s
    }

    /// After item `k` was emitted: forgets what it may have changed.
    pub(super) fn after(&mut self, k: &Kind) {
        match k {
            Kind::Smem(_) | Kind::Waitcnt(_) | Kind::Nop => {}
            Kind::Salu(s) => {
                let mut exec = false;
                s.regs(|_| {}, |w| exec |= w == EXEC || w == EXEC + 1);
                if exec {
                    self.clear();
                }
            }
            Kind::Vmem(m) if !m.load => {}
            Kind::Vmem(m) => (0..m.dwords).for_each(|d| self.forget(m.data.wrapping_add(d))),
            Kind::DsAtomic(d) if d.rtn => {
                (0..d.regs()).for_each(|k| self.forget(d.dst.wrapping_add(k)))
            }
            Kind::VAtomic(m) if m.rtn => {
                (0..m.regs()).for_each(|k| self.forget(m.dst.wrapping_add(k)))
            }
            Kind::DsAtomic(_) | Kind::VAtomic(_) => {}
            Kind::Ds(d) if !d.load => {}
            Kind::Ds(d) => {
                let n = d.dwords * if d.two { 2 } else { 1 };
                (0..n).for_each(|k| self.forget(d.dst.wrapping_add(k)));
            }
            Kind::Lane(li) if !li.writes_exec => li.vgpr_writes().for_each(|r| self.forget(r)),
            _ => self.clear(),
        }
    }
}

impl Emitter<'_> {
    /// Whether `ds_read(2)_b32` through `addr` goes through a classification.
    pub(super) fn ds_classified(&self, load: bool, dwords: u8) -> bool {
        self.isa == super::vx::Isa::Avx512 && load && dwords == 1
    }

    /// The slot of `addr`'s classification, classifying it first if needed; r10 = the slot.
    pub(super) fn ds_class_slot(&mut self, addr: u8) -> R<()> {
        let known = self.lds_cls.regs.iter().position(|&r| r == Some(addr));
        let slot = match known {
            Some(s) => s,
            None => {
                let s = self.lds_cls.assign(addr);
                let a = &mut self.a;
                a.lea(rdi, qword_ptr(r13 + 256 * i32::from(addr)))?;
                a.lea(r10, qword_ptr(r12 + (J_CLS + SLOT * s as i32)))?;
                self.call_stub(Stub::LdsClassify)?;
                s
            }
        };
        let a = &mut self.a;
        a.lea(r10, qword_ptr(r12 + (J_CLS + SLOT * slot as i32)))?;
        Ok(())
    }

    /// The classify stub (see the module documentation).
    pub(super) fn lds_classify_stub(&mut self) -> R<()> {
        let a = &mut self.a;
        let mut none = a.create_label();
        a.cmp(qword_ptr(rbx + (W_S + 4 * i32::from(EXEC))), 0)?;
        a.je(none)?;
        a.mov(rax, LANE_OFFSETS4.as_ptr() as u64)?;
        a.vmovdqu32(zmm5, zmmword_ptr(rax))?;
        a.vpternlogd(zmm2, zmm2, zmm2, 0xff)?; // minimum so far
        a.vpxord(zmm3, zmm3, zmm3)?; // maximum so far
        a.kxorw(k4, k4, k4)?; // lanes that break "one address per chunk"
        a.kxorw(k5, k5, k5)?; // lanes that break "consecutive per chunk"
        for c in 0..4 {
            a.kmovw(k1, exec_word(c))?;
            a.vmovdqu32(zmm6, zmmword_ptr(rdi + 64 * c))?;
            // The chunk's first active lane t (0 when none: its flags stay clear, and its
            // addresses are replaced below) and its address.
            a.movzx(ecx, exec_word(c))?;
            a.or(ecx, 0x10000)?;
            a.tzcnt(ecx, ecx)?;
            a.and(ecx, 15)?;
            a.mov(eax, dword_ptr(rdi + rcx * 4 + 64 * c))?;
            a.mov(dword_ptr(r10 + (K_BCAST + 4 * c)), eax)?;
            a.vpbroadcastd(zmm7, eax)?;
            a.vpcmpd(k2.k1(), zmm6, zmm7, 4)?;
            a.korw(k4, k4, k2)?;
            // Consecutive: lane 16c's dword at that address - 4t (wrapping shows below).
            a.shl(ecx, 2)?;
            a.sub(eax, ecx)?;
            a.mov(dword_ptr(r10 + (K_FIRST + 4 * c)), eax)?;
            a.vpbroadcastd(zmm7, eax)?;
            a.vpaddd(zmm0, zmm7, zmm5)?;
            a.vpcmpd(k2.k1(), zmm0, zmm6, 4)?;
            a.korw(k5, k5, k2)?;
            // Below lane 16c's: the dwords wrapped past 2^32.
            a.vpcmpud(k2.k1(), zmm6, zmm7, 1)?;
            a.korw(k5, k5, k2)?;
            a.vpminud(zmm2.k1(), zmm2, zmm6)?;
            a.vpmaxud(zmm3.k1(), zmm3, zmm6)?;
        }
        reduce_min_max_u32(a)?;
        a.vmovd(dword_ptr(r10 + K_MAX), xmm3)?;
        a.vmovd(eax, xmm2)?;
        for c in 0..4 {
            let mut active = a.create_label();
            a.cmp(exec_word(c), 0)?;
            a.jne(active)?;
            a.mov(dword_ptr(r10 + (K_BCAST + 4 * c)), eax)?;
            a.mov(dword_ptr(r10 + (K_FIRST + 4 * c)), eax)?;
            bind(a, &mut active)?;
        }
        a.mov(eax, OTHER)?;
        a.mov(ecx, CONSECUTIVE)?;
        a.kortestw(k5, k5)?;
        a.cmovz(eax, ecx)?;
        a.mov(ecx, BROADCAST)?;
        a.kortestw(k4, k4)?;
        a.cmovz(eax, ecx)?;
        a.mov(dword_ptr(r10 + K_KIND), eax)?;
        a.ret()?;
        bind(a, &mut none)?;
        a.mov(dword_ptr(r10 + K_KIND), OTHER)?;
        a.ret()?;
        Ok(())
    }

    /// The read stub for `shape` (4-byte reads, one or two per lane) over a classified
    /// address register.
    pub(super) fn lds_classified_stub(&mut self, shape: DsShape) -> R<()> {
        let general = self.local_stub(Stub::Ds(shape));
        let a = &mut self.a;
        let mut spread = a.create_label();
        a.mov(eax, dword_ptr(r10 + K_KIND))?;
        a.cmp(eax, OTHER)?;
        a.jae(general)?;
        // Every active lane's access inside: max + the larger offset + 4 <= size.
        a.mov(r11d, ecx)?;
        if shape.two {
            a.cmp(r8d, r11d)?;
            a.cmova(r11d, r8d)?;
        }
        a.mov(r9d, dword_ptr(r10 + K_MAX))?;
        a.lea(r9, qword_ptr(r9 + r11 + 4))?;
        a.cmp(r9, qword_ptr(r12 + J_LDS_SIZE))?;
        a.ja(general)?;
        a.mov(r9, qword_ptr(r12 + J_LDS))?;
        a.cmp(eax, BROADCAST)?;
        a.jne(spread)?;
        for bcast in [true, false] {
            for c in 0..4 {
                a.kmovw(k1, exec_word(c))?;
                let base = if bcast { K_BCAST } else { K_FIRST };
                a.mov(eax, dword_ptr(r10 + (base + 4 * c)))?;
                a.add(rax, r9)?;
                let parts: &[(AsmRegister64, AsmRegister64)] = if shape.two {
                    &[(rcx, rsi), (r8, rdx)]
                } else {
                    &[(rcx, rsi)]
                };
                for &(off, dst) in parts {
                    merge_chunk(a, dst + 64 * c, zmm0, |a, t| {
                        if bcast {
                            a.vpbroadcastd(t.k1(), dword_ptr(rax + off))?;
                        } else {
                            a.vmovdqu32(t.k1(), zmmword_ptr(rax + off))?;
                        }
                        Ok(())
                    })?;
                }
            }
            a.xor(eax, eax)?;
            a.ret()?;
            if bcast {
                bind(a, &mut spread)?;
            }
        }
        Ok(())
    }
}
