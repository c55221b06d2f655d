//! Types of `amd_hsa_kernel_code.h` (Debian libhsa-runtime-dev 5.2): Code object v2 kernel header
//! `amd_kernel_code_t` (256 bytes) with its bit-field words as shift/width/mask constants.
//!
//! Generated from the header by the ABI generator (see the crate docs), then checked
//! field by field against C by `tests/layout.rs`.

use core::ffi::{c_char, c_void};

/// C `#define AMD_CONTROL_DIRECTIVES_ALIGN_BYTES 64`.
pub const AMD_CONTROL_DIRECTIVES_ALIGN_BYTES: usize = 64;

/// C `#define AMD_ISA_ALIGN_BYTES 256`.
pub const AMD_ISA_ALIGN_BYTES: usize = 256;

/// C `#define AMD_KERNEL_CODE_ALIGN_BYTES 64`.
pub const AMD_KERNEL_CODE_ALIGN_BYTES: usize = 64;

/// AMD Kernel Code Version Enumeration Values.
///
/// Values: the constants of C `enum amd_kernel_code_version_t` below.
pub type amd_kernel_code_version32_t = u32;

// C `enum amd_kernel_code_version_t`, typed as its storage word `amd_kernel_code_version32_t`.

pub const AMD_KERNEL_CODE_VERSION_MAJOR: amd_kernel_code_version32_t = 1;
pub const AMD_KERNEL_CODE_VERSION_MINOR: amd_kernel_code_version32_t = 1;

/// AMD Machine Kind Enumeration Values.
///
/// Values: the constants of C `enum amd_machine_kind_t` below.
pub type amd_machine_kind16_t = u16;

// C `enum amd_machine_kind_t`, typed as its storage word `amd_machine_kind16_t`.

pub const AMD_MACHINE_KIND_UNDEFINED: amd_machine_kind16_t = 0;
pub const AMD_MACHINE_KIND_AMDGPU: amd_machine_kind16_t = 1;

/// AMD Machine Version.
pub type amd_machine_version16_t = u16;

/// AMD Float Round Mode Enumeration Values.
pub type amd_float_round_mode_t = u32;

pub const AMD_FLOAT_ROUND_MODE_NEAREST_EVEN: amd_float_round_mode_t = 0;
pub const AMD_FLOAT_ROUND_MODE_PLUS_INFINITY: amd_float_round_mode_t = 1;
pub const AMD_FLOAT_ROUND_MODE_MINUS_INFINITY: amd_float_round_mode_t = 2;
pub const AMD_FLOAT_ROUND_MODE_ZERO: amd_float_round_mode_t = 3;

/// AMD Float Denorm Mode Enumeration Values.
pub type amd_float_denorm_mode_t = u32;

pub const AMD_FLOAT_DENORM_MODE_FLUSH_SOURCE_OUTPUT: amd_float_denorm_mode_t = 0;
pub const AMD_FLOAT_DENORM_MODE_FLUSH_OUTPUT: amd_float_denorm_mode_t = 1;
pub const AMD_FLOAT_DENORM_MODE_FLUSH_SOURCE: amd_float_denorm_mode_t = 2;
pub const AMD_FLOAT_DENORM_MODE_NO_FLUSH: amd_float_denorm_mode_t = 3;

/// AMD Compute Program Resource Register One.
///
/// Values: the constants of C `enum amd_compute_pgm_rsrc_one_t` below.
pub type amd_compute_pgm_rsrc_one32_t = u32;

// C `enum amd_compute_pgm_rsrc_one_t`, typed as its storage word `amd_compute_pgm_rsrc_one32_t`.

pub const AMD_COMPUTE_PGM_RSRC_ONE_GRANULATED_WORKITEM_VGPR_COUNT_SHIFT:
    amd_compute_pgm_rsrc_one32_t = 0;
pub const AMD_COMPUTE_PGM_RSRC_ONE_GRANULATED_WORKITEM_VGPR_COUNT_WIDTH:
    amd_compute_pgm_rsrc_one32_t = 6;
pub const AMD_COMPUTE_PGM_RSRC_ONE_GRANULATED_WORKITEM_VGPR_COUNT: amd_compute_pgm_rsrc_one32_t =
    0x3f;
