//! Types of `hsa.h` (Debian libhsa-runtime-dev 5.2): HSA 1.x core runtime API: status codes,
//! system/agent/region/queue/signal/executable enums and handles, and the AQL packet formats.
//!
//! Generated from the header by the ABI generator (see the crate docs), then checked
//! field by field against C by `tests/layout.rs`.

use core::ffi::{c_int, c_void};

/// C `#define HSA_VERSION_1_0 1`.
pub const HSA_VERSION_1_0: u32 = 1;

/// Status codes.
pub type hsa_status_t = u32;

/// The function has been executed successfully.
pub const HSA_STATUS_SUCCESS: hsa_status_t = 0x0;
/// A traversal over a list of elements has been interrupted by the application before
/// completing.
pub const HSA_STATUS_INFO_BREAK: hsa_status_t = 0x1;
/// A generic error has occurred.
pub const HSA_STATUS_ERROR: hsa_status_t = 0x1000;
/// One of the actual arguments does not meet a precondition stated in the documentation of the
/// corresponding formal argument.
pub const HSA_STATUS_ERROR_INVALID_ARGUMENT: hsa_status_t = 0x1001;
/// The requested queue creation is not valid.
pub const HSA_STATUS_ERROR_INVALID_QUEUE_CREATION: hsa_status_t = 0x1002;
/// The requested allocation is not valid.
pub const HSA_STATUS_ERROR_INVALID_ALLOCATION: hsa_status_t = 0x1003;
/// The agent is invalid.
pub const HSA_STATUS_ERROR_INVALID_AGENT: hsa_status_t = 0x1004;
/// The memory region is invalid.
pub const HSA_STATUS_ERROR_INVALID_REGION: hsa_status_t = 0x1005;
/// The signal is invalid.
pub const HSA_STATUS_ERROR_INVALID_SIGNAL: hsa_status_t = 0x1006;
/// The queue is invalid.
pub const HSA_STATUS_ERROR_INVALID_QUEUE: hsa_status_t = 0x1007;
/// The HSA runtime failed to allocate the necessary resources. This error may also occur when
/// the HSA runtime needs to spawn threads or create internal OS-specific events.
pub const HSA_STATUS_ERROR_OUT_OF_RESOURCES: hsa_status_t = 0x1008;
/// The AQL packet is malformed.
pub const HSA_STATUS_ERROR_INVALID_PACKET_FORMAT: hsa_status_t = 0x1009;
/// An error has been detected while releasing a resource.
pub const HSA_STATUS_ERROR_RESOURCE_FREE: hsa_status_t = 0x100A;
/// An API other than `hsa_init` has been invoked while the reference count of the HSA runtime
/// is 0.
pub const HSA_STATUS_ERROR_NOT_INITIALIZED: hsa_status_t = 0x100B;
/// The maximum reference count for the object has been reached.
pub const HSA_STATUS_ERROR_REFCOUNT_OVERFLOW: hsa_status_t = 0x100C;
/// The arguments passed to a functions are not compatible.
pub const HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS: hsa_status_t = 0x100D;
/// The index is invalid.
pub const HSA_STATUS_ERROR_INVALID_INDEX: hsa_status_t = 0x100E;
/// The instruction set architecture is invalid.
pub const HSA_STATUS_ERROR_INVALID_ISA: hsa_status_t = 0x100F;
/// The instruction set architecture name is invalid.
pub const HSA_STATUS_ERROR_INVALID_ISA_NAME: hsa_status_t = 0x1017;
/// The code object is invalid.
pub const HSA_STATUS_ERROR_INVALID_CODE_OBJECT: hsa_status_t = 0x1010;
/// The executable is invalid.
pub const HSA_STATUS_ERROR_INVALID_EXECUTABLE: hsa_status_t = 0x1011;
/// The executable is frozen.
pub const HSA_STATUS_ERROR_FROZEN_EXECUTABLE: hsa_status_t = 0x1012;
/// There is no symbol with the given name.
pub const HSA_STATUS_ERROR_INVALID_SYMBOL_NAME: hsa_status_t = 0x1013;
/// The variable is already defined.
pub const HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED: hsa_status_t = 0x1014;
/// The variable is undefined.
pub const HSA_STATUS_ERROR_VARIABLE_UNDEFINED: hsa_status_t = 0x1015;
/// An HSAIL operation resulted in a hardware exception.
pub const HSA_STATUS_ERROR_EXCEPTION: hsa_status_t = 0x1016;
/// The code object symbol is invalid.
pub const HSA_STATUS_ERROR_INVALID_CODE_SYMBOL: hsa_status_t = 0x1018;
/// The executable symbol is invalid.
pub const HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL: hsa_status_t = 0x1019;
/// The file descriptor is invalid.
pub const HSA_STATUS_ERROR_INVALID_FILE: hsa_status_t = 0x1020;
/// The code object reader is invalid.
pub const HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER: hsa_status_t = 0x1021;
/// The cache is invalid.
pub const HSA_STATUS_ERROR_INVALID_CACHE: hsa_status_t = 0x1022;
/// The wavefront is invalid.
pub const HSA_STATUS_ERROR_INVALID_WAVEFRONT: hsa_status_t = 0x1023;
/// The signal group is invalid.
pub const HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP: hsa_status_t = 0x1024;
/// The HSA runtime is not in the configuration state.
pub const HSA_STATUS_ERROR_INVALID_RUNTIME_STATE: hsa_status_t = 0x1025;
/// The queue received an error that may require process termination.
pub const HSA_STATUS_ERROR_FATAL: hsa_status_t = 0x1026;

/// Three-dimensional coordinate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_dim3_t {
    /// X dimension.
    pub x: u32,
    /// Y dimension.
    pub y: u32,
    /// Z dimension.
    pub z: u32,
}
zeroed_default!(hsa_dim3_t);

/// Access permissions.
pub type hsa_access_permission_t = u32;

/// Read-only access.
pub const HSA_ACCESS_PERMISSION_RO: hsa_access_permission_t = 1;
/// Write-only access.
pub const HSA_ACCESS_PERMISSION_WO: hsa_access_permission_t = 2;
/// Read and write access.
pub const HSA_ACCESS_PERMISSION_RW: hsa_access_permission_t = 3;

/// POSIX file descriptor.
pub type hsa_file_t = c_int;

/// Endianness. A convention used to interpret the bytes making up a data word.
pub type hsa_endianness_t = u32;

/// The least significant byte is stored in the smallest address.
pub const HSA_ENDIANNESS_LITTLE: hsa_endianness_t = 0;
/// The most significant byte is stored in the smallest address.
pub const HSA_ENDIANNESS_BIG: hsa_endianness_t = 1;

/// Machine model. A machine model determines the size of certain data types in HSA runtime and
/// an agent.
pub type hsa_machine_model_t = u32;

/// Small machine model. Addresses use 32 bits.
pub const HSA_MACHINE_MODEL_SMALL: hsa_machine_model_t = 0;
/// Large machine model. Addresses use 64 bits.
pub const HSA_MACHINE_MODEL_LARGE: hsa_machine_model_t = 1;

/// Profile. A profile indicates a particular level of feature support. For example, in the base
/// profile the application must use the HSA runtime allocator to reserve shared virtual memory,
/// while in the full profile any host pointer can be shared across all the agents.
pub type hsa_profile_t = u32;

/// Base profile.
pub const HSA_PROFILE_BASE: hsa_profile_t = 0;
/// Full profile.
pub const HSA_PROFILE_FULL: hsa_profile_t = 1;

