//! The decoded instruction.

use crate::{Op, Operand};

/// The encoding an instruction was decoded from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    Sop2,
    Sopk,
    Sop1,
    Sopc,
    Sopp,
    Smem,
    /// VOP1 32-bit form (`_e32`).
    Vop1,
    /// VOP2 32-bit form (`_e32`).
    Vop2,
    /// VOPC 32-bit form (`_e32`), condition written to VCC.
    Vopc,
    /// VOP3 64-bit form (VOP3a and VOP3b; `_e64` for VOP1/2/C ops).
    Vop3,
    Vop3p,
    /// SDWA form of a VOP1/VOP2/VOPC op (fields in [`Ext::Sdwa`]).
    Sdwa,
    /// DPP form of a VOP1/VOP2/VOPC op (fields in [`Ext::Dpp`]).
    Dpp,
    Ds,
    Mubuf,
    Mtbuf,
    Flat,
    Global,
    Scratch,
    Mimg,
    /// VINTRP (`v_interp_*_e32`, graphics-only).
    Vintrp,
    /// EXP (`exp`, graphics-only).
    Exp,
}

/// VALU source/destination modifiers (VOP3, VOP3P, and the SDWA/DPP neg/abs/clamp/omod).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct VopMods {
    /// Bit i: |src i|.
    pub abs: u8,
    /// Bit i: -src i (VOP3P: negate the low halves).
    pub neg: u8,
    /// VOP3P: bit i negates the high half of src i.
    pub neg_hi: u8,
    /// Clamp the result.
    pub clamp: bool,
    /// Output modifier: 0 none, 1 *2, 2 *4, 3 /2.
    pub omod: u8,
    /// VOP3/VOP3P op_sel bits (bit 3: destination for VOP3 16-bit ops).
    pub op_sel: u8,
    /// VOP3P op_sel_hi bits.
    pub op_sel_hi: u8,
}

/// SDWA selects (the values of the SDWA `*_sel` fields: 0..=3 BYTE_0..3, 4 WORD_0, 5 WORD_1,
/// 6 DWORD).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Sdwa {
    pub dst_sel: u8,
    /// 0 UNUSED_PAD, 1 UNUSED_SEXT, 2 UNUSED_PRESERVE.
    pub dst_unused: u8,
    pub src0_sel: u8,
    pub src1_sel: u8,
    /// Bit i: sign-extend src i.
    pub sext: u8,
}

/// DPP controls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Dpp {
    pub ctrl: u16,
    pub row_mask: u8,
    pub bank_mask: u8,
    pub bound_ctrl: bool,
}

/// Memory flag bits of [`Mem::flags`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MemFlags(pub u16);

impl MemFlags {
    pub const GLC: u16 = 1 << 0;
    pub const SLC: u16 = 1 << 1;
    pub const LDS: u16 = 1 << 2;
    pub const TFE: u16 = 1 << 3;
    pub const OFFEN: u16 = 1 << 4;
    pub const IDXEN: u16 = 1 << 5;
    pub const GDS: u16 = 1 << 6;
    pub const NV: u16 = 1 << 7;
    pub const UNORM: u16 = 1 << 8;
    pub const DA: u16 = 1 << 9;
    pub const R128: u16 = 1 << 10;
    pub const LWE: u16 = 1 << 11;
    pub const D16: u16 = 1 << 12;
    /// SMEM: the immediate offset is used (`imm` bit).
    pub const IMM: u16 = 1 << 13;
    /// SMEM: soffset SGPR is used together with the immediate (`soe`).
    pub const SOE: u16 = 1 << 14;

    /// Whether `bit` is set.
    pub const fn has(self, bit: u16) -> bool {
        self.0 & bit != 0
    }
}

/// Memory-instruction fields. The main offset is [`Inst::imm`] (SMEM, MUBUF, MTBUF, FLAT: byte
/// offset, sign-extended for global/scratch; DS: offset0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Mem {
    pub flags: MemFlags,
    /// DS offset1.
    pub offset1: u8,
    /// MTBUF data format / MIMG dmask.
    pub dfmt: u8,
    /// MTBUF numeric format.
    pub nfmt: u8,
}

/// Format-specific fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Ext {
    #[default]
    None,
    Sdwa(Sdwa),
    Dpp(Dpp),
    Mem(Mem),
}

