//! Regions, AMD memory pools, allocation, copies and fills, pinning, pointer info, access
//! grants, coherency and deallocation callbacks.

use crate::agent::{iterate, write_info};
use crate::{with_runtime, write_out};
use softhsa_abi::*;
use softhsa_runtime::memory::DeallocCallback;
use softhsa_runtime::{Error, Result, Runtime};
use std::ffi::c_void;
use std::mem::{offset_of, size_of};

/// Agent indices of a C array of agent handles (INVALID_AGENT for any unknown one).
pub(crate) fn agent_indices(
    rt: &Runtime,
    agents: *const hsa_agent_t,
    count: usize,
) -> Result<Vec<usize>> {
    if count == 0 {
        return Ok(Vec::new());
    }
    if agents.is_null() {
        return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
    }
    // SAFETY: the caller passes `count` agents at `agents` (checked non-NULL).
    let list = unsafe { std::slice::from_raw_parts(agents, count) };
    list.iter()
        .map(|a| rt.topology.agent(a.handle).map(|a| a.index))
        .collect()
}

#[no_mangle]
pub extern "C" fn hsa_agent_iterate_regions(
    agent: hsa_agent_t,
    callback: Option<unsafe extern "C" fn(hsa_region_t, *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_agent_iterate_regions", |rt| {
        let cb = callback.ok_or(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT))?;
        let a = rt.topology.agent(agent.handle)?;
        let handles: Vec<u64> = rt.memory.agent_pools(a.index).map(|p| p.handle).collect();
        // SAFETY: the program's callback, called as hsa.h specifies.
        iterate(handles, |h| unsafe { cb(hsa_region_t { handle: h }, data) })
    })
}

