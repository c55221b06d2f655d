//! Agent-visible memory for image and sampler objects: their handles are the addresses of the
//! descriptors (kernels load the T#/S# straight from the handle, HIP copies them from it), so
//! the descriptors live in 64-byte slots of pages allocated from the fine-grained system pool
//! (registered like any allocation, so kernels may read them).

use crate::memory::Memory;
use crate::Result;

/// Bytes per slot (a 48-byte image object or a 32-byte sampler, 16-byte aligned).
pub const SLOT: u64 = 64;
const PAGE: u64 = 4096;

/// Free and used descriptor slots.
#[derive(Default)]
pub struct Slab {
    pages: Vec<u64>,
    free: Vec<u64>,
}

impl Slab {
    /// A free slot (allocating a page when none is left).
    pub fn take(&mut self, mem: &Memory) -> Result<u64> {
        if self.free.is_empty() {
            let page = mem.allocate_in(mem.kernarg_pool(), PAGE, 0)? as u64;
            self.pages.push(page);
            self.free
                .extend((0..PAGE / SLOT).rev().map(|i| page + i * SLOT));
        }
        Ok(self.free.pop().unwrap_or_default())
    }

    /// Returns a slot (zeroing it, so a stale handle's descriptor reads as the null image).
    pub fn put(&mut self, slot: u64) {
        // SAFETY: `slot` came from `take`: SLOT bytes inside a page this slab allocated and
        // still holds (pages are only freed with the runtime).
        unsafe { std::ptr::write_bytes(slot as *mut u8, 0, SLOT as usize) };
        self.free.push(slot);
    }

    /// Writes dwords into a slot.
    pub fn write(slot: u64, words: &[u32]) {
        debug_assert!(words.len() as u64 * 4 <= SLOT);
        for (i, &w) in words.iter().enumerate() {
            // SAFETY: inside the slot (at most 16 dwords), 4-byte aligned.
            unsafe { (slot as *mut u32).add(i).write_volatile(w) };
        }
    }
}
