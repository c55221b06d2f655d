//! Claiming fresh work-groups in batches.
//!
//! Every runner of a job takes work-group indices from the job's one `next` counter. Under the
//! JIT a work-group of a streaming kernel lasts about a microsecond, so one `fetch_add` per
//! work-group makes that counter's cache line bounce between all the cores. A runner therefore
//! claims a batch of consecutive indices with one `fetch_add` and starts them one after the
//! other (those of one shape in one run of `workgroup::run_context`, which sets up a runner's
//! execution context once for all of them). The batch is sized so that it stays short in
//! time: about [`BATCH_INSTS`] wave instructions, judged from the work-groups this runner
//! ended (the first claim of a job is a single work-group), at most [`MAX_BATCH`], and at
//! most a quarter of each runner's share of what remains (guided self-scheduling: the tail of
//! a grid is spread over all runners).
//!
//! A claimed index must run or be counted as finished, or the job never completes:
//! - a runner that sees the job stopped counts its unstarted indices as finished;
//! - a runner that leaves the job (a better job waits, the inline submitter goes back to its
//!   queue, an inline work-group parked) hands them back ([`Job::spill`]); they are taken before
//!   the counter's (lower indices first: work-groups that wait for earlier ones, as decoupled
//!   look-back does, find them running) and count as work the job still has, so parking and
//!   time-slice decisions see them. A job closed meanwhile counts them as finished instead.
//!
//! Unstarted indices of the runner's own batch count as startable work for its work-groups'
//! parking decisions (`Runner::batch`), so a work-group waiting for a later one of the same
//! batch parks as it would for one nobody claimed.

use super::Job;
use crate::sched::context::Runner;
use std::ops::Range;
use std::sync::atomic::Ordering;

/// Most work-groups one claim takes.
pub const MAX_BATCH: u64 = 64;
/// Wave instructions one batch should hold (tens of microseconds of work).
pub const BATCH_INSTS: u64 = 1 << 13;

/// Ranges of claimed work-group indices handed back by runners that left the job.
#[derive(Default)]
pub(crate) struct Spill {
    /// The job was closed: whoever hands indices back counts them as finished.
    closed: bool,
    ranges: Vec<Range<u64>>,
}

impl Job {
    /// The next fresh work-group index for `r`: from its batch, else from handed-back ranges,
    /// else a new batch from the counter. `None`: nothing left to start.
    pub(super) fn fresh(&self, r: &mut Runner) -> Option<u64> {
        if let Some(i) = r.batch.next() {
            return Some(i);
        }
        let total = self.data().total;
        if self.spilled.load(Ordering::Acquire) > 0 {
            if let Some(i) = self.unspill(r, total) {
                return Some(i);
            }
        }
        let n = self.next.0.load(Ordering::Relaxed);
        if n >= total {
            return None;
        }
        let b = self.batch_size(r, total - n);
        let i = self.next.0.fetch_add(b, Ordering::Relaxed);
        if i >= total {
            return None;
        }
        r.batch = i + 1..(i + b).min(total);
        Some(i)
    }

    /// How many indices to claim when `remaining` are unclaimed.
    fn batch_size(&self, r: &Runner, remaining: u64) -> u64 {
        if r.wg_insts == 0 {
            return 1; // nothing known of this kernel's work-groups yet
        }
        let workers = u64::from(self.data().shared.sched.workers());
        (BATCH_INSTS / r.wg_insts)
            .min(remaining / (4 * workers))
            .clamp(1, MAX_BATCH)
    }

    /// Takes a batch from the handed-back ranges (lowest first).
    fn unspill(&self, r: &mut Runner, total: u64) -> Option<u64> {
        let mut s = self.spill.lock().unwrap_or_else(|e| e.into_inner());
        let k = (0..s.ranges.len()).min_by_key(|&k| s.ranges[k].start)?;
        let range = &mut s.ranges[k];
        let b = self
            .batch_size(r, total - range.start)
            .min(range.end - range.start);
        let mine = range.start..range.start + b;
        range.start = mine.end;
        if range.is_empty() {
            s.ranges.swap_remove(k);
        }
        self.spilled.fetch_sub(b, Ordering::Release);
        drop(s);
        r.batch = mine.start + 1..mine.end;
        Some(mine.start)
    }

    /// A runner leaves the job with the unstarted indices `left` of its batch: others take them.
    /// Returns how many it must count as finished itself (the job was closed).
    pub fn spill(&'static self, left: Range<u64>) -> u64 {
        if left.is_empty() {
            return 0;
        }
        let mut s = self.spill.lock().unwrap_or_else(|e| e.into_inner());
        if s.closed {
            return left.end - left.start;
        }
        self.spilled
            .fetch_add(left.end - left.start, Ordering::Release);
        s.ranges.push(left);
        drop(s);
        self.data().shared.sched.mark_runnable(self, 1);
        0
    }

    /// Closes the hand-back list: the indices in it count as finished (returned).
    pub(super) fn close_spill(&self) -> u64 {
        let mut s = self.spill.lock().unwrap_or_else(|e| e.into_inner());
        s.closed = true;
        let n: u64 = s.ranges.drain(..).map(|r| r.end - r.start).sum();
        self.spilled.fetch_sub(n, Ordering::Release);
        n
    }

    /// Empties the hand-back list for a new dispatch.
    pub(super) fn reset_spill(&self) {
        let mut s = self.spill.lock().unwrap_or_else(|e| e.into_inner());
        s.closed = false;
        s.ranges.clear();
        self.spilled.store(0, Ordering::Relaxed);
    }
}
