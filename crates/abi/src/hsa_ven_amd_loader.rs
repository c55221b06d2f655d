//! Types of `hsa_ven_amd_loader.h` (Debian libhsa-runtime-dev 5.2): The AMD loader vendor
//! extension: segment descriptors, loaded-code-object queries and its function tables.
//!
//! Generated from the header by the ABI generator (see the crate docs), then checked
//! field by field against C by `tests/layout.rs`.

use crate::hsa::*;
use core::ffi::c_void;

/// C `#define hsa_ven_amd_loader 001003`.
/// (The C literal `001003` is octal.)
pub const hsa_ven_amd_loader: u32 = 0o1003;

/// The storage type of the code object that is backing loaded memory segment.
pub type hsa_ven_amd_loader_code_object_storage_type_t = u32;

/// Loaded memory segment is not backed by any code object (anonymous), as the case would be
/// with BSS (uninitialized data).
pub const HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_NONE:
    hsa_ven_amd_loader_code_object_storage_type_t = 0;
/// Loaded memory segment is backed by the code object that is stored in the file.
pub const HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_FILE:
    hsa_ven_amd_loader_code_object_storage_type_t = 1;
/// Loaded memory segment is backed by the code object that is stored in the memory.
pub const HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY:
    hsa_ven_amd_loader_code_object_storage_type_t = 2;

/// Loaded memory segment descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct hsa_ven_amd_loader_segment_descriptor_t {
    /// Agent underlying memory segment is allocated on. If the code object that is backing
    /// underlying memory segment is program code object, then 0.
    pub agent: hsa_agent_t,
    /// Executable that is managing this underlying memory segment.
    pub executable: hsa_executable_t,
    /// Storage type of the code object that is backing underlying memory segment.
    pub code_object_storage_type: hsa_ven_amd_loader_code_object_storage_type_t,
    /// If the storage type of the code object that is backing underlying memory segment is: -
    /// HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_NONE, then null; -
    /// HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_FILE, then null-terminated filepath to the code
    /// object; - HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY, then host accessible pointer
    /// to the first byte of the code object.
    pub code_object_storage_base: *const c_void,
    /// If the storage type of the code object that is backing underlying memory segment is: -
    /// HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_NONE, then 0; -
    /// HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_FILE, then the length of the filepath to the
    /// code object (including null-terminating character); -
    /// HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY, then the size, in bytes, of the memory
    /// occupied by the code object.
    pub code_object_storage_size: usize,
    /// If the storage type of the code object that is backing underlying memory segment is: -
    /// HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_NONE, then 0; - other, then offset, in bytes,
    /// from the beginning of the code object to the first byte in the code object data is copied
    /// from.
    pub code_object_storage_offset: usize,
    /// Starting address of the underlying memory segment.
    pub segment_base: *const c_void,
    /// Size, in bytes, of the underlying memory segment.
    pub segment_size: usize,
}
zeroed_default!(hsa_ven_amd_loader_segment_descriptor_t);

/// Loaded code object kind.
pub type hsa_ven_amd_loader_loaded_code_object_kind_t = u32;

/// Program code object.
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_PROGRAM:
    hsa_ven_amd_loader_loaded_code_object_kind_t = 1;
/// Agent code object.
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT:
    hsa_ven_amd_loader_loaded_code_object_kind_t = 2;

/// Loaded code object attributes.
pub type hsa_ven_amd_loader_loaded_code_object_info_t = u32;

/// The executable in which this loaded code object is loaded. The type of this attribute is
/// `hsa_executable_t`.
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE:
    hsa_ven_amd_loader_loaded_code_object_info_t = 1;
/// The kind of this loaded code object. The type of this attribute is `uint32_t` interpreted as
/// `hsa_ven_amd_loader_loaded_code_object_kind_t`.
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND:
    hsa_ven_amd_loader_loaded_code_object_info_t = 2;
/// The agent on which this loaded code object is loaded. The value of this attribute is only
/// defined if `HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND` is
/// `HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT`. The type of this attribute is
/// `hsa_agent_t`.
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT:
    hsa_ven_amd_loader_loaded_code_object_info_t = 3;
