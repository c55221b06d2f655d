//! The allocation registry: every host range the GPU may touch, with its owner and access.
//!
//! One source of truth for pool allocations, locked and registered host memory, and (registered
//! by their owners) loaded code object segments, queues and signals. Two tables: runtime ranges
//! (allocations, code, queues, signals), which never overlap one another; and pins (locked or
//! registered host memory), which may overlap anything, because programs pin what they like —
//! ROCclr pins page-rounded staging ranges and keeps them, and a later `hipHostRegister` of the
//! same buffer pins an unaligned subrange.
//!
//! Aliases (see `memory::alias`): a runtime range of kind [`RangeKind::Alias`] is an agent-side
//! address range whose bytes live elsewhere in host memory: host address = address + `delta`
//! (wrapping). [`Registry::resolve`] translates them for the runtime's own accesses (copies,
//! fills); `MemoryMap::translate` (implemented by [`Registry`]) gives the GPU the range and its delta. The plain
//! `MemoryMap::lookup` refuses alias addresses, so a GPU that does not translate yet reports a
//! memory fault instead of touching the (inaccessible) alias reservation.
//!
//! The GPU's lookups ([`softhsa_gpu::MemoryMap`]) search neither table: after every change the
//! union of all ranges is merged into a sorted array of disjoint `[start, end)` spans and
//! published through an `ArcSwap`, which lookups binary-search without taking a lock or writing
//! a shared cache line, so any number of worker threads look up at once.

use crate::{Error, Result};
use arc_swap::ArcSwap;
use softhsa_abi::*;
use std::collections::BTreeMap;
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
    /// An agent-side alias of locked host memory (translated by `delta`).
    Alias,
    /// Memory of another process mapped by `hsa_amd_ipc_memory_attach` (see `crate::ipc`).
    Ipc,
    /// Host memory made GPU-accessible with SVM attributes (see `crate::svm`).
    Svm,
}

/// An allocation exported for IPC: the shared-memory file now backing it (see `crate::ipc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shared {
    /// The memfd (this process's descriptor; closed when the allocation is freed).
    pub fd: i32,
    /// The random tag in the file's name that IPC handles carry.
    pub nonce: u64,
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
    /// Alias ranges: host address = agent address + `delta` (wrapping); 0 elsewhere.
    pub delta: u64,
    /// Pins that have one: the start of their agent-side alias.
    pub alias: Option<u64>,
    /// Allocations exported for IPC: their shared backing.
    pub shared: Option<Shared>,
    /// SVM ranges: their attributes (`crate::svm`).
    pub svm: Option<crate::svm::Attributes>,
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
            delta: 0,
            alias: None,
            shared: None,
            svm: None,
        }
    }

    pub fn end(&self) -> u64 {
        self.start + self.len
    }

    pub fn contains(&self, addr: u64, len: u64) -> bool {
        addr >= self.start && addr.checked_add(len).is_some_and(|e| e <= self.end())
    }
}

#[derive(Default)]
struct Tables {
    /// Runtime ranges by start; disjoint.
    ranges: BTreeMap<u64, Range>,
    /// Pins by (start, len, kind); may overlap.
    pins: BTreeMap<(u64, u64, u8), Range>,
}

impl Tables {
    /// The record containing `[addr, addr + len)`: a runtime range first, else the innermost pin.
    fn find(&self, addr: u64, len: u64) -> Option<&Range> {
        containing(&self.ranges, addr, len).or_else(|| {
            self.pins
                .range(..=(addr, u64::MAX, u8::MAX))
                .rev()
                .map(|(_, r)| r)
                .find(|r| r.contains(addr, len))
        })
    }

    fn find_mut(&mut self, addr: u64) -> Option<&mut Range> {
        if let Some(start) = containing(&self.ranges, addr, 1).map(|r| r.start) {
            return self.ranges.get_mut(&start);
        }
        self.pins
            .range_mut(..=(addr, u64::MAX, u8::MAX))
            .rev()
            .map(|(_, r)| r)
            .find(|r| r.contains(addr, 1))
    }

    /// Disjoint, sorted spans `(start, end, delta)` covering every range and pin. Only spans of
    /// equal delta merge: aliases live in reserved address space that nothing else overlaps.
    fn spans(&self) -> Vec<Span> {
        let mut all: Vec<Span> = self
            .ranges
            .values()
            .chain(self.pins.values())
            // SVM pages no GPU agent may access stay out of the GPU's view (bit 0 is the host).
            .filter(|r| r.kind != RangeKind::Svm || r.access & !1 != 0)
            .map(|r| (r.start, r.end(), r.delta))
            .collect();
        all.sort_unstable();
        let mut merged: Vec<Span> = Vec::with_capacity(all.len());
        for (start, end, delta) in all {
            match merged.last_mut() {
                Some(last) if start <= last.1 && delta == last.2 => last.1 = last.1.max(end),
                _ => merged.push((start, end, delta)),
            }
        }
        merged
    }
}

