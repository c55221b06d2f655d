//! What an executable holds: loaded code objects, their kernels, and symbols.

use super::memory::SegmentMemory;
use super::reader::Storage;
use softhsa_codeobj::{CodeObject, KernelDescriptor, KernelMetadata};
use std::any::Any;
use std::sync::{Arc, OnceLock};

/// A kernel as dispatches need it. `Loader::kernel(kernel_object)` finds it in O(1).
pub struct LoadedKernel {
    /// Kernel name (without `.kd`).
    pub name: String,
    /// Symbol name as HSA reports it (`name.kd` for v3+, `name` for v2).
    pub symbol: String,
    /// Address of the loaded kernel descriptor (v3+) or `amd_kernel_code_t` (v2).
    pub kernel_object: u64,
    pub descriptor: KernelDescriptor,
    pub metadata: Option<KernelMetadata>,
    /// Agent index the code was loaded for.
    pub agent: usize,
    /// Handle of the executable.
    pub executable: u64,
    /// The loaded executable segment containing the entry: its address and (relocated) bytes.
    /// Covers every function of the code object, so calls resolve.
    pub code_base: u64,
    pub code: Arc<[u8]>,
    /// Keeps the loaded descriptor and data alive while dispatches still use the kernel.
    pub(crate) _memory: Arc<SegmentMemory>,
    device: OnceLock<Arc<dyn Any + Send + Sync>>,
    /// The device's decoded form of `code`, shared by every kernel of the same segment so a
    /// code object's text is decoded once (see [`LoadedKernel::shared_program`]).
    program: SharedProgram,
}

/// One decoded text per loaded executable segment, built on first use.
pub(crate) type SharedProgram = Arc<OnceLock<Arc<dyn Any + Send + Sync>>>;

impl LoadedKernel {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        name: String,
        symbol: String,
        kernel_object: u64,
        descriptor: KernelDescriptor,
        metadata: Option<KernelMetadata>,
        agent: usize,
        executable: u64,
        code_base: u64,
        code: Arc<[u8]>,
        program: SharedProgram,
        memory: Arc<SegmentMemory>,
    ) -> LoadedKernel {
        LoadedKernel {
            name,
            symbol,
            kernel_object,
            descriptor,
            metadata,
            agent,
            executable,
            code_base,
            code,
            _memory: memory,
            device: OnceLock::new(),
            program,
        }
    }

    /// Kernarg segment size: the metadata's (it counts hidden arguments), else the descriptor's.
    pub fn kernarg_size(&self) -> u32 {
        self.metadata
            .as_ref()
            .map_or(self.descriptor.kernarg_size, |m| m.kernarg_segment_size)
    }

    /// Kernarg alignment in bytes (at least 16, as HSA requires of the segment).
    pub fn kernarg_align(&self) -> u32 {
        self.metadata
            .as_ref()
            .map_or(16, |m| m.kernarg_segment_align)
            .max(16)
    }

    /// The device's form of this kernel (e.g. `softhsa_gpu::Kernel`), built by `build` on first
    /// use and cached for the life of the loaded code object.
    pub fn device_kernel<T: Any + Send + Sync>(
        &self,
        build: impl FnOnce(&LoadedKernel) -> Result<T, String>,
    ) -> Result<Arc<T>, String> {
        if let Some(k) = self.device.get() {
            return k
                .clone()
                .downcast::<T>()
                .map_err(|_| "cached device kernel has another type".to_string());
        }
        let built: Arc<dyn Any + Send + Sync> = Arc::new(build(self)?);
        // A concurrent first use may have won the race; both built the same thing.
        let k = self.device.get_or_init(|| built).clone();
        k.downcast::<T>()
            .map_err(|_| "cached device kernel has another type".to_string())
    }
}

impl LoadedKernel {
    /// The decoded form of this kernel's code segment (e.g. `softhsa_gpu::Program`), built by
    /// `decode(code, code_base)` once for all the kernels of the segment.
    pub fn shared_program<P: Any + Send + Sync>(
        &self,
        decode: impl FnOnce(&[u8], u64) -> P,
    ) -> Result<Arc<P>, String> {
        self.program
            .get_or_init(|| Arc::new(decode(&self.code, self.code_base)))
            .clone()
            .downcast::<P>()
            .map_err(|_| "shared program has another type".to_string())
    }
}

impl std::fmt::Debug for LoadedKernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoadedKernel")
            .field("name", &self.name)
            .field("kernel_object", &self.kernel_object)
            .finish()
    }
}

/// One code object loaded into an executable for one agent.
pub struct LoadedCodeObject {
    /// HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT or _PROGRAM.
    pub kind: u32,
    /// Agent index and handle (for a program code object: the CPU agent's index and handle 0).
    pub agent: usize,
    pub agent_handle: u64,
    pub code_object: Arc<CodeObject>,
    /// The reader's bytes (the ELF image the loader extension reports).
    pub elf: Arc<[u8]>,
    pub storage: Storage,
    pub uri: String,
    pub(crate) memory: Arc<SegmentMemory>,
    pub load_base: u64,
    pub load_size: u64,
}

impl LoadedCodeObject {
    /// A copy of `len` loaded bytes at `offset` from the load base (what the GPU sees now).
    pub fn loaded_bytes(&self, offset: u64, len: u64) -> Option<Vec<u8>> {
        self.memory.copy_out(offset, len)
    }
}

/// A variable symbol's facts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    pub address: u64,
    pub size: u64,
    pub align: u32,
    pub readonly: bool,
    /// HSA_VARIABLE_ALLOCATION_AGENT or _PROGRAM.
    pub allocation: u32,
    /// Defined by the program (`hsa_executable_*_variable_define`), not by a code object.
    pub external: bool,
}

#[derive(Clone, Debug)]
pub enum SymbolKind {
    Kernel(Arc<LoadedKernel>),
    Variable(Variable),
}

/// One executable symbol.
#[derive(Clone, Debug)]
pub struct Symbol {
    pub name: String,
    /// (agent index, agent handle); `None` for program-allocated variables.
    pub agent: Option<(usize, u64)>,
    /// HSA_SYMBOL_LINKAGE_MODULE or _PROGRAM.
    pub linkage: u32,
    pub kind: SymbolKind,
}

impl Symbol {
    /// Address a relocation against this symbol resolves to.
    pub fn address(&self) -> u64 {
        match &self.kind {
            SymbolKind::Kernel(k) => k.kernel_object,
            SymbolKind::Variable(v) => v.address,
        }
    }
}
