//! Scattered single-dword accesses through 32-bit lane offsets from a uniform base (AVX-512):
//! scratch through the private-segment buffer (`mem_buffer.rs`), whose lanes each keep their
//! own column (a private array indexed by data: a histogram's bins), and global accesses with
//! `saddr`. The offsets index dword gathers and scatters directly, 16 lanes per instruction;
//! the general path (`Emitter::scattered_512`) widens every address to a qword first and moves
//! 8 lanes per instruction.
//!
//! `vpgatherdd`/`vpscatterdd` sign-extend their indices; the offsets are unsigned. With the
//! base raised by 2^31 and each offset's top bit flipped (`off ^ 2^31`, which as a signed
//! number is `off - 2^31`), base + index is the lane's address for every offset.

use super::emit::{Emitter, R, W_UNFENCED};
use super::mem_vector::{exec_word, reduce_min_max_u32, VmemShape, SITE_DELTA};
use crate::wave::UNFENCED_VECTOR;
use iced_x86::code_asm::*;

impl Emitter<'_> {
    /// In a vector-memory stub (AVX-512, one dword per lane, offsets: rdi = the 32-bit lane
    /// offsets, rsi = the data VGPR, rdx = the uniform base, r9 = the site): the span from the
    /// active lanes' lowest and highest offset (a miss asks the checker, then `retry`, or goes
    /// to `slow`), then per chunk of 16 lanes one gather or scatter under EXEC. Chunks go in
    /// order and a scatter writes overlapping lanes from the lowest to the highest, so the
    /// highest lane's value stays, as the interpreter's.
    pub(super) fn offsets32_512(
        &mut self,
        shape: VmemShape,
        retry: CodeLabel,
        slow: CodeLabel,
    ) -> R<()> {
        let a = &mut self.a;
        a.vpternlogd(zmm2, zmm2, zmm2, 0xff)?; // minimum so far: all ones
        a.vpxord(zmm3, zmm3, zmm3)?; // maximum so far: 0
        for c in 0..4 {
            a.kmovw(k1, exec_word(c))?;
            a.vmovdqu32(zmm6, zmmword_ptr(rdi + 64 * c))?;
            a.vpminud(zmm2.k1(), zmm2, zmm6)?;
            a.vpmaxud(zmm3.k1(), zmm3, zmm6)?;
        }
        reduce_min_max_u32(a)?;
        // Span [base + lowest, base + highest + 4) (64-bit sums: a wrap misses the cache and
        // the checker refuses it).
        a.vmovd(eax, xmm2)?;
        a.vmovd(ecx, xmm3)?;
        a.add(rax, rdx)?;
        a.lea(rcx, qword_ptr(rcx + rdx + 4))?;
        self.stub_range_check(!shape.load, retry, slow)?;
        let a = &mut self.a;
        // r8 = host base + 2^31 (see the module documentation).
        a.mov(r8, qword_ptr(r11 + SITE_DELTA))?;
        a.add(r8, rdx)?;
        a.mov(eax, 0x8000_0000u32)?;
        a.add(r8, rax)?;
        a.vpbroadcastd(zmm7, eax)?;
        if !shape.load {
            a.or(byte_ptr(rbx + W_UNFENCED), i32::from(UNFENCED_VECTOR))?;
        }
        for c in 0..4 {
            a.kmovw(k1, exec_word(c))?;
            a.vpxord(zmm0, zmm7, zmmword_ptr(rdi + 64 * c))?;
            a.vmovdqu32(zmm4, zmmword_ptr(rsi + 64 * c))?;
            if shape.load {
                // Inactive lanes keep the register's value (the gather leaves them).
                a.vpgatherdd(zmm4.k1(), zmmword_ptr(r8 + zmm0))?;
                a.vmovdqu32(zmmword_ptr(rsi + 64 * c), zmm4)?;
            } else {
                a.vpscatterdd(zmmword_ptr(r8 + zmm0).k1(), zmm4)?;
            }
        }
        Ok(())
    }
}
