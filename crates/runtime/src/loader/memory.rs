//! Host memory for loaded code object segments, and how it is declared to the GPU.

use crate::{Error, Result};
use softhsa_abi::HSA_STATUS_ERROR_OUT_OF_RESOURCES;
use std::alloc::Layout;
use std::ptr::NonNull;

/// The runtime's allocation registry as the loader uses it: loaded segments are ranges the
/// GPU may access (RangeKind::CodeObject, owned by the agent they were loaded for).
pub trait SegmentRegistry {
    fn add(&self, start: u64, len: u64, agent: usize) -> Result<()>;
    fn remove(&self, start: u64);
}

/// A zeroed, aligned host block holding one loaded code object's virtual range.
pub struct SegmentMemory {
    ptr: NonNull<u8>,
    layout: Layout,
}

// SAFETY: the block is plain bytes owned by this value; concurrent access goes through raw
// pointers (the GPU's atomic accesses) or `&mut self` (loading), never shared references.
unsafe impl Send for SegmentMemory {}
// SAFETY: as above: `&SegmentMemory` only exposes the address and length.
unsafe impl Sync for SegmentMemory {}

impl SegmentMemory {
    /// `size` bytes (rounded up to a page) aligned to `align` (a power of two >= 4096).
    pub fn new(size: u64, align: u64) -> Result<SegmentMemory> {
        let oom = |why: &str| {
            Error::with_message(
                HSA_STATUS_ERROR_OUT_OF_RESOURCES,
                format!("code object memory: {why}"),
            )
        };
        let size =
            usize::try_from(size.max(1).div_ceil(4096) * 4096).map_err(|_| oom("too large"))?;
        let align = usize::try_from(align).map_err(|_| oom("bad alignment"))?;
        let layout = Layout::from_size_align(size, align).map_err(|_| oom("bad layout"))?;
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { std::alloc::alloc_zeroed(layout) };
        let ptr = NonNull::new(raw).ok_or_else(|| oom("allocation failed"))?;
        Ok(SegmentMemory { ptr, layout })
    }

    /// Device (= host) address of the first byte: the load base.
    pub fn base(&self) -> u64 {
        self.ptr.as_ptr() as u64
    }

    pub fn len(&self) -> usize {
        self.layout.size()
    }

    pub fn is_empty(&self) -> bool {
        self.layout.size() == 0
    }

    /// The whole block, for loading (before any other party knows its address).
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: the block is `len()` initialized (zeroed) bytes owned by self, and `&mut self`
        // guarantees no other reference to it exists.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.layout.size()) }
    }

    /// A copy of `len` bytes at `offset` (reads the current contents; used for code, which the
    /// GPU never writes).
    pub fn copy_out(&self, offset: u64, len: u64) -> Option<Vec<u8>> {
        let end = offset.checked_add(len)?;
        if end > self.layout.size() as u64 {
            return None;
        }
        let mut v = vec![0u8; len as usize];
        // SAFETY: [offset, offset + len) is inside the block (checked above); the destination is
        // a fresh Vec of that length; the regions do not overlap.
        unsafe {
            std::ptr::copy_nonoverlapping(
                self.ptr.as_ptr().add(offset as usize),
                v.as_mut_ptr(),
                v.len(),
            )
        };
        Some(v)
    }
}

impl Drop for SegmentMemory {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this very layout, freed only here.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr(), self.layout) };
    }
}

/// Loaded segments are CodeObject ranges of the runtime's allocation registry.
impl SegmentRegistry for crate::memory::Memory {
    fn add(&self, start: u64, len: u64, agent: usize) -> Result<()> {
        self.register_range(start, len, crate::memory::RangeKind::CodeObject, agent)
    }
    fn remove(&self, start: u64) {
        // Already gone only if the runtime tore the registry down first (shutdown).
        let _ = self.unregister_range(start);
    }
}
