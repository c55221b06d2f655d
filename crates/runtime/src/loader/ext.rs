//! The AMD loader extension (`hsa_ven_amd_loader.h`, HSA_EXTENSION_AMD_LOADER v1.00-1.03): the
//! function table `hsa_system_get_major_extension_table` hands out, and its functions.

use super::reader::{Reader, Storage};
use crate::{Error, Result, Runtime};
use softhsa_abi::*;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs a table function: no runtime → NOT_INITIALIZED, errors → status, panics → ERROR.
fn guard(f: impl FnOnce(&Runtime) -> Result<()>) -> hsa_status_t {
    match catch_unwind(AssertUnwindSafe(|| {
        let rt = crate::runtime().ok_or(Error::new(HSA_STATUS_ERROR_NOT_INITIALIZED))?;
        f(&rt)
    })) {
        Ok(Ok(())) => HSA_STATUS_SUCCESS,
        Ok(Err(e)) => e.status,
        Err(_) => HSA_STATUS_ERROR,
    }
}

fn bad_arg(why: &str) -> Error {
    Error::with_message(HSA_STATUS_ERROR_INVALID_ARGUMENT, why.to_string())
}

/// Writes `v` through a C output pointer.
///
/// # Safety
/// `out` must be NULL (refused) or valid for a write of `T`.
unsafe fn put<T>(out: *mut T, v: T) -> Result<()> {
    if out.is_null() {
        return Err(bad_arg("NULL output pointer"));
    }
    // SAFETY: non-null; the caller promises validity for a write of T.
    unsafe { out.write_unaligned(v) };
    Ok(())
}

unsafe extern "C" fn query_host_address(
    device: *const c_void,
    host: *mut *const c_void,
) -> hsa_status_t {
    guard(|rt| {
        // Shared virtual memory: a loaded segment's device address is its host address.
        rt.loader
            .find_address(device as u64)
            .ok_or_else(|| bad_arg("not in a loaded code object"))?;
        // SAFETY: the caller passes a pointer to a `const void *`.
        unsafe { put(host, device) }
    })
}

unsafe extern "C" fn query_segment_descriptors(
    descs: *mut hsa_ven_amd_loader_segment_descriptor_t,
    count: *mut usize,
) -> hsa_status_t {
    guard(|rt| {
        let mut all = Vec::new();
        for exec in rt.loader.executables() {
            for lco_handle in rt.loader.loaded_code_objects(exec)? {
                let (_, lco) = rt.loader.loaded_code_object(lco_handle)?;
                let (stype, sbase, ssize) = storage_of(&lco.storage, &lco.elf);
                for seg in &lco.code_object.plan.segments {
                    all.push(hsa_ven_amd_loader_segment_descriptor_t {
                        agent: hsa_agent_t {
                            handle: lco.agent_handle,
                        },
                        executable: hsa_executable_t { handle: exec },
                        code_object_storage_type: stype,
                        code_object_storage_base: sbase as *const c_void,
                        code_object_storage_size: ssize as usize,
                        code_object_storage_offset: seg.offset as usize,
                        segment_base: (lco.load_base + seg.vaddr) as *const c_void,
                        segment_size: seg.memsz as usize,
                    });
                }
            }
        }
        if count.is_null() {
            return Err(bad_arg("NULL count"));
        }
        // SAFETY: non-null pointer to the caller's size_t.
        let n = unsafe { count.read_unaligned() };
        if descs.is_null() || n == 0 {
            // SAFETY: as above.
            return unsafe { put(count, all.len()) };
        }
        if n != all.len() {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS,
                "descriptor count changed",
            ));
        }
        for (i, d) in all.into_iter().enumerate() {
            // SAFETY: the caller provides an array of `n` descriptors; i < n.
            unsafe { descs.add(i).write_unaligned(d) };
        }
        Ok(())
    })
}

