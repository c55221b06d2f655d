//! SVM ranges in the registry: host memory that SVM attributes made known (`crate::svm`).
//!
//! Each [`RangeKind::Svm`] range is a run of pages with uniform attributes (`Range::svm`) and
//! access (`Range::access`: bit 0 = host access, bit i = agent i may access). Setting
//! attributes on part of a range splits it; untracked pages inside the span get the default
//! attributes first. SVM ranges never overlap other runtime ranges or pins. Only ranges some
//! GPU agent may access are visible to the GPU's lookups (see `Tables::spans`).

use super::{Range, RangeKind, Registry, Tables};
use crate::svm::Attributes;
use crate::{Error, Result};
use softhsa_abi::HSA_STATUS_ERROR;
use std::sync::atomic::Ordering;

/// A page-aligned piece of an SVM span as [`Registry::svm_pieces`] reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub start: u64,
    pub len: u64,
    pub access: u64,
    pub attrs: Attributes,
}

impl Tables {
    /// Takes the SVM ranges overlapping `[start, end)` out of the table, or fails if anything
    /// else overlaps it.
    fn take_svm(&mut self, start: u64, end: u64) -> Result<Vec<Range>> {
        let clash = self
            .ranges
            .range(..end)
            .rev()
            .take_while(|(_, r)| r.end() > start)
            .any(|(_, r)| r.kind != RangeKind::Svm)
            || self.pins.values().any(|p| p.start < end && p.end() > start);
        if clash {
            return Err(Error::with_message(
                HSA_STATUS_ERROR,
                format!("[{start:#x}, {end:#x}) overlaps memory that is not SVM"),
            ));
        }
        let keys: Vec<u64> = self
            .ranges
            .range(..end)
            .rev()
            .take_while(|(_, r)| r.end() > start)
            .map(|(&k, _)| k)
            .collect();
        Ok(keys.iter().filter_map(|k| self.ranges.remove(k)).collect())
    }
}

fn svm_range(start: u64, end: u64, access: u64, attrs: Attributes) -> Range {
    let mut r = Range::new(start, end - start, RangeKind::Svm, 0);
    r.access = access;
    r.svm = Some(attrs);
    r
}

impl Registry {
    fn recount(&self, t: &Tables) {
        let n = t
            .ranges
            .values()
            .filter(|r| r.kind == RangeKind::Svm)
            .count();
        self.svm_count.store(n, Ordering::Relaxed);
    }

    /// Applies `f` to the SVM attributes and access of every page of `[start, end)` (page
    /// aligned), creating ranges with `default` where none exist. HSA_STATUS_ERROR if the span
    /// overlaps other known memory.
    pub fn svm_update(
        &self,
        start: u64,
        end: u64,
        default: (u64, Attributes),
        mut f: impl FnMut(&mut u64, &mut Attributes),
    ) -> Result<()> {
        self.change(|t| {
            let old = t.take_svm(start, end)?;
            let mut pieces: Vec<Range> = Vec::new();
            let mut at = start;
            let mut sorted = old;
            sorted.sort_by_key(|r| r.start);
            for r in sorted {
                let a = r.svm.unwrap_or_default();
                if r.start < start {
                    pieces.push(svm_range(r.start, start, r.access, a));
                }
                if at < r.start.max(start) {
                    let (mut acc, mut attrs) = default;
                    f(&mut acc, &mut attrs);
                    pieces.push(svm_range(at, r.start, acc, attrs));
                }
                let (lo, hi) = (r.start.max(start), r.end().min(end));
                let (mut acc, mut attrs) = (r.access, a);
                f(&mut acc, &mut attrs);
                pieces.push(svm_range(lo, hi, acc, attrs));
                if r.end() > end {
                    pieces.push(svm_range(end, r.end(), r.access, a));
                }
                at = hi;
            }
            if at < end {
                let (mut acc, mut attrs) = default;
                f(&mut acc, &mut attrs);
                pieces.push(svm_range(at, end, acc, attrs));
            }
            // Equal neighbours merge, so repeated advice does not fragment the table.
            let mut merged: Vec<Range> = Vec::new();
            for p in pieces {
                match merged.last_mut() {
                    Some(m) if m.end() == p.start && m.access == p.access && m.svm == p.svm => {
                        m.len += p.len
                    }
                    _ => merged.push(p),
                }
            }
            for m in merged {
                t.ranges.insert(m.start, m);
            }
            self.recount(t);
            Ok(())
        })
    }

