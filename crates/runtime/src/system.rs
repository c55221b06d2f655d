//! System attributes, status strings, extensions and the system timestamp.
//!
//! The system timestamp runs at 1 GHz: it is the host's monotonic clock in nanoseconds since the
//! runtime's epoch (the first timestamp taken in the process). Everything that records time
//! (signal start/end timestamps, profiling, the timeline) uses [`timestamp`], so all agree.

#[path = "trace.rs"]
pub mod trace;

use crate::Error;
use crate::topology::hsa_names::*;
use std::ffi::CStr;
use std::sync::OnceLock;
use std::time::Instant;

/// Ticks per second of [`timestamp`] (HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY).
pub const TIMESTAMP_FREQUENCY: u64 = 1_000_000_000;
/// HSA specification version the runtime implements (HSA_SYSTEM_INFO_VERSION_*).
pub const VERSION: (u16, u16) = (1, 1);
/// Reported by HSA_AMD_SYSTEM_INFO_BUILD_VERSION.
pub const BUILD_VERSION: &CStr = c"softhsa 0.1.0";

/// The system timestamp in ticks of [`TIMESTAMP_FREQUENCY`] (nanoseconds), monotonic.
pub fn timestamp() -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    let epoch = *EPOCH.get_or_init(Instant::now);
    // Start at 1 so that 0 can mean "no timestamp recorded".
    epoch.elapsed().as_nanos() as u64 + 1
}

/// Records a failed API call in the trace (`SOFTHSA_TRACE=api`).
pub fn trace_api_error(name: &str, error: &Error) {
    crate::trace!(
        trace::Category::Api,
        "{name} -> {}{}{}",
        status_name(error.status),
        if error.message.is_some() { ": " } else { "" },
        error.message.as_deref().unwrap_or("")
    );
}