/// (storage type, base, size) as ROCm reports them: memory readers give the program's pointer.
fn storage_of(s: &Storage, elf: &[u8]) -> (u32, u64, u64) {
    match *s {
        Storage::Memory { address, size } => (
            HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY,
            address,
            size,
        ),
        Storage::File { .. } => (
            HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_FILE,
            elf.as_ptr() as u64,
            elf.len() as u64,
        ),
    }
}

unsafe extern "C" fn query_executable(
    device: *const c_void,
    exec: *mut hsa_executable_t,
) -> hsa_status_t {
    guard(|rt| {
        let (h, _) = rt
            .loader
            .find_address(device as u64)
            .ok_or_else(|| bad_arg("not in a loaded code object"))?;
        // SAFETY: the caller passes a pointer to an hsa_executable_t.
        unsafe { put(exec, hsa_executable_t { handle: h }) }
    })
}

type LcoCallback = Option<
    unsafe extern "C" fn(hsa_executable_t, hsa_loaded_code_object_t, *mut c_void) -> hsa_status_t,
>;

unsafe extern "C" fn iterate_loaded_code_objects(
    exec: hsa_executable_t,
    callback: LcoCallback,
    data: *mut c_void,
) -> hsa_status_t {
    guard(|rt| {
        let cb = callback.ok_or_else(|| bad_arg("NULL callback"))?;
        for h in rt.loader.loaded_code_objects(exec.handle)? {
            // SAFETY: calling the program's callback with the arguments it expects.
            let st = unsafe { cb(exec, hsa_loaded_code_object_t { handle: h }, data) };
            if st != HSA_STATUS_SUCCESS {
                return Err(Error::new(st));
            }
        }
        Ok(())
    })
}

unsafe extern "C" fn loaded_code_object_get_info(
    lco: hsa_loaded_code_object_t,
    attribute: hsa_ven_amd_loader_loaded_code_object_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    guard(|rt| {
        let (exec, l) = rt.loader.loaded_code_object(lco.handle)?;
        let (stype, sbase, ssize) = storage_of(&l.storage, &l.elf);
        let bytes: Vec<u8> = match attribute {
            HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE => exec.to_ne_bytes().to_vec(),
            HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND => l.kind.to_ne_bytes().to_vec(),
            HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT => {
                l.agent_handle.to_ne_bytes().to_vec()
            }
            HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE => {
                stype.to_ne_bytes().to_vec()
            }
            HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE => {
                sbase.to_ne_bytes().to_vec()
            }
            HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE => {
                ssize.to_ne_bytes().to_vec()
            }
            HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_FILE => {
                match l.storage {
                    Storage::File { fd, .. } => fd.to_ne_bytes().to_vec(),
                    Storage::Memory { .. } => return Err(bad_arg("not a file code object")),
                }
            }
            // Segment addresses are load base + vaddr: the delta is the base (vaddrs start at 0).
            HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA => {
                (l.load_base as i64).to_ne_bytes().to_vec()
            }
            HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE => {
                l.load_base.to_ne_bytes().to_vec()
            }
            HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE => {
                l.load_size.to_ne_bytes().to_vec()
            }
            HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH => {
                (l.uri.len() as u32).to_ne_bytes().to_vec()
            }
            HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI => l.uri.as_bytes().to_vec(),
            _ => return Err(bad_arg("unknown loaded code object attribute")),
        };
        if value.is_null() {
            return Err(bad_arg("NULL value"));
        }
        // SAFETY: the attribute's documented type has exactly this many bytes (the URI: the
        // length the caller got from URI_LENGTH); `value` is non-null.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), value.cast::<u8>(), bytes.len()) };
        Ok(())
    })
}

unsafe extern "C" fn reader_create_from_file_with_offset_size(
    file: hsa_file_t,
    offset: usize,
    size: usize,
    reader: *mut hsa_code_object_reader_t,
) -> hsa_status_t {
    guard(|rt| {
        if reader.is_null() {
            return Err(bad_arg("NULL reader"));
        }
        let h = rt
            .loader
            .add_reader(Reader::from_file(file, offset as u64, size as u64)?)?;
        // SAFETY: non-null pointer to the caller's hsa_code_object_reader_t.
        unsafe { put(reader, hsa_code_object_reader_t { handle: h }) }
    })
}