/// System attributes.
pub type hsa_system_info_t = u32;

/// Major version of the HSA runtime specification supported by the implementation. The type of
/// this attribute is uint16_t.
pub const HSA_SYSTEM_INFO_VERSION_MAJOR: hsa_system_info_t = 0;
/// Minor version of the HSA runtime specification supported by the implementation. The type of
/// this attribute is uint16_t.
pub const HSA_SYSTEM_INFO_VERSION_MINOR: hsa_system_info_t = 1;
/// Current timestamp. The value of this attribute monotonically increases at a constant rate.
/// The type of this attribute is uint64_t.
pub const HSA_SYSTEM_INFO_TIMESTAMP: hsa_system_info_t = 2;
/// Timestamp value increase rate, in Hz. The timestamp (clock) frequency is in the range
/// 1-400MHz. The type of this attribute is uint64_t.
pub const HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY: hsa_system_info_t = 3;
/// Maximum duration of a signal wait operation. Expressed as a count based on the timestamp
/// frequency. The type of this attribute is uint64_t.
pub const HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT: hsa_system_info_t = 4;
/// Endianness of the system. The type of this attribute is `hsa_endianness_t`.
pub const HSA_SYSTEM_INFO_ENDIANNESS: hsa_system_info_t = 5;
/// Machine model supported by the HSA runtime. The type of this attribute is
/// `hsa_machine_model_t`.
pub const HSA_SYSTEM_INFO_MACHINE_MODEL: hsa_system_info_t = 6;
/// Bit-mask indicating which extensions are supported by the implementation. An extension with
/// an ID of `i` is supported if the bit at position `i` is set. The type of this attribute is
/// uint8_t\[128\].
pub const HSA_SYSTEM_INFO_EXTENSIONS: hsa_system_info_t = 7;
/// String containing the ROCr build identifier.
pub const HSA_AMD_SYSTEM_INFO_BUILD_VERSION: hsa_system_info_t = 0x200;
/// Returns true if hsa_amd_svm_* APIs are supported by the driver. The type of this attribute
/// is bool.
pub const HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED: hsa_system_info_t = 0x201;
/// TODO: Should this be per Agent?
pub const HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT: hsa_system_info_t = 0x202;

/// HSA extensions.
pub type hsa_extension_t = u32;

/// Finalizer extension.
pub const HSA_EXTENSION_FINALIZER: hsa_extension_t = 0;
/// Images extension.
pub const HSA_EXTENSION_IMAGES: hsa_extension_t = 1;
/// Performance counter extension.
pub const HSA_EXTENSION_PERFORMANCE_COUNTERS: hsa_extension_t = 2;
/// Profiling events extension.
pub const HSA_EXTENSION_PROFILING_EVENTS: hsa_extension_t = 3;
/// Extension count.
pub const HSA_EXTENSION_STD_LAST: hsa_extension_t = 3;
/// First AMD extension number.
pub const HSA_AMD_FIRST_EXTENSION: hsa_extension_t = 0x200;
/// Profiler extension.
pub const HSA_EXTENSION_AMD_PROFILER: hsa_extension_t = 0x200;
/// Loader extension.
pub const HSA_EXTENSION_AMD_LOADER: hsa_extension_t = 0x201;
/// AqlProfile extension.
pub const HSA_EXTENSION_AMD_AQLPROFILE: hsa_extension_t = 0x202;
/// Last AMD extension.
pub const HSA_AMD_LAST_EXTENSION: hsa_extension_t = 0x202;

/// Struct containing an opaque handle to an agent, a device that participates in the HSA memory
/// model. An agent can submit AQL packets for execution, and may also accept AQL packets for
/// execution (agent dispatch packets or kernel dispatch packets launching HSAIL-derived
/// binaries).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_agent_t {
    /// Opaque handle. Two handles reference the same object of the enclosing type if and only if
    /// they are equal.
    pub handle: u64,
}
zeroed_default!(hsa_agent_t);

/// Agent features.
pub type hsa_agent_feature_t = u32;

/// The agent supports AQL packets of kernel dispatch type. If this feature is enabled, the
/// agent is also a kernel agent.
pub const HSA_AGENT_FEATURE_KERNEL_DISPATCH: hsa_agent_feature_t = 1;
/// The agent supports AQL packets of agent dispatch type.
pub const HSA_AGENT_FEATURE_AGENT_DISPATCH: hsa_agent_feature_t = 2;

/// Hardware device type.
pub type hsa_device_type_t = u32;

/// CPU device.
pub const HSA_DEVICE_TYPE_CPU: hsa_device_type_t = 0;
/// GPU device.
pub const HSA_DEVICE_TYPE_GPU: hsa_device_type_t = 1;
/// DSP device.
pub const HSA_DEVICE_TYPE_DSP: hsa_device_type_t = 2;

/// Default floating-point rounding mode.
pub type hsa_default_float_rounding_mode_t = u32;

/// Use a default floating-point rounding mode specified elsewhere.
pub const HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT: hsa_default_float_rounding_mode_t = 0;
/// Operations that specify the default floating-point mode are rounded to zero by default.
pub const HSA_DEFAULT_FLOAT_ROUNDING_MODE_ZERO: hsa_default_float_rounding_mode_t = 1;
/// Operations that specify the default floating-point mode are rounded to the nearest
/// representable number and that ties should be broken by selecting the value with an even
/// least significant bit.
pub const HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR: hsa_default_float_rounding_mode_t = 2;

/// Agent attributes.
pub type hsa_agent_info_t = u32;

