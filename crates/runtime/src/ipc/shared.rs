//! Shared-memory files (memfd) behind exported allocations and IPC signals, and how another
//! process reaches them.
//!
//! Pool allocations are private anonymous mappings (cheap, no descriptor per allocation). When one
//! is exported, its pages move into a memfd named `softhsa-ipc-<nonce>`, mapped `MAP_SHARED` at
//! the same address (`MAP_FIXED` replaces the private pages in one step), so pointers the
//! program and the GPU hold stay valid. Another process opens the file through
//! `/proc/<pid>/fd/<fd>` (same user, as ROCm's IPC requires) and maps it.

use crate::{Error, Result};
use softhsa_abi::{HSA_STATUS_ERROR_INVALID_ARGUMENT, HSA_STATUS_ERROR_OUT_OF_RESOURCES};
use std::ffi::CString;

/// Page size of shared mappings.
pub const PAGE: u64 = 4096;

fn os_error(status: u32, what: &str) -> Error {
    Error::with_message(
        status,
        format!("{what}: {}", std::io::Error::last_os_error()),
    )
}

/// The file name an export with `nonce` gets (`/proc/.../fd/N` links to `/memfd:<name> (deleted)`).
fn name(nonce: u64) -> String {
    format!("softhsa-ipc-{nonce:016x}")
}

/// A random 64-bit tag.
pub fn nonce() -> u64 {
    let mut b = [0u8; 8];
    // SAFETY: getrandom writes at most `b.len()` bytes into the buffer it is given.
    let n = unsafe { libc::getrandom(b.as_mut_ptr().cast(), b.len(), 0) };
    let fallback = || {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        t ^ u64::from(std::process::id()).rotate_left(32) ^ (&b as *const _ as u64)
    };
    if n == 8 {
        u64::from_ne_bytes(b)
    } else {
        fallback()
    }
}

/// A new memfd of `len` bytes named for `nonce` (close-on-exec).
pub fn create(nonce: u64, len: u64) -> Result<i32> {
    let cname =
        CString::new(name(nonce)).map_err(|_| Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT))?;
    // SAFETY: `cname` is a valid NUL-terminated string; the result is checked.
    let fd = unsafe { libc::memfd_create(cname.as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(os_error(HSA_STATUS_ERROR_OUT_OF_RESOURCES, "memfd_create"));
    }
    // SAFETY: `fd` is the descriptor just created.
    if unsafe { libc::ftruncate(fd, len as libc::off_t) } != 0 {
        let e = os_error(HSA_STATUS_ERROR_OUT_OF_RESOURCES, "ftruncate");
        close(fd);
        return Err(e);
    }
    Ok(fd)
}

pub fn close(fd: i32) {
    // SAFETY: closing a descriptor this module opened and owns.
    unsafe { libc::close(fd) };
}

