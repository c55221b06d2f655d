//! Page spans of SVM calls and whether the process has them mapped.

use crate::{Error, Result};
use softhsa_abi::HSA_STATUS_ERROR_INVALID_ARGUMENT;

const PAGE: u64 = 4096;

/// `[ptr, ptr + size)` widened to whole pages, as ROCm does; size 0, NULL or wrapping spans are
/// INVALID_ARGUMENT.
pub fn page_span(ptr: u64, size: u64) -> Result<(u64, u64)> {
    let end = ptr.checked_add(size).and_then(|e| e.checked_add(PAGE - 1));
    match end {
        Some(e) if ptr != 0 && size != 0 => Ok((ptr & !(PAGE - 1), e & !(PAGE - 1))),
        _ => Err(Error::with_message(
            HSA_STATUS_ERROR_INVALID_ARGUMENT,
            format!("empty, NULL or wrapping span {ptr:#x} + {size:#x}"),
        )),
    }
}

/// Whether every page of `[start, start + len)` (page aligned) is mapped in this process.
pub fn mapped(start: u64, len: u64) -> bool {
    if len == 0 {
        return true;
    }
    // mincore fails with ENOMEM when part of the span is unmapped; its vector is only scratch
    // (on the stack: this runs before every dispatch that has SVM ranges).
    let pages = len.div_ceil(PAGE) as usize;
    let mut vec = [0u8; 1024];
    let mut at = 0usize;
    while at < pages {
        let n = (pages - at).min(vec.len());
        // SAFETY: mincore only reads the process's page tables for the span and writes `n`
        // bytes into `vec`, which has room for them.
        let r = unsafe {
            libc::mincore(
                (start + at as u64 * PAGE) as *mut libc::c_void,
                n * PAGE as usize,
                vec.as_mut_ptr(),
            )
        };
        if r != 0 {
            return false;
        }
        at += n;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_widen_to_pages_and_mapping_is_seen() {
        assert_eq!(page_span(0x1001, 0x1000).unwrap(), (0x1000, 0x3000));
        assert!(page_span(0, 10).is_err() && page_span(10, 0).is_err());
        assert!(page_span(u64::MAX - 5, 10).is_err());
        let v = vec![0u8; 3 * 4096];
        let (s, e) = page_span(v.as_ptr() as u64, v.len() as u64).unwrap();
        assert!(mapped(s, e - s));
        // SAFETY: mapping a fresh page and unmapping it again touches nothing else.
        unsafe {
            let p = libc::mmap(
                std::ptr::null_mut(),
                4096,
                libc::PROT_READ,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            assert!(mapped(p as u64, 4096));
            libc::munmap(p, 4096);
            assert!(!mapped(p as u64, 4096));
        }
    }
}