/// Every status with its C name and the text `hsa_status_string` returns.
const STATUSES: &[(hsa_status_t, &str, &CStr)] = &[
    (HSA_STATUS_SUCCESS, "HSA_STATUS_SUCCESS", c"HSA_STATUS_SUCCESS: The function has been executed successfully."),
    (HSA_STATUS_INFO_BREAK, "HSA_STATUS_INFO_BREAK", c"HSA_STATUS_INFO_BREAK: A traversal over a list of elements has been interrupted by the application before completing."),
    (HSA_STATUS_ERROR, "HSA_STATUS_ERROR", c"HSA_STATUS_ERROR: A generic error has occurred."),
    (HSA_STATUS_ERROR_INVALID_ARGUMENT, "HSA_STATUS_ERROR_INVALID_ARGUMENT", c"HSA_STATUS_ERROR_INVALID_ARGUMENT: One of the actual arguments does not meet a precondition stated in the documentation of the corresponding formal argument."),
    (HSA_STATUS_ERROR_INVALID_QUEUE_CREATION, "HSA_STATUS_ERROR_INVALID_QUEUE_CREATION", c"HSA_STATUS_ERROR_INVALID_QUEUE_CREATION: The requested queue creation is not valid."),
    (HSA_STATUS_ERROR_INVALID_ALLOCATION, "HSA_STATUS_ERROR_INVALID_ALLOCATION", c"HSA_STATUS_ERROR_INVALID_ALLOCATION: The requested allocation is not valid."),
    (HSA_STATUS_ERROR_INVALID_AGENT, "HSA_STATUS_ERROR_INVALID_AGENT", c"HSA_STATUS_ERROR_INVALID_AGENT: The agent is invalid."),
    (HSA_STATUS_ERROR_INVALID_REGION, "HSA_STATUS_ERROR_INVALID_REGION", c"HSA_STATUS_ERROR_INVALID_REGION: The memory region is invalid."),
    (HSA_STATUS_ERROR_INVALID_SIGNAL, "HSA_STATUS_ERROR_INVALID_SIGNAL", c"HSA_STATUS_ERROR_INVALID_SIGNAL: The signal is invalid."),
    (HSA_STATUS_ERROR_INVALID_QUEUE, "HSA_STATUS_ERROR_INVALID_QUEUE", c"HSA_STATUS_ERROR_INVALID_QUEUE: The queue is invalid."),
    (HSA_STATUS_ERROR_OUT_OF_RESOURCES, "HSA_STATUS_ERROR_OUT_OF_RESOURCES", c"HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources. This error may also occur when the core runtime library needs to spawn threads or create internal OS-specific events."),
    (HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "HSA_STATUS_ERROR_INVALID_PACKET_FORMAT", c"HSA_STATUS_ERROR_INVALID_PACKET_FORMAT: The AQL packet is malformed."),
    (HSA_STATUS_ERROR_RESOURCE_FREE, "HSA_STATUS_ERROR_RESOURCE_FREE", c"HSA_STATUS_ERROR_RESOURCE_FREE: An error has been detected while releasing a resource."),
    (HSA_STATUS_ERROR_NOT_INITIALIZED, "HSA_STATUS_ERROR_NOT_INITIALIZED", c"HSA_STATUS_ERROR_NOT_INITIALIZED: An API other than hsa_init has been invoked while the reference count of the HSA runtime is zero."),
    (HSA_STATUS_ERROR_REFCOUNT_OVERFLOW, "HSA_STATUS_ERROR_REFCOUNT_OVERFLOW", c"HSA_STATUS_ERROR_REFCOUNT_OVERFLOW: The maximum reference count for the object has been reached."),
    (HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS, "HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS", c"HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS: The arguments passed to a function are not compatible."),
    (HSA_STATUS_ERROR_INVALID_INDEX, "HSA_STATUS_ERROR_INVALID_INDEX", c"HSA_STATUS_ERROR_INVALID_INDEX: The index is invalid."),
    (HSA_STATUS_ERROR_INVALID_ISA, "HSA_STATUS_ERROR_INVALID_ISA", c"HSA_STATUS_ERROR_INVALID_ISA: The instruction set architecture is invalid."),
    (HSA_STATUS_ERROR_INVALID_ISA_NAME, "HSA_STATUS_ERROR_INVALID_ISA_NAME", c"HSA_STATUS_ERROR_INVALID_ISA_NAME: The instruction set architecture name is invalid."),
    (HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "HSA_STATUS_ERROR_INVALID_CODE_OBJECT", c"HSA_STATUS_ERROR_INVALID_CODE_OBJECT: The code object is invalid."),
    (HSA_STATUS_ERROR_INVALID_EXECUTABLE, "HSA_STATUS_ERROR_INVALID_EXECUTABLE", c"HSA_STATUS_ERROR_INVALID_EXECUTABLE: The executable is invalid."),
    (HSA_STATUS_ERROR_FROZEN_EXECUTABLE, "HSA_STATUS_ERROR_FROZEN_EXECUTABLE", c"HSA_STATUS_ERROR_FROZEN_EXECUTABLE: The executable is frozen."),
    (HSA_STATUS_ERROR_INVALID_SYMBOL_NAME, "HSA_STATUS_ERROR_INVALID_SYMBOL_NAME", c"HSA_STATUS_ERROR_INVALID_SYMBOL_NAME: There is no symbol with the given name."),
    (HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED, "HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED", c"HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED: The variable is already defined."),
    (HSA_STATUS_ERROR_VARIABLE_UNDEFINED, "HSA_STATUS_ERROR_VARIABLE_UNDEFINED", c"HSA_STATUS_ERROR_VARIABLE_UNDEFINED: The variable is undefined."),
    (HSA_STATUS_ERROR_EXCEPTION, "HSA_STATUS_ERROR_EXCEPTION", c"HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception."),
    (HSA_STATUS_ERROR_INVALID_CODE_SYMBOL, "HSA_STATUS_ERROR_INVALID_CODE_SYMBOL", c"HSA_STATUS_ERROR_INVALID_CODE_SYMBOL: The code object symbol is invalid."),
    (HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL, "HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL", c"HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL: The executable symbol is invalid."),
    (HSA_STATUS_ERROR_INVALID_FILE, "HSA_STATUS_ERROR_INVALID_FILE", c"HSA_STATUS_ERROR_INVALID_FILE: The file descriptor is invalid."),
    (HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER, "HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER", c"HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER: The code object reader is invalid."),
    (HSA_STATUS_ERROR_INVALID_CACHE, "HSA_STATUS_ERROR_INVALID_CACHE", c"HSA_STATUS_ERROR_INVALID_CACHE: The cache is invalid."),
    (HSA_STATUS_ERROR_INVALID_WAVEFRONT, "HSA_STATUS_ERROR_INVALID_WAVEFRONT", c"HSA_STATUS_ERROR_INVALID_WAVEFRONT: The wavefront is invalid."),
    (HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP, "HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP", c"HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP: The signal group is invalid."),
    (HSA_STATUS_ERROR_INVALID_RUNTIME_STATE, "HSA_STATUS_ERROR_INVALID_RUNTIME_STATE", c"HSA_STATUS_ERROR_INVALID_RUNTIME_STATE: The HSA runtime is not in the configuration state."),
    (HSA_STATUS_ERROR_FATAL, "HSA_STATUS_ERROR_FATAL", c"HSA_STATUS_ERROR_FATAL: The queue received an error that may require process termination."),
    (HSA_STATUS_ERROR_INVALID_MEMORY_POOL, "HSA_STATUS_ERROR_INVALID_MEMORY_POOL", c"HSA_STATUS_ERROR_INVALID_MEMORY_POOL: The memory pool is invalid."),
    (HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION, "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION", c"HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to access memory beyond the largest legal address."),
    (HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION, "HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION", c"HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION: The agent executed an invalid shader instruction."),
    (HSA_STATUS_ERROR_MEMORY_FAULT, "HSA_STATUS_ERROR_MEMORY_FAULT", c"HSA_STATUS_ERROR_MEMORY_FAULT: The agent attempted to access an inaccessible address."),
    (HSA_STATUS_CU_MASK_REDUCED, "HSA_STATUS_CU_MASK_REDUCED", c"HSA_STATUS_CU_MASK_REDUCED: The CU mask was successfully set but the mask attempted to enable a CU which was disabled for the process. CUs disabled for the process remain disabled."),
    (HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED, "HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED", c"HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED: Image format is not supported."),
    (HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED, "HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED", c"HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED: Image size is not supported."),
    (HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED, "HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED", c"HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED: Image pitch is not supported or invalid."),
    (HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED, "HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED", c"HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED: Sampler descriptor is not supported or invalid."),
    (HSA_EXT_STATUS_ERROR_INVALID_PROGRAM, "HSA_EXT_STATUS_ERROR_INVALID_PROGRAM", c"HSA_EXT_STATUS_ERROR_INVALID_PROGRAM: Invalid program."),
    (HSA_EXT_STATUS_ERROR_INVALID_MODULE, "HSA_EXT_STATUS_ERROR_INVALID_MODULE", c"HSA_EXT_STATUS_ERROR_INVALID_MODULE: Invalid module."),
    (HSA_EXT_STATUS_ERROR_INCOMPATIBLE_MODULE, "HSA_EXT_STATUS_ERROR_INCOMPATIBLE_MODULE", c"HSA_EXT_STATUS_ERROR_INCOMPATIBLE_MODULE: Machine model or profile of the module do not match the program."),
    (HSA_EXT_STATUS_ERROR_MODULE_ALREADY_INCLUDED, "HSA_EXT_STATUS_ERROR_MODULE_ALREADY_INCLUDED", c"HSA_EXT_STATUS_ERROR_MODULE_ALREADY_INCLUDED: The module is already part of the program."),
    (HSA_EXT_STATUS_ERROR_SYMBOL_MISMATCH, "HSA_EXT_STATUS_ERROR_SYMBOL_MISMATCH", c"HSA_EXT_STATUS_ERROR_SYMBOL_MISMATCH: Symbol declaration and definition do not match."),
    (HSA_EXT_STATUS_ERROR_FINALIZATION_FAILED, "HSA_EXT_STATUS_ERROR_FINALIZATION_FAILED", c"HSA_EXT_STATUS_ERROR_FINALIZATION_FAILED: The finalization encountered an error."),
    (HSA_EXT_STATUS_ERROR_DIRECTIVE_MISMATCH, "HSA_EXT_STATUS_ERROR_DIRECTIVE_MISMATCH", c"HSA_EXT_STATUS_ERROR_DIRECTIVE_MISMATCH: The control directives of the program do not match."),
];

