//! Types of `hsa_ext_amd.h` (Debian libhsa-runtime-dev 5.2): ROCm's AMD extensions: memory pools,
//! vendor packets, profiling, pointer info, IPC, events, SVM attributes.
//!
//! Generated from the header by the ABI generator (see the crate docs), then checked
//! field by field against C by `tests/layout.rs`.

use crate::hsa::*;
use core::ffi::c_void;

/// C `#define HSA_AMD_INTERFACE_VERSION_MAJOR 1`.
pub const HSA_AMD_INTERFACE_VERSION_MAJOR: u32 = 1;

/// C `#define HSA_AMD_INTERFACE_VERSION_MINOR 0`.
pub const HSA_AMD_INTERFACE_VERSION_MINOR: u32 = 0;

/// A fixed-size type used to represent `hsa_signal_condition_t` constants.
pub type hsa_signal_condition32_t = u32;

/// AMD vendor specific packet type.
pub type hsa_amd_packet_type_t = u32;

/// Packet used by agents to delay processing of subsequent packets until a configurable
/// condition is satisfied by an HSA signal. Only kernel dispatch queues created from AMD GPU
/// Agents support this packet.
pub const HSA_AMD_PACKET_TYPE_BARRIER_VALUE: hsa_amd_packet_type_t = 2;

/// A fixed-size type used to represent `hsa_amd_packet_type_t` constants.
pub type hsa_amd_packet_type8_t = u8;

/// AMD vendor specific AQL packet header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_amd_vendor_packet_header_t {
    /// Packet header. Used to configure multiple packet parameters such as the packet type. The
    /// parameters are described by `hsa_packet_header_t`.
    pub header: u16,
    /// Format of the vendor specific packet.
    pub AmdFormat: hsa_amd_packet_type8_t,
    /// Reserved. Must be 0.
    pub reserved: u8,
}
zeroed_default!(hsa_amd_vendor_packet_header_t);

/// AMD barrier value packet. Halts packet processing and waits for (signal_value & `mask`)
/// `cond` `value` to be satisfied, where signal_value is the value of the signal `signal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_amd_barrier_value_packet_t {
    /// AMD vendor specific packet header.
    pub header: hsa_amd_vendor_packet_header_t,
    /// Reserved. Must be 0.
    pub reserved0: u32,
    /// Dependent signal object. A signal with a handle value of 0 is allowed and is interpreted by
    /// the packet processor a satisfied dependency.
    pub signal: hsa_signal_t,
    /// Value to compare against.
    pub value: hsa_signal_value_t,
    /// Bit mask to be combined by bitwise AND with `signal`'s value.
    pub mask: hsa_signal_value_t,
    /// Comparison operation. See `hsa_signal_condition_t`.
    pub cond: hsa_signal_condition32_t,
    /// Reserved. Must be 0.
    pub reserved1: u32,
    /// Reserved. Must be 0.
    pub reserved2: u64,
    /// Reserved. Must be 0.
    pub reserved3: u64,
    /// Signal used to indicate completion of the job. The application can use the special signal
    /// handle 0 to indicate that no signal is used.
    pub completion_signal: hsa_signal_t,
}
zeroed_default!(hsa_amd_barrier_value_packet_t);

// Enumeration constants added to `hsa_status_t`.

/// The memory pool is invalid.
pub const HSA_STATUS_ERROR_INVALID_MEMORY_POOL: hsa_status_t = 40;
/// Agent accessed memory beyond the maximum legal address.
pub const HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: hsa_status_t = 41;
/// Agent executed an invalid shader instruction.
pub const HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION: hsa_status_t = 42;
/// Agent attempted to access an inaccessible address. See hsa_amd_register_system_event_handler
/// and HSA_AMD_GPU_MEMORY_FAULT_EVENT for more information on illegal accesses.
pub const HSA_STATUS_ERROR_MEMORY_FAULT: hsa_status_t = 43;
/// The CU mask was successfully set but the mask attempted to enable a CU which was disabled
/// for the process. CUs disabled for the process remain disabled.
pub const HSA_STATUS_CU_MASK_REDUCED: hsa_status_t = 44;

