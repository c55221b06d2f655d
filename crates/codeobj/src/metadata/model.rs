//! The one metadata model that both v2 (YAML) and v3+ (MessagePack) metadata are read into.

/// What a kernel argument is (`.value_kind` in v3+, `ValueKind` in v2).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum ValueKind {
    #[default]
    ByValue,
    GlobalBuffer,
    DynamicSharedPointer,
    Sampler,
    Image,
    Pipe,
    Queue,
    HiddenGlobalOffsetX,
    HiddenGlobalOffsetY,
    HiddenGlobalOffsetZ,
    HiddenNone,
    HiddenPrintfBuffer,
    HiddenHostcallBuffer,
    HiddenDefaultQueue,
    HiddenCompletionAction,
    HiddenMultigridSyncArg,
    HiddenHeapV1,
    HiddenBlockCountX,
    HiddenBlockCountY,
    HiddenBlockCountZ,
    HiddenGroupSizeX,
    HiddenGroupSizeY,
    HiddenGroupSizeZ,
    HiddenRemainderX,
    HiddenRemainderY,
    HiddenRemainderZ,
    HiddenGridDims,
    HiddenPrivateBase,
    HiddenSharedBase,
    HiddenQueuePtr,
    HiddenDynamicLdsSize,
    /// A kind this version of softhsa does not know; kept so the caller can report it.
    Unknown(String),
}

/// (kind, v3+ spelling, v2 spelling or "" where v2 has none). One table for both directions.
const KINDS: &[(ValueKind, &str, &str)] = &[
    (ValueKind::ByValue, "by_value", "ByValue"),
    (ValueKind::GlobalBuffer, "global_buffer", "GlobalBuffer"),
    (
        ValueKind::DynamicSharedPointer,
        "dynamic_shared_pointer",
        "DynamicSharedPointer",
    ),
    (ValueKind::Sampler, "sampler", "Sampler"),
    (ValueKind::Image, "image", "Image"),
    (ValueKind::Pipe, "pipe", "Pipe"),
    (ValueKind::Queue, "queue", "Queue"),
    (
        ValueKind::HiddenGlobalOffsetX,
        "hidden_global_offset_x",
        "HiddenGlobalOffsetX",
    ),
    (
        ValueKind::HiddenGlobalOffsetY,
        "hidden_global_offset_y",
        "HiddenGlobalOffsetY",
    ),
    (
        ValueKind::HiddenGlobalOffsetZ,
        "hidden_global_offset_z",
        "HiddenGlobalOffsetZ",
    ),
    (ValueKind::HiddenNone, "hidden_none", "HiddenNone"),
    (
        ValueKind::HiddenPrintfBuffer,
        "hidden_printf_buffer",
        "HiddenPrintfBuffer",
    ),
    (
        ValueKind::HiddenHostcallBuffer,
        "hidden_hostcall_buffer",
        "HiddenHostcallBuffer",
    ),
    (
        ValueKind::HiddenDefaultQueue,
        "hidden_default_queue",
        "HiddenDefaultQueue",
    ),
    (
        ValueKind::HiddenCompletionAction,
        "hidden_completion_action",
        "HiddenCompletionAction",
    ),
    (
        ValueKind::HiddenMultigridSyncArg,
        "hidden_multigrid_sync_arg",
        "HiddenMultiGridSyncArg",
    ),
    (ValueKind::HiddenHeapV1, "hidden_heap_v1", ""),
    (ValueKind::HiddenBlockCountX, "hidden_block_count_x", ""),
    (ValueKind::HiddenBlockCountY, "hidden_block_count_y", ""),
    (ValueKind::HiddenBlockCountZ, "hidden_block_count_z", ""),
    (ValueKind::HiddenGroupSizeX, "hidden_group_size_x", ""),
    (ValueKind::HiddenGroupSizeY, "hidden_group_size_y", ""),
    (ValueKind::HiddenGroupSizeZ, "hidden_group_size_z", ""),
    (ValueKind::HiddenRemainderX, "hidden_remainder_x", ""),
    (ValueKind::HiddenRemainderY, "hidden_remainder_y", ""),
    (ValueKind::HiddenRemainderZ, "hidden_remainder_z", ""),
    (ValueKind::HiddenGridDims, "hidden_grid_dims", ""),
    (ValueKind::HiddenPrivateBase, "hidden_private_base", ""),
    (ValueKind::HiddenSharedBase, "hidden_shared_base", ""),
    (ValueKind::HiddenQueuePtr, "hidden_queue_ptr", ""),
    (
        ValueKind::HiddenDynamicLdsSize,
        "hidden_dynamic_lds_size",
        "",
    ),
];

