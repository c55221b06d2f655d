//! Asynchronous copies (`hsa_amd_memory_async_copy`, `_rect`) on one copy worker thread.
//!
//! A copy is validated when submitted (both ranges must lie inside memory the allocation
//! registry knows, dependency and completion signals must be live), then queued. Addresses are
//! agent addresses: an alias of locked memory is translated to its host bytes (checked again
//! when the copy runs, since the program may unlock or free in between). The worker runs each
//! copy once every dependency signal of it has been observed at 0, in submission order among the
//! copies that are ready: a copy waiting for its dependencies does not hold up independent ones
//! (ROCm's copies of different streams go to different engines likewise). It copies, records
//! start/end timestamps in the completion signal when async-copy profiling is on, and
//! decrements the completion signal (waking its waiters).

use crate::signal::{notify::Sleeper, MemoryOrder, Signal};
use crate::system::trace;
use crate::{Error, Result, Runtime};
use softhsa_abi::{HSA_STATUS_ERROR_INVALID_ARGUMENT, HSA_STATUS_ERROR_OUT_OF_RESOURCES};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex, Weak};
use std::thread::JoinHandle;
use std::time::Duration;

/// One contiguous piece of a copy: `len` bytes from `src` to `dst`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub dst: u64,
    pub src: u64,
    pub len: u64,
}

/// A submitted copy: its pieces (one for a linear copy, one per row for a rectangle).
pub struct CopyJob {
    pub spans: Vec<Span>,
    pub deps: Vec<Signal>,
    pub completion: Signal,
}

/// The copy worker, started on first use.
#[derive(Default)]
pub struct Copies {
    worker: Mutex<Option<(Sender<CopyJob>, JoinHandle<()>)>>,
    /// Set at shut-down: copies still waiting for dependencies are abandoned.
    stop: Arc<AtomicBool>,
}

impl Copies {
    /// Validates and queues `job`; see the module docs.
    pub fn submit(&self, rt: &Runtime, job: CopyJob) -> Result<()> {
        for s in &job.spans {
            host_span(rt, s)?;
        }
        for d in &job.deps {
            rt.signals.get(*d)?;
        }
        rt.signals.get(job.completion)?;
        let mut w = self.worker.lock().unwrap_or_else(|e| e.into_inner());
        if w.is_none() {
            let weak = match crate::runtime() {
                Some(arc) if std::ptr::eq(&*arc, rt) => Arc::downgrade(&arc),
                _ => return Err(Error::new(softhsa_abi::HSA_STATUS_ERROR_NOT_INITIALIZED)),
            };
            let (tx, rx) = channel::<CopyJob>();
            let stop = self.stop.clone();
            let weak: Weak<Runtime> = weak;
            let h = std::thread::Builder::new()
                .name("softhsa-copy".into())
                .spawn(move || worker(&rx, &weak, &stop))
                .map_err(|_| Error::new(HSA_STATUS_ERROR_OUT_OF_RESOURCES))?;
            *w = Some((tx, h));
        }
        let tx = &w.as_ref().map(|(tx, _)| tx.clone());
        tx.as_ref()
            .and_then(|t| t.send(job).ok())
            .ok_or(Error::new(HSA_STATUS_ERROR_OUT_OF_RESOURCES))?;
        // The worker may sleep waiting for other copies' dependencies: it sleeps on the channel
        // of every signal, which this wakes.
        crate::signal::notify::wake_any();
        Ok(())
    }

    /// Stops the worker; queued copies whose dependencies are not yet satisfied are abandoned.
    pub fn shut_down(&self) {
        self.stop.store(true, Ordering::Release);
        crate::signal::notify::wake_all();
        let w = self.worker.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some((tx, h)) = w {
            drop(tx);
            if h.thread().id() != std::thread::current().id() {
                let _ = h.join();
            }
        }
    }
}

/// Both ends of a copy must be memory the runtime knows (allocations, locked or registered);
/// returns the span with both ends as host addresses (aliases translated).
fn host_span(rt: &Runtime, s: &Span) -> Result<Span> {
    Ok(Span {
        dst: host_address(rt, s.dst, s.len)?,
        src: host_address(rt, s.src, s.len)?,
        len: s.len,
    })
}

