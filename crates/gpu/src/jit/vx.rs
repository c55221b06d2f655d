//! The host vector ISA under the JIT's lowerings: one chunk of a wave's lanes in one vector
//! register, with the same operations emitted for AVX-512 (16 lanes in a `zmm`, lane masks in
//! `k` registers) and AVX2 (8 lanes in a `ymm`, lane masks as all-ones/zero lanes of a `ymm`).
//!
//! Lowerings name registers by number ([`V`], [`M`]); these methods pick the encoding. Only the
//! last source of a binary operation may be memory ([`Vs::M`]) or, on AVX-512, a broadcast
//! dword ([`Vs::B`]), as in the hardware encodings.

use super::emit::{err, Emitter, R};
use iced_x86::code_asm::*;

/// The instruction set generated code uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Isa {
    /// AVX2 + FMA: 8 lanes per chunk, 16 vector registers.
    Avx2,
    /// AVX-512 F/BW/DQ/VL: 16 lanes per chunk, 32 vector registers, 7 mask registers.
    Avx512,
}

impl Isa {
    /// Lanes per chunk.
    pub const fn lanes(self) -> usize {
        match self {
            Isa::Avx2 => 8,
            Isa::Avx512 => 16,
        }
    }

    /// Chunks per wave.
    pub const fn chunks(self) -> usize {
        64 / self.lanes()
    }

    /// Bytes of one chunk of a VGPR.
    pub const fn chunk_bytes(self) -> i32 {
        4 * self.lanes() as i32
    }

    /// The best ISA this host runs (`None`: no JIT here). `SOFTHSA_JIT_ISA=avx2` picks AVX2 on
    /// an AVX-512 host (to test or compare the AVX2 code).
    pub fn host() -> Option<Isa> {
        #[cfg(target_arch = "x86_64")]
        {
            let avx2 = std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("fma")
                && std::is_x86_feature_detected!("bmi1")
                && std::is_x86_feature_detected!("bmi2")
                && std::is_x86_feature_detected!("lzcnt")
                && std::is_x86_feature_detected!("popcnt")
                && std::is_x86_feature_detected!("f16c");
            let avx512 = avx2
                && std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512dq")
                && std::is_x86_feature_detected!("avx512vl");
            let forced = std::env::var("SOFTHSA_JIT_ISA").ok();
            match (avx2, avx512, forced.as_deref()) {
                (false, _, _) => None,
                (true, true, Some("avx512") | None) => Some(Isa::Avx512),
                _ => Some(Isa::Avx2),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }

    /// Name for traces.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Avx2 => "avx2",
            Isa::Avx512 => "avx512",
        }
    }

    /// Registers generated code uses as temporaries inside one instruction's lowering.
    pub(super) fn temps(self) -> &'static [u8] {
        match self {
            Isa::Avx2 => &[0, 1, 2, 3, 4, 5],
            Isa::Avx512 => &[0, 1, 2, 3, 4, 5, 6, 7],
        }
    }

    /// Registers available as homes of values that live across a segment's instructions.
    pub(super) fn homes(self) -> &'static [u8] {
        match self {
            Isa::Avx2 => &[6, 7, 8, 9, 10, 11],
            Isa::Avx512 => &[
                8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
                29, 30, 31,
            ],
        }
    }

    /// Mask temporaries (k registers on AVX-512, vector registers on AVX2).
    pub(super) fn mask_temps(self) -> &'static [u8] {
        match self {
            Isa::Avx2 => &[12, 13, 14],
            Isa::Avx512 => &[2, 3, 4, 5],
        }
    }

    /// Mask registers that keep lane masks (VCC, carries) between the instructions of one
    /// chunk iteration (none on AVX2, whose masks are scarce vector registers).
    pub(super) fn mask_homes(self) -> &'static [u8] {
        match self {
            Isa::Avx2 => &[],
            Isa::Avx512 => &[6, 7],
        }
    }

    /// The mask holding the chunk's EXEC bits.
    pub(super) fn exec_mask(self) -> M {
        match self {
            Isa::Avx2 => M(15),
            Isa::Avx512 => M(1),
        }
    }
}

