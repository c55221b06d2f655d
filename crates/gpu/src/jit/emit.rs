//! Instruction selection and x86-64 emission (iced-x86's code assembler, AVX2 + FMA).
//!
//! Registers while generated code runs: rbx = the wave, r12 = the [`JitCtx`], r13 = the
//! wave's VGPR file (VGPR r, lanes 8k..8k+7 at r13 + 256 r + 32 k), r14 = the instruction
//! limit, r15 = the EXEC-byte mask table. A VALU instruction is eight 8-lane chunks; the result
//! is written with `vpmaskmovd` under EXEC, so inactive lanes keep their values.

use super::code::{Code, Reserved};
use super::{JitCtx, EXIT_CALLOUT, EXIT_STOPPED};
use crate::exec::int32::Int32;
use crate::exec::operand::Src;
use crate::program::{Program, Slot, XInst, NO_INDEX};
use crate::wave::{Wave, VCC_LO};
use iced_x86::code_asm::*;
use iced_x86::BlockEncoderOptions;
use softhsa_isa::{Encoding, Ext, Op, VopMods};
use std::mem::offset_of;

/// The compiled program, ready to run.
pub(super) struct Output {
    pub code: Code,
    pub table: Vec<u64>,
    pub entry: u64,
    pub native: usize,
}

// Offsets the generated code uses.
pub(super) const W_S: i32 = offset_of!(Wave, s) as i32;
const W_V: i32 = offset_of!(Wave, v) as i32;
pub(super) const W_SCC: i32 = offset_of!(Wave, scc) as i32;
const W_MODE: i32 = offset_of!(Wave, mode) as i32;
const W_EXECUTED: i32 = offset_of!(Wave, executed) as i32;
const W_GPR_IDX: i32 = offset_of!(Wave, gpr_idx_en) as i32;
const J_TABLE: i32 = offset_of!(JitCtx, table) as i32;
const J_STOP: i32 = offset_of!(JitCtx, stop) as i32;
const J_CALLOUT: i32 = offset_of!(JitCtx, callout) as i32;
const J_PRE: i32 = offset_of!(JitCtx, check_pre) as i32;
const J_POST: i32 = offset_of!(JitCtx, check_post) as i32;
const J_SCRATCH: i32 = offset_of!(JitCtx, scratch) as i32;
const J_LIMIT: i32 = offset_of!(JitCtx, limit) as i32;
const J_MASKS: i32 = offset_of!(JitCtx, masks) as i32;

pub(super) const EXEC: u8 = 126;

/// What a translated instruction computes.
#[derive(Clone, Copy, Debug)]
enum Native {
    Int(Int32),
    /// f32 arithmetic (results checked for NaN before they are written).
    F32(F32Op),
    /// A compare writing a lane mask (VCC, or the VOP3 SGPR pair).
    Cmp(CmpOp, u8),
    Branch(Cond),
    Nop,
    /// `s_waitcnt` with this SIMM16 (see `exec::control::waitcnt`).
    Waitcnt(u16),
    Salu(super::salu::Salu),
    V64(super::valu64::V64),
}

#[derive(Clone, Copy, Debug)]
enum F32Op {
    Add,
    Sub,
    SubRev,
    Mul,
    Fma,
    /// VOP2 fmac: the accumulator is the destination.
    Fmac,
}

#[derive(Clone, Copy, Debug)]
enum CmpOp {
    /// vpcmp-based integer compare: (kind, signed).
    Int(IntCmp, bool),
    /// vcmpps with this predicate.
    F32(u32),
}

