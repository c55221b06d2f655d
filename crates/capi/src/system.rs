//! Initialisation, system attributes, status strings, extensions, system events and
//! `hsa_amd_async_function`.

use crate::agent::write_info;
use crate::{call, with_runtime, write_out};
use softhsa_abi::*;
use softhsa_runtime::system::{self, trace};
use softhsa_runtime::topology::InfoValue;
use softhsa_runtime::{Error, Result};
use std::ffi::{c_char, c_void};

/// The AMD loader extension (`hsa_ven_amd_loader.h`, v1.00-1.03) is provided by the loader.
const AMD_LOADER_AVAILABLE: bool = true;

#[no_mangle]
pub extern "C" fn hsa_init() -> hsa_status_t {
    call("hsa_init", softhsa_runtime::init)
}

#[no_mangle]
pub extern "C" fn hsa_shut_down() -> hsa_status_t {
    call("hsa_shut_down", || {
        softhsa_runtime::shut_down()?;
        if softhsa_runtime::runtime().is_none() {
            // Last reference: close the timeline and flush the trace file.
            trace::flush();
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn hsa_status_string(
    status: hsa_status_t,
    status_string: *mut *const c_char,
) -> hsa_status_t {
    with_runtime("hsa_status_string", |_| {
        let text =
            system::status_string(status).ok_or(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT))?;
        // SAFETY: `status_string` is NULL or a `const char*` the caller owns; the text is 'static.
        unsafe { write_out(status_string, text.as_ptr()) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_system_get_info(
    attribute: hsa_system_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_system_get_info", |_| {
        let v = match attribute {
            HSA_SYSTEM_INFO_VERSION_MAJOR => InfoValue::U16(system::VERSION.0),
            HSA_SYSTEM_INFO_VERSION_MINOR => InfoValue::U16(system::VERSION.1),
            HSA_SYSTEM_INFO_TIMESTAMP => InfoValue::U64(system::timestamp()),
            HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY => InfoValue::U64(system::TIMESTAMP_FREQUENCY),
            HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT => InfoValue::U64(u64::MAX),
            HSA_SYSTEM_INFO_ENDIANNESS => InfoValue::U32(HSA_ENDIANNESS_LITTLE),
            HSA_SYSTEM_INFO_MACHINE_MODEL => InfoValue::U32(HSA_MACHINE_MODEL_LARGE),
            HSA_SYSTEM_INFO_EXTENSIONS => {
                InfoValue::Bytes(system::extension_mask(AMD_LOADER_AVAILABLE).to_vec())
            }
            // As in ROCm: a pointer to the build string.
            HSA_AMD_SYSTEM_INFO_BUILD_VERSION => InfoValue::ptr(system::BUILD_VERSION.as_ptr()),
            // SVM attributes are supported (softhsa_runtime::svm); gfx9 runs with XNACK off, so
            // host memory is not GPU-accessible by default (as on a ROCm 5.2 gfx906 board).
            HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED => InfoValue::Bool(true),
            HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT => InfoValue::Bool(false),
            _ => return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT)),
        };
        // SAFETY: `value` points to storage of the attribute's type (caller's contract).
        unsafe { write_info(value, v) }
    })
}

/// The supported `(major, highest minor)` of an extension id, `None` if known but unsupported,
/// INVALID_ARGUMENT for an id hsa.h does not define.
pub(crate) fn extension_version(extension: u16) -> Result<Option<(u16, u16)>> {
    system::extensions(AMD_LOADER_AVAILABLE)
        .iter()
        .find(|e| e.id == extension)
        .map(|e| e.version)
        .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT))
}

/// Shared by the system and agent forms of `..._major_extension_supported`.
pub(crate) fn major_extension_supported(
    extension: u16,
    version_major: u16,
    version_minor: *mut u16,
    result: *mut bool,
) -> Result<()> {
    if version_minor.is_null() || result.is_null() {
        return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
    }
    let version = extension_version(extension)?.filter(|(major, _)| *major == version_major);
    // SAFETY: both checked non-NULL; the caller owns them.
    unsafe {
        write_out(result, version.is_some())?;
        if let Some((_, minor)) = version {
            write_out(version_minor, minor)?;
        }
    }
    Ok(())
}

#[no_mangle]
pub extern "C" fn hsa_extension_get_name(extension: u16, name: *mut *const c_char) -> hsa_status_t {
    with_runtime("hsa_extension_get_name", |_| {
        let e = system::extensions(AMD_LOADER_AVAILABLE)
            .into_iter()
            .find(|e| e.id == extension)
            .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT))?;
        // SAFETY: `name` is NULL or a `const char*` the caller owns; names are 'static.
        unsafe { write_out(name, e.name.as_ptr()) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_system_extension_supported(
    extension: u16,
    version_major: u16,
    version_minor: u16,
    result: *mut bool,
) -> hsa_status_t {
    with_runtime("hsa_system_extension_supported", |_| {
        let ok = extension_version(extension)?
            .is_some_and(|(major, minor)| major == version_major && version_minor <= minor);
        // SAFETY: `result` is NULL or a bool the caller owns.
        unsafe { write_out(result, ok) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_system_major_extension_supported(
    extension: u16,
    version_major: u16,
    version_minor: *mut u16,
    result: *mut bool,
) -> hsa_status_t {
    with_runtime("hsa_system_major_extension_supported", |_| {
        major_extension_supported(extension, version_major, version_minor, result)
    })
}

/// Copies `len` bytes of an extension's function table to `table`.
fn copy_extension_table(
    extension: u16,
    version_major: u16,
    len: usize,
    table: *mut c_void,
) -> Result<()> {
    if table.is_null() || len == 0 {
        return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
    }
    let unsupported = || {
        Error::with_message(
            HSA_STATUS_ERROR_INVALID_ARGUMENT,
            format!("extension {extension:#x} version {version_major} is not supported"),
        )
    };
    match extension_version(extension)? {
        Some((major, _)) if major == version_major => {}
        _ => return Err(unsupported()),
    }
    let bytes = match extension as u32 {
        HSA_EXTENSION_AMD_LOADER => softhsa_runtime::loader::extension_table_bytes(),
        HSA_EXTENSION_IMAGES => crate::image::extension_table_bytes(),
        _ => return Err(unsupported()),
    };
    // SAFETY: `table` is non-NULL and the caller provides `len` bytes (hsa.h's contract).
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), table.cast::<u8>(), len.min(bytes.len()))
    };
    Ok(())
}

#[no_mangle]
pub extern "C" fn hsa_system_get_extension_table(
    extension: u16,
    version_major: u16,
    version_minor: u16,
    table: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_system_get_extension_table", |_| {
        // The loader tables 1.00..1.03 are prefixes of each other: 3, 5, 6, 7 functions; the
        // images 1.00 table is the first 10 functions of the major table.
        let functions = match (extension as u32, version_minor) {
            (HSA_EXTENSION_IMAGES, _) => 10,
            (_, 0) => 3,
            (_, 1) => 5,
            (_, 2) => 6,
            _ => 7,
        };
        copy_extension_table(
            extension,
            version_major,
            functions * std::mem::size_of::<usize>(),
            table,
        )
    })
}

#[no_mangle]
pub extern "C" fn hsa_system_get_major_extension_table(
    extension: u16,
    version_major: u16,
    table_length: usize,
    table: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_system_get_major_extension_table", |_| {
        copy_extension_table(extension, version_major, table_length, table)
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_register_system_event_handler(
    callback: hsa_amd_system_event_callback_t,
    data: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_amd_register_system_event_handler", |rt| {
        if callback.is_none() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        rt.topology.events.register(callback, data);
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_async_function(
    callback: Option<unsafe extern "C" fn(*mut c_void)>,
    arg: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_amd_async_function", |_| {
        let cb = callback.ok_or(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT))?;
        let arg = arg as usize;
        std::thread::Builder::new()
            .name("softhsa-async".into())
            // SAFETY: the program's function, called once with its argument on a runtime
            // thread, as hsa_ext_amd.h specifies.
            .spawn(move || unsafe { cb(arg as *mut c_void) })
            .map(|_| ())
            .map_err(|e| Error::with_message(HSA_STATUS_ERROR_OUT_OF_RESOURCES, e.to_string()))
    })
}