/// A vector register (a chunk of lanes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct V(pub u8);

/// A lane mask register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct M(pub u8);

/// A vector source operand.
#[derive(Clone, Copy, Debug)]
pub enum Vs {
    R(V),
    /// A whole chunk in memory.
    M(AsmMemoryOperand),
    /// One dword in memory, broadcast to every lane (AVX-512 only).
    B(AsmMemoryOperand),
}

/// Integer compare predicates (the AVX-512 `vpcmp` encoding).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Icmp {
    Eq = 0,
    Lt = 1,
    Le = 2,
    False = 3,
    Ne = 4,
    Ge = 5,
    Gt = 6,
    True = 7,
}

const ZMM: [AsmRegisterZmm; 32] = [
    zmm0, zmm1, zmm2, zmm3, zmm4, zmm5, zmm6, zmm7, zmm8, zmm9, zmm10, zmm11, zmm12, zmm13, zmm14,
    zmm15, zmm16, zmm17, zmm18, zmm19, zmm20, zmm21, zmm22, zmm23, zmm24, zmm25, zmm26, zmm27,
    zmm28, zmm29, zmm30, zmm31,
];
const YMM: [AsmRegisterYmm; 32] = [
    ymm0, ymm1, ymm2, ymm3, ymm4, ymm5, ymm6, ymm7, ymm8, ymm9, ymm10, ymm11, ymm12, ymm13, ymm14,
    ymm15, ymm16, ymm17, ymm18, ymm19, ymm20, ymm21, ymm22, ymm23, ymm24, ymm25, ymm26, ymm27,
    ymm28, ymm29, ymm30, ymm31,
];
const XMM: [AsmRegisterXmm; 32] = [
    xmm0, xmm1, xmm2, xmm3, xmm4, xmm5, xmm6, xmm7, xmm8, xmm9, xmm10, xmm11, xmm12, xmm13, xmm14,
    xmm15, xmm16, xmm17, xmm18, xmm19, xmm20, xmm21, xmm22, xmm23, xmm24, xmm25, xmm26, xmm27,
    xmm28, xmm29, xmm30, xmm31,
];
const K: [AsmRegisterK; 8] = [k0, k1, k2, k3, k4, k5, k6, k7];

pub(super) fn zr(v: V) -> AsmRegisterZmm {
    ZMM[usize::from(v.0 & 31)]
}
pub(super) fn yr(v: V) -> AsmRegisterYmm {
    YMM[usize::from(v.0 & 31)]
}
pub(super) fn xr(v: V) -> AsmRegisterXmm {
    XMM[usize::from(v.0 & 31)]
}
pub(super) fn kr(m: M) -> AsmRegisterK {
    K[usize::from(m.0 & 7)]
}

/// `r` written under mask `m` (merge-masking).
pub(super) fn zk(r: AsmRegisterZmm, m: M) -> AsmRegisterZmm {
    match m.0 {
        1 => r.k1(),
        2 => r.k2(),
        3 => r.k3(),
        4 => r.k4(),
        5 => r.k5(),
        6 => r.k6(),
        7 => r.k7(),
        _ => r,
    }
}

/// A memory operand written or read under mask `m` (AVX-512).
pub(super) fn mk(o: AsmMemoryOperand, m: M) -> AsmMemoryOperand {
    match m.0 {
        1 => o.k1(),
        2 => o.k2(),
        3 => o.k3(),
        4 => o.k4(),
        5 => o.k5(),
        6 => o.k6(),
        7 => o.k7(),
        _ => o,
    }
}

