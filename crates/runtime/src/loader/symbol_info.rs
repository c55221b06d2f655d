//! HSA_EXECUTABLE_SYMBOL_INFO_* and HSA_CODE_SYMBOL_INFO_* values.

use super::code_object::{CodeSymbolFacts, CodeSymbolRef};
use super::objects::{Symbol, SymbolKind};
use crate::topology::InfoValue;
use crate::{Error, Result};
use softhsa_abi::*;

fn invalid(attribute: u32, why: &str) -> Error {
    Error::with_message(
        HSA_STATUS_ERROR_INVALID_ARGUMENT,
        format!("symbol attribute {attribute}: {why}"),
    )
}

/// Names are reported without a terminating NUL (the caller sized the buffer from NAME_LENGTH).
fn name_bytes(name: &str) -> InfoValue {
    InfoValue::Bytes(name.as_bytes().to_vec())
}

/// One attribute of an executable symbol.
pub fn symbol_info(s: &Symbol, attribute: u32) -> Result<InfoValue> {
    let common = match attribute {
        HSA_EXECUTABLE_SYMBOL_INFO_TYPE => Some(InfoValue::U32(match s.kind {
            SymbolKind::Kernel(_) => HSA_SYMBOL_KIND_KERNEL,
            SymbolKind::Variable(_) => HSA_SYMBOL_KIND_VARIABLE,
        })),
        HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH => Some(InfoValue::U32(s.name.len() as u32)),
        HSA_EXECUTABLE_SYMBOL_INFO_NAME => Some(name_bytes(&s.name)),
        HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME_LENGTH => Some(InfoValue::U32(0)),
        HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME => Some(InfoValue::Bytes(Vec::new())),
        HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE => Some(InfoValue::U32(s.linkage)),
        HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION => Some(InfoValue::Bool(true)),
        HSA_EXECUTABLE_SYMBOL_INFO_AGENT => match s.agent {
            Some((_, handle)) => Some(InfoValue::U64(handle)),
            None => return Err(invalid(attribute, "a program variable has no agent")),
        },
        _ => None,
    };
    if let Some(v) = common {
        return Ok(v);
    }
    match &s.kind {
        SymbolKind::Kernel(k) => Ok(match attribute {
            HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT => InfoValue::U64(k.kernel_object),
            HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE => {
                InfoValue::U32(k.kernarg_size())
            }
            HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT => {
                InfoValue::U32(k.kernarg_align())
            }
            HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE => {
                InfoValue::U32(k.descriptor.group_segment_fixed_size)
            }
            HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE => {
                InfoValue::U32(k.descriptor.private_segment_fixed_size)
            }
            HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK => {
                InfoValue::Bool(k.descriptor.uses_dynamic_stack)
            }
            HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_CALL_CONVENTION => InfoValue::U32(0),
            _ => return Err(invalid(attribute, "not an attribute of a kernel")),
        }),
        SymbolKind::Variable(v) => Ok(match attribute {
            HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS => InfoValue::U64(v.address),
            HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION => InfoValue::U32(v.allocation),
            HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT => InfoValue::U32(if v.readonly {
                HSA_VARIABLE_SEGMENT_READONLY
            } else {
                HSA_VARIABLE_SEGMENT_GLOBAL
            }),
            HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALIGNMENT => InfoValue::U32(v.align),
            HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE => {
                InfoValue::U32(u32::try_from(v.size).unwrap_or(u32::MAX))
            }
            HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST => InfoValue::Bool(v.readonly),
            _ => return Err(invalid(attribute, "not an attribute of a variable")),
        }),
    }
}

/// One attribute of a deprecated code object's symbol.
pub fn code_symbol_info(s: &CodeSymbolRef, attribute: u32) -> Result<InfoValue> {
    let facts = s.facts();
    let common = match attribute {
        HSA_CODE_SYMBOL_INFO_TYPE => Some(InfoValue::U32(match facts {
            CodeSymbolFacts::Kernel(_) => HSA_SYMBOL_KIND_KERNEL,
            CodeSymbolFacts::Variable(_) => HSA_SYMBOL_KIND_VARIABLE,
        })),
        HSA_CODE_SYMBOL_INFO_NAME_LENGTH => Some(InfoValue::U32(s.name().len() as u32)),
        HSA_CODE_SYMBOL_INFO_NAME => Some(name_bytes(s.name())),
        HSA_CODE_SYMBOL_INFO_MODULE_NAME_LENGTH => Some(InfoValue::U32(0)),
        HSA_CODE_SYMBOL_INFO_MODULE_NAME => Some(InfoValue::Bytes(Vec::new())),
        HSA_CODE_SYMBOL_INFO_LINKAGE => Some(InfoValue::U32(HSA_SYMBOL_LINKAGE_PROGRAM)),
        HSA_CODE_SYMBOL_INFO_IS_DEFINITION => Some(InfoValue::Bool(true)),
        _ => None,
    };
    if let Some(v) = common {
        return Ok(v);
    }
    match facts {
        CodeSymbolFacts::Kernel(k) => {
            let d = &k.descriptor;
            let md = k.metadata.as_ref();
            Ok(match attribute {
                HSA_CODE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE => {
                    InfoValue::U32(md.map_or(d.kernarg_size, |m| m.kernarg_segment_size))
                }
                HSA_CODE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT => {
                    InfoValue::U32(md.map_or(16, |m| m.kernarg_segment_align).max(16))
                }
                HSA_CODE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE => {
                    InfoValue::U32(d.group_segment_fixed_size)
                }
                HSA_CODE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE => {
                    InfoValue::U32(d.private_segment_fixed_size)
                }
                HSA_CODE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK => {
                    InfoValue::Bool(d.uses_dynamic_stack)
                }
                HSA_CODE_SYMBOL_INFO_KERNEL_CALL_CONVENTION => InfoValue::U32(0),
                _ => return Err(invalid(attribute, "not an attribute of a kernel")),
            })
        }
        CodeSymbolFacts::Variable(v) => Ok(match attribute {
            HSA_CODE_SYMBOL_INFO_VARIABLE_ALLOCATION => {
                InfoValue::U32(HSA_VARIABLE_ALLOCATION_AGENT)
            }
            HSA_CODE_SYMBOL_INFO_VARIABLE_SEGMENT => InfoValue::U32(if v.readonly {
                HSA_VARIABLE_SEGMENT_READONLY
            } else {
                HSA_VARIABLE_SEGMENT_GLOBAL
            }),
            HSA_CODE_SYMBOL_INFO_VARIABLE_ALIGNMENT => {
                InfoValue::U32(1 << v.vaddr.trailing_zeros().min(6))
            }
            HSA_CODE_SYMBOL_INFO_VARIABLE_SIZE => {
                InfoValue::U32(u32::try_from(v.size).unwrap_or(u32::MAX))
            }
            HSA_CODE_SYMBOL_INFO_VARIABLE_IS_CONST => InfoValue::Bool(v.readonly),
            _ => return Err(invalid(attribute, "not an attribute of a variable")),
        }),
    }
}
