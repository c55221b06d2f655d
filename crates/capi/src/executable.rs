//! Code object readers, executables, symbols and the deprecated code object API:
//! `hsa_code_object_reader_*`, `hsa_executable_*`, `hsa_code_object_*`, `hsa_code_symbol_get_info`.
//! Handles are decoded and looked up by `softhsa_runtime::loader`, never dereferenced.

use crate::agent::{iterate, write_info};
use crate::{with_runtime, write_out};
use softhsa_abi::*;
use softhsa_runtime::loader::{symbol_info, AgentRef, CodeObjectEntry, Reader};
use softhsa_runtime::topology::isa;
use softhsa_runtime::{Error, Result, Runtime};
use std::ffi::{c_char, c_void, CStr};

fn invalid() -> Error {
    Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT)
}

/// A C string argument, refusing NULL and non-UTF-8.
///
/// # Safety
/// `s` must be NULL or a NUL-terminated string.
unsafe fn c_str<'a>(s: *const c_char) -> Result<&'a str> {
    if s.is_null() {
        return Err(invalid());
    }
    // SAFETY: non-null, NUL-terminated (caller's contract).
    unsafe { CStr::from_ptr(s) }
        .to_str()
        .map_err(|_| Error::new(HSA_STATUS_ERROR_INVALID_SYMBOL_NAME))
}

/// The GPU agent of a handle, as the loader needs it.
fn gpu_agent(rt: &Runtime, handle: u64) -> Result<AgentRef<'static>> {
    let agent = rt.topology.agent(handle)?;
    let gpu = agent.gpu.as_ref().ok_or_else(|| {
        Error::with_message(
            HSA_STATUS_ERROR_INVALID_AGENT,
            "code objects load on GPU agents only",
        )
    })?;
    Ok(AgentRef {
        index: agent.index,
        handle,
        isa_name: isa::ISAS[gpu.isa].name,
    })
}

fn isa_name_of(rt: &Runtime, agent_index: usize) -> Option<String> {
    let a = rt.topology.agents().get(agent_index)?;
    a.gpu.as_ref().map(|g| isa::ISAS[g.isa].name.to_string())
}

// ---- readers ----

