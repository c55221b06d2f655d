//! Loading a code object into an executable: check the target, copy the segments into
//! memory the GPU can reach, relocate, register the range, and create kernels and symbols.

use super::executable::{AgentRef, Executable};
use super::memory::{SegmentMemory, SegmentRegistry};
use super::objects::{LoadedCodeObject, LoadedKernel, SharedProgram, Symbol, SymbolKind, Variable};
use super::reader::Reader;
use crate::{Error, Result};
use softhsa_abi::*;
use softhsa_codeobj::{Binding, CodeObject, Feature, TargetId};
use std::sync::Arc;

/// Largest virtual range one code object may span (real ones are megabytes; a forged one
/// could claim gigabytes of zero-fill).
const MAX_LOAD_SIZE: u64 = 1 << 30;

/// Whether code object `co` may run on an agent whose ISA is named `agent_isa`.
///
/// Code objects v2 and v3 cannot say "any" for xnack/sramecc: their bits are whatever the
/// compiler defaulted to (clang sets both for gfx906). The software GPU behaves the same with
/// either setting, so for them only the processor must match; v4+ features are checked as
/// written (an explicit on/off must equal the agent's).
pub(crate) fn check_target(co: &CodeObject, agent_isa: &str) -> Result<()> {
    let agent = TargetId::parse(agent_isa)
        .map_err(|e| Error::with_message(HSA_STATUS_ERROR_INVALID_ISA, e.to_string()))?;
    let mut code = co.target;
    if co.version <= 3 {
        let relax = |f: Feature| {
            if f == Feature::Unsupported {
                f
            } else {
                Feature::Any
            }
        };
        code.xnack = relax(code.xnack);
        code.sramecc = relax(code.sramecc);
    }
    code.check_runs_on(&agent)
        .map_err(|why| Error::with_message(HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS, why))
}

/// What a successful load produced (the caller indexes the kernels).
pub(crate) struct Loaded {
    pub code_object: Arc<LoadedCodeObject>,
    pub kernels: Vec<Arc<LoadedKernel>>,
}

/// Loads `reader` into `exec` for `agent` (`None`: a program code object).
pub(crate) fn load(
    exec: &Executable,
    exec_handle: u64,
    agent: Option<AgentRef<'_>>,
    cpu_agent: usize,
    reader: &Reader,
    registry: &dyn SegmentRegistry,
) -> Result<Loaded> {
    let mut inner = exec.write();
    if inner.frozen {
        return Err(Error::with_message(
            HSA_STATUS_ERROR_FROZEN_EXECUTABLE,
            "cannot load into a frozen executable",
        ));
    }
    let co = softhsa_codeobj::parse(&reader.bytes)
        .map_err(|e| Error::with_message(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, e.to_string()))?;
    if let Some(a) = agent {
        check_target(&co, a.isa_name)?;
    }
    let plan = &co.plan;
    if plan.virtual_size > MAX_LOAD_SIZE {
        return Err(Error::with_message(
            HSA_STATUS_ERROR_OUT_OF_RESOURCES,
            format!(
                "code object spans {:#x} bytes (limit {MAX_LOAD_SIZE:#x})",
                plan.virtual_size
            ),
        ));
    }
    let mut memory = SegmentMemory::new(plan.virtual_size, plan.align)?;
    let base = memory.base();
    plan.copy_segments(memory.bytes_mut())
        .map_err(|e| Error::with_message(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, e.to_string()))?;
    let agent_key = agent.map(|a| (a.index, a.handle));
    let symbols = &inner.symbols;
    let mut resolve = |name: &str| {
        let same_agent =
            |s: &&Arc<Symbol>| s.name == name && (s.agent.is_none() || s.agent == agent_key);
        symbols.iter().find(same_agent).map(|s| s.address())
    };
    plan.apply_relocations(memory.bytes_mut(), base, &mut resolve)
        .map_err(|e| match e {
            softhsa_codeobj::Error::UndefinedSymbol(n) => {
                Error::with_message(HSA_STATUS_ERROR_VARIABLE_UNDEFINED, n)
            }
            e => Error::with_message(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, e.to_string()),
        })?;
    let memory = Arc::new(memory);
    let owner = agent.map_or(cpu_agent, |a| a.index);
    registry.add(base, memory.len() as u64, owner)?;

    // One shared copy of each executable segment's relocated bytes.
    let mut texts: Vec<(u64, Arc<[u8]>, SharedProgram)> = Vec::new();
    let mut kernels = Vec::new();
    let mut new_symbols = Vec::new();
    for k in &plan.kernels {
        let seg = plan
            .segments
            .iter()
            .find(|s| s.flags.execute && s.contains(k.entry_vaddr, 4));
        let Some(seg) = seg else { continue };
        let (code, program) = match texts.iter().find(|t| t.0 == seg.vaddr) {
            Some(t) => (t.1.clone(), t.2.clone()),
            None => {
                let bytes: Arc<[u8]> = memory
                    .copy_out(seg.vaddr, seg.memsz)
                    .unwrap_or_default()
                    .into();
                let program = SharedProgram::default();
                texts.push((seg.vaddr, bytes.clone(), program.clone()));
                (bytes, program)
            }
        };
        let lk = Arc::new(LoadedKernel::new(
            k.name.clone(),
            k.symbol.clone(),
            base + k.descriptor_vaddr,
            k.descriptor.clone(),
            k.metadata.clone(),
            owner,
            exec_handle,
            base + seg.vaddr,
            code,
            program,
            memory.clone(),
        ));
        new_symbols.push(Symbol {
            name: k.symbol.clone(),
            agent: agent_key,
            linkage: HSA_SYMBOL_LINKAGE_PROGRAM,
            kind: SymbolKind::Kernel(lk.clone()),
        });
        kernels.push(lk);
    }
    for v in plan
        .variables
        .iter()
        .filter(|v| v.binding != Binding::Local)
    {
        // (Past the image a variable has no address: a malformed symbol table.)
        if v.vaddr.saturating_add(v.size) > plan.virtual_size {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_INVALID_CODE_OBJECT,
                format!(
                    "variable `{}` at {:#x} (+{:#x}) lies outside the code object's segments \
                     ({:#x} bytes)",
                    v.name, v.vaddr, v.size, plan.virtual_size
                ),
            ));
        }
        let address = base + v.vaddr;
        let allocation = if agent.is_some() {
            HSA_VARIABLE_ALLOCATION_AGENT
        } else {
            HSA_VARIABLE_ALLOCATION_PROGRAM
        };
        let align = 1u32 << v.vaddr.trailing_zeros().min(6);
        new_symbols.push(Symbol {
            name: v.name.clone(),
            agent: agent_key,
            linkage: HSA_SYMBOL_LINKAGE_PROGRAM,
            kind: SymbolKind::Variable(Variable {
                address,
                size: v.size,
                align,
                readonly: v.readonly,
                allocation,
                external: false,
            }),
        });
    }
    inner.symbols.extend(new_symbols.into_iter().map(Arc::new));
    let lco = Arc::new(LoadedCodeObject {
        kind: if agent.is_some() {
            HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT
        } else {
            HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_PROGRAM
        },
        agent: owner,
        agent_handle: agent.map_or(0, |a| a.handle),
        code_object: Arc::new(co),
        elf: reader.bytes.clone(),
        storage: reader.storage.clone(),
        uri: reader.uri(),
        load_size: memory.len() as u64,
        load_base: base,
        memory,
    });
    inner.loaded.push(lco.clone());
    Ok(Loaded {
        code_object: lco,
        kernels,
    })
}