fn host_address(rt: &Runtime, addr: u64, len: u64) -> Result<u64> {
    if len == 0 {
        return Ok(addr);
    }
    let host = (addr != 0)
        .then(|| rt.memory.registry().resolve(addr, len))
        .flatten();
    host.ok_or_else(|| {
        Error::with_message(
            HSA_STATUS_ERROR_INVALID_ARGUMENT,
            format!("copy range {addr:#x}+{len:#x} is not memory known to the runtime"),
        )
    })
}

/// The copy worker: keeps the copies submitted, runs those whose dependencies were all seen
/// at 0, sleeps until a signal changes or a copy arrives (at most 1 ms: device code may write
/// a dependency directly in memory).
fn worker(rx: &Receiver<CopyJob>, rt: &Weak<Runtime>, stop: &AtomicBool) {
    let mut pending: Vec<(CopyJob, Vec<bool>)> = Vec::new();
    loop {
        if pending.is_empty() {
            match rx.recv() {
                Ok(job) => pending.push(with_seen(job)),
                Err(_) => return,
            }
        }
        // Watching every signal only while copies wait (signal changes then wake this thread;
        // an idle worker costs other threads' signal operations nothing).
        let sleeper = Sleeper::any();
        let epoch = sleeper.epoch();
        while let Ok(job) = rx.try_recv() {
            pending.push(with_seen(job));
        }
        let Some(rt) = rt.upgrade() else { return };
        if stop.load(Ordering::Acquire) {
            return;
        }
        let mut ran = false;
        let mut i = 0;
        while i < pending.len() {
            let (job, seen) = &mut pending[i];
            if deps_seen(&rt, job, seen) {
                let (job, _) = pending.remove(i);
                run(&rt, &job);
                ran = true;
            } else {
                i += 1;
            }
        }
        if !ran && !pending.is_empty() {
            sleeper.sleep(epoch, Some(Duration::from_millis(1)));
        }
    }
}

fn with_seen(job: CopyJob) -> (CopyJob, Vec<bool>) {
    let seen = vec![false; job.deps.len()];
    (job, seen)
}

/// Whether each dependency has been observed at 0 at least once (now or before).
fn deps_seen(rt: &Runtime, job: &CopyJob, seen: &mut [bool]) -> bool {
    for (s, d) in seen.iter_mut().zip(&job.deps) {
        // A dependency destroyed while waited on counts as satisfied: nothing can signal it.
        *s |= rt
            .signals
            .get(*d)
            .map_or(true, |r| r.load(MemoryOrder::Acquire) == 0);
    }
    seen.iter().all(|s| *s)
}

/// Copies a job whose dependencies are satisfied and completes it.
fn run(rt: &Runtime, job: &CopyJob) {
    let start = crate::profiling::now();
    // The program may have freed a buffer since submission (its bug): copying then could crash
    // the process, so such a copy is skipped, reported, and still completed.
    let host: Result<Vec<Span>> = job.spans.iter().map(|s| host_span(rt, s)).collect();
    if let Err(e) = &host {
        eprintln!("softhsa: async copy skipped: memory freed before the copy ran: {e}");
    }
    for s in host.iter().flatten() {
        // SAFETY: both ranges were checked against the allocation registry at submission; the
        // program keeps them allocated until the completion signal is decremented (HSA's
        // contract for asynchronous copies). `copy` tolerates overlap.
        unsafe { std::ptr::copy(s.src as *const u8, s.dst as *mut u8, s.len as usize) };
    }
    std::sync::atomic::fence(std::sync::atomic::Ordering::Release);
    let end = crate::profiling::now();
    // The event goes out before the signal: a host that waits for it may exit at once.
    if trace::timeline_enabled() {
        let bytes: u64 = job.spans.iter().map(|s| s.len).sum();
        trace::timeline_track_name(COPY_TRACK, "copy engine");
        trace::timeline_event(
            "async copy",
            "copy",
            COPY_TRACK,
            start,
            end,
            &[("bytes", &bytes.to_string())],
        );
    }
    if let Ok(c) = rt.signals.get(job.completion) {
        if crate::profiling::async_copy_enabled() {
            c.set_timestamps(start, end);
        }
        c.subtract(1, MemoryOrder::Release);
    }
}

