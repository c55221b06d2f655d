//! Dynamic relocations of a loaded code object and their application to the loaded image.

use crate::error::{Error, Result};

pub const R_AMDGPU_NONE: u32 = 0;
pub const R_AMDGPU_ABS32_LO: u32 = 1;
pub const R_AMDGPU_ABS32_HI: u32 = 2;
pub const R_AMDGPU_ABS64: u32 = 3;
pub const R_AMDGPU_ABS32: u32 = 6;
pub const R_AMDGPU_RELATIVE64: u32 = 13;

/// The relocation types a loader applies (the dynamic ones of the LLVM AMDGPU user guide).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelocKind {
    /// word32 = (S + A) & 0xffffffff
    Abs32Lo,
    /// word32 = (S + A) >> 32
    Abs32Hi,
    /// word64 = S + A
    Abs64,
    /// word32 = S + A (must fit in 32 bits)
    Abs32,
    /// word64 = B + A
    Relative64,
}

impl RelocKind {
    /// `None` for R_AMDGPU_NONE; an error for anything a loader cannot apply.
    pub fn from_type(rtype: u32, offset: u64) -> Result<Option<RelocKind>> {
        Ok(Some(match rtype {
            R_AMDGPU_NONE => return Ok(None),
            R_AMDGPU_ABS32_LO => RelocKind::Abs32Lo,
            R_AMDGPU_ABS32_HI => RelocKind::Abs32Hi,
            R_AMDGPU_ABS64 => RelocKind::Abs64,
            R_AMDGPU_ABS32 => RelocKind::Abs32,
            R_AMDGPU_RELATIVE64 => RelocKind::Relative64,
            _ => return Err(Error::UnsupportedRelocation { rtype, offset }),
        }))
    }
    /// Bytes written.
    pub fn width(self) -> u64 {
        match self {
            RelocKind::Abs64 | RelocKind::Relative64 => 8,
            _ => 4,
        }
    }
}

/// The symbol a relocation refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RelocSymbol {
    /// Symbol index 0 (RELATIVE64).
    None,
    /// Defined in this code object at `vaddr`.
    Defined {
        index: u32,
        name: String,
        vaddr: u64,
    },
    /// Undefined here: the loader resolves it by name.
    Undefined { index: u32, name: String },
}

/// One relocation to apply after the segments are copied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relocation {
    /// Virtual address (relative to the load base) of the word to patch.
    pub offset: u64,
    pub kind: RelocKind,
    pub symbol: RelocSymbol,
    pub addend: i64,
}

