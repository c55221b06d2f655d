//! Code object readers and executables: the runtime side of the code-object work.
//!
//! [`Loader`] owns every reader, executable and (deprecated) code object of a runtime instance,
//! in tables keyed by never-reused ids, so C handles are decoded and looked up, never
//! dereferenced ([`handles`]). Loading (`load`) parses with `softhsa-codeobj`, copies the
//! segments into host memory registered with the runtime's allocation registry (through
//! [`SegmentRegistry`]), relocates, and indexes every kernel by its kernel object so that
//! [`Loader::kernel`] is one hash lookup for the dispatcher. The AMD loader extension table is
//! [`extension_table`].
//!
//! Decisions:
//! - Target check: same processor; v4+ xnack/sramecc as written (explicit on/off must equal the
//!   agent's); v2/v3 features are ignored (they cannot say "any"; the software GPU runs both).
//!   gfx900 code does not load on a gfx906 agent (as in ROCm): pick the model with SOFTHSA_GPU.
//! - Profiles are not checked at load (HIP loads FULL executables on BASE agents).
//! - Undefined symbols resolve at load against variables already defined in the executable
//!   (program-wide or for the same agent) and symbols of its other code objects.
//! - HSA symbols: every kernel (`name.kd`, v2 `name`) and every non-local variable.
//! - A code object may span at most 1 GiB; its block is one page-aligned host allocation.

mod code_object;
mod executable;
mod ext;
pub mod handles;
mod load;
mod memory;
mod objects;
mod reader;
mod symbol_info;
#[cfg(test)]
mod tests;

pub use code_object::{CodeObjectEntry, CodeSymbolRef};
pub use executable::{AgentRef, Executable};
pub use ext::{copy_extension_table, extension_table, extension_table_bytes, extension_table_size};
pub use memory::{SegmentMemory, SegmentRegistry};
pub use objects::{LoadedCodeObject, LoadedKernel, Symbol, SymbolKind, Variable};
pub use reader::{Reader, Storage};
pub use symbol_info::{code_symbol_info, symbol_info};

use crate::{Error, Result};
use arc_swap::ArcSwap;
use handles::Tag;
use softhsa_abi::*;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

/// Tables of one runtime instance.
pub struct Loader {
    generation: u32,
    next_id: AtomicU64,
    readers: RwLock<HashMap<u64, Arc<Reader>>>,
    /// Ordered so that iteration follows creation order.
    executables: RwLock<BTreeMap<u64, Arc<Executable>>>,
    code_objects: RwLock<HashMap<u64, Arc<CodeObjectEntry>>>,
    /// Kernel object address → kernel: changed under this lock...
    kernels: RwLock<HashMap<u64, Arc<LoadedKernel>>>,
    /// ...and republished here for dispatch, which reads it for every packet from every
    /// queue's thread: a lookup takes no lock and writes no shared cache line.
    kernel_index: ArcSwap<HashMap<u64, Arc<LoadedKernel>>>,
}

impl Default for Loader {
    fn default() -> Self {
        Loader::new()
    }
}

fn lock<T>(l: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    l.read().unwrap_or_else(|e| e.into_inner())
}

fn lock_mut<T>(l: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    l.write().unwrap_or_else(|e| e.into_inner())
}

impl Loader {
    pub fn new() -> Loader {
        Loader {
            generation: handles::next_generation(),
            next_id: AtomicU64::new(1),
            readers: RwLock::default(),
            executables: RwLock::default(),
            code_objects: RwLock::default(),
            kernels: RwLock::default(),
            kernel_index: ArcSwap::default(),
        }
    }

