//! Unit tests of signals, waits, groups and async handlers (no runtime needed).

use super::*;
use crate::config::Config;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn signals() -> Signals {
    Signals::new(&Config::default()).unwrap()
}

const O: MemoryOrder = MemoryOrder::AcqRel;

#[test]
fn value_operations_return_previous_values() {
    let ss = signals();
    let s = ss.create(0b1100).unwrap();
    let r = ss.get(s).unwrap();
    assert_eq!(r.and(0b0110, O), 0b1100);
    assert_eq!(r.load(O), 0b0100);
    assert_eq!(r.or(0b0001, O), 0b0100);
    assert_eq!(r.xor(0b0101, O), 0b0101);
    assert_eq!(r.load(O), 0);
    assert_eq!(r.add(5, O), 0);
    assert_eq!(r.subtract(7, O), 5);
    assert_eq!(r.load(O), -2);
    assert_eq!(r.exchange(9, O), -2);
    assert_eq!(r.cas(8, 1, O), 9, "failed CAS returns the observed value");
    assert_eq!(r.cas(9, 1, O), 9);
    assert_eq!(r.load(MemoryOrder::Relaxed), 1);
    r.silent_store(i64::MAX, MemoryOrder::Release);
    assert_eq!(r.add(1, O), i64::MAX);
    assert_eq!(r.load(O), i64::MIN, "add wraps like C");
    // SAFETY: the pointer names the live signal's value.
    assert_eq!(unsafe { *r.value_ptr() }, i64::MIN);
}

#[test]
fn destroyed_and_forged_handles_are_invalid() {
    let ss = signals();
    let s = ss.create(0).unwrap();
    ss.destroy(s).unwrap();
    assert_eq!(
        ss.get(s).err().unwrap().status,
        softhsa_abi::HSA_STATUS_ERROR_INVALID_SIGNAL
    );
    assert!(ss.destroy(s).is_err());
    assert!(ss.get(Signal(0x1234)).is_err());
    assert!(ss.get_optional(Signal(0)).unwrap().is_none());
}

#[test]
fn every_condition_and_timeout() {
    let ss = signals();
    let r = ss.get(ss.create(5).unwrap()).unwrap();
    let w = |c, v| r.wait(c, v, 0, WaitHint::Blocked, O);
    for (c, cmp, holds) in [
        (Condition::Eq, 5, true),
        (Condition::Eq, 4, false),
        (Condition::Ne, 4, true),
        (Condition::Ne, 5, false),
        (Condition::Lt, 6, true),
        (Condition::Lt, 5, false),
        (Condition::Gte, 5, true),
        (Condition::Gte, 6, false),
    ] {
        assert_eq!(c.holds(5, cmp), holds);
        assert_eq!(w(c, cmp), 5, "the wait returns the observed value");
    }
    let t0 = Instant::now();
    let v = r.wait(Condition::Eq, 0, 20_000_000, WaitHint::Active, O);
    let dt = t0.elapsed();
    assert_eq!(v, 5);
    assert!(
        dt >= Duration::from_millis(20) && dt < Duration::from_secs(2),
        "{dt:?}"
    );
}

#[test]
fn store_wakes_a_sleeping_waiter_and_memory_stores_are_noticed() {
    let ss = signals();
    let s = ss.create(1).unwrap();
    std::thread::scope(|sc| {
        let h = sc.spawn(|| {
            ss.get(s)
                .unwrap()
                .wait(Condition::Lt, 1, u64::MAX, WaitHint::Blocked, O)
        });
        std::thread::sleep(Duration::from_millis(30));
        ss.get(s).unwrap().store(-4, MemoryOrder::Release);
        assert_eq!(h.join().unwrap(), -4);
        // A plain store to memory, as device code makes it: no wake-up, noticed by the bound.
        let h = sc.spawn(|| {
            ss.get(s)
                .unwrap()
                .wait(Condition::Eq, 3, u64::MAX, WaitHint::Blocked, O)
        });
        std::thread::sleep(Duration::from_millis(20));
        let p = ss.get(s).unwrap().value_ptr();
        // SAFETY: `p` is the live signal's value; the write is a volatile aligned store.
        unsafe { p.write_volatile(3) };
        assert_eq!(h.join().unwrap(), 3);
    });
}

