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

/// A range generated code may access without asking: `[lo, hi)`, host = address + `delta`
/// (`#[repr(C)]`: the JIT reads it). Empty when `lo >= hi`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Site {
    pub lo: u64,
    pub hi: u64,
    pub delta: u64,
    /// The JIT's notes. Vector accesses: byte 0, how this instruction's lanes were laid out
    /// lately (bit 0: in rows of consecutive lanes, not all consecutive; above it, a
    /// countdown of calls that skip the fast paths), so its stub tries the right path first;
    /// bit [`PRIVATE_SITE`]: the range is the worker's scratch backing. Scalar loads: the
    /// address they last loaded from (in the range above), plus 1.
    pub hint: u64,
    /// The JIT's prefetch notes for a consecutive access: the host address its wave 0 used
    /// last (0: none yet), and how far past its address it also prefetches (the step between
    /// those of two work-groups where longer than the JIT's fixed distance; 0: nothing more).
    pub last: u64,
    pub ahead: i64,
}

/// `Site::hint` bit: the site's range is the scratch backing of the worker, which only the
/// worker's thread reaches (the waves of one work-group run on one thread, and no other
/// work-group's checker knows the backing), so stores there leave nothing for
/// `s_waitcnt vmcnt(0)` to fence.
pub const PRIVATE_SITE: u64 = 1 << 8;

/// What a worker keeps between the work-groups of one dispatch: the ranges checks proved, the
/// last one and one per JIT memory instruction ("site": an instruction keeps touching the same
/// buffer). Never carried across dispatches. Scratch ranges hold only while the next
/// work-group has the same scratch backing (each work-group context has its own, and a
/// parked work-group keeps its context): a work-group whose private accesses all need proving
/// again pays a call into the checker per memory instruction.
#[derive(Clone, Debug, Default)]
pub struct MemCache {
    pub last: Known,
    pub sites: Vec<Site>,
    /// The scratch backing the ranges were proved with.
    pub scratch: Range<u64>,
}

/// A wave's view of checked memory: the runtime's map, the scratch backing of the worker, and
/// the ranges that satisfied checks (the fast paths).
pub struct Checker<'a> {
    map: &'a dyn MemoryMap,
    scratch: Range<u64>,
    cache: Known,
    sites: Vec<Site>,
}

/// Whether two address ranges share a byte (an empty range shares none).
fn overlaps(a: &Range<u64>, b: &Range<u64>) -> bool {
    a.start < a.end && b.start < b.end && a.start < b.end && b.start < a.end
}

impl<'a> Checker<'a> {
    pub fn new(map: &'a dyn MemoryMap, scratch: Range<u64>) -> Self {
        Checker {
            map,
            scratch,
            cache: Known::default(),
            sites: Vec::new(),
        }
    }

    /// Starts from the ranges that satisfied earlier checks of the same dispatch (the
    /// runtime's ranges cannot go away while a dispatch that uses them runs; scratch ranges
    /// hold while the backing is the same one).
    pub fn with_cache(mut self, cache: MemCache) -> Self {
        let same = cache.scratch == self.scratch;
        let stale =
            |r: &Range<u64>| !same && (overlaps(r, &cache.scratch) || overlaps(r, &self.scratch));
        if !stale(&cache.last.range) {
            self.cache = cache.last;
        }
        self.sites = cache.sites;
        if !same {
            for s in self.sites.iter_mut() {
                if stale(&(s.lo..s.hi)) {
                    *s = Site::default();
                }
            }
        }
        self
    }

    /// Whether `r` lies in the scratch backing.
    pub fn is_scratch(&self, r: &Range<u64>) -> bool {
        self.scratch.start < self.scratch.end
            && r.start >= self.scratch.start
            && r.end <= self.scratch.end
    }

    /// The last range that satisfied a check.
    pub fn cache(&self) -> Known {
        self.cache.clone()
    }

    /// Hands the proven ranges over for the next work-group, with the scratch backing they
    /// were proved with.
    pub fn take_cache(&mut self) -> MemCache {
        MemCache {
            last: std::mem::take(&mut self.cache),
            sites: std::mem::take(&mut self.sites),
            scratch: self.scratch.clone(),
        }
    }

