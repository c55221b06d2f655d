//! The allocation registry: every host range the GPU may touch, with its owner and access.
//!
//! One source of truth for pool allocations, locked and registered host memory, and (registered
//! by their owners) loaded code object segments, queues and signals. Ranges never overlap. The
//! software GPU checks addresses against it through [`softhsa_gpu::MemoryMap`]: lookups take a
//! shared read lock on a B-tree keyed by range start, so many worker threads look up at once;
//! and the GPU caches the last range per wave, so lookups are rare on the hot path.

use crate::{Error, Result};
use arc_swap::ArcSwap;
use softhsa_abi::*;
use std::collections::BTreeMap;
use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Mutex, MutexGuard};

/// What a range is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RangeKind {
    /// A pool allocation (`hsa_memory_allocate`, `hsa_amd_memory_pool_allocate`).
    Allocation,
    /// Host memory pinned by `hsa_amd_memory_lock*`.
    Locked,
    /// Host memory declared by `hsa_memory_register`.
    Registered,
    /// Loaded code object segments (the loader registers them).
    CodeObject,
    /// AQL queue rings and `amd_queue_t`s.
    Queue,
    /// `amd_signal_t` storage.
    Signal,
    /// Other runtime-owned memory the device reads (scratch, kernarg staging, ...).
    Runtime,
}

/// One registered range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Range {
    pub start: u64,
    pub len: u64,
    pub kind: RangeKind,
    /// Agent index of the owner (the CPU agent, 0, for host memory).
    pub owner: usize,
    /// Pool index for allocations and pool-locked memory.
    pub pool: Option<usize>,
    /// Bit i set: agent i may access (owner included).
    pub access: u64,
    /// `hsa_amd_pointer_info_set_userdata`.
    pub user_data: u64,
    /// Nesting count of lock/register calls on the same range.
    pub(crate) refs: u32,
}

impl Range {
    pub fn new(start: u64, len: u64, kind: RangeKind, owner: usize) -> Range {
        Range {
            start,
            len,
            kind,
            owner,
            pool: None,
            access: 1 << owner,
            user_data: 0,
            refs: 1,
        }
    }

    pub fn end(&self) -> u64 {
        self.start + self.len
    }

    pub fn contains(&self, addr: u64, len: u64) -> bool {
        addr >= self.start && addr.checked_add(len).is_some_and(|e| e <= self.end())
    }
}

/// See the module documentation.
#[derive(Default)]
pub struct Registry {
    map: Mutex<BTreeMap<u64, Range>>,
    /// Sorted, non-overlapping `(start, end)` of every range: what lookups search.
    spans: ArcSwap<Vec<(u64, u64)>>,
}

/// Exclusive access to the records; republishes the lookup snapshot when dropped.
pub(crate) struct RegistryWrite<'a> {
    map: MutexGuard<'a, BTreeMap<u64, Range>>,
    spans: &'a ArcSwap<Vec<(u64, u64)>>,
}

impl Deref for RegistryWrite<'_> {
    type Target = BTreeMap<u64, Range>;
    fn deref(&self) -> &Self::Target {
        &self.map
    }
}

impl DerefMut for RegistryWrite<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.map
    }
}

impl Drop for RegistryWrite<'_> {
    fn drop(&mut self) {
        let spans: Vec<(u64, u64)> = self.map.values().map(|r| (r.start, r.end())).collect();
        self.spans.store(Arc::new(spans));
    }
}

impl Registry {
    fn lock(&self) -> MutexGuard<'_, BTreeMap<u64, Range>> {
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn write(&self) -> RegistryWrite<'_> {
        RegistryWrite {
            map: self.lock(),
            spans: &self.spans,
        }
    }

    /// Adds a range; one that overlaps a known range is refused (INVALID_ARGUMENT).
    pub fn insert(&self, range: Range) -> Result<()> {
        if range.len == 0 || range.start.checked_add(range.len).is_none() {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
                "empty or wrapping range",
            ));
        }
        let mut map = self.write();
        if let Some(r) = overlapping(&map, range.start, range.len) {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
                format!(
                    "[{:#x}, +{:#x}) overlaps a {:?} range at {:#x}",
                    range.start, range.len, r.kind, r.start
                ),
            ));
        }
        map.insert(range.start, range);
        Ok(())
    }

    /// Removes the range starting exactly at `start` if `accept` agrees; returns it.
    pub fn remove_if(&self, start: u64, accept: impl FnOnce(&Range) -> bool) -> Option<Range> {
        let mut map = self.write();
        let ok = map.get(&start).is_some_and(accept);
        if ok {
            map.remove(&start)
        } else {
            None
        }
    }

    /// The range containing `addr`, if any (a copy).
    pub fn find(&self, addr: u64) -> Option<Range> {
        containing(&self.lock(), addr, 1).cloned()
    }

    /// The range containing all of `[addr, addr + len)`, if any.
    pub fn find_span(&self, addr: u64, len: u64) -> Option<Range> {
        containing(&self.lock(), addr, len.max(1)).cloned()
    }

    /// Applies `f` to the range containing `addr`; INVALID_ARGUMENT if none.
    pub fn update<T>(&self, addr: u64, f: impl FnOnce(&mut Range) -> T) -> Result<T> {
        let mut map = self.write();
        let start = containing(&map, addr, 1).map(|r| r.start);
        match start.and_then(|s| map.get_mut(&s)) {
            Some(r) => Ok(f(r)),
            None => Err(Error::with_message(
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
                format!("{addr:#x} is not known memory"),
            )),
        }
    }

    /// Number of ranges (for tests and `softhsa info`).
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Removes and returns every range (at shutdown).
    pub(crate) fn drain(&self) -> Vec<Range> {
        std::mem::take(&mut *self.write()).into_values().collect()
    }
}