/// `k` register written under mask `m` (a compare into a k register, restricted to `m`).
pub(super) fn kk(r: AsmRegisterK, m: M) -> AsmRegisterK {
    match m.0 {
        1 => r.k1(),
        2 => r.k2(),
        3 => r.k3(),
        4 => r.k4(),
        5 => r.k5(),
        6 => r.k6(),
        7 => r.k7(),
        _ => r,
    }
}

/// Binary operations `d = x (op) y` with one instruction per ISA (EVEX name, VEX name).
macro_rules! binops {
    ($($f:ident: $e:ident, $v:ident;)*) => {
        impl Emitter<'_> {
            $(
                #[allow(dead_code)]
                pub(super) fn $f(&mut self, d: V, x: V, y: Vs) -> R<()> {
                    let a = &mut self.a;
                    match (self.isa, y) {
                        (Isa::Avx512, Vs::R(s)) => a.$e(zr(d), zr(x), zr(s))?,
                        (Isa::Avx512, Vs::M(m)) => a.$e(zr(d), zr(x), zmmword_ptr(m))?,
                        (Isa::Avx512, Vs::B(m)) => a.$e(zr(d), zr(x), dword_bcst(m))?,
                        (Isa::Avx2, Vs::R(s)) => a.$v(yr(d), yr(x), yr(s))?,
                        (Isa::Avx2, Vs::M(m)) => a.$v(yr(d), yr(x), ymmword_ptr(m))?,
                        (Isa::Avx2, Vs::B(_)) => return Err(err("broadcast operand on AVX2")),
                    }
                    Ok(())
                }
            )*
        }
    };
}

binops! {
    v_add: vpaddd, vpaddd;
    v_sub: vpsubd, vpsubd;
    v_mullo: vpmulld, vpmulld;
    v_and: vpandd, vpand;
    v_andn: vpandnd, vpandn;
    v_or: vpord, vpor;
    v_xor: vpxord, vpxor;
    v_sllv: vpsllvd, vpsllvd;
    v_srlv: vpsrlvd, vpsrlvd;
    v_srav: vpsravd, vpsravd;
    v_minu: vpminud, vpminud;
    v_maxu: vpmaxud, vpmaxud;
    v_mins: vpminsd, vpminsd;
    v_maxs: vpmaxsd, vpmaxsd;
    v_fadd: vaddps, vaddps;
    v_fsub: vsubps, vsubps;
    v_fmul: vmulps, vmulps;
    v_fdiv: vdivps, vdivps;
    v_fmin: vminps, vminps;
    v_fmax: vmaxps, vmaxps;
    v_muludq: vpmuludq, vpmuludq;
    v_muldq: vpmuldq, vpmuldq;
    // Byte and word ops (a per-dword popcount); no broadcast operand.
    v_shufb: vpshufb, vpshufb;
    v_addb: vpaddb, vpaddb;
    v_maddubsw: vpmaddubsw, vpmaddubsw;
    v_maddwd: vpmaddwd, vpmaddwd;
}

/// Shifts by an immediate count (EVEX name, VEX name).
macro_rules! shiftops {
    ($($f:ident: $i:ident;)*) => {
        impl Emitter<'_> {
            $(
                #[allow(dead_code)]
                pub(super) fn $f(&mut self, d: V, s: V, n: u32) -> R<()> {
                    match self.isa {
                        Isa::Avx512 => self.a.$i(zr(d), zr(s), n)?,
                        Isa::Avx2 => self.a.$i(yr(d), yr(s), n)?,
                    }
                    Ok(())
                }
            )*
        }
    };
}

shiftops! {
    v_slli: vpslld;
    v_srli: vpsrld;
    v_srai: vpsrad;
    v_slliq: vpsllq;
    v_srliq: vpsrlq;
}