/// One decoded instruction (Copy, 40 bytes).
///
/// Operand slots by encoding:
/// - SOP2/SOPC/SOP1/VOP*: `dst` = result (VOPC: condition register, VCC for `_e32`),
///   `src[0..3]` = src0..src2; VOP3b carry-out and SDWA-VOPC sdst in `sdst`.
///   VOP2 carry-in (`v_addc`), `v_cndmask` mask: `src[2]` (VCC code for `_e32`).
///   `v_madmk`/`v_madak`: K is `literal` and `src` keeps the register operands in text order
///   (madmk: src0, src1=K marker is not stored: `src[1]` is the VGPR; madak: src0, src1).
/// - SOPK: `dst` = sdst (or `src[0]` for `s_cmpk_*`/`s_setreg*`), `imm` = simm16 (sign-extended).
/// - SOPP: `imm` = simm16 (sign-extended).
/// - SMEM: `dst` = sdata (loads, atomics), `src[0]` = sbase (first SGPR), `src[1]` = soffset
///   SGPR (when used), `src[2]` = sdata (stores), `imm` = immediate offset.
/// - DS: `dst` = vdst, `src[0]` = addr, `src[1]` = data0, `src[2]` = data1, `imm` = offset0,
///   [`Mem::offset1`].
/// - MUBUF/MTBUF: `dst` = vdata (loads), `src[0]` = vaddr, `src[1]` = vdata (stores, atomics),
///   `src[2]` = srsrc (first SGPR of 4), `src[3]` = soffset, `imm` = offset.
/// - FLAT/GLOBAL/SCRATCH: `dst` = vdst, `src[0]` = vaddr, `src[1]` = data, `src[2]` = saddr
///   (`NONE` = off), `imm` = offset.
/// - MIMG: `dst` = vdata (loads), `src[0]` = vaddr, `src[1]` = vdata (stores), `src[2]` = srsrc,
///   `src[3]` = ssamp, [`Mem::dfmt`] = dmask.
/// - VINTRP: `dst` = vdst, `src[0]` = vsrc (p1/p2); EXP: `src[0..4]` = vsrc0..3; `imm` = the
///   encoding's low fields (see the `graphics` module).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inst {
    pub op: Op,
    pub enc: Encoding,
    /// Length in bytes: 4, 8 or 12 (with literal).
    pub len: u8,
    pub dst: Operand,
    /// Second (scalar) destination: VOP3b carry-out, SDWA VOPC sdst.
    pub sdst: Operand,
    pub src: [Operand; 4],
    /// The 32-bit literal constant (when an operand is [`Operand::LITERAL`], or madmk/madak K,
    /// or `s_setreg_imm32_b32`'s value).
    pub literal: u32,
    /// SOPP/SOPK simm16 (sign-extended) or memory offset.
    pub imm: i32,
    pub mods: VopMods,
    pub ext: Ext,
}

impl Inst {
    /// SDWA fields, if an SDWA encoding.
    pub fn sdwa(&self) -> Option<&Sdwa> {
        match &self.ext {
            Ext::Sdwa(s) => Some(s),
            _ => None,
        }
    }
    /// DPP fields, if a DPP encoding.
    pub fn dpp(&self) -> Option<&Dpp> {
        match &self.ext {
            Ext::Dpp(d) => Some(d),
            _ => None,
        }
    }
    /// Memory fields, if a memory encoding.
    pub fn mem(&self) -> Option<&Mem> {
        match &self.ext {
            Ext::Mem(m) => Some(m),
            _ => None,
        }
    }
    /// Memory flags (empty for non-memory instructions).
    pub fn mem_flags(&self) -> MemFlags {
        self.mem().map(|m| m.flags).unwrap_or_default()
    }
    /// SOPP/SOPK branch target for an instruction at `pc`: `pc + 4 + simm16 * 4`.
    pub fn branch_target(&self, pc: u64) -> Option<u64> {
        let is_branch = matches!(self.op.name(), n if n.starts_with("s_cbranch_") || n == "s_branch")
            && self.enc == crate::Encoding::Sopp
            || self.op == Op::S_CALL_B64;
        is_branch.then(|| {
            pc.wrapping_add(4)
                .wrapping_add(((self.imm as i64) * 4) as u64)
        })
    }
}