pub const AMD_COMPUTE_PGM_RSRC_ONE_GRANULATED_WAVEFRONT_SGPR_COUNT_SHIFT:
    amd_compute_pgm_rsrc_one32_t = 6;
pub const AMD_COMPUTE_PGM_RSRC_ONE_GRANULATED_WAVEFRONT_SGPR_COUNT_WIDTH:
    amd_compute_pgm_rsrc_one32_t = 4;
pub const AMD_COMPUTE_PGM_RSRC_ONE_GRANULATED_WAVEFRONT_SGPR_COUNT: amd_compute_pgm_rsrc_one32_t =
    0x3c0;
pub const AMD_COMPUTE_PGM_RSRC_ONE_PRIORITY_SHIFT: amd_compute_pgm_rsrc_one32_t = 10;
pub const AMD_COMPUTE_PGM_RSRC_ONE_PRIORITY_WIDTH: amd_compute_pgm_rsrc_one32_t = 2;
pub const AMD_COMPUTE_PGM_RSRC_ONE_PRIORITY: amd_compute_pgm_rsrc_one32_t = 0xc00;
pub const AMD_COMPUTE_PGM_RSRC_ONE_FLOAT_ROUND_MODE_32_SHIFT: amd_compute_pgm_rsrc_one32_t = 12;
pub const AMD_COMPUTE_PGM_RSRC_ONE_FLOAT_ROUND_MODE_32_WIDTH: amd_compute_pgm_rsrc_one32_t = 2;
pub const AMD_COMPUTE_PGM_RSRC_ONE_FLOAT_ROUND_MODE_32: amd_compute_pgm_rsrc_one32_t = 0x3000;
pub const AMD_COMPUTE_PGM_RSRC_ONE_FLOAT_ROUND_MODE_16_64_SHIFT: amd_compute_pgm_rsrc_one32_t = 14;
pub const AMD_COMPUTE_PGM_RSRC_ONE_FLOAT_ROUND_MODE_16_64_WIDTH: amd_compute_pgm_rsrc_one32_t = 2;
pub const AMD_COMPUTE_PGM_RSRC_ONE_FLOAT_ROUND_MODE_16_64: amd_compute_pgm_rsrc_one32_t = 0xc000;
pub const AMD_COMPUTE_PGM_RSRC_ONE_FLOAT_DENORM_MODE_32_SHIFT: amd_compute_pgm_rsrc_one32_t = 16;
pub const AMD_COMPUTE_PGM_RSRC_ONE_FLOAT_DENORM_MODE_32_WIDTH: amd_compute_pgm_rsrc_one32_t = 2;
pub const AMD_COMPUTE_PGM_RSRC_ONE_FLOAT_DENORM_MODE_32: amd_compute_pgm_rsrc_one32_t = 0x30000;
pub const AMD_COMPUTE_PGM_RSRC_ONE_FLOAT_DENORM_MODE_16_64_SHIFT: amd_compute_pgm_rsrc_one32_t = 18;
pub const AMD_COMPUTE_PGM_RSRC_ONE_FLOAT_DENORM_MODE_16_64_WIDTH: amd_compute_pgm_rsrc_one32_t = 2;
pub const AMD_COMPUTE_PGM_RSRC_ONE_FLOAT_DENORM_MODE_16_64: amd_compute_pgm_rsrc_one32_t = 0xc0000;
pub const AMD_COMPUTE_PGM_RSRC_ONE_PRIV_SHIFT: amd_compute_pgm_rsrc_one32_t = 20;
pub const AMD_COMPUTE_PGM_RSRC_ONE_PRIV_WIDTH: amd_compute_pgm_rsrc_one32_t = 1;
pub const AMD_COMPUTE_PGM_RSRC_ONE_PRIV: amd_compute_pgm_rsrc_one32_t = 0x100000;
pub const AMD_COMPUTE_PGM_RSRC_ONE_ENABLE_DX10_CLAMP_SHIFT: amd_compute_pgm_rsrc_one32_t = 21;
pub const AMD_COMPUTE_PGM_RSRC_ONE_ENABLE_DX10_CLAMP_WIDTH: amd_compute_pgm_rsrc_one32_t = 1;
pub const AMD_COMPUTE_PGM_RSRC_ONE_ENABLE_DX10_CLAMP: amd_compute_pgm_rsrc_one32_t = 0x200000;
pub const AMD_COMPUTE_PGM_RSRC_ONE_DEBUG_MODE_SHIFT: amd_compute_pgm_rsrc_one32_t = 22;
pub const AMD_COMPUTE_PGM_RSRC_ONE_DEBUG_MODE_WIDTH: amd_compute_pgm_rsrc_one32_t = 1;
pub const AMD_COMPUTE_PGM_RSRC_ONE_DEBUG_MODE: amd_compute_pgm_rsrc_one32_t = 0x400000;
pub const AMD_COMPUTE_PGM_RSRC_ONE_ENABLE_IEEE_MODE_SHIFT: amd_compute_pgm_rsrc_one32_t = 23;
pub const AMD_COMPUTE_PGM_RSRC_ONE_ENABLE_IEEE_MODE_WIDTH: amd_compute_pgm_rsrc_one32_t = 1;
pub const AMD_COMPUTE_PGM_RSRC_ONE_ENABLE_IEEE_MODE: amd_compute_pgm_rsrc_one32_t = 0x800000;
pub const AMD_COMPUTE_PGM_RSRC_ONE_BULKY_SHIFT: amd_compute_pgm_rsrc_one32_t = 24;
pub const AMD_COMPUTE_PGM_RSRC_ONE_BULKY_WIDTH: amd_compute_pgm_rsrc_one32_t = 1;
pub const AMD_COMPUTE_PGM_RSRC_ONE_BULKY: amd_compute_pgm_rsrc_one32_t = 0x1000000;
pub const AMD_COMPUTE_PGM_RSRC_ONE_CDBG_USER_SHIFT: amd_compute_pgm_rsrc_one32_t = 25;
pub const AMD_COMPUTE_PGM_RSRC_ONE_CDBG_USER_WIDTH: amd_compute_pgm_rsrc_one32_t = 1;
pub const AMD_COMPUTE_PGM_RSRC_ONE_CDBG_USER: amd_compute_pgm_rsrc_one32_t = 0x2000000;
pub const AMD_COMPUTE_PGM_RSRC_ONE_RESERVED1_SHIFT: amd_compute_pgm_rsrc_one32_t = 26;
pub const AMD_COMPUTE_PGM_RSRC_ONE_RESERVED1_WIDTH: amd_compute_pgm_rsrc_one32_t = 6;
pub const AMD_COMPUTE_PGM_RSRC_ONE_RESERVED1: amd_compute_pgm_rsrc_one32_t = 0xfc000000;