fn containing(map: &BTreeMap<u64, Range>, addr: u64, len: u64) -> Option<&Range> {
    map.range(..=addr)
        .next_back()
        .map(|(_, r)| r)
        .filter(|r| r.contains(addr, len))
}

fn overlapping(map: &BTreeMap<u64, Range>, start: u64, len: u64) -> Option<&Range> {
    let end = start + len;
    map.range(..end)
        .next_back()
        .map(|(_, r)| r)
        .filter(|r| r.end() > start)
}

impl softhsa_gpu::MemoryMap for Registry {
    fn lookup(&self, addr: u64, len: u64) -> Option<std::ops::Range<u64>> {
        let end = addr.checked_add(len.max(1))?;
        let spans = self.spans.load();
        let i = spans
            .partition_point(|&(start, _)| start <= addr)
            .checked_sub(1)?;
        let (start, span_end) = spans[i];
        (end <= span_end).then_some(start..span_end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use softhsa_gpu::MemoryMap;

    #[test]
    fn lookups_respect_bounds() {
        let reg = Registry::default();
        reg.insert(Range::new(0x1000, 0x1000, RangeKind::Allocation, 1))
            .unwrap();
        reg.insert(Range::new(0x3000, 0x100, RangeKind::Signal, 0))
            .unwrap();
        assert_eq!(reg.lookup(0x1000, 4), Some(0x1000..0x2000));
        assert_eq!(reg.lookup(0x1ffc, 4), Some(0x1000..0x2000));
        assert_eq!(reg.lookup(0x1ffd, 4), None, "straddles the end");
        assert_eq!(reg.lookup(0x2000, 1), None, "gap");
        assert_eq!(reg.lookup(0xfff, 1), None);
        assert_eq!(reg.lookup(0x30ff, 0), Some(0x3000..0x3100));
        assert_eq!(reg.lookup(u64::MAX, 2), None, "wrapping span");
        assert_eq!(reg.find(0x1800).unwrap().owner, 1);
    }

    #[test]
    fn overlaps_are_refused_and_removal_is_exact() {
        let reg = Registry::default();
        reg.insert(Range::new(0x1000, 0x1000, RangeKind::Allocation, 1))
            .unwrap();
        for (s, l) in [
            (0x1800, 0x1000),
            (0x800, 0x1000),
            (0x1000, 1),
            (0x0, 0x10000),
        ] {
            assert!(
                reg.insert(Range::new(s, l, RangeKind::Locked, 0)).is_err(),
                "{s:#x}+{l:#x}"
            );
        }
        reg.insert(Range::new(0x2000, 0x10, RangeKind::Locked, 0))
            .unwrap();
        assert!(reg.remove_if(0x1800, |_| true).is_none(), "not a start");
        assert!(
            reg.remove_if(0x1000, |r| r.kind == RangeKind::Locked)
                .is_none(),
            "wrong kind"
        );
        assert!(reg
            .remove_if(0x1000, |r| r.kind == RangeKind::Allocation)
            .is_some());
        assert_eq!(reg.len(), 1);
    }

    #[test]
    fn concurrent_lookups_see_every_range() {
        let reg = std::sync::Arc::new(Registry::default());
        for i in 0..64u64 {
            reg.insert(Range::new(
                0x10000 * (i + 1),
                0x8000,
                RangeKind::Allocation,
                1,
            ))
            .unwrap();
        }
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let reg = reg.clone();
                std::thread::spawn(move || {
                    for i in 0..20_000u64 {
                        let k = (i * 7 + t) % 64 + 1;
                        assert_eq!(
                            reg.lookup(0x10000 * k + 0x100, 8),
                            Some(0x10000 * k..0x10000 * k + 0x8000)
                        );
                        assert_eq!(reg.lookup(0x10000 * k + 0x8000, 1), None);
                    }
                })
            })
            .collect();
        threads.into_iter().for_each(|t| t.join().unwrap());
    }

    #[test]
    fn lookups_stay_exact_while_ranges_change() {
        let reg = Registry::default();
        reg.insert(Range::new(0x10_0000, 0x1000, RangeKind::Allocation, 1))
            .unwrap();
        std::thread::scope(|s| {
            s.spawn(|| {
                for _ in 0..2000 {
                    reg.insert(Range::new(0x20_0000, 0x1000, RangeKind::Locked, 0))
                        .unwrap();
                    assert!(reg.remove_if(0x20_0000, |_| true).is_some());
                }
            });
            for _ in 0..2 {
                s.spawn(|| {
                    for _ in 0..20_000 {
                        assert_eq!(reg.lookup(0x10_0800, 8), Some(0x10_0000..0x10_1000));
                        let r = reg.lookup(0x20_0010, 8);
                        assert!(r.is_none() || r == Some(0x20_0000..0x20_1000));
                    }
                });
            }
        });
        assert_eq!(reg.lookup(0x20_0010, 8), None);
    }
}
