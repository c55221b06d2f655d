//! Checked access to host memory (global, flat-global, kernarg, scratch backing).
//!
//! Every access first proves that its whole span lies inside a range the runtime knows
//! ([`MemoryMap`]) or inside the worker's scratch backing; only then is the host address touched.
//! Plain loads and stores are relaxed atomics when aligned (plain moves on x86-64), so concurrent
//! work-groups and host threads never race in the Rust sense; GPU atomics are host atomics.

use crate::MemoryMap;
use std::ops::Range;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

/// A failed check: the first bad address, and the lane that produced it (if a vector access).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemErr {
    pub address: u64,
    pub write: bool,
    pub lane: Option<u32>,
}

/// A range that satisfied a check, and its translation (host = address + delta; 0 except for
/// the runtime's agent-side aliases of locked host memory).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Known {
    pub range: Range<u64>,
    pub delta: u64,
}

/// A wave's view of checked memory: the runtime's map, the scratch backing of the worker, and
/// the last range that satisfied a check (the fast path).
pub struct Checker<'a> {
    map: &'a dyn MemoryMap,
    scratch: Range<u64>,
    cache: Known,
}

impl<'a> Checker<'a> {
    pub fn new(map: &'a dyn MemoryMap, scratch: Range<u64>) -> Self {
        Checker {
            map,
            scratch,
            cache: Known::default(),
        }
    }

    /// Starts from a range that satisfied an earlier check of the same dispatch (the runtime's
    /// ranges cannot go away while a dispatch that uses them runs).
    pub fn with_cache(mut self, cache: Known) -> Self {
        if cache.range.start >= self.scratch.end || cache.range.end <= self.scratch.start {
            self.cache = cache;
        }
        self
    }

    /// The last range that satisfied a check.
    pub fn cache(&self) -> Known {
        self.cache.clone()
    }

    /// Proves `[lo, end)` is accessible; returns the delta to add to reach host memory.
    #[inline]
    pub fn span(&mut self, lo: u64, end: u64, write: bool) -> Result<u64, MemErr> {
        if lo >= self.cache.range.start && end <= self.cache.range.end && end >= lo {
            return Ok(self.cache.delta);
        }
        self.span_slow(lo, end, write, None)
    }

    #[cold]
    fn span_slow(
        &mut self,
        lo: u64,
        end: u64,
        write: bool,
        lane: Option<u32>,
    ) -> Result<u64, MemErr> {
        let err = MemErr {
            address: lo,
            write,
            lane,
        };
        if end < lo {
            return Err(err);
        }
        if lo >= self.scratch.start && end <= self.scratch.end {
            self.cache = Known {
                range: self.scratch.clone(),
                delta: 0,
            };
            return Ok(0);
        }
        match self.map.translate(lo, end - lo) {
            Some((range, delta)) if range.start <= lo && end <= range.end => {
                self.cache = Known { range, delta };
                Ok(delta)
            }
            _ => Err(err),
        }
    }

    /// Proves every active lane's `[addr, addr + size)` accessible (one check of the span of all
    /// lanes, then lane by lane when the lanes straddle several ranges), then translates the
    /// active lanes' addresses to host addresses in place.
    pub fn lanes(
        &mut self,
        addr: &mut [u64; 64],
        exec: u64,
        size: u64,
        write: bool,
    ) -> Result<(), MemErr> {
        if exec == 0 {
            return Ok(());
        }
        let mut lo = u64::MAX;
        let mut hi = 0u64;
        for (l, &a) in addr.iter().enumerate() {
            if exec >> l & 1 != 0 {
                lo = lo.min(a);
                hi = hi.max(a);
            }
        }
        let end = hi.wrapping_add(size);
        if end > hi {
            if let Ok(delta) = self.span(lo, end, write) {
                if delta != 0 {
                    for (l, a) in addr.iter_mut().enumerate() {
                        if exec >> l & 1 != 0 {
                            *a = a.wrapping_add(delta);
                        }
                    }
                }
                return Ok(());
            }
        }
        // Check every lane before translating any, so a fault leaves the addresses untouched.
        let mut deltas = [0u64; 64];
        for (l, &a) in addr.iter().enumerate() {
            if exec >> l & 1 != 0 {
                let e = a.wrapping_add(size);
                if e <= a {
                    return Err(MemErr {
                        address: a,
                        write,
                        lane: Some(l as u32),
                    });
                }
                deltas[l] = self.span_lane(a, e, write, l as u32)?;
            }
        }
        for (a, d) in addr.iter_mut().zip(deltas) {
            *a = a.wrapping_add(d);
        }
        Ok(())
    }