#[no_mangle]
pub extern "C" fn hsa_region_get_info(
    region: hsa_region_t,
    attribute: hsa_region_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_region_get_info", |rt| {
        let v = rt.memory.region_info(region.handle, attribute)?;
        // SAFETY: `value` points to storage of the attribute's type (caller's contract).
        unsafe { write_info(value, v) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_agent_iterate_memory_pools(
    agent: hsa_agent_t,
    callback: Option<unsafe extern "C" fn(hsa_amd_memory_pool_t, *mut c_void) -> hsa_status_t>,
    data: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_amd_agent_iterate_memory_pools", |rt| {
        let cb = callback.ok_or(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT))?;
        let a = rt.topology.agent(agent.handle)?;
        let handles: Vec<u64> = rt.memory.agent_pools(a.index).map(|p| p.handle).collect();
        // SAFETY: the program's callback, called as hsa_ext_amd.h specifies.
        iterate(handles, |h| unsafe {
            cb(hsa_amd_memory_pool_t { handle: h }, data)
        })
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_memory_pool_get_info(
    pool: hsa_amd_memory_pool_t,
    attribute: hsa_amd_memory_pool_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_amd_memory_pool_get_info", |rt| {
        let v = rt.memory.pool(pool.handle)?.pool_info(attribute)?;
        // SAFETY: `value` points to storage of the attribute's type (caller's contract).
        unsafe { write_info(value, v) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_agent_memory_pool_get_info(
    agent: hsa_agent_t,
    pool: hsa_amd_memory_pool_t,
    attribute: hsa_amd_agent_memory_pool_info_t,
    value: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_amd_agent_memory_pool_get_info", |rt| {
        let a = rt.topology.agent(agent.handle)?;
        let v = rt.memory.agent_pool_info(a.index, pool.handle, attribute)?;
        // SAFETY: `value` points to storage of the attribute's type (caller's contract).
        unsafe { write_info(value, v) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_memory_allocate(
    region: hsa_region_t,
    size: usize,
    ptr: *mut *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_memory_allocate", |rt| {
        if ptr.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        rt.memory.region(region.handle)?;
        let p = rt.memory.allocate(region.handle, size as u64, 0)?;
        // SAFETY: checked non-NULL; the caller owns it.
        unsafe { write_out(ptr, p.cast()) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_memory_free(ptr: *mut c_void) -> hsa_status_t {
    with_runtime("hsa_memory_free", |rt| rt.memory.free(ptr as u64))
}

#[no_mangle]
pub extern "C" fn hsa_amd_memory_pool_allocate(
    pool: hsa_amd_memory_pool_t,
    size: usize,
    flags: u32,
    ptr: *mut *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_amd_memory_pool_allocate", |rt| {
        if ptr.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        let p = rt.memory.allocate(pool.handle, size as u64, flags)?;
        // SAFETY: checked non-NULL; the caller owns it.
        unsafe { write_out(ptr, p.cast()) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_memory_pool_free(ptr: *mut c_void) -> hsa_status_t {
    with_runtime("hsa_amd_memory_pool_free", |rt| rt.memory.free(ptr as u64))
}

#[no_mangle]
pub extern "C" fn hsa_memory_copy(
    dst: *mut c_void,
    src: *const c_void,
    size: usize,
) -> hsa_status_t {
    with_runtime("hsa_memory_copy", |rt| {
        if dst.is_null() || src.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        // Agent-side aliases of locked memory are copied through their host bytes.
        let dst = rt.memory.host_address(dst as u64, size as u64) as *mut u8;
        let src = rt.memory.host_address(src as u64, size as u64) as *const u8;
        // SAFETY: the caller guarantees both buffers hold `size` bytes (hsa.h's contract);
        // every agent's memory is host memory, so a memmove is the copy.
        unsafe { std::ptr::copy(src, dst, size) };
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn hsa_memory_assign_agent(
    ptr: *mut c_void,
    agent: hsa_agent_t,
    access: hsa_access_permission_t,
) -> hsa_status_t {
    with_runtime("hsa_memory_assign_agent", |rt| {
        if ptr.is_null() || !(HSA_ACCESS_PERMISSION_RO..=HSA_ACCESS_PERMISSION_RW).contains(&access)
        {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        let a = rt.topology.agent(agent.handle)?;
        rt.memory.allow_access(ptr as u64, &[a.index])
    })
}

#[no_mangle]
pub extern "C" fn hsa_memory_register(ptr: *mut c_void, size: usize) -> hsa_status_t {
    with_runtime("hsa_memory_register", |rt| {
        rt.memory.register(ptr as u64, size as u64)
    })
}

#[no_mangle]
pub extern "C" fn hsa_memory_deregister(ptr: *mut c_void, _size: usize) -> hsa_status_t {
    with_runtime("hsa_memory_deregister", |rt| {
        rt.memory.deregister(ptr as u64)
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_agents_allow_access(
    num_agents: u32,
    agents: *const hsa_agent_t,
    flags: *const u32,
    ptr: *const c_void,
) -> hsa_status_t {
    with_runtime("hsa_amd_agents_allow_access", |rt| {
        // As ROCm: flags are reserved and must be NULL.
        if num_agents == 0 || agents.is_null() || !flags.is_null() || ptr.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        let list = agent_indices(rt, agents, num_agents as usize)?;
        rt.memory.allow_access(ptr as u64, &list)
    })
}

fn lock(
    rt: &Runtime,
    host_ptr: *mut c_void,
    size: usize,
    agents: *const hsa_agent_t,
    num_agent: i32,
    pool: Option<usize>,
    agent_ptr: *mut *mut c_void,
) -> Result<()> {
    if agent_ptr.is_null() || num_agent < 0 {
        return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
    }
    let list = agent_indices(rt, agents, num_agent as usize)?;
    let p = rt.memory.lock(host_ptr as u64, size as u64, &list, pool)?;
    // SAFETY: checked non-NULL; the caller owns it.
    unsafe { write_out(agent_ptr, p as *mut c_void) }
}

#[no_mangle]
pub extern "C" fn hsa_amd_memory_lock(
    host_ptr: *mut c_void,
    size: usize,
    agents: *mut hsa_agent_t,
    num_agent: i32,
    agent_ptr: *mut *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_amd_memory_lock", |rt| {
        lock(rt, host_ptr, size, agents, num_agent, None, agent_ptr)
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_memory_lock_to_pool(
    host_ptr: *mut c_void,
    size: usize,
    agents: *mut hsa_agent_t,
    num_agent: i32,
    pool: hsa_amd_memory_pool_t,
    flags: u32,
    agent_ptr: *mut *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_amd_memory_lock_to_pool", |rt| {
        let p = rt.memory.pool(pool.handle)?;
        if flags != 0 || !p.is_system() {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
                "flags must be 0 and the pool a system pool",
            ));
        }
        lock(
            rt,
            host_ptr,
            size,
            agents,
            num_agent,
            Some(p.index),
            agent_ptr,
        )
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_memory_unlock(host_ptr: *mut c_void) -> hsa_status_t {
    with_runtime("hsa_amd_memory_unlock", |rt| {
        rt.memory.unlock(host_ptr as u64)
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_memory_fill(ptr: *mut c_void, value: u32, count: usize) -> hsa_status_t {
    with_runtime("hsa_amd_memory_fill", |rt| {
        rt.memory.fill(ptr as u64, value, count as u64)
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_pointer_info(
    ptr: *const c_void,
    info: *mut hsa_amd_pointer_info_t,
    alloc: Option<unsafe extern "C" fn(usize) -> *mut c_void>,
    num_agents_accessible: *mut u32,
    accessible: *mut *mut hsa_agent_t,
) -> hsa_status_t {
    with_runtime("hsa_amd_pointer_info", |rt| {
        if ptr.is_null() || info.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        let found = rt.memory.pointer_info(ptr as u64);
        // Zeroed, padding included: the bytes copied out below are all initialized (valgrind
        // flagged the padding of a `Default` value reaching the caller).
        // SAFETY: an all-zero hsa_amd_pointer_info_t is valid (integers and raw pointers).
        let mut out: hsa_amd_pointer_info_t = unsafe { std::mem::zeroed() };
        out.size = size_of::<hsa_amd_pointer_info_t>() as u32;
        let mut agents = Vec::new();
        match &found {
            Some(p) => {
                out.type_ = p.kind;
                out.agentBaseAddress = p.base as *mut c_void;
                out.hostBaseAddress = p.host_base as *mut c_void;
                out.sizeInBytes = p.size as usize;
                out.userData = p.user_data as *mut c_void;
                out.agentOwner = hsa_agent_t {
                    handle: rt.topology.agents()[p.owner].handle,
                };
                out.global_flags = p.global_flags;
                agents = p
                    .accessible
                    .iter()
                    .map(|&i| rt.topology.agents()[i].handle)
                    .collect();
            }
            None => {
                out.type_ = HSA_EXT_POINTER_TYPE_UNKNOWN;
                out.agentBaseAddress = ptr as *mut c_void;
                out.hostBaseAddress = ptr as *mut c_void;
            }
        }
        // Version control: write only the members that fit in the caller's structure.
        // SAFETY: `info` is non-NULL and the caller set `size` to its structure's size.
        let caller_size = unsafe { info.read_unaligned().size } as usize;
        let n = caller_size.clamp(
            offset_of!(hsa_amd_pointer_info_t, type_),
            size_of::<hsa_amd_pointer_info_t>(),
        );
        out.size = n as u32;
        // SAFETY: copies `n` bytes, no more than the caller's structure holds.
        unsafe {
            std::ptr::copy_nonoverlapping(
                (&out as *const hsa_amd_pointer_info_t).cast::<u8>(),
                info.cast::<u8>(),
                n,
            )
        };
        if let (Some(alloc), false, false) =
            (alloc, num_agents_accessible.is_null(), accessible.is_null())
        {
            // SAFETY: the program's allocator, asked for the list's size as hsa_ext_amd.h says.
            let list = unsafe { alloc(agents.len().max(1) * size_of::<hsa_agent_t>()) }
                .cast::<hsa_agent_t>();
            if list.is_null() {
                return Err(Error::new(HSA_STATUS_ERROR_OUT_OF_RESOURCES));
            }
            for (i, &h) in agents.iter().enumerate() {
                // SAFETY: `list` has room for agents.len() entries (allocated just above).
                unsafe { list.add(i).write_unaligned(hsa_agent_t { handle: h }) };
            }
            // SAFETY: both checked non-NULL; the caller owns them.
            unsafe {
                write_out(num_agents_accessible, agents.len() as u32)?;
                write_out(accessible, list)?;
            }
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_pointer_info_set_userdata(
    ptr: *const c_void,
    userdata: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_amd_pointer_info_set_userdata", |rt| {
        if ptr.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        rt.memory.set_user_data(ptr as u64, userdata as u64)
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_memory_pool_can_migrate(
    src_memory_pool: hsa_amd_memory_pool_t,
    dst_memory_pool: hsa_amd_memory_pool_t,
    result: *mut bool,
) -> hsa_status_t {
    with_runtime("hsa_amd_memory_pool_can_migrate", |rt| {
        if result.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        rt.memory.pool(src_memory_pool.handle)?;
        rt.memory.pool(dst_memory_pool.handle)?;
        // Migration between pools is not implemented (all pools are the same host memory).
        // SAFETY: checked non-NULL; the caller owns it.
        unsafe { write_out(result, false) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_memory_migrate(
    ptr: *const c_void,
    memory_pool: hsa_amd_memory_pool_t,
    _flags: u32,
) -> hsa_status_t {
    with_runtime("hsa_amd_memory_migrate", |rt| {
        rt.memory.pool(memory_pool.handle)?;
        if ptr.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        Err(Error::with_message(
            HSA_STATUS_ERROR,
            "memory migration is not supported (hsa_amd_memory_pool_can_migrate reports false)",
        ))
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_coherency_get_type(
    agent: hsa_agent_t,
    type_: *mut hsa_amd_coherency_type_t,
) -> hsa_status_t {
    with_runtime("hsa_amd_coherency_get_type", |rt| {
        let a = rt.topology.agent(agent.handle)?;
        let t = rt.memory.coherency(a.index)?;
        // SAFETY: `type_` is NULL or storage the caller owns.
        unsafe { write_out(type_, t) }
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_coherency_set_type(
    agent: hsa_agent_t,
    type_: hsa_amd_coherency_type_t,
) -> hsa_status_t {
    with_runtime("hsa_amd_coherency_set_type", |rt| {
        let a = rt.topology.agent(agent.handle)?;
        rt.memory.set_coherency(a.index, type_)
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_register_deallocation_callback(
    ptr: *mut c_void,
    callback: hsa_amd_deallocation_callback_t,
    user_data: *mut c_void,
) -> hsa_status_t {
    with_runtime("hsa_amd_register_deallocation_callback", |rt| {
        let func = callback.ok_or(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT))?;
        rt.memory.add_dealloc_callback(
            ptr as u64,
            DeallocCallback {
                func,
                user_data: user_data as usize,
            },
        )
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_deregister_deallocation_callback(
    ptr: *mut c_void,
    callback: hsa_amd_deallocation_callback_t,
) -> hsa_status_t {
    with_runtime("hsa_amd_deregister_deallocation_callback", |rt| {
        let func = callback.ok_or(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT))?;
        rt.memory.remove_dealloc_callback(ptr as u64, func)
    })
}
