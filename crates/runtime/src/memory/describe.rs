//! Words for a faulting address, for the GPU's fault report: which range it lies in, just past
//! or just before, or which recently freed allocation it was in. A fault just past the end of an
//! allocation is the bug users hunt most, so the report names that allocation.

use super::registry::{Range, RangeKind};
use super::Memory;
use std::collections::VecDeque;
use std::sync::Mutex;

/// How far from a range an address is still reported as "past its end" / "before its start".
const NEAR: u64 = 1 << 20;
/// Freed allocations remembered for fault reports.
const FREED: usize = 64;

/// The most recently freed allocations, newest last.
#[derive(Default)]
pub(crate) struct Freed(Mutex<VecDeque<(u64, u64)>>);

impl Freed {
    pub(crate) fn push(&self, start: u64, len: u64) {
        let mut q = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if q.len() == FREED {
            q.pop_front();
        }
        q.push_back((start, len));
    }

    fn find(&self, addr: u64) -> Option<(u64, u64)> {
        let q = self.0.lock().unwrap_or_else(|e| e.into_inner());
        q.iter()
            .rev()
            .find(|&&(s, l)| addr >= s && addr - s < l)
            .copied()
    }
}

fn kind_name(kind: RangeKind) -> &'static str {
    match kind {
        RangeKind::Allocation => "allocation",
        RangeKind::Locked => "locked host memory",
        RangeKind::Registered => "registered host memory",
        RangeKind::CodeObject => "code object segment",
        RangeKind::Queue => "queue",
        RangeKind::Signal => "signal",
        RangeKind::Runtime => "runtime memory",
        RangeKind::Alias => "agent alias of locked memory",
        RangeKind::Ipc => "memory attached from another process",
        RangeKind::Svm => "host memory made accessible with SVM attributes",
    }
}

fn span(r: &Range) -> String {
    format!("{} [{:#x}, +{:#x})", kind_name(r.kind), r.start, r.len)
}

impl Memory {
    /// Describes `addr` relative to the memory the runtime knows (see the module docs).
    pub fn describe_address(&self, addr: u64) -> Option<String> {
        if let Some(r) = self.registry.find(addr) {
            let how = if r.access == 0 {
                "no agent may access it"
            } else {
                "the access was refused"
            };
            return Some(format!(
                "inside {} at offset {:#x} ({how})",
                span(&r),
                addr - r.start
            ));
        }
        if let Some((start, len)) = self.freed.find(addr) {
            return Some(format!(
                "inside a freed allocation [{start:#x}, +{len:#x}) at offset {:#x}",
                addr - start
            ));
        }
        let (below, above) = self.registry.neighbours(addr);
        let past = below.filter(|r| addr - r.end() < NEAR);
        let before = above.filter(|r| r.start - addr < NEAR);
        match (past, before) {
            (Some(b), Some(a)) if a.start - addr < addr - b.end() => Some(before_text(addr, &a)),
            (Some(b), _) => Some(format!(
                "{:#x} bytes past the end of {} (offset {:#x})",
                addr - b.end(),
                span(&b),
                addr - b.start
            )),
            (None, Some(a)) => Some(before_text(addr, &a)),
            (None, None) => Some("not inside or near any memory the runtime knows".into()),
        }
    }
}

fn before_text(addr: u64, r: &Range) -> String {
    format!(
        "{:#x} bytes before the start of {}",
        r.start - addr,
        span(r)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freed_ranges_are_found_newest_first_and_bounded() {
        let f = Freed::default();
        f.push(0x1000, 0x1000);
        f.push(0x1000, 0x2000);
        assert_eq!(f.find(0x2800), Some((0x1000, 0x2000)));
        assert_eq!(f.find(0x3000), None);
        for i in 0..FREED as u64 {
            f.push(0x10_0000 + i * 0x1000, 0x1000);
        }
        assert_eq!(f.find(0x1000), None, "the oldest are forgotten");
        assert_eq!(f.find(0x10_0000), Some((0x10_0000, 0x1000)));
    }
}