/// Timeline track of the copy worker (queue tracks start at 2^20).
const COPY_TRACK: u64 = (1 << 20) - 1;

/// The row spans of a 3-D rectangle copy: `range` = (bytes per row, rows, slices); pitches and
/// slice strides in bytes for each side; offsets (x in bytes, y rows, z slices).
pub fn rect_spans(
    dst: (u64, u64, u64),
    dst_off: (u64, u64, u64),
    src: (u64, u64, u64),
    src_off: (u64, u64, u64),
    range: (u64, u64, u64),
) -> Vec<Span> {
    let (dbase, dpitch, dslice) = dst;
    let (sbase, spitch, sslice) = src;
    let mut v = Vec::with_capacity((range.1 * range.2) as usize);
    for z in 0..range.2 {
        for y in 0..range.1 {
            let d = dbase + (dst_off.2 + z) * dslice + (dst_off.1 + y) * dpitch + dst_off.0;
            let s = sbase + (src_off.2 + z) * sslice + (src_off.1 + y) * spitch + src_off.0;
            v.push(Span {
                dst: d,
                src: s,
                len: range.0,
            });
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::signal::{Condition, WaitHint};

    #[test]
    fn copy_waits_for_dependencies_and_checks_ranges() {
        crate::init().unwrap();
        let rt = crate::runtime().unwrap();
        let pool = rt.memory.kernarg_pool().handle;
        let (src, dst) = (
            rt.memory.allocate(pool, 4096, 0).unwrap(),
            rt.memory.allocate(pool, 4096, 0).unwrap(),
        );
        // SAFETY: both are fresh 4 KiB allocations owned by this test.
        let (s, d) = unsafe {
            (
                std::slice::from_raw_parts_mut(src, 4096),
                std::slice::from_raw_parts_mut(dst, 4096),
            )
        };
        s.iter_mut()
            .enumerate()
            .for_each(|(i, b)| *b = (i * 7) as u8);
        d.fill(0);
        let (dep, done) = (rt.signals.create(1).unwrap(), rt.signals.create(1).unwrap());
        let span = Span {
            dst: dst as u64,
            src: src as u64,
            len: 4096,
        };
        let job = CopyJob {
            spans: vec![span],
            deps: vec![dep],
            completion: done,
        };
        rt.copies.submit(&rt, job).unwrap();
        let c = rt.signals.get(done).unwrap();
        let o = MemoryOrder::Acquire;
        assert_eq!(
            c.wait(Condition::Eq, 0, 20_000_000, WaitHint::Blocked, o),
            1,
            "waits for dep"
        );
        rt.signals.get(dep).unwrap().store(0, MemoryOrder::Release);
        assert_eq!(c.wait(Condition::Eq, 0, u64::MAX, WaitHint::Blocked, o), 0);
        assert!(d.iter().enumerate().all(|(i, b)| *b == (i * 7) as u8));
        // One byte past the end of the allocation is outside known memory.
        let bad = Span {
            dst: dst as u64 + 1,
            src: src as u64,
            len: 4096,
        };
        let job = CopyJob {
            spans: vec![bad],
            deps: vec![],
            completion: done,
        };
        let e = rt.copies.submit(&rt, job).unwrap_err();
        assert_eq!(e.status, HSA_STATUS_ERROR_INVALID_ARGUMENT);
        rt.memory.free(src as u64).unwrap();
        rt.memory.free(dst as u64).unwrap();
    }

    #[test]
    fn rect_spans_walk_rows_and_slices() {
        let v = rect_spans(
            (1000, 100, 1000),
            (4, 1, 0),
            (0, 16, 64),
            (0, 0, 1),
            (8, 2, 2),
        );
        assert_eq!(v.len(), 4);
        assert_eq!(
            v[0],
            Span {
                dst: 1104,
                src: 64,
                len: 8
            }
        );
        assert_eq!(
            v[1],
            Span {
                dst: 1204,
                src: 80,
                len: 8
            }
        );
        assert_eq!(
            v[2],
            Span {
                dst: 2104,
                src: 128,
                len: 8
            }
        );
    }
}
