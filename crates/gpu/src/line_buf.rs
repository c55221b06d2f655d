//! Byte buffers aligned to a cache line, for the memory generated code moves in 32- and 64-byte
//! chunks (a work-group's LDS and scratch backing): a chunk that straddles two lines costs two
//! accesses and defeats store forwarding, and with the allocator's 8- or 16-byte alignment a
//! kernel's speed depended on where its buffers happened to land (`wave::RegFile`).

/// One cache line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([u8; 64]);

const ZERO: Line = Line([0; 64]);

/// A growable byte buffer whose first byte is 64-byte aligned and whose length is a multiple
/// of 64.
#[derive(Default)]
pub struct LineBuf {
    lines: Vec<Line>,
}

impl LineBuf {
    /// An empty buffer (no allocation).
    pub fn new() -> Self {
        LineBuf { lines: Vec::new() }
    }

    /// Bytes held.
    pub fn len(&self) -> usize {
        self.lines.len() * 64
    }

    /// Whether it holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Holds at least `bytes` bytes, all zero (the allocation is reused).
    pub fn reset_zeroed(&mut self, bytes: usize) {
        self.lines.clear();
        self.lines.resize(bytes.div_ceil(64), ZERO);
    }

    /// Holds at least `bytes` bytes, keeping the old ones (new bytes are zero). `Err`: host
    /// memory ran out (nothing changed).
    pub fn try_grow(&mut self, bytes: usize) -> Result<(), std::collections::TryReserveError> {
        let n = bytes.div_ceil(64);
        if n > self.lines.len() {
            self.lines.try_reserve_exact(n - self.lines.len())?;
            self.lines.resize(n, ZERO);
        }
        Ok(())
    }

    /// The first byte.
    pub fn as_mut_ptr(&mut self) -> *mut u8 {
        self.lines.as_mut_ptr().cast()
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: `Line` is 64 plain bytes without padding (`repr(C)`, size 64), so the
        // vector's lines are `len()` initialized, contiguous bytes borrowed with `self`.
        unsafe { std::slice::from_raw_parts(self.lines.as_ptr().cast(), self.len()) }
    }

    /// The bytes, mutably.
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        let n = self.len();
        // SAFETY: as in `bytes`, borrowed mutably with `self`.
        unsafe { std::slice::from_raw_parts_mut(self.lines.as_mut_ptr().cast(), n) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_zeroed_and_kept_when_grown() {
        let mut b = LineBuf::new();
        assert!(b.is_empty());
        b.reset_zeroed(100);
        assert_eq!(b.len(), 128);
        assert_eq!(b.as_mut_ptr() as usize % 64, 0);
        assert!(b.bytes().iter().all(|&x| x == 0));
        b.bytes_mut()[5] = 7;
        b.try_grow(1000).expect("grows");
        assert_eq!(b.len(), 1024);
        assert_eq!(b.as_mut_ptr() as usize % 64, 0);
        assert_eq!(b.bytes()[5], 7);
        assert!(b.bytes()[6..].iter().all(|&x| x == 0));
        b.reset_zeroed(10);
        assert_eq!(b.len(), 64);
        assert!(b.bytes().iter().all(|&x| x == 0));
    }
}
