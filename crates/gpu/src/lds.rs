//! LDS (group segment) of one work-group and the private-segment swizzle.
//!
//! All waves of a work-group run on one worker thread, so LDS is plain memory without locks.
//! Out-of-range LDS accesses behave as on GFX9 hardware: reads return 0, writes are dropped.

/// The LDS of one work-group: fixed (descriptor) plus dynamic (packet) bytes.
pub struct Lds {
    /// Cache-line aligned (`line_buf`): generated code moves LDS in vector chunks.
    bytes: crate::line_buf::LineBuf,
    size: usize,
}

impl Lds {
    pub fn new() -> Self {
        Lds {
            bytes: crate::line_buf::LineBuf::new(),
            size: 0,
        }
    }

    /// Sizes and zeroes the LDS for the next work-group, reusing the allocation.
    pub fn reset(&mut self, size: usize) {
        self.size = size;
        self.bytes.reset_zeroed(size + 16);
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// The first byte (generated code accesses `[0, size)` directly; the 16 bytes after the
    /// end exist so a vector access that reaches past the last byte stays in the allocation).
    pub fn as_mut_ptr(&mut self) -> *mut u8 {
        self.bytes.as_mut_ptr()
    }

    #[inline]
    fn in_range(&self, off: u32, len: usize) -> bool {
        (off as usize)
            .checked_add(len)
            .is_some_and(|e| e <= self.size)
    }

    #[inline]
    pub fn read_u32(&self, off: u32) -> u32 {
        if !self.in_range(off, 4) {
            return 0;
        }
        let o = off as usize;
        u32::from_le_bytes(self.bytes.bytes()[o..o + 4].try_into().unwrap_or([0; 4]))
    }

    #[inline]
    pub fn write_u32(&mut self, off: u32, v: u32) {
        if self.in_range(off, 4) {
            let o = off as usize;
            self.bytes.bytes_mut()[o..o + 4].copy_from_slice(&v.to_le_bytes());
        }
    }

    #[inline]
    pub fn read_u8(&self, off: u32) -> u8 {
        if self.in_range(off, 1) {
            self.bytes.bytes()[off as usize]
        } else {
            0
        }
    }

    #[inline]
    pub fn write_u8(&mut self, off: u32, v: u8) {
        if self.in_range(off, 1) {
            self.bytes.bytes_mut()[off as usize] = v;
        }
    }

    #[inline]
    pub fn read_u16(&self, off: u32) -> u16 {
        u16::from(self.read_u8(off)) | u16::from(self.read_u8(off.wrapping_add(1))) << 8
    }

    #[inline]
    pub fn write_u16(&mut self, off: u32, v: u16) {
        if self.in_range(off, 2) {
            self.write_u8(off, v as u8);
            self.write_u8(off + 1, (v >> 8) as u8);
        }
    }

    #[inline]
    pub fn read_u64(&self, off: u32) -> u64 {
        u64::from(self.read_u32(off)) | u64::from(self.read_u32(off.wrapping_add(4))) << 32
    }

    #[inline]
    pub fn write_u64(&mut self, off: u32, v: u64) {
        self.write_u32(off, v as u32);
        self.write_u32(off.wrapping_add(4), (v >> 32) as u32);
    }
}

impl Default for Lds {
    fn default() -> Self {
        Self::new()
    }
}

/// Scratch interleave: dword `offset / 4` of lane `lane` lives at this byte offset from the
/// wave's scratch base (element size 4, index stride 64, as the ABI's private segment V# says).
#[inline]
pub fn swizzle_private(offset: u32, lane: u32) -> u64 {
    u64::from(offset / 4) * 256 + u64::from(lane) * 4 + u64::from(offset % 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lds_bounds_follow_hardware() {
        let mut l = Lds::new();
        l.reset(64);
        l.write_u32(60, 0xdead_beef);
        assert_eq!(l.read_u32(60), 0xdead_beef);
        l.write_u32(62, 7); // straddles the end: dropped
        assert_eq!(l.read_u32(60), 0xdead_beef);
        assert_eq!(l.read_u32(64), 0);
        assert_eq!(l.read_u16(60), 0xbeef);
        assert_eq!(l.read_u8(63), 0xde);
        l.write_u64(8, 0x1122_3344_5566_7788);
        assert_eq!((l.read_u32(8), l.read_u32(12)), (0x5566_7788, 0x1122_3344));
    }

    #[test]
    fn swizzle_interleaves_dwords_by_lane() {
        // Lanes of one dword index are adjacent; the next dword of a lane is 64 dwords later.
        assert_eq!(swizzle_private(0, 0), 0);
        assert_eq!(swizzle_private(0, 1), 4);
        assert_eq!(swizzle_private(4, 0), 256);
        assert_eq!(swizzle_private(6, 3), 256 + 12 + 2);
    }
}