#[no_mangle]
pub extern "C" fn hsa_code_object_reader_create_from_file(
    file: hsa_file_t,
    code_object_reader: *mut hsa_code_object_reader_t,
) -> hsa_status_t {
    with_runtime("hsa_code_object_reader_create_from_file", |rt| {
        if code_object_reader.is_null() {
            return Err(invalid());
        }
        let h = rt.loader.add_reader(Reader::from_file(file, 0, 0)?)?;
        // SAFETY: checked non-NULL; the caller's hsa_code_object_reader_t.
        unsafe { write_out(code_object_reader, hsa_code_object_reader_t { handle: h }) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_code_object_reader_create_from_memory(
    code_object: *const c_void,
    size: usize,
    code_object_reader: *mut hsa_code_object_reader_t,
) -> hsa_status_t {
    with_runtime("hsa_code_object_reader_create_from_memory", |rt| {
        if code_object.is_null() || size == 0 || code_object_reader.is_null() {
            return Err(invalid());
        }
        // SAFETY: the caller provides `size` readable bytes at `code_object` (HSA contract).
        let bytes = unsafe { std::slice::from_raw_parts(code_object.cast::<u8>(), size) };
        let h = rt
            .loader
            .add_reader(Reader::from_memory(bytes, code_object as u64)?)?;
        // SAFETY: checked non-NULL.
        unsafe { write_out(code_object_reader, hsa_code_object_reader_t { handle: h }) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_code_object_reader_destroy(
    code_object_reader: hsa_code_object_reader_t,
) -> hsa_status_t {
    with_runtime("hsa_code_object_reader_destroy", |rt| {
        rt.loader.destroy_reader(code_object_reader.handle)
    })
}

// ---- executables ----

#[no_mangle]
pub extern "C" fn hsa_executable_create(
    profile: hsa_profile_t,
    executable_state: hsa_executable_state_t,
    _options: *const c_char,
    executable: *mut hsa_executable_t,
) -> hsa_status_t {
    with_runtime("hsa_executable_create", |rt| {
        if executable.is_null()
            || (executable_state != HSA_EXECUTABLE_STATE_FROZEN
                && executable_state != HSA_EXECUTABLE_STATE_UNFROZEN)
        {
            return Err(invalid());
        }
        let h = rt
            .loader
            .create_executable(profile, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT)?;
        if executable_state == HSA_EXECUTABLE_STATE_FROZEN {
            rt.loader.executable(h)?.freeze()?;
        }
        // SAFETY: checked non-NULL.
        unsafe { write_out(executable, hsa_executable_t { handle: h }) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_executable_create_alt(
    profile: hsa_profile_t,
    default_float_rounding_mode: hsa_default_float_rounding_mode_t,
    _options: *const c_char,
    executable: *mut hsa_executable_t,
) -> hsa_status_t {
    with_runtime("hsa_executable_create_alt", |rt| {
        if executable.is_null() {
            return Err(invalid());
        }
        let h = rt
            .loader
            .create_executable(profile, default_float_rounding_mode)?;
        // SAFETY: checked non-NULL.
        unsafe { write_out(executable, hsa_executable_t { handle: h }) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_executable_destroy(executable: hsa_executable_t) -> hsa_status_t {
    with_runtime("hsa_executable_destroy", |rt| {
        rt.loader.destroy_executable(executable.handle, &rt.memory)
    })
}

/// Loads a reader's code object; writes the loaded code object handle if asked.
fn load(
    rt: &Runtime,
    executable: u64,
    agent: Option<u64>,
    reader: &Reader,
    out: *mut hsa_loaded_code_object_t,
) -> Result<()> {
    let agent = agent.map(|a| gpu_agent(rt, a)).transpose()?;
    let cpu = rt.topology.cpu_agent().index;
    let h = rt
        .loader
        .load_code_object(executable, agent, cpu, reader, &rt.memory)?;
    if !out.is_null() {
        // SAFETY: non-NULL: the caller's hsa_loaded_code_object_t (the argument is optional).
        unsafe { write_out(out, hsa_loaded_code_object_t { handle: h }) }?;
    }
    Ok(())
}

#[no_mangle]
pub extern "C" fn hsa_executable_load_agent_code_object(
    executable: hsa_executable_t,
    agent: hsa_agent_t,
    code_object_reader: hsa_code_object_reader_t,
    _options: *const c_char,
    loaded_code_object: *mut hsa_loaded_code_object_t,
) -> hsa_status_t {
    with_runtime("hsa_executable_load_agent_code_object", |rt| {
        rt.loader.executable(executable.handle)?;
        let reader = rt.loader.reader(code_object_reader.handle)?;
        load(
            rt,
            executable.handle,
            Some(agent.handle),
            &reader,
            loaded_code_object,
        )
    })
}

#[no_mangle]
pub extern "C" fn hsa_executable_load_program_code_object(
    executable: hsa_executable_t,
    code_object_reader: hsa_code_object_reader_t,
    _options: *const c_char,
    loaded_code_object: *mut hsa_loaded_code_object_t,
) -> hsa_status_t {
    with_runtime("hsa_executable_load_program_code_object", |rt| {
        rt.loader.executable(executable.handle)?;
        let reader = rt.loader.reader(code_object_reader.handle)?;
        load(rt, executable.handle, None, &reader, loaded_code_object)
    })
}

#[no_mangle]
pub extern "C" fn hsa_executable_load_code_object(
    executable: hsa_executable_t,
    agent: hsa_agent_t,
    code_object: hsa_code_object_t,
    _options: *const c_char,
) -> hsa_status_t {
    with_runtime("hsa_executable_load_code_object", |rt| {
        rt.loader.executable(executable.handle)?;
        let reader = rt.loader.code_object(code_object.handle)?.reader();
        load(
            rt,
            executable.handle,
            Some(agent.handle),
            &reader,
            std::ptr::null_mut(),
        )
    })
}

#[no_mangle]
pub extern "C" fn hsa_executable_freeze(
    executable: hsa_executable_t,
    _options: *const c_char,
) -> hsa_status_t {
    with_runtime("hsa_executable_freeze", |rt| {
        rt.loader.executable(executable.handle)?.freeze()
    })
}

#[no_mangle]
pub extern "C" fn hsa_executable_get_info(
    executable: hsa_executable_t,
    attribute: hsa_executable_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_executable_get_info", |rt| {
        let v = rt.loader.executable(executable.handle)?.info(attribute)?;
        // SAFETY: every executable attribute is a 32-bit enum; `value` is the caller's storage.
        unsafe { write_out(value.cast::<u32>(), v) }
    })
}

fn define(
    rt: &Runtime,
    executable: u64,
    agent: Option<u64>,
    name: *const c_char,
    address: *mut c_void,
    readonly: bool,
) -> Result<()> {
    let exec = rt.loader.executable(executable)?;
    let agent = agent.map(|a| gpu_agent(rt, a)).transpose()?;
    // SAFETY: `name` is NULL (refused) or a C string (HSA contract).
    let name = unsafe { c_str(name) }?;
    exec.define_variable(name, agent, address as u64, readonly)
}

#[no_mangle]
pub extern "C" fn hsa_executable_global_variable_define(
    executable: hsa_executable_t,
    variable_name: *const c_char,
    address: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_executable_global_variable_define", |rt| {
        define(rt, executable.handle, None, variable_name, address, false)
    })
}

#[no_mangle]
pub extern "C" fn hsa_executable_agent_global_variable_define(
    executable: hsa_executable_t,
    agent: hsa_agent_t,
    variable_name: *const c_char,
    address: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_executable_agent_global_variable_define", |rt| {
        define(
            rt,
            executable.handle,
            Some(agent.handle),
            variable_name,
            address,
            false,
        )
    })
}

#[no_mangle]
pub extern "C" fn hsa_executable_readonly_variable_define(
    executable: hsa_executable_t,
    agent: hsa_agent_t,
    variable_name: *const c_char,
    address: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_executable_readonly_variable_define", |rt| {
        define(
            rt,
            executable.handle,
            Some(agent.handle),
            variable_name,
            address,
            true,
        )
    })
}

fn validate(rt: &Runtime, executable: u64, result: *mut u32) -> Result<()> {
    let exec = rt.loader.executable(executable)?;
    let r = exec.validate(|a| isa_name_of(rt, a));
    // SAFETY: `result` is NULL (refused) or the caller's uint32_t.
    unsafe { write_out(result, r) }
}

#[no_mangle]
pub extern "C" fn hsa_executable_validate(
    executable: hsa_executable_t,
    result: *mut u32,
) -> hsa_status_t {
    with_runtime("hsa_executable_validate", |rt| {
        validate(rt, executable.handle, result)
    })
}

#[no_mangle]
pub extern "C" fn hsa_executable_validate_alt(
    executable: hsa_executable_t,
    _options: *const c_char,
    result: *mut u32,
) -> hsa_status_t {
    with_runtime("hsa_executable_validate_alt", |rt| {
        validate(rt, executable.handle, result)
    })
}

// ---- symbols ----

fn lookup(
    rt: &Runtime,
    executable: u64,
    name: *const c_char,
    agent: Option<u64>,
    out: *mut hsa_executable_symbol_t,
) -> Result<()> {
    if out.is_null() {
        return Err(invalid());
    }
    let exec = rt.loader.executable(executable)?;
    // SAFETY: `name` is NULL (refused) or a C string.
    let name = unsafe { c_str(name) }?;
    let agent_index = agent
        .map(|a| rt.topology.agent(a).map(|x| x.index))
        .transpose()?;
    let index = exec.find_symbol(name, agent_index)?;
    // SAFETY: checked non-NULL.
    unsafe {
        write_out(
            out,
            hsa_executable_symbol_t {
                handle: rt.loader.symbol_handle(executable, index),
            },
        )
    }
}

#[no_mangle]
pub extern "C" fn hsa_executable_get_symbol_by_name(
    executable: hsa_executable_t,
    symbol_name: *const c_char,
    agent: *const hsa_agent_t,
    symbol: *mut hsa_executable_symbol_t,
) -> hsa_status_t {
    with_runtime("hsa_executable_get_symbol_by_name", |rt| {
        // SAFETY: `agent` is NULL (no agent) or points to the caller's hsa_agent_t.
        let agent = (!agent.is_null()).then(|| unsafe { agent.read_unaligned() }.handle);
        lookup(rt, executable.handle, symbol_name, agent, symbol)
    })
}

#[no_mangle]
pub extern "C" fn hsa_executable_get_symbol(
    executable: hsa_executable_t,
    _module_name: *const c_char,
    symbol_name: *const c_char,
    agent: hsa_agent_t,
    _call_convention: i32,
    symbol: *mut hsa_executable_symbol_t,
) -> hsa_status_t {
    with_runtime("hsa_executable_get_symbol", |rt| {
        // Program symbols ignore the agent; kernels and agent variables need a valid one.
        let agent = (agent.handle != 0).then_some(agent.handle);
        lookup(rt, executable.handle, symbol_name, agent, symbol)
    })
}

#[no_mangle]
pub extern "C" fn hsa_executable_symbol_get_info(
    executable_symbol: hsa_executable_symbol_t,
    attribute: hsa_executable_symbol_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_executable_symbol_get_info", |rt| {
        let (_, s) = rt.loader.symbol(executable_symbol.handle)?;
        let v = symbol_info(&s, attribute)?;
        // SAFETY: `value` has room for the attribute's documented type (NAME: NAME_LENGTH bytes).
        unsafe { write_info(value, v) }
    })
}

type SymbolCallback = Option<
    unsafe extern "C" fn(hsa_executable_t, hsa_executable_symbol_t, *mut c_void) -> hsa_status_t,
>;

/// Calls `cb` for every symbol of `executable` that `keep` accepts.
fn each_symbol(
    rt: &Runtime,
    executable: hsa_executable_t,
    keep: impl FnMut(&softhsa_runtime::loader::Symbol) -> bool,
    mut cb: impl FnMut(hsa_executable_symbol_t) -> hsa_status_t,
) -> Result<()> {
    let exec = rt.loader.executable(executable.handle)?;
    let handles: Vec<u64> = exec
        .symbols(keep)
        .into_iter()
        .map(|(i, _)| rt.loader.symbol_handle(executable.handle, i))
        .collect();
    iterate(handles, |h| cb(hsa_executable_symbol_t { handle: h }))
}

#[no_mangle]
pub extern "C" fn hsa_executable_iterate_symbols(
    executable: hsa_executable_t,
    callback: SymbolCallback,
    data: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_executable_iterate_symbols", |rt| {
        let cb = callback.ok_or_else(invalid)?;
        // SAFETY: calling the program's callback with the arguments it expects.
        each_symbol(
            rt,
            executable,
            |_| true,
            |s| unsafe { cb(executable, s, data) },
        )
    })
}

#[no_mangle]
pub extern "C" fn hsa_executable_iterate_program_symbols(
    executable: hsa_executable_t,
    callback: SymbolCallback,
    data: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_executable_iterate_program_symbols", |rt| {
        let cb = callback.ok_or_else(invalid)?;
        // SAFETY: calling the program's callback with the arguments it expects.
        each_symbol(
            rt,
            executable,
            |s| s.agent.is_none(),
            |s| unsafe { cb(executable, s, data) },
        )
    })
}

#[no_mangle]
pub extern "C" fn hsa_executable_iterate_agent_symbols(
    executable: hsa_executable_t,
    agent: hsa_agent_t,
    callback: Option<
        unsafe extern "C" fn(
            hsa_executable_t,
            hsa_agent_t,
            hsa_executable_symbol_t,
            *mut c_void,
        ) -> hsa_status_t,
    >,
    data: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_executable_iterate_agent_symbols", |rt| {
        let cb = callback.ok_or_else(invalid)?;
        let index = rt.topology.agent(agent.handle)?.index;
        let keep = |s: &softhsa_runtime::loader::Symbol| s.agent.is_some_and(|a| a.0 == index);
        // SAFETY: calling the program's callback with the arguments it expects.
        each_symbol(rt, executable, keep, |s| unsafe {
            cb(executable, agent, s, data)
        })
    })
}