/// An integer compare (signed; unsigned operands are biased by the sign bit first).
#[derive(Clone, Copy, Debug)]
pub(super) enum IntCmp {
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

#[derive(Clone, Copy, Debug)]
enum Cond {
    Always,
    Scc(bool),
    VccZ(bool),
    ExecZ(bool),
}

fn simple(s: &Src) -> bool {
    matches!(s, Src::V(_) | Src::S(_) | Src::Imm(_))
}

fn plain_vop(x: &XInst) -> bool {
    matches!(
        x.inst.enc,
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vop3 | Encoding::Vopc
    ) && matches!(x.inst.ext, Ext::None)
        && x.inst.mods == VopMods::default()
}

/// The native form of `x`, if the JIT translates it.
fn select(x: &XInst, gfx900: bool) -> Option<Native> {
    if x.gfx906_only && gfx900 {
        return None; // the interpreter faults on it
    }
    if let Some(op) = x.int32 {
        let mask_ok = !op.reads_mask() || matches!(x.src[2], Src::None | Src::S(_));
        let srcs_ok =
            (0..op.arity().min(if op.reads_mask() { 2 } else { 3 })).all(|i| simple(&x.src[i]));
        if op != Int32::MulHiU && mask_ok && srcs_ok {
            return Some(Native::Int(op));
        }
        return None;
    }
    let name = x.inst.op.name();
    if matches!(x.inst.enc, Encoding::Sop1 | Encoding::Sop2 | Encoding::Sopc) {
        return super::salu::select(x).map(Native::Salu);
    }
    if x.inst.enc == Encoding::Sopp {
        return Some(match x.inst.op {
            Op::S_BRANCH => Native::Branch(Cond::Always),
            Op::S_CBRANCH_SCC0 => Native::Branch(Cond::Scc(false)),
            Op::S_CBRANCH_SCC1 => Native::Branch(Cond::Scc(true)),
            Op::S_CBRANCH_VCCZ => Native::Branch(Cond::VccZ(true)),
            Op::S_CBRANCH_VCCNZ => Native::Branch(Cond::VccZ(false)),
            Op::S_CBRANCH_EXECZ => Native::Branch(Cond::ExecZ(true)),
            Op::S_CBRANCH_EXECNZ => Native::Branch(Cond::ExecZ(false)),
            Op::S_NOP => Native::Nop,
            Op::S_WAITCNT => Native::Waitcnt(x.inst.imm as u16),
            _ => return None,
        })
        .filter(|n| !matches!(n, Native::Branch(_)) || x.target != NO_INDEX);
    }
    let vop3_cmp = x.inst.enc == Encoding::Vop3 && name.starts_with("v_cmp_");
    if !plain_vop(x) || !x.inst.dst.is_vgpr() && x.inst.enc != Encoding::Vopc && !vop3_cmp {
        return None;
    }
    if let Some(v) = super::valu64::select(x) {
        return Some(Native::V64(v));
    }
    let f32op = match name {
        "v_add_f32" => Some(F32Op::Add),
        "v_sub_f32" => Some(F32Op::Sub),
        "v_subrev_f32" => Some(F32Op::SubRev),
        "v_mul_f32" => Some(F32Op::Mul),
        "v_fma_f32" if x.inst.enc == Encoding::Vop3 => Some(F32Op::Fma),
        "v_fmac_f32" if x.inst.enc == Encoding::Vop2 => Some(F32Op::Fmac),
        _ => None,
    };
    if let Some(op) = f32op {
        let n = match op {
            F32Op::Fma => 3,
            _ => 2,
        };
        return (0..n).all(|i| simple(&x.src[i])).then_some(Native::F32(op));
    }
    let cmp = name.strip_prefix("v_cmp_")?;
    let (kind, ty) = cmp.split_once('_')?;
    let op = match ty {
        "u32" | "i32" => {
            let k = match kind {
                "eq" => IntCmp::Eq,
                "ne" => IntCmp::Ne,
                "lt" => IntCmp::Lt,
                "gt" => IntCmp::Gt,
                "le" => IntCmp::Le,
                "ge" => IntCmp::Ge,
                _ => return None,
            };
            CmpOp::Int(k, ty == "i32")
        }
        "f32" => CmpOp::F32(match kind {
            "lt" => 0x11,  // LT_OQ
            "le" => 0x12,  // LE_OQ
            "gt" => 0x1e,  // GT_OQ
            "ge" => 0x1d,  // GE_OQ
            "eq" => 0x00,  // EQ_OQ
            "lg" => 0x0c,  // NEQ_OQ: ordered and unequal
            "neq" => 0x04, // NEQ_UQ: unordered or unequal
            "o" => 0x07,   // ORD_Q
            "u" => 0x03,   // UNORD_Q
            "nge" => 0x09, // NGE_UQ
            "nlt" => 0x05, // NLT_UQ
            "ngt" => 0x0a, // NGT_UQ
            "nle" => 0x06, // NLE_UQ
            "nlg" => 0x18, // EQ_UQ
            _ => return None,
        }),
        _ => return None,
    };
    if !simple(&x.src[0]) || !simple(&x.src[1]) {
        return None;
    }
    let target = if x.inst.enc == Encoding::Vopc {
        VCC_LO as u8
    } else {
        match x.inst.dst.sgpr_index() {
            Some(i) if !x.inst.dst.is_none() && i < EXEC => i,
            _ => return None,
        }
    };
    Some(Native::Cmp(op, target))
}

/// An emission error (from the assembler, or a case the selector should have excluded).
#[derive(Debug)]
pub(super) struct EmitError(String);

impl From<IcedError> for EmitError {
    fn from(e: IcedError) -> Self {
        EmitError(e.to_string())
    }
}

pub(super) fn err(s: &str) -> EmitError {
    EmitError(s.to_string())
}

pub(super) type R<T> = Result<T, EmitError>;

pub(super) struct Emitter<'p> {
    pub(super) a: CodeAssembler,
    prog: &'p Program,
    labels: Vec<CodeLabel>,
    /// Per translated instruction: (index, slow path after counting, slow path before).
    slow: Vec<(u32, CodeLabel, CodeLabel)>,
    dispatch: CodeLabel,
    exit: CodeLabel,
    stopped: CodeLabel,
    check: bool,
}