impl Emitter<'_> {
    /// `d = s` (a register move, a load of a whole chunk, or a broadcast).
    pub(super) fn v_mov(&mut self, d: V, s: Vs) -> R<()> {
        let a = &mut self.a;
        match (self.isa, s) {
            (_, Vs::R(s)) if s == d => {}
            (Isa::Avx512, Vs::R(s)) => a.vmovdqa64(zr(d), zr(s))?,
            (Isa::Avx512, Vs::M(m)) => a.vmovdqu32(zr(d), zmmword_ptr(m))?,
            (Isa::Avx512, Vs::B(m)) => a.vpbroadcastd(zr(d), dword_ptr(m))?,
            (Isa::Avx2, Vs::R(s)) => a.vmovdqa(yr(d), yr(s))?,
            (Isa::Avx2, Vs::M(m)) => a.vmovdqu(yr(d), ymmword_ptr(m))?,
            (Isa::Avx2, Vs::B(m)) => a.vpbroadcastd(yr(d), dword_ptr(m))?,
        }
        Ok(())
    }

    /// Stores the whole chunk `s` to `m`.
    pub(super) fn v_mov_to_mem(&mut self, m: AsmMemoryOperand, s: V) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.vmovdqu32(zmmword_ptr(m), zr(s))?,
            Isa::Avx2 => self.a.vmovdqu(ymmword_ptr(m), yr(s))?,
        }
        Ok(())
    }

    /// `d` = the 32-bit GPR `r` in every lane.
    pub(super) fn v_bcast_gpr(&mut self, d: V, r: AsmRegister32) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.vpbroadcastd(zr(d), r)?,
            Isa::Avx2 => {
                self.a.vmovd(xr(d), r)?;
                self.a.vpbroadcastd(yr(d), xr(d))?;
            }
        }
        Ok(())
    }

    /// `d` = the constant `k` in every lane.
    pub(super) fn v_const(&mut self, d: V, k: u32) -> R<()> {
        match k {
            0 => self.v_xor(d, d, Vs::R(d)),
            u32::MAX => self.v_ones(d),
            _ => {
                self.a.mov(eax, k)?;
                self.v_bcast_gpr(d, eax)
            }
        }
    }

    /// `d` = all ones.
    pub(super) fn v_ones(&mut self, d: V) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.vpternlogd(zr(d), zr(d), zr(d), 0xff)?,
            Isa::Avx2 => self.a.vpcmpeqd(yr(d), yr(d), yr(d))?,
        }
        Ok(())
    }

    /// `d = !s` (bitwise).
    pub(super) fn v_not(&mut self, d: V, s: V) -> R<()> {
        match self.isa {
            Isa::Avx512 => {
                self.v_mov(d, Vs::R(s))?;
                self.a.vpternlogd(zr(d), zr(d), zr(d), 0x55)?;
            }
            // In a full-EXEC copy EXEC's register holds the ones already.
            Isa::Avx2 if self.full_exec => self.v_xor(d, s, Vs::R(V(self.isa.exec_mask().0)))?,
            Isa::Avx2 => {
                let t = self.tmp()?;
                self.v_ones(t)?;
                self.v_xor(d, s, Vs::R(t))?;
                self.free(t);
            }
        }
        Ok(())
    }

    /// Stores the lanes of `s` selected by `mask` to `m`; other lanes of `m` keep their value.
    pub(super) fn v_store_masked_private(&mut self, m: AsmMemoryOperand, s: V, mask: M) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.vmovdqu32(mk(zmmword_ptr(m), mask), zr(s))?,
            Isa::Avx2 => self.a.vpmaskmovd(ymmword_ptr(m), yr(V(mask.0)), yr(s))?,
        }
        Ok(())
    }

    /// Like [`Emitter::v_store_masked_private`], for when a temporary is free: AVX2 blends
    /// with the old value (faster than `vpmaskmovd` on many hosts). `m` must be the wave's
    /// own memory, since the other lanes are rewritten.
    pub(super) fn v_store_masked_blend(&mut self, m: AsmMemoryOperand, s: V, mask: M) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.v_store_masked_private(m, s, mask),
            Isa::Avx2 => {
                let t = self.tmp()?;
                self.a.vmovdqu(yr(t), ymmword_ptr(m))?;
                self.a.vpblendvb(yr(t), yr(t), yr(s), yr(V(mask.0)))?;
                self.a.vmovdqu(ymmword_ptr(m), yr(t))?;
                self.free(t);
                Ok(())
            }
        }
    }

    /// `d = mask ? b : a` per lane.
    pub(super) fn v_blend(&mut self, d: V, mask: M, a: V, b: V) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.vpblendmd(zk(zr(d), mask), zr(a), zr(b))?,
            Isa::Avx2 => self.a.vpblendvb(yr(d), yr(a), yr(b), yr(V(mask.0)))?,
        }
        Ok(())
    }

    /// `d = a*b + c` (fused, one rounding). Any of `a`, `b`, `c` may be `d`.
    pub(super) fn v_fma(&mut self, d: V, a: V, b: V, c: V) -> R<()> {
        // 213: p = q*p + r; 231: p = q*r + p.
        let (form231, p, q, r) = if d == a {
            (false, d, b, c)
        } else if d == b {
            (false, d, a, c)
        } else if d == c {
            (true, d, a, b)
        } else {
            self.v_mov(d, Vs::R(a))?;
            (false, d, b, c)
        };
        let asm = &mut self.a;
        match (self.isa, form231) {
            (Isa::Avx512, false) => asm.vfmadd213ps(zr(p), zr(q), zr(r))?,
            (Isa::Avx512, true) => asm.vfmadd231ps(zr(p), zr(q), zr(r))?,
            (Isa::Avx2, false) => asm.vfmadd213ps(yr(p), yr(q), yr(r))?,
            (Isa::Avx2, true) => asm.vfmadd231ps(yr(p), yr(q), yr(r))?,
        }
        Ok(())
    }

    /// `m` = lanes where `x (p) y`, as signed (`signed`) or unsigned 32-bit integers.
    pub(super) fn v_icmp(&mut self, m: M, p: Icmp, signed: bool, x: V, y: Vs) -> R<()> {
        if self.v_icmp_maybe_inverted(m, p, signed, x, y)? {
            self.v_not(V(m.0), V(m.0))?;
        }
        Ok(())
    }

    /// Like [`Emitter::v_icmp`], but on AVX2 `m` may be left holding the complement of the
    /// result (returns `true` then): AVX2 has no unsigned or not-equal compares, and the
    /// complement's two instructions often fold into the `and` with EXEC that follows
    /// ([`Emitter::m_and_exec`]).
    pub(super) fn v_icmp_maybe_inverted(
        &mut self,
        m: M,
        p: Icmp,
        signed: bool,
        x: V,
        y: Vs,
    ) -> R<bool> {
        match self.isa {
            Isa::Avx512 => {
                let a = &mut self.a;
                let k = kr(m);
                let p = p as i32;
                match (signed, y) {
                    (true, Vs::R(s)) => a.vpcmpd(k, zr(x), zr(s), p)?,
                    (true, Vs::M(o)) => a.vpcmpd(k, zr(x), zmmword_ptr(o), p)?,
                    (true, Vs::B(o)) => a.vpcmpd(k, zr(x), dword_bcst(o), p)?,
                    (false, Vs::R(s)) => a.vpcmpud(k, zr(x), zr(s), p)?,
                    (false, Vs::M(o)) => a.vpcmpud(k, zr(x), zmmword_ptr(o), p)?,
                    (false, Vs::B(o)) => a.vpcmpud(k, zr(x), dword_bcst(o), p)?,
                }
            }
            Isa::Avx2 => return self.avx2_icmp(m, p, signed, x, y),
        }
        Ok(false)
    }

    /// AVX2 integer compare into a vector mask: only `eq` and signed `gt` exist; unsigned
    /// order comes from `min`/`max` (x <=u y exactly when minu(x, y) == x). Returns whether
    /// `m` holds the complement of the result (the caller inverts it).
    fn avx2_icmp(&mut self, m: M, p: Icmp, signed: bool, xv: V, yv: Vs) -> R<bool> {
        let d = V(m.0);
        match p {
            Icmp::True => {
                self.v_ones(d)?;
                return Ok(false);
            }
            Icmp::False => {
                self.v_xor(d, d, Vs::R(d))?;
                return Ok(false);
            }
            Icmp::Eq | Icmp::Ne => {
                match yv {
                    Vs::R(r) => self.a.vpcmpeqd(yr(d), yr(xv), yr(r))?,
                    Vs::M(o) => self.a.vpcmpeqd(yr(d), yr(xv), ymmword_ptr(o))?,
                    Vs::B(_) => return Err(err("broadcast operand on AVX2")),
                }
                return Ok(p == Icmp::Ne);
            }
            _ => {}
        }
        let t = self.tmp()?;
        if signed {
            // gt(x, y) directly; lt(x, y) = gt(y, x); le = !gt; ge = !lt.
            self.v_mov(t, yv)?;
            match p {
                Icmp::Gt | Icmp::Le => self.a.vpcmpgtd(yr(d), yr(xv), yr(t))?,
                _ => self.a.vpcmpgtd(yr(d), yr(t), yr(xv))?,
            }
            self.free(t);
            Ok(matches!(p, Icmp::Le | Icmp::Ge))
        } else {
            // le: minu == x; gt: !le; ge: maxu == x; lt: !ge.
            match p {
                Icmp::Le | Icmp::Gt => self.v_minu(t, xv, yv)?,
                _ => self.v_maxu(t, xv, yv)?,
            }
            self.a.vpcmpeqd(yr(d), yr(t), yr(xv))?;
            self.free(t);
            Ok(matches!(p, Icmp::Gt | Icmp::Lt))
        }
    }

    /// `m &= exec`, or `m = !m & exec` when `m` holds a complement (`inverted`).
    pub(super) fn m_and_exec(&mut self, m: M, inverted: bool) -> R<()> {
        let exec = self.isa.exec_mask();
        match (self.isa, inverted) {
            // Every lane is active: nothing to clear.
            (_, false) if self.full_exec => Ok(()),
            (_, false) => self.m_and(m, m, exec),
            (Isa::Avx2, true) => {
                self.a.vpandn(yr(V(m.0)), yr(V(m.0)), yr(V(exec.0)))?;
                Ok(())
            }
            (Isa::Avx512, true) => Err(err("inverted mask on AVX-512")),
        }
    }

    /// `m` = lanes where `vcmpps` predicate `p` holds for `x`, `y`.
    pub(super) fn v_fcmp(&mut self, m: M, p: u32, x: V, y: Vs) -> R<()> {
        let a = &mut self.a;
        match (self.isa, y) {
            (Isa::Avx512, Vs::R(s)) => a.vcmpps(kr(m), zr(x), zr(s), p)?,
            (Isa::Avx512, Vs::M(o)) => a.vcmpps(kr(m), zr(x), zmmword_ptr(o), p)?,
            (Isa::Avx512, Vs::B(o)) => a.vcmpps(kr(m), zr(x), dword_bcst(o), p)?,
            (Isa::Avx2, Vs::R(s)) => a.vcmpps(yr(V(m.0)), yr(x), yr(s), p)?,
            (Isa::Avx2, Vs::M(o)) => a.vcmpps(yr(V(m.0)), yr(x), ymmword_ptr(o), p)?,
            (Isa::Avx2, Vs::B(_)) => return Err(err("broadcast operand on AVX2")),
        }
        Ok(())
    }

    /// `d = a & b` on masks.
    pub(super) fn m_and(&mut self, d: M, a: M, b: M) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.kandw(kr(d), kr(a), kr(b))?,
            Isa::Avx2 => self.a.vpand(yr(V(d.0)), yr(V(a.0)), yr(V(b.0)))?,
        }
        Ok(())
    }

    /// `d = !a & b` on masks.
    pub(super) fn m_andn(&mut self, d: M, a: M, b: M) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.kandnw(kr(d), kr(a), kr(b))?,
            Isa::Avx2 => self.a.vpandn(yr(V(d.0)), yr(V(a.0)), yr(V(b.0)))?,
        }
        Ok(())
    }

    /// `d = a | b` on masks.
    pub(super) fn m_or(&mut self, d: M, a: M, b: M) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.korw(kr(d), kr(a), kr(b))?,
            Isa::Avx2 => self.a.vpor(yr(V(d.0)), yr(V(a.0)), yr(V(b.0)))?,
        }
        Ok(())
    }

    /// `d = a ^ b` on masks.
    pub(super) fn m_xor(&mut self, d: M, a: M, b: M) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.kxorw(kr(d), kr(a), kr(b))?,
            Isa::Avx2 => self.a.vpxor(yr(V(d.0)), yr(V(a.0)), yr(V(b.0)))?,
        }
        Ok(())
    }

    /// Lane mask `m` as the chunk's bits in the low bits of `r` (other bits zero).
    pub(super) fn m_to_gpr(&mut self, r: AsmRegister32, m: M) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.kmovw(r, kr(m))?,
            Isa::Avx2 => self.a.vmovmskps(r, yr(V(m.0)))?,
        }
        Ok(())
    }

    /// Lane mask `m` from the chunk bits in the low bits of `r` (AVX2 clobbers `r`).
    pub(super) fn m_from_gpr(&mut self, m: M, r: AsmRegister32) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.kmovw(kr(m), r)?,
            Isa::Avx2 => {
                let r64 = gpr64(r)?;
                self.a.and(r, 0xff)?;
                self.a.shl(r, 5)?;
                self.a.vmovdqu(yr(V(m.0)), ymmword_ptr(r15 + r64))?;
            }
        }
        Ok(())
    }

    /// `m` = the lanes where `v`'s sign bit is set (AVX2: `v` itself is such a mask).
    pub(super) fn m_from_signs(&mut self, m: M, v: V) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.vpmovd2m(kr(m), zr(v))?,
            Isa::Avx2 => {
                if m.0 != v.0 {
                    self.a.vpsrad(yr(V(m.0)), yr(v), 31)?;
                }
            }
        }
        Ok(())
    }

    /// Sets ZF when no lane of `m` is set.
    pub(super) fn m_test(&mut self, m: M) -> R<()> {
        match self.isa {
            Isa::Avx512 => self.a.kortestw(kr(m), kr(m))?,
            Isa::Avx2 => self.a.vptest(yr(V(m.0)), yr(V(m.0)))?,
        }
        Ok(())
    }

    /// `d = s + (mask ? 1 : 0)` per lane.
    pub(super) fn v_add_mask_bit(&mut self, d: V, s: V, mask: M) -> R<()> {
        match self.isa {
            // A mask lane is -1 (zero-masked all-ones): subtracting it adds one. Two
            // instructions, and no copy of `s` into `d` that a merge-masked add would need.
            Isa::Avx512 => {
                let t = self.tmp()?;
                self.a.vpternlogd(zk(zr(t), mask).z(), zr(t), zr(t), 0xff)?;
                self.a.vpsubd(zr(d), zr(s), zr(t))?;
                self.free(t);
            }
            // (AVX2 mask lanes are -1 already.)
            Isa::Avx2 => self.v_sub(d, s, Vs::R(V(mask.0)))?,
        }
        Ok(())
    }

    /// `d = s - (mask ? 1 : 0)` per lane.
    pub(super) fn v_sub_mask_bit(&mut self, d: V, s: V, mask: M) -> R<()> {
        match self.isa {
            Isa::Avx512 => {
                let t = self.tmp()?;
                self.a.vpternlogd(zk(zr(t), mask).z(), zr(t), zr(t), 0xff)?;
                self.a.vpaddd(zr(d), zr(s), zr(t))?;
                self.free(t);
            }
            Isa::Avx2 => self.v_add(d, s, Vs::R(V(mask.0)))?,
        }
        Ok(())
    }
}