/// Agent attributes.
pub type hsa_amd_agent_info_t = u32;

/// Chip identifier. The type of this attribute is uint32_t.
pub const HSA_AMD_AGENT_INFO_CHIP_ID: hsa_amd_agent_info_t = 0xA000;
/// Size of a cacheline in bytes. The type of this attribute is uint32_t.
pub const HSA_AMD_AGENT_INFO_CACHELINE_SIZE: hsa_amd_agent_info_t = 0xA001;
/// The number of compute unit available in the agent. The type of this attribute is uint32_t.
pub const HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT: hsa_amd_agent_info_t = 0xA002;
/// The maximum clock frequency of the agent in MHz. The type of this attribute is uint32_t.
pub const HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY: hsa_amd_agent_info_t = 0xA003;
/// Internal driver node identifier. The type of this attribute is uint32_t.
pub const HSA_AMD_AGENT_INFO_DRIVER_NODE_ID: hsa_amd_agent_info_t = 0xA004;
/// Max number of watch points on memory address ranges to generate exception events when the
/// watched addresses are accessed. The type of this attribute is uint32_t.
pub const HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS: hsa_amd_agent_info_t = 0xA005;
/// Agent BDF_ID, named LocationID in thunk. The type of this attribute is uint32_t.
pub const HSA_AMD_AGENT_INFO_BDFID: hsa_amd_agent_info_t = 0xA006;
/// Memory Interface width, the return value type is uint32_t. This attribute is deprecated.
pub const HSA_AMD_AGENT_INFO_MEMORY_WIDTH: hsa_amd_agent_info_t = 0xA007;
/// Max Memory Clock, the return value type is uint32_t.
pub const HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY: hsa_amd_agent_info_t = 0xA008;
/// Board name of Agent - populated from MarketingName of Kfd Node The value is an Ascii string
/// of 64 chars.
pub const HSA_AMD_AGENT_INFO_PRODUCT_NAME: hsa_amd_agent_info_t = 0xA009;
/// Maximum number of waves possible in a Compute Unit. The type of this attribute is uint32_t.
pub const HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU: hsa_amd_agent_info_t = 0xA00A;
/// Number of SIMD's per compute unit CU The type of this attribute is uint32_t.
pub const HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU: hsa_amd_agent_info_t = 0xA00B;
/// Number of Shader Engines (SE) in Gpu The type of this attribute is uint32_t.
pub const HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES: hsa_amd_agent_info_t = 0xA00C;
/// Number of Shader Arrays Per Shader Engines in Gpu The type of this attribute is uint32_t.
pub const HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE: hsa_amd_agent_info_t = 0xA00D;
/// Address of the HDP flush registers. Use of these registers does not conform to the HSA
/// memory model and should be treated with caution. The type of this attribute is
/// hsa_amd_hdp_flush_t.
pub const HSA_AMD_AGENT_INFO_HDP_FLUSH: hsa_amd_agent_info_t = 0xA00E;
/// PCIe domain for the agent. Pairs with HSA_AMD_AGENT_INFO_BDFID to give the full physical
/// location of the Agent. The type of this attribute is uint32_t.
pub const HSA_AMD_AGENT_INFO_DOMAIN: hsa_amd_agent_info_t = 0xA00F;
/// Queries for support of cooperative queues. See `HSA_QUEUE_TYPE_COOPERATIVE`. The type of
/// this attribute is bool.
pub const HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES: hsa_amd_agent_info_t = 0xA010;
/// Queries UUID of an agent. The value is an Ascii string with a maximum of 21 chars including
/// NUL. The string value consists of two parts: header and body. The header identifies device
/// type (GPU, CPU, DSP) while body encodes UUID as a 16 digit hex string.
pub const HSA_AMD_AGENT_INFO_UUID: hsa_amd_agent_info_t = 0xA011;
/// Queries for the ASIC revision of an agent. The value is an integer that increments for each
/// revision. This can be used by user-level software to change how it operates, depending on
/// the hardware version. This allows selective workarounds for hardware errata. The type of
/// this attribute is uint32_t.
pub const HSA_AMD_AGENT_INFO_ASIC_REVISION: hsa_amd_agent_info_t = 0xA012;
/// Queries whether or not the host can directly access SVM memory that is physically resident
/// in the agent's local memory. The type of this attribute is bool.
pub const HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS: hsa_amd_agent_info_t = 0xA013;
/// Some processors support more CUs than can reliably be used in a cooperative dispatch. This
/// queries the count of CUs which are fully enabled for cooperative dispatch. The type of this
/// attribute is uint32_t.
pub const HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT: hsa_amd_agent_info_t = 0xA014;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_amd_hdp_flush_t {
    pub HDP_MEM_FLUSH_CNTL: *mut u32,
    pub HDP_REG_FLUSH_CNTL: *mut u32,
}
zeroed_default!(hsa_amd_hdp_flush_t);

