//! The text of every `hsa_status_t` value, from the descriptions in `hsa.h` and `hsa_ext_amd.h`
//! (what `hsa_status_string` returns), generated with the header modules.

use crate::*;
use core::ffi::CStr;

/// `(status, "NAME: description")` for every status code of the headers.
pub const HSA_STATUS_TEXT: &[(hsa_status_t, &CStr)] = &[
    (HSA_STATUS_SUCCESS, c"HSA_STATUS_SUCCESS: The function has been executed successfully."),
    (HSA_STATUS_INFO_BREAK, c"HSA_STATUS_INFO_BREAK: A traversal over a list of elements has been interrupted by the application before completing."),
    (HSA_STATUS_ERROR, c"HSA_STATUS_ERROR: A generic error has occurred."),
    (HSA_STATUS_ERROR_INVALID_ARGUMENT, c"HSA_STATUS_ERROR_INVALID_ARGUMENT: One of the actual arguments does not meet a precondition stated in the documentation of the corresponding formal argument."),
    (HSA_STATUS_ERROR_INVALID_QUEUE_CREATION, c"HSA_STATUS_ERROR_INVALID_QUEUE_CREATION: The requested queue creation is not valid."),
    (HSA_STATUS_ERROR_INVALID_ALLOCATION, c"HSA_STATUS_ERROR_INVALID_ALLOCATION: The requested allocation is not valid."),
    (HSA_STATUS_ERROR_INVALID_AGENT, c"HSA_STATUS_ERROR_INVALID_AGENT: The agent is invalid."),
    (HSA_STATUS_ERROR_INVALID_REGION, c"HSA_STATUS_ERROR_INVALID_REGION: The memory region is invalid."),
    (HSA_STATUS_ERROR_INVALID_SIGNAL, c"HSA_STATUS_ERROR_INVALID_SIGNAL: The signal is invalid."),
    (HSA_STATUS_ERROR_INVALID_QUEUE, c"HSA_STATUS_ERROR_INVALID_QUEUE: The queue is invalid."),
    (HSA_STATUS_ERROR_OUT_OF_RESOURCES, c"HSA_STATUS_ERROR_OUT_OF_RESOURCES: The HSA runtime failed to allocate the necessary resources. This error may also occur when the HSA runtime needs to spawn threads or create internal OS-specific events."),
    (HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, c"HSA_STATUS_ERROR_INVALID_PACKET_FORMAT: The AQL packet is malformed."),
    (HSA_STATUS_ERROR_RESOURCE_FREE, c"HSA_STATUS_ERROR_RESOURCE_FREE: An error has been detected while releasing a resource."),
    (HSA_STATUS_ERROR_NOT_INITIALIZED, c"HSA_STATUS_ERROR_NOT_INITIALIZED: An API other than hsa_init has been invoked while the reference count of the HSA runtime is 0."),
    (HSA_STATUS_ERROR_REFCOUNT_OVERFLOW, c"HSA_STATUS_ERROR_REFCOUNT_OVERFLOW: The maximum reference count for the object has been reached."),
    (HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS, c"HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS: The arguments passed to a functions are not compatible."),
    (HSA_STATUS_ERROR_INVALID_INDEX, c"HSA_STATUS_ERROR_INVALID_INDEX: The index is invalid."),
    (HSA_STATUS_ERROR_INVALID_ISA, c"HSA_STATUS_ERROR_INVALID_ISA: The instruction set architecture is invalid."),
    (HSA_STATUS_ERROR_INVALID_ISA_NAME, c"HSA_STATUS_ERROR_INVALID_ISA_NAME: The instruction set architecture name is invalid."),
    (HSA_STATUS_ERROR_INVALID_CODE_OBJECT, c"HSA_STATUS_ERROR_INVALID_CODE_OBJECT: The code object is invalid."),
    (HSA_STATUS_ERROR_INVALID_EXECUTABLE, c"HSA_STATUS_ERROR_INVALID_EXECUTABLE: The executable is invalid."),
    (HSA_STATUS_ERROR_FROZEN_EXECUTABLE, c"HSA_STATUS_ERROR_FROZEN_EXECUTABLE: The executable is frozen."),
    (HSA_STATUS_ERROR_INVALID_SYMBOL_NAME, c"HSA_STATUS_ERROR_INVALID_SYMBOL_NAME: There is no symbol with the given name."),
    (HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED, c"HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED: The variable is already defined."),
    (HSA_STATUS_ERROR_VARIABLE_UNDEFINED, c"HSA_STATUS_ERROR_VARIABLE_UNDEFINED: The variable is undefined."),
    (HSA_STATUS_ERROR_EXCEPTION, c"HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception."),
    (HSA_STATUS_ERROR_INVALID_CODE_SYMBOL, c"HSA_STATUS_ERROR_INVALID_CODE_SYMBOL: The code object symbol is invalid."),
    (HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL, c"HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL: The executable symbol is invalid."),
    (HSA_STATUS_ERROR_INVALID_FILE, c"HSA_STATUS_ERROR_INVALID_FILE: The file descriptor is invalid."),
    (HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER, c"HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER: The code object reader is invalid."),
    (HSA_STATUS_ERROR_INVALID_CACHE, c"HSA_STATUS_ERROR_INVALID_CACHE: The cache is invalid."),
    (HSA_STATUS_ERROR_INVALID_WAVEFRONT, c"HSA_STATUS_ERROR_INVALID_WAVEFRONT: The wavefront is invalid."),
    (HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP, c"HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP: The signal group is invalid."),
    (HSA_STATUS_ERROR_INVALID_RUNTIME_STATE, c"HSA_STATUS_ERROR_INVALID_RUNTIME_STATE: The HSA runtime is not in the configuration state."),
    (HSA_STATUS_ERROR_FATAL, c"HSA_STATUS_ERROR_FATAL: The queue received an error that may require process termination."),
    (HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED, c"HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED: Image format is not supported."),
    (HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED, c"HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED: Image size is not supported."),
    (HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED, c"HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED: Image pitch is not supported or invalid."),
    (HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED, c"HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED: Sampler descriptor is not supported or invalid."),
    (HSA_STATUS_ERROR_INVALID_MEMORY_POOL, c"HSA_STATUS_ERROR_INVALID_MEMORY_POOL: The memory pool is invalid."),
    (HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION, c"HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: Agent accessed memory beyond the maximum legal address."),
    (HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION, c"HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION: Agent executed an invalid shader instruction."),
    (HSA_STATUS_ERROR_MEMORY_FAULT, c"HSA_STATUS_ERROR_MEMORY_FAULT: Agent attempted to access an inaccessible address. See hsa_amd_register_system_event_handler and HSA_AMD_GPU_MEMORY_FAULT_EVENT for more information on illegal accesses."),
    (HSA_STATUS_CU_MASK_REDUCED, c"HSA_STATUS_CU_MASK_REDUCED: The CU mask was successfully set but the mask attempted to enable a CU which was disabled for the process. CUs disabled for the process remain disabled."),
    (HSA_EXT_STATUS_ERROR_INVALID_PROGRAM, c"HSA_EXT_STATUS_ERROR_INVALID_PROGRAM: The HSAIL program is invalid."),
    (HSA_EXT_STATUS_ERROR_INVALID_MODULE, c"HSA_EXT_STATUS_ERROR_INVALID_MODULE: The HSAIL module is invalid."),
    (HSA_EXT_STATUS_ERROR_INCOMPATIBLE_MODULE, c"HSA_EXT_STATUS_ERROR_INCOMPATIBLE_MODULE: Machine model or profile of the HSAIL module do not match the machine model or profile of the HSAIL program."),
    (HSA_EXT_STATUS_ERROR_MODULE_ALREADY_INCLUDED, c"HSA_EXT_STATUS_ERROR_MODULE_ALREADY_INCLUDED: The HSAIL module is already a part of the HSAIL program."),
    (HSA_EXT_STATUS_ERROR_SYMBOL_MISMATCH, c"HSA_EXT_STATUS_ERROR_SYMBOL_MISMATCH: Compatibility mismatch between symbol declaration and symbol definition."),
    (HSA_EXT_STATUS_ERROR_FINALIZATION_FAILED, c"HSA_EXT_STATUS_ERROR_FINALIZATION_FAILED: The finalization encountered an error while finalizing a kernel or indirect function."),
    (HSA_EXT_STATUS_ERROR_DIRECTIVE_MISMATCH, c"HSA_EXT_STATUS_ERROR_DIRECTIVE_MISMATCH: Mismatch between a directive in the control directive structure and in the HSAIL kernel."),
];

/// The text of `status` (`"NAME: description"`), or `None` for a value no header defines.
pub fn hsa_status_text(status: hsa_status_t) -> Option<&'static CStr> {
    HSA_STATUS_TEXT
        .iter()
        .find(|(s, _)| *s == status)
        .map(|(_, t)| *t)
}
