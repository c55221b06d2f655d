//! 64-bit lane VALU ops translated with AVX2 (4 lanes per ymm register): the 64-bit shifts,
//! `v_mad_u64_u32` (64-bit address and fixed-point arithmetic) and 64-bit compares. A VGPR
//! pair (lo in VGPR r, hi in r + 1) is interleaved into qwords, computed, and split back.

use super::emit::{accumulate_mask, err, int_compare, Emitter, IntCmp, EXEC, R, W_S};
use crate::exec::operand::Src;
use crate::program::XInst;
use crate::wave::VCC_LO;
use iced_x86::code_asm::*;
use softhsa_isa::Encoding;

#[derive(Clone, Copy, Debug)]
pub(super) enum V64 {
    /// dst pair = src1 (64) shifted by src0 & 63: 0 left, 1 logical right, 2 arithmetic right.
    Shift(u8),
    /// dst pair = src0 (u32) * src1 (u32) + src2 (u64); sdst = carry-out lanes.
    MadU64,
    /// Compare of 64-bit lanes into the mask register: (kind, signed, target SGPR).
    Cmp(IntCmp, bool, u8),
}

fn pair_ok(s: &Src) -> bool {
    match s {
        Src::V(r) => *r < 255,
        Src::S(i) => *i < 126,
        Src::Imm(_) => true,
        _ => false,
    }
}

fn single_ok(s: &Src) -> bool {
    matches!(s, Src::V(_) | Src::S(_) | Src::Imm(_))
}

pub(super) fn select(x: &XInst) -> Option<V64> {
    let name = x.inst.op.name();
    let vop3 = x.inst.enc == Encoding::Vop3;
    let dst_pair = x.inst.dst.vgpr_index().is_some_and(|d| d < 255);
    let v = match name {
        "v_lshlrev_b64" => V64::Shift(0),
        "v_lshrrev_b64" => V64::Shift(1),
        "v_ashrrev_i64" => V64::Shift(2),
        "v_mad_u64_u32" => V64::MadU64,
        _ => {
            let cmp = name.strip_prefix("v_cmp_")?;
            let (kind, ty) = cmp.split_once('_')?;
            let signed = match ty {
                "u64" => false,
                "i64" => true,
                _ => return None,
            };
            let k = match kind {
                "eq" => IntCmp::Eq,
                "ne" => IntCmp::Ne,
                "lt" => IntCmp::Lt,
                "gt" => IntCmp::Gt,
                "le" => IntCmp::Le,
                "ge" => IntCmp::Ge,
                _ => return None,
            };
            let target = if x.inst.enc == Encoding::Vopc {
                VCC_LO as u8
            } else {
                match x.inst.dst.sgpr_index() {
                    Some(i) if vop3 && !x.inst.dst.is_none() && i < EXEC => i,
                    _ => return None,
                }
            };
            return (pair_ok(&x.src[0]) && pair_ok(&x.src[1]))
                .then_some(V64::Cmp(k, signed, target));
        }
    };
    let ok = vop3
        && dst_pair
        && match v {
            V64::Shift(_) => single_ok(&x.src[0]) && pair_ok(&x.src[1]),
            V64::MadU64 => {
                single_ok(&x.src[0])
                    && single_ok(&x.src[1])
                    && pair_ok(&x.src[2])
                    && x.inst.sdst.sgpr_index().is_some_and(|i| i < EXEC)
            }
            V64::Cmp(..) => false,
        };
    ok.then_some(v)
}

