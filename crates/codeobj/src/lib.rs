//! AMDGPU code objects (ELF64, code object v2 to v5): parsing and validation, no runtime state.
//!
//! [`parse`] turns a code object's bytes into a [`CodeObject`]: its target ([`TargetId`]), its
//! metadata (one model for v2 YAML and v3+ MessagePack) and a [`LoadPlan`] (segments,
//! relocations, kernels with their decoded [`KernelDescriptor`], variables, undefined symbols)
//! that the runtime's loader executes without re-parsing. Every defect is an [`Error`].
//!
//! Decisions:
//! - The target comes from e_flags for every version (v2's ISA notes are kept for reference:
//!   they spell gfx906 + xnack as "gfx907"). v2/v3 have one bit per feature (set = on).
//! - v2 argument offsets are computed (each at its `Align`); v3+ give offsets but no alignment,
//!   so [`KernelArg::align`] is derived from size and offset there.
//! - Missing metadata is not an error (hand-written code objects may have none); malformed
//!   metadata is.
//! - Variables are every defined STT_OBJECT except `.kd` descriptors; the loader exposes the
//!   non-local ones as HSA symbols.
//! - Limits against forged files: segments up to 4 GiB each, addresses below 16 GiB.

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