/// Region attributes.
pub type hsa_amd_region_info_t = u32;

/// Determine if host can access the region. The type of this attribute is bool.
pub const HSA_AMD_REGION_INFO_HOST_ACCESSIBLE: hsa_amd_region_info_t = 0xA000;
/// Base address of the region in flat address space.
pub const HSA_AMD_REGION_INFO_BASE: hsa_amd_region_info_t = 0xA001;
/// Memory Interface width, the return value type is uint32_t. This attribute is deprecated. Use
/// HSA_AMD_AGENT_INFO_MEMORY_WIDTH.
pub const HSA_AMD_REGION_INFO_BUS_WIDTH: hsa_amd_region_info_t = 0xA002;
/// Max Memory Clock, the return value type is uint32_t. This attribute is deprecated. Use
/// HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY.
pub const HSA_AMD_REGION_INFO_MAX_CLOCK_FREQUENCY: hsa_amd_region_info_t = 0xA003;

/// Coherency attributes of fine grain region.
pub type hsa_amd_coherency_type_t = u32;

/// Coherent region.
pub const HSA_AMD_COHERENCY_TYPE_COHERENT: hsa_amd_coherency_type_t = 0;
/// Non coherent region.
pub const HSA_AMD_COHERENCY_TYPE_NONCOHERENT: hsa_amd_coherency_type_t = 1;

/// Structure containing profiling dispatch time information.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_amd_profiling_dispatch_time_t {
    /// Dispatch packet processing start time.
    pub start: u64,
    /// Dispatch packet completion time.
    pub end: u64,
}
zeroed_default!(hsa_amd_profiling_dispatch_time_t);

/// Structure containing profiling async copy time information.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_amd_profiling_async_copy_time_t {
    /// Async copy processing start time.
    pub start: u64,
    /// Async copy completion time.
    pub end: u64,
}
zeroed_default!(hsa_amd_profiling_async_copy_time_t);

/// Signal attribute flags.
pub type hsa_amd_signal_attribute_t = u32;

/// Signal will only be consumed by AMD GPUs. Limits signal consumption to AMD GPU agents only.
/// Ignored if `num_consumers` is not zero (all agents).
pub const HSA_AMD_SIGNAL_AMD_GPU_ONLY: hsa_amd_signal_attribute_t = 1;
/// Signal may be used for interprocess communication. IPC signals can be read, written, and
/// waited on from any process. Profiling using an IPC enabled signal is only supported in a
/// single process at a time. Producing profiling data in one process and consuming it in
/// another process is undefined.
pub const HSA_AMD_SIGNAL_IPC: hsa_amd_signal_attribute_t = 2;

