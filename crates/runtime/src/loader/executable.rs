//! Executables: profile, rounding mode, frozen state, loaded code objects and symbols.

use super::objects::{LoadedCodeObject, Symbol, SymbolKind, Variable};
use crate::{Error, Result};
use softhsa_abi::*;
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// An agent as the loader needs it: its index, handle and ISA name.
#[derive(Clone, Copy, Debug)]
pub struct AgentRef<'a> {
    pub index: usize,
    pub handle: u64,
    pub isa_name: &'a str,
}

#[derive(Default)]
pub(crate) struct Inner {
    pub frozen: bool,
    pub loaded: Vec<Arc<LoadedCodeObject>>,
    /// Index = the symbol part of its handle; never shrinks.
    pub symbols: Vec<Arc<Symbol>>,
}

pub struct Executable {
    pub profile: hsa_profile_t,
    pub rounding: hsa_default_float_rounding_mode_t,
    inner: RwLock<Inner>,
}

impl Executable {
    /// `hsa_executable_create_alt`'s checks.
    pub fn new(
        profile: hsa_profile_t,
        rounding: hsa_default_float_rounding_mode_t,
    ) -> Result<Executable> {
        if profile != HSA_PROFILE_BASE && profile != HSA_PROFILE_FULL {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
                format!("profile {profile}"),
            ));
        }
        let known = [
            HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
            HSA_DEFAULT_FLOAT_ROUNDING_MODE_ZERO,
            HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR,
        ];
        if !known.contains(&rounding) {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
                format!("rounding mode {rounding}"),
            ));
        }
        Ok(Executable {
            profile,
            rounding,
            inner: RwLock::new(Inner::default()),
        })
    }

    pub(crate) fn read(&self) -> RwLockReadGuard<'_, Inner> {
        self.inner.read().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn write(&self) -> RwLockWriteGuard<'_, Inner> {
        self.inner.write().unwrap_or_else(|e| e.into_inner())
    }

    pub fn is_frozen(&self) -> bool {
        self.read().frozen
    }

    /// `hsa_executable_freeze`: a second freeze is FROZEN_EXECUTABLE.
    pub fn freeze(&self) -> Result<()> {
        let mut inner = self.write();
        if inner.frozen {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_FROZEN_EXECUTABLE,
                "already frozen",
            ));
        }
        inner.frozen = true;
        Ok(())
    }

    /// HSA_EXECUTABLE_INFO_*: all three are 32-bit enums.
    pub fn info(&self, attribute: hsa_executable_info_t) -> Result<u32> {
        Ok(match attribute {
            HSA_EXECUTABLE_INFO_PROFILE => self.profile,
            HSA_EXECUTABLE_INFO_STATE => {
                if self.is_frozen() {
                    HSA_EXECUTABLE_STATE_FROZEN
                } else {
                    HSA_EXECUTABLE_STATE_UNFROZEN
                }
            }
            HSA_EXECUTABLE_INFO_DEFAULT_FLOAT_ROUNDING_MODE => self.rounding,
            _ => {
                return Err(Error::with_message(
                    HSA_STATUS_ERROR_INVALID_ARGUMENT,
                    format!("attribute {attribute}"),
                ))
            }
        })
    }

    /// `hsa_executable_{global,agent_global,readonly}_variable_define`.
    pub fn define_variable(
        &self,
        name: &str,
        agent: Option<AgentRef<'_>>,
        address: u64,
        readonly: bool,
    ) -> Result<()> {
        let mut inner = self.write();
        if inner.frozen {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_FROZEN_EXECUTABLE,
                "cannot define variables",
            ));
        }
        let agent = agent.map(|a| (a.index, a.handle));
        if inner
            .symbols
            .iter()
            .any(|s| s.name == name && s.agent == agent)
        {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED,
                name.to_string(),
            ));
        }
        let allocation = if agent.is_some() {
            HSA_VARIABLE_ALLOCATION_AGENT
        } else {
            HSA_VARIABLE_ALLOCATION_PROGRAM
        };
        let var = Variable {
            address,
            size: 0,
            align: 0,
            readonly,
            allocation,
            external: true,
        };
        inner.symbols.push(Arc::new(Symbol {
            name: name.to_string(),
            agent,
            linkage: HSA_SYMBOL_LINKAGE_PROGRAM,
            kind: SymbolKind::Variable(var),
        }));
        Ok(())
    }

    /// A symbol by index (the symbol part of a handle).
    pub fn symbol(&self, index: usize) -> Option<Arc<Symbol>> {
        self.read().symbols.get(index).cloned()
    }

    /// (index, symbol) pairs, filtered.
    pub fn symbols(&self, mut keep: impl FnMut(&Symbol) -> bool) -> Vec<(usize, Arc<Symbol>)> {
        self.read()
            .symbols
            .iter()
            .enumerate()
            .filter(|(_, s)| keep(s))
            .map(|(i, s)| (i, s.clone()))
            .collect()
    }

    /// `hsa_executable_get_symbol_by_name`: for an agent, its kernels and variables or a
    /// program variable; without one, any symbol of that name (program ones first).
    pub fn find_symbol(&self, name: &str, agent: Option<usize>) -> Result<usize> {
        let inner = self.read();
        let by_agent = |want: Option<usize>| {
            inner
                .symbols
                .iter()
                .position(|s| s.name == name && s.agent.map(|a| a.0) == want)
        };
        let found = match agent {
            Some(a) => by_agent(Some(a)).or_else(|| by_agent(None)),
            None => by_agent(None).or_else(|| inner.symbols.iter().position(|s| s.name == name)),
        };
        found.ok_or_else(|| {
            Error::with_message(HSA_STATUS_ERROR_INVALID_SYMBOL_NAME, name.to_string())
        })
    }

    /// Loaded code objects, in load order.
    pub fn loaded(&self) -> Vec<Arc<LoadedCodeObject>> {
        self.read().loaded.clone()
    }

    /// `hsa_executable_validate`: 0 when every loaded code object still suits its agent.
    pub fn validate(&self, isa_of: impl Fn(usize) -> Option<String>) -> u32 {
        let inner = self.read();
        let ok = inner.loaded.iter().all(|lco| {
            isa_of(lco.agent)
                .is_some_and(|isa| super::load::check_target(&lco.code_object, &isa).is_ok())
        });
        u32::from(!ok)
    }
}