/// Maps `len` bytes of `fd` shared, read-write; at `at` (replacing what is there) when given.
pub fn map(fd: i32, len: u64, at: Option<u64>) -> Result<u64> {
    let flags = libc::MAP_SHARED | if at.is_some() { libc::MAP_FIXED } else { 0 };
    // SAFETY: a shared file mapping; with MAP_FIXED the caller guarantees that `at` is the start
    // of `len` bytes of a mapping it owns, whose contents it has already copied to the file.
    let p = unsafe {
        libc::mmap(
            at.unwrap_or(0) as *mut libc::c_void,
            len as usize,
            libc::PROT_READ | libc::PROT_WRITE,
            flags,
            fd,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(os_error(
            HSA_STATUS_ERROR_OUT_OF_RESOURCES,
            "mmap of shared memory",
        ));
    }
    Ok(p as u64)
}

/// Unmaps a mapping made by [`map`].
///
/// # Safety
/// `[addr, addr + len)` is a mapping this module made, not used afterwards.
pub unsafe fn unmap(addr: u64, len: u64) {
    // SAFETY: per the caller.
    unsafe { libc::munmap(addr as *mut libc::c_void, len as usize) };
}

/// Moves the private pages `[addr, addr + len)` into a new memfd mapped at the same address.
/// All-zero pages are skipped, so untouched memory stays unallocated in the file too.
///
/// # Safety
/// `[addr, addr + len)` is one live private mapping owned by the caller (a pool allocation),
/// page-aligned, that nothing writes to during the call.
pub unsafe fn share_in_place(addr: u64, len: u64, nonce: u64) -> Result<i32> {
    let fd = create(nonce, len)?;
    let mut off = 0u64;
    while off < len {
        // SAFETY: inside the caller's live mapping.
        let page = unsafe { std::slice::from_raw_parts((addr + off) as *const u8, PAGE as usize) };
        if page.iter().any(|&b| b != 0) {
            // SAFETY: writes the page's bytes to the file at the same offset.
            let n =
                unsafe { libc::pwrite(fd, page.as_ptr().cast(), page.len(), off as libc::off_t) };
            if n != page.len() as isize {
                let e = os_error(HSA_STATUS_ERROR_OUT_OF_RESOURCES, "copy into shared memory");
                close(fd);
                return Err(e);
            }
        }
        off += PAGE;
    }
    if let Err(e) = map(fd, len, Some(addr)) {
        close(fd);
        return Err(e);
    }
    Ok(fd)
}

/// Opens the shared file another process (or this one) exported under (`pid`, `fd`, `nonce`),
/// and checks it is that export and at least `len` bytes long. Returns a new descriptor.
pub fn open(pid: u32, fd: i32, nonce: u64, len: u64) -> Result<i32> {
    let bad = |why: String| Error::with_message(HSA_STATUS_ERROR_INVALID_ARGUMENT, why);
    let path = format!("/proc/{pid}/fd/{fd}");
    // The link names the file: check before opening (a forged handle opens nothing).
    let want = format!("/memfd:{} (deleted)", name(nonce));
    match std::fs::read_link(&path) {
        Ok(l) if l.as_os_str() == want.as_str() => {}
        Ok(_) => {
            return Err(bad(format!(
                "{path} is not the exported memory of this handle"
            )))
        }
        Err(e) => return Err(bad(format!("{path}: {e} (exporting process gone?)"))),
    }
    let cpath = CString::new(path.clone()).map_err(|_| bad(path.clone()))?;
    // SAFETY: `cpath` is NUL-terminated; the result is checked.
    let nfd = unsafe { libc::open(cpath.as_ptr(), libc::O_RDWR | libc::O_CLOEXEC) };
    if nfd < 0 {
        return Err(bad(format!("{path}: {}", std::io::Error::last_os_error())));
    }
    // The descriptor might have been replaced between the two looks: check what was opened.
    let mine = std::fs::read_link(format!("/proc/self/fd/{nfd}"));
    // SAFETY: an all-zero stat is a valid value; fstat fills it for the descriptor we own.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: `nfd` is open; `st` is writable.
    let stat_ok = unsafe { libc::fstat(nfd, &mut st) } == 0;
    let ok =
        mine.is_ok_and(|l| l.as_os_str() == want.as_str()) && stat_ok && st.st_size as u64 >= len;
    if !ok {
        close(nfd);
        return Err(bad(format!(
            "{path}: not the exported memory, or smaller than {len} bytes"
        )));
    }
    Ok(nfd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sharing_in_place_keeps_contents_and_opens_by_name() {
        let len = 3 * PAGE;
        // SAFETY: a fresh private anonymous mapping owned by this test.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len as usize,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        } as u64;
        // SAFETY: inside the mapping.
        unsafe { *((p + PAGE + 8) as *mut u64) = 0xdead_beef };
        let n = nonce();
        // SAFETY: the mapping above, not used concurrently.
        let fd = unsafe { share_in_place(p, len, n) }.unwrap();
        // SAFETY: still mapped (now shared).
        assert_eq!(unsafe { *((p + PAGE + 8) as *const u64) }, 0xdead_beef);
        let pid = std::process::id();
        let fd2 = open(pid, fd, n, len).unwrap();
        let q = map(fd2, len, None).unwrap();
        close(fd2);
        // SAFETY: both are live shared mappings of the same file.
        unsafe {
            assert_eq!(*((q + PAGE + 8) as *const u64), 0xdead_beef);
            *(q as *mut u32) = 7;
            assert_eq!(*(p as *const u32), 7);
        }
        assert!(open(pid, fd, n ^ 1, len).is_err(), "wrong nonce");
        assert!(open(pid, fd, n, len + PAGE).is_err(), "too long");
        assert!(open(pid, 987_654, n, len).is_err(), "no such descriptor");
        // SAFETY: the two mappings made here.
        unsafe {
            unmap(q, len);
            unmap(p, len);
        }
        close(fd);
    }
}
