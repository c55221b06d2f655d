//! Registry unit tests: bounds, overlaps, pins, concurrent lookups.

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
            reg.insert(Range::new(s, l, RangeKind::Queue, 0)).is_err(),
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
                reg.insert(Range::new(0x20_0000, 0x1000, RangeKind::Queue, 0))
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

#[test]
fn pins_may_overlap_anything_and_lookups_see_their_union() {
    let reg = Registry::default();
    reg.insert(Range::new(0x1000, 0x1000, RangeKind::Allocation, 1))
        .unwrap();
    // A page-rounded pin, then an unaligned one inside it, then one straddling both ends.
    reg.pin(Range::new(0x4000, 0x3000, RangeKind::Locked, 0))
        .unwrap();
    reg.pin(Range::new(0x4010, 0x2000, RangeKind::Locked, 0))
        .unwrap();
    reg.pin(Range::new(0x1800, 0x3000, RangeKind::Registered, 0))
        .unwrap();
    assert_eq!(
        reg.lookup(0x1000, 0x6000),
        Some(0x1000..0x7000),
        "merged union"
    );
    assert_eq!(reg.lookup(0x7000, 1), None);
    assert_eq!(reg.find(0x1900).unwrap().kind, RangeKind::Allocation);
    assert_eq!(reg.find(0x4020).unwrap().start, 0x4010, "innermost pin");
    // Unpinning by start releases that pin only.
    reg.unpin(0x4010, RangeKind::Locked).unwrap();
    assert_eq!(reg.find(0x4020).unwrap().start, 0x4000);
    assert!(reg.unpin(0x4010, RangeKind::Locked).is_none());
    assert!(reg.unpin(0x1800, RangeKind::Locked).is_none(), "other kind");
    reg.unpin(0x1800, RangeKind::Registered).unwrap();
    reg.unpin(0x4000, RangeKind::Locked).unwrap();
    assert_eq!(reg.lookup(0x1000, 0x1000), Some(0x1000..0x2000));
    assert_eq!(reg.lookup(0x4000, 1), None);
    assert_eq!(reg.len(), 1);
}

#[test]
fn alias_spans_translate_and_never_merge_with_identity_spans() {
    let reg = Registry::default();
    reg.insert(Range::new(0x1000, 0x1000, RangeKind::Allocation, 1))
        .unwrap();
    // An alias right after the allocation, leading to host bytes at 0x9_0010.
    let host = Range::new(0x9_0010, 0x800, RangeKind::Locked, 0);
    let alias = reg.pin_aliased(host.clone(), |_, _| Ok(0x2010)).unwrap();
    assert_eq!(alias, 0x2010);
    assert_eq!(
        reg.pin_aliased(host, |_, _| panic!("nested: no new alias"))
            .unwrap(),
        0x2010
    );
    assert_eq!(reg.translate(0x1ff0, 8), Some((0x1000..0x2000, 0)));
    let (r, delta) = reg.translate(0x2018, 8).unwrap();
    assert_eq!(
        (r, 0x2018u64.wrapping_add(delta)),
        (0x2010..0x2810, 0x9_0018)
    );
    assert_eq!(
        reg.translate(0x1ffc, 0x20),
        None,
        "straddles two translations"
    );
    assert_eq!(
        reg.lookup(0x2018, 8),
        None,
        "untranslated lookups refuse aliases"
    );
    assert_eq!(reg.lookup(0x9_0018, 8), Some(0x9_0010..0x9_0810));
    assert_eq!(reg.resolve(0x2018, 8), Some(0x9_0018));
    // The alias goes with the last reference of its pin, and is handed back for release.
    assert_eq!(reg.unpin(0x9_0010, RangeKind::Locked), Some(None));
    let gone = reg.unpin(0x9_0010, RangeKind::Locked).unwrap().unwrap();
    assert_eq!((gone.start, gone.kind), (0x2010, RangeKind::Alias));
    assert_eq!(reg.translate(0x2018, 8), None);
    assert_eq!(reg.len(), 1);
}

/// A fault report for the last address of the address space (a fuzzed packet's kernarg
/// pointer): no range starts after it, and asking must not overflow.
#[test]
fn neighbours_of_the_last_address() {
    let reg = Registry::default();
    reg.insert(Range::new(0x1000, 0x1000, RangeKind::Allocation, 1))
        .unwrap();
    let (below, above) = reg.neighbours(u64::MAX);
    assert_eq!(below.map(|r| r.start), Some(0x1000));
    assert!(above.is_none());
    let (below, above) = reg.neighbours(0);
    assert!(below.is_none());
    assert_eq!(above.map(|r| r.start), Some(0x1000));
}

/// Pruning checks a run of adjacent SVM ranges at once, and range by range only a run with
/// unmapped pages: exactly the ranges with unmapped pages go, in every run.
#[test]
fn svm_pruning_checks_runs_of_neighbours_once() {
    use crate::svm::Attributes;
    const P: u64 = 0x1000;
    let reg = Registry::default();
    // Runs [16, 20) and [24, 26) (pages), each page its own range (different access masks
    // keep neighbours apart), and [40, 41) alone.
    for (i, page) in [16u64, 17, 18, 19, 24, 25, 40].into_iter().enumerate() {
        let access = 1 | 2 << (i % 2);
        reg.svm_update(
            page * P,
            (page + 1) * P,
            (access, Attributes::default()),
            |_, _| {},
        )
        .unwrap();
    }
    let ranges = |reg: &Registry| {
        let t = reg.lock();
        t.ranges
            .values()
            .filter(|r| r.kind == RangeKind::Svm)
            .map(|r| r.start / P)
            .collect::<Vec<_>>()
    };
    assert_eq!(ranges(&reg), [16, 17, 18, 19, 24, 25, 40]);
    let unmapped = [18u64, 41];
    let mut calls = Vec::new();
    reg.svm_retain(|start, len| {
        calls.push((start / P, len / P));
        !unmapped
            .iter()
            .any(|&u| u * P >= start && u * P < start + len)
    });
    assert_eq!(ranges(&reg), [16, 17, 19, 24, 25, 40]);
    // Downwards: each run once, the run with a hole then its pages, and the dead range once
    // more under the lock that drops it.
    assert_eq!(
        calls,
        [
            (40, 1),
            (24, 2),
            (16, 4),
            (16, 1),
            (17, 1),
            (18, 1),
            (19, 1),
            (18, 1)
        ]
    );
    // A span's pruning looks at the ranges overlapping it only.
    calls.clear();
    reg.svm_retain_overlapping(24 * P, 25 * P, |start, len| {
        calls.push((start / P, len / P));
        false
    });
    assert_eq!(calls, [(24, 1), (24, 1)]);
    assert_eq!(ranges(&reg), [16, 17, 19, 25, 40]);
}