    fn span_lane(&mut self, a: u64, e: u64, write: bool, lane: u32) -> Result<u64, MemErr> {
        if a >= self.cache.range.start && e <= self.cache.range.end {
            return Ok(self.cache.delta);
        }
        self.span_slow(a, e, write, Some(lane))
    }
}

// Raw accessors. Callers must have checked the span with a `Checker` (or own the memory).

/// # Safety
/// `[addr, addr + 4)` is readable host memory.
#[inline]
pub unsafe fn read_u32(addr: u64) -> u32 {
    if addr & 3 == 0 {
        // SAFETY: aligned and readable per the caller; an atomic view tolerates concurrent writers.
        unsafe { (*(addr as *const AtomicU32)).load(Relaxed) }
    } else {
        // SAFETY: readable per the caller; unaligned reads are allowed by read_unaligned.
        unsafe { std::ptr::read_unaligned(addr as *const u32) }
    }
}

/// # Safety
/// `[addr, addr + 4)` is writable host memory.
#[inline]
pub unsafe fn write_u32(addr: u64, v: u32) {
    if addr & 3 == 0 {
        // SAFETY: aligned and writable per the caller.
        unsafe { (*(addr as *const AtomicU32)).store(v, Relaxed) }
    } else {
        // SAFETY: writable per the caller.
        unsafe { std::ptr::write_unaligned(addr as *mut u32, v) }
    }
}

/// # Safety
/// `[addr, addr + 1)` is readable host memory.
#[inline]
pub unsafe fn read_u8(addr: u64) -> u8 {
    // SAFETY: readable per the caller; atomic byte view for concurrent writers.
    unsafe { (*(addr as *const std::sync::atomic::AtomicU8)).load(Relaxed) }
}

/// # Safety
/// `[addr, addr + 1)` is writable host memory.
#[inline]
pub unsafe fn write_u8(addr: u64, v: u8) {
    // SAFETY: writable per the caller.
    unsafe { (*(addr as *const std::sync::atomic::AtomicU8)).store(v, Relaxed) }
}

/// # Safety
/// `[addr, addr + 2)` is readable host memory.
#[inline]
pub unsafe fn read_u16(addr: u64) -> u16 {
    if addr & 1 == 0 {
        // SAFETY: aligned and readable per the caller.
        unsafe { (*(addr as *const std::sync::atomic::AtomicU16)).load(Relaxed) }
    } else {
        // SAFETY: readable per the caller.
        unsafe { std::ptr::read_unaligned(addr as *const u16) }
    }
}

/// # Safety
/// `[addr, addr + 2)` is writable host memory.
#[inline]
pub unsafe fn write_u16(addr: u64, v: u16) {
    if addr & 1 == 0 {
        // SAFETY: aligned and writable per the caller.
        unsafe { (*(addr as *const std::sync::atomic::AtomicU16)).store(v, Relaxed) }
    } else {
        // SAFETY: writable per the caller.
        unsafe { std::ptr::write_unaligned(addr as *mut u16, v) }
    }
}

/// The host atomic for a 32-bit GPU atomic, or `None` when the address is misaligned.
///
/// # Safety
/// `[addr, addr + 4)` is writable host memory that stays alive while the reference is used.
#[inline]
pub unsafe fn atomic_u32<'m>(addr: u64) -> Option<&'m AtomicU32> {
    // SAFETY: alignment checked here, liveness per the caller.
    (addr & 3 == 0).then(|| unsafe { &*(addr as *const AtomicU32) })
}