/// Agent name. The type of this attribute is a NUL-terminated char\[64\]. The name must be at
/// most 63 characters long (not including the NUL terminator) and all array elements not used
/// for the name must be NUL.
pub const HSA_AGENT_INFO_NAME: hsa_agent_info_t = 0;
/// Name of vendor. The type of this attribute is a NUL-terminated char\[64\]. The name must be
/// at most 63 characters long (not including the NUL terminator) and all array elements not
/// used for the name must be NUL.
pub const HSA_AGENT_INFO_VENDOR_NAME: hsa_agent_info_t = 1;
/// Agent capability. The type of this attribute is `hsa_agent_feature_t`.
pub const HSA_AGENT_INFO_FEATURE: hsa_agent_info_t = 2;
pub const HSA_AGENT_INFO_MACHINE_MODEL: hsa_agent_info_t = 3;
pub const HSA_AGENT_INFO_PROFILE: hsa_agent_info_t = 4;
pub const HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE: hsa_agent_info_t = 5;
pub const HSA_AGENT_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES: hsa_agent_info_t = 23;
pub const HSA_AGENT_INFO_FAST_F16_OPERATION: hsa_agent_info_t = 24;
pub const HSA_AGENT_INFO_WAVEFRONT_SIZE: hsa_agent_info_t = 6;
pub const HSA_AGENT_INFO_WORKGROUP_MAX_DIM: hsa_agent_info_t = 7;
pub const HSA_AGENT_INFO_WORKGROUP_MAX_SIZE: hsa_agent_info_t = 8;
pub const HSA_AGENT_INFO_GRID_MAX_DIM: hsa_agent_info_t = 9;
pub const HSA_AGENT_INFO_GRID_MAX_SIZE: hsa_agent_info_t = 10;
pub const HSA_AGENT_INFO_FBARRIER_MAX_SIZE: hsa_agent_info_t = 11;
pub const HSA_AGENT_INFO_QUEUES_MAX: hsa_agent_info_t = 12;
/// Minimum number of packets that a queue created in the agent can hold. Must be a power of 2
/// greater than 0. Must not exceed the value of `HSA_AGENT_INFO_QUEUE_MAX_SIZE`. The type of
/// this attribute is uint32_t.
pub const HSA_AGENT_INFO_QUEUE_MIN_SIZE: hsa_agent_info_t = 13;
/// Maximum number of packets that a queue created in the agent can hold. Must be a power of 2
/// greater than 0. The type of this attribute is uint32_t.
pub const HSA_AGENT_INFO_QUEUE_MAX_SIZE: hsa_agent_info_t = 14;
/// Type of a queue created in the agent. The type of this attribute is `hsa_queue_type32_t`.
pub const HSA_AGENT_INFO_QUEUE_TYPE: hsa_agent_info_t = 15;
pub const HSA_AGENT_INFO_NODE: hsa_agent_info_t = 16;
/// Type of hardware device associated with the agent. The type of this attribute is
/// `hsa_device_type_t`.
pub const HSA_AGENT_INFO_DEVICE: hsa_agent_info_t = 17;
pub const HSA_AGENT_INFO_CACHE_SIZE: hsa_agent_info_t = 18;
pub const HSA_AGENT_INFO_ISA: hsa_agent_info_t = 19;
/// Bit-mask indicating which extensions are supported by the agent. An extension with an ID of
/// `i` is supported if the bit at position `i` is set. The type of this attribute is
/// uint8_t\[128\].
pub const HSA_AGENT_INFO_EXTENSIONS: hsa_agent_info_t = 20;
/// Major version of the HSA runtime specification supported by the agent. The type of this
/// attribute is uint16_t.
pub const HSA_AGENT_INFO_VERSION_MAJOR: hsa_agent_info_t = 21;
/// Minor version of the HSA runtime specification supported by the agent. The type of this
/// attribute is uint16_t.
pub const HSA_AGENT_INFO_VERSION_MINOR: hsa_agent_info_t = 22;

/// Exception policies applied in the presence of hardware exceptions.
pub type hsa_exception_policy_t = u32;

/// If a hardware exception is detected, a work-item signals an exception.
pub const HSA_EXCEPTION_POLICY_BREAK: hsa_exception_policy_t = 1;
/// If a hardware exception is detected, a hardware status bit is set.
pub const HSA_EXCEPTION_POLICY_DETECT: hsa_exception_policy_t = 2;

/// Cache handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_cache_t {
    /// Opaque handle. Two handles reference the same object of the enclosing type if and only if
    /// they are equal.
    pub handle: u64,
}
zeroed_default!(hsa_cache_t);

/// Cache attributes.
pub type hsa_cache_info_t = u32;

/// The length of the cache name in bytes, not including the NUL terminator. The type of this
/// attribute is uint32_t.
pub const HSA_CACHE_INFO_NAME_LENGTH: hsa_cache_info_t = 0;
/// Human-readable description. The type of this attribute is a NUL-terminated character array
/// with the length equal to the value of `HSA_CACHE_INFO_NAME_LENGTH` attribute.
pub const HSA_CACHE_INFO_NAME: hsa_cache_info_t = 1;
/// Cache level. A L1 cache must return a value of 1, a L2 must return a value of 2, and so on.
/// The type of this attribute is uint8_t.
pub const HSA_CACHE_INFO_LEVEL: hsa_cache_info_t = 2;
/// Cache size, in bytes. A value of 0 indicates that there is no size information available.
/// The type of this attribute is uint32_t.
pub const HSA_CACHE_INFO_SIZE: hsa_cache_info_t = 3;

/// Signal handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_signal_t {
    /// Opaque handle. Two handles reference the same object of the enclosing type if and only if
    /// they are equal. The value 0 is reserved.
    pub handle: u64,
}
zeroed_default!(hsa_signal_t);

/// C `hsa_signal_value_t`.
pub type hsa_signal_value_t = i64;

/// Wait condition operator.
pub type hsa_signal_condition_t = u32;

/// The two operands are equal.
pub const HSA_SIGNAL_CONDITION_EQ: hsa_signal_condition_t = 0;
/// The two operands are not equal.
pub const HSA_SIGNAL_CONDITION_NE: hsa_signal_condition_t = 1;
/// The first operand is less than the second operand.
pub const HSA_SIGNAL_CONDITION_LT: hsa_signal_condition_t = 2;
/// The first operand is greater than or equal to the second operand.
pub const HSA_SIGNAL_CONDITION_GTE: hsa_signal_condition_t = 3;

/// State of the application thread during a signal wait.
pub type hsa_wait_state_t = u32;

/// The application thread may be rescheduled while waiting on the signal.
pub const HSA_WAIT_STATE_BLOCKED: hsa_wait_state_t = 0;
/// The application thread stays active while waiting on a signal.
pub const HSA_WAIT_STATE_ACTIVE: hsa_wait_state_t = 1;

/// Group of signals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_signal_group_t {
    /// Opaque handle. Two handles reference the same object of the enclosing type if and only if
    /// they are equal.
    pub handle: u64,
}
zeroed_default!(hsa_signal_group_t);

/// A memory region represents a block of virtual memory with certain properties. For example,
/// the HSA runtime represents fine-grained memory in the global segment using a region. A
/// region might be associated with more than one agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_region_t {
    /// Opaque handle. Two handles reference the same object of the enclosing type if and only if
    /// they are equal.
    pub handle: u64,
}
zeroed_default!(hsa_region_t);

/// Queue type. Intended to be used for dynamic queue protocol determination.
pub type hsa_queue_type_t = u32;

/// Queue supports multiple producers. Use of multiproducer queue mechanics is required.
pub const HSA_QUEUE_TYPE_MULTI: hsa_queue_type_t = 0;
/// Queue only supports a single producer. In some scenarios, the application may want to limit
/// the submission of AQL packets to a single agent. Queues that support a single producer may
/// be more efficient than queues supporting multiple producers. Use of multiproducer queue
/// mechanics is not supported.
pub const HSA_QUEUE_TYPE_SINGLE: hsa_queue_type_t = 1;
/// Queue supports multiple producers and cooperative dispatches. Cooperative dispatches are
/// able to use GWS synchronization. Queues of this type may be limited in number. The runtime
/// may return the same queue to serve multiple `hsa_queue_create` calls when this type is
/// given. Callers must inspect the returned queue to discover queue size. Queues of this type
/// are reference counted and require a matching number of `hsa_queue_destroy` calls to release.
/// Use of multiproducer queue mechanics is required. See
/// `HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES` to query agent support for this type.
pub const HSA_QUEUE_TYPE_COOPERATIVE: hsa_queue_type_t = 2;

/// A fixed-size type used to represent `hsa_queue_type_t` constants.
pub type hsa_queue_type32_t = u32;

/// Queue features.
pub type hsa_queue_feature_t = u32;

/// Queue supports kernel dispatch packets.
pub const HSA_QUEUE_FEATURE_KERNEL_DISPATCH: hsa_queue_feature_t = 1;
/// Queue supports agent dispatch packets.
pub const HSA_QUEUE_FEATURE_AGENT_DISPATCH: hsa_queue_feature_t = 2;

