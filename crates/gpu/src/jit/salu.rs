//! Scalar ALU instructions translated to scalar x86-64 code (SOP1/SOP2/SOPC: moves, logic,
//! bit fields and scans, shifts, add/sub with carry, selects, compares and the EXEC save ops
//! that LLVM emits around every divergent branch). Semantics as in `exec::salu`, including
//! SCC.

use super::emit::{bind, err, Emitter, EXEC, R, W_S, W_SCC};
use crate::exec::operand::Src;
use crate::program::XInst;
use iced_x86::code_asm::*;
use softhsa_isa::Op;

/// A translated scalar instruction: the op and its operands (SOP1/SOP2/SOPC name them in the
/// usual slots, SOPK in its destination and 16-bit immediate).
#[derive(Clone, Copy, Debug)]
pub(super) struct SaluInst {
    pub op: Salu,
    pub src: [Src; 2],
    pub dst: u8,
}

impl SaluInst {
    /// Calls `r` for every scalar register the instruction reads and `w` for every one it
    /// writes (SCC aside).
    pub(super) fn regs(&self, mut r: impl FnMut(u8), mut w: impl FnMut(u8)) {
        let s = self.op;
        for i in 0..s.nsrc() {
            if let Src::S(x) = self.src[i] {
                r(x);
                if s.wide_src(i) {
                    r(x.wrapping_add(1));
                }
            }
        }
        if let Some(wide) = s.dst_wide() {
            w(self.dst);
            if wide {
                w(self.dst.wrapping_add(1));
            }
        }
        if let Salu::SaveExec(_) = s {
            for e in [EXEC, EXEC + 1] {
                r(e);
                w(e);
            }
        }
    }
}

impl Salu {
    /// Whether source `i` is a 64-bit register pair.
    fn wide_src(self, i: usize) -> bool {
        use Salu::*;
        match self {
            Mov64 | Not64 | Cselect64 | Cmp64(_) | SaveExec(_) | Bin64(_) => i < 2,
            Bcnt64 { .. } => i == 0,
            // (The count of a 64-bit shift is 32 bits.)
            Shift64(_) => i == 0,
            _ => false,
        }
    }

    /// Number of sources.
    fn nsrc(self) -> usize {
        use Salu::*;
        match self {
            Mov32
            | Mov64
            | Not32
            | Not64
            | SaveExec(_)
            | Bcnt32 { .. }
            | Bcnt64 { .. }
            | Brev32
            | Sext32 { .. }
            | FirstBit32 { .. } => 1,
            _ => 2,
        }
    }

    /// Whether the destination is a 64-bit pair (`None`: no destination).
    fn dst_wide(self) -> Option<bool> {
        use Salu::*;
        match self {
            Cmp32(_) | Cmp64(_) | Bitcmp32 { .. } => None,
            Mov64 | Not64 | Cselect64 | Bin64(_) | Shift64(_) | SaveExec(_) => Some(true),
            _ => Some(false),
        }
    }
}