/// Asyncronous signal handler function type.
pub type hsa_amd_signal_handler =
    Option<unsafe extern "C" fn(value: hsa_signal_value_t, arg: *mut c_void) -> bool>;

/// Memory segments associated with a memory pool.
pub type hsa_amd_segment_t = u32;

/// Global segment. Used to hold data that is shared by all agents.
pub const HSA_AMD_SEGMENT_GLOBAL: hsa_amd_segment_t = 0;
/// Read-only segment. Used to hold data that remains constant during the execution of a kernel.
pub const HSA_AMD_SEGMENT_READONLY: hsa_amd_segment_t = 1;
/// Private segment. Used to hold data that is local to a single work-item.
pub const HSA_AMD_SEGMENT_PRIVATE: hsa_amd_segment_t = 2;
/// Group segment. Used to hold data that is shared by the work-items of a work-group.
pub const HSA_AMD_SEGMENT_GROUP: hsa_amd_segment_t = 3;

/// A memory pool encapsulates physical storage on an agent along with a memory access model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_amd_memory_pool_t {
    /// Opaque handle.
    pub handle: u64,
}
zeroed_default!(hsa_amd_memory_pool_t);

pub type hsa_amd_memory_pool_global_flag_t = u32;

/// The application can use allocations in the memory pool to store kernel arguments, and
/// provide the values for the kernarg segment of a kernel dispatch.
pub const HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT: hsa_amd_memory_pool_global_flag_t = 1;
/// Updates to memory in this pool conform to HSA memory consistency model. If this flag is set,
/// then `HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED` must not be set.
pub const HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED: hsa_amd_memory_pool_global_flag_t = 2;
/// Writes to memory in this pool can be performed by a single agent at a time.
pub const HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED: hsa_amd_memory_pool_global_flag_t = 4;

/// Memory pool features.
pub type hsa_amd_memory_pool_info_t = u32;

/// Segment where the memory pool resides. The type of this attribute is `hsa_amd_segment_t`.
pub const HSA_AMD_MEMORY_POOL_INFO_SEGMENT: hsa_amd_memory_pool_info_t = 0;
/// Flag mask. The value of this attribute is undefined if the value of
/// `HSA_AMD_MEMORY_POOL_INFO_SEGMENT` is not `HSA_AMD_SEGMENT_GLOBAL`. The type of this
/// attribute is uint32_t, a bit-field of `hsa_amd_memory_pool_global_flag_t` values.
pub const HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS: hsa_amd_memory_pool_info_t = 1;
/// Size of this pool, in bytes. The type of this attribute is size_t.
pub const HSA_AMD_MEMORY_POOL_INFO_SIZE: hsa_amd_memory_pool_info_t = 2;
/// Indicates whether memory in this pool can be allocated using `hsa_amd_memory_pool_allocate`.
/// The type of this attribute is bool.
pub const HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED: hsa_amd_memory_pool_info_t = 5;
/// Allocation granularity of buffers allocated by `hsa_amd_memory_pool_allocate` in this memory
/// pool. The size of a buffer allocated in this pool is a multiple of the value of this
/// attribute. The value of this attribute is only defined if
/// `HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED` is true for this pool. The type of this
/// attribute is size_t.
pub const HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE: hsa_amd_memory_pool_info_t = 6;
/// Alignment of buffers allocated by `hsa_amd_memory_pool_allocate` in this pool. The value of
/// this attribute is only defined if `HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED` is true
/// for this pool, and must be a power of 2. The type of this attribute is size_t.
pub const HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT: hsa_amd_memory_pool_info_t = 7;
/// This memory_pool can be made directly accessible by all the agents in the system
/// (`hsa_amd_agent_memory_pool_get_info` does not return
/// `HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED` for any agent). The type of this attribute is
/// bool.
pub const HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL: hsa_amd_memory_pool_info_t = 15;
/// Maximum aggregate allocation size in bytes. The type of this attribute is size_t.
pub const HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE: hsa_amd_memory_pool_info_t = 16;

