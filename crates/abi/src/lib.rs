//! `#[repr(C)]` types of ROCm's HSA headers. (Being completed by the ABI work; names follow the C
//! headers exactly so that C and Rust read alike.)
#![allow(non_camel_case_types)]

pub type hsa_status_t = u32;
pub const HSA_STATUS_SUCCESS: hsa_status_t = 0x0;
pub const HSA_STATUS_INFO_BREAK: hsa_status_t = 0x1;
pub const HSA_STATUS_ERROR: hsa_status_t = 0x1000;
pub const HSA_STATUS_ERROR_INVALID_ARGUMENT: hsa_status_t = 0x1001;
pub const HSA_STATUS_ERROR_INVALID_QUEUE_CREATION: hsa_status_t = 0x1002;
pub const HSA_STATUS_ERROR_INVALID_ALLOCATION: hsa_status_t = 0x1003;
pub const HSA_STATUS_ERROR_INVALID_AGENT: hsa_status_t = 0x1004;
pub const HSA_STATUS_ERROR_INVALID_REGION: hsa_status_t = 0x1005;
pub const HSA_STATUS_ERROR_INVALID_SIGNAL: hsa_status_t = 0x1006;
pub const HSA_STATUS_ERROR_INVALID_QUEUE: hsa_status_t = 0x1007;
pub const HSA_STATUS_ERROR_OUT_OF_RESOURCES: hsa_status_t = 0x1008;
pub const HSA_STATUS_ERROR_INVALID_PACKET_FORMAT: hsa_status_t = 0x1009;
pub const HSA_STATUS_ERROR_RESOURCE_FREE: hsa_status_t = 0x100A;
pub const HSA_STATUS_ERROR_NOT_INITIALIZED: hsa_status_t = 0x100B;
pub const HSA_STATUS_ERROR_REFCOUNT_OVERFLOW: hsa_status_t = 0x100C;
pub const HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS: hsa_status_t = 0x100D;
pub const HSA_STATUS_ERROR_INVALID_INDEX: hsa_status_t = 0x100E;
pub const HSA_STATUS_ERROR_INVALID_ISA: hsa_status_t = 0x100F;
pub const HSA_STATUS_ERROR_INVALID_ISA_NAME: hsa_status_t = 0x1017;
pub const HSA_STATUS_ERROR_INVALID_CODE_OBJECT: hsa_status_t = 0x1010;
pub const HSA_STATUS_ERROR_INVALID_EXECUTABLE: hsa_status_t = 0x1011;
pub const HSA_STATUS_ERROR_FROZEN_EXECUTABLE: hsa_status_t = 0x1012;
pub const HSA_STATUS_ERROR_INVALID_SYMBOL_NAME: hsa_status_t = 0x1013;
pub const HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED: hsa_status_t = 0x1014;
pub const HSA_STATUS_ERROR_VARIABLE_UNDEFINED: hsa_status_t = 0x1015;
pub const HSA_STATUS_ERROR_EXCEPTION: hsa_status_t = 0x1016;
pub const HSA_STATUS_ERROR_INVALID_CODE_SYMBOL: hsa_status_t = 0x1018;
pub const HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL: hsa_status_t = 0x1019;
pub const HSA_STATUS_ERROR_INVALID_FILE: hsa_status_t = 0x1020;
pub const HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER: hsa_status_t = 0x1021;
pub const HSA_STATUS_ERROR_INVALID_CACHE: hsa_status_t = 0x1022;
pub const HSA_STATUS_ERROR_INVALID_WAVEFRONT: hsa_status_t = 0x1023;
pub const HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP: hsa_status_t = 0x1024;
pub const HSA_STATUS_ERROR_INVALID_RUNTIME_STATE: hsa_status_t = 0x1025;
pub const HSA_STATUS_ERROR_FATAL: hsa_status_t = 0x1026;
pub const HSA_STATUS_ERROR_INVALID_MEMORY_POOL: hsa_status_t = 40;
pub const HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: hsa_status_t = 41;
pub const HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION: hsa_status_t = 42;
pub const HSA_STATUS_ERROR_MEMORY_FAULT: hsa_status_t = 43;
pub const HSA_STATUS_CU_MASK_REDUCED: hsa_status_t = 44;