/// User mode queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_queue_t {
    /// Queue type.
    pub type_: hsa_queue_type32_t,
    /// Queue features mask. This is a bit-field of `hsa_queue_feature_t` values. Applications
    /// should ignore any unknown set bits.
    pub features: u32,
    pub base_address: *mut c_void,
    /// Signal object used by the application to indicate the ID of a packet that is ready to be
    /// processed. The HSA runtime manages the doorbell signal. If the application tries to replace
    /// or destroy this signal, the behavior is undefined.
    pub doorbell_signal: hsa_signal_t,
    /// Maximum number of packets the queue can hold. Must be a power of 2.
    pub size: u32,
    /// Reserved. Must be 0.
    pub reserved1: u32,
    /// Queue identifier, which is unique over the lifetime of the application.
    pub id: u64,
}
zeroed_default!(hsa_queue_t);

/// Packet type.
pub type hsa_packet_type_t = u32;

/// Vendor-specific packet.
pub const HSA_PACKET_TYPE_VENDOR_SPECIFIC: hsa_packet_type_t = 0;
/// The packet has been processed in the past, but has not been reassigned to the packet
/// processor. A packet processor must not process a packet of this type. All queues support
/// this packet type.
pub const HSA_PACKET_TYPE_INVALID: hsa_packet_type_t = 1;
/// Packet used by agents for dispatching jobs to kernel agents. Not all queues support packets
/// of this type (see `hsa_queue_feature_t`).
pub const HSA_PACKET_TYPE_KERNEL_DISPATCH: hsa_packet_type_t = 2;
/// Packet used by agents to delay processing of subsequent packets, and to express complex
/// dependencies between multiple packets. All queues support this packet type.
pub const HSA_PACKET_TYPE_BARRIER_AND: hsa_packet_type_t = 3;
/// Packet used by agents for dispatching jobs to agents. Not all queues support packets of this
/// type (see `hsa_queue_feature_t`).
pub const HSA_PACKET_TYPE_AGENT_DISPATCH: hsa_packet_type_t = 4;
/// Packet used by agents to delay processing of subsequent packets, and to express complex
/// dependencies between multiple packets. All queues support this packet type.
pub const HSA_PACKET_TYPE_BARRIER_OR: hsa_packet_type_t = 5;

/// Scope of the memory fence operation associated with a packet.
pub type hsa_fence_scope_t = u32;

/// No scope (no fence is applied). The packet relies on external fences to ensure visibility of
/// memory updates.
pub const HSA_FENCE_SCOPE_NONE: hsa_fence_scope_t = 0;
/// The fence is applied with agent scope for the global segment.
pub const HSA_FENCE_SCOPE_AGENT: hsa_fence_scope_t = 1;
/// The fence is applied across both agent and system scope for the global segment.
pub const HSA_FENCE_SCOPE_SYSTEM: hsa_fence_scope_t = 2;

/// Sub-fields of the `header` field that is present in any AQL packet. The offset (with respect
/// to the address of `header`) of a sub-field is identical to its enumeration constant. The
/// width of each sub-field is determined by the corresponding value in
/// `hsa_packet_header_width_t`. The offset and the width are expressed in bits.
pub type hsa_packet_header_t = u32;

/// Packet type. The value of this sub-field must be one of `hsa_packet_type_t`. If the type is
/// `HSA_PACKET_TYPE_VENDOR_SPECIFIC`, the packet layout is vendor-specific.
pub const HSA_PACKET_HEADER_TYPE: hsa_packet_header_t = 0;
/// Barrier bit. If the barrier bit is set, the processing of the current packet only launches
/// when all preceding packets (within the same queue) are complete.
pub const HSA_PACKET_HEADER_BARRIER: hsa_packet_header_t = 8;
/// Acquire fence scope. The value of this sub-field determines the scope and type of the memory
/// fence operation applied before the packet enters the active phase. An acquire fence ensures
/// that any subsequent global segment or image loads by any unit of execution that belongs to a
/// dispatch that has not yet entered the active phase on any queue of the same kernel agent,
/// sees any data previously released at the scopes specified by the acquire fence. The value of
/// this sub-field must be one of `hsa_fence_scope_t`.
pub const HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE: hsa_packet_header_t = 9;
pub const HSA_PACKET_HEADER_ACQUIRE_FENCE_SCOPE: hsa_packet_header_t = 9;
/// Release fence scope, The value of this sub-field determines the scope and type of the memory
/// fence operation applied after kernel completion but before the packet is completed. A
/// release fence makes any global segment or image data that was stored by any unit of
/// execution that belonged to a dispatch that has completed the active phase on any queue of
/// the same kernel agent visible in all the scopes specified by the release fence. The value of
/// this sub-field must be one of `hsa_fence_scope_t`.
pub const HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE: hsa_packet_header_t = 11;
pub const HSA_PACKET_HEADER_RELEASE_FENCE_SCOPE: hsa_packet_header_t = 11;

/// Width (in bits) of the sub-fields in `hsa_packet_header_t`.
pub type hsa_packet_header_width_t = u32;

pub const HSA_PACKET_HEADER_WIDTH_TYPE: hsa_packet_header_width_t = 8;
pub const HSA_PACKET_HEADER_WIDTH_BARRIER: hsa_packet_header_width_t = 1;
pub const HSA_PACKET_HEADER_WIDTH_SCACQUIRE_FENCE_SCOPE: hsa_packet_header_width_t = 2;
pub const HSA_PACKET_HEADER_WIDTH_ACQUIRE_FENCE_SCOPE: hsa_packet_header_width_t = 2;
pub const HSA_PACKET_HEADER_WIDTH_SCRELEASE_FENCE_SCOPE: hsa_packet_header_width_t = 2;
pub const HSA_PACKET_HEADER_WIDTH_RELEASE_FENCE_SCOPE: hsa_packet_header_width_t = 2;

/// Sub-fields of the kernel dispatch packet `setup` field. The offset (with respect to the
/// address of `setup`) of a sub-field is identical to its enumeration constant. The width of
/// each sub-field is determined by the corresponding value in
/// `hsa_kernel_dispatch_packet_setup_width_t`. The offset and the width are expressed in bits.
pub type hsa_kernel_dispatch_packet_setup_t = u32;

/// Number of dimensions of the grid. Valid values are 1, 2, or 3.
pub const HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS: hsa_kernel_dispatch_packet_setup_t = 0;

/// Width (in bits) of the sub-fields in `hsa_kernel_dispatch_packet_setup_t`.
pub type hsa_kernel_dispatch_packet_setup_width_t = u32;

pub const HSA_KERNEL_DISPATCH_PACKET_SETUP_WIDTH_DIMENSIONS:
    hsa_kernel_dispatch_packet_setup_width_t = 2;

