//! ELF note records (PT_NOTE contents) and the AMD/AMDGPU note types.

use crate::error::{Error, Result};

/// v2 notes, owner "AMD" (amd_hsa_elf.h).
pub const NT_AMD_HSA_CODE_OBJECT_VERSION: u32 = 1;
pub const NT_AMD_HSA_ISA_VERSION: u32 = 3;
pub const NT_AMD_HSA_PRODUCER: u32 = 4;
pub const NT_AMD_HSA_METADATA: u32 = 10;
pub const NT_AMD_HSA_ISA_NAME: u32 = 11;
/// v3+ note, owner "AMDGPU".
pub const NT_AMDGPU_METADATA: u32 = 32;

/// One note record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note<'a> {
    /// Owner name without its NUL terminator.
    pub name: &'a [u8],
    pub ntype: u32,
    pub desc: &'a [u8],
}

fn u32_at(b: &[u8], off: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        b.get(off..off.checked_add(4)?)?.try_into().ok()?,
    ))
}

fn pad4(n: usize) -> Option<usize> {
    n.checked_add(3).map(|v| v & !3)
}

/// Splits a note segment into records (4-byte aligned name and descriptor, as AMDGPU emits).
pub fn parse_notes(data: &[u8]) -> Result<Vec<Note<'_>>> {
    let mut out = Vec::new();
    let mut off = 0usize;
    while off < data.len() {
        let hdr = |o| {
            u32_at(data, off + o)
                .ok_or_else(|| Error::BadNote(format!("truncated header at {off:#x}")))
        };
        let (namesz, descsz, ntype) = (hdr(0)? as usize, hdr(4)? as usize, hdr(8)?);
        let name_start = off + 12;
        let desc_start = pad4(
            name_start
                .checked_add(namesz)
                .ok_or_else(|| Error::BadNote("name size overflows".into()))?,
        )
        .ok_or_else(|| Error::BadNote("name size overflows".into()))?;
        let desc_end = desc_start
            .checked_add(descsz)
            .ok_or_else(|| Error::BadNote("descriptor size overflows".into()))?;
        if desc_end > data.len() || desc_start > data.len() {
            return Err(Error::BadNote(format!(
                "record at {off:#x} (name {namesz} B, desc {descsz} B) runs past the note segment ({:#x} B)",
                data.len()
            )));
        }
        let mut name = &data[name_start..name_start + namesz];
        if let Some((&0, head)) = name.split_last() {
            name = head;
        }
        out.push(Note {
            name,
            ntype,
            desc: &data[desc_start..desc_end],
        });
        off = pad4(desc_end).ok_or_else(|| Error::BadNote("size overflows".into()))?;
    }
    Ok(out)
}

/// The v2 code object version note: (major, minor).
pub fn code_object_version(desc: &[u8]) -> Result<(u32, u32)> {
    match (u32_at(desc, 0), u32_at(desc, 4)) {
        (Some(a), Some(b)) => Ok((a, b)),
        _ => Err(Error::BadNote(
            "NT_AMD_HSA_CODE_OBJECT_VERSION shorter than 8 bytes".into(),
        )),
    }
}

/// The v2 ISA version note: vendor, architecture and (major, minor, stepping).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IsaVersion {
    pub vendor: String,
    pub arch: String,
    pub major: u32,
    pub minor: u32,
    pub stepping: u32,
}

pub fn isa_version(desc: &[u8]) -> Result<IsaVersion> {
    let err = || Error::BadNote("NT_AMD_HSA_ISA_VERSION malformed".into());
    let vsz = u16::from_le_bytes(
        desc.get(0..2)
            .ok_or_else(err)?
            .try_into()
            .map_err(|_| err())?,
    ) as usize;
    let asz = u16::from_le_bytes(
        desc.get(2..4)
            .ok_or_else(err)?
            .try_into()
            .map_err(|_| err())?,
    ) as usize;
    let nums = |o: usize| u32_at(desc, o).ok_or_else(err);
    let (major, minor, stepping) = (nums(4)?, nums(8)?, nums(12)?);
    let vendor = desc.get(16..16 + vsz).ok_or_else(err)?;
    let arch = desc.get(16 + vsz..16 + vsz + asz).ok_or_else(err)?;
    let text =
        |b: &[u8]| String::from_utf8_lossy(b.split(|&c| c == 0).next().unwrap_or(&[])).into_owned();
    Ok(IsaVersion {
        vendor: text(vendor),
        arch: text(arch),
        major,
        minor,
        stepping,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(name: &[u8], ntype: u32, desc: &[u8]) -> Vec<u8> {
        let mut v = Vec::new();
        v.extend_from_slice(&(name.len() as u32).to_le_bytes());
        v.extend_from_slice(&(desc.len() as u32).to_le_bytes());
        v.extend_from_slice(&ntype.to_le_bytes());
        v.extend_from_slice(name);
        v.resize((v.len() + 3) & !3, 0);
        v.extend_from_slice(desc);
        v.resize((v.len() + 3) & !3, 0);
        v
    }

    #[test]
    fn splits_records_and_strips_nul() {
        let mut seg = note(b"AMD\0", 1, &[2, 0, 0, 0, 1, 0, 0, 0]);
        seg.extend(note(b"AMDGPU\0", 32, &[0x80, 1, 2]));
        let n = parse_notes(&seg).unwrap();
        assert_eq!(n.len(), 2);
        assert_eq!((n[0].name, n[0].ntype), (&b"AMD"[..], 1));
        assert_eq!(code_object_version(n[0].desc).unwrap(), (2, 1));
        assert_eq!((n[1].name, n[1].desc), (&b"AMDGPU"[..], &[0x80, 1, 2][..]));
    }

    #[test]
    fn rejects_oversized_records() {
        let mut seg = note(b"AMD\0", 1, &[0; 8]);
        seg[4] = 200; // descsz past the end
        assert!(matches!(parse_notes(&seg), Err(Error::BadNote(_))));
        assert!(matches!(parse_notes(&seg[..7]), Err(Error::BadNote(_))));
    }
}