/// AMD System VGPR Workitem ID Enumeration Values.
pub type amd_system_vgpr_workitem_id_t = u32;

pub const AMD_SYSTEM_VGPR_WORKITEM_ID_X: amd_system_vgpr_workitem_id_t = 0;
pub const AMD_SYSTEM_VGPR_WORKITEM_ID_X_Y: amd_system_vgpr_workitem_id_t = 1;
pub const AMD_SYSTEM_VGPR_WORKITEM_ID_X_Y_Z: amd_system_vgpr_workitem_id_t = 2;
pub const AMD_SYSTEM_VGPR_WORKITEM_ID_UNDEFINED: amd_system_vgpr_workitem_id_t = 3;

/// AMD Compute Program Resource Register Two.
///
/// Values: the constants of C `enum amd_compute_pgm_rsrc_two_t` below.
pub type amd_compute_pgm_rsrc_two32_t = u32;

// C `enum amd_compute_pgm_rsrc_two_t`, typed as its storage word `amd_compute_pgm_rsrc_two32_t`.

pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_SGPR_PRIVATE_SEGMENT_WAVE_BYTE_OFFSET_SHIFT:
    amd_compute_pgm_rsrc_two32_t = 0;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_SGPR_PRIVATE_SEGMENT_WAVE_BYTE_OFFSET_WIDTH:
    amd_compute_pgm_rsrc_two32_t = 1;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_SGPR_PRIVATE_SEGMENT_WAVE_BYTE_OFFSET:
    amd_compute_pgm_rsrc_two32_t = 1;