/// AQL kernel dispatch packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_kernel_dispatch_packet_t {
    /// Packet header. Used to configure multiple packet parameters such as the packet type. The
    /// parameters are described by `hsa_packet_header_t`.
    pub header: u16,
    /// Dispatch setup parameters. Used to configure kernel dispatch parameters such as the number
    /// of dimensions in the grid. The parameters are described by
    /// `hsa_kernel_dispatch_packet_setup_t`.
    pub setup: u16,
    /// X dimension of work-group, in work-items. Must be greater than 0.
    pub workgroup_size_x: u16,
    /// Y dimension of work-group, in work-items. Must be greater than 0. If the grid has 1
    /// dimension, the only valid value is 1.
    pub workgroup_size_y: u16,
    /// Z dimension of work-group, in work-items. Must be greater than 0. If the grid has 1 or 2
    /// dimensions, the only valid value is 1.
    pub workgroup_size_z: u16,
    /// Reserved. Must be 0.
    pub reserved0: u16,
    /// X dimension of grid, in work-items. Must be greater than 0. Must not be smaller than
    /// `workgroup_size_x`.
    pub grid_size_x: u32,
    /// Y dimension of grid, in work-items. Must be greater than 0. If the grid has 1 dimension, the
    /// only valid value is 1. Must not be smaller than `workgroup_size_y`.
    pub grid_size_y: u32,
    /// Z dimension of grid, in work-items. Must be greater than 0. If the grid has 1 or 2
    /// dimensions, the only valid value is 1. Must not be smaller than `workgroup_size_z`.
    pub grid_size_z: u32,
    /// Size in bytes of private memory allocation request (per work-item).
    pub private_segment_size: u32,
    /// Size in bytes of group memory allocation request (per work-group). Must not be less than the
    /// sum of the group memory used by the kernel (and the functions it calls directly or
    /// indirectly) and the dynamically allocated group segment variables.
    pub group_segment_size: u32,
    /// Opaque handle to a code object that includes an implementation-defined executable code for
    /// the kernel.
    pub kernel_object: u64,
    pub kernarg_address: *mut c_void,
    /// Reserved. Must be 0.
    pub reserved2: u64,
    /// Signal used to indicate completion of the job. The application can use the special signal
    /// handle 0 to indicate that no signal is used.
    pub completion_signal: hsa_signal_t,
}
zeroed_default!(hsa_kernel_dispatch_packet_t);

/// Agent dispatch packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_agent_dispatch_packet_t {
    /// Packet header. Used to configure multiple packet parameters such as the packet type. The
    /// parameters are described by `hsa_packet_header_t`.
    pub header: u16,
    /// Application-defined function to be performed by the destination agent.
    pub type_: u16,
    /// Reserved. Must be 0.
    pub reserved0: u32,
    pub return_address: *mut c_void,
    /// Function arguments.
    pub arg: [u64; 4],
    /// Reserved. Must be 0.
    pub reserved2: u64,
    /// Signal used to indicate completion of the job. The application can use the special signal
    /// handle 0 to indicate that no signal is used.
    pub completion_signal: hsa_signal_t,
}
zeroed_default!(hsa_agent_dispatch_packet_t);

/// Barrier-AND packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_barrier_and_packet_t {
    /// Packet header. Used to configure multiple packet parameters such as the packet type. The
    /// parameters are described by `hsa_packet_header_t`.
    pub header: u16,
    /// Reserved. Must be 0.
    pub reserved0: u16,
    /// Reserved. Must be 0.
    pub reserved1: u32,
    /// Array of dependent signal objects. Signals with a handle value of 0 are allowed and are
    /// interpreted by the packet processor as satisfied dependencies.
    pub dep_signal: [hsa_signal_t; 5],
    /// Reserved. Must be 0.
    pub reserved2: u64,
    /// Signal used to indicate completion of the job. The application can use the special signal
    /// handle 0 to indicate that no signal is used.
    pub completion_signal: hsa_signal_t,
}
zeroed_default!(hsa_barrier_and_packet_t);

/// Barrier-OR packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_barrier_or_packet_t {
    /// Packet header. Used to configure multiple packet parameters such as the packet type. The
    /// parameters are described by `hsa_packet_header_t`.
    pub header: u16,
    /// Reserved. Must be 0.
    pub reserved0: u16,
    /// Reserved. Must be 0.
    pub reserved1: u32,
    /// Array of dependent signal objects. Signals with a handle value of 0 are allowed and are
    /// interpreted by the packet processor as dependencies not satisfied.
    pub dep_signal: [hsa_signal_t; 5],
    /// Reserved. Must be 0.
    pub reserved2: u64,
    /// Signal used to indicate completion of the job. The application can use the special signal
    /// handle 0 to indicate that no signal is used.
    pub completion_signal: hsa_signal_t,
}
zeroed_default!(hsa_barrier_or_packet_t);

/// Memory segments associated with a region.
pub type hsa_region_segment_t = u32;

/// Global segment. Used to hold data that is shared by all agents.
pub const HSA_REGION_SEGMENT_GLOBAL: hsa_region_segment_t = 0;
/// Read-only segment. Used to hold data that remains constant during the execution of a kernel.
pub const HSA_REGION_SEGMENT_READONLY: hsa_region_segment_t = 1;
/// Private segment. Used to hold data that is local to a single work-item.
pub const HSA_REGION_SEGMENT_PRIVATE: hsa_region_segment_t = 2;
/// Group segment. Used to hold data that is shared by the work-items of a work-group.
pub const HSA_REGION_SEGMENT_GROUP: hsa_region_segment_t = 3;
/// Kernarg segment. Used to store kernel arguments.
pub const HSA_REGION_SEGMENT_KERNARG: hsa_region_segment_t = 4;

/// Global region flags.
pub type hsa_region_global_flag_t = u32;

/// The application can use memory in the region to store kernel arguments, and provide the
/// values for the kernarg segment of a kernel dispatch. If this flag is set, then
/// `HSA_REGION_GLOBAL_FLAG_FINE_GRAINED` must be set.
pub const HSA_REGION_GLOBAL_FLAG_KERNARG: hsa_region_global_flag_t = 1;
/// Updates to memory in this region are immediately visible to all the agents under the terms
/// of the HSA memory model. If this flag is set, then `HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED`
/// must not be set.
pub const HSA_REGION_GLOBAL_FLAG_FINE_GRAINED: hsa_region_global_flag_t = 2;
/// Updates to memory in this region can be performed by a single agent at a time. If a
/// different agent in the system is allowed to access the region, the application must
/// explicitely invoke `hsa_memory_assign_agent` in order to transfer ownership to that agent
/// for a particular buffer.
pub const HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED: hsa_region_global_flag_t = 4;

/// Attributes of a memory region.
pub type hsa_region_info_t = u32;

/// Segment where memory in the region can be used. The type of this attribute is
/// `hsa_region_segment_t`.
pub const HSA_REGION_INFO_SEGMENT: hsa_region_info_t = 0;
/// Flag mask. The value of this attribute is undefined if the value of
/// `HSA_REGION_INFO_SEGMENT` is not `HSA_REGION_SEGMENT_GLOBAL`. The type of this attribute is
/// uint32_t, a bit-field of `hsa_region_global_flag_t` values.
pub const HSA_REGION_INFO_GLOBAL_FLAGS: hsa_region_info_t = 1;
/// Size of this region, in bytes. The type of this attribute is size_t.
pub const HSA_REGION_INFO_SIZE: hsa_region_info_t = 2;
/// Maximum allocation size in this region, in bytes. Must not exceed the value of
/// `HSA_REGION_INFO_SIZE`. The type of this attribute is size_t.
pub const HSA_REGION_INFO_ALLOC_MAX_SIZE: hsa_region_info_t = 4;
/// Maximum size (per work-group) of private memory that can be requested for a specific kernel
/// dispatch. Must be at least 65536 bytes. The type of this attribute is uint32_t. The value of
/// this attribute is undefined if the region is not in the private segment.
pub const HSA_REGION_INFO_ALLOC_MAX_PRIVATE_WORKGROUP_SIZE: hsa_region_info_t = 8;
/// Indicates whether memory in this region can be allocated using `hsa_memory_allocate`. The
/// type of this attribute is bool.
pub const HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED: hsa_region_info_t = 5;
/// Allocation granularity of buffers allocated by `hsa_memory_allocate` in this region. The
/// size of a buffer allocated in this region is a multiple of the value of this attribute. The
/// value of this attribute is only defined if `HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED` is true
/// for this region. The type of this attribute is size_t.
pub const HSA_REGION_INFO_RUNTIME_ALLOC_GRANULE: hsa_region_info_t = 6;
/// Alignment of buffers allocated by `hsa_memory_allocate` in this region. The value of this
/// attribute is only defined if `HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED` is true for this
/// region, and must be a power of 2. The type of this attribute is size_t.
pub const HSA_REGION_INFO_RUNTIME_ALLOC_ALIGNMENT: hsa_region_info_t = 7;