/// The text of `hsa_status_string`, or `None` for an unknown status.
pub fn status_string(status: hsa_status_t) -> Option<&'static CStr> {
    STATUSES.iter().find(|s| s.0 == status).map(|s| s.2)
}

/// The C name of a status ("HSA_STATUS_ERROR_INVALID_AGENT"), for traces and messages.
pub fn status_name(status: hsa_status_t) -> &'static str {
    STATUSES.iter().find(|s| s.0 == status).map_or("unknown HSA status", |s| s.1)
}

/// One extension the runtime knows by id.
#[derive(Clone, Copy, Debug)]
pub struct Extension {
    pub id: u16,
    pub name: &'static CStr,
    /// Supported major version and the highest minor of it, or `None` if unsupported.
    pub version: Option<(u16, u16)>,
}

/// Every extension id of hsa.h, and what softhsa supports. The AMD loader extension becomes
/// supported when the code-object layer provides its function table (see `capi`'s system.rs).
pub fn extensions(amd_loader_available: bool) -> [Extension; 7] {
    let ext = |id, name, version| Extension { id, name, version };
    [
        ext(HSA_EXTENSION_FINALIZER as u16, c"HSA_EXTENSION_FINALIZER", None),
        ext(HSA_EXTENSION_IMAGES as u16, c"HSA_EXTENSION_IMAGES", None),
        ext(HSA_EXTENSION_PERFORMANCE_COUNTERS as u16, c"HSA_EXTENSION_PERFORMANCE_COUNTERS", None),
        ext(HSA_EXTENSION_PROFILING_EVENTS as u16, c"HSA_EXTENSION_PROFILING_EVENTS", None),
        ext(HSA_EXTENSION_AMD_PROFILER as u16, c"HSA_EXTENSION_AMD_PROFILER", None),
        ext(HSA_EXTENSION_AMD_LOADER as u16, c"HSA_EXTENSION_AMD_LOADER", amd_loader_available.then_some((1, 3))),
        ext(HSA_EXTENSION_AMD_AQLPROFILE as u16, c"HSA_EXTENSION_AMD_AQLPROFILE", None),
    ]
}

