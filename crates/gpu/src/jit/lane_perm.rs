//! `v_perm_b32` with a uniform selector (an SGPR or a constant), wave-wide: each result byte
//! is a byte of `{src0, src1}` (selectors 0-7; src1 holds bytes 0-3), 0x00 (12) or 0xff (13
//! and up), as `valu::bits::perm_byte` says. The selector's four bytes become `vpshufb`
//! patterns once per wave: one picks from src0's dword, one from src1's (0x80, which gives 0,
//! where a byte comes from elsewhere), and a mask of the 0xff bytes; each chunk is then two
//! shuffles and two ors. A selector with a sign-replicating byte (8-11) goes to the
//! interpreter. The patterns come from a table built from `perm_byte` itself.

use super::emit::{sreg32, Emitter, R};
use super::vx::Vs;
use crate::exec::operand::Src;
use crate::valu::perm_byte;
use iced_x86::code_asm::*;
use std::sync::OnceLock;

/// Per selector byte s: the `vpshufb` index into src0's dword (byte 0), into src1's (byte 1),
/// 0xff when the result byte is 0xff (byte 2), and 1 for a byte that depends on the data in
/// another way (a sign byte, 8-11: byte 3). Built once from the interpreter's `perm_byte`,
/// probed with data whose bytes name their own index (`0x1k` for byte k) and with data of
/// only sign bits.
fn selector_bytes() -> &'static [u32; 256] {
    static T: OnceLock<[u32; 256]> = OnceLock::new();
    T.get_or_init(|| {
        const INDEXED: u64 = 0x1716_1514_1312_1110;
        const SIGNS: u64 = 0x8080_8080_8080_8080;
        std::array::from_fn(|s| {
            let v = perm_byte(INDEXED, s as u64) as u32;
            let (b0, b1, ones, other) = match v {
                0x10..=0x13 => (0x80, v - 0x10, 0, 0),
                0x14..=0x17 => (v - 0x14, 0x80, 0, 0),
                0xff => (0x80, 0x80, 0xff, 0),
                // 0: a zero byte, unless the data's signs show through.
                _ => (0x80, 0x80, 0, u32::from(perm_byte(SIGNS, s as u64) != 0)),
            };
            b0 | b1 << 8 | ones << 16 | other << 24
        })
    })
}

/// `vpshufb` indexes of each byte's dword within its 128 bits (4 times 0, 4, 8, 12): added
/// to a per-dword byte pattern, they make it pick from the same dword.
static DWORD_BYTES: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (i % 16 / 4 * 4) as u8;
        i += 1;
    }
    t
};

impl Emitter<'_> {
    /// `v_perm_b32 v[dst], v[src0], v[src1], sel` (instruction `i`, for the interpreter).
    pub(super) fn perm(&mut self, i: u32, dst: u8, src0: u8, src1: u8, sel: Src) -> R<()> {
        let mut done = self.a.create_label();
        let slow = self.slow_callout(i, done)?;
        let a = &mut self.a;
        match sel {
            Src::S(s) => a.mov(eax, sreg32(s))?,
            Src::Imm(v) => a.mov(eax, v as u32)?,
            _ => return Err(super::emit::err("perm selector")),
        }
        // r8d, r9d, r10d = the src0 pattern, the src1 pattern, the 0xff bytes.
        a.mov(rsi, selector_bytes().as_ptr() as u64)?;
        a.xor(r8d, r8d)?;
        a.xor(r9d, r9d)?;
        a.xor(r10d, r10d)?;
        for k in 0..4u32 {
            a.movzx(ecx, al)?;
            a.mov(edx, dword_ptr(rsi + rcx * 4))?;
            a.test(edx, 0xff00_0000u32 as i32)?;
            a.jnz(slow)?;
            for (r, from) in [(r8d, 0), (r9d, 8), (r10d, 16)] {
                a.mov(r11d, edx)?;
                if from > 0 {
                    a.shr(r11d, from)?;
                }
                a.movzx(r11d, r11b)?;
                if k > 0 {
                    a.shl(r11d, 8 * k)?;
                }
                a.or(r, r11d)?;
            }
            if k < 3 {
                a.shr(eax, 8)?;
            }
        }
        let (p0, p1, ones, t, u) = (
            self.tmp()?,
            self.tmp()?,
            self.tmp()?,
            self.tmp()?,
            self.tmp()?,
        );
        let m = self.mtmp()?;
        self.a.mov(rax, DWORD_BYTES.as_ptr() as u64)?;
        for (p, r) in [(p0, r8d), (p1, r9d)] {
            self.v_bcast_gpr(p, r)?;
            self.v_addb(p, p, Vs::M(rax + 0))?;
        }
        self.v_bcast_gpr(ones, r10d)?;
        let cb = self.isa.chunk_bytes();
        let row = |r: u8, c: i32| r13 + (256 * i32::from(r) + c * cb);
        for c in 0..self.isa.chunks() as i32 {
            // (Both sources read before the chunk is written: the destination may be one.)
            self.v_mov(t, Vs::M(row(src0, c)))?;
            self.v_shufb(t, t, Vs::R(p0))?;
            self.v_mov(u, Vs::M(row(src1, c)))?;
            self.v_shufb(u, u, Vs::R(p1))?;
            self.v_or(t, t, Vs::R(u))?;
            self.v_or(t, t, Vs::R(ones))?;
            self.chunk_exec(m, c, None)?;
            self.v_store_masked_blend(row(dst, c), t, m)?;
        }
        for v in [p0, p1, ones, t, u] {
            self.free(v);
        }
        self.mfree(m);
        super::emit::bind(&mut self.a, &mut done)
    }
}
