//! `parse`: a code object's bytes → everything the runtime needs to load it (a [`LoadPlan`])
//! plus its target and metadata, validated once so the loader never re-parses.

use crate::decode::{AMD_KERNEL_CODE_SIZE, KD_SIZE};
use crate::descriptor::KernelDescriptor;
use crate::elf::{self, Segment};
use crate::error::{Error, Result};
use crate::metadata::{self, KernelMetadata, Metadata};
use crate::notes::{self, parse_notes};
use crate::reloc::{self, Relocation};
use crate::symbols::{self, Binding, RawSymbol, STT_AMDGPU_HSA_KERNEL};
use crate::target::TargetId;
use object::elf as E;

/// A kernel: where its descriptor lies, what it says, and its metadata.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelSymbol {
    /// Kernel name (the `.kd` suffix removed).
    pub name: String,
    /// ELF symbol of the descriptor: `name.kd` (v3+) or `name` (v2).
    pub symbol: String,
    /// Address of the descriptor relative to the load base: load base + this = kernel object.
    pub descriptor_vaddr: u64,
    /// 64 (kernel descriptor) or 256 (`amd_kernel_code_t`).
    pub descriptor_size: u64,
    pub descriptor: KernelDescriptor,
    /// First instruction, relative to the load base.
    pub entry_vaddr: u64,
    /// Bytes of the kernel's own function (its STT_FUNC size; v2: symbol size - 256), 0 if unknown.
    pub code_size: u64,
    pub binding: Binding,
    pub metadata: Option<KernelMetadata>,
}

/// A global variable defined by the code object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariableSymbol {
    pub name: String,
    pub vaddr: u64,
    pub size: u64,
    pub binding: Binding,
    /// In a segment without write permission (`__constant`).
    pub readonly: bool,
}

/// What the runtime executes to load a code object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadPlan {
    pub segments: Vec<Segment>,
    /// Bytes to reserve: the end of the highest segment (addresses start at the load base).
    pub virtual_size: u64,
    /// Largest segment alignment (at least 4096): the load base must be a multiple of it.
    pub align: u64,
    pub relocations: Vec<Relocation>,
    pub kernels: Vec<KernelSymbol>,
    pub variables: Vec<VariableSymbol>,
    /// Names the code object references but does not define (resolved by the loader).
    pub undefined: Vec<String>,
}

impl LoadPlan {
    /// Applies the relocations to a loaded image (see [`reloc::apply_relocations`]).
    pub fn apply_relocations(
        &self,
        image: &mut [u8],
        base: u64,
        resolve: &mut dyn FnMut(&str) -> Option<u64>,
    ) -> Result<()> {
        reloc::apply_relocations(&self.relocations, image, base, resolve)
    }
    /// Copies the segments into `image` (len >= virtual_size), zero-filling the rest.
    pub fn copy_segments(&self, image: &mut [u8]) -> Result<()> {
        if (image.len() as u64) < self.virtual_size {
            return Err(Error::Malformed(format!(
                "image of {:#x} B < virtual size {:#x}",
                image.len(),
                self.virtual_size
            )));
        }
        image.fill(0);
        for s in &self.segments {
            let at = s.vaddr as usize;
            image[at..at + s.data.len()].copy_from_slice(&s.data);
        }
        Ok(())
    }
    pub fn kernel(&self, name: &str) -> Option<&KernelSymbol> {
        self.kernels
            .iter()
            .find(|k| k.name == name || k.symbol == name)
    }
}

/// A parsed, validated code object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeObject {
    /// 2, 3, 4 or 5.
    pub version: u32,
    pub e_flags: u32,
    pub target: TargetId,
    /// v2: the NT_AMD_HSA_ISA_NAME note (e.g. `amdgcn-amd-amdhsa--gfx907` for gfx906 + xnack).
    pub isa_name_note: Option<String>,
    /// v2: the NT_AMD_HSA_ISA_VERSION note (major.minor.stepping; odd steppings mean xnack).
    pub isa_version_note: Option<notes::IsaVersion>,
    pub metadata: Metadata,
    pub plan: LoadPlan,
}