#[test]
fn wait_any_and_groups() {
    let ss = signals();
    let a = ss.create(1).unwrap();
    let b = ss.create(1).unwrap();
    let g = ss.group_create(&[a, b]).unwrap();
    assert!(ss.group_create(&[a, a]).is_err());
    assert!(ss.group_create(&[]).is_err());
    std::thread::scope(|sc| {
        let h = sc.spawn(|| {
            ss.group_wait_any(g, &[Condition::Eq; 2], &[0, 0], WaitHint::Blocked, O)
                .unwrap()
        });
        std::thread::sleep(Duration::from_millis(10));
        ss.get(b).unwrap().store(0, O);
        assert_eq!(h.join().unwrap(), (b, 0));
    });
    let (ra, rb) = (ss.get(a).unwrap(), ss.get(b).unwrap());
    let list = [
        (ra.atomic(), Condition::Eq, 7),
        (rb.atomic(), Condition::Gte, 1),
    ];
    assert_eq!(wait_any(&list, 1_000_000, WaitHint::Blocked, O), (None, 1));
    ss.group_destroy(g).unwrap();
    assert_eq!(
        ss.group_destroy(g).unwrap_err().status,
        softhsa_abi::HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP
    );
}

#[test]
fn async_handlers_chain_and_unregister() {
    let ss = std::sync::Arc::new(signals());
    let a = ss.create(1).unwrap();
    let b = ss.create(1).unwrap();
    let calls = std::sync::Arc::new(AtomicUsize::new(0));
    let (tx, rx) = mpsc::channel();
    let (ss2, c2) = (ss.clone(), calls.clone());
    // The first handler registers a second one on `b`, then unregisters itself.
    ss.async_handler(
        a,
        Condition::Eq,
        0,
        Box::new(move |v| {
            assert_eq!(v, 0);
            c2.fetch_add(1, Ordering::SeqCst);
            let tx = tx.clone();
            ss2.async_handler(b, Condition::Lt, 0, Box::new(move |v| tx.send(v).is_err()))
                .unwrap();
            false
        }),
    )
    .unwrap();
    ss.get(a).unwrap().store(0, O);
    ss.get(b).unwrap().store(-9, O);
    assert_eq!(rx.recv_timeout(Duration::from_secs(5)).unwrap(), -9);
    std::thread::sleep(Duration::from_millis(10));
    assert_eq!(
        calls.load(Ordering::SeqCst),
        1,
        "returning false unregisters"
    );
    let (tx, rx) = mpsc::channel();
    ss.async_function(Box::new(move || tx.send(42).unwrap()))
        .unwrap();
    assert_eq!(rx.recv_timeout(Duration::from_secs(5)).unwrap(), 42);
    ss.shut_down();
}

#[test]
fn no_lost_wakeups_ping_pong() {
    let ss = signals();
    let (a, b) = (ss.create(0).unwrap(), ss.create(0).unwrap());
    const N: i64 = 20_000;
    std::thread::scope(|sc| {
        sc.spawn(|| {
            let (ra, rb) = (ss.get(a).unwrap(), ss.get(b).unwrap());
            for i in 1..=N {
                ra.wait(Condition::Eq, i, u64::MAX, WaitHint::Blocked, O);
                rb.store(i, MemoryOrder::Release);
            }
        });
        let (ra, rb) = (ss.get(a).unwrap(), ss.get(b).unwrap());
        for i in 1..=N {
            ra.store(i, MemoryOrder::Release);
            assert_eq!(rb.wait(Condition::Eq, i, u64::MAX, WaitHint::Blocked, O), i);
        }
    });
}

#[test]
fn signal_layout_is_the_abis() {
    // The offsets device code relies on (amd_hsa_signal.h; DESIGN.md).
    assert_eq!(pool::SIGNAL_BYTES, 64);
    assert_eq!((pool::off::VALUE, pool::off::EVENT_MAILBOX_PTR), (8, 16));
    assert_eq!(
        (pool::off::EVENT_ID, pool::off::START_TS, pool::off::END_TS),
        (24, 32, 40)
    );
}