/// \[Provisional API\] Pitched memory descriptor. All elements must be 4 byte aligned. Pitch
/// and slice are in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_pitched_ptr_t {
    pub base: *mut c_void,
    pub pitch: usize,
    pub slice: usize,
}
zeroed_default!(hsa_pitched_ptr_t);

/// \[Provisional API\] Copy direction flag.
pub type hsa_amd_copy_direction_t = u32;

pub const hsaHostToHost: hsa_amd_copy_direction_t = 0;
pub const hsaHostToDevice: hsa_amd_copy_direction_t = 1;
pub const hsaDeviceToHost: hsa_amd_copy_direction_t = 2;
pub const hsaDeviceToDevice: hsa_amd_copy_direction_t = 3;

/// Type of accesses to a memory pool from a given agent.
pub type hsa_amd_memory_pool_access_t = u32;

/// The agent cannot directly access any buffer in the memory pool.
pub const HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED: hsa_amd_memory_pool_access_t = 0;
/// The agent can directly access a buffer located in the pool; the application does not need to
/// invoke `hsa_amd_agents_allow_access`.
pub const HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT: hsa_amd_memory_pool_access_t = 1;
/// The agent can directly access a buffer located in the pool, but only if the application has
/// previously requested access to that buffer using `hsa_amd_agents_allow_access`.
pub const HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT: hsa_amd_memory_pool_access_t = 2;

/// Properties of the relationship between an agent a memory pool.
pub type hsa_amd_link_info_type_t = u32;

/// Hyper-transport bus type.
pub const HSA_AMD_LINK_INFO_TYPE_HYPERTRANSPORT: hsa_amd_link_info_type_t = 0;
/// QPI bus type.
pub const HSA_AMD_LINK_INFO_TYPE_QPI: hsa_amd_link_info_type_t = 1;
/// PCIe bus type.
pub const HSA_AMD_LINK_INFO_TYPE_PCIE: hsa_amd_link_info_type_t = 2;
/// Infiniband bus type.
pub const HSA_AMD_LINK_INFO_TYPE_INFINBAND: hsa_amd_link_info_type_t = 3;
/// xGMI link type.
pub const HSA_AMD_LINK_INFO_TYPE_XGMI: hsa_amd_link_info_type_t = 4;

/// Link properties when accessing the memory pool from the specified agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_amd_memory_pool_link_info_t {
    /// Minimum transfer latency (rounded to ns).
    pub min_latency: u32,
    /// Maximum transfer latency (rounded to ns).
    pub max_latency: u32,
    /// Minimum link interface bandwidth in MB/s.
    pub min_bandwidth: u32,
    /// Maximum link interface bandwidth in MB/s.
    pub max_bandwidth: u32,
    /// Support for 32-bit atomic transactions.
    pub atomic_support_32bit: bool,
    /// Support for 64-bit atomic transactions.
    pub atomic_support_64bit: bool,
    /// Support for cache coherent transactions.
    pub coherent_support: bool,
    /// The type of bus/link.
    pub link_type: hsa_amd_link_info_type_t,
    /// NUMA distance of memory pool relative to querying agent.
    pub numa_distance: u32,
}
zeroed_default!(hsa_amd_memory_pool_link_info_t);

/// Properties of the relationship between an agent a memory pool.
pub type hsa_amd_agent_memory_pool_info_t = u32;

/// Access to buffers located in the memory pool. The type of this attribute is
/// `hsa_amd_memory_pool_access_t`.
pub const HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS: hsa_amd_agent_memory_pool_info_t = 0;
/// Number of links to hop when accessing the memory pool from the specified agent. The value of
/// this attribute is zero if the memory pool is associated with the agent, or if the access
/// type is HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED. The type of this attribute is uint32_t.
pub const HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS: hsa_amd_agent_memory_pool_info_t = 1;
/// Details of each link hop when accessing the memory pool starting from the specified agent.
/// The type of this attribute is an array size of HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS
/// with each element containing `hsa_amd_memory_pool_link_info_t`.
pub const HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO: hsa_amd_agent_memory_pool_info_t = 2;