// ---- deprecated code objects ----

#[no_mangle]
pub extern "C" fn hsa_code_object_deserialize(
    serialized_code_object: *mut c_void,
    serialized_code_object_size: usize,
    _options: *const c_char,
    code_object: *mut hsa_code_object_t,
) -> hsa_status_t {
    with_runtime("hsa_code_object_deserialize", |rt| {
        if serialized_code_object.is_null()
            || serialized_code_object_size == 0
            || code_object.is_null()
        {
            return Err(invalid());
        }
        // SAFETY: the caller provides `size` readable bytes.
        let bytes = unsafe {
            std::slice::from_raw_parts(
                serialized_code_object.cast::<u8>(),
                serialized_code_object_size,
            )
        };
        let h = rt
            .loader
            .add_code_object(CodeObjectEntry::deserialize(bytes)?)?;
        // SAFETY: checked non-NULL.
        unsafe { write_out(code_object, hsa_code_object_t { handle: h }) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_code_object_serialize(
    code_object: hsa_code_object_t,
    alloc_callback: Option<
        unsafe extern "C" fn(usize, hsa_callback_data_t, *mut *mut c_void) -> hsa_status_t,
    >,
    callback_data: hsa_callback_data_t,
    _options: *const c_char,
    serialized_code_object: *mut *mut c_void,
    serialized_code_object_size: *mut usize,
) -> hsa_status_t {
    with_runtime("hsa_code_object_serialize", |rt| {
        let alloc = alloc_callback.ok_or_else(invalid)?;
        if serialized_code_object.is_null() || serialized_code_object_size.is_null() {
            return Err(invalid());
        }
        let co = rt.loader.code_object(code_object.handle)?;
        let mut address: *mut c_void = std::ptr::null_mut();
        // SAFETY: the program's allocation callback, given a valid out-pointer.
        let st = unsafe { alloc(co.bytes.len(), callback_data, &mut address) };
        if st != HSA_STATUS_SUCCESS {
            return Err(Error::new(st));
        }
        if address.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_OUT_OF_RESOURCES));
        }
        // SAFETY: the callback allocated `len` bytes at `address`; our bytes are a separate Arc.
        unsafe {
            std::ptr::copy_nonoverlapping(co.bytes.as_ptr(), address.cast::<u8>(), co.bytes.len())
        };
        // SAFETY: both checked non-NULL.
        unsafe {
            write_out(serialized_code_object, address)?;
            write_out(serialized_code_object_size, co.bytes.len())
        }
    })
}

#[no_mangle]
pub extern "C" fn hsa_code_object_destroy(code_object: hsa_code_object_t) -> hsa_status_t {
    with_runtime("hsa_code_object_destroy", |rt| {
        rt.loader.destroy_code_object(code_object.handle)
    })
}

#[no_mangle]
pub extern "C" fn hsa_code_object_get_info(
    code_object: hsa_code_object_t,
    attribute: hsa_code_object_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_code_object_get_info", |rt| {
        let co = rt.loader.code_object(code_object.handle)?;
        let bytes = co.info(attribute, |name| isa::from_name(name).map(isa::isa_handle))?;
        // SAFETY: `value` has room for the attribute's type (char[64], hsa_isa_t or an enum).
        unsafe { write_info(value, softhsa_runtime::topology::InfoValue::Bytes(bytes)) }
    })
}