fn vgpr_at(r: u8, chunk: usize) -> AsmMemoryOperand {
    ymmword_ptr(r13 + (i32::from(r) * 256 + 32 * chunk as i32))
}

impl Emitter<'_> {
    /// Calls the interpreter for instruction `i`, then continues as it says.
    fn callout(&mut self, i: u32) -> R<()> {
        let a = &mut self.a;
        a.vzeroupper()?;
        a.mov(rdi, rbx)?;
        a.mov(rsi, r12)?;
        a.mov(edx, i)?;
        a.call(qword_ptr(r12 + J_CALLOUT))?;
        a.test(eax, eax)?;
        // (After the last slot the interpreter always stops the wave: no next label.)
        let next = self
            .labels
            .get(i as usize + 1)
            .copied()
            .unwrap_or(self.exit);
        a.jz(next)?;
        a.cmp(eax, 1)?;
        a.je(self.dispatch)?;
        Ok(a.jmp(self.exit)?)
    }

    /// Counts the instruction; past the limit, its slow path (the interpreter faults there).
    pub(super) fn count(&mut self, slow: CodeLabel) -> R<()> {
        self.a.add(qword_ptr(rbx + W_EXECUTED), 1)?;
        self.a.cmp(qword_ptr(rbx + W_EXECUTED), r14)?;
        Ok(self.a.ja(slow)?)
    }

    /// Loads source `s` for chunk `k` into `dst` (scalars and constants are broadcast).
    fn load_src(&mut self, dst: AsmRegisterYmm, s: Src, k: usize) -> R<()> {
        match s {
            Src::V(r) => Ok(self.a.vmovdqu(dst, vgpr_at(r, k))?),
            Src::S(i) => Ok(self
                .a
                .vpbroadcastd(dst, dword_ptr(rbx + (W_S + 4 * i32::from(i))))?),
            Src::Imm(v) => {
                self.a.mov(eax, v as u32)?;
                self.a.vmovd(xmm15, eax)?;
                Ok(self.a.vpbroadcastd(dst, xmm15)?)
            }
            _ => Err(err("unsupported source")),
        }
    }

    /// `dst` = the EXEC mask of chunk `k`, from EXEC's byte `k` in the wave.
    pub(super) fn exec_mask(&mut self, k: usize, dst: AsmRegisterYmm) -> R<()> {
        self.a
            .movzx(eax, byte_ptr(rbx + (W_S + 4 * i32::from(EXEC) + k as i32)))?;
        self.a.shl(eax, 5)?;
        self.a.vmovdqu(dst, ymmword_ptr(r15 + rax))?;
        Ok(())
    }

    /// `dst` = the lane mask of chunk `k` of the 64-bit mask in register `from`.
    pub(super) fn chunk_mask(
        &mut self,
        from: AsmRegister64,
        k: usize,
        dst: AsmRegisterYmm,
    ) -> R<()> {
        self.a.mov(rax, from)?;
        if k > 0 {
            self.a.shr(rax, (8 * k) as u32)?;
        }
        self.a.movzx(eax, al)?;
        self.a.shl(eax, 5)?;
        Ok(self.a.vmovdqu(dst, ymmword_ptr(r15 + rax))?)
    }

    fn int_op(&mut self, x: &XInst, op: Int32, slow: CodeLabel, early: CodeLabel) -> R<()> {
        let d = x.inst.dst.vgpr_index().unwrap_or(0);
        self.guard_gpr_idx(early)?;
        self.count(slow)?;
        let a = &mut self.a;
        a.mov(rdx, qword_ptr(rbx + (W_S + 4 * i32::from(EXEC))))?;
        if op.reads_mask() {
            let m = match x.src[2] {
                Src::S(s) => s,
                _ => VCC_LO as u8,
            };
            a.mov(r9, qword_ptr(rbx + (W_S + 4 * i32::from(m))))?;
        }
        if op.writes_carry() {
            a.xor(r8d, r8d)?;
        }
        // Constants: ymm9 = all ones, ymm8 = 0x00ffffff, ymm7 = 31, ymm6 = sign bit.
        a.vpcmpeqd(ymm9, ymm9, ymm9)?;
        a.vpsrld(ymm8, ymm9, 8)?;
        a.vpsrld(ymm7, ymm9, 27)?;
        a.vpslld(ymm6, ymm9, 31)?;
        let n = if op.reads_mask() { 2 } else { op.arity() };
        for k in 0..8 {
            let regs = [ymm0, ymm1, ymm2];
            for (s, &r) in regs.iter().enumerate().take(n) {
                self.load_src(r, x.src[s], k)?;
            }
            if op.reads_mask() {
                self.chunk_mask(r9, k, ymm13)?;
            }
            let a = &mut self.a;
            use Int32::*;
            match op {
                Mov => {}
                Not => a.vpxor(ymm0, ymm0, ymm9)?,
                Add => a.vpaddd(ymm0, ymm0, ymm1)?,
                Sub => a.vpsubd(ymm0, ymm0, ymm1)?,
                SubRev => a.vpsubd(ymm0, ymm1, ymm0)?,
                MulLo => a.vpmulld(ymm0, ymm0, ymm1)?,
                MulU24 | MadU24 => {
                    a.vpand(ymm0, ymm0, ymm8)?;
                    a.vpand(ymm1, ymm1, ymm8)?;
                    a.vpmulld(ymm0, ymm0, ymm1)?;
                    if op == MadU24 {
                        a.vpaddd(ymm0, ymm0, ymm2)?;
                    }
                }
                And => a.vpand(ymm0, ymm0, ymm1)?,
                Or => a.vpor(ymm0, ymm0, ymm1)?,
                Xor => a.vpxor(ymm0, ymm0, ymm1)?,
                LshlRev | LshrRev | AshrRev => {
                    a.vpand(ymm0, ymm0, ymm7)?;
                    match op {
                        LshlRev => a.vpsllvd(ymm0, ymm1, ymm0)?,
                        LshrRev => a.vpsrlvd(ymm0, ymm1, ymm0)?,
                        _ => a.vpsravd(ymm0, ymm1, ymm0)?,
                    }
                }
                MinU => a.vpminud(ymm0, ymm0, ymm1)?,
                MaxU => a.vpmaxud(ymm0, ymm0, ymm1)?,
                MinI => a.vpminsd(ymm0, ymm0, ymm1)?,
                MaxI => a.vpmaxsd(ymm0, ymm0, ymm1)?,
                LshlAdd | LshlOr => {
                    a.vpand(ymm1, ymm1, ymm7)?;
                    a.vpsllvd(ymm0, ymm0, ymm1)?;
                    if op == LshlAdd {
                        a.vpaddd(ymm0, ymm0, ymm2)?;
                    } else {
                        a.vpor(ymm0, ymm0, ymm2)?;
                    }
                }
                AddLshl => {
                    a.vpaddd(ymm0, ymm0, ymm1)?;
                    a.vpand(ymm2, ymm2, ymm7)?;
                    a.vpsllvd(ymm0, ymm0, ymm2)?;
                }
                Add3 => {
                    a.vpaddd(ymm0, ymm0, ymm1)?;
                    a.vpaddd(ymm0, ymm0, ymm2)?;
                }
                AndOr => {
                    a.vpand(ymm0, ymm0, ymm1)?;
                    a.vpor(ymm0, ymm0, ymm2)?;
                }
                Or3 => {
                    a.vpor(ymm0, ymm0, ymm1)?;
                    a.vpor(ymm0, ymm0, ymm2)?;
                }
                Xad => {
                    a.vpxor(ymm0, ymm0, ymm1)?;
                    a.vpaddd(ymm0, ymm0, ymm2)?;
                }
                Cndmask => a.vpblendvb(ymm0, ymm0, ymm1, ymm13)?,
                AddCo | SubCo | SubRevCo | Addc | Subb | SubbRev => {
                    // (x, y) = operands in subtraction order; carry lanes end in ymm3.
                    let (xr, yr) = match op {
                        SubRevCo | SubbRev => (ymm1, ymm0),
                        _ => (ymm0, ymm1),
                    };
                    let uses_cin = matches!(op, Addc | Subb | SubbRev);
                    match op {
                        AddCo | Addc => {
                            a.vpaddd(ymm4, xr, yr)?; // t = x + y
                                                     // carry1 = t <u x
                            a.vpxor(ymm5, ymm4, ymm6)?;
                            a.vpxor(ymm10, xr, ymm6)?;
                            a.vpcmpgtd(ymm3, ymm10, ymm5)?;
                            if uses_cin {
                                // r = t + cin (cin lanes are -1): r = t - mask;
                                // carry2 = r <u t.
                                a.vpsubd(ymm0, ymm4, ymm13)?;
                                a.vpxor(ymm10, ymm0, ymm6)?;
                                a.vpcmpgtd(ymm11, ymm5, ymm10)?;
                                a.vpor(ymm3, ymm3, ymm11)?;
                            } else {
                                a.vmovdqa(ymm0, ymm4)?;
                            }
                        }
                        _ => {
                            a.vpsubd(ymm4, xr, yr)?; // t = x - y
                                                     // borrow1 = y >u x
                            a.vpxor(ymm5, yr, ymm6)?;
                            a.vpxor(ymm10, xr, ymm6)?;
                            a.vpcmpgtd(ymm3, ymm5, ymm10)?;
                            if uses_cin {
                                // r = t - cin = t + mask; borrow2 = cin >u t (t == 0 with cin).
                                a.vpaddd(ymm0, ymm4, ymm13)?;
                                a.vpxor(ymm10, ymm4, ymm6)?;
                                a.vpsrld(ymm11, ymm13, 31)?; // cin as 0/1
                                a.vpxor(ymm11, ymm11, ymm6)?;
                                a.vpcmpgtd(ymm11, ymm11, ymm10)?;
                                a.vpor(ymm3, ymm3, ymm11)?;
                            } else {
                                a.vmovdqa(ymm0, ymm4)?;
                            }
                        }
                    }
                    accumulate_mask(a, ymm3, false, (8 * k) as u32)?;
                }
                MulHiU => return Err(err("not translated")),
            }
            self.exec_mask(k, ymm15)?;
            self.a.vpmaskmovd(vgpr_at(d, k), ymm15, ymm0)?;
        }
        if op.writes_carry() {
            let t = carry_target(x);
            self.a.and(r8, rdx)?;
            self.a.mov(qword_ptr(rbx + (W_S + 4 * i32::from(t))), r8)?;
        }
        Ok(())
    }

    pub(super) fn guard_gpr_idx(&mut self, slow: CodeLabel) -> R<()> {
        self.a.cmp(byte_ptr(rbx + W_GPR_IDX), 0)?;
        Ok(self.a.jne(slow)?)
    }

    /// f32 arithmetic needs round-to-nearest-even and f32 denormals kept (MODE[1:0] = 0,
    /// MODE[5:4] = 3): what the host computes by default.
    fn guard_f32_mode(&mut self, slow: CodeLabel) -> R<()> {
        self.a.mov(eax, dword_ptr(rbx + W_MODE))?;
        self.a.and(eax, 0x33)?;
        self.a.cmp(eax, 0x30)?;
        Ok(self.a.jne(slow)?)
    }

    fn f32_op(&mut self, x: &XInst, op: F32Op, slow: CodeLabel, early: CodeLabel) -> R<()> {
        let d = x.inst.dst.vgpr_index().unwrap_or(0);
        self.guard_gpr_idx(early)?;
        self.guard_f32_mode(early)?;
        self.count(slow)?;
        self.a.vxorps(ymm14, ymm14, ymm14)?;
        for k in 0..8 {
            self.load_src(ymm0, x.src[0], k)?;
            self.load_src(ymm1, x.src[1], k)?;
            let a = &mut self.a;
            match op {
                F32Op::Add => a.vaddps(ymm0, ymm0, ymm1)?,
                F32Op::Sub => a.vsubps(ymm0, ymm0, ymm1)?,
                F32Op::SubRev => a.vsubps(ymm0, ymm1, ymm0)?,
                F32Op::Mul => a.vmulps(ymm0, ymm0, ymm1)?,
                F32Op::Fma | F32Op::Fmac => {
                    if let F32Op::Fma = op {
                        self.load_src(ymm2, x.src[2], k)?;
                    } else {
                        self.a.vmovdqu(ymm2, vgpr_at(d, k))?;
                    }
                    self.a.vfmadd213ps(ymm0, ymm1, ymm2)?;
                }
            }
            let a = &mut self.a;
            a.vcmpps(ymm1, ymm0, ymm0, 3)?; // UNORD_Q: NaN lanes
            a.vorps(ymm14, ymm14, ymm1)?;
            a.vmovaps(ymmword_ptr(r12 + (J_SCRATCH + 32 * k as i32)), ymm0)?;
        }
        // A NaN result: the interpreter decides which NaN (AMD's and x86's rules differ).
        self.a.vptest(ymm14, ymm14)?;
        self.a.jnz(slow)?;
        self.a
            .mov(rdx, qword_ptr(rbx + (W_S + 4 * i32::from(EXEC))))?;
        for k in 0..8 {
            self.a
                .vmovaps(ymm0, ymmword_ptr(r12 + (J_SCRATCH + 32 * k as i32)))?;
            self.exec_mask(k, ymm15)?;
            self.a.vpmaskmovd(vgpr_at(d, k), ymm15, ymm0)?;
        }
        Ok(())
    }

    fn cmp_op(
        &mut self,
        x: &XInst,
        op: CmpOp,
        target: u8,
        slow: CodeLabel,
        early: CodeLabel,
    ) -> R<()> {
        self.guard_gpr_idx(early)?;
        if let CmpOp::F32(_) = op {
            self.guard_f32_mode(early)?;
        }
        self.count(slow)?;
        let a = &mut self.a;
        a.xor(r8d, r8d)?;
        a.vpcmpeqd(ymm9, ymm9, ymm9)?;
        a.vpslld(ymm6, ymm9, 31)?;
        for k in 0..8 {
            self.load_src(ymm0, x.src[0], k)?;
            self.load_src(ymm1, x.src[1], k)?;
            let a = &mut self.a;
            match op {
                CmpOp::F32(p) => a.vcmpps(ymm3, ymm0, ymm1, p)?,
                CmpOp::Int(kind, signed) => {
                    if !signed {
                        a.vpxor(ymm0, ymm0, ymm6)?;
                        a.vpxor(ymm1, ymm1, ymm6)?;
                    }
                    int_compare(a, kind, false, ymm3, ymm0, ymm1, ymm9)?;
                }
            }
            accumulate_mask(a, ymm3, false, (8 * k) as u32)?;
        }
        // Inactive lanes read 0 in the result mask.
        self.a
            .and(r8, qword_ptr(rbx + (W_S + 4 * i32::from(EXEC))))?;
        Ok(self
            .a
            .mov(qword_ptr(rbx + (W_S + 4 * i32::from(target))), r8)?)
    }

    fn branch(&mut self, i: u32, x: &XInst, cond: Cond, slow: CodeLabel) -> R<()> {
        self.count(slow)?;
        let next = self.labels[i as usize + 1];
        let a = &mut self.a;
        match cond {
            Cond::Always => {}
            Cond::Scc(want) => {
                a.cmp(byte_ptr(rbx + W_SCC), 0)?;
                if want {
                    a.je(next)?;
                } else {
                    a.jne(next)?;
                }
            }
            Cond::VccZ(z) | Cond::ExecZ(z) => {
                let r = if let Cond::VccZ(_) = cond {
                    VCC_LO as i32
                } else {
                    i32::from(EXEC)
                };
                a.cmp(qword_ptr(rbx + (W_S + 4 * r)), 0)?;
                // taken when (value == 0) == z
                if z {
                    a.jne(next)?;
                } else {
                    a.je(next)?;
                }
            }
        }
        if x.target <= i {
            // A back edge: where a stop request (another work-group faulted) is honoured.
            a.mov(rax, qword_ptr(r12 + J_STOP))?;
            a.cmp(byte_ptr(rax), 0)?;
            a.jne(self.stopped)?;
        }
        let t = self.labels[x.target as usize];
        Ok(self.a.jmp(t)?)
    }

    /// The interpreter's `waitcnt`: a full fence when the wait covers stores not yet fenced.
    fn waitcnt(&mut self, i: u32, simm16: u16, slow: CodeLabel) -> R<()> {
        use crate::wave::{UNFENCED_SCALAR, UNFENCED_VECTOR};
        self.count(slow)?;
        let vmcnt = (simm16 & 0xf) | (simm16 >> 14 & 3) << 4;
        let lgkmcnt = simm16 >> 8 & 0xf;
        let mut m = 0u8;
        if vmcnt == 0 {
            m |= UNFENCED_VECTOR;
        }
        if lgkmcnt == 0 {
            m |= UNFENCED_SCALAR;
        }
        if m != 0 {
            let next = self.labels[i as usize + 1];
            let uf = offset_of!(Wave, unfenced_stores) as i32;
            self.a.test(byte_ptr(rbx + uf), i32::from(m))?;
            self.a.jz(next)?;
            self.a.mfence()?;
            self.a.mov(byte_ptr(rbx + uf), 0)?;
        }
        Ok(())
    }

    fn check_pre(&mut self, i: u32) -> R<()> {
        let a = &mut self.a;
        a.vzeroupper()?;
        a.mov(rdi, rbx)?;
        a.mov(rsi, r12)?;
        a.mov(edx, i)?;
        Ok(a.call(qword_ptr(r12 + J_PRE))?)
    }

    fn check_post(&mut self, i: u32) -> R<()> {
        let a = &mut self.a;
        a.vzeroupper()?;
        a.mov(rdi, rbx)?;
        a.mov(rsi, r12)?;
        a.mov(edx, i)?;
        a.call(qword_ptr(r12 + J_POST))?;
        a.test(eax, eax)?;
        Ok(a.jnz(self.exit)?)
    }
}