    /// The per-site ranges, at least `n` of them (new ones empty).
    pub fn sites(&mut self, n: usize) -> &mut [Site] {
        if self.sites.len() < n {
            self.sites.resize(n, Site::default());
        }
        &mut self.sites
    }

    /// Proves `[lo, end)` is accessible; returns the delta to add to reach host memory.
    #[inline]
    pub fn span(&mut self, lo: u64, end: u64, write: bool) -> Result<u64, MemErr> {
        // Never an empty span: a lane set's end that wrapped past the top of the address
        // space to exactly its start (lanes at 0 and at 2^64 - size) would pass as one.
        if lo >= self.cache.range.start && end <= self.cache.range.end && end > lo {
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
        if end <= lo {
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

/// # Safety
/// `[addr, addr + 8)` is readable host memory.
#[inline]
pub unsafe fn read_u64(addr: u64) -> u64 {
    if addr & 7 == 0 {
        // SAFETY: aligned and readable per the caller; one 64-bit access, so a concurrent
        // aligned 64-bit store is seen whole or not at all (single-copy atomicity).
        unsafe { (*(addr as *const AtomicU64)).load(Relaxed) }
    } else {
        // SAFETY: readable per the caller. Misaligned: no atomicity is promised, but each
        // aligned dword stays whole.
        unsafe { u64::from(read_u32(addr)) | u64::from(read_u32(addr + 4)) << 32 }
    }
}

/// # Safety
/// `[addr, addr + 8)` is writable host memory.
#[inline]
pub unsafe fn write_u64(addr: u64, v: u64) {
    if addr & 7 == 0 {
        // SAFETY: aligned and writable per the caller; one 64-bit access (single-copy atomic).
        unsafe { (*(addr as *const AtomicU64)).store(v, Relaxed) }
    } else {
        // SAFETY: writable per the caller.
        unsafe {
            write_u32(addr, v as u32);
            write_u32(addr + 4, (v >> 32) as u32);
        }
    }
}

/// Reads `out.len()` consecutive dwords from `addr` the way the memory model promises: every
/// naturally aligned 8-byte piece is one 64-bit host access (a `dwordx2` at an 8-aligned
/// address can never be seen half-written), the other dwords one 32-bit access each.
///
/// # Safety
/// `[addr, addr + 4 * out.len())` is readable host memory.
#[inline]
pub unsafe fn read_dwords(addr: u64, out: &mut [u32]) {
    let n = out.len();
    let mut k = 0;
    while k < n {
        let a = addr.wrapping_add(4 * k as u64);
        if a & 7 == 0 && k + 1 < n {
            // SAFETY: inside the caller's readable span.
            let v = unsafe { read_u64(a) };
            out[k] = v as u32;
            out[k + 1] = (v >> 32) as u32;
            k += 2;
        } else {
            // SAFETY: inside the caller's readable span.
            out[k] = unsafe { read_u32(a) };
            k += 1;
        }
    }
}

/// Writes `data` as consecutive dwords at `addr`, each naturally aligned 8-byte piece as one
/// 64-bit host access (the counterpart of [`read_dwords`]).
///
/// # Safety
/// `[addr, addr + 4 * data.len())` is writable host memory.
#[inline]
pub unsafe fn write_dwords(addr: u64, data: &[u32]) {
    let n = data.len();
    let mut k = 0;
    while k < n {
        let a = addr.wrapping_add(4 * k as u64);
        if a & 7 == 0 && k + 1 < n {
            // SAFETY: inside the caller's writable span.
            unsafe { write_u64(a, u64::from(data[k]) | u64::from(data[k + 1]) << 32) };
            k += 2;
        } else {
            // SAFETY: inside the caller's writable span.
            unsafe { write_u32(a, data[k]) };
            k += 1;
        }
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

    /// A span is never empty: lanes at 0 and at 2^64 - 4 make [0, 0) once the end wraps,
    /// which a fresh cache (the empty range at 0) or an empty scratch range would contain.
    #[test]
    fn empty_and_reversed_spans_are_refused() {
        let map = OneRange(0x1000..0x2000);
        let mut c = Checker::new(&map, 0..0);
        assert!(c.span(0, 0, true).is_err());
        assert!(c.span(0x1000, 0x1000, false).is_err());
        assert!(c.span(0x1ffc, 0x1000, false).is_err());
        assert!(c.span(0x1000, 0x1004, false).is_ok());
    }

    /// Proven ranges pass to the next work-group: runtime ranges always, scratch ranges only
    /// when its backing is the same one (a moved backing may be other memory by then).
    #[test]
    fn scratch_ranges_pass_on_only_with_the_same_backing() {
        let map = OneRange(0x1000..0x2000);
        let proved = |scratch: Range<u64>| {
            let mut c = Checker::new(&map, scratch);
            c.sites(2);
            assert!(c.span(0x1000, 0x1004, false).is_ok());
            c.sites(2)[0] = Site {
                lo: 0x1000,
                hi: 0x2000,
                ..Site::default()
            };
            assert!(c.span(0x9100, 0x9104, true).is_ok());
            c.sites(2)[1] = Site {
                lo: 0x9000,
                hi: 0xa000,
                ..Site::default()
            };
            c.take_cache()
        };
        let ranges = |c: &mut Checker| {
            let last = c.cache().range;
            let s = c.sites(2);
            (last, s[0].lo..s[0].hi, s[1].lo..s[1].hi)
        };
        let mut same = Checker::new(&map, 0x9000..0xa000).with_cache(proved(0x9000..0xa000));
        assert_eq!(
            ranges(&mut same),
            (0x9000..0xa000, 0x1000..0x2000, 0x9000..0xa000)
        );
        // A new backing elsewhere: the old backing's ranges go, the runtime's stay.
        let mut moved = Checker::new(&map, 0xc000..0xd000).with_cache(proved(0x9000..0xa000));
        assert_eq!(ranges(&mut moved), (0..0, 0x1000..0x2000, 0..0));
        assert!(moved.span(0x9100, 0x9104, false).is_err());
        // A backing that grew in place is another backing too.
        let mut grown = Checker::new(&map, 0x9000..0xb000).with_cache(proved(0x9000..0xa000));
        assert_eq!(ranges(&mut grown), (0..0, 0x1000..0x2000, 0..0));
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

    /// A 64-bit word written whole by one thread is never read half-old, half-new through
    /// `read_dwords`, and `write_dwords` never exposes half of a word (the reader reads with a
    /// host 64-bit load). Dword-by-dword copies fail this within a few thousand rounds.
    #[test]
    fn aligned_pairs_are_single_copy_atomic() {
        use std::sync::atomic::AtomicBool;
        let cell = AtomicU64::new(0);
        let a = cell.as_ptr() as u64;
        let stop = AtomicBool::new(false);
        std::thread::scope(|s| {
            s.spawn(|| {
                let mut i = 0u32;
                while !stop.load(Relaxed) {
                    i = i.wrapping_add(1);
                    // SAFETY: `cell` is live, aligned memory shared with the reader.
                    unsafe { write_dwords(a, &[i, i]) };
                }
            });
            let mut torn = 0;
            // Start once the writer runs, so the rounds really race.
            while cell.load(Relaxed) == 0 {
                std::hint::spin_loop();
            }
            for _ in 0..1_000_000 {
                let mut out = [0u32; 2];
                // SAFETY: as above.
                unsafe { read_dwords(a, &mut out) };
                torn += usize::from(out[0] != out[1]);
            }
            stop.store(true, Relaxed);
            assert_eq!(torn, 0, "torn 64-bit reads");
        });
        // A dwordx3 at a 4-mod-8 address: dword 0 alone, dwords 1..2 one aligned pair.
        let mut buf = [0u64; 3];
        let base = buf.as_mut_ptr() as u64 + 4;
        // SAFETY: 12 bytes inside `buf`.
        unsafe { write_dwords(base, &[1, 2, 3]) };
        let mut out = [0u32; 3];
        // SAFETY: as above.
        unsafe { read_dwords(base, &mut out) };
        assert_eq!(out, [1, 2, 3]);
        assert_eq!(buf[0] >> 32, 1);
        assert_eq!(buf[1], 2 | 3 << 32);
    }
}