/// The value of HSA_SYSTEM_INFO_EXTENSIONS: bit `id` set for every supported extension.
pub fn extension_mask(amd_loader_available: bool) -> [u8; 128] {
    let mut mask = [0u8; 128];
    for e in extensions(amd_loader_available).iter().filter(|e| e.version.is_some()) {
        mask[e.id as usize / 8] |= 1 << (e.id % 8);
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_has_distinct_text_starting_with_its_name() {
        for (i, (code, name, text)) in STATUSES.iter().enumerate() {
            let t = text.to_str().unwrap();
            assert!(t.starts_with(&format!("{name}: ")), "{t}");
            assert_eq!(status_name(*code), *name);
            assert!(STATUSES[i + 1..].iter().all(|s| s.0 != *code), "duplicate {name}");
        }
        assert!(status_string(0x7777).is_none());
    }

    #[test]
    fn timestamp_is_monotonic_nanoseconds() {
        let a = timestamp();
        let t = Instant::now();
        std::thread::sleep(std::time::Duration::from_millis(5));
        let b = timestamp();
        let real = t.elapsed().as_nanos() as u64;
        assert!(b > a && b - a >= 5_000_000 && b - a <= real + 1_000_000, "{a} {b} {real}");
    }

    #[test]
    fn extension_mask_sets_the_loader_bit_only_when_available() {
        assert_eq!(extension_mask(false), [0u8; 128]);
        let m = extension_mask(true);
        assert_eq!(m[0x201 / 8], 1 << (0x201 % 8));
        assert_eq!(m.iter().map(|b| b.count_ones()).sum::<u32>(), 1);
    }
}