/// A translated scalar op.
#[derive(Clone, Copy, Debug)]
pub(super) enum Salu {
    /// Binary op; SCC = result != 0.
    Bin32(Bin),
    /// 64-bit logic ops.
    Bin64(Bin),
    /// 64-bit shifts (by a 32-bit count). A variant of its own, so that the register facts
    /// need no look at the `Bin` (reading it for the variants without one is what memcheck
    /// flags as a jump on an uninitialised byte).
    Shift64(Bin),
    Mov32,
    Mov64,
    Not32,
    Not64,
    Cselect32,
    Cselect64,
    AddU32,
    SubU32,
    AddcU32,
    SubbU32,
    AddI32,
    SubI32,
    MulI32,
    /// EXEC = f(src, EXEC); SCC = EXEC != 0; dst = the old EXEC.
    SaveExec(Bin),
    Cmp32(Cc),
    Cmp64(Cc),
    /// `s_min/max_i32/u32`: the first source when it compares `Cc` (Lt, Gt, Below, Above) to
    /// the second, else the second; SCC = whether it did.
    MinMax(Cc),
    /// `s_bcnt0/1_i32_b32`: the number of clear (`zeros`) or set bits of the source; SCC =
    /// that number != 0. (Two variants, not a `wide` field: the register facts must not read
    /// a field that other variants leave uninitialised, see `Shift64`.)
    Bcnt32 {
        zeros: bool,
    },
    /// `s_bcnt0/1_i32_b64`: the same of a register pair.
    Bcnt64 {
        zeros: bool,
    },
    /// `s_brev_b32`: the source's bits in reverse order (SCC unchanged).
    Brev32,
    /// `s_bitcmp0/1_b32`: SCC = whether bit (src1 & 31) of src0 is set (`one`) or clear.
    Bitcmp32 {
        one: bool,
    },
    /// `s_bfe_u32`: src0's field at offset src1[4:0], width src1[22:16] (`bextr`); SCC =
    /// result != 0.
    BfeU32,
    /// `s_bfe_i32`: the same field sign-extended from its width (clamped to 32; width 0
    /// gives 0); SCC = result != 0.
    BfeI32,
    /// `s_mul_hi_u32`: the high half of the 64-bit product (SCC unchanged).
    MulHiU32,
    /// `s_mul_hi_i32`: the high half of the signed 64-bit product (SCC unchanged).
    MulHiI32,
    /// `s_sext_i32_i8` (`byte`) and `s_sext_i32_i16` (SCC unchanged).
    Sext32 {
        byte: bool,
    },
    /// `s_ff1_i32_b32` (`lowest`: trailing zeros) and `s_flbit_i32_b32` (leading zeros): the
    /// count, -1 for 0 (`exec::scalar_bits`; SCC unchanged).
    FirstBit32 {
        lowest: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bin {
    And,
    Or,
    Xor,
    Andn2,
    Orn2,
    Nand,
    Nor,
    Xnor,
    Lshl,
    Lshr,
    Ashr,
}

/// An x86 condition for `setcc` after `cmp a, b`.
#[derive(Clone, Copy, Debug)]
pub(super) enum Cc {
    Eq,
    Ne,
    Gt,
    Ge,
    Lt,
    Le,
    Above,
    AboveEq,
    Below,
    BelowEq,
}

/// `s_getpc_b64` of an instruction whose successor is at `next`: a move of that constant.
pub(super) fn get_pc(x: &XInst, next: u64) -> Option<SaluInst> {
    let dst = (x.inst.dst.raw() & 127) as u8;
    (dst < 101).then_some(SaluInst {
        op: Salu::Mov64,
        src: [Src::Imm(next), Src::None],
        dst,
    })
}

pub(super) fn select(x: &XInst) -> Option<SaluInst> {
    if x.inst.enc == softhsa_isa::Encoding::Sopk {
        return sopk(x);
    }
    use Op::*;
    use Salu::*;
    let s = match x.inst.op {
        S_MOV_B32 => Mov32,
        S_MOV_B64 => Mov64,
        S_NOT_B32 => Not32,
        S_NOT_B64 => Not64,
        S_CSELECT_B32 => Cselect32,
        S_CSELECT_B64 => Cselect64,
        S_ADD_U32 => AddU32,
        S_SUB_U32 => SubU32,
        S_ADDC_U32 => AddcU32,
        S_SUBB_U32 => SubbU32,
        S_ADD_I32 => AddI32,
        S_SUB_I32 => SubI32,
        S_MUL_I32 => MulI32,
        S_AND_B32 => Bin32(Bin::And),
        S_OR_B32 => Bin32(Bin::Or),
        S_XOR_B32 => Bin32(Bin::Xor),
        S_ANDN2_B32 => Bin32(Bin::Andn2),
        S_ORN2_B32 => Bin32(Bin::Orn2),
        S_NAND_B32 => Bin32(Bin::Nand),
        S_NOR_B32 => Bin32(Bin::Nor),
        S_XNOR_B32 => Bin32(Bin::Xnor),
        S_LSHL_B32 => Bin32(Bin::Lshl),
        S_LSHR_B32 => Bin32(Bin::Lshr),
        S_ASHR_I32 => Bin32(Bin::Ashr),
        S_AND_B64 => Bin64(Bin::And),
        S_OR_B64 => Bin64(Bin::Or),
        S_XOR_B64 => Bin64(Bin::Xor),
        S_ANDN2_B64 => Bin64(Bin::Andn2),
        S_ORN2_B64 => Bin64(Bin::Orn2),
        S_NAND_B64 => Bin64(Bin::Nand),
        S_NOR_B64 => Bin64(Bin::Nor),
        S_XNOR_B64 => Bin64(Bin::Xnor),
        S_LSHL_B64 => Shift64(Bin::Lshl),
        S_LSHR_B64 => Shift64(Bin::Lshr),
        S_ASHR_I64 => Shift64(Bin::Ashr),
        S_AND_SAVEEXEC_B64 => SaveExec(Bin::And),
        S_OR_SAVEEXEC_B64 => SaveExec(Bin::Or),
        S_XOR_SAVEEXEC_B64 => SaveExec(Bin::Xor),
        S_ANDN2_SAVEEXEC_B64 => SaveExec(Bin::Andn2),
        S_ORN2_SAVEEXEC_B64 => SaveExec(Bin::Orn2),
        S_CMP_EQ_I32 | S_CMP_EQ_U32 => Cmp32(Cc::Eq),
        S_CMP_LG_I32 | S_CMP_LG_U32 => Cmp32(Cc::Ne),
        S_CMP_GT_I32 => Cmp32(Cc::Gt),
        S_CMP_GE_I32 => Cmp32(Cc::Ge),
        S_CMP_LT_I32 => Cmp32(Cc::Lt),
        S_CMP_LE_I32 => Cmp32(Cc::Le),
        S_CMP_GT_U32 => Cmp32(Cc::Above),
        S_CMP_GE_U32 => Cmp32(Cc::AboveEq),
        S_CMP_LT_U32 => Cmp32(Cc::Below),
        S_CMP_LE_U32 => Cmp32(Cc::BelowEq),
        S_CMP_EQ_U64 => Cmp64(Cc::Eq),
        S_MIN_I32 => MinMax(Cc::Lt),
        S_MAX_I32 => MinMax(Cc::Gt),
        S_MIN_U32 => MinMax(Cc::Below),
        S_MAX_U32 => MinMax(Cc::Above),
        S_BCNT0_I32_B32 => Bcnt32 { zeros: true },
        S_BCNT1_I32_B32 => Bcnt32 { zeros: false },
        S_BREV_B32 => Brev32,
        S_BITCMP0_B32 => Bitcmp32 { one: false },
        S_BITCMP1_B32 => Bitcmp32 { one: true },
        S_BFE_U32 => BfeU32,
        S_BFE_I32 => BfeI32,
        S_MUL_HI_U32 => MulHiU32,
        S_MUL_HI_I32 => MulHiI32,
        S_SEXT_I32_I8 => Sext32 { byte: true },
        S_SEXT_I32_I16 => Sext32 { byte: false },
        S_FF1_I32_B32 => FirstBit32 { lowest: true },
        S_FLBIT_I32_B32 => FirstBit32 { lowest: false },
        S_BCNT0_I32_B64 => Bcnt64 { zeros: true },
        S_BCNT1_I32_B64 => Bcnt64 { zeros: false },
        S_CMP_LG_U64 => Cmp64(Cc::Ne),
        _ => return None,
    };
    // Sources: SGPRs (a 64-bit pair must not wrap past s127) or constants.
    let ok = (0..s.nsrc()).all(|i| match x.src[i] {
        Src::S(r) => !s.wide_src(i) || r < 127,
        Src::Imm(_) => true,
        _ => false,
    });
    let d = x.inst.dst.raw() & 127;
    let dst_ok = match s.dst_wide() {
        None => true,
        Some(true) => d < 127,
        Some(false) => true,
    };
    (ok && dst_ok).then_some(SaluInst {
        op: s,
        src: [x.src[0], x.src[1]],
        dst: d as u8,
    })
}

/// SOPK ops as the scalar ops they are with the 16-bit immediate as an operand (as
/// `exec::sopk`: signed compares and arithmetic sign-extend it, unsigned compares zero-extend).
fn sopk(x: &XInst) -> Option<SaluInst> {
    use Op::*;
    use Salu::*;
    let simm = Src::Imm(u64::from(x.inst.imm as u32));
    let zimm = Src::Imm(u64::from(x.inst.imm as u32 & 0xffff));
    // s_cmpk_* name their SGPR in dst or src[0] depending on the decoder.
    let reg = if x.inst.dst.is_none() {
        match x.src[0] {
            Src::S(r) => r,
            _ => return None,
        }
    } else {
        (x.inst.dst.raw() & 127) as u8
    };
    if usize::from(reg) >= 128 {
        return None;
    }
    let r = Src::S(reg);
    let (op, src) = match x.inst.op {
        S_MOVK_I32 => (Mov32, [simm, Src::None]),
        // A constant hardware register (the aperture bases -O0 code reads for address-space
        // casts): a move.
        S_GETREG_B32 => {
            let v = crate::exec::control::getreg_constant(x.inst.imm)?;
            (Mov32, [Src::Imm(u64::from(v)), Src::None])
        }
        S_CMOVK_I32 => (Cselect32, [simm, r]),
        S_ADDK_I32 => (AddI32, [r, simm]),
        S_MULK_I32 => (MulI32, [r, simm]),
        S_CMPK_EQ_I32 => (Cmp32(Cc::Eq), [r, simm]),
        S_CMPK_LG_I32 => (Cmp32(Cc::Ne), [r, simm]),
        S_CMPK_GT_I32 => (Cmp32(Cc::Gt), [r, simm]),
        S_CMPK_GE_I32 => (Cmp32(Cc::Ge), [r, simm]),
        S_CMPK_LT_I32 => (Cmp32(Cc::Lt), [r, simm]),
        S_CMPK_LE_I32 => (Cmp32(Cc::Le), [r, simm]),
        S_CMPK_EQ_U32 => (Cmp32(Cc::Eq), [r, zimm]),
        S_CMPK_LG_U32 => (Cmp32(Cc::Ne), [r, zimm]),
        S_CMPK_GT_U32 => (Cmp32(Cc::Above), [r, zimm]),
        S_CMPK_GE_U32 => (Cmp32(Cc::AboveEq), [r, zimm]),
        S_CMPK_LT_U32 => (Cmp32(Cc::Below), [r, zimm]),
        S_CMPK_LE_U32 => (Cmp32(Cc::BelowEq), [r, zimm]),
        _ => return None,
    };
    Some(SaluInst { op, src, dst: reg })
}

fn sreg(i: u8) -> AsmMemoryOperand {
    qword_ptr(rbx + (W_S + 4 * i32::from(i)))
}
fn sreg32(i: u8) -> AsmMemoryOperand {
    dword_ptr(rbx + (W_S + 4 * i32::from(i)))
}

impl Emitter<'_> {
    fn src32(&mut self, dst: AsmRegister32, s: Src) -> R<()> {
        match s {
            Src::S(i) => self.a.mov(dst, sreg32(i))?,
            Src::Imm(v) => self.a.mov(dst, v as u32)?,
            _ => return Err(err("scalar source")),
        }
        Ok(())
    }

    fn src64(&mut self, dst: AsmRegister64, s: Src) -> R<()> {
        match s {
            Src::S(i) => self.a.mov(dst, sreg(i))?,
            Src::Imm(v) => self.a.mov(dst, v)?,
            _ => return Err(err("scalar source")),
        }
        Ok(())
    }

    /// SCC = the condition `f` sets from the flags (nothing where SCC is dead).
    fn set_scc(
        &mut self,
        f: fn(&mut CodeAssembler, AsmRegister8) -> Result<(), IcedError>,
    ) -> R<()> {
        if self.scc_dead {
            return Ok(());
        }
        f(&mut self.a, dl)?;
        self.a.mov(byte_ptr(rbx + W_SCC), dl)?;
        Ok(())
    }

    /// Flags for an SCC of `result != 0` (none where SCC is dead).
    fn test_for_scc(&mut self, wide: bool) -> R<()> {
        if self.scc_dead {
            return Ok(());
        }
        if wide {
            self.a.test(rax, rax)?;
        } else {
            self.a.test(eax, eax)?;
        }
        Ok(())
    }

    /// rax = rax (op) rcx, 32- or 64-bit; flags left for `result != 0` (unless SCC is dead).
    fn bin(&mut self, b: Bin, wide: bool) -> R<()> {
        let a = &mut self.a;
        macro_rules! both {
            ($m:ident) => {
                if wide {
                    a.$m(rax, rcx)?
                } else {
                    a.$m(eax, ecx)?
                }
            };
        }
        macro_rules! not {
            ($r:ident, $r32:ident) => {
                if wide {
                    a.not($r)?
                } else {
                    a.not($r32)?
                }
            };
        }
        match b {
            Bin::And => both!(and),
            Bin::Or => both!(or),
            Bin::Xor => both!(xor),
            Bin::Andn2 => {
                not!(rcx, ecx);
                both!(and);
            }
            Bin::Orn2 => {
                not!(rcx, ecx);
                both!(or);
            }
            Bin::Nand => {
                both!(and);
                not!(rax, eax);
            }
            Bin::Nor => {
                both!(or);
                not!(rax, eax);
            }
            Bin::Xnor => {
                both!(xor);
                not!(rax, eax);
            }
            // x86 shifts mask the count to 5 (6) bits, as the GPU does.
            Bin::Lshl => both_shift(a, wide, 0)?,
            Bin::Lshr => both_shift(a, wide, 1)?,
            Bin::Ashr => both_shift(a, wide, 2)?,
        }
        // Flags for SCC: test the result (not/shift leave them unusable).
        self.test_for_scc(wide)
    }

    /// `and`, `or` or `xor` with the second source as a memory or immediate operand, `andn2`
    /// of a register as one `andn` (a move or two fewer than through rcx); false (nothing
    /// emitted) for the other ops and sources.
    fn bin_direct(&mut self, b: Bin, x: &SaluInst, wide: bool) -> R<bool> {
        if let (Bin::Andn2, Src::S(r)) = (b, x.src[0]) {
            // src0 & !src1 in one BMI1 `andn` (flags of the result too).
            if wide {
                self.src64(rcx, x.src[1])?;
                self.a.andn(rax, rcx, sreg(r))?;
            } else {
                self.src32(ecx, x.src[1])?;
                self.a.andn(eax, ecx, sreg32(r))?;
            }
        } else if !matches!(b, Bin::And | Bin::Or | Bin::Xor)
            || !self.bin_src1_direct(b, x, wide)?
        {
            return Ok(false);
        }
        self.set_scc(|a, r| a.setne(r))?;
        if wide {
            self.a.mov(sreg(x.dst), rax)?;
        } else {
            self.a.mov(sreg32(x.dst), eax)?;
        }
        Ok(true)
    }

    /// rax (eax) = src0 `b` src1 for `and`/`or`/`xor`, src1 as a memory or immediate
    /// operand; false (nothing emitted) for an immediate that does not fit.
    fn bin_src1_direct(&mut self, b: Bin, x: &SaluInst, wide: bool) -> R<bool> {
        // (x86 sign-extends a 32-bit immediate of a 64-bit op.)
        let imm = match x.src[1] {
            Src::S(_) => None,
            Src::Imm(v) if !wide => Some(v as u32 as i32),
            Src::Imm(v) => match i32::try_from(v as i64) {
                Ok(i) => Some(i),
                Err(_) => return Ok(false),
            },
            _ => return Ok(false),
        };
        if wide {
            self.src64(rax, x.src[0])?;
        } else {
            self.src32(eax, x.src[0])?;
        }
        let a = &mut self.a;
        match (imm, x.src[1], wide) {
            (Some(i), _, true) => match b {
                Bin::And => a.and(rax, i)?,
                Bin::Or => a.or(rax, i)?,
                _ => a.xor(rax, i)?,
            },
            (Some(i), _, false) => match b {
                Bin::And => a.and(eax, i)?,
                Bin::Or => a.or(eax, i)?,
                _ => a.xor(eax, i)?,
            },
            (None, Src::S(r), true) => match b {
                Bin::And => a.and(rax, sreg(r))?,
                Bin::Or => a.or(rax, sreg(r))?,
                _ => a.xor(rax, sreg(r))?,
            },
            (None, Src::S(r), false) => match b {
                Bin::And => a.and(eax, sreg32(r))?,
                Bin::Or => a.or(eax, sreg32(r))?,
                _ => a.xor(eax, sreg32(r))?,
            },
            _ => return Err(err("scalar source")),
        }
        // (and/or/xor leave the flags of the result: no test needed.)
        Ok(true)
    }

    pub(super) fn salu(&mut self, ins: &SaluInst) -> R<()> {
        let (s, d) = (ins.op, ins.dst);
        let x = ins;
        use Salu::*;
        match s {
            Mov32 => {
                self.src32(eax, x.src[0])?;
                self.a.mov(sreg32(d), eax)?;
            }
            Mov64 => {
                self.src64(rax, x.src[0])?;
                self.a.mov(sreg(d), rax)?;
            }
            Not32 | Not64 => {
                let wide = matches!(s, Not64);
                if wide {
                    self.src64(rax, x.src[0])?;
                    self.a.not(rax)?;
                    self.a.mov(sreg(d), rax)?;
                } else {
                    self.src32(eax, x.src[0])?;
                    self.a.not(eax)?;
                    self.a.mov(sreg32(d), eax)?;
                }
                self.test_for_scc(wide)?;
                self.set_scc(|a, r| a.setne(r))?;
            }
            Cselect32 | Cselect64 => {
                let wide = matches!(s, Cselect64);
                if wide {
                    self.src64(rax, x.src[0])?;
                    self.src64(rcx, x.src[1])?;
                } else {
                    self.src32(eax, x.src[0])?;
                    self.src32(ecx, x.src[1])?;
                }
                self.a.cmp(byte_ptr(rbx + W_SCC), 0)?;
                self.a.cmove(rax, rcx)?;
                if wide {
                    self.a.mov(sreg(d), rax)?;
                } else {
                    self.a.mov(sreg32(d), eax)?;
                }
            }
            Bin32(b) | Bin64(b) if self.bin_direct(b, x, matches!(s, Bin64(_)))? => {}
            Bin32(b) | Bin64(b) | Shift64(b) => {
                let wide = matches!(s, Bin64(_) | Shift64(_));
                let shift = matches!(b, Bin::Lshl | Bin::Lshr | Bin::Ashr);
                if wide {
                    self.src64(rax, x.src[0])?;
                    if shift {
                        self.src32(ecx, x.src[1])?;
                    } else {
                        self.src64(rcx, x.src[1])?;
                    }
                } else {
                    self.src32(eax, x.src[0])?;
                    self.src32(ecx, x.src[1])?;
                }
                self.bin(b, wide)?;
                self.set_scc(|a, r| a.setne(r))?;
                if wide {
                    self.a.mov(sreg(d), rax)?;
                } else {
                    self.a.mov(sreg32(d), eax)?;
                }
            }
            AddU32 | SubU32 | AddI32 | SubI32 | AddcU32 | SubbU32 => {
                self.src32(eax, x.src[0])?;
                self.src32(ecx, x.src[1])?;
                if matches!(s, AddcU32 | SubbU32) {
                    // CF = SCC, then adc/sbb.
                    self.a.movzx(edx, byte_ptr(rbx + W_SCC))?;
                    self.a.bt(edx, 0)?;
                }
                match s {
                    AddU32 | AddI32 => self.a.add(eax, ecx)?,
                    SubU32 | SubI32 => self.a.sub(eax, ecx)?,
                    AddcU32 => self.a.adc(eax, ecx)?,
                    _ => self.a.sbb(eax, ecx)?,
                }
                if matches!(s, AddI32 | SubI32) {
                    self.set_scc(|a, r| a.seto(r))?;
                } else {
                    self.set_scc(|a, r| a.setb(r))?;
                }
                self.a.mov(sreg32(d), eax)?;
            }
            MulI32 => {
                self.src32(eax, x.src[0])?;
                self.src32(ecx, x.src[1])?;
                self.a.imul_2(eax, ecx)?;
                self.a.mov(sreg32(d), eax)?;
            }
            SaveExec(b) => {
                self.src64(rax, x.src[0])?;
                self.a.mov(rcx, sreg(EXEC))?;
                // (Only the n2 forms change rcx, the old EXEC.)
                let old = match b {
                    Bin::Andn2 | Bin::Orn2 => {
                        self.a.mov(r8, rcx)?;
                        r8
                    }
                    _ => rcx,
                };
                self.bin(b, true)?;
                self.set_scc(|a, r| a.setne(r))?;
                self.a.mov(sreg(EXEC), rax)?;
                self.a.mov(sreg(d), old)?;
            }
            Cmp32(_) | Cmp64(_) | Bitcmp32 { .. } if self.scc_dead => {}
            MinMax(cc) => {
                self.src32(eax, x.src[0])?;
                self.src32(ecx, x.src[1])?;
                self.a.cmp(eax, ecx)?;
                // The second source unless the first compares `cc` to it (flags kept).
                let (pick, other): (SetCc, CmovBack) = match cc {
                    Cc::Lt => (|a, r| a.setl(r), |a| a.cmovge(eax, ecx)),
                    Cc::Gt => (|a, r| a.setg(r), |a| a.cmovle(eax, ecx)),
                    Cc::Below => (|a, r| a.setb(r), |a| a.cmovae(eax, ecx)),
                    Cc::Above => (|a, r| a.seta(r), |a| a.cmovbe(eax, ecx)),
                    _ => return Err(super::emit::err("min/max condition")),
                };
                other(&mut self.a)?;
                self.set_scc(pick)?;
                self.a.mov(sreg32(d), eax)?;
            }
            Brev32 => {
                // Bytes reversed, then nibbles, bit pairs and bits swapped within them.
                self.src32(eax, x.src[0])?;
                self.a.bswap(eax)?;
                for (shift, mask) in [(4, 0x0f0f_0f0fu32), (2, 0x3333_3333), (1, 0x5555_5555)] {
                    self.a.mov(ecx, eax)?;
                    self.a.shr(eax, shift)?;
                    self.a.and(eax, mask)?;
                    self.a.and(ecx, mask)?;
                    self.a.shl(ecx, shift)?;
                    self.a.or(eax, ecx)?;
                }
                self.a.mov(sreg32(d), eax)?;
            }
            Bcnt32 { zeros } | Bcnt64 { zeros } => {
                if let Bcnt64 { .. } = s {
                    self.src64(rax, x.src[0])?;
                    if zeros {
                        self.a.not(rax)?;
                    }
                    self.a.popcnt(rax, rax)?;
                } else {
                    self.src32(eax, x.src[0])?;
                    if zeros {
                        self.a.not(eax)?;
                    }
                    self.a.popcnt(eax, eax)?;
                }
                self.test_for_scc(false)?;
                self.set_scc(|a, r| a.setne(r))?;
                self.a.mov(sreg32(d), eax)?;
            }
            Bitcmp32 { one } => {
                self.src32(eax, x.src[0])?;
                self.src32(ecx, x.src[1])?;
                // (`bt` with a register offset takes it modulo 32.)
                self.a.bt(eax, ecx)?;
                if one {
                    self.set_scc(|a, r| a.setb(r))?;
                } else {
                    self.set_scc(|a, r| a.setae(r))?;
                }
            }
            BfeU32 => {
                // bextr's control: start [7:0], length [15:8] (lengths past 32 take all).
                self.src32(eax, x.src[0])?;
                self.src32(ecx, x.src[1])?;
                self.a.mov(edx, ecx)?;
                self.a.and(ecx, 31)?;
                self.a.shr(edx, 8)?;
                self.a.and(edx, 0x7f00)?;
                self.a.or(ecx, edx)?;
                self.a.bextr(eax, eax, ecx)?;
                self.test_for_scc(false)?;
                self.set_scc(|a, r| a.setne(r))?;
                self.a.mov(sreg32(d), eax)?;
            }
            BfeI32 => {
                // eax = src0 >> offset (`shr` takes cl modulo 32), edx = the width; a width of
                // 1-31 shifts the field to the top and back arithmetically, one of 32 or more
                // keeps it as it is (the field then reaches bit 31).
                self.src32(eax, x.src[0])?;
                self.src32(ecx, x.src[1])?;
                self.a.mov(edx, ecx)?;
                self.a.shr(edx, 16)?;
                self.a.and(edx, 0x7f)?;
                self.a.shr(eax, cl)?;
                let (mut zero, mut done) = (self.a.create_label(), self.a.create_label());
                self.a.test(edx, edx)?;
                self.a.jz(zero)?;
                self.a.cmp(edx, 32)?;
                self.a.jae(done)?;
                self.a.mov(ecx, 32)?;
                self.a.sub(ecx, edx)?;
                self.a.shl(eax, cl)?;
                self.a.sar(eax, cl)?;
                self.a.jmp(done)?;
                bind(&mut self.a, &mut zero)?;
                self.a.xor(eax, eax)?;
                bind(&mut self.a, &mut done)?;
                self.test_for_scc(false)?;
                self.set_scc(|a, r| a.setne(r))?;
                self.a.mov(sreg32(d), eax)?;
            }
            MulHiU32 | MulHiI32 => {
                self.src32(eax, x.src[0])?;
                self.src32(ecx, x.src[1])?;
                match x.op {
                    MulHiU32 => self.a.mul(ecx)?,
                    _ => self.a.imul(ecx)?,
                }
                self.a.mov(sreg32(d), edx)?;
            }
            Sext32 { byte } => {
                self.src32(eax, x.src[0])?;
                if byte {
                    self.a.movsx(eax, al)?;
                } else {
                    self.a.movsx(eax, ax)?;
                }
                self.a.mov(sreg32(d), eax)?;
            }
            FirstBit32 { lowest } => {
                // tzcnt/lzcnt give 32 for 0, where the result is -1.
                self.src32(ecx, x.src[0])?;
                if lowest {
                    self.a.tzcnt(eax, ecx)?;
                } else {
                    self.a.lzcnt(eax, ecx)?;
                }
                self.a.mov(edx, -1)?;
                self.a.test(ecx, ecx)?;
                self.a.cmove(eax, edx)?;
                self.a.mov(sreg32(d), eax)?;
            }
            Cmp32(cc) | Cmp64(cc) => {
                if let Cmp64(_) = s {
                    self.src64(rax, x.src[0])?;
                    self.src64(rcx, x.src[1])?;
                    self.a.cmp(rax, rcx)?;
                } else {
                    self.src32(eax, x.src[0])?;
                    self.src32(ecx, x.src[1])?;
                    self.a.cmp(eax, ecx)?;
                }
                let f: fn(&mut CodeAssembler, AsmRegister8) -> Result<(), IcedError> = match cc {
                    Cc::Eq => |a, r| a.sete(r),
                    Cc::Ne => |a, r| a.setne(r),
                    Cc::Gt => |a, r| a.setg(r),
                    Cc::Ge => |a, r| a.setge(r),
                    Cc::Lt => |a, r| a.setl(r),
                    Cc::Le => |a, r| a.setle(r),
                    Cc::Above => |a, r| a.seta(r),
                    Cc::AboveEq => |a, r| a.setae(r),
                    Cc::Below => |a, r| a.setb(r),
                    Cc::BelowEq => |a, r| a.setbe(r),
                };
                self.set_scc(f)?;
            }
        }
        Ok(())
    }
}

/// A `setcc` into a byte register.
type SetCc = fn(&mut CodeAssembler, AsmRegister8) -> Result<(), IcedError>;

/// A `cmovcc eax, ecx`.
type CmovBack = fn(&mut CodeAssembler) -> Result<(), IcedError>;

/// rax = rax shifted by cl (kind 0 = left, 1 = logical right, 2 = arithmetic right).
fn both_shift(a: &mut CodeAssembler, wide: bool, kind: u8) -> Result<(), IcedError> {
    match (wide, kind) {
        (true, 0) => a.shl(rax, cl),
        (true, 1) => a.shr(rax, cl),
        (true, _) => a.sar(rax, cl),
        (false, 0) => a.shl(eax, cl),
        (false, 1) => a.shr(eax, cl),
        (false, _) => a.sar(eax, cl),
    }
}