    /// The pieces of `[start, end)`: SVM ranges clipped to it, and untracked gaps with
    /// `default`. HSA_STATUS_ERROR if other known memory overlaps the span.
    pub fn svm_pieces(
        &self,
        start: u64,
        end: u64,
        default: (u64, Attributes),
    ) -> Result<Vec<Piece>> {
        let t = self.lock();
        let mut out = Vec::new();
        let mut at = start;
        let mut overl: Vec<&Range> = t
            .ranges
            .range(..end)
            .rev()
            .take_while(|(_, r)| r.end() > start)
            .map(|(_, r)| r)
            .collect();
        overl.sort_by_key(|r| r.start);
        for r in overl {
            if r.kind != RangeKind::Svm {
                return Err(Error::with_message(
                    HSA_STATUS_ERROR,
                    format!("[{start:#x}, {end:#x}) overlaps memory that is not SVM"),
                ));
            }
            let (lo, hi) = (r.start.max(start), r.end().min(end));
            if at < lo {
                out.push(Piece {
                    start: at,
                    len: lo - at,
                    access: default.0,
                    attrs: default.1,
                });
            }
            out.push(Piece {
                start: lo,
                len: hi - lo,
                access: r.access,
                attrs: r.svm.unwrap_or_default(),
            });
            at = hi;
        }
        if at < end {
            out.push(Piece {
                start: at,
                len: end - at,
                access: default.0,
                attrs: default.1,
            });
        }
        Ok(out)
    }

    /// Drops the SVM ranges for which `still_mapped(start, len)` is false (memory the program
    /// unmapped: the GPU must not reach it any more). The lookup spans are published again
    /// only when a range goes (this runs before every dispatch).
    pub fn svm_retain(&self, still_mapped: impl FnMut(u64, u64) -> bool) {
        self.svm_retain_overlapping(0, u64::MAX, still_mapped)
    }

    /// [`Registry::svm_retain`] for the SVM ranges overlapping `[start, end)` only (what an
    /// SVM call over that span must not find stale: a cost per call that does not grow with
    /// the program's other allocations).
    pub fn svm_retain_overlapping(
        &self,
        start: u64,
        end: u64,
        mut still_mapped: impl FnMut(u64, u64) -> bool,
    ) {
        if self.svm_count.load(Ordering::Relaxed) == 0 {
            return;
        }
        // One check per run of adjacent ranges (a program's managed allocations are mostly
        // neighbours: mmap places each below the last), range by range only in a run that has
        // unmapped pages: a check is a system call, and this runs before every dispatch (100
        // managed allocations cost 150-200 us per launch before). Nothing is allocated unless
        // a range is dead.
        let mut dead = Vec::new();
        {
            let t = self.lock();
            let mut check_run = |lo: u64, hi: u64, ranges: usize| {
                if still_mapped(lo, hi - lo) {
                    return;
                }
                if ranges == 1 {
                    dead.push(lo);
                    return;
                }
                for r in t.ranges.range(lo..hi).map(|(_, r)| r) {
                    if r.kind == RangeKind::Svm && !still_mapped(r.start, r.len) {
                        dead.push(r.start);
                    }
                }
            };
            // Downwards from the highest overlapping range: (run start, run end, ranges).
            let mut run: Option<(u64, u64, usize)> = None;
            let overlapping = t
                .ranges
                .range(..end)
                .rev()
                .take_while(|(_, r)| r.end() > start);
            for r in overlapping
                .map(|(_, r)| r)
                .filter(|r| r.kind == RangeKind::Svm)
            {
                run = match run {
                    Some((lo, hi, n)) if r.end() == lo => Some((r.start, hi, n + 1)),
                    Some((lo, hi, n)) => {
                        check_run(lo, hi, n);
                        Some((r.start, r.end(), 1))
                    }
                    None => Some((r.start, r.end(), 1)),
                };
            }
            if let Some((lo, hi, n)) = run {
                check_run(lo, hi, n);
            }
        }
        if dead.is_empty() {
            return;
        }
        self.change(|t| {
            for k in dead {
                // Only if still SVM and still unmapped (another thread may have changed it).
                if t.ranges
                    .get(&k)
                    .is_some_and(|r| r.kind == RangeKind::Svm && !still_mapped(r.start, r.len))
                {
                    t.ranges.remove(&k);
                }
            }
            self.recount(t);
        })
    }
}
