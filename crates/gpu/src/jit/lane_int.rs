//! Lowering of the 32-bit integer lane ops (the interpreter's `exec::int32` set, plus
//! `v_mul_hi_i32`): one chunk, sources from homes, memory or broadcasts. Semantics as in
//! `exec::int32::apply`.

use super::emit::{Emitter, R};
use super::select::{LaneInst, LaneOp};
use super::vx::{Icmp, Isa, Vs, M, V};
use crate::exec::int32::Int32;
use crate::valu::{BitsOp, CmpTy};
use crate::wave::VCC_LO;

/// `v_mbcnt_lo/hi_u32_b32`: per lane, the mask bits it counts (`[0]`: the low half's bits
/// below lane l, all 32 from lane 32 on; `[1]`: from lane 32 on, the high half's bits below
/// lane l - 32).
static MBCNT_BELOW: [[u32; 64]; 2] = {
    let mut t = [[0u32; 64]; 2];
    let mut l = 0;
    while l < 64 {
        t[0][l] = if l < 32 { (1u32 << l) - 1 } else { u32::MAX };
        t[1][l] = if l < 32 { 0 } else { (1u32 << (l - 32)) - 1 };
        l += 1;
    }
    t
};

/// `v_mbcnt_lo/hi_u32_b32` of an all-ones mask per lane: the number of bits `MBCNT_BELOW`
/// counts (`[0]`: min(l, 32); `[1]`: l - 32 from lane 32 on, else 0).
static MBCNT_ALL: [[u32; 64]; 2] = {
    let mut t = [[0u32; 64]; 2];
    let mut l = 0;
    while l < 64 {
        t[0][l] = MBCNT_BELOW[0][l].count_ones();
        t[1][l] = MBCNT_BELOW[1][l].count_ones();
        l += 1;
    }
    t
};

/// The number of set bits of each nibble value, for `vpshufb` (the 16 entries per 128 bits).
static NIBBLE_BITS: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (i % 16).count_ones() as u8;
        i += 1;
    }
    t
};

/// Each nibble value's bits reversed, for `vpshufb` (the 16 entries per 128 bits).
static NIBBLE_REV: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = ((i % 16) as u8).reverse_bits() >> 4;
        i += 1;
    }
    t
};

/// `vpshufb` indexes reversing the bytes of each dword.
static DWORD_BSWAP: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (i / 4 * 4 + 3 - i % 4) as u8 % 16;
        i += 1;
    }
    t
};

/// Constants of the per-dword popcount: the nibble mask, byte ones, word ones.
const NIBBLES: u32 = 0x0f0f_0f0f;
const BYTE_ONES: u32 = 0x0101_0101;
const WORD_ONES: u32 = 0x0001_0001;

/// Whether `o` is a constant (an inline constant or a literal).
fn is_k(o: super::select::Opd) -> bool {
    matches!(o, super::select::Opd::K(_))
}

/// The sources of `li` its lowering takes as immediates (bit i: source i): constant shift
/// counts. They need no register, so the segment gives them no home.
pub(super) fn immediate_srcs(li: &LaneInst) -> u8 {
    use crate::valu::I16Op::{AshrrevI16, LshlrevB16, LshrrevB16};
    use Int32::*;
    match li.op {
        LaneOp::Int(LshlRev | LshrRev | AshrRev) | LaneOp::Shift64(_) if is_k(li.src[0][0]) => 1,
        LaneOp::Int16(LshlrevB16 | LshrrevB16 | AshrrevI16) if is_k(li.src[0][0]) => 1,
        LaneOp::Int(LshlAdd | LshlOr) if is_k(li.src[1][0]) => 2,
        LaneOp::Int(AddLshl) if is_k(li.src[2][0]) => 4,
        _ => 0,
    }
}