/// A lookup span: `[start, end)` and its translation delta.
type Span = (u64, u64, u64);

/// See the module documentation.
#[derive(Default)]
pub struct Registry {
    tables: Mutex<Tables>,
    /// What lookups search (see the module documentation).
    spans: ArcSwap<Vec<Span>>,
    /// Number of SVM ranges (`svm` submodule): dispatches skip the unmapped-range sweep at 0.
    svm_count: std::sync::atomic::AtomicUsize,
}

/// Pin identity: kinds are distinct pins even on the same bytes.
fn pin_key(r: &Range) -> (u64, u64, u8) {
    (r.start, r.len, r.kind as u8)
}

fn check_extent(start: u64, len: u64) -> Result<()> {
    if len == 0 || start.checked_add(len).is_none() {
        return Err(Error::with_message(
            HSA_STATUS_ERROR_INVALID_ARGUMENT,
            "empty or wrapping range",
        ));
    }
    Ok(())
}

impl Registry {
    fn lock(&self) -> MutexGuard<'_, Tables> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs a change and republishes the lookup spans.
    fn change<T>(&self, f: impl FnOnce(&mut Tables) -> T) -> T {
        let mut t = self.lock();
        let out = f(&mut t);
        self.spans.store(Arc::new(t.spans()));
        out
    }

    /// Adds a runtime range; one that overlaps another runtime range is refused
    /// (INVALID_ARGUMENT). Locked/Registered ranges go through [`Registry::pin`].
    pub fn insert(&self, range: Range) -> Result<()> {
        check_extent(range.start, range.len)?;
        if matches!(range.kind, RangeKind::Locked | RangeKind::Registered) {
            return self.pin(range);
        }
        self.change(|t| {
            // New memory where SVM pages were: the program unmapped them (stale records).
            let end = range.start + range.len;
            let stale: Vec<u64> = t
                .ranges
                .range(..end)
                .rev()
                .take_while(|(_, r)| r.end() > range.start)
                .filter(|(_, r)| r.kind == RangeKind::Svm)
                .map(|(&k, _)| k)
                .collect();
            for k in stale {
                t.ranges.remove(&k);
            }
            if let Some(r) = overlapping(&t.ranges, range.start, range.len) {
                return Err(Error::with_message(
                    HSA_STATUS_ERROR_INVALID_ARGUMENT,
                    format!(
                        "[{:#x}, +{:#x}) overlaps a {:?} range at {:#x}",
                        range.start, range.len, r.kind, r.start
                    ),
                ));
            }
            t.ranges.insert(range.start, range);
            Ok(())
        })
    }

    /// Adds a pin, or nests it (count, union of access) when the same pin exists.
    pub fn pin(&self, range: Range) -> Result<()> {
        check_extent(range.start, range.len)?;
        self.change(|t| {
            match t.pins.get_mut(&pin_key(&range)) {
                Some(p) => {
                    p.refs += 1;
                    p.access |= range.access;
                }
                None => {
                    t.pins.insert(pin_key(&range), range);
                }
            }
            Ok(())
        })
    }

    /// Adds or nests a pin that has an agent-side alias and returns the alias address. A new
    /// pin calls `reserve(start, len)` for the alias start (address space nothing else uses);
    /// a nested one returns the alias it already has. All under one lock, so concurrent locks
    /// of the same range share one alias.
    pub fn pin_aliased(
        &self,
        range: Range,
        reserve: impl FnOnce(u64, u64) -> Result<u64>,
    ) -> Result<u64> {
        check_extent(range.start, range.len)?;
        self.change(|t| {
            if let Some(p) = t.pins.get_mut(&pin_key(&range)) {
                if let Some(alias) = p.alias {
                    p.refs += 1;
                    p.access |= range.access;
                    return Ok(alias);
                }
            }
            let alias = reserve(range.start, range.len)?;
            let mut a = Range::new(alias, range.len, RangeKind::Alias, range.owner);
            a.access = range.access;
            a.pool = range.pool;
            a.delta = range.start.wrapping_sub(alias);
            if let Some(r) = overlapping(&t.ranges, a.start, a.len) {
                // Cannot happen for a fresh reservation; refuse rather than shadow a range.
                let kind = r.kind;
                let at = r.start;
                super::alias::release(&a);
                return Err(Error::with_message(
                    HSA_STATUS_ERROR_INVALID_ARGUMENT,
                    format!("alias {alias:#x} overlaps a {kind:?} range at {at:#x}"),
                ));
            }
            t.ranges.insert(alias, a);
            // An identical pin without an alias (made while aliasing was off) gains this one.
            let p = t
                .pins
                .entry(pin_key(&range))
                .or_insert(Range { refs: 0, ..range });
            p.refs += 1;
            p.alias = Some(alias);
            Ok(alias)
        })
    }