/// Encodes an opaque vendor specific image format. The length of data depends on the underlying
/// format. This structure must not be copied as its true length can not be determined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_amd_image_descriptor_t {
    /// Version number of the descriptor.
    pub version: u32,
    /// Vendor and device PCI IDs for the format as VENDOR_ID<<16|DEVICE_ID.
    pub deviceID: u32,
    /// Start of vendor specific data.
    pub data: [u32; 1],
}
zeroed_default!(hsa_amd_image_descriptor_t);

/// Denotes the type of memory in a pointer info query.
pub type hsa_amd_pointer_type_t = u32;

/// Memory is not known to the HSA driver. Unallocated or unlocked system memory.
pub const HSA_EXT_POINTER_TYPE_UNKNOWN: hsa_amd_pointer_type_t = 0;
/// Memory was allocated with an HSA memory allocator.
pub const HSA_EXT_POINTER_TYPE_HSA: hsa_amd_pointer_type_t = 1;
/// System memory which has been locked for use with an HSA agent.
pub const HSA_EXT_POINTER_TYPE_LOCKED: hsa_amd_pointer_type_t = 2;
/// Memory originated in a graphics component and is shared with ROCr.
pub const HSA_EXT_POINTER_TYPE_GRAPHICS: hsa_amd_pointer_type_t = 3;
/// Memory has been shared with the local process via ROCr IPC APIs.
pub const HSA_EXT_POINTER_TYPE_IPC: hsa_amd_pointer_type_t = 4;

/// Describes a memory allocation known to ROCr. Within a ROCr major version this structure can
/// only grow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_amd_pointer_info_t {
    /// Size in bytes of this structure. Used for version control within a major ROCr revision. Set
    /// to sizeof(hsa_amd_pointer_t) prior to calling hsa_amd_pointer_info. If the runtime supports
    /// an older version of pointer info then size will be smaller on return. Members starting after
    /// the return value of size will not be updated by hsa_amd_pointer_info.
    pub size: u32,
    /// The type of allocation referenced.
    pub type_: hsa_amd_pointer_type_t,
    /// Base address at which non-host agents may access the allocation.
    pub agentBaseAddress: *mut c_void,
    /// Base address at which the host agent may access the allocation.
    pub hostBaseAddress: *mut c_void,
    /// Size of the allocation.
    pub sizeInBytes: usize,
    /// Application provided value.
    pub userData: *mut c_void,
    /// Reports an agent which "owns" (ie has preferred access to) the pool in which the allocation
    /// was made. When multiple agents share equal access to a pool (ex: multiple CPU agents, or
    /// multi-die GPU boards) any such agent may be returned.
    pub agentOwner: hsa_agent_t,
    /// Contains a bitfield of hsa_amd_memory_pool_global_flag_t values. Reports the effective
    /// global flags bitmask for the allocation. This field is not meaningful if the type of the
    /// allocation is HSA_EXT_POINTER_TYPE_UNKNOWN.
    pub global_flags: u32,
}
zeroed_default!(hsa_amd_pointer_info_t);

/// 256-bit process independent identifier for a ROCr shared memory allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_amd_ipc_memory_t {
    pub handle: [u32; 8],
}
zeroed_default!(hsa_amd_ipc_memory_t);

/// 256-bit process independent identifier for a ROCr IPC signal.
pub type hsa_amd_ipc_signal_t = hsa_amd_ipc_memory_t;

/// GPU system event type.
pub type hsa_amd_event_type_t = u32;

/// AMD GPU memory fault.
pub const HSA_AMD_GPU_MEMORY_FAULT_EVENT: hsa_amd_event_type_t = 0;

/// Flags denoting the cause of a memory fault.
pub type hsa_amd_memory_fault_reason_t = i32;