pub const AMD_COMPUTE_PGM_RSRC_TWO_USER_SGPR_COUNT_SHIFT: amd_compute_pgm_rsrc_two32_t = 1;
pub const AMD_COMPUTE_PGM_RSRC_TWO_USER_SGPR_COUNT_WIDTH: amd_compute_pgm_rsrc_two32_t = 5;
pub const AMD_COMPUTE_PGM_RSRC_TWO_USER_SGPR_COUNT: amd_compute_pgm_rsrc_two32_t = 0x3e;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_TRAP_HANDLER_SHIFT: amd_compute_pgm_rsrc_two32_t = 6;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_TRAP_HANDLER_WIDTH: amd_compute_pgm_rsrc_two32_t = 1;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_TRAP_HANDLER: amd_compute_pgm_rsrc_two32_t = 0x40;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_SGPR_WORKGROUP_ID_X_SHIFT: amd_compute_pgm_rsrc_two32_t =
    7;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_SGPR_WORKGROUP_ID_X_WIDTH: amd_compute_pgm_rsrc_two32_t =
    1;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_SGPR_WORKGROUP_ID_X: amd_compute_pgm_rsrc_two32_t = 0x80;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_SGPR_WORKGROUP_ID_Y_SHIFT: amd_compute_pgm_rsrc_two32_t =
    8;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_SGPR_WORKGROUP_ID_Y_WIDTH: amd_compute_pgm_rsrc_two32_t =
    1;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_SGPR_WORKGROUP_ID_Y: amd_compute_pgm_rsrc_two32_t = 0x100;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_SGPR_WORKGROUP_ID_Z_SHIFT: amd_compute_pgm_rsrc_two32_t =
    9;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_SGPR_WORKGROUP_ID_Z_WIDTH: amd_compute_pgm_rsrc_two32_t =
    1;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_SGPR_WORKGROUP_ID_Z: amd_compute_pgm_rsrc_two32_t = 0x200;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_SGPR_WORKGROUP_INFO_SHIFT: amd_compute_pgm_rsrc_two32_t =
    10;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_SGPR_WORKGROUP_INFO_WIDTH: amd_compute_pgm_rsrc_two32_t =
    1;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_SGPR_WORKGROUP_INFO: amd_compute_pgm_rsrc_two32_t = 0x400;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_VGPR_WORKITEM_ID_SHIFT: amd_compute_pgm_rsrc_two32_t = 11;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_VGPR_WORKITEM_ID_WIDTH: amd_compute_pgm_rsrc_two32_t = 2;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_VGPR_WORKITEM_ID: amd_compute_pgm_rsrc_two32_t = 0x1800;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_ADDRESS_WATCH_SHIFT:
    amd_compute_pgm_rsrc_two32_t = 13;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_ADDRESS_WATCH_WIDTH:
    amd_compute_pgm_rsrc_two32_t = 1;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_ADDRESS_WATCH: amd_compute_pgm_rsrc_two32_t =
    0x2000;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_MEMORY_VIOLATION_SHIFT:
    amd_compute_pgm_rsrc_two32_t = 14;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_MEMORY_VIOLATION_WIDTH:
    amd_compute_pgm_rsrc_two32_t = 1;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_MEMORY_VIOLATION: amd_compute_pgm_rsrc_two32_t =
    0x4000;