/// The storage type of the code object reader used to load the loaded code object. The type of
/// this attribute is `uint32_t` interpreted as a
/// `hsa_ven_amd_loader_code_object_storage_type_t`.
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE:
    hsa_ven_amd_loader_loaded_code_object_info_t = 4;
/// The memory address of the first byte of the code object that was loaaded. The value of this
/// attribute is only defined if
/// `HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE` is
/// `HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY`. The type of this attribute is
/// `uint64_t`.
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE:
    hsa_ven_amd_loader_loaded_code_object_info_t = 5;
/// The memory size in bytes of the code object that was loaaded. The value of this attribute is
/// only defined if `HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE` is
/// `HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY`. The type of this attribute is
/// `uint64_t`.
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE:
    hsa_ven_amd_loader_loaded_code_object_info_t = 6;
/// The file descriptor of the code object that was loaaded. The value of this attribute is only
/// defined if `HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE` is
/// `HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_FILE`. The type of this attribute is `int`.
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_FILE:
    hsa_ven_amd_loader_loaded_code_object_info_t = 7;
/// The signed byte address difference of the memory address at which the code object is loaded
/// minus the virtual address specified in the code object that is loaded. The value of this
/// attribute is only defined if the executable in which the code object is loaded is froozen.
/// The type of this attribute is `int64_t`.
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA:
    hsa_ven_amd_loader_loaded_code_object_info_t = 8;
/// The base memory address at which the code object is loaded. This is the base address of the
/// allocation for the lowest addressed segment of the code object that is loaded. Note that any
/// non-loaded segments before the first loaded segment are ignored. The value of this attribute
/// is only defined if the executable in which the code object is loaded is froozen. The type of
/// this attribute is `uint64_t`.
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE:
    hsa_ven_amd_loader_loaded_code_object_info_t = 9;
/// The byte size of the loaded code objects contiguous memory allocation. The value of this
/// attribute is only defined if the executable in which the code object is loaded is froozen.
/// The type of this attribute is `uint64_t`.
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE:
    hsa_ven_amd_loader_loaded_code_object_info_t = 10;
/// The length of the URI in bytes, not including the NUL terminator. The type of this attribute
/// is uint32_t.
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH:
    hsa_ven_amd_loader_loaded_code_object_info_t = 11;
/// The URI name from which the code object was loaded. The type of this attribute is a NUL
/// terminated \p char* with the length equal to the value of
/// `HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH` attribute. The URI name syntax is
/// defined by the following BNF syntax:
pub const HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI:
    hsa_ven_amd_loader_loaded_code_object_info_t = 12;

