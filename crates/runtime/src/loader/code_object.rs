//! The deprecated `hsa_code_object_*` API (HSA 1.0): a code object deserialized from bytes,
//! its symbols, and their attributes. ROCm 5.2 keeps these for old programs; so do we.

use super::reader::Reader;
use crate::{Error, Result};
use softhsa_abi::*;
use softhsa_codeobj::{Binding, CodeObject};
use std::sync::Arc;

/// A deserialized code object.
pub struct CodeObjectEntry {
    pub bytes: Arc<[u8]>,
    pub parsed: CodeObject,
    /// Symbols in handle order: kernels first, then non-local variables.
    symbols: Vec<CodeSym>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CodeSym {
    Kernel(usize),
    Variable(usize),
}

impl CodeObjectEntry {
    /// `hsa_code_object_deserialize`.
    pub fn deserialize(bytes: &[u8]) -> Result<CodeObjectEntry> {
        let parsed = softhsa_codeobj::parse(bytes).map_err(|e| {
            Error::with_message(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, e.to_string())
        })?;
        let plan = &parsed.plan;
        let mut symbols: Vec<CodeSym> = (0..plan.kernels.len()).map(CodeSym::Kernel).collect();
        symbols.extend(
            plan.variables
                .iter()
                .enumerate()
                .filter(|(_, v)| v.binding != Binding::Local)
                .map(|(i, _)| CodeSym::Variable(i)),
        );
        Ok(CodeObjectEntry {
            bytes: bytes.into(),
            parsed,
            symbols,
        })
    }

    /// A reader over the same bytes (for `hsa_executable_load_code_object`).
    pub fn reader(&self) -> Reader {
        let address = self.bytes.as_ptr() as u64;
        Reader {
            bytes: self.bytes.clone(),
            storage: super::reader::Storage::Memory {
                address,
                size: self.bytes.len() as u64,
            },
        }
    }

    pub fn symbol_count(&self) -> usize {
        self.symbols.len()
    }

    /// Index of the symbol named `name` (kernels by their HSA name, e.g. `k.kd` or v2 `k`).
    pub fn find(&self, name: &str) -> Option<usize> {
        (0..self.symbols.len()).find(|&i| self.name(i) == name)
    }

    fn name(&self, i: usize) -> &str {
        match self.symbols[i] {
            CodeSym::Kernel(k) => &self.parsed.plan.kernels[k].symbol,
            CodeSym::Variable(v) => &self.parsed.plan.variables[v].name,
        }
    }

    /// HSA_CODE_OBJECT_INFO_*, as raw bytes (`char[64]` version, ISA handle, enums).
    pub fn info(
        &self,
        attribute: u32,
        isa_handle: impl Fn(&str) -> Result<u64>,
    ) -> Result<Vec<u8>> {
        let u32b = |v: u32| v.to_ne_bytes().to_vec();
        Ok(match attribute {
            HSA_CODE_OBJECT_INFO_VERSION => {
                let mut b = format!("{}.0", self.parsed.version).into_bytes();
                b.resize(64, 0);
                b
            }
            HSA_CODE_OBJECT_INFO_TYPE => u32b(HSA_CODE_OBJECT_TYPE_PROGRAM),
            HSA_CODE_OBJECT_INFO_ISA => isa_handle(&self.parsed.target.to_string())?
                .to_ne_bytes()
                .to_vec(),
            HSA_CODE_OBJECT_INFO_MACHINE_MODEL => u32b(HSA_MACHINE_MODEL_LARGE),
            HSA_CODE_OBJECT_INFO_PROFILE => u32b(HSA_PROFILE_FULL),
            HSA_CODE_OBJECT_INFO_DEFAULT_FLOAT_ROUNDING_MODE => {
                u32b(HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR)
            }
            _ => {
                return Err(Error::with_message(
                    HSA_STATUS_ERROR_INVALID_ARGUMENT,
                    format!("attribute {attribute}"),
                ))
            }
        })
    }
}

/// One symbol of a deprecated code object.
pub struct CodeSymbolRef {
    entry: Arc<CodeObjectEntry>,
    index: usize,
}

/// What `hsa_code_symbol_get_info` reports about one symbol.
pub enum CodeSymbolFacts<'a> {
    Kernel(&'a softhsa_codeobj::KernelSymbol),
    Variable(&'a softhsa_codeobj::VariableSymbol),
}

impl CodeSymbolRef {
    pub(crate) fn new(entry: Arc<CodeObjectEntry>, index: usize) -> Option<CodeSymbolRef> {
        (index < entry.symbols.len()).then_some(CodeSymbolRef { entry, index })
    }

    pub fn name(&self) -> &str {
        self.entry.name(self.index)
    }

    pub fn facts(&self) -> CodeSymbolFacts<'_> {
        match self.entry.symbols[self.index] {
            CodeSym::Kernel(k) => CodeSymbolFacts::Kernel(&self.entry.parsed.plan.kernels[k]),
            CodeSym::Variable(v) => CodeSymbolFacts::Variable(&self.entry.parsed.plan.variables[v]),
        }
    }
}