pub const AMD_COMPUTE_PGM_RSRC_TWO_GRANULATED_LDS_SIZE_SHIFT: amd_compute_pgm_rsrc_two32_t = 15;
pub const AMD_COMPUTE_PGM_RSRC_TWO_GRANULATED_LDS_SIZE_WIDTH: amd_compute_pgm_rsrc_two32_t = 9;
pub const AMD_COMPUTE_PGM_RSRC_TWO_GRANULATED_LDS_SIZE: amd_compute_pgm_rsrc_two32_t = 0xff8000;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION_SHIFT:
    amd_compute_pgm_rsrc_two32_t = 24;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION_WIDTH:
    amd_compute_pgm_rsrc_two32_t = 1;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION:
    amd_compute_pgm_rsrc_two32_t = 0x1000000;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_FP_DENORMAL_SOURCE_SHIFT:
    amd_compute_pgm_rsrc_two32_t = 25;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_FP_DENORMAL_SOURCE_WIDTH:
    amd_compute_pgm_rsrc_two32_t = 1;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_FP_DENORMAL_SOURCE:
    amd_compute_pgm_rsrc_two32_t = 0x2000000;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO_SHIFT:
    amd_compute_pgm_rsrc_two32_t = 26;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO_WIDTH:
    amd_compute_pgm_rsrc_two32_t = 1;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO:
    amd_compute_pgm_rsrc_two32_t = 0x4000000;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW_SHIFT:
    amd_compute_pgm_rsrc_two32_t = 27;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW_WIDTH:
    amd_compute_pgm_rsrc_two32_t = 1;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW:
    amd_compute_pgm_rsrc_two32_t = 0x8000000;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW_SHIFT:
    amd_compute_pgm_rsrc_two32_t = 28;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW_WIDTH:
    amd_compute_pgm_rsrc_two32_t = 1;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW:
    amd_compute_pgm_rsrc_two32_t = 0x10000000;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_IEEE_754_FP_INEXACT_SHIFT:
    amd_compute_pgm_rsrc_two32_t = 29;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_IEEE_754_FP_INEXACT_WIDTH:
    amd_compute_pgm_rsrc_two32_t = 1;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_IEEE_754_FP_INEXACT:
    amd_compute_pgm_rsrc_two32_t = 0x20000000;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_INT_DIVISION_BY_ZERO_SHIFT:
    amd_compute_pgm_rsrc_two32_t = 30;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_INT_DIVISION_BY_ZERO_WIDTH:
    amd_compute_pgm_rsrc_two32_t = 1;
pub const AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_INT_DIVISION_BY_ZERO:
    amd_compute_pgm_rsrc_two32_t = 0x40000000;
pub const AMD_COMPUTE_PGM_RSRC_TWO_RESERVED1_SHIFT: amd_compute_pgm_rsrc_two32_t = 31;
pub const AMD_COMPUTE_PGM_RSRC_TWO_RESERVED1_WIDTH: amd_compute_pgm_rsrc_two32_t = 1;
pub const AMD_COMPUTE_PGM_RSRC_TWO_RESERVED1: amd_compute_pgm_rsrc_two32_t = 0x80000000;

/// AMD Element Byte Size Enumeration Values.
pub type amd_element_byte_size_t = u32;

pub const AMD_ELEMENT_BYTE_SIZE_2: amd_element_byte_size_t = 0;
pub const AMD_ELEMENT_BYTE_SIZE_4: amd_element_byte_size_t = 1;
pub const AMD_ELEMENT_BYTE_SIZE_8: amd_element_byte_size_t = 2;
pub const AMD_ELEMENT_BYTE_SIZE_16: amd_element_byte_size_t = 3;

/// AMD Kernel Code Properties.
///
/// Values: the constants of C `enum amd_kernel_code_properties_t` below.
pub type amd_kernel_code_properties32_t = u32;

// C `enum amd_kernel_code_properties_t`, typed as its storage word `amd_kernel_code_properties32_t`.

pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER_SHIFT:
    amd_kernel_code_properties32_t = 0;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER_WIDTH:
    amd_kernel_code_properties32_t = 1;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER:
    amd_kernel_code_properties32_t = 1;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_DISPATCH_PTR_SHIFT:
    amd_kernel_code_properties32_t = 1;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_DISPATCH_PTR_WIDTH:
    amd_kernel_code_properties32_t = 1;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_DISPATCH_PTR: amd_kernel_code_properties32_t = 2;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_QUEUE_PTR_SHIFT: amd_kernel_code_properties32_t =
    2;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_QUEUE_PTR_WIDTH: amd_kernel_code_properties32_t =
    1;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_QUEUE_PTR: amd_kernel_code_properties32_t = 4;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_KERNARG_SEGMENT_PTR_SHIFT:
    amd_kernel_code_properties32_t = 3;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_KERNARG_SEGMENT_PTR_WIDTH:
    amd_kernel_code_properties32_t = 1;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_KERNARG_SEGMENT_PTR:
    amd_kernel_code_properties32_t = 8;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_DISPATCH_ID_SHIFT: amd_kernel_code_properties32_t =
    4;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_DISPATCH_ID_WIDTH: amd_kernel_code_properties32_t =
    1;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_DISPATCH_ID: amd_kernel_code_properties32_t = 0x10;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_FLAT_SCRATCH_INIT_SHIFT:
    amd_kernel_code_properties32_t = 5;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_FLAT_SCRATCH_INIT_WIDTH:
    amd_kernel_code_properties32_t = 1;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_FLAT_SCRATCH_INIT: amd_kernel_code_properties32_t =
    0x20;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE_SHIFT:
    amd_kernel_code_properties32_t = 6;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE_WIDTH:
    amd_kernel_code_properties32_t = 1;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE:
    amd_kernel_code_properties32_t = 0x40;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_GRID_WORKGROUP_COUNT_X_SHIFT:
    amd_kernel_code_properties32_t = 7;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_GRID_WORKGROUP_COUNT_X_WIDTH:
    amd_kernel_code_properties32_t = 1;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_GRID_WORKGROUP_COUNT_X:
    amd_kernel_code_properties32_t = 0x80;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_GRID_WORKGROUP_COUNT_Y_SHIFT:
    amd_kernel_code_properties32_t = 8;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_GRID_WORKGROUP_COUNT_Y_WIDTH:
    amd_kernel_code_properties32_t = 1;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_GRID_WORKGROUP_COUNT_Y:
    amd_kernel_code_properties32_t = 0x100;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_GRID_WORKGROUP_COUNT_Z_SHIFT:
    amd_kernel_code_properties32_t = 9;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_GRID_WORKGROUP_COUNT_Z_WIDTH:
    amd_kernel_code_properties32_t = 1;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_GRID_WORKGROUP_COUNT_Z:
    amd_kernel_code_properties32_t = 0x200;
pub const AMD_KERNEL_CODE_PROPERTIES_RESERVED1_SHIFT: amd_kernel_code_properties32_t = 10;
pub const AMD_KERNEL_CODE_PROPERTIES_RESERVED1_WIDTH: amd_kernel_code_properties32_t = 6;
pub const AMD_KERNEL_CODE_PROPERTIES_RESERVED1: amd_kernel_code_properties32_t = 0xfc00;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_ORDERED_APPEND_GDS_SHIFT:
    amd_kernel_code_properties32_t = 16;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_ORDERED_APPEND_GDS_WIDTH:
    amd_kernel_code_properties32_t = 1;
pub const AMD_KERNEL_CODE_PROPERTIES_ENABLE_ORDERED_APPEND_GDS: amd_kernel_code_properties32_t =
    0x10000;
pub const AMD_KERNEL_CODE_PROPERTIES_PRIVATE_ELEMENT_SIZE_SHIFT: amd_kernel_code_properties32_t =
    17;
pub const AMD_KERNEL_CODE_PROPERTIES_PRIVATE_ELEMENT_SIZE_WIDTH: amd_kernel_code_properties32_t = 2;
pub const AMD_KERNEL_CODE_PROPERTIES_PRIVATE_ELEMENT_SIZE: amd_kernel_code_properties32_t = 0x60000;
pub const AMD_KERNEL_CODE_PROPERTIES_IS_PTR64_SHIFT: amd_kernel_code_properties32_t = 19;
pub const AMD_KERNEL_CODE_PROPERTIES_IS_PTR64_WIDTH: amd_kernel_code_properties32_t = 1;
pub const AMD_KERNEL_CODE_PROPERTIES_IS_PTR64: amd_kernel_code_properties32_t = 0x80000;
pub const AMD_KERNEL_CODE_PROPERTIES_IS_DYNAMIC_CALLSTACK_SHIFT: amd_kernel_code_properties32_t =
    20;
