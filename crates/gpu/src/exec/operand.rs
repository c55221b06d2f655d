//! Source operands, resolved once at program build time, and how a wave reads them.

use crate::wave::{Wave, EXEC_LO, VCC_LO};
use crate::{APERTURE_SIZE, PRIVATE_APERTURE_BASE, SHARED_APERTURE_BASE};
use softhsa_isa::Operand;

/// A source operand after decoding: constants are already expanded for the operand's width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Src {
    #[default]
    None,
    /// Scalar register by operand encoding (0..=127: SGPRs, VCC, M0, EXEC, TTMPs...).
    S(u8),
    /// VGPR.
    V(u8),
    /// AGPR (accumulation register, gfx908+).
    A(u8),
    /// An inline constant or literal, expanded to the operand's width.
    Imm(u64),
    Scc,
    VccZ,
    ExecZ,
    LdsDirect,
}

/// How constants expand: by width and by whether float inline constants are f16/f32/f64.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    B16,
    /// Two packed 16-bit halves (VOP3P): an inline constant fills both halves.
    Packed16,
    /// Two packed 32-bit halves (gfx90a packed FP32): an inline constant fills both halves.
    Packed32,
    B32,
    B64Int,
    B64Float,
}

/// Resolves a 9-bit GFX9 source operand code; `None` for reserved codes.
pub fn resolve_src(enc: u16, literal: u32, w: Width) -> Option<Src> {
    let wide = matches!(w, Width::B64Int | Width::B64Float);
    let hi32 = |v: u64| if wide { v } else { v >> 32 };
    let bits = match w {
        Width::B16 | Width::Packed16 => 16,
        Width::B32 | Width::Packed32 => 32,
        _ => 64,
    };
    if let Some(v) = Operand(enc).inline_bits(bits) {
        return Some(Src::Imm(match w {
            Width::Packed16 => v | v << 16,
            Width::Packed32 => v | v << 32,
            _ => v,
        }));
    }
    Some(match enc {
        0..=101 | 102..=124 | 126 | 127 => Src::S(enc as u8),
        Operand::SHARED_BASE => Src::Imm(hi32(SHARED_APERTURE_BASE)),
        Operand::SHARED_LIMIT => Src::Imm(hi32(SHARED_APERTURE_BASE + APERTURE_SIZE - 1)),
        Operand::PRIVATE_BASE => Src::Imm(hi32(PRIVATE_APERTURE_BASE)),
        Operand::PRIVATE_LIMIT => Src::Imm(hi32(PRIVATE_APERTURE_BASE + APERTURE_SIZE - 1)),
        Operand::POPS_EXITING_WAVE_ID => Src::Imm(0),
        Operand::VCCZ => Src::VccZ,
        Operand::EXECZ => Src::ExecZ,
        Operand::SCC => Src::Scc,
        Operand::LDS_DIRECT => Src::LdsDirect,
        Operand::LITERAL => Src::Imm(match w {
            // 64-bit literals: floats pad the low bits with zeros, integers the high bits.
            Width::B64Float => u64::from(literal) << 32,
            _ => u64::from(literal),
        }),
        256..=511 => Src::V((enc - 256) as u8),
        512..=767 => Src::A((enc - 512) as u8),
        _ => return None,
    })
}

impl Wave {
    /// A scalar (uniform) 32-bit read; for a VGPR source, lane 0 (never used by valid code).
    #[inline]
    pub fn read32(&self, s: Src) -> u32 {
        match s {
            Src::S(i) => self.s[usize::from(i) & 127],
            Src::Imm(v) => v as u32,
            Src::Scc => u32::from(self.scc),
            Src::VccZ => u32::from(self.vcc() == 0),
            Src::ExecZ => u32::from(self.exec() == 0),
            Src::V(r) => self.v[usize::from(r)][0],
            Src::A(r) => self.a[usize::from(r)][0],
            Src::None | Src::LdsDirect => 0,
        }
    }

    /// A scalar 64-bit read (register pairs).
    #[inline]
    pub fn read64(&self, s: Src) -> u64 {
        match s {
            Src::S(i) => self.s64(usize::from(i)),
            Src::Imm(v) => v,
            Src::V(r) => {
                let r = usize::from(r);
                u64::from(self.v[r][0]) | u64::from(self.v[(r + 1) & 255][0]) << 32
            }
            Src::A(r) => {
                let r = usize::from(r);
                u64::from(self.a[r][0]) | u64::from(self.a[(r + 1) & 255][0]) << 32
            }
            other => u64::from(self.read32(other)),
        }
    }

    /// Writes a 32-bit scalar destination (by encoding).
    #[inline]
    pub fn write_s32(&mut self, d: u8, v: u32) {
        self.s[usize::from(d) & 127] = v;
    }

    /// Writes a 64-bit scalar destination pair.
    #[inline]
    pub fn write_s64(&mut self, d: u8, v: u64) {
        self.set_s64(usize::from(d), v);
    }

    /// Whether scalar destination `d` touches EXEC or VCC (for the trace and EXEC caching).
    pub fn is_exec_or_vcc(d: u8) -> bool {
        let d = usize::from(d);
        (EXEC_LO..EXEC_LO + 2).contains(&d) || (VCC_LO..VCC_LO + 2).contains(&d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_expand_by_width() {
        assert_eq!(resolve_src(129, 0, Width::B32), Some(Src::Imm(1)));
        assert_eq!(resolve_src(193, 0, Width::B32), Some(Src::Imm(0xffff_ffff)));
        assert_eq!(
            resolve_src(208, 0, Width::B64Int),
            Some(Src::Imm((-16i64) as u64))
        );
        assert_eq!(
            resolve_src(242, 0, Width::B32),
            Some(Src::Imm(u64::from(1.0f32.to_bits())))
        );
        assert_eq!(
            resolve_src(242, 0, Width::B64Float),
            Some(Src::Imm(1.0f64.to_bits()))
        );
        assert_eq!(
            resolve_src(255, 0x4000_0000, Width::B64Float),
            Some(Src::Imm(2.0f64.to_bits()))
        );
        assert_eq!(
            resolve_src(255, 0x8000_0000, Width::B64Int),
            Some(Src::Imm(0x8000_0000))
        );
        assert_eq!(resolve_src(257, 0, Width::B32), Some(Src::V(1)));
        assert_eq!(resolve_src(512 + 7, 0, Width::B32), Some(Src::A(7)));
        assert_eq!(
            resolve_src(240, 0, Width::Packed16),
            Some(Src::Imm(0x3800_3800))
        );
        assert_eq!(
            resolve_src(193, 0, Width::Packed16),
            Some(Src::Imm(0xffff_ffff))
        );
        assert_eq!(
            resolve_src(235, 0, Width::B32),
            Some(Src::Imm(SHARED_APERTURE_BASE >> 32))
        );
    }
}