/// Instruction set architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_isa_t {
    /// Opaque handle. Two handles reference the same object of the enclosing type if and only if
    /// they are equal.
    pub handle: u64,
}
zeroed_default!(hsa_isa_t);

/// Instruction set architecture attributes.
pub type hsa_isa_info_t = u32;

/// The length of the ISA name in bytes, not including the NUL terminator. The type of this
/// attribute is uint32_t.
pub const HSA_ISA_INFO_NAME_LENGTH: hsa_isa_info_t = 0;
/// Human-readable description. The type of this attribute is character array with the length
/// equal to the value of `HSA_ISA_INFO_NAME_LENGTH` attribute.
pub const HSA_ISA_INFO_NAME: hsa_isa_info_t = 1;
pub const HSA_ISA_INFO_CALL_CONVENTION_COUNT: hsa_isa_info_t = 2;
pub const HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE: hsa_isa_info_t = 3;
pub const HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT: hsa_isa_info_t = 4;
/// Machine models supported by the instruction set architecture. The type of this attribute is
/// a bool\[2\]. If the ISA supports the small machine model, the element at index
/// `HSA_MACHINE_MODEL_SMALL` is true. If the ISA supports the large model, the element at index
/// `HSA_MACHINE_MODEL_LARGE` is true.
pub const HSA_ISA_INFO_MACHINE_MODELS: hsa_isa_info_t = 5;
/// Profiles supported by the instruction set architecture. The type of this attribute is a
/// bool\[2\]. If the ISA supports the base profile, the element at index `HSA_PROFILE_BASE` is
/// true. If the ISA supports the full profile, the element at index `HSA_PROFILE_FULL` is true.
pub const HSA_ISA_INFO_PROFILES: hsa_isa_info_t = 6;
/// Default floating-point rounding modes supported by the instruction set architecture. The
/// type of this attribute is a bool\[3\]. The value at a given index is true if the
/// corresponding rounding mode in `hsa_default_float_rounding_mode_t` is supported. At least
/// one default mode has to be supported.
pub const HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES: hsa_isa_info_t = 7;
/// Default floating-point rounding modes supported by the instruction set architecture in the
/// Base profile. The type of this attribute is a bool\[3\]. The value at a given index is true
/// if the corresponding rounding mode in `hsa_default_float_rounding_mode_t` is supported. The
/// value at index HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT must be false. At least one of the
/// values at indexes `HSA_DEFAULT_FLOAT_ROUNDING_MODE_ZERO` or
/// HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR must be true.
pub const HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES: hsa_isa_info_t = 8;
/// Flag indicating that the f16 HSAIL operation is at least as fast as the f32 operation in the
/// instruction set architecture. The type of this attribute is bool.
pub const HSA_ISA_INFO_FAST_F16_OPERATION: hsa_isa_info_t = 9;
/// Maximum number of work-items of each dimension of a work-group. Each maximum must be greater
/// than 0. No maximum can exceed the value of `HSA_ISA_INFO_WORKGROUP_MAX_SIZE`. The type of
/// this attribute is uint16_t\[3\].
pub const HSA_ISA_INFO_WORKGROUP_MAX_DIM: hsa_isa_info_t = 12;
/// Maximum total number of work-items in a work-group. The type of this attribute is uint32_t.
pub const HSA_ISA_INFO_WORKGROUP_MAX_SIZE: hsa_isa_info_t = 13;
/// Maximum number of work-items of each dimension of a grid. Each maximum must be greater than
/// 0, and must not be smaller than the corresponding value in `HSA_ISA_INFO_WORKGROUP_MAX_DIM`.
/// No maximum can exceed the value of `HSA_ISA_INFO_GRID_MAX_SIZE`. The type of this attribute
/// is `hsa_dim3_t`.
pub const HSA_ISA_INFO_GRID_MAX_DIM: hsa_isa_info_t = 14;
/// Maximum total number of work-items in a grid. The type of this attribute is uint64_t.
pub const HSA_ISA_INFO_GRID_MAX_SIZE: hsa_isa_info_t = 16;
/// Maximum number of fbarriers per work-group. Must be at least 32. The type of this attribute
/// is uint32_t.
pub const HSA_ISA_INFO_FBARRIER_MAX_SIZE: hsa_isa_info_t = 17;

/// Floating-point types.
pub type hsa_fp_type_t = u32;

/// 16-bit floating-point type.
pub const HSA_FP_TYPE_16: hsa_fp_type_t = 1;
/// 32-bit floating-point type.
pub const HSA_FP_TYPE_32: hsa_fp_type_t = 2;
/// 64-bit floating-point type.
pub const HSA_FP_TYPE_64: hsa_fp_type_t = 4;

/// Flush to zero modes.
pub type hsa_flush_mode_t = u32;

/// Flush to zero.
pub const HSA_FLUSH_MODE_FTZ: hsa_flush_mode_t = 1;
/// Do not flush to zero.
pub const HSA_FLUSH_MODE_NON_FTZ: hsa_flush_mode_t = 2;

/// Round methods.
pub type hsa_round_method_t = u32;

/// Single round method.
pub const HSA_ROUND_METHOD_SINGLE: hsa_round_method_t = 1;
/// Double round method.
pub const HSA_ROUND_METHOD_DOUBLE: hsa_round_method_t = 2;

/// Wavefront handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_wavefront_t {
    /// Opaque handle. Two handles reference the same object of the enclosing type if and only if
    /// they are equal.
    pub handle: u64,
}
zeroed_default!(hsa_wavefront_t);

/// Wavefront attributes.
pub type hsa_wavefront_info_t = u32;

/// Number of work-items in the wavefront. Must be a power of 2 in the range \[1,256\]. The type
/// of this attribute is uint32_t.
pub const HSA_WAVEFRONT_INFO_SIZE: hsa_wavefront_info_t = 0;

/// Code object reader handle. A code object reader is used to load a code object from file
/// (when created using `hsa_code_object_reader_create_from_file`), or from memory (if created
/// using `hsa_code_object_reader_create_from_memory`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_code_object_reader_t {
    /// Opaque handle. Two handles reference the same object of the enclosing type if and only if
    /// they are equal.
    pub handle: u64,
}
zeroed_default!(hsa_code_object_reader_t);

/// Struct containing an opaque handle to an executable, which contains ISA for finalized
/// kernels and indirect functions together with the allocated global or readonly segment
/// variables they reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_executable_t {
    /// Opaque handle. Two handles reference the same object of the enclosing type if and only if
    /// they are equal.
    pub handle: u64,
}
zeroed_default!(hsa_executable_t);

/// Executable state.
pub type hsa_executable_state_t = u32;