    /// Releases one reference of a pin of `kind` starting at `start` (the longest, if several);
    /// `None` if there is none. When the last reference goes, its alias range (if any) is
    /// removed and returned, for the caller to release its reservation.
    pub fn unpin(&self, start: u64, kind: RangeKind) -> Option<Option<Range>> {
        self.change(|t| {
            let key = t
                .pins
                .range((start, 0, 0)..=(start, u64::MAX, u8::MAX))
                .rev()
                .map(|(k, _)| *k)
                .find(|k| k.2 == kind as u8)?;
            let p = t.pins.get_mut(&key)?;
            p.refs -= 1;
            if p.refs > 0 {
                return Some(None);
            }
            let alias = t.pins.remove(&key).and_then(|p| p.alias);
            Some(alias.and_then(|a| t.ranges.remove(&a)))
        })
    }

    /// The host address of `[addr, addr + len)` if it lies inside one known record: itself, or
    /// translated when it is inside an alias. What the runtime's own accesses use.
    pub fn resolve(&self, addr: u64, len: u64) -> Option<u64> {
        let t = self.lock();
        let r = t.find(addr, len.max(1))?;
        Some(addr.wrapping_add(r.delta))
    }

    /// Removes the runtime range starting exactly at `start` if `accept` agrees; returns it.
    pub fn remove_if(&self, start: u64, accept: impl FnOnce(&Range) -> bool) -> Option<Range> {
        self.change(|t| {
            if t.ranges.get(&start).is_some_and(accept) {
                t.ranges.remove(&start)
            } else {
                None
            }
        })
    }

    /// The record containing `addr` (a runtime range, else the innermost pin), if any.
    pub fn find(&self, addr: u64) -> Option<Range> {
        self.lock().find(addr, 1).cloned()
    }

    /// The runtime ranges nearest to `addr` that do not contain it: the last one ending at or
    /// before it and the first one starting after it (for fault reports).
    pub fn neighbours(&self, addr: u64) -> (Option<Range>, Option<Range>) {
        let t = self.lock();
        let below = t.ranges.range(..=addr).next_back().map(|(_, r)| r);
        let below = below.filter(|r| r.end() <= addr).cloned();
        // (Nothing starts after the last address.)
        let above = addr
            .checked_add(1)
            .and_then(|a| t.ranges.range(a..).next())
            .map(|(_, r)| r.clone());
        (below, above)
    }

    /// The record containing all of `[addr, addr + len)`, if any.
    pub fn find_span(&self, addr: u64, len: u64) -> Option<Range> {
        self.lock().find(addr, len.max(1)).cloned()
    }

    /// The runtime range (not pin) containing `addr`.
    pub fn find_range(&self, addr: u64) -> Option<Range> {
        containing(&self.lock().ranges, addr, 1).cloned()
    }

    /// The translation of the alias range containing `addr`, if `addr` is in one.
    pub fn alias_delta(&self, addr: u64) -> Option<u64> {
        let t = self.lock();
        let r = containing(&t.ranges, addr, 1)?;
        (r.kind == RangeKind::Alias).then_some(r.delta)
    }

    /// Applies `f` to the record containing `addr`; INVALID_ARGUMENT if none.
    pub fn update<T>(&self, addr: u64, f: impl FnOnce(&mut Range) -> T) -> Result<T> {
        let mut t = self.lock();
        match t.find_mut(addr) {
            Some(r) => Ok(f(r)),
            None => Err(Error::with_message(
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
                format!("{addr:#x} is not known memory"),
            )),
        }
    }

    /// Number of records (ranges and pins).
    pub fn len(&self) -> usize {
        let t = self.lock();
        t.ranges.len() + t.pins.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Removes and returns every runtime range, and forgets the pins (at shutdown).
    pub(crate) fn drain(&self) -> Vec<Range> {
        self.change(|t| {
            t.pins.clear();
            std::mem::take(&mut t.ranges).into_values().collect()
        })
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
    /// Untranslated lookups: alias spans are refused (see the module documentation).
    fn lookup(&self, addr: u64, len: u64) -> Option<std::ops::Range<u64>> {
        self.translate(addr, len)
            .and_then(|(r, delta)| (delta == 0).then_some(r))
    }

    /// The known span containing `[addr, addr + len)` and its delta (host address = address +
    /// delta, wrapping; 0 outside aliases). One binary search over the published spans.
    fn translate(&self, addr: u64, len: u64) -> Option<(std::ops::Range<u64>, u64)> {
        let end = addr.checked_add(len.max(1))?;
        let spans = self.spans.load();
        let i = spans
            .partition_point(|&(start, _, _)| start <= addr)
            .checked_sub(1)?;
        let (start, span_end, delta) = spans[i];
        (end <= span_end).then_some((start..span_end, delta))
    }
}

mod svm;
pub use svm::Piece as SvmPiece;

#[cfg(test)]
mod tests;