type ExecCallback = Option<unsafe extern "C" fn(hsa_executable_t, *mut c_void) -> hsa_status_t>;

unsafe extern "C" fn iterate_executables(
    callback: ExecCallback,
    data: *mut c_void,
) -> hsa_status_t {
    guard(|rt| {
        let cb = callback.ok_or_else(|| bad_arg("NULL callback"))?;
        for h in rt.loader.executables() {
            // SAFETY: calling the program's callback with the arguments it expects.
            let st = unsafe { cb(hsa_executable_t { handle: h }, data) };
            if st != HSA_STATUS_SUCCESS {
                return Err(Error::new(st));
            }
        }
        Ok(())
    })
}

/// The v1.03 table; the 1.00, 1.01 and 1.02 tables are its prefixes.
pub fn extension_table() -> hsa_ven_amd_loader_1_03_pfn_t {
    hsa_ven_amd_loader_1_03_pfn_t {
        hsa_ven_amd_loader_query_host_address: Some(query_host_address),
        hsa_ven_amd_loader_query_segment_descriptors: Some(query_segment_descriptors),
        hsa_ven_amd_loader_query_executable: Some(query_executable),
        hsa_ven_amd_loader_executable_iterate_loaded_code_objects: Some(
            iterate_loaded_code_objects,
        ),
        hsa_ven_amd_loader_loaded_code_object_get_info: Some(loaded_code_object_get_info),
        hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size: Some(
            reader_create_from_file_with_offset_size,
        ),
        hsa_ven_amd_loader_iterate_executables: Some(iterate_executables),
    }
}

/// Size of the table of version 1.`minor` (for `hsa_system_get_extension_table`), if supported.
pub fn extension_table_size(major: u16, minor: u16) -> Option<usize> {
    use std::mem::size_of;
    match (major, minor) {
        (1, 0) => Some(size_of::<hsa_ven_amd_loader_1_00_pfn_t>()),
        (1, 1) => Some(size_of::<hsa_ven_amd_loader_1_01_pfn_t>()),
        (1, 2) => Some(size_of::<hsa_ven_amd_loader_1_02_pfn_t>()),
        (1, 3) => Some(size_of::<hsa_ven_amd_loader_1_03_pfn_t>()),
        _ => None,
    }
}

/// Copies the first `length` bytes of the latest v1 table to `table`
/// (`hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, major, length, table)`).
///
/// # Safety
/// `table` must be NULL (refused) or valid for writes of `length` bytes.
pub unsafe fn copy_extension_table(major: u16, length: usize, table: *mut c_void) -> Result<()> {
    if major != 1 {
        return Err(Error::with_message(
            HSA_STATUS_ERROR_INVALID_ARGUMENT,
            format!("loader extension v{major}"),
        ));
    }
    if table.is_null() {
        return Err(bad_arg("NULL table"));
    }
    let t = extension_table();
    let n = length.min(std::mem::size_of_val(&t));
    // SAFETY: `t` is a live local of at least `n` bytes; the caller promises `table` is
    // writable for `length` >= `n` bytes; they cannot overlap.
    unsafe {
        std::ptr::copy_nonoverlapping(
            (&t as *const hsa_ven_amd_loader_1_03_pfn_t).cast::<u8>(),
            table.cast::<u8>(),
            n,
        )
    };
    Ok(())
}

/// The v1.03 table as bytes (what `capi`'s `hsa_system_get_*extension_table` copies from).
pub fn extension_table_bytes() -> Vec<u8> {
    let t = extension_table();
    let n = std::mem::size_of_val(&t);
    let mut out = vec![0u8; n];
    // SAFETY: `t` is a live local of `n` bytes, `out` a fresh buffer of `n` bytes.
    unsafe {
        std::ptr::copy_nonoverlapping(
            (&t as *const hsa_ven_amd_loader_1_03_pfn_t).cast::<u8>(),
            out.as_mut_ptr(),
            n,
        )
    };
    out
}