/// Extension function table version 1.00.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct hsa_ven_amd_loader_1_00_pfn_t {
    pub hsa_ven_amd_loader_query_host_address: Option<
        unsafe extern "C" fn(
            device_address: *const c_void,
            host_address: *mut *const c_void,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_query_segment_descriptors: Option<
        unsafe extern "C" fn(
            segment_descriptors: *mut hsa_ven_amd_loader_segment_descriptor_t,
            num_segment_descriptors: *mut usize,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_query_executable: Option<
        unsafe extern "C" fn(
            device_address: *const c_void,
            executable: *mut hsa_executable_t,
        ) -> hsa_status_t,
    >,
}
zeroed_default!(hsa_ven_amd_loader_1_00_pfn_t);

/// Extension function table version 1.01.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct hsa_ven_amd_loader_1_01_pfn_t {
    pub hsa_ven_amd_loader_query_host_address: Option<
        unsafe extern "C" fn(
            device_address: *const c_void,
            host_address: *mut *const c_void,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_query_segment_descriptors: Option<
        unsafe extern "C" fn(
            segment_descriptors: *mut hsa_ven_amd_loader_segment_descriptor_t,
            num_segment_descriptors: *mut usize,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_query_executable: Option<
        unsafe extern "C" fn(
            device_address: *const c_void,
            executable: *mut hsa_executable_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_executable_iterate_loaded_code_objects: Option<
        unsafe extern "C" fn(
            executable: hsa_executable_t,
            callback: Option<
                unsafe extern "C" fn(
                    executable: hsa_executable_t,
                    loaded_code_object: hsa_loaded_code_object_t,
                    data: *mut c_void,
                ) -> hsa_status_t,
            >,
            data: *mut c_void,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_loaded_code_object_get_info: Option<
        unsafe extern "C" fn(
            loaded_code_object: hsa_loaded_code_object_t,
            attribute: hsa_ven_amd_loader_loaded_code_object_info_t,
            value: *mut c_void,
        ) -> hsa_status_t,
    >,
}
zeroed_default!(hsa_ven_amd_loader_1_01_pfn_t);

/// Extension function table version 1.02.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct hsa_ven_amd_loader_1_02_pfn_t {
    pub hsa_ven_amd_loader_query_host_address: Option<
        unsafe extern "C" fn(
            device_address: *const c_void,
            host_address: *mut *const c_void,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_query_segment_descriptors: Option<
        unsafe extern "C" fn(
            segment_descriptors: *mut hsa_ven_amd_loader_segment_descriptor_t,
            num_segment_descriptors: *mut usize,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_query_executable: Option<
        unsafe extern "C" fn(
            device_address: *const c_void,
            executable: *mut hsa_executable_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_executable_iterate_loaded_code_objects: Option<
        unsafe extern "C" fn(
            executable: hsa_executable_t,
            callback: Option<
                unsafe extern "C" fn(
                    executable: hsa_executable_t,
                    loaded_code_object: hsa_loaded_code_object_t,
                    data: *mut c_void,
                ) -> hsa_status_t,
            >,
            data: *mut c_void,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_loaded_code_object_get_info: Option<
        unsafe extern "C" fn(
            loaded_code_object: hsa_loaded_code_object_t,
            attribute: hsa_ven_amd_loader_loaded_code_object_info_t,
            value: *mut c_void,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size: Option<
        unsafe extern "C" fn(
            file: hsa_file_t,
            offset: usize,
            size: usize,
            code_object_reader: *mut hsa_code_object_reader_t,
        ) -> hsa_status_t,
    >,
}
zeroed_default!(hsa_ven_amd_loader_1_02_pfn_t);

/// Extension function table version 1.03.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct hsa_ven_amd_loader_1_03_pfn_t {
    pub hsa_ven_amd_loader_query_host_address: Option<
        unsafe extern "C" fn(
            device_address: *const c_void,
            host_address: *mut *const c_void,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_query_segment_descriptors: Option<
        unsafe extern "C" fn(
            segment_descriptors: *mut hsa_ven_amd_loader_segment_descriptor_t,
            num_segment_descriptors: *mut usize,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_query_executable: Option<
        unsafe extern "C" fn(
            device_address: *const c_void,
            executable: *mut hsa_executable_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_executable_iterate_loaded_code_objects: Option<
        unsafe extern "C" fn(
            executable: hsa_executable_t,
            callback: Option<
                unsafe extern "C" fn(
                    executable: hsa_executable_t,
                    loaded_code_object: hsa_loaded_code_object_t,
                    data: *mut c_void,
                ) -> hsa_status_t,
            >,
            data: *mut c_void,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_loaded_code_object_get_info: Option<
        unsafe extern "C" fn(
            loaded_code_object: hsa_loaded_code_object_t,
            attribute: hsa_ven_amd_loader_loaded_code_object_info_t,
            value: *mut c_void,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size: Option<
        unsafe extern "C" fn(
            file: hsa_file_t,
            offset: usize,
            size: usize,
            code_object_reader: *mut hsa_code_object_reader_t,
        ) -> hsa_status_t,
    >,
    pub hsa_ven_amd_loader_iterate_executables: Option<
        unsafe extern "C" fn(
            callback: Option<
                unsafe extern "C" fn(
                    executable: hsa_executable_t,
                    data: *mut c_void,
                ) -> hsa_status_t,
            >,
            data: *mut c_void,
        ) -> hsa_status_t,
    >,
}
zeroed_default!(hsa_ven_amd_loader_1_03_pfn_t);
