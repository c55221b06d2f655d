//! Agent-side aliases of locked host memory (`SOFTHSA_LOCK_ALIAS`, on by default in the base
//! profile, as on a discrete GPU; an APU's ROCr returns the host address).
//!
//! On a discrete GPU, `hsa_amd_memory_lock*` returns a GPU virtual address that differs from the
//! host address. HIP 5.2 depends on it: `hipHostRegister` records both the host pointer and the
//! agent pointer as keys of ROCclr's memory-object map, and `hipHostUnregister` removes both
//! keys unconditionally, so equal pointers abort with "Memobj map does not have ptr"
//! (hipamd hip_memory.cpp, rocm-5.2.x; fixed later by comparing the two).
//!
//! An alias is an address range reserved with `PROT_NONE` (so nothing else is ever placed
//! there), recorded in the registry as a [`RangeKind::Alias`] range whose delta leads back to
//! the locked host bytes; the alias keeps the host address's offset within its page. The
//! runtime's copies and fills translate through [`Registry::resolve`](super::Registry::resolve),
//! the GPU through `MemoryMap::translate` (crates/gpu/ALIAS-REQUEST.md). A GPU path that does
//! not translate reports a memory fault (plain `lookup` refuses aliases), never a host crash.

use super::pool::PAGE;
use super::Range;
use crate::{Error, Result};
use softhsa_abi::HSA_STATUS_ERROR_OUT_OF_RESOURCES;

/// The page-granular reservation holding an alias of `len` bytes at `start`.
fn reservation(start: u64, len: u64) -> (u64, u64) {
    let base = start / PAGE * PAGE;
    (base, (start - base + len).div_ceil(PAGE) * PAGE)
}

/// Reserves address space for an alias of the host range `[host, host + len)`; returns the
/// alias start, which has the same offset within its page as `host`.
pub(super) fn reserve(host: u64, len: u64) -> Result<u64> {
    let offset = host % PAGE;
    let size = (offset + len).div_ceil(PAGE) * PAGE;
    let size = usize::try_from(size).map_err(|_| Error::new(HSA_STATUS_ERROR_OUT_OF_RESOURCES))?;
    // SAFETY: a fresh inaccessible anonymous mapping at an address of the kernel's choosing
    // touches no existing memory; the result is checked for MAP_FAILED.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            size,
            libc::PROT_NONE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(Error::with_message(
            HSA_STATUS_ERROR_OUT_OF_RESOURCES,
            format!("cannot reserve {size} bytes of alias address space"),
        ));
    }
    Ok(p as u64 + offset)
}

/// Returns the reservation of an alias range removed from the registry.
pub(super) fn release(alias: &Range) {
    let (base, size) = reservation(alias.start, alias.len);
    // SAFETY: alias ranges are created only from `reserve` with exactly this page rounding, and
    // the registry no longer holds this one, so the reservation is unmapped once. It was
    // PROT_NONE: no reference into it can exist.
    unsafe { libc::munmap(base as *mut libc::c_void, size as usize) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reservations_keep_the_page_offset_and_cover_the_range() {
        let host = 0x7000_1234u64;
        let alias = reserve(host, 0x2000).unwrap();
        assert_eq!(alias % PAGE, host % PAGE);
        assert_ne!(alias, host);
        let (base, size) = reservation(alias, 0x2000);
        assert_eq!(base, alias - 0x234);
        assert_eq!(size, 3 * PAGE, "0x234 + 0x2000 bytes span three pages");
        let mut r = Range::new(alias, 0x2000, super::super::RangeKind::Alias, 0);
        r.delta = host.wrapping_sub(alias);
        release(&r);
    }
}