/// Constants a lowering uses every chunk (the segment gives the frequent ones a home).
pub(super) fn consts(li: &LaneInst, isa: Isa) -> &'static [u32] {
    use Int32::*;
    match li.op {
        // (A constant count shifts by an immediate.)
        LaneOp::Int(LshlRev | LshrRev | AshrRev) if is_k(li.src[0][0]) => &[],
        LaneOp::Int(LshlAdd | LshlOr) if is_k(li.src[1][0]) => &[],
        LaneOp::Int(AddLshl) if is_k(li.src[2][0]) => &[],
        LaneOp::Int(LshlRev | LshrRev | AshrRev | LshlAdd | AddLshl | LshlOr) => &[31],
        LaneOp::Int(MulU24 | MadU24) => &[0xff_ffff],
        // (A constant count shifts by immediates.)
        LaneOp::Shift64(_) if matches!(li.src[0][0], super::select::Opd::K(_)) => &[],
        LaneOp::Shift64(_) => &[63, 32],
        LaneOp::F32(_)
        | LaneOp::F16(_)
        | LaneOp::SqrtF16
        | LaneOp::Cmp(..)
        | LaneOp::F64(_)
        | LaneOp::F64Trans(_)
            if li.abs != 0 && li.neg != 0 =>
        {
            &[0x7fff_ffff, 0x8000_0000]
        }
        LaneOp::F32(_)
        | LaneOp::F16(_)
        | LaneOp::SqrtF16
        | LaneOp::Cmp(..)
        | LaneOp::F64(_)
        | LaneOp::F64Trans(_)
            if li.abs != 0 =>
        {
            &[0x7fff_ffff]
        }
        LaneOp::F32(_)
        | LaneOp::F16(_)
        | LaneOp::SqrtF16
        | LaneOp::Cmp(..)
        | LaneOp::F64(_)
        | LaneOp::F64Trans(_)
            if li.neg != 0 =>
        {
            &[0x8000_0000]
        }
        LaneOp::Cmp(CmpTy::U16, _) => &[0xffff],
        LaneOp::Int16(crate::valu::I16Op::LshlrevB16 | crate::valu::I16Op::LshrrevB16)
        | LaneOp::Int16(crate::valu::I16Op::AshrrevI16)
            if !is_k(li.src[0][0]) =>
        {
            &[0xffff, 15]
        }
        LaneOp::Int16(_) => &[0xffff],
        LaneOp::Bits(BitsOp::BfeU32 | BitsOp::BfeI32 | BitsOp::Alignbit) => &[31, 32],
        LaneOp::Bits(BitsOp::Alignbyte) => &[3, 32],
        LaneOp::Mbcnt { .. } | LaneOp::Bcnt => &[NIBBLES, BYTE_ONES, WORD_ONES],
        _ if isa == Isa::Avx2 => &[],
        _ => &[],
    }
}

