//! The exported C API, declared as a C program sees it: the fuzz targets call these symbols
//! (linked from `softhsa-capi`), the same entry points as every HSA program.
#![allow(missing_docs)]

use softhsa_abi::*;
use std::ffi::{c_char, c_void};

// Links the library that defines the symbols.
use softhsa_capi as _;

// The functions `softhsa-capi` exports as safe (they check NULL pointers and every handle, the
// way this project's C boundary works) are declared safe; the others keep `unsafe`.
unsafe extern "C" {
    pub safe fn hsa_agent_get_info(
        agent: hsa_agent_t,
        attribute: hsa_agent_info_t,
        value: *mut c_void,
    ) -> hsa_status_t;
    pub safe fn hsa_agent_iterate_isas(
        agent: hsa_agent_t,
        callback: Option<unsafe extern "C" fn(hsa_isa_t, *mut c_void) -> hsa_status_t>,
        data: *mut c_void,
    ) -> hsa_status_t;
    pub safe fn hsa_agent_iterate_regions(
        agent: hsa_agent_t,
        callback: Option<unsafe extern "C" fn(hsa_region_t, *mut c_void) -> hsa_status_t>,
        data: *mut c_void,
    ) -> hsa_status_t;
    pub safe fn hsa_amd_agent_iterate_memory_pools(
        agent: hsa_agent_t,
        callback: Option<unsafe extern "C" fn(hsa_amd_memory_pool_t, *mut c_void) -> hsa_status_t>,
        data: *mut c_void,
    ) -> hsa_status_t;
    pub safe fn hsa_amd_agent_memory_pool_get_info(
        agent: hsa_agent_t,
        pool: hsa_amd_memory_pool_t,
        attribute: hsa_amd_agent_memory_pool_info_t,
        value: *mut c_void,
    ) -> hsa_status_t;
    pub safe fn hsa_amd_agents_allow_access(
        num_agents: u32,
        agents: *const hsa_agent_t,
        flags: *const u32,
        ptr: *const c_void,
    ) -> hsa_status_t;
    pub safe fn hsa_amd_memory_fill(ptr: *mut c_void, value: u32, count: usize) -> hsa_status_t;
    pub safe fn hsa_amd_memory_lock(
        host_ptr: *mut c_void,
        size: usize,
        agents: *mut hsa_agent_t,
        num_agent: i32,
        agent_ptr: *mut *mut c_void,
    ) -> hsa_status_t;
    pub safe fn hsa_amd_memory_pool_allocate(
        pool: hsa_amd_memory_pool_t,
        size: usize,
        flags: u32,
        ptr: *mut *mut c_void,
    ) -> hsa_status_t;
    pub safe fn hsa_amd_memory_pool_free(ptr: *mut c_void) -> hsa_status_t;
    pub safe fn hsa_amd_memory_pool_get_info(
        pool: hsa_amd_memory_pool_t,
        attribute: hsa_amd_memory_pool_info_t,
        value: *mut c_void,
    ) -> hsa_status_t;
    pub safe fn hsa_amd_memory_unlock(host_ptr: *mut c_void) -> hsa_status_t;
    pub safe fn hsa_amd_pointer_info(
        ptr: *const c_void,
        info: *mut hsa_amd_pointer_info_t,
        alloc: Option<unsafe extern "C" fn(usize) -> *mut c_void>,
        num_agents_accessible: *mut u32,
        accessible: *mut *mut hsa_agent_t,
    ) -> hsa_status_t;
    pub unsafe fn hsa_amd_queue_cu_get_mask(
        queue: *const hsa_queue_t,
        num_cu_mask_count: u32,
        cu_mask: *mut u32,
    ) -> hsa_status_t;
    pub unsafe fn hsa_amd_queue_cu_set_mask(
        queue: *const hsa_queue_t,
        num_cu_mask_count: u32,
        cu_mask: *const u32,
    ) -> hsa_status_t;
    pub unsafe fn hsa_amd_signal_wait_any(
        signal_count: u32,
        signals: *const hsa_signal_t,
        conds: *const hsa_signal_condition_t,
        values: *const hsa_signal_value_t,
        timeout_hint: u64,
        wait_hint: hsa_wait_state_t,
        satisfying_value: *mut hsa_signal_value_t,
    ) -> u32;
    pub safe fn hsa_code_object_deserialize(
        serialized_code_object: *mut c_void,
        serialized_code_object_size: usize,
        _options: *const c_char,
        code_object: *mut hsa_code_object_t,
    ) -> hsa_status_t;
    pub safe fn hsa_code_object_destroy(code_object: hsa_code_object_t) -> hsa_status_t;
    pub safe fn hsa_code_object_get_info(
        code_object: hsa_code_object_t,
        attribute: hsa_code_object_info_t,
        value: *mut c_void,
    ) -> hsa_status_t;
    pub safe fn hsa_code_object_reader_create_from_memory(
        code_object: *const c_void,
        size: usize,
        code_object_reader: *mut hsa_code_object_reader_t,
    ) -> hsa_status_t;
    pub safe fn hsa_code_object_reader_destroy(
        code_object_reader: hsa_code_object_reader_t,
    ) -> hsa_status_t;
    pub safe fn hsa_executable_create_alt(
        profile: hsa_profile_t,
        default_float_rounding_mode: hsa_default_float_rounding_mode_t,
        _options: *const c_char,
        executable: *mut hsa_executable_t,
    ) -> hsa_status_t;
    pub safe fn hsa_executable_destroy(executable: hsa_executable_t) -> hsa_status_t;
    pub safe fn hsa_executable_freeze(
        executable: hsa_executable_t,
        _options: *const c_char,
    ) -> hsa_status_t;
    pub safe fn hsa_executable_get_info(
        executable: hsa_executable_t,
        attribute: hsa_executable_info_t,
        value: *mut c_void,
    ) -> hsa_status_t;
    pub safe fn hsa_executable_get_symbol_by_name(
        executable: hsa_executable_t,
        symbol_name: *const c_char,
        agent: *const hsa_agent_t,
        symbol: *mut hsa_executable_symbol_t,
    ) -> hsa_status_t;
    pub safe fn hsa_executable_iterate_symbols(
        executable: hsa_executable_t,
        callback: Option<
            unsafe extern "C" fn(
                hsa_executable_t,
                hsa_executable_symbol_t,
                *mut c_void,
            ) -> hsa_status_t,
        >,
        data: *mut c_void,
    ) -> hsa_status_t;
    pub safe fn hsa_executable_load_agent_code_object(
        executable: hsa_executable_t,
        agent: hsa_agent_t,
        code_object_reader: hsa_code_object_reader_t,
        _options: *const c_char,
        loaded_code_object: *mut hsa_loaded_code_object_t,
    ) -> hsa_status_t;
    pub safe fn hsa_executable_symbol_get_info(
        executable_symbol: hsa_executable_symbol_t,
        attribute: hsa_executable_symbol_info_t,
        value: *mut c_void,
    ) -> hsa_status_t;
    pub safe fn hsa_executable_validate(
        executable: hsa_executable_t,
        result: *mut u32,
    ) -> hsa_status_t;
    pub safe fn hsa_init() -> hsa_status_t;
    pub safe fn hsa_iterate_agents(
        callback: Option<unsafe extern "C" fn(hsa_agent_t, *mut c_void) -> hsa_status_t>,
        data: *mut c_void,
    ) -> hsa_status_t;
    pub unsafe fn hsa_queue_create(
        agent: hsa_agent_t,
        size: u32,
        type_: hsa_queue_type32_t,
        callback: Option<unsafe extern "C" fn(hsa_status_t, *mut hsa_queue_t, *mut c_void)>,
        data: *mut c_void,
        private_segment_size: u32,
        group_segment_size: u32,
        queue: *mut *mut hsa_queue_t,
    ) -> hsa_status_t;
    pub safe fn hsa_queue_destroy(queue: *mut hsa_queue_t) -> hsa_status_t;
    pub safe fn hsa_queue_inactivate(queue: *mut hsa_queue_t) -> hsa_status_t;
    pub safe fn hsa_region_get_info(
        region: hsa_region_t,
        attribute: hsa_region_info_t,
        value: *mut c_void,
    ) -> hsa_status_t;
    pub safe fn hsa_shut_down() -> hsa_status_t;
    pub unsafe fn hsa_signal_create(
        initial_value: hsa_signal_value_t,
        num_consumers: u32,
        consumers: *const hsa_agent_t,
        signal: *mut hsa_signal_t,
    ) -> hsa_status_t;
    pub safe fn hsa_signal_destroy(signal: hsa_signal_t) -> hsa_status_t;
    pub unsafe fn hsa_signal_group_create(
        num_signals: u32,
        signals: *const hsa_signal_t,
        num_consumers: u32,
        consumers: *const hsa_agent_t,
        signal_group: *mut hsa_signal_group_t,
    ) -> hsa_status_t;
    pub safe fn hsa_signal_group_destroy(signal_group: hsa_signal_group_t) -> hsa_status_t;
    pub safe fn hsa_status_string(
        status: hsa_status_t,
        status_string: *mut *const c_char,
    ) -> hsa_status_t;
    pub safe fn hsa_system_get_info(
        attribute: hsa_system_info_t,
        value: *mut c_void,
    ) -> hsa_status_t;
    pub safe fn hsa_signal_load_scacquire(signal: hsa_signal_t) -> hsa_signal_value_t;
    pub safe fn hsa_signal_store_screlease(signal: hsa_signal_t, value: hsa_signal_value_t);
    pub safe fn hsa_signal_silent_store_relaxed(signal: hsa_signal_t, value: hsa_signal_value_t);
    pub safe fn hsa_signal_add_scacq_screl(signal: hsa_signal_t, value: hsa_signal_value_t);
    pub safe fn hsa_signal_subtract_relaxed(signal: hsa_signal_t, value: hsa_signal_value_t);
    pub safe fn hsa_signal_and_acquire(signal: hsa_signal_t, value: hsa_signal_value_t);
    pub safe fn hsa_signal_xor_release(signal: hsa_signal_t, value: hsa_signal_value_t);
    pub safe fn hsa_signal_exchange_scacq_screl(
        signal: hsa_signal_t,
        value: hsa_signal_value_t,
    ) -> hsa_signal_value_t;
    pub safe fn hsa_signal_cas_relaxed(
        signal: hsa_signal_t,
        expected: hsa_signal_value_t,
        value: hsa_signal_value_t,
    ) -> hsa_signal_value_t;
    pub safe fn hsa_signal_wait_scacquire(
        signal: hsa_signal_t,
        condition: hsa_signal_condition_t,
        compare_value: hsa_signal_value_t,
        timeout_hint: u64,
        wait_state_hint: hsa_wait_state_t,
    ) -> hsa_signal_value_t;
    pub safe fn hsa_queue_add_write_index_screlease(queue: *const hsa_queue_t, value: u64) -> u64;
    pub safe fn hsa_queue_load_read_index_scacquire(queue: *const hsa_queue_t) -> u64;
    pub safe fn hsa_queue_load_read_index_relaxed(queue: *const hsa_queue_t) -> u64;
    pub safe fn hsa_queue_load_write_index_relaxed(queue: *const hsa_queue_t) -> u64;
    pub safe fn hsa_queue_store_write_index_relaxed(queue: *const hsa_queue_t, value: u64);
}