/// Executable state, which allows the user to load code objects and define external variables.
/// Variable addresses, kernel code handles, and indirect function code handles are not
/// available in query operations until the executable is frozen (zero always returned).
pub const HSA_EXECUTABLE_STATE_UNFROZEN: hsa_executable_state_t = 0;
/// Executable state, which allows the user to query variable addresses, kernel code handles,
/// and indirect function code handles using query operations. Loading new code objects, as well
/// as defining external variables, is not allowed in this state.
pub const HSA_EXECUTABLE_STATE_FROZEN: hsa_executable_state_t = 1;

/// Loaded code object handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_loaded_code_object_t {
    /// Opaque handle. Two handles reference the same object of the enclosing type if and only if
    /// they are equal.
    pub handle: u64,
}
zeroed_default!(hsa_loaded_code_object_t);

/// Executable attributes.
pub type hsa_executable_info_t = u32;

/// Profile this executable is created for. The type of this attribute is `hsa_profile_t`.
pub const HSA_EXECUTABLE_INFO_PROFILE: hsa_executable_info_t = 1;
/// Executable state. The type of this attribute is `hsa_executable_state_t`.
pub const HSA_EXECUTABLE_INFO_STATE: hsa_executable_info_t = 2;
/// Default floating-point rounding mode specified when executable was created. The type of this
/// attribute is `hsa_default_float_rounding_mode_t`.
pub const HSA_EXECUTABLE_INFO_DEFAULT_FLOAT_ROUNDING_MODE: hsa_executable_info_t = 3;

/// Executable symbol handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_executable_symbol_t {
    /// Opaque handle. Two handles reference the same object of the enclosing type if and only if
    /// they are equal.
    pub handle: u64,
}
zeroed_default!(hsa_executable_symbol_t);

/// Symbol type.
pub type hsa_symbol_kind_t = u32;

/// Variable.
pub const HSA_SYMBOL_KIND_VARIABLE: hsa_symbol_kind_t = 0;
/// Kernel.
pub const HSA_SYMBOL_KIND_KERNEL: hsa_symbol_kind_t = 1;
/// Indirect function.
pub const HSA_SYMBOL_KIND_INDIRECT_FUNCTION: hsa_symbol_kind_t = 2;

/// Linkage type of a symbol.
pub type hsa_symbol_linkage_t = u32;

/// Module linkage.
pub const HSA_SYMBOL_LINKAGE_MODULE: hsa_symbol_linkage_t = 0;
/// Program linkage.
pub const HSA_SYMBOL_LINKAGE_PROGRAM: hsa_symbol_linkage_t = 1;

/// Allocation type of a variable.
pub type hsa_variable_allocation_t = u32;

/// Agent allocation.
pub const HSA_VARIABLE_ALLOCATION_AGENT: hsa_variable_allocation_t = 0;
/// Program allocation.
pub const HSA_VARIABLE_ALLOCATION_PROGRAM: hsa_variable_allocation_t = 1;

/// Memory segment associated with a variable.
pub type hsa_variable_segment_t = u32;

/// Global memory segment.
pub const HSA_VARIABLE_SEGMENT_GLOBAL: hsa_variable_segment_t = 0;
/// Readonly memory segment.
pub const HSA_VARIABLE_SEGMENT_READONLY: hsa_variable_segment_t = 1;

/// Executable symbol attributes.
pub type hsa_executable_symbol_info_t = u32;

/// The kind of the symbol. The type of this attribute is `hsa_symbol_kind_t`.
pub const HSA_EXECUTABLE_SYMBOL_INFO_TYPE: hsa_executable_symbol_info_t = 0;
/// The length of the symbol name in bytes, not including the NUL terminator. The type of this
/// attribute is uint32_t.
pub const HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH: hsa_executable_symbol_info_t = 1;
/// The name of the symbol. The type of this attribute is character array with the length equal
/// to the value of `HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH` attribute.
pub const HSA_EXECUTABLE_SYMBOL_INFO_NAME: hsa_executable_symbol_info_t = 2;
pub const HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME_LENGTH: hsa_executable_symbol_info_t = 3;
pub const HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME: hsa_executable_symbol_info_t = 4;
pub const HSA_EXECUTABLE_SYMBOL_INFO_AGENT: hsa_executable_symbol_info_t = 20;
/// The address of the variable. The value of this attribute is undefined if the symbol is not a
/// variable. The type of this attribute is uint64_t.
pub const HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS: hsa_executable_symbol_info_t = 21;
/// The linkage kind of the symbol. The type of this attribute is `hsa_symbol_linkage_t`.
pub const HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE: hsa_executable_symbol_info_t = 5;
/// Indicates whether the symbol corresponds to a definition. The type of this attribute is
/// bool.
pub const HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION: hsa_executable_symbol_info_t = 17;
pub const HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION: hsa_executable_symbol_info_t = 6;
pub const HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT: hsa_executable_symbol_info_t = 7;
pub const HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALIGNMENT: hsa_executable_symbol_info_t = 8;
pub const HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE: hsa_executable_symbol_info_t = 9;
pub const HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST: hsa_executable_symbol_info_t = 10;
/// Kernel object handle, used in the kernel dispatch packet. The value of this attribute is
/// undefined if the symbol is not a kernel. The type of this attribute is uint64_t.
pub const HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT: hsa_executable_symbol_info_t = 22;
/// Size of kernarg segment memory that is required to hold the values of the kernel arguments,
/// in bytes. Must be a multiple of 16. The value of this attribute is undefined if the symbol
/// is not a kernel. The type of this attribute is uint32_t.
pub const HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE: hsa_executable_symbol_info_t = 11;
/// Alignment (in bytes) of the buffer used to pass arguments to the kernel, which is the
/// maximum of 16 and the maximum alignment of any of the kernel arguments. The value of this
/// attribute is undefined if the symbol is not a kernel. The type of this attribute is
/// uint32_t.
pub const HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT:
    hsa_executable_symbol_info_t = 12;
/// Size of static group segment memory required by the kernel (per work-group), in bytes. The
/// value of this attribute is undefined if the symbol is not a kernel. The type of this
/// attribute is uint32_t.
pub const HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE: hsa_executable_symbol_info_t = 13;
/// Size of static private, spill, and arg segment memory required by this kernel (per
/// work-item), in bytes. The value of this attribute is undefined if the symbol is not a
/// kernel. The type of this attribute is uint32_t.
pub const HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE: hsa_executable_symbol_info_t = 14;
/// Dynamic callstack flag. The value of this attribute is undefined if the symbol is not a
/// kernel. The type of this attribute is bool.
pub const HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK: hsa_executable_symbol_info_t = 15;
pub const HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_CALL_CONVENTION: hsa_executable_symbol_info_t = 18;
/// Indirect function object handle. The value of this attribute is undefined if the symbol is
/// not an indirect function, or the associated agent does not support the Full Profile. The
/// type of this attribute depends on the machine model: the type is uint32_t for small machine
/// model, and uint64_t for large model.
pub const HSA_EXECUTABLE_SYMBOL_INFO_INDIRECT_FUNCTION_OBJECT: hsa_executable_symbol_info_t = 23;
pub const HSA_EXECUTABLE_SYMBOL_INFO_INDIRECT_FUNCTION_CALL_CONVENTION:
    hsa_executable_symbol_info_t = 16;

/// Struct containing an opaque handle to a code object, which contains ISA for finalized
/// kernels and indirect functions together with information about the global or readonly
/// segment variables they reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_code_object_t {
    /// Opaque handle. Two handles reference the same object of the enclosing type if and only if
    /// they are equal.
    pub handle: u64,
}
zeroed_default!(hsa_code_object_t);