impl ValueKind {
    pub fn from_v3(s: &str) -> ValueKind {
        KINDS
            .iter()
            .find(|k| k.1 == s)
            .map_or_else(|| ValueKind::Unknown(s.to_string()), |k| k.0.clone())
    }
    pub fn from_v2(s: &str) -> ValueKind {
        KINDS
            .iter()
            .find(|k| !k.2.is_empty() && k.2 == s)
            .map_or_else(|| ValueKind::Unknown(s.to_string()), |k| k.0.clone())
    }
    /// The v3+ spelling (what `softhsa objinfo` prints).
    pub fn name(&self) -> &str {
        match self {
            ValueKind::Unknown(s) => s,
            k => KINDS.iter().find(|e| &e.0 == k).map_or("?", |e| e.1),
        }
    }
    /// Hidden arguments are filled by the runtime, not by the program.
    pub fn is_hidden(&self) -> bool {
        self.name().starts_with("hidden_")
    }
}

/// One kernel argument.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct KernelArg {
    pub name: Option<String>,
    pub type_name: Option<String>,
    /// Byte offset in the kernarg segment (v2: computed from sizes and alignments, in order).
    pub offset: u32,
    pub size: u32,
    /// Alignment in bytes (v2: given; v3+: derived from size and offset, see `derive_align`).
    pub align: u32,
    pub value_kind: ValueKind,
    /// `global`, `constant`, `local`, `private`, `generic`, `region` (v3+ spelling).
    pub address_space: Option<String>,
    pub is_const: bool,
    pub is_restrict: bool,
    pub is_volatile: bool,
    pub is_pipe: bool,
    pub access: Option<String>,
    pub pointee_align: Option<u32>,
}

/// What the metadata says about one kernel.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct KernelMetadata {
    /// Source-level name.
    pub name: String,
    /// The ELF symbol: `name.kd` in v3+; in v2 the kernel symbol, which is `name`.
    pub symbol: String,
    pub language: Option<String>,
    pub language_version: Option<(u32, u32)>,
    pub args: Vec<KernelArg>,
    pub kernarg_segment_size: u32,
    pub kernarg_segment_align: u32,
    pub group_segment_fixed_size: u32,
    pub private_segment_fixed_size: u32,
    pub wavefront_size: u32,
    pub sgpr_count: u32,
    pub vgpr_count: u32,
    pub sgpr_spill_count: u32,
    pub vgpr_spill_count: u32,
    pub max_flat_workgroup_size: u32,
    pub uses_dynamic_stack: bool,
    pub reqd_workgroup_size: Option<[u32; 3]>,
    pub workgroup_size_hint: Option<[u32; 3]>,
    /// Device-enqueue handle symbol, if any.
    pub runtime_handle: Option<String>,
}

/// One `printf` format string: its id, the byte size of each argument, the format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintfFormat {
    pub id: u32,
    pub arg_sizes: Vec<u32>,
    pub format: String,
}

/// The whole metadata of a code object.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Metadata {
    /// Metadata version (`amdhsa.version` / `Version`).
    pub version: (u32, u32),
    /// `amdhsa.target` (v4+); v2 takes it from the ISA name note.
    pub target: Option<String>,
    pub printf: Vec<PrintfFormat>,
    pub kernels: Vec<KernelMetadata>,
}

impl Metadata {
    pub fn kernel_by_symbol(&self, symbol: &str) -> Option<&KernelMetadata> {
        self.kernels.iter().find(|k| k.symbol == symbol)
    }
}
