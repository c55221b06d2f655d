//! What can be wrong with a code object. Every parse failure is one of these; nothing panics.

use thiserror::Error;

/// A code object that cannot be loaded, and why.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Error {
    #[error("truncated: {what} needs bytes {start:#x}..{end:#x}, file has {len:#x}")]
    Truncated {
        what: &'static str,
        start: u64,
        end: u64,
        len: u64,
    },
    #[error("not an ELF file (bad magic)")]
    NotElf,
    #[error("not ELF64 little-endian (class {class}, data {data})")]
    WrongClass { class: u8, data: u8 },
    #[error("wrong machine {0} (expected EM_AMDGPU = 224)")]
    WrongMachine(u16),
    #[error("wrong OS ABI {0} (expected ELFOSABI_AMDGPU_HSA = 64)")]
    WrongOsAbi(u8),
    #[error("unsupported ABI version {0} (code object v2..v5 have 0..3)")]
    UnsupportedAbiVersion(u8),
    #[error("wrong ELF type {0} (expected ET_DYN = 3)")]
    WrongType(u16),
    #[error("malformed ELF: {0}")]
    Malformed(String),
    #[error("unknown processor in e_flags: mach {0:#x}")]
    UnknownProcessor(u32),
    #[error("invalid target ID {0:?}: {1}")]
    BadTargetId(String, &'static str),
    #[error("segment {index}: {reason}")]
    BadSegment { index: usize, reason: String },
    #[error("segments {0} and {1} overlap")]
    OverlappingSegments(usize, usize),
    #[error("no PT_LOAD segment")]
    NoLoadSegment,
    #[error("malformed note: {0}")]
    BadNote(String),
    #[error("missing note: {0}")]
    MissingNote(&'static str),
    #[error("malformed metadata: {0}")]
    BadMetadata(String),
    #[error("unsupported relocation type {rtype} at {offset:#x}")]
    UnsupportedRelocation { rtype: u32, offset: u64 },
    #[error("relocation at {offset:#x}: {reason}")]
    BadRelocation { offset: u64, reason: String },
    #[error("undefined symbol {0:?}")]
    UndefinedSymbol(String),
    #[error("kernel {name:?}: {reason}")]
    BadKernel { name: String, reason: String },
}

pub type Result<T> = std::result::Result<T, Error>;

impl From<object::read::Error> for Error {
    fn from(e: object::read::Error) -> Self {
        Error::Malformed(e.to_string())
    }
}