/// Applies `relocs` to `image`, which holds the code object's virtual range [0, image.len())
/// and is seen by the GPU at address `base`. `resolve` gives the address of an undefined symbol.
pub fn apply_relocations(
    relocs: &[Relocation],
    image: &mut [u8],
    base: u64,
    resolve: &mut dyn FnMut(&str) -> Option<u64>,
) -> Result<()> {
    for r in relocs {
        let s = match &r.symbol {
            RelocSymbol::None => 0,
            RelocSymbol::Defined { vaddr, .. } => base.wrapping_add(*vaddr),
            RelocSymbol::Undefined { name, .. } => {
                resolve(name).ok_or_else(|| Error::UndefinedSymbol(name.clone()))?
            }
        };
        let a = r.addend as u64;
        let value = match r.kind {
            RelocKind::Relative64 => base.wrapping_add(a),
            _ => s.wrapping_add(a),
        };
        let start = usize::try_from(r.offset).ok();
        let end = start.and_then(|s| s.checked_add(r.kind.width() as usize));
        let slot = match (start, end) {
            (Some(st), Some(en)) if en <= image.len() => &mut image[st..en],
            _ => {
                return Err(Error::BadRelocation {
                    offset: r.offset,
                    reason: format!("outside the image ({:#x} B)", image.len()),
                })
            }
        };
        match r.kind {
            RelocKind::Abs64 | RelocKind::Relative64 => slot.copy_from_slice(&value.to_le_bytes()),
            RelocKind::Abs32Lo => slot.copy_from_slice(&(value as u32).to_le_bytes()),
            RelocKind::Abs32Hi => slot.copy_from_slice(&((value >> 32) as u32).to_le_bytes()),
            RelocKind::Abs32 => {
                let v = u32::try_from(value).map_err(|_| Error::BadRelocation {
                    offset: r.offset,
                    reason: format!("R_AMDGPU_ABS32 value {value:#x} does not fit in 32 bits"),
                })?;
                slot.copy_from_slice(&v.to_le_bytes());
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn applies_each_kind() {
        let rel = |offset, kind, symbol, addend| Relocation {
            offset,
            kind,
            symbol,
            addend,
        };
        let relocs = vec![
            rel(0, RelocKind::Relative64, RelocSymbol::None, 0x10),
            rel(
                8,
                RelocKind::Abs64,
                RelocSymbol::Defined {
                    index: 1,
                    name: "v".into(),
                    vaddr: 0x20,
                },
                4,
            ),
            rel(
                16,
                RelocKind::Abs32Lo,
                RelocSymbol::Undefined {
                    index: 2,
                    name: "ext".into(),
                },
                0,
            ),
            rel(
                20,
                RelocKind::Abs32Hi,
                RelocSymbol::Undefined {
                    index: 2,
                    name: "ext".into(),
                },
                0,
            ),
            rel(
                24,
                RelocKind::Abs32,
                RelocSymbol::Defined {
                    index: 1,
                    name: "v".into(),
                    vaddr: 0,
                },
                0x1234,
            ),
        ];
        let mut image = vec![0u8; 32];
        let base = 0x7f00_0000_1000u64;
        let ext = 0x1122_3344_5566_7788u64;
        // A 64-bit address in an ABS32 word does not fit.
        let e = apply_relocations(&relocs, &mut image, base, &mut |n| {
            (n == "ext").then_some(ext)
        })
        .unwrap_err();
        assert!(matches!(e, Error::BadRelocation { offset: 24, .. }), "{e}");
        let mut image = vec![0u8; 32];
        let relocs = &relocs[..4];
        apply_relocations(relocs, &mut image, base, &mut |n| {
            (n == "ext").then_some(ext)
        })
        .unwrap();
        let word = |o: usize| u64::from_le_bytes(image[o..o + 8].try_into().unwrap());
        assert_eq!(word(0), base + 0x10);
        assert_eq!(word(8), base + 0x24);
        assert_eq!(word(16), ext); // lo and hi halves together
        let mut small = vec![0u8; 32];
        apply_relocations(
            &[rel(24, RelocKind::Abs32, RelocSymbol::None, 0x1234)],
            &mut small,
            0,
            &mut |_| None,
        )
        .unwrap();
        assert_eq!(
            u32::from_le_bytes(small[24..28].try_into().unwrap()),
            0x1234
        );
    }

    #[test]
    fn reports_unresolved_and_out_of_range() {
        let r = Relocation {
            offset: 0,
            kind: RelocKind::Abs64,
            symbol: RelocSymbol::Undefined {
                index: 1,
                name: "x".into(),
            },
            addend: 0,
        };
        let mut img = vec![0u8; 8];
        assert_eq!(
            apply_relocations(&[r], &mut img, 0, &mut |_| None),
            Err(Error::UndefinedSymbol("x".into()))
        );
        let r = Relocation {
            offset: 4,
            kind: RelocKind::Abs64,
            symbol: RelocSymbol::None,
            addend: 0,
        };
        assert!(matches!(
            apply_relocations(&[r], &mut img, 0, &mut |_| None),
            Err(Error::BadRelocation { .. })
        ));
        assert_eq!(
            RelocKind::from_type(4, 8),
            Err(Error::UnsupportedRelocation {
                rtype: 4,
                offset: 8
            })
        );
    }
}
