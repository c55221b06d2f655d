//! `hsa_amd_ipc_memory_create/attach/detach`.

use super::handle::{Handle, Kind};
use super::shared::{self, PAGE};
use crate::memory::{Memory, Range, RangeKind};
use crate::{Error, Result};
use softhsa_abi::*;
use std::sync::Mutex;

/// Serializes exports: converting an allocation to shared memory happens once.
static EXPORT: Mutex<()> = Mutex::new(());

/// `hsa_amd_ipc_memory_create`: a handle for `[ptr, ptr + len)`, which must be the start of a
/// live pool allocation (len rounded up to pages, at most the allocation's size). The first
/// export moves the allocation's pages into shared memory at the same address.
pub fn create(mem: &Memory, ptr: u64, len: u64) -> Result<[u32; 8]> {
    let range = mem
        .registry()
        .find(ptr)
        .filter(|r| r.kind == RangeKind::Allocation && r.start == ptr)
        .ok_or_else(|| {
            Error::with_message(
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
                format!("{ptr:#x} is not the start of a pool allocation"),
            )
        })?;
    let pages = len.div_ceil(PAGE);
    if len == 0 || pages * PAGE > range.len || pages > u64::from(u32::MAX) {
        return Err(Error::with_message(
            HSA_STATUS_ERROR_INVALID_ARGUMENT,
            format!(
                "length {len:#x} for an allocation of {:#x} bytes",
                range.len
            ),
        ));
    }
    let _g = EXPORT.lock().unwrap_or_else(|e| e.into_inner());
    let s = match mem.registry().find(ptr).and_then(|r| r.shared) {
        Some(s) => s,
        None => {
            let nonce = shared::nonce();
            // SAFETY: `range` is a live allocation (a private mapping made by the memory pool)
            // and the export lock is held; the program does not use it concurrently (documented).
            let fd = unsafe { shared::share_in_place(range.start, range.len, nonce) }?;
            let s = crate::memory::registry::Shared { fd, nonce };
            if mem.registry().update(ptr, |r| r.shared = Some(s)).is_err() {
                shared::close(fd);
                return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
            }
            s
        }
    };
    Ok(Handle {
        kind: Kind::Memory,
        pid: std::process::id(),
        fd: s.fd,
        nonce: s.nonce,
        pages: pages as u32,
    }
    .to_words())
}

/// `hsa_amd_ipc_memory_attach`: maps the memory of `handle` (`len` bytes, at most what was
/// exported) at a new address that the GPU agents `agents` may access; returns it.
pub fn attach(mem: &Memory, words: [u32; 8], len: u64, agents: &[usize]) -> Result<u64> {
    let h = Handle::from_words(words, Kind::Memory)?;
    let exported = u64::from(h.pages) * PAGE;
    if len == 0 || len > exported {
        return Err(Error::with_message(
            HSA_STATUS_ERROR_INVALID_ARGUMENT,
            format!("length {len:#x}, the handle exports {exported:#x} bytes"),
        ));
    }
    let map_len = len.div_ceil(PAGE) * PAGE;
    let fd = shared::open(h.pid, h.fd, h.nonce, map_len)?;
    let addr = shared::map(fd, map_len, None);
    shared::close(fd);
    let addr = addr?;
    let owner = agents.first().copied().unwrap_or(0);
    let mut r = Range::new(addr, map_len, RangeKind::Ipc, owner);
    r.access = agents.iter().fold(1u64, |m, &a| m | 1 << a);
    if let Err(e) = mem.registry().insert(r) {
        // SAFETY: the mapping made above, never published.
        unsafe { shared::unmap(addr, map_len) };
        return Err(e);
    }
    Ok(addr)
}

/// `hsa_amd_ipc_memory_detach`: unmaps memory `attach` returned.
pub fn detach(mem: &Memory, ptr: u64) -> Result<()> {
    let r = mem
        .registry()
        .remove_if(ptr, |r| r.kind == RangeKind::Ipc && r.start == ptr)
        .ok_or_else(|| {
            Error::with_message(
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
                format!("{ptr:#x} is not memory attached with hsa_amd_ipc_memory_attach"),
            )
        })?;
    // SAFETY: the registry held exactly this mapping (made by `attach`) and no longer does.
    unsafe { shared::unmap(r.start, r.len) };
    Ok(())
}

/// Releases what the registry's record of an allocation or attachment holds when it goes:
/// the shared file's descriptor of an exported allocation, the mapping of an attachment.
pub fn release(r: &Range) {
    if let Some(s) = r.shared {
        shared::close(s.fd);
    }
    if r.kind == RangeKind::Ipc {
        // SAFETY: IPC ranges are mappings made by `attach`, leaving the registry here.
        unsafe { shared::unmap(r.start, r.len) };
    }
}