pub const AMD_KERNEL_CODE_PROPERTIES_IS_DYNAMIC_CALLSTACK_WIDTH: amd_kernel_code_properties32_t = 1;
pub const AMD_KERNEL_CODE_PROPERTIES_IS_DYNAMIC_CALLSTACK: amd_kernel_code_properties32_t =
    0x100000;
pub const AMD_KERNEL_CODE_PROPERTIES_IS_DEBUG_ENABLED_SHIFT: amd_kernel_code_properties32_t = 21;
pub const AMD_KERNEL_CODE_PROPERTIES_IS_DEBUG_ENABLED_WIDTH: amd_kernel_code_properties32_t = 1;
pub const AMD_KERNEL_CODE_PROPERTIES_IS_DEBUG_ENABLED: amd_kernel_code_properties32_t = 0x200000;
pub const AMD_KERNEL_CODE_PROPERTIES_IS_XNACK_ENABLED_SHIFT: amd_kernel_code_properties32_t = 22;
pub const AMD_KERNEL_CODE_PROPERTIES_IS_XNACK_ENABLED_WIDTH: amd_kernel_code_properties32_t = 1;
pub const AMD_KERNEL_CODE_PROPERTIES_IS_XNACK_ENABLED: amd_kernel_code_properties32_t = 0x400000;
pub const AMD_KERNEL_CODE_PROPERTIES_RESERVED2_SHIFT: amd_kernel_code_properties32_t = 23;
pub const AMD_KERNEL_CODE_PROPERTIES_RESERVED2_WIDTH: amd_kernel_code_properties32_t = 9;
pub const AMD_KERNEL_CODE_PROPERTIES_RESERVED2: amd_kernel_code_properties32_t = 0xff800000;

/// AMD Power Of Two Enumeration Values.
///
/// Values: the constants of C `enum amd_powertwo_t` below.
pub type amd_powertwo8_t = u8;

// C `enum amd_powertwo_t`, typed as its storage word `amd_powertwo8_t`.

pub const AMD_POWERTWO_1: amd_powertwo8_t = 0;
pub const AMD_POWERTWO_2: amd_powertwo8_t = 1;
pub const AMD_POWERTWO_4: amd_powertwo8_t = 2;
pub const AMD_POWERTWO_8: amd_powertwo8_t = 3;
pub const AMD_POWERTWO_16: amd_powertwo8_t = 4;
pub const AMD_POWERTWO_32: amd_powertwo8_t = 5;
pub const AMD_POWERTWO_64: amd_powertwo8_t = 6;
pub const AMD_POWERTWO_128: amd_powertwo8_t = 7;
pub const AMD_POWERTWO_256: amd_powertwo8_t = 8;

/// AMD Enabled Control Directive Enumeration Values.
///
/// Values: the constants of C `enum amd_enabled_control_directive_t` below.
pub type amd_enabled_control_directive64_t = u64;

// C `enum amd_enabled_control_directive_t`, typed as its storage word `amd_enabled_control_directive64_t`.

pub const AMD_ENABLED_CONTROL_DIRECTIVE_ENABLE_BREAK_EXCEPTIONS: amd_enabled_control_directive64_t =
    1;
pub const AMD_ENABLED_CONTROL_DIRECTIVE_ENABLE_DETECT_EXCEPTIONS:
    amd_enabled_control_directive64_t = 2;
pub const AMD_ENABLED_CONTROL_DIRECTIVE_MAX_DYNAMIC_GROUP_SIZE: amd_enabled_control_directive64_t =
    4;
pub const AMD_ENABLED_CONTROL_DIRECTIVE_MAX_FLAT_GRID_SIZE: amd_enabled_control_directive64_t = 8;
pub const AMD_ENABLED_CONTROL_DIRECTIVE_MAX_FLAT_WORKGROUP_SIZE: amd_enabled_control_directive64_t =
    16;
pub const AMD_ENABLED_CONTROL_DIRECTIVE_REQUIRED_DIM: amd_enabled_control_directive64_t = 32;
pub const AMD_ENABLED_CONTROL_DIRECTIVE_REQUIRED_GRID_SIZE: amd_enabled_control_directive64_t = 64;
pub const AMD_ENABLED_CONTROL_DIRECTIVE_REQUIRED_WORKGROUP_SIZE: amd_enabled_control_directive64_t =
    128;
