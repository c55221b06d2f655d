//! Page-granular host memory for pool allocations: anonymous private mappings.
//!
//! mmap gives page-aligned, zero-filled memory whose pages are only committed when touched, so a
//! program may allocate most of a multi-GiB device budget without the host paying for it.

use crate::{Error, Result};
use softhsa_abi::HSA_STATUS_ERROR_OUT_OF_RESOURCES;

/// The inaccessible page after every mapping: nothing the GPU (or the host) may touch ever
/// follows an allocation directly, so an access just past its end is a fault that names it,
/// never a silent access to a neighbour.
pub const GUARD: u64 = 4096;

/// Maps `len` bytes (a multiple of the page size) read-write, followed by a [`GUARD`] page.
pub fn map(len: u64) -> Result<*mut u8> {
    let len = usize::try_from(len.saturating_add(GUARD))
        .map_err(|_| Error::new(HSA_STATUS_ERROR_OUT_OF_RESOURCES))?;
    // SAFETY: an anonymous private mapping at an address of the kernel's choosing touches no
    // existing memory; the result is checked for MAP_FAILED.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(Error::with_message(
            HSA_STATUS_ERROR_OUT_OF_RESOURCES,
            format!(
                "mmap of {len} bytes failed: {}",
                std::io::Error::last_os_error()
            ),
        ));
    }
    // SAFETY: the last page of the mapping just made; nothing refers to it.
    unsafe {
        libc::mprotect(
            p.cast::<u8>().add(len - GUARD as usize).cast(),
            GUARD as usize,
            libc::PROT_NONE,
        )
    };
    Ok(p.cast())
}

/// Unmaps memory returned by [`map`].
///
/// # Safety
/// `ptr` and `len` must be exactly those of one earlier [`map`] call not yet unmapped, and no
/// reference into the memory may be used afterwards.
pub unsafe fn unmap(ptr: *mut u8, len: u64) {
    // SAFETY: the caller guarantees this is a live mapping of exactly this size (and its guard).
    unsafe { libc::munmap(ptr.cast(), (len + GUARD) as usize) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mapped_memory_is_zeroed_page_aligned_and_writable() {
        let p = map(3 * 4096).unwrap();
        assert_eq!(p as usize % 4096, 0);
        // SAFETY: p is a fresh 3-page read-write mapping.
        let s = unsafe { std::slice::from_raw_parts_mut(p, 3 * 4096) };
        assert!(s.iter().all(|&b| b == 0));
        s[3 * 4096 - 1] = 7;
        // SAFETY: exactly the mapping made above; `s` is not used after.
        unsafe { unmap(p, 3 * 4096) };
    }

    #[test]
    fn impossible_sizes_are_out_of_resources() {
        assert_eq!(
            map(1 << 62).unwrap_err().status,
            HSA_STATUS_ERROR_OUT_OF_RESOURCES
        );
    }
}