impl Emitter<'_> {
    /// Half `h` (lanes 4h..4h+3) of chunk `k` of a 64-bit source, as qwords in `dst`
    /// (`tmp` is clobbered).
    fn load64(
        &mut self,
        dst: AsmRegisterYmm,
        tmp: AsmRegisterYmm,
        s: Src,
        k: usize,
        h: usize,
    ) -> R<()> {
        let off = |r: u8| i32::from(r) * 256 + 32 * k as i32 + 16 * h as i32;
        let a = &mut self.a;
        match s {
            Src::V(r) => {
                a.vpmovzxdq(dst, xmmword_ptr(r13 + off(r)))?;
                a.vpmovzxdq(tmp, xmmword_ptr(r13 + off(r + 1)))?;
                a.vpsllq(tmp, tmp, 32)?;
                a.vpor(dst, dst, tmp)?;
            }
            Src::S(i) => a.vpbroadcastq(dst, qword_ptr(rbx + (W_S + 4 * i32::from(i))))?,
            Src::Imm(v) => {
                a.mov(rax, v)?;
                a.vmovq(xmm15, rax)?;
                a.vpbroadcastq(dst, xmm15)?;
            }
            _ => return Err(err("64-bit source")),
        }
        Ok(())
    }

    /// Like `load64` for a 32-bit source, zero-extended.
    fn load32x(&mut self, dst: AsmRegisterYmm, s: Src, k: usize, h: usize) -> R<()> {
        let a = &mut self.a;
        match s {
            Src::V(r) => a.vpmovzxdq(
                dst,
                xmmword_ptr(r13 + (i32::from(r) * 256 + 32 * k as i32 + 16 * h as i32)),
            )?,
            Src::S(i) => {
                a.mov(eax, dword_ptr(rbx + (W_S + 4 * i32::from(i))))?;
                a.vmovq(xmm15, rax)?;
                a.vpbroadcastq(dst, xmm15)?;
            }
            Src::Imm(v) => {
                a.mov(eax, v as u32)?;
                a.vmovq(xmm15, rax)?;
                a.vpbroadcastq(dst, xmm15)?;
            }
            _ => return Err(err("32-bit source")),
        }
        Ok(())
    }

    /// Writes qwords ymm4 (lanes 0-3) and ymm5 (lanes 4-7) of chunk `k` to the pair `d` under
    /// the chunk's EXEC mask (rdx = EXEC).
    fn store_pair(&mut self, d: u8, k: usize) -> R<()> {
        let a = &mut self.a;
        a.vshufps(ymm0, ymm4, ymm5, 0x88)?;
        a.vpermq(ymm0, ymm0, 0xd8)?;
        a.vshufps(ymm1, ymm4, ymm5, 0xdd)?;
        a.vpermq(ymm1, ymm1, 0xd8)?;
        self.exec_mask(k, ymm15)?;
        let lo = ymmword_ptr(r13 + (i32::from(d) * 256 + 32 * k as i32));
        let hi = ymmword_ptr(r13 + ((i32::from(d) + 1) * 256 + 32 * k as i32));
        self.a.vpmaskmovd(lo, ymm15, ymm0)?;
        self.a.vpmaskmovd(hi, ymm15, ymm1)?;
        Ok(())
    }

    pub(super) fn valu64(
        &mut self,
        x: &XInst,
        op: V64,
        slow: CodeLabel,
        early: CodeLabel,
    ) -> R<()> {
        self.guard_gpr_idx(early)?;
        self.count(slow)?;
        let d = x.inst.dst.vgpr_index().unwrap_or(0);
        let a = &mut self.a;
        a.mov(rdx, qword_ptr(rbx + (W_S + 4 * i32::from(EXEC))))?;
        a.xor(r8d, r8d)?;
        a.vpcmpeqd(ymm9, ymm9, ymm9)?;
        a.vpsllq(ymm6, ymm9, 63)?; // the qword sign bit
        a.vpsrlq(ymm7, ymm9, 58)?; // 63
        for k in 0..8 {
            for h in 0..2 {
                let out = if h == 0 { ymm4 } else { ymm5 };
                match op {
                    V64::Shift(kind) => {
                        self.load32x(ymm2, x.src[0], k, h)?;
                        self.load64(ymm3, ymm10, x.src[1], k, h)?;
                        let a = &mut self.a;
                        a.vpand(ymm2, ymm2, ymm7)?;
                        match kind {
                            0 => a.vpsllvq(out, ymm3, ymm2)?,
                            1 => a.vpsrlvq(out, ymm3, ymm2)?,
                            _ => {
                                // sra(x, n) = srl(x ^ s, n) ^ s, s = x's sign in every bit.
                                a.vpxor(ymm11, ymm11, ymm11)?;
                                a.vpcmpgtq(ymm11, ymm11, ymm3)?;
                                a.vpxor(ymm3, ymm3, ymm11)?;
                                a.vpsrlvq(out, ymm3, ymm2)?;
                                a.vpxor(out, out, ymm11)?;
                            }
                        }
                    }
                    V64::MadU64 => {
                        self.load32x(ymm2, x.src[0], k, h)?;
                        self.load32x(ymm3, x.src[1], k, h)?;
                        self.load64(ymm12, ymm10, x.src[2], k, h)?;
                        let a = &mut self.a;
                        a.vpmuludq(ymm2, ymm2, ymm3)?;
                        a.vpaddq(out, ymm2, ymm12)?;
                        // carry = sum <u addend
                        a.vpxor(ymm11, out, ymm6)?;
                        a.vpxor(ymm12, ymm12, ymm6)?;
                        a.vpcmpgtq(ymm3, ymm12, ymm11)?;
                        accumulate_mask(a, ymm3, true, (8 * k + 4 * h) as u32)?;
                    }
                    V64::Cmp(kind, signed, _) => {
                        self.load64(ymm2, ymm10, x.src[0], k, h)?;
                        self.load64(ymm3, ymm10, x.src[1], k, h)?;
                        let a = &mut self.a;
                        if !signed {
                            a.vpxor(ymm2, ymm2, ymm6)?;
                            a.vpxor(ymm3, ymm3, ymm6)?;
                        }
                        int_compare(a, kind, true, ymm11, ymm2, ymm3, ymm9)?;
                        accumulate_mask(a, ymm11, true, (8 * k + 4 * h) as u32)?;
                    }
                }
            }
            if !matches!(op, V64::Cmp(..)) {
                self.store_pair(d, k)?;
            }
        }
        let mask_dst = match op {
            V64::Cmp(_, _, t) => Some(t),
            V64::MadU64 => x.inst.sdst.sgpr_index(),
            V64::Shift(_) => None,
        };
        if let Some(t) = mask_dst {
            self.a.and(r8, rdx)?;
            self.a.mov(qword_ptr(rbx + (W_S + 4 * i32::from(t))), r8)?;
        }
        Ok(())
    }
}