/// The 64-bit register of a 32-bit GPR.
pub(super) fn gpr64(r: AsmRegister32) -> R<AsmRegister64> {
    const R32: [AsmRegister32; 16] = [
        eax, ecx, edx, ebx, esp, ebp, esi, edi, r8d, r9d, r10d, r11d, r12d, r13d, r14d, r15d,
    ];
    const R64: [AsmRegister64; 16] = [
        rax, rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8, r9, r10, r11, r12, r13, r14, r15,
    ];
    R32.iter()
        .position(|&q| q == r)
        .map(|i| R64[i])
        .ok_or_else(|| err("unknown register"))
}

/// Loads into `dst` the dword at `base + disp` of a VGPR, lane mask or table that a vector
/// store may just have written (`base` 64-byte aligned). On AVX-512 a dword in the upper
/// half of a 64-byte store does not forward to a 32-bit load: the load waits for the store
/// to reach the cache, 15-20 cycles (`benches/host/store_forward.c`, mode 4). A 16-byte load
/// forwards from anywhere in it, so such a dword comes through `tmp`.
pub(super) fn lane_dword(
    a: &mut CodeAssembler,
    isa: Isa,
    dst: AsmRegister32,
    base: AsmRegister64,
    disp: i32,
    tmp: AsmRegisterXmm,
) -> R<()> {
    if isa == Isa::Avx512 && disp.rem_euclid(64) >= 32 {
        a.vmovdqu(tmp, xmmword_ptr(base + (disp & !15)))?;
        a.vpextrd(dst, tmp, (disp & 15) / 4)?;
    } else {
        a.mov(dst, dword_ptr(base + disp))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{lane_dword, Isa};
    use crate::jit::code::{Code, Reserved};
    use iced_x86::code_asm::*;

    /// `lane_dword` reads the dword at every offset of four 64-byte chunks, on both ISAs'
    /// paths, right after vector stores wrote them (as the VGPRs it reads are): the
    /// function's result against the buffer's element.
    #[test]
    fn lane_dword_reads_every_offset() {
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        #[repr(C, align(64))]
        struct Chunks([u32; 64]);
        let mut buf = Chunks([0; 64]);
        for (i, d) in buf.0.iter_mut().enumerate() {
            *d = 0x9e37_79b9u32.wrapping_mul(i as u32 + 1);
        }
        for isa in [Isa::Avx2, Isa::Avx512] {
            for disp in (0..256).step_by(4) {
                // fn(rdi = the chunks) -> eax: the stores of the chunks' own values, then the read.
                let mut a = CodeAssembler::new(64).unwrap();
                for c in 0..8 {
                    a.vmovdqu(ymm1, ymmword_ptr(rdi + 32 * c)).unwrap();
                    a.vmovdqu(ymmword_ptr(rdi + 32 * c), ymm1).unwrap();
                }
                lane_dword(&mut a, isa, eax, rdi, disp, xmm0).unwrap();
                a.vzeroupper().unwrap();
                a.ret().unwrap();
                let reserved = Reserved::new(4096).unwrap();
                let bytes = a.assemble(reserved.addr()).unwrap();
                let code = Code::seal(reserved, &bytes).unwrap();
                // SAFETY: the code above reads and rewrites the 256 bytes at rdi (`buf`,
                // aligned and alive) with AVX2 instructions (checked above), clobbers only
                // caller-saved registers and returns.
                let got = unsafe {
                    let f: extern "sysv64" fn(*mut u32) -> u32 = std::mem::transmute(code.addr());
                    f(buf.0.as_mut_ptr())
                };
                assert_eq!(got, buf.0[disp as usize / 4], "{isa:?}, byte {disp}");
            }
        }
    }
}