fn code_symbol(
    rt: &Runtime,
    code_object: u64,
    name: *const c_char,
    out: *mut hsa_code_symbol_t,
) -> Result<()> {
    if out.is_null() {
        return Err(invalid());
    }
    let co = rt.loader.code_object(code_object)?;
    // SAFETY: `name` is NULL (refused) or a C string.
    let name = unsafe { c_str(name) }?;
    let i = co
        .find(name)
        .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_SYMBOL_NAME))?;
    // SAFETY: checked non-NULL.
    unsafe {
        write_out(
            out,
            hsa_code_symbol_t {
                handle: rt.loader.code_symbol_handle(code_object, i),
            },
        )
    }
}

#[no_mangle]
pub extern "C" fn hsa_code_object_get_symbol(
    code_object: hsa_code_object_t,
    symbol_name: *const c_char,
    symbol: *mut hsa_code_symbol_t,
) -> hsa_status_t {
    with_runtime("hsa_code_object_get_symbol", |rt| {
        code_symbol(rt, code_object.handle, symbol_name, symbol)
    })
}

#[no_mangle]
pub extern "C" fn hsa_code_object_get_symbol_from_name(
    code_object: hsa_code_object_t,
    _module_name: *const c_char,
    symbol_name: *const c_char,
    symbol: *mut hsa_code_symbol_t,
) -> hsa_status_t {
    with_runtime("hsa_code_object_get_symbol_from_name", |rt| {
        code_symbol(rt, code_object.handle, symbol_name, symbol)
    })
}

#[no_mangle]
pub extern "C" fn hsa_code_object_iterate_symbols(
    code_object: hsa_code_object_t,
    callback: Option<
        unsafe extern "C" fn(hsa_code_object_t, hsa_code_symbol_t, *mut c_void) -> hsa_status_t,
    >,
    data: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_code_object_iterate_symbols", |rt| {
        let cb = callback.ok_or_else(invalid)?;
        let co = rt.loader.code_object(code_object.handle)?;
        let handles =
            (0..co.symbol_count()).map(|i| rt.loader.code_symbol_handle(code_object.handle, i));
        // SAFETY: calling the program's callback with the arguments it expects.
        iterate(handles, |h| unsafe {
            cb(code_object, hsa_code_symbol_t { handle: h }, data)
        })
    })
}

#[no_mangle]
pub extern "C" fn hsa_code_symbol_get_info(
    code_symbol: hsa_code_symbol_t,
    attribute: hsa_code_symbol_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_code_symbol_get_info", |rt| {
        let s = rt.loader.code_symbol(code_symbol.handle)?;
        let v = softhsa_runtime::loader::code_symbol_info(&s, attribute)?;
        // SAFETY: `value` has room for the attribute's documented type.
        unsafe { write_info(value, v) }
    })
}