    fn new_id(&self) -> Result<u64> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        if id > handles::PART_MASK {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_OUT_OF_RESOURCES,
                "loader handle space exhausted",
            ));
        }
        Ok(id)
    }

    fn handle(&self, tag: Tag, payload: u64) -> u64 {
        handles::encode(tag, self.generation, payload)
    }

    fn id_of(&self, tag: Tag, handle: u64) -> Option<u64> {
        handles::decode(handle, tag, self.generation)
    }

    /// The dispatcher's lookup: the kernel whose loaded descriptor is at `kernel_object`.
    pub fn kernel(&self, kernel_object: u64) -> Option<Arc<LoadedKernel>> {
        self.kernel_index.load().get(&kernel_object).cloned()
    }

    /// Runs `f` with the kernel whose kernel object is at `kernel_object` (`None`: no such
    /// kernel), without taking a reference to it (the dispatch path).
    pub fn with_kernel<R>(
        &self,
        kernel_object: u64,
        f: impl FnOnce(&LoadedKernel) -> R,
    ) -> Option<R> {
        self.kernel_index.load().get(&kernel_object).map(|k| f(k))
    }

    /// Makes the kernels table (held locked for writing by the caller) what lookups see.
    fn publish_kernels(&self, kernels: &HashMap<u64, Arc<LoadedKernel>>) {
        self.kernel_index.store(Arc::new(kernels.clone()));
    }

    #[cfg(test)]
    fn kernels_for_test(&self) -> Vec<Arc<LoadedKernel>> {
        lock(&self.kernels).values().cloned().collect()
    }

    // ---- readers ----

    pub fn add_reader(&self, reader: Reader) -> Result<u64> {
        let id = self.new_id()?;
        lock_mut(&self.readers).insert(id, Arc::new(reader));
        Ok(self.handle(Tag::Reader, id))
    }

    pub fn reader(&self, handle: u64) -> Result<Arc<Reader>> {
        self.id_of(Tag::Reader, handle)
            .and_then(|id| lock(&self.readers).get(&id).cloned())
            .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER))
    }

    pub fn destroy_reader(&self, handle: u64) -> Result<()> {
        self.id_of(Tag::Reader, handle)
            .and_then(|id| lock_mut(&self.readers).remove(&id))
            .map(drop)
            .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER))
    }

    // ---- executables ----

    pub fn create_executable(&self, profile: hsa_profile_t, rounding: u32) -> Result<u64> {
        let exec = Executable::new(profile, rounding)?;
        let id = self.new_id()?;
        lock_mut(&self.executables).insert(id, Arc::new(exec));
        Ok(self.handle(Tag::Executable, id))
    }

    pub fn executable(&self, handle: u64) -> Result<Arc<Executable>> {
        self.id_of(Tag::Executable, handle)
            .and_then(|id| lock(&self.executables).get(&id).cloned())
            .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_EXECUTABLE))
    }

    /// Every executable's handle, in creation order.
    pub fn executables(&self) -> Vec<u64> {
        lock(&self.executables)
            .keys()
            .map(|&id| self.handle(Tag::Executable, id))
            .collect()
    }

    /// `hsa_executable_destroy`: forgets its kernels and unregisters its memory (which is freed
    /// when the last in-flight dispatch drops its kernel).
    pub fn destroy_executable(&self, handle: u64, registry: &dyn SegmentRegistry) -> Result<()> {
        let id = self
            .id_of(Tag::Executable, handle)
            .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_EXECUTABLE))?;
        let exec = lock_mut(&self.executables)
            .remove(&id)
            .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_EXECUTABLE))?;
        let inner = exec.read();
        let mut kernels = lock_mut(&self.kernels);
        for s in &inner.symbols {
            if let SymbolKind::Kernel(k) = &s.kind {
                kernels.remove(&k.kernel_object);
            }
        }
        self.publish_kernels(&kernels);
        for lco in &inner.loaded {
            registry.remove(lco.load_base);
        }
        Ok(())
    }

    /// `hsa_executable_load_agent_code_object` (`agent` given) and
    /// `hsa_executable_load_program_code_object` (`agent` None). Returns the loaded code object.
    pub fn load_code_object(
        &self,
        exec_handle: u64,
        agent: Option<AgentRef<'_>>,
        cpu_agent: usize,
        reader: &Reader,
        registry: &dyn SegmentRegistry,
    ) -> Result<u64> {
        let exec = self.executable(exec_handle)?;
        let loaded = load::load(&exec, exec_handle, agent, cpu_agent, reader, registry)?;
        let mut kernels = lock_mut(&self.kernels);
        // A destroy that ran meanwhile has already cleaned up (it removes the executable from
        // the table before taking this lock): do not index orphans.
        if self.executable(exec_handle).is_err() {
            registry.remove(loaded.code_object.load_base);
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_EXECUTABLE));
        }
        for k in loaded.kernels {
            kernels.insert(k.kernel_object, k);
        }
        self.publish_kernels(&kernels);
        let index = exec
            .read()
            .loaded
            .iter()
            .position(|l| Arc::ptr_eq(l, &loaded.code_object))
            .unwrap_or(0);
        let exec_id = self.id_of(Tag::Executable, exec_handle).unwrap_or(0);
        Ok(self.handle(Tag::LoadedCodeObject, handles::pair(exec_id, index)))
    }

    // ---- symbols and loaded code objects (handles pair an executable id with an index) ----

    pub fn symbol_handle(&self, exec_handle: u64, index: usize) -> u64 {
        let exec_id = self.id_of(Tag::Executable, exec_handle).unwrap_or(0);
        self.handle(Tag::Symbol, handles::pair(exec_id, index))
    }

    /// The symbol of a handle and its executable's handle.
    pub fn symbol(&self, handle: u64) -> Result<(u64, Arc<Symbol>)> {
        let bad = || Error::new(HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL);
        let (exec_id, index) = self
            .id_of(Tag::Symbol, handle)
            .map(handles::unpair)
            .ok_or_else(bad)?;
        let exec_handle = self.handle(Tag::Executable, exec_id);
        let exec = self.executable(exec_handle).map_err(|_| bad())?;
        Ok((exec_handle, exec.symbol(index).ok_or_else(bad)?))
    }

    pub fn loaded_code_objects(&self, exec_handle: u64) -> Result<Vec<u64>> {
        let exec = self.executable(exec_handle)?;
        let exec_id = self.id_of(Tag::Executable, exec_handle).unwrap_or(0);
        let n = exec.read().loaded.len();
        Ok((0..n)
            .map(|i| self.handle(Tag::LoadedCodeObject, handles::pair(exec_id, i)))
            .collect())
    }

    /// A loaded code object and its executable's handle.
    pub fn loaded_code_object(&self, handle: u64) -> Result<(u64, Arc<LoadedCodeObject>)> {
        let bad = || Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT);
        let (exec_id, index) = self
            .id_of(Tag::LoadedCodeObject, handle)
            .map(handles::unpair)
            .ok_or_else(bad)?;
        let exec_handle = self.handle(Tag::Executable, exec_id);
        let exec = self.executable(exec_handle).map_err(|_| bad())?;
        let lco = exec.read().loaded.get(index).cloned().ok_or_else(bad)?;
        Ok((exec_handle, lco))
    }

    /// The executable and loaded code object whose memory contains `address`.
    pub fn find_address(&self, address: u64) -> Option<(u64, Arc<LoadedCodeObject>)> {
        for (&id, exec) in lock(&self.executables).iter() {
            for lco in exec.read().loaded.iter() {
                if address >= lco.load_base && address - lco.load_base < lco.load_size {
                    return Some((self.handle(Tag::Executable, id), lco.clone()));
                }
            }
        }
        None
    }

    // ---- deprecated code objects ----

    pub fn add_code_object(&self, entry: CodeObjectEntry) -> Result<u64> {
        let id = self.new_id()?;
        lock_mut(&self.code_objects).insert(id, Arc::new(entry));
        Ok(self.handle(Tag::CodeObject, id))
    }

    pub fn code_object(&self, handle: u64) -> Result<Arc<CodeObjectEntry>> {
        self.id_of(Tag::CodeObject, handle)
            .and_then(|id| lock(&self.code_objects).get(&id).cloned())
            .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_CODE_OBJECT))
    }

    pub fn destroy_code_object(&self, handle: u64) -> Result<()> {
        self.id_of(Tag::CodeObject, handle)
            .and_then(|id| lock_mut(&self.code_objects).remove(&id))
            .map(drop)
            .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_CODE_OBJECT))
    }

    pub fn code_symbol_handle(&self, code_object: u64, index: usize) -> u64 {
        let id = self.id_of(Tag::CodeObject, code_object).unwrap_or(0);
        self.handle(Tag::CodeSymbol, handles::pair(id, index))
    }

    pub fn code_symbol(&self, handle: u64) -> Result<CodeSymbolRef> {
        let bad = || Error::new(HSA_STATUS_ERROR_INVALID_CODE_SYMBOL);
        let (id, index) = self
            .id_of(Tag::CodeSymbol, handle)
            .map(handles::unpair)
            .ok_or_else(bad)?;
        let entry = lock(&self.code_objects).get(&id).cloned().ok_or_else(bad)?;
        CodeSymbolRef::new(entry, index).ok_or_else(bad)
    }
}
