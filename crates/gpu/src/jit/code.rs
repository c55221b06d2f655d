//! Executable memory for generated code: mapped writable, filled, then made read+execute only
//! (W^X), unmapped when the owning [`Code`] drops (with its program).

use std::ptr::NonNull;

/// A block of machine code in its own executable mapping.
pub struct Code {
    ptr: NonNull<u8>,
    len: usize,
}

// SAFETY: the mapping is immutable (read+execute) after construction and owned by this value;
// sharing it between threads only lets them execute it.
unsafe impl Send for Code {}
// SAFETY: as above: no interior mutability.
unsafe impl Sync for Code {}

impl Code {
    /// Copies `bytes` (position-dependent code assembled for the address that
    /// [`Reserved::new`] reserved) into place and seals the mapping.
    pub fn seal(mut reserved: Reserved, bytes: &[u8]) -> Result<Code, String> {
        if bytes.len() > reserved.len {
            return Err(format!(
                "{} bytes of code, {} reserved",
                bytes.len(),
                reserved.len
            ));
        }
        // SAFETY: the mapping is writable, `reserved.len` bytes long and not yet executable;
        // `bytes` fits (checked above) and does not overlap it (a Rust slice elsewhere).
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), reserved.ptr.as_ptr(), bytes.len());
            let rc = libc::mprotect(
                reserved.ptr.as_ptr().cast(),
                reserved.len,
                libc::PROT_READ | libc::PROT_EXEC,
            );
            if rc != 0 {
                return Err("mprotect(PROT_READ|PROT_EXEC) failed".into());
            }
        }
        let code = Code {
            ptr: reserved.ptr,
            len: reserved.len,
        };
        reserved.len = 0; // ownership moved to `code`
        Ok(code)
    }

    /// Address of the first byte.
    pub fn addr(&self) -> u64 {
        self.ptr.as_ptr() as u64
    }

    /// The mapped bytes (for debugging dumps).
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: the mapping is `len` readable bytes, immutable and owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Code {
    fn drop(&mut self) {
        // SAFETY: we own this mapping; no generated code runs any more (the program that owns
        // it is being dropped, so no wave can be executing it).
        unsafe { libc::munmap(self.ptr.as_ptr().cast(), self.len) };
    }
}

/// A writable mapping waiting for its code (its address is needed to assemble first).
pub struct Reserved {
    ptr: NonNull<u8>,
    len: usize,
}

impl Reserved {
    /// Maps `len` bytes (rounded up to pages) read+write.
    pub fn new(len: usize) -> Result<Reserved, String> {
        let len = len.max(1).next_multiple_of(4096);
        // SAFETY: an anonymous private mapping with no address hint; the result is checked.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(format!("mmap of {len} bytes failed"));
        }
        let ptr = NonNull::new(p.cast()).ok_or("mmap returned null")?;
        Ok(Reserved { ptr, len })
    }

    pub fn addr(&self) -> u64 {
        self.ptr.as_ptr() as u64
    }

    /// Bytes mapped.
    pub fn size(&self) -> usize {
        self.len
    }
}

impl Drop for Reserved {
    fn drop(&mut self) {
        if self.len != 0 {
            // SAFETY: an unused mapping we own.
            unsafe { libc::munmap(self.ptr.as_ptr().cast(), self.len) };
        }
    }
}