/// Where a carry op writes its carry-out: VCC for VOP2, the SGPR pair in `sdst` for VOP3.
fn carry_target(x: &XInst) -> u8 {
    match x.inst.sdst.sgpr_index() {
        Some(i) if x.inst.enc == Encoding::Vop3 && !x.inst.sdst.is_none() => i,
        _ => VCC_LO as u8,
    }
}

pub(super) fn compile(prog: &Program, check: bool, gfx900: bool) -> Result<Output, String> {
    build(prog, check, gfx900).map_err(|e| format!("JIT: {}", e.0))
}

fn build(prog: &Program, check: bool, gfx900: bool) -> R<Output> {
    let n = prog.slots.len();
    let mut a = CodeAssembler::new(64)?;
    let labels: Vec<CodeLabel> = (0..=n).map(|_| a.create_label()).collect();
    let mut e = Emitter {
        dispatch: a.create_label(),
        exit: a.create_label(),
        stopped: a.create_label(),
        a,
        prog,
        labels,
        slow: Vec::new(),
        check,
    };
    // Prologue: save callee-saved registers, keep the stack 16-byte aligned for calls.
    let mut entry = e.a.create_label();
    e.a.set_label(&mut entry)?;
    for r in [rbp, rbx, r12, r13, r14, r15] {
        e.a.push(r)?;
    }
    e.a.sub(rsp, 8)?;
    e.a.mov(rbx, rdi)?;
    e.a.mov(r12, rsi)?;
    e.a.mov(r13, qword_ptr(rbx + W_V))?;
    e.a.mov(r14, qword_ptr(r12 + J_LIMIT))?;
    e.a.mov(r15, qword_ptr(r12 + J_MASKS))?;
    e.a.set_label(&mut e.dispatch)?;
    e.a.mov(eax, dword_ptr(rbx + offset_of!(Wave, pc) as i32))?;
    e.a.mov(rcx, qword_ptr(r12 + J_TABLE))?;
    e.a.jmp(qword_ptr(rcx + rax * 8))?;

    let mut native = 0;
    for i in 0..n {
        let mut l = e.labels[i];
        e.a.set_label(&mut l)?;
        e.labels[i] = l;
        let sel = match &e.prog.slots[i] {
            Slot::Ok(x) => select(x, gfx900).map(|s| (s, x.as_ref())),
            Slot::Illegal(_) => None,
        };
        let Some((s, x)) = sel else {
            e.callout(i as u32)?;
            continue;
        };
        native += 1;
        let (slow, early) = (e.a.create_label(), e.a.create_label());
        e.slow.push((i as u32, slow, early));
        let checked = e.check && !matches!(s, Native::Branch(_) | Native::Nop | Native::Waitcnt(_));
        if checked {
            e.check_pre(i as u32)?;
        }
        match s {
            Native::Int(op) => e.int_op(x, op, slow, early)?,
            Native::F32(op) => e.f32_op(x, op, slow, early)?,
            Native::Cmp(op, t) => e.cmp_op(x, op, t, slow, early)?,
            Native::Branch(c) => e.branch(i as u32, x, c, slow)?,
            Native::Nop => e.count(slow)?,
            Native::Waitcnt(imm) => e.waitcnt(i as u32, imm, slow)?,
            Native::Salu(op) => e.salu(x, op, slow)?,
            Native::V64(op) => e.valu64(x, op, slow, early)?,
        }
        if checked {
            e.check_post(i as u32)?;
        }
        // Falls through to the next instruction's label.
    }
    let mut end = e.labels[n];
    e.a.set_label(&mut end)?;
    e.labels[n] = end;
    e.callout(n as u32)?; // running off the end: the interpreter reports it
                          // Slow paths: undo the count, then the interpreter runs the instruction.
    let slows = std::mem::take(&mut e.slow);
    for (i, mut l, mut uncounted) in slows {
        e.a.set_label(&mut l)?;
        e.a.sub(qword_ptr(rbx + W_EXECUTED), 1)?;
        e.a.set_label(&mut uncounted)?;
        e.callout(i)?;
    }
    e.a.set_label(&mut e.stopped)?;
    e.a.mov(eax, EXIT_STOPPED)?;
    e.a.set_label(&mut e.exit)?;
    e.a.vzeroupper()?;
    e.a.add(rsp, 8)?;
    for r in [r15, r14, r13, r12, rbx, rbp] {
        e.a.pop(r)?;
    }
    e.a.ret()?;
    let _ = EXIT_CALLOUT;

    // An x86 instruction is at most 15 bytes: map that much, then assemble for its address.
    let reserved = Reserved::new(e.a.instructions().len() * 15 + 64).map_err(EmitError)?;
    let base = reserved.addr();
    let res =
        e.a.assemble_options(base, BlockEncoderOptions::RETURN_NEW_INSTRUCTION_OFFSETS)?;
    let bytes = res.inner.code_buffer.clone();
    if bytes.len() > reserved.size() {
        return Err(err("code grew between assemblies"));
    }
    let mut table = Vec::with_capacity(n + 1);
    for l in &e.labels {
        table.push(res.label_ip(l)?);
    }
    let entry_ip = res.label_ip(&entry)? - base;
    let code = Code::seal(reserved, &bytes).map_err(EmitError)?;
    Ok(Output {
        code,
        table,
        entry: entry_ip,
        native,
    })
}

