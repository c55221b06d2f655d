//! AMDGPU code objects (ELF64, code object v2 to v5): parsing and validation, no runtime state.
//!
//! [`parse`] turns a code object's bytes into a [`CodeObject`]: its target ([`TargetId`]), its
//! metadata (one model for v2 YAML and v3+ MessagePack) and a [`LoadPlan`] (segments,
//! relocations, kernels with their decoded [`KernelDescriptor`], variables, undefined symbols)
//! that the runtime's loader executes without re-parsing. Every defect is an [`Error`].

pub mod codeobject;
pub mod decode;
pub mod descriptor;
pub mod elf;
pub mod error;
pub mod metadata;
pub mod notes;
pub mod reloc;
pub mod symbols;
pub mod target;

pub use codeobject::{parse, CodeObject, KernelSymbol, LoadPlan, VariableSymbol};
pub use descriptor::{FloatDenormMode, FloatRoundMode, KernelDescriptor};
pub use elf::{Segment, SegmentFlags};
pub use error::{Error, Result};
pub use metadata::{KernelArg, KernelMetadata, Metadata, PrintfFormat, ValueKind};
pub use reloc::{apply_relocations, RelocKind, RelocSymbol, Relocation};
pub use symbols::Binding;
pub use target::{Feature, Processor, TargetId};
