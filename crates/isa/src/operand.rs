//! Operands as raw GFX9 operand codes: cheap to match on at run time.
//!
//! Codes (the 9-bit VOP source numbering, also used for 7/8-bit scalar fields):
//! 0..=101 s0..s101, 102/103 flat_scratch_lo/hi, 104/105 xnack_mask_lo/hi, 106/107 vcc_lo/hi,
//! 108..=123 ttmp0..ttmp15, 124 m0, 126/127 exec_lo/hi, 128..=192 integers 0..64,
//! 193..=208 integers -1..-16, 235 src_shared_base, 236 src_shared_limit, 237 src_private_base,
//! 238 src_private_limit, 239 src_pops_exiting_wave_id, 240..=248 float constants
//! (0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, 1/(2*pi)), 251 vccz, 252 execz, 253 scc,
//! 254 lds_direct, 255 literal (value in `Inst::literal`), 256..=511 v0..v255, 512..=767
//! a0..a255 (the accumulation registers of gfx908+; LLVM's 10-bit operand numbering, where
//! bit 9 selects the AGPR file).

/// One operand: a register or constant code (see module docs). A register operand names its
/// first register; the width comes from the op ([`crate::Op::src_dwords`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Operand(pub u16);

impl Operand {
    /// No operand in this slot (also memory `off`).
    pub const NONE: Operand = Operand(0x3FF);
    /// flat_scratch_lo.
    pub const FLAT_SCRATCH_LO: u16 = 102;
    /// xnack_mask_lo.
    pub const XNACK_MASK_LO: u16 = 104;
    /// vcc_lo.
    pub const VCC_LO: u16 = 106;
    /// vcc_hi.
    pub const VCC_HI: u16 = 107;
    /// ttmp0.
    pub const TTMP0: u16 = 108;
    /// m0.
    pub const M0: u16 = 124;
    /// exec_lo.
    pub const EXEC_LO: u16 = 126;
    /// exec_hi.
    pub const EXEC_HI: u16 = 127;
    /// src_shared_base (LDS aperture base, high half of the 64-bit flat address).
    pub const SHARED_BASE: u16 = 235;
    /// src_shared_limit.
    pub const SHARED_LIMIT: u16 = 236;
    /// src_private_base.
    pub const PRIVATE_BASE: u16 = 237;
    /// src_private_limit.
    pub const PRIVATE_LIMIT: u16 = 238;
    /// src_pops_exiting_wave_id.
    pub const POPS_EXITING_WAVE_ID: u16 = 239;
    /// vccz.
    pub const VCCZ: u16 = 251;
    /// execz.
    pub const EXECZ: u16 = 252;
    /// scc.
    pub const SCC: u16 = 253;
    /// lds_direct.
    pub const LDS_DIRECT: u16 = 254;
    /// A 32-bit literal constant follows the instruction.
    pub const LITERAL: u16 = 255;

    /// A VGPR operand `v{n}`.
    pub const fn vgpr(n: u8) -> Operand {
        Operand(256 + n as u16)
    }
    /// An AGPR operand `a{n}` (accumulation register, gfx908+).
    pub const fn agpr(n: u8) -> Operand {
        Operand(512 + n as u16)
    }
    /// A scalar operand from its code.
    pub const fn code(c: u16) -> Operand {
        Operand(c)
    }
    /// Raw code.
    pub const fn raw(self) -> u16 {
        self.0
    }
    /// Slot absent.
    pub const fn is_none(self) -> bool {
        self.0 == Self::NONE.0
    }
    /// A VGPR.
    pub const fn is_vgpr(self) -> bool {
        self.0 >= 256 && self.0 < 512
    }
    /// VGPR index, if a VGPR.
    pub const fn vgpr_index(self) -> Option<u8> {
        if self.is_vgpr() {
            Some((self.0 - 256) as u8)
        } else {
            None
        }
    }
    /// An AGPR.
    pub const fn is_agpr(self) -> bool {
        self.0 >= 512 && self.0 < 768
    }
    /// AGPR index, if an AGPR.
    pub const fn agpr_index(self) -> Option<u8> {
        if self.is_agpr() {
            Some((self.0 - 512) as u8)
        } else {
            None
        }
    }
    /// A vector register of either file (VGPR or AGPR).
    pub const fn is_vector(self) -> bool {
        self.is_vgpr() || self.is_agpr()
    }
    /// The AGPR with this VGPR's number (for fields whose ACC bit selects the AGPR file);
    /// other operands unchanged.
    pub const fn to_agpr(self) -> Operand {
        if self.is_vgpr() {
            Operand(self.0 + 256)
        } else {
            self
        }
    }
    /// An SGPR s0..s101.
    pub const fn is_sgpr(self) -> bool {
        self.0 <= 101
    }
    /// Index in the scalar register file (s0..s101, then flat_scratch, xnack_mask, vcc,
    /// ttmp0..15, m0, exec as the codes above): every scalar register code below 128.
    pub const fn sgpr_index(self) -> Option<u8> {
        if self.0 < 128 {
            Some(self.0 as u8)
        } else {
            None
        }
    }
    /// A trap temporary ttmp0..ttmp15.
    pub const fn is_ttmp(self) -> bool {
        self.0 >= 108 && self.0 <= 123
    }
    /// The literal-constant marker (the value is [`crate::Inst::literal`]).
    pub const fn is_literal(self) -> bool {
        self.0 == Self::LITERAL
    }
    /// An inline integer constant (0..64, -1..-16): its value.
    pub const fn inline_int(self) -> Option<i32> {
        match self.0 {
            128..=192 => Some(self.0 as i32 - 128),
            193..=208 => Some(192 - self.0 as i32),
            _ => None,
        }
    }
    /// An inline float constant (codes 240..=248).
    pub const fn is_inline_float(self) -> bool {
        self.0 >= 240 && self.0 <= 248
    }
    /// Any inline constant (integer or float).
    pub const fn is_inline(self) -> bool {
        self.inline_int().is_some() || self.is_inline_float()
    }
    /// Bits of an inline constant as an operand of `bits` width (16, 32 or 64). Integers are
    /// sign-extended to the width; floats use that width's format (1/(2*pi) per width, as the
    /// hardware defines). `None` for non-constants.
    pub const fn inline_bits(self, bits: u32) -> Option<u64> {
        if let Some(i) = self.inline_int() {
            let v = i as i64 as u64;
            return Some(match bits {
                16 => v & 0xFFFF,
                32 => v & 0xFFFF_FFFF,
                _ => v,
            });
        }
        let idx = if self.is_inline_float() {
            self.0 - 240
        } else {
            return None;
        };
        let (h, s, d): (u16, u32, u64) = match idx {
            0 => (0x3800, 0x3F00_0000, 0x3FE0_0000_0000_0000),
            1 => (0xB800, 0xBF00_0000, 0xBFE0_0000_0000_0000),
            2 => (0x3C00, 0x3F80_0000, 0x3FF0_0000_0000_0000),
            3 => (0xBC00, 0xBF80_0000, 0xBFF0_0000_0000_0000),
            4 => (0x4000, 0x4000_0000, 0x4000_0000_0000_0000),
            5 => (0xC000, 0xC000_0000, 0xC000_0000_0000_0000),
            6 => (0x4400, 0x4080_0000, 0x4010_0000_0000_0000),
            7 => (0xC400, 0xC080_0000, 0xC010_0000_0000_0000),
            _ => (0x3118, 0x3E22_F983, 0x3FC4_5F30_6DC9_C882),
        };
        Some(match bits {
            16 => h as u64,
            32 => s as u64,
            _ => d,
        })
    }
}