impl Emitter<'_> {
    /// One lane op of a segment.
    pub(super) fn lane(&mut self, i: u32, li: &LaneInst) -> R<()> {
        match li.op {
            LaneOp::Int(op) => self.lane_int(li, op),
            LaneOp::MulHiI32 => self.mul_hi(li, true),
            LaneOp::F32(op) => self.lane_f32(i, li, op),
            LaneOp::F16(op) => self.lane_f16(li, op),
            LaneOp::SqrtF16 => self.lane_sqrt_f16(li),
            LaneOp::PackF16 { op_sel } => self.lane_pack_f16(li, op_sel),
            LaneOp::PkMov32 => self.lane_pk_mov(li),
            LaneOp::PkF32 {
                op,
                sel,
                neg,
                hi_first,
            } => self.lane_pk_f32(i, li, op, sel, neg, hi_first),
            LaneOp::PkF16 {
                op,
                op_sel,
                op_sel_hi,
                neg_hi,
            } => self.lane_pk_f16(li, op, [op_sel, op_sel_hi], [li.neg, neg_hi]),
            LaneOp::F64(op) => self.lane_f64(li, op),
            LaneOp::F64Trans(op) => self.lane_f64_trans(li, op),
            LaneOp::F32Round(op) => self.lane_f32_round(li, op),
            LaneOp::F64Cvt(op) => self.lane_f64_cvt(li, op),
            LaneOp::Cmp(t, c) => self.lane_cmp(li, t, c),
            LaneOp::Shift64(k) => self.shift64(li, k),
            LaneOp::Mad64 { signed } => self.mad64(i, li, signed),
            LaneOp::Cvt(op) => self.lane_cvt(li, op),
            LaneOp::Int16(op) => self.lane_int16(li, op),
            LaneOp::SatU32(op) => self.lane_sat_u32(li, op),
            LaneOp::Trans(op) => self.lane_trans(li, op),
            LaneOp::Bits(op) => self.lane_bits(li, op),
            LaneOp::MbcntAll { hi } => self.mbcnt_all(li, hi),
            LaneOp::Mbcnt { hi } => self.bit_count(li, Some(hi)),
            LaneOp::Bcnt => self.bit_count(li, None),
            LaneOp::IntSdwa {
                op,
                dst_sel,
                unused,
            } => self.int_sdwa(li, op, dst_sel, unused),
        }
    }

    /// `v_pk_mov_b32`: source 0 to the low dword of the destination pair, source 1 to the
    /// high one. Source 1 is copied first: it may be the low dword, which the first write
    /// replaces (`v_pk_mov_b32 v[2:3], v[0:1], v[2:3]`, a swap of halves).
    fn lane_pk_mov(&mut self, li: &LaneInst) -> R<()> {
        let d = li.dst.ok_or_else(|| super::emit::err("no destination"))?;
        let hi = self.opd_scratch(li.src[1][0])?;
        let lo = self.opd_reg(li.src[0][0])?;
        self.put(d, lo)?;
        self.free(lo);
        self.put(d.wrapping_add(1), hi)?;
        self.free(hi);
        Ok(())
    }

    /// Bit-field ops (`valu::bits::exec`). x86 variable shifts give 0 for counts of 32 or
    /// more (arithmetic ones the sign), which is what width 0 and shift 0 need: no special
    /// cases.
    fn lane_bits(&mut self, li: &LaneInst, op: BitsOp) -> R<()> {
        use super::select::Opd;
        let d = li.dst.ok_or_else(|| super::emit::err("no destination"))?;
        let (s0, s1, s2) = (li.src[0][0], li.src[1][0], li.src[2][0]);
        // `32 - n` for a count n in `n` (in place).
        let from32 = |e: &mut Self, n: V| -> R<()> {
            let k = e.opd_reg(Opd::K(32))?;
            e.v_sub(n, k, Vs::R(n))?;
            e.release(Vs::R(k));
            Ok(())
        };
        match op {
            BitsOp::BfeU32 | BitsOp::BfeI32 => {
                // (a >> off), then its low `width` bits, zero- or sign-extended.
                let off = self.count31(s1)?;
                let a = self.opd_scratch(s0)?;
                self.v_srlv(a, a, Vs::R(off))?;
                self.release(Vs::R(off));
                let w = self.count31(s2)?;
                from32(self, w)?;
                if op == BitsOp::BfeU32 {
                    let m = self.tmp()?;
                    self.v_ones(m)?;
                    self.v_srlv(m, m, Vs::R(w))?;
                    self.v_and(a, a, Vs::R(m))?;
                } else {
                    self.v_sllv(a, a, Vs::R(w))?;
                    self.v_srav(a, a, Vs::R(w))?;
                }
                self.put(d, a)
            }
            BitsOp::Alignbit | BitsOp::Alignbyte => {
                // ({a, b} >> s) as u32 = (b >> s) | (a << (32 - s)).
                let s = if op == BitsOp::Alignbit {
                    self.count31(s2)?
                } else {
                    let t = self.opd_scratch(s2)?;
                    let k = self.opd(Opd::K(3))?;
                    self.v_and(t, t, k)?;
                    self.release(k);
                    self.v_slli(t, t, 3)?;
                    t
                };
                let b = self.opd_scratch(s1)?;
                self.v_srlv(b, b, Vs::R(s))?;
                from32(self, s)?;
                let a = self.opd_scratch(s0)?;
                self.v_sllv(a, a, Vs::R(s))?;
                self.v_or(a, a, Vs::R(b))?;
                self.put(d, a)
            }
            BitsOp::Bfi => {
                // (a & b) | (!a & c) = ((b ^ c) & a) ^ c.
                let t = self.opd_scratch(s1)?;
                let c = self.opd(s2)?;
                self.v_xor(t, t, c)?;
                self.release(c);
                let a = self.opd(s0)?;
                self.v_and(t, t, a)?;
                self.release(a);
                let c = self.opd(s2)?;
                self.v_xor(t, t, c)?;
                self.put(d, t)
            }
            BitsOp::Bfrev => {
                use iced_x86::code_asm::rax;
                // Each nibble reversed by a table, the two of each byte swapped, then the
                // bytes of each dword.
                let v = self.opd_scratch(s0)?;
                let t = self.nibble_lookup(v, &NIBBLE_REV)?;
                // (Each byte of v is at most 0xf: the dword shift stays inside it.)
                self.v_slli(v, v, 4)?;
                self.v_or(v, v, Vs::R(t))?;
                self.a.mov(rax, DWORD_BSWAP.as_ptr() as u64)?;
                self.v_shufb(v, v, Vs::M(rax + 0))?;
                self.free(t);
                self.put(d, v)
            }
            BitsOp::FfbhU32 | BitsOp::FfbhI32 | BitsOp::FfblB32 => {
                let v = self.opd_scratch(s0)?;
                let t = self.tmp()?;
                if op == BitsOp::FfblB32 {
                    // The bits below the lowest set one: (v & -v) - 1 (all ones for 0).
                    self.v_xor(t, t, Vs::R(t))?;
                    self.v_sub(t, t, Vs::R(v))?;
                    self.v_and(v, v, Vs::R(t))?;
                    self.v_ones(t)?;
                    self.v_add(v, v, Vs::R(t))?;
                    self.free(t);
                    self.popcount32(v)?;
                } else {
                    if op == BitsOp::FfbhI32 {
                        // The bits that differ from the sign.
                        self.v_srai(t, v, 31)?;
                        self.v_xor(v, v, Vs::R(t))?;
                    }
                    // The highest set bit smeared down; 32 less its count of ones.
                    for n in [1, 2, 4, 8, 16] {
                        self.v_srli(t, v, n)?;
                        self.v_or(v, v, Vs::R(t))?;
                    }
                    self.free(t);
                    self.popcount32(v)?;
                    from32(self, v)?;
                }
                // 32 (no bit found) becomes -1: v | -(v >> 5).
                let t = self.tmp()?;
                self.v_srli(t, v, 5)?;
                let z = self.tmp()?;
                self.v_xor(z, z, Vs::R(z))?;
                self.v_sub(t, z, Vs::R(t))?;
                self.free(z);
                self.v_or(v, v, Vs::R(t))?;
                self.free(t);
                self.put(d, v)
            }
            _ => Err(super::emit::err("bits op")),
        }
    }

    /// `v_mbcnt_lo/hi_u32_b32 d, -1, b`: a table of lane counts (`MBCNT_ALL`) plus b. The
    /// chunk's lanes are at the same byte offset in the table as in a VGPR (`chunk_table`).
    fn mbcnt_all(&mut self, li: &LaneInst, hi: bool) -> R<()> {
        use iced_x86::code_asm::*;
        let d = li.dst.ok_or_else(|| super::emit::err("no destination"))?;
        let b = self.opd_reg(li.src[1][0])?;
        let r = self.dst_reg(d)?;
        self.a
            .mov(rax, MBCNT_ALL[usize::from(hi)].as_ptr() as u64)?;
        let table = self.chunk_table(rax)?;
        self.v_add(r, b, table)?;
        self.put(d, r)
    }

    /// `v_bcnt_u32_b32` (`below` none): popcount(src0) + src1; `v_mbcnt_lo/hi_u32_b32` with
    /// a uniform mask (`below` = hi): the mask's bits below each lane in that half (a
    /// per-lane table and'ed in first), plus src1.
    fn bit_count(&mut self, li: &LaneInst, below: Option<bool>) -> R<()> {
        use iced_x86::code_asm::*;
        let d = li.dst.ok_or_else(|| super::emit::err("no destination"))?;
        let m = self.opd_scratch(li.src[0][0])?;
        if let Some(hi) = below {
            self.a
                .mov(rax, MBCNT_BELOW[usize::from(hi)].as_ptr() as u64)?;
            let table = self.chunk_table(rax)?;
            self.v_and(m, m, table)?;
        }
        self.popcount32(m)?;
        let b = self.opd(li.src[1][0])?;
        let r = self.dst_reg(d)?;
        self.v_add(r, m, b)?;
        self.release(b);
        self.free(m);
        self.put(d, r)
    }

    /// An SDWA integer op (`LaneOp::IntSdwa`): the selected sources (`sdwa_sources`), the op,
    /// then `exec::lanes::sdwa_place`'s placement: the result's low bits shifted into the
    /// field, above it zeros (`unused` 0), the field's sign (1), or the destination's old
    /// bits, source 2 (2).
    fn int_sdwa(&mut self, li: &LaneInst, op: Int32, dst_sel: u8, unused: u8) -> R<()> {
        use super::select::Opd;
        use Int32::*;
        let d = li.dst.ok_or_else(|| super::emit::err("no destination"))?;
        let (x, y) = self.sdwa_sources(li)?;
        // x = x (op) y; shift counts are the first source's low five bits.
        match op {
            Mov => {}
            Not => self.v_not(x, x)?,
            SubRev => self.int_binop(op, x, y, Vs::R(x))?,
            LshlRev | LshrRev | AshrRev => {
                let k = self.opd_reg(Opd::K(31))?;
                self.v_and(x, x, Vs::R(k))?;
                self.release(Vs::R(k));
                self.shift_by(op, x, y, x)?;
            }
            _ => self.int_binop(op, x, x, Vs::R(y))?,
        }
        self.free(y);
        if let Some((shift, bits)) = crate::exec::lanes::sdwa_field(dst_sel) {
            self.v_slli(x, x, 32 - bits)?;
            if unused == 1 {
                self.v_srai(x, x, 32 - bits)?;
                self.v_slli(x, x, shift)?;
            } else {
                self.v_srli(x, x, 32 - bits - shift)?;
            }
            if unused == 2 {
                let m = (((1u64 << bits) - 1) as u32) << shift;
                let old = self.opd_scratch(li.src[2][0])?;
                let k = self.opd_reg(Opd::K(!m))?;
                self.v_and(old, old, Vs::R(k))?;
                self.release(Vs::R(k));
                self.v_or(x, x, Vs::R(old))?;
                self.free(old);
            }
        }
        self.put(d, x)
    }

    /// `v`'s bytes replaced by `table`'s entry for their low nibble; returned, a temporary
    /// with the entry for each byte's high nibble (`vpshufb` in every 16-byte lane).
    fn nibble_lookup(&mut self, v: V, table: &'static [u8; 64]) -> R<V> {
        use iced_x86::code_asm::rax;
        let t = self.tmp()?;
        let lut = self.tmp()?;
        self.v_srli(t, v, 4)?;
        let k = self.opd(super::select::Opd::K(NIBBLES))?;
        self.v_and(v, v, k)?;
        self.v_and(t, t, k)?;
        self.release(k);
        self.a.mov(rax, table.as_ptr() as u64)?;
        self.v_mov(lut, Vs::M(rax + 0))?;
        self.v_shufb(v, lut, Vs::R(v))?;
        self.v_shufb(t, lut, Vs::R(t))?;
        self.free(lut);
        Ok(t)
    }

    /// Each dword of `v` replaced by its number of set bits: the nibbles' counts from a
    /// table (`vpshufb`), then summed per byte, word and dword.
    fn popcount32(&mut self, v: V) -> R<()> {
        let t = self.nibble_lookup(v, &NIBBLE_BITS)?;
        self.v_addb(v, v, Vs::R(t))?;
        self.free(t);
        for ones in [BYTE_ONES, WORD_ONES] {
            let k = self.opd(super::select::Opd::K(ones))?;
            let k = match k {
                Vs::R(_) => k,
                other => {
                    // (Byte and word ops take no broadcast operand.)
                    let r = self.tmp()?;
                    self.v_mov(r, other)?;
                    Vs::R(r)
                }
            };
            if ones == BYTE_ONES {
                self.v_maddubsw(v, v, k)?;
            } else {
                self.v_maddwd(v, v, k)?;
            }
            self.release(k);
        }
        Ok(())
    }

    /// `d = v << n` (`LshlRev`), `>>` logical (`LshrRev`) or arithmetic (`AshrRev`), the count
    /// `n` taken mod 32 as the hardware does: one immediate shift for a constant count (LLVM's
    /// usual form), else a masked count and a variable shift.
    fn shift(&mut self, op: Int32, d: V, v: V, n: super::select::Opd) -> R<()> {
        use Int32::*;
        if let super::select::Opd::K(k) = n {
            return match op {
                LshlRev => self.v_slli(d, v, k & 31),
                LshrRev => self.v_srli(d, v, k & 31),
                _ => self.v_srai(d, v, k & 31),
            };
        }
        let c = self.count31(n)?;
        self.shift_by(op, d, v, c)?;
        self.free(c);
        Ok(())
    }

    /// `d = v` shifted as `op` says by the count in `c` (already taken mod 32).
    fn shift_by(&mut self, op: Int32, d: V, v: V, c: V) -> R<()> {
        match op {
            Int32::LshlRev => self.v_sllv(d, v, Vs::R(c)),
            Int32::LshrRev => self.v_srlv(d, v, Vs::R(c)),
            _ => self.v_srav(d, v, Vs::R(c)),
        }
    }

    /// `r = x (op) y` for the two-source ops of one instruction each (`SubRev`: the caller
    /// swaps the sources).
    pub(super) fn int_binop(&mut self, op: Int32, r: V, x: V, y: Vs) -> R<()> {
        use Int32::*;
        match op {
            Add => self.v_add(r, x, y),
            Sub | SubRev => self.v_sub(r, x, y),
            MulLo => self.v_mullo(r, x, y),
            And => self.v_and(r, x, y),
            Or => self.v_or(r, x, y),
            Xor => self.v_xor(r, x, y),
            MinU => self.v_minu(r, x, y),
            MaxU => self.v_maxu(r, x, y),
            MinI => self.v_mins(r, x, y),
            MaxI => self.v_maxs(r, x, y),
            _ => Err(super::emit::err("not a two-source integer op")),
        }
    }

    /// `d = s & 31` (a shift count), in a temporary.
    fn count31(&mut self, s: super::select::Opd) -> R<V> {
        let t = self.opd_scratch(s)?;
        let k = self.opd(super::select::Opd::K(31))?;
        self.v_and(t, t, k)?;
        self.release(k);
        Ok(t)
    }

    fn lane_int(&mut self, li: &LaneInst, op: Int32) -> R<()> {
        use Int32::*;
        let d = li.dst.ok_or_else(|| super::emit::err("no destination"))?;
        let (s0, s1, s2) = (li.src[0][0], li.src[1][0], li.src[2][0]);
        match op {
            Mov => {
                let r = self.dst_reg(d)?;
                self.opd_into(r, s0)?;
                self.put(d, r)?;
                if s0 == super::select::Opd::K(0) {
                    self.known_zero_now(d);
                }
                Ok(())
            }
            Not => {
                let v = self.opd_reg(s0)?;
                let r = self.dst_reg(d)?;
                self.v_not(r, v)?;
                self.put(d, r)
            }
            Add | Sub | MulLo | And | Or | Xor | MinU | MaxU | MinI | MaxI | SubRev => {
                let (mut x, mut y) = if op == SubRev { (s1, s0) } else { (s0, s1) };
                // The first source must be a register: where only the second is one, a
                // commutative op takes them the other way round (a load fewer per chunk).
                if !matches!(op, Sub | SubRev) && self.in_reg(y) && !self.in_reg(x) {
                    (x, y) = (y, x);
                }
                let xv = self.opd_reg(x)?;
                let yv = self.opd(y)?;
                let r = self.dst_reg(d)?;
                self.int_binop(op, r, xv, yv)?;
                self.put(d, r)
            }
            MulHiU => self.mul_hi(li, false),
            MulI24 | MadI24 => {
                // Each source's low 24 bits sign-extended.
                let (t, u) = (self.opd_scratch(s0)?, self.opd_scratch(s1)?);
                for v in [t, u] {
                    self.v_slli(v, v, 8)?;
                    self.v_srai(v, v, 8)?;
                }
                self.v_mullo(t, t, Vs::R(u))?;
                if op == MadI24 {
                    let c = self.opd(s2)?;
                    self.v_add(t, t, c)?;
                }
                self.put(d, t)
            }
            MulU24 | MadU24 => {
                let (t, u) = (self.opd_scratch(s0)?, self.opd_scratch(s1)?);
                let k = self.opd(super::select::Opd::K(0xff_ffff))?;
                self.v_and(t, t, k)?;
                self.v_and(u, u, k)?;
                self.release(k);
                self.v_mullo(t, t, Vs::R(u))?;
                if op == MadU24 {
                    let c = self.opd(s2)?;
                    self.v_add(t, t, c)?;
                }
                self.put(d, t)
            }
            LshlRev | LshrRev | AshrRev => {
                let v = self.opd_reg(s1)?;
                let r = self.dst_reg(d)?;
                self.shift(op, r, v, s0)?;
                self.put(d, r)
            }
            LshlAdd | LshlOr => {
                let v = self.opd_reg(s0)?;
                let t = self.tmp()?;
                self.shift(LshlRev, t, v, s1)?;
                let c = self.opd(s2)?;
                if op == LshlAdd {
                    self.v_add(t, t, c)?;
                } else {
                    self.v_or(t, t, c)?;
                }
                self.put(d, t)
            }
            AddLshl => {
                let a = self.opd_reg(s0)?;
                let b = self.opd(s1)?;
                let t = self.tmp()?;
                self.v_add(t, a, b)?;
                self.release(b);
                self.shift(LshlRev, t, t, s2)?;
                self.put(d, t)
            }
            Add3 | AndOr | Or3 | Xad => {
                let a = self.opd_reg(s0)?;
                let b = self.opd(s1)?;
                let t = self.tmp()?;
                match op {
                    Add3 => self.v_add(t, a, b)?,
                    AndOr => self.v_and(t, a, b)?,
                    Or3 => self.v_or(t, a, b)?,
                    _ => self.v_xor(t, a, b)?,
                }
                let c = self.opd(s2)?;
                match op {
                    Add3 | Xad => self.v_add(t, t, c)?,
                    _ => self.v_or(t, t, c)?,
                }
                self.put(d, t)
            }
            Min3U | Max3U | Min3I | Max3I => {
                let two = match op {
                    Min3U => MinU,
                    Max3U => MaxU,
                    Min3I => MinI,
                    _ => MaxI,
                };
                let a = self.opd_reg(s0)?;
                let b = self.opd(s1)?;
                let t = self.tmp()?;
                self.int_binop(two, t, a, b)?;
                self.release(b);
                let c = self.opd(s2)?;
                self.int_binop(two, t, t, c)?;
                self.put(d, t)
            }
            Med3U | Med3I => {
                // max(min(a, b), min(max(a, b), c))
                let (min, max) = if op == Med3U {
                    (MinU, MaxU)
                } else {
                    (MinI, MaxI)
                };
                let a = self.opd_reg(s0)?;
                let b = self.opd(s1)?;
                let (t, u) = (self.tmp()?, self.tmp()?);
                self.int_binop(min, t, a, b)?;
                self.int_binop(max, u, a, b)?;
                self.release(b);
                let c = self.opd(s2)?;
                self.int_binop(min, u, u, c)?;
                self.int_binop(max, t, t, Vs::R(u))?;
                self.release(Vs::R(u));
                self.put(d, t)
            }
            Cndmask => {
                let m = self.mask_in(li.mask_in.unwrap_or(VCC_LO as u8))?;
                let (a, b) = (self.fsrc(li, 0)?, self.fsrc(li, 1)?);
                let r = self.dst_reg(d)?;
                self.v_blend(r, m, a, b)?;
                self.put(d, r)
            }
            AddCo | SubCo | SubRevCo | Addc | Subb | SubbRev => self.carry_op(li, op),
        }
    }

    /// 16-bit integer ops (`valu::int16`): operands are the low halves, zero- or
    /// sign-extended; the result is 16 bits, zero-extended.
    fn lane_int16(&mut self, li: &LaneInst, op: crate::valu::I16Op) -> R<()> {
        use super::select::Opd;
        use crate::valu::I16Op::*;
        let d = li.dst.ok_or_else(|| super::emit::err("no destination"))?;
        let (s0, s1) = (li.src[0][0], li.src[1][0]);
        let sext = |e: &mut Self, v: V| -> R<()> {
            e.v_slli(v, v, 16)?;
            e.v_srai(v, v, 16)
        };
        if let (LshlrevB16 | LshrrevB16 | AshrrevI16, Opd::K(k)) = (op, s0) {
            // A constant count (LLVM's usual form): one immediate shift.
            // From the source's register straight into the destination's (3-operand forms).
            let n = k & 15;
            let b = self.opd_reg(s1)?;
            let r = self.dst_reg(d)?;
            let lo = self.opd(Opd::K(0xffff))?;
            match op {
                LshlrevB16 => {
                    self.v_slli(r, b, n)?;
                    self.v_and(r, r, lo)?;
                }
                // (A zero-extended half shifted right stays within 16 bits.)
                LshrrevB16 => {
                    self.v_and(r, b, lo)?;
                    self.v_srli(r, r, n)?;
                }
                _ => {
                    self.v_slli(r, b, 16)?;
                    self.v_srai(r, r, 16 + n)?;
                    self.v_and(r, r, lo)?;
                }
            }
            self.release(lo);
            return self.put(d, r);
        }
        let (a, b) = (self.opd_scratch(s0)?, self.opd_scratch(s1)?);
        let lo = self.opd(Opd::K(0xffff))?;
        match op {
            // The legacy mads (no op_sel, no clamp): the low 16 bits of a * b + c depend
            // only on the operands' low 16 bits, signed or not.
            MadU16 | MadI16 => {
                self.v_mullo(a, a, Vs::R(b))?;
                let c = self.opd(li.src[2][0])?;
                self.v_add(a, a, c)?;
                self.release(c);
            }
            AddU16 => self.v_add(a, a, Vs::R(b))?,
            SubU16 => self.v_sub(a, a, Vs::R(b))?,
            SubrevU16 => self.v_sub(a, b, Vs::R(a))?,
            MulLoU16 => self.v_mullo(a, a, Vs::R(b))?,
            LshlrevB16 | LshrrevB16 | AshrrevI16 => {
                let k = self.opd(Opd::K(15))?;
                self.v_and(a, a, k)?;
                self.release(k);
                match op {
                    LshlrevB16 => self.v_sllv(a, b, Vs::R(a))?,
                    LshrrevB16 => {
                        self.v_and(b, b, lo)?;
                        self.v_srlv(a, b, Vs::R(a))?;
                    }
                    _ => {
                        sext(self, b)?;
                        self.v_srav(a, b, Vs::R(a))?;
                    }
                }
            }
            MaxU16 | MinU16 => {
                self.v_and(a, a, lo)?;
                self.v_and(b, b, lo)?;
                if op == MaxU16 {
                    self.v_maxu(a, a, Vs::R(b))?;
                } else {
                    self.v_minu(a, a, Vs::R(b))?;
                }
            }
            MaxI16 | MinI16 => {
                sext(self, a)?;
                sext(self, b)?;
                if op == MaxI16 {
                    self.v_maxs(a, a, Vs::R(b))?;
                } else {
                    self.v_mins(a, a, Vs::R(b))?;
                }
            }
            _ => return Err(super::emit::err("16-bit op")),
        }
        self.v_and(a, a, lo)?;
        self.put(d, a)
    }

    /// `v_add/sub/subrev_u32` with clamp: a + b saturated at u32::MAX as a + min(b, !a);
    /// a - b saturated at 0 as max(a, b) - b (subrev: b - a likewise).
    pub(super) fn lane_sat_u32(&mut self, li: &LaneInst, op: Int32) -> R<()> {
        let d = li.dst.ok_or_else(|| super::emit::err("no destination"))?;
        let (x, y) = match op {
            Int32::SubRev => (li.src[1][0], li.src[0][0]),
            _ => (li.src[0][0], li.src[1][0]),
        };
        let a = self.opd_reg(x)?;
        let t = self.opd_scratch(y)?;
        let r = self.dst_reg(d)?;
        if op == Int32::Add {
            let n = self.tmp()?;
            self.v_not(n, a)?;
            self.v_minu(t, t, Vs::R(n))?;
            self.free(n);
            self.v_add(r, a, Vs::R(t))?;
        } else {
            let m = self.tmp()?;
            self.v_maxu(m, a, Vs::R(t))?;
            self.v_sub(r, m, Vs::R(t))?;
            self.free(m);
        }
        self.free(t);
        self.put(d, r)
    }

    /// `m` = lanes where `x <u y` (unsigned), or (returns `true`) its complement on AVX2.
    fn ult(&mut self, m: M, x: V, y: V) -> R<bool> {
        self.v_icmp_maybe_inverted(m, Icmp::Lt, false, x, Vs::R(y))
    }

    /// The add/sub ops with a carry-out (and a carry-in for addc/subb/subbrev).
    fn carry_op(&mut self, li: &LaneInst, op: Int32) -> R<()> {
        use Int32::*;
        let d = li.dst.ok_or_else(|| super::emit::err("no destination"))?;
        // (x, y) in subtraction order.
        let (x, y) = match op {
            SubRevCo | SubbRev => (li.src[1][0], li.src[0][0]),
            _ => (li.src[0][0], li.src[1][0]),
        };
        let cin = if matches!(op, Addc | Subb | SubbRev) {
            Some(self.mask_in(li.mask_in.unwrap_or(VCC_LO as u8))?)
        } else {
            None
        };
        let (xv, yv) = (self.opd_reg(x)?, self.opd_reg(y)?);
        let add = matches!(op, AddCo | Addc);
        // Results go straight to the destination's home where no operand read later is
        // overwritten (the three-operand forms read both sources first): no copy after.
        if self.mask_unread() {
            // Nobody reads the carry-out: the sum or difference alone.
            let Some(c) = cin else {
                let r = self.dst_reg(d)?;
                if add {
                    self.v_add(r, xv, Vs::R(yv))?;
                } else {
                    self.v_sub(r, xv, Vs::R(yv))?;
                }
                return self.put(d, r);
            };
            let t = self.tmp()?;
            if add {
                self.v_add(t, xv, Vs::R(yv))?;
            } else {
                self.v_sub(t, xv, Vs::R(yv))?;
            }
            let r = self.dst_reg(d)?;
            if add {
                self.v_add_mask_bit(r, t, c)?;
            } else {
                self.v_sub_mask_bit(r, t, c)?;
            }
            return self.put(d, r);
        }
        let carry = self.mtmp()?;
        // Whether `carry` holds the complement of the carry-out (AVX2; see `ult`).
        let inverted;
        if add {
            let t = match cin {
                // (The sum wrapped iff it is below either addend: compared with one it spared.)
                None => match self.dst_reg(d)? {
                    h if h == xv && h == yv => self.tmp()?,
                    h => h,
                },
                Some(_) => self.tmp()?,
            };
            self.v_add(t, xv, Vs::R(yv))?;
            let inv1 = self.ult(carry, t, if t == xv { yv } else { xv })?; // the sum wrapped
            self.free(xv);
            self.free(yv);
            if let Some(c) = cin {
                let r = self.dst_reg(d)?;
                self.v_add_mask_bit(r, t, c)?;
                let c2 = self.mtmp()?;
                let inv2 = self.ult(c2, r, t)?; // adding the carry wrapped
                inverted = self.m_or_maybe_inverted(carry, inv1, c2, inv2)?;
                self.put(d, r)?;
            } else {
                inverted = inv1;
                self.put(d, t)?;
            }
        } else {
            inverted = false;
            self.v_icmp(carry, Icmp::Lt, false, xv, Vs::R(yv))?; // borrow: y > x
            let t = if cin.is_none() {
                self.dst_reg(d)?
            } else {
                self.tmp()?
            };
            self.v_sub(t, xv, Vs::R(yv))?;
            self.free(xv);
            self.free(yv);
            if let Some(c) = cin {
                // Subtracting the borrow-in borrows again exactly when t == 0.
                let z = self.mtmp()?;
                let zero = self.tmp()?;
                self.v_xor(zero, zero, Vs::R(zero))?;
                self.v_icmp(z, Icmp::Eq, false, t, Vs::R(zero))?;
                self.m_and(z, z, c)?;
                self.m_or(carry, carry, z)?;
                let r = self.dst_reg(d)?;
                self.v_sub_mask_bit(r, t, c)?;
                self.put(d, r)?;
            } else {
                self.put(d, t)?;
            }
        }
        let target = li.mask_out.unwrap_or(VCC_LO as u8);
        self.mask_out_maybe_inverted(target, carry, inverted, false)
    }

    /// `a |= b` for masks that may hold complements (`ia`, `ib`); returns whether `a` then
    /// holds the complement of the union (!a' & !b' = !(a' | b'): no inversion needed).
    fn m_or_maybe_inverted(&mut self, a: M, ia: bool, b: M, ib: bool) -> R<bool> {
        match (ia, ib) {
            (false, false) => self.m_or(a, a, b)?,
            (true, true) => self.m_and(a, a, b)?,
            // One complement: a | b = !(a' & !b) with a' = !a, as `vpandn`'s `!x & y`.
            (true, false) => self.m_andn(a, b, a)?,
            (false, true) => self.m_andn(a, a, b)?,
        }
        self.mfree(b);
        Ok(ia || ib)
    }

    /// `v_mul_hi_u32` / `v_mul_hi_i32`: the high 32 bits of the 64-bit product.
    pub(super) fn mul_hi(&mut self, li: &LaneInst, signed: bool) -> R<()> {
        let d = li.dst.ok_or_else(|| super::emit::err("no destination"))?;
        let (a, b, b_uniform) = self.mul_sources(li)?;
        let hi = self.mul_hi_regs(a, b, b_uniform, signed)?;
        self.put(d, hi)
    }

    /// Sources 0 and 1 of a multiply in registers, a uniform one second (returned `true`).
    pub(super) fn mul_sources(&mut self, li: &LaneInst) -> R<(V, V, bool)> {
        let (mut x, mut y) = (li.src[0][0], li.src[1][0]);
        if x.uniform() && !y.uniform() {
            (x, y) = (y, x);
        }
        Ok((self.opd_reg(x)?, self.opd_reg(y)?, y.uniform()))
    }

    /// The high halves of the lane products `a * b` in a new temporary (two temporaries);
    /// `b_uniform`: every lane of `b` holds one value.
    pub(super) fn mul_hi_regs(&mut self, a: V, b: V, b_uniform: bool, signed: bool) -> R<V> {
        let (odd, even) = (self.tmp()?, self.tmp()?);
        // Odd lanes: move them to the low dword of each qword, multiply; their high halves
        // land in the odd dwords. Even lanes: the multiply reads the low dwords directly. (A
        // uniform `b` has its odd lanes' value in the low dwords already.)
        self.v_srliq(odd, a, 32)?;
        let b_odd = if b_uniform {
            b
        } else {
            self.v_srliq(even, b, 32)?;
            even
        };
        if signed {
            self.v_muldq(odd, odd, Vs::R(b_odd))?;
            self.v_muldq(even, a, Vs::R(b))?;
        } else {
            self.v_muludq(odd, odd, Vs::R(b_odd))?;
            self.v_muludq(even, a, Vs::R(b))?;
        }
        self.v_srliq(even, even, 32)?;
        match self.isa {
            Isa::Avx2 => self.a.vpblendd(
                super::vx::yr(even),
                super::vx::yr(even),
                super::vx::yr(odd),
                0xaa,
            )?,
            Isa::Avx512 => {
                let m = self.mtmp()?;
                self.a.mov(iced_x86::code_asm::eax, 0xaaaa)?;
                self.m_from_gpr(m, iced_x86::code_asm::eax)?;
                self.v_blend(even, m, even, odd)?;
                self.mfree(m);
            }
        }
        self.free(odd);
        Ok(even)
    }
}