/// The host atomic for a 64-bit GPU atomic, or `None` when the address is misaligned.
///
/// # Safety
/// `[addr, addr + 8)` is writable host memory that stays alive while the reference is used.
#[inline]
pub unsafe fn atomic_u64<'m>(addr: u64) -> Option<&'m AtomicU64> {
    // SAFETY: alignment checked here, liveness per the caller.
    (addr & 7 == 0).then(|| unsafe { &*(addr as *const AtomicU64) })
}

#[cfg(test)]
mod tests {
    use super::*;

    struct OneRange(Range<u64>);
    impl MemoryMap for OneRange {
        fn lookup(&self, addr: u64, len: u64) -> Option<Range<u64>> {
            (addr >= self.0.start && addr + len <= self.0.end).then(|| self.0.clone())
        }
    }

    #[test]
    fn span_checks_and_caches() {
        let map = OneRange(0x1000..0x2000);
        let mut c = Checker::new(&map, 0x9000..0xa000);
        assert_eq!(c.span(0x1000, 0x1004, false), Ok(0));
        assert!(c.span(0x1ffc, 0x2000, true).is_ok());
        let e = c.span(0x1ffc, 0x2004, true).unwrap_err();
        assert_eq!(e.address, 0x1ffc);
        assert!(c.span(0x9100, 0x9200, true).is_ok());
        assert!(c.span(0x8fff, 0x9001, false).is_err());
    }

    /// [0x1000, 0x2000) is host memory; [0x9000, 0xa000) an alias of it (delta -0x8000).
    struct Aliased;
    impl MemoryMap for Aliased {
        fn lookup(&self, addr: u64, len: u64) -> Option<Range<u64>> {
            (addr >= 0x1000 && addr + len <= 0x2000).then_some(0x1000..0x2000)
        }
        fn translate(&self, addr: u64, len: u64) -> Option<(Range<u64>, u64)> {
            if addr >= 0x9000 && addr + len <= 0xa000 {
                return Some((0x9000..0xa000, 0u64.wrapping_sub(0x8000)));
            }
            self.lookup(addr, len).map(|r| (r, 0))
        }
    }

    #[test]
    fn lanes_translate_aliases_per_lane() {
        let mut c = Checker::new(&Aliased, 0..0);
        assert_eq!(c.span(0x9004, 0x9008, false), Ok(0u64.wrapping_sub(0x8000)));
        let mut addr = [0x1100u64; 64];
        addr[5] = 0x9100; // straddles: lane 5 through the alias, the others direct
        c.lanes(&mut addr, u64::MAX, 4, true).unwrap();
        assert_eq!((addr[0], addr[5]), (0x1100, 0x1100));
        // A fault leaves the addresses untranslated.
        let mut bad = [0x9100u64; 64];
        bad[63] = 0x5000;
        assert_eq!(
            c.lanes(&mut bad, u64::MAX, 4, false).unwrap_err().lane,
            Some(63)
        );
        assert_eq!(bad[0], 0x9100);
    }

    #[test]
    fn lanes_reports_the_first_bad_lane() {
        let map = OneRange(0x1000..0x2000);
        let mut c = Checker::new(&map, 0..0);
        let mut addr = [0u64; 64];
        for (l, a) in addr.iter_mut().enumerate() {
            *a = 0x1000 + 64 * l as u64;
        }
        assert!(c.lanes(&mut addr, u64::MAX, 4, false).is_ok());
        addr[37] = 0x2000;
        let e = c.lanes(&mut addr, u64::MAX, 4, false).unwrap_err();
        assert_eq!((e.address, e.lane), (0x2000, Some(37)));
        // An inactive bad lane is not checked.
        assert!(c.lanes(&mut addr, !(1u64 << 37), 4, false).is_ok());
    }
}
