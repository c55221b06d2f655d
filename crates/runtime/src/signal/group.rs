//! Signal groups (`hsa_signal_group_*`): a fixed list of signals waited on together.

use super::{wait_any, Condition, MemoryOrder, Signal, Signals, WaitHint};
use crate::{Error, Result};
use softhsa_abi::{HSA_STATUS_ERROR_INVALID_ARGUMENT, HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// The live groups by handle. Handles count up from 1 and are never reused.
#[derive(Default)]
pub struct Groups {
    table: Mutex<HashMap<u64, Vec<Signal>>>,
    next: AtomicU64,
}

impl Groups {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Vec<Signal>>> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Signals {
    /// `hsa_signal_group_create`: every signal must be live and appear once.
    pub fn group_create(&self, signals: &[Signal]) -> Result<u64> {
        if signals.is_empty() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        for (i, s) in signals.iter().enumerate() {
            self.get(*s)?;
            if signals[..i].contains(s) {
                return Err(Error::with_message(
                    HSA_STATUS_ERROR_INVALID_ARGUMENT,
                    "a signal appears twice in the group",
                ));
            }
        }
        let id = self.groups.next.fetch_add(1, Ordering::Relaxed) + 1;
        self.groups.lock().insert(id, signals.to_vec());
        Ok(id)
    }

    /// `hsa_signal_group_destroy`.
    pub fn group_destroy(&self, group: u64) -> Result<()> {
        self.groups
            .lock()
            .remove(&group)
            .map(drop)
            .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP))
    }

    /// The signals of a group, in creation order.
    pub fn group_signals(&self, group: u64) -> Result<Vec<Signal>> {
        self.groups
            .lock()
            .get(&group)
            .cloned()
            .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP))
    }

    /// `hsa_signal_group_wait_any_*`: `conds[i]` and `compare[i]` go with the group's i-th
    /// signal. Waits without timeout; returns the signal that satisfied its condition and the
    /// value observed.
    pub fn group_wait_any(
        &self,
        group: u64,
        conds: &[Condition],
        compare: &[i64],
        hint: WaitHint,
        order: MemoryOrder,
    ) -> Result<(Signal, i64)> {
        let signals = self.group_signals(group)?;
        if conds.len() < signals.len() || compare.len() < signals.len() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        let refs = signals
            .iter()
            .map(|s| self.get(*s))
            .collect::<Result<Vec<_>>>()?;
        let list: Vec<_> = refs
            .iter()
            .zip(conds)
            .zip(compare)
            .map(|((r, c), v)| (r.atomic(), *c, *v))
            .collect();
        match wait_any(&list, u64::MAX, hint, order) {
            (Some(i), v) => Ok((signals[i], v)),
            // A wait without timeout returns only when satisfied.
            (None, _) => Err(Error::new(softhsa_abi::HSA_STATUS_ERROR)),
        }
    }
}