pub const AMD_ENABLED_CONTROL_DIRECTIVE_REQUIRE_NO_PARTIAL_WORKGROUPS:
    amd_enabled_control_directive64_t = 256;

/// AMD Exception Kind Enumeration Values.
///
/// Values: the constants of C `enum amd_exception_kind_t` below.
pub type amd_exception_kind16_t = u16;

// C `enum amd_exception_kind_t`, typed as its storage word `amd_exception_kind16_t`.

pub const AMD_EXCEPTION_KIND_INVALID_OPERATION: amd_exception_kind16_t = 1;
pub const AMD_EXCEPTION_KIND_DIVISION_BY_ZERO: amd_exception_kind16_t = 2;
pub const AMD_EXCEPTION_KIND_OVERFLOW: amd_exception_kind16_t = 4;
pub const AMD_EXCEPTION_KIND_UNDERFLOW: amd_exception_kind16_t = 8;
pub const AMD_EXCEPTION_KIND_INEXACT: amd_exception_kind16_t = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C, align(64))]
pub struct amd_control_directives_t {
    pub enabled_control_directives: amd_enabled_control_directive64_t,
    pub enable_break_exceptions: u16,
    pub enable_detect_exceptions: u16,
    pub max_dynamic_group_size: u32,
    pub max_flat_grid_size: u64,
    pub max_flat_workgroup_size: u32,
    pub required_dim: u8,
    pub reserved1: [u8; 3],
    pub required_grid_size: [u64; 3],
    pub required_workgroup_size: [u32; 3],
    pub reserved2: [u8; 60],
}
zeroed_default!(amd_control_directives_t);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct amd_kernel_code_t {
    pub amd_kernel_code_version_major: amd_kernel_code_version32_t,
    pub amd_kernel_code_version_minor: amd_kernel_code_version32_t,
    pub amd_machine_kind: amd_machine_kind16_t,
    pub amd_machine_version_major: amd_machine_version16_t,
    pub amd_machine_version_minor: amd_machine_version16_t,
    pub amd_machine_version_stepping: amd_machine_version16_t,
    pub kernel_code_entry_byte_offset: i64,
    pub kernel_code_prefetch_byte_offset: i64,
    pub kernel_code_prefetch_byte_size: u64,
    pub max_scratch_backing_memory_byte_size: u64,
    pub compute_pgm_rsrc1: amd_compute_pgm_rsrc_one32_t,
    pub compute_pgm_rsrc2: amd_compute_pgm_rsrc_two32_t,
    pub kernel_code_properties: amd_kernel_code_properties32_t,
    pub workitem_private_segment_byte_size: u32,
    pub workgroup_group_segment_byte_size: u32,
    pub gds_segment_byte_size: u32,
    pub kernarg_segment_byte_size: u64,
    pub workgroup_fbarrier_count: u32,
    pub wavefront_sgpr_count: u16,
    pub workitem_vgpr_count: u16,
    pub reserved_vgpr_first: u16,
    pub reserved_vgpr_count: u16,
    pub reserved_sgpr_first: u16,
    pub reserved_sgpr_count: u16,
    pub debug_wavefront_private_segment_offset_sgpr: u16,
    pub debug_private_segment_buffer_sgpr: u16,
    pub kernarg_segment_alignment: amd_powertwo8_t,
    pub group_segment_alignment: amd_powertwo8_t,
    pub private_segment_alignment: amd_powertwo8_t,
    pub wavefront_size: amd_powertwo8_t,
    pub call_convention: i32,
    pub reserved1: [u8; 12],
    pub runtime_loader_kernel_symbol: u64,
    pub control_directives: amd_control_directives_t,
}
zeroed_default!(amd_kernel_code_t);

/// TODO: this struct should be completely gone once debugger designs/implements Debugger APIs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct amd_runtime_loader_debug_info_t {
    pub elf_raw: *const c_void,
    pub elf_size: usize,
    pub kernel_name: *const c_char,
    pub owning_segment: *const c_void,
}
zeroed_default!(amd_runtime_loader_debug_info_t);