/// Application data handle that is passed to the serialization and deserialization functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_callback_data_t {
    /// Opaque handle.
    pub handle: u64,
}
zeroed_default!(hsa_callback_data_t);

/// Code object type.
pub type hsa_code_object_type_t = u32;

/// Produces code object that contains ISA for all kernels and indirect functions in HSA source.
pub const HSA_CODE_OBJECT_TYPE_PROGRAM: hsa_code_object_type_t = 0;

/// Code object attributes.
pub type hsa_code_object_info_t = u32;

/// The version of the code object. The type of this attribute is a NUL-terminated char\[64\].
/// The name must be at most 63 characters long (not including the NUL terminator) and all array
/// elements not used for the name must be NUL.
pub const HSA_CODE_OBJECT_INFO_VERSION: hsa_code_object_info_t = 0;
/// Type of code object. The type of this attribute is `hsa_code_object_type_t`.
pub const HSA_CODE_OBJECT_INFO_TYPE: hsa_code_object_info_t = 1;
/// Instruction set architecture this code object is produced for. The type of this attribute is
/// `hsa_isa_t`.
pub const HSA_CODE_OBJECT_INFO_ISA: hsa_code_object_info_t = 2;
/// Machine model this code object is produced for. The type of this attribute is
/// `hsa_machine_model_t`.
pub const HSA_CODE_OBJECT_INFO_MACHINE_MODEL: hsa_code_object_info_t = 3;
/// Profile this code object is produced for. The type of this attribute is `hsa_profile_t`.
pub const HSA_CODE_OBJECT_INFO_PROFILE: hsa_code_object_info_t = 4;
/// Default floating-point rounding mode used when the code object is produced. The type of this
/// attribute is `hsa_default_float_rounding_mode_t`.
pub const HSA_CODE_OBJECT_INFO_DEFAULT_FLOAT_ROUNDING_MODE: hsa_code_object_info_t = 5;

/// Code object symbol handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_code_symbol_t {
    /// Opaque handle. Two handles reference the same object of the enclosing type if and only if
    /// they are equal.
    pub handle: u64,
}
zeroed_default!(hsa_code_symbol_t);

/// Code object symbol attributes.
pub type hsa_code_symbol_info_t = u32;

/// The type of the symbol. The type of this attribute is `hsa_symbol_kind_t`.
pub const HSA_CODE_SYMBOL_INFO_TYPE: hsa_code_symbol_info_t = 0;
/// The length of the symbol name in bytes, not including the NUL terminator. The type of this
/// attribute is uint32_t.
pub const HSA_CODE_SYMBOL_INFO_NAME_LENGTH: hsa_code_symbol_info_t = 1;
/// The name of the symbol. The type of this attribute is character array with the length equal
/// to the value of `HSA_CODE_SYMBOL_INFO_NAME_LENGTH` attribute.
pub const HSA_CODE_SYMBOL_INFO_NAME: hsa_code_symbol_info_t = 2;
/// The length of the module name in bytes (not including the NUL terminator) to which this
/// symbol belongs if this symbol has module linkage, otherwise 0 is returned. The type of this
/// attribute is uint32_t.
pub const HSA_CODE_SYMBOL_INFO_MODULE_NAME_LENGTH: hsa_code_symbol_info_t = 3;
/// The module name to which this symbol belongs if this symbol has module linkage, otherwise an
/// empty string is returned. The type of this attribute is character array with the length
/// equal to the value of `HSA_CODE_SYMBOL_INFO_MODULE_NAME_LENGTH` attribute.
pub const HSA_CODE_SYMBOL_INFO_MODULE_NAME: hsa_code_symbol_info_t = 4;
/// The linkage kind of the symbol. The type of this attribute is `hsa_symbol_linkage_t`.
pub const HSA_CODE_SYMBOL_INFO_LINKAGE: hsa_code_symbol_info_t = 5;
/// Indicates whether the symbol corresponds to a definition. The type of this attribute is
/// bool.
pub const HSA_CODE_SYMBOL_INFO_IS_DEFINITION: hsa_code_symbol_info_t = 17;
/// The allocation kind of the variable. The value of this attribute is undefined if the symbol
/// is not a variable. The type of this attribute is `hsa_variable_allocation_t`.
pub const HSA_CODE_SYMBOL_INFO_VARIABLE_ALLOCATION: hsa_code_symbol_info_t = 6;
/// The segment kind of the variable. The value of this attribute is undefined if the symbol is
/// not a variable. The type of this attribute is `hsa_variable_segment_t`.
pub const HSA_CODE_SYMBOL_INFO_VARIABLE_SEGMENT: hsa_code_symbol_info_t = 7;
/// Alignment of the symbol in memory. The value of this attribute is undefined if the symbol is
/// not a variable. The type of this attribute is uint32_t.
pub const HSA_CODE_SYMBOL_INFO_VARIABLE_ALIGNMENT: hsa_code_symbol_info_t = 8;
/// Size of the variable. The value of this attribute is undefined if the symbol is not a
/// variable. The type of this attribute is uint32_t.
pub const HSA_CODE_SYMBOL_INFO_VARIABLE_SIZE: hsa_code_symbol_info_t = 9;
/// Indicates whether the variable is constant. The value of this attribute is undefined if the
/// symbol is not a variable. The type of this attribute is bool.
pub const HSA_CODE_SYMBOL_INFO_VARIABLE_IS_CONST: hsa_code_symbol_info_t = 10;
/// Size of kernarg segment memory that is required to hold the values of the kernel arguments,
/// in bytes. Must be a multiple of 16. The value of this attribute is undefined if the symbol
/// is not a kernel. The type of this attribute is uint32_t.
pub const HSA_CODE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE: hsa_code_symbol_info_t = 11;
/// Alignment (in bytes) of the buffer used to pass arguments to the kernel, which is the
/// maximum of 16 and the maximum alignment of any of the kernel arguments. The value of this
/// attribute is undefined if the symbol is not a kernel. The type of this attribute is
/// uint32_t.
pub const HSA_CODE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT: hsa_code_symbol_info_t = 12;
/// Size of static group segment memory required by the kernel (per work-group), in bytes. The
/// value of this attribute is undefined if the symbol is not a kernel. The type of this
/// attribute is uint32_t.
pub const HSA_CODE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE: hsa_code_symbol_info_t = 13;
/// Size of static private, spill, and arg segment memory required by this kernel (per
/// work-item), in bytes. The value of this attribute is undefined if the symbol is not a
/// kernel. The type of this attribute is uint32_t.
pub const HSA_CODE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE: hsa_code_symbol_info_t = 14;
/// Dynamic callstack flag. The value of this attribute is undefined if the symbol is not a
/// kernel. The type of this attribute is bool.
pub const HSA_CODE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK: hsa_code_symbol_info_t = 15;
/// Call convention of the kernel. The value of this attribute is undefined if the symbol is not
/// a kernel. The type of this attribute is uint32_t.
pub const HSA_CODE_SYMBOL_INFO_KERNEL_CALL_CONVENTION: hsa_code_symbol_info_t = 18;
/// Call convention of the indirect function. The value of this attribute is undefined if the
/// symbol is not an indirect function. The type of this attribute is uint32_t.
pub const HSA_CODE_SYMBOL_INFO_INDIRECT_FUNCTION_CALL_CONVENTION: hsa_code_symbol_info_t = 16;