/// Page not present or supervisor privilege.
pub const HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT: hsa_amd_memory_fault_reason_t = 1;
/// Write access to a read-only page.
pub const HSA_AMD_MEMORY_FAULT_READ_ONLY: hsa_amd_memory_fault_reason_t = 2;
/// Execute access to a page marked NX.
pub const HSA_AMD_MEMORY_FAULT_NX: hsa_amd_memory_fault_reason_t = 4;
/// GPU attempted access to a host only page.
pub const HSA_AMD_MEMORY_FAULT_HOST_ONLY: hsa_amd_memory_fault_reason_t = 8;
/// DRAM ECC failure.
pub const HSA_AMD_MEMORY_FAULT_DRAMECC: hsa_amd_memory_fault_reason_t = 0x10;
/// Can't determine the exact fault address.
pub const HSA_AMD_MEMORY_FAULT_IMPRECISE: hsa_amd_memory_fault_reason_t = 0x20;
/// SRAM ECC failure (ie registers, no fault address).
pub const HSA_AMD_MEMORY_FAULT_SRAMECC: hsa_amd_memory_fault_reason_t = 0x40;
/// GPU reset following unspecified hang.
pub const HSA_AMD_MEMORY_FAULT_HANG: hsa_amd_memory_fault_reason_t = -2147483648;

/// AMD GPU memory fault event data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_amd_gpu_memory_fault_info_t {
    /// The agent where the memory fault occurred.
    pub agent: hsa_agent_t,
    /// Virtual address accessed.
    pub virtual_address: u64,
    /// Bit field encoding the memory access failure reasons. There could be multiple bits set for
    /// one fault. Bits are defined in hsa_amd_memory_fault_reason_t.
    pub fault_reason_mask: u32,
}
zeroed_default!(hsa_amd_gpu_memory_fault_info_t);

/// AMD GPU event data passed to event handler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_amd_event_t {
    /// The event type.
    pub event_type: hsa_amd_event_type_t,
    /// The memory fault info, only valid when `event_type` is HSA_AMD_GPU_MEMORY_FAULT_EVENT.
    pub memory_fault: hsa_amd_gpu_memory_fault_info_t,
}
zeroed_default!(hsa_amd_event_t);

/// C `hsa_amd_system_event_callback_t`.
pub type hsa_amd_system_event_callback_t =
    Option<unsafe extern "C" fn(event: *const hsa_amd_event_t, data: *mut c_void) -> hsa_status_t>;

/// Per-queue dispatch and wavefront scheduling priority.
pub type hsa_amd_queue_priority_t = u32;

/// Below normal/high priority compute and all graphics.
pub const HSA_AMD_QUEUE_PRIORITY_LOW: hsa_amd_queue_priority_t = 0;
/// Above low priority compute, below high priority compute and all graphics.
pub const HSA_AMD_QUEUE_PRIORITY_NORMAL: hsa_amd_queue_priority_t = 1;
/// Above low/normal priority compute and all graphics.
pub const HSA_AMD_QUEUE_PRIORITY_HIGH: hsa_amd_queue_priority_t = 2;

/// Deallocation notifier function type.
pub type hsa_amd_deallocation_callback_t =
    Option<unsafe extern "C" fn(ptr: *mut c_void, user_data: *mut c_void)>;

pub type hsa_amd_svm_model_t = u32;

/// Updates to memory with this attribute conform to HSA memory consistency model.
pub const HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED: hsa_amd_svm_model_t = 0;
/// Writes to memory with this attribute can be performed by a single agent at a time.
pub const HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED: hsa_amd_svm_model_t = 1;
/// Memory region queried contains subregions with both HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED
/// and HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED attributes.
pub const HSA_AMD_SVM_GLOBAL_FLAG_INDETERMINATE: hsa_amd_svm_model_t = 2;

pub type hsa_amd_svm_attribute_t = u32;