/// `r8 |= (sign bits of lanes) << shift`: one 8-lane (dwords) or 4-lane (qwords) piece of a
/// lane mask being assembled in r8.
pub(super) fn accumulate_mask(
    a: &mut CodeAssembler,
    lanes: AsmRegisterYmm,
    qwords: bool,
    shift: u32,
) -> Result<(), IcedError> {
    if qwords {
        a.vmovmskpd(eax, lanes)?;
    } else {
        a.vmovmskps(eax, lanes)?;
    }
    if shift > 0 {
        a.shl(rax, shift)?;
    }
    a.or(r8, rax)
}

/// `dst` = all-ones lanes where `x (kind) y` (dwords, or qwords when `qwords`), for signed
/// operands; `ones` holds all-ones.
pub(super) fn int_compare(
    a: &mut CodeAssembler,
    kind: IntCmp,
    qwords: bool,
    dst: AsmRegisterYmm,
    x: AsmRegisterYmm,
    y: AsmRegisterYmm,
    ones: AsmRegisterYmm,
) -> Result<(), IcedError> {
    let eq = |a: &mut CodeAssembler, p: AsmRegisterYmm, q: AsmRegisterYmm| {
        if qwords {
            a.vpcmpeqq(dst, p, q)
        } else {
            a.vpcmpeqd(dst, p, q)
        }
    };
    let gt = |a: &mut CodeAssembler, p: AsmRegisterYmm, q: AsmRegisterYmm| {
        if qwords {
            a.vpcmpgtq(dst, p, q)
        } else {
            a.vpcmpgtd(dst, p, q)
        }
    };
    match kind {
        IntCmp::Eq => eq(a, x, y),
        IntCmp::Gt => gt(a, x, y),
        IntCmp::Lt => gt(a, y, x),
        IntCmp::Ne | IntCmp::Le | IntCmp::Ge => {
            match kind {
                IntCmp::Ne => eq(a, x, y)?,
                IntCmp::Le => gt(a, x, y)?,
                _ => gt(a, y, x)?,
            }
            a.vpxor(dst, dst, ones)
        }
    }
}