/// Parses and validates a code object. Never panics; every defect is an [`Error`].
pub fn parse(data: &[u8]) -> Result<CodeObject> {
    let (hdr, version) = elf::identify(data)?;
    let e_flags = object::read::elf::FileHeader::e_flags(hdr, object::LittleEndian);
    let (segments, note_segs) = elf::load_segments(hdr, data)?;
    let target = TargetId::from_e_flags(e_flags, version)?;

    let mut md = None;
    let mut isa_name_note = None;
    let mut isa_version_note = None;
    let mut v2_version_seen = false;
    for seg in note_segs {
        for n in parse_notes(seg)? {
            match (n.name, n.ntype, version) {
                (b"AMD", notes::NT_AMD_HSA_CODE_OBJECT_VERSION, 2) => {
                    let (major, _) = notes::code_object_version(n.desc)?;
                    if major != 2 {
                        return Err(Error::BadNote(format!(
                            "code object version note says {major}, ELF says v2"
                        )));
                    }
                    v2_version_seen = true;
                }
                (b"AMD", notes::NT_AMD_HSA_ISA_NAME, 2) => {
                    let end = n.desc.iter().position(|&b| b == 0).unwrap_or(n.desc.len());
                    isa_name_note = Some(String::from_utf8_lossy(&n.desc[..end]).into_owned());
                }
                (b"AMD", notes::NT_AMD_HSA_ISA_VERSION, 2) => {
                    isa_version_note = Some(notes::isa_version(n.desc)?);
                }
                (b"AMD", notes::NT_AMD_HSA_METADATA, 2) => {
                    md = Some(metadata::yaml::parse(n.desc)?)
                }
                (b"AMDGPU", notes::NT_AMDGPU_METADATA, 3..) => {
                    md = Some(metadata::msgpack::parse(n.desc)?)
                }
                _ => {}
            }
        }
    }
    if version == 2 && !v2_version_seen {
        return Err(Error::MissingNote("NT_AMD_HSA_CODE_OBJECT_VERSION"));
    }
    let mut metadata = md.unwrap_or_default();
    if metadata.target.is_none() {
        metadata.target = isa_name_note.clone();
    }

    let sections = symbols::sections(hdr, data)?;
    let mut syms = symbols::read_symbols(&sections, data, E::SHT_SYMTAB)?;
    let dynsyms = symbols::read_symbols(&sections, data, E::SHT_DYNSYM)?;
    if syms.is_empty() {
        syms = dynsyms.clone();
    }
    let relocations = symbols::read_relocations(&sections, data, &segments)?;
    let mut undefined: Vec<String> = dynsyms
        .iter()
        .filter(|s| !s.defined && !s.name.is_empty())
        .map(|s| s.name.clone())
        .collect();
    undefined.dedup();

    let kernels = find_kernels(&syms, &segments, version, &metadata)?;
    let variables = syms
        .iter()
        .filter(|s| {
            s.defined && s.stype == E::STT_OBJECT && !s.name.ends_with(".kd") && !s.name.is_empty()
        })
        .map(|s| VariableSymbol {
            name: s.name.clone(),
            vaddr: s.value,
            size: s.size,
            binding: s.binding,
            readonly: segments
                .iter()
                .find(|g| g.contains(s.value, s.size.max(1)))
                .is_some_and(|g| !g.flags.write),
        })
        .collect();

    let virtual_size = segments.iter().map(Segment::end).max().unwrap_or(0);
    let align = segments
        .iter()
        .map(|s| s.align)
        .max()
        .unwrap_or(1)
        .max(4096);
    if !align.is_power_of_two() {
        return Err(Error::Malformed(format!(
            "segment alignment {align:#x} is not a power of two"
        )));
    }
    Ok(CodeObject {
        version,
        e_flags,
        target,
        isa_name_note,
        isa_version_note,
        metadata,
        plan: LoadPlan {
            segments,
            virtual_size,
            align,
            relocations,
            kernels,
            variables,
            undefined,
        },
    })
}

fn find_kernels(
    syms: &[RawSymbol],
    segs: &[Segment],
    version: u32,
    md: &Metadata,
) -> Result<Vec<KernelSymbol>> {
    let mut out = Vec::new();
    for s in syms.iter().filter(|s| s.defined) {
        let is_v2_kernel = version == 2 && s.stype == STT_AMDGPU_HSA_KERNEL;
        let is_kd = version >= 3 && s.stype == E::STT_OBJECT && s.name.ends_with(".kd");
        if !is_v2_kernel && !is_kd {
            continue;
        }
        let bad = |reason: String| Error::BadKernel {
            name: s.name.clone(),
            reason,
        };
        let size = if is_kd { KD_SIZE } else { AMD_KERNEL_CODE_SIZE };
        let bytes = elf::file_bytes(segs, s.value, size as u64).ok_or_else(|| {
            bad(format!(
                "descriptor at {:#x} ({size} B) is not in the file",
                s.value
            ))
        })?;
        let (descriptor, name, code_size) = if is_kd {
            let d = KernelDescriptor::from_kd_bytes(
                bytes
                    .try_into()
                    .map_err(|_| bad("short descriptor".into()))?,
            );
            let name = s.name.trim_end_matches(".kd").to_string();
            let func = syms
                .iter()
                .find(|f| f.defined && f.stype == E::STT_FUNC && f.name == name);
            (d, name, func.map_or(0, |f| f.size))
        } else {
            let b: &[u8; AMD_KERNEL_CODE_SIZE] = bytes
                .try_into()
                .map_err(|_| bad("short amd_kernel_code_t".into()))?;
            if KernelDescriptor::amd_kernel_code_version(b) != 1 {
                return Err(bad("amd_kernel_code_version_major is not 1".into()));
            }
            let (d, wave) = KernelDescriptor::from_amd_kernel_code(b);
            if wave != 64 {
                return Err(bad(format!("wavefront size {wave} (only 64 is supported)")));
            }
            (
                d,
                s.name.clone(),
                s.size.saturating_sub(AMD_KERNEL_CODE_SIZE as u64),
            )
        };
        let entry_vaddr = s
            .value
            .checked_add_signed(descriptor.entry_offset)
            .ok_or_else(|| bad("entry overflows".into()))?;
        let in_code = segs.iter().any(|g| {
            g.flags.execute && g.contains(entry_vaddr, 4) && entry_vaddr < g.vaddr + g.filesz
        });
        if !in_code {
            return Err(bad(format!(
                "entry {entry_vaddr:#x} is not in an executable segment"
            )));
        }
        if descriptor.wavefront_size32 {
            return Err(bad(
                "wave32 kernels are not supported (GFX9 is wave64)".into()
            ));
        }
        out.push(KernelSymbol {
            metadata: md.kernel_by_symbol(&s.name).cloned(),
            symbol: s.name.clone(),
            name,
            descriptor_vaddr: s.value,
            descriptor_size: size as u64,
            descriptor,
            entry_vaddr,
            code_size,
            binding: s.binding,
        });
    }
    Ok(out)
}