/// Memory model attribute. Type of this attribute is hsa_amd_svm_model_t.
pub const HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG: hsa_amd_svm_attribute_t = 0;
/// Marks the range read only. This allows multiple physical copies to be placed local to each
/// accessing device. Type of this attribute is bool.
pub const HSA_AMD_SVM_ATTRIB_READ_ONLY: hsa_amd_svm_attribute_t = 1;
/// Automatic migrations should attempt to keep the memory within the xgmi hive containing
/// accessible agents. Type of this attribute is bool.
pub const HSA_AMD_SVM_ATTRIB_HIVE_LOCAL: hsa_amd_svm_attribute_t = 2;
/// Page granularity to migrate at once. Page granularity is specified as log2(page_count). Type
/// of this attribute is uint64_t.
pub const HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY: hsa_amd_svm_attribute_t = 3;
/// Physical location to prefer when automatic migration occurs. Set to the null agent handle
/// (handle == 0) to indicate there is no preferred location. Type of this attribute is
/// hsa_agent_t.
pub const HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION: hsa_amd_svm_attribute_t = 4;
/// This attribute can not be used in `hsa_amd_svm_attributes_set` (see
/// `hsa_amd_svm_prefetch_async`). Queries the physical location of most recent prefetch
/// command. If the prefetch location has not been set or is not uniform across the address
/// range then returned hsa_agent_t`handle` will be 0. Querying this attribute will return the
/// destination agent of the most recent `hsa_amd_svm_prefetch_async` targeting the address
/// range. If multiple async prefetches have been issued targeting the region and the most
/// recently issued prefetch has completed then the query will return the location of the most
/// recently completed prefetch. Type of this attribute is hsa_agent_t.
pub const HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION: hsa_amd_svm_attribute_t = 5;
/// Optimizes with the anticipation that the majority of operations to the range will be read
/// operations. Type of this attribute is bool.
pub const HSA_AMD_SVM_ATTRIB_READ_MOSTLY: hsa_amd_svm_attribute_t = 6;
/// This attribute can not be used in `hsa_amd_svm_attributes_get`. Enables an agent for access
/// to the range. Access may incur a page fault and associated memory migration. Either this or
/// HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE is required prior to SVM access if
/// HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT is false. Type of this attribute is
/// hsa_agent_t.
pub const HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE: hsa_amd_svm_attribute_t = 0x200;
/// This attribute can not be used in `hsa_amd_svm_attributes_get`. Enables an agent for access
/// to the range without page faults. Access will not incur a page fault and will not cause
/// access based migration. and associated memory migration. Either this or
/// HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE is required prior to SVM access if
/// HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT is false. Type of this attribute is
/// hsa_agent_t.
pub const HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE: hsa_amd_svm_attribute_t = 0x201;
/// This attribute can not be used in `hsa_amd_svm_attributes_get`. Denies an agent access to
/// the memory range. Access will cause a terminal segfault. Type of this attribute is
/// hsa_agent_t.
pub const HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS: hsa_amd_svm_attribute_t = 0x202;
/// This attribute can not be used in `hsa_amd_svm_attributes_set`. Returns the access attribute
/// associated with the agent. The agent to query must be set in the attribute value field. The
/// attribute enum will be replaced with the agent's current access attribute for the address
/// range. TODO: Clarify KFD return value for non-uniform access attribute. Type of this
/// attribute is hsa_agent_t.
pub const HSA_AMD_SVM_ATTRIB_ACCESS_QUERY: hsa_amd_svm_attribute_t = 0x203;

/// List type for hsa_amd_svm_attributes_set/get.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_amd_svm_attribute_pair_t {
    /// hsa_amd_svm_attribute_t value.
    pub attribute: u64,
    /// Attribute value. Bit values should be interpreted according to the type given in the
    /// associated attribute description.
    pub value: u64,
}
zeroed_default!(hsa_amd_svm_attribute_pair_t);
