//! ELF identification of AMDGPU code objects and their loadable segments.

use crate::error::{Error, Result};
use object::elf;
use object::read::elf::{FileHeader, ProgramHeader};
use object::LittleEndian as LE;

pub const ELFOSABI_AMDGPU_HSA: u8 = 64;
/// Refuse segments larger than this: a code object is never near it, a forged one may claim it.
pub const MAX_SEGMENT_SIZE: u64 = 1 << 32;

pub type Header = elf::FileHeader64<LE>;

/// Checks the identification and returns the parsed header and the code object version
/// (2..=5, from EI_ABIVERSION; v2 is confirmed from its notes by the caller).
pub fn identify(data: &[u8]) -> Result<(&Header, u32)> {
    if data.len() < 4 || &data[..4] != b"\x7fELF" {
        return Err(Error::NotElf);
    }
    if data.len() < 64 {
        return Err(Error::Truncated {
            what: "ELF header",
            start: 0,
            end: 64,
            len: data.len() as u64,
        });
    }
    let (class, dataenc, osabi, abiver) = (data[4], data[5], data[7], data[8]);
    if class != elf::ELFCLASS64 || dataenc != elf::ELFDATA2LSB {
        return Err(Error::WrongClass {
            class,
            data: dataenc,
        });
    }
    let hdr = Header::parse(data)?;
    let machine = hdr.e_machine.get(LE);
    if machine != elf::EM_AMDGPU {
        return Err(Error::WrongMachine(machine));
    }
    if osabi != ELFOSABI_AMDGPU_HSA {
        return Err(Error::WrongOsAbi(osabi));
    }
    let version = match abiver {
        0 => 2,
        1 => 3,
        2 => 4,
        3 => 5,
        v => return Err(Error::UnsupportedAbiVersion(v)),
    };
    let etype = hdr.e_type.get(LE);
    if etype != elf::ET_DYN {
        return Err(Error::WrongType(etype));
    }
    Ok((hdr, version))
}

/// Segment permissions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SegmentFlags {
    pub read: bool,
    pub write: bool,
    pub execute: bool,
}

/// One PT_LOAD segment, with its file bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Address relative to the load base.
    pub vaddr: u64,
    pub memsz: u64,
    pub filesz: u64,
    /// Offset of its bytes in the file.
    pub offset: u64,
    pub align: u64,
    pub flags: SegmentFlags,
    /// `filesz` bytes; the rest up to `memsz` is zero.
    pub data: Vec<u8>,
}

impl Segment {
    pub fn end(&self) -> u64 {
        self.vaddr + self.memsz
    }
    pub fn contains(&self, vaddr: u64, len: u64) -> bool {
        vaddr >= self.vaddr && vaddr.checked_add(len).is_some_and(|e| e <= self.end())
    }
}

/// Reads and validates the PT_LOAD segments: inside the file, filesz <= memsz, not huge,
/// not overlapping in memory. Also returns the PT_NOTE contents.
pub fn load_segments<'a>(hdr: &Header, data: &'a [u8]) -> Result<(Vec<Segment>, Vec<&'a [u8]>)> {
    let phdrs = hdr
        .program_headers(LE, data)
        .map_err(|e| Error::Malformed(format!("program headers: {e}")))?;
    let mut segs = Vec::new();
    let mut notes = Vec::new();
    for (index, ph) in phdrs.iter().enumerate() {
        let (ptype, off, filesz, memsz, vaddr) = (
            ph.p_type(LE),
            ph.p_offset(LE),
            ph.p_filesz(LE),
            ph.p_memsz(LE),
            ph.p_vaddr(LE),
        );
        let bad = |reason: String| Error::BadSegment { index, reason };
        let end = off
            .checked_add(filesz)
            .ok_or_else(|| bad("file range overflows".into()))?;
        if (ptype == elf::PT_LOAD || ptype == elf::PT_NOTE) && end > data.len() as u64 {
            return Err(bad(format!(
                "file bytes {off:#x}..{end:#x} past the end of the file ({:#x})",
                data.len()
            )));
        }
        if ptype == elf::PT_NOTE {
            notes.push(&data[off as usize..end as usize]);
            continue;
        }
        if ptype != elf::PT_LOAD {
            continue;
        }
        if filesz > memsz {
            return Err(bad(format!("filesz {filesz:#x} > memsz {memsz:#x}")));
        }
        if memsz > MAX_SEGMENT_SIZE {
            return Err(bad(format!("memsz {memsz:#x} is too large")));
        }
        if vaddr
            .checked_add(memsz)
            .is_none_or(|e| e > MAX_SEGMENT_SIZE * 4)
        {
            return Err(bad(format!(
                "vaddr {vaddr:#x} + memsz {memsz:#x} is out of range"
            )));
        }
        let f = ph.p_flags(LE);
        segs.push(Segment {
            vaddr,
            memsz,
            filesz,
            offset: off,
            align: ph.p_align(LE),
            flags: SegmentFlags {
                read: f & elf::PF_R != 0,
                write: f & elf::PF_W != 0,
                execute: f & elf::PF_X != 0,
            },
            data: data[off as usize..end as usize].to_vec(),
        });
    }
    if segs.is_empty() {
        return Err(Error::NoLoadSegment);
    }
    let mut order: Vec<usize> = (0..segs.len()).collect();
    order.sort_by_key(|&i| segs[i].vaddr);
    for w in order.windows(2) {
        let (a, b) = (&segs[w[0]], &segs[w[1]]);
        if a.memsz > 0 && b.memsz > 0 && a.end() > b.vaddr {
            return Err(Error::OverlappingSegments(w[0].min(w[1]), w[0].max(w[1])));
        }
    }
    Ok((segs, notes))
}

/// The bytes at `vaddr..vaddr + len` as stored in the file (within one segment's filesz).
pub fn file_bytes(segs: &[Segment], vaddr: u64, len: u64) -> Option<&[u8]> {
    let s = segs.iter().find(|s| s.contains(vaddr, len))?;
    let start = (vaddr - s.vaddr) as usize;
    s.data.get(start..start.checked_add(len as usize)?)
}
