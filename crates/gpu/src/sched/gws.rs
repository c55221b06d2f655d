//! Work-groups parked at a global wave sync (GWS) operation that must wait.
//!
//! The GWS resources and the `ds_gws_*` semantics live in [`crate::exec::gws`]: a wave whose
//! barrier or semaphore operation cannot complete stops before it (`WaveState::Gws`), noting
//! the device's GWS epoch. When none of its work-group's waves can run, the work-group parks
//! here, off every run list, holding no worker; the runner whose wave changed the GWS (the
//! epoch moved) sends every parked work-group back to its job's ready list, where its waiting
//! waves execute their operation again. HIP's grid-wide sync (`__ockl_grid_sync`, a
//! `ds_gws_barrier` from one wave per work-group) therefore works with any number of workers.
//!
//! A work-group parks only if the epoch still is the one its waves saw, checked under the same
//! lock the wake-up takes after moving the epoch, so no wake-up is lost. GWS operations are
//! rare (one per work-group per grid sync), so one mutex suffices.

use super::context::WgContext;
use super::job::Job;
use crate::exec::gws::Gws;
use std::sync::Mutex;

/// The work-groups of one device parked at GWS operations.
#[derive(Default)]
pub struct GwsWaiters {
    list: Mutex<Vec<(&'static Job, Box<WgContext>)>>,
}

impl GwsWaiters {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(&'static Job, Box<WgContext>)>> {
        self.list.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Parks `ctx` (of `job`) until `gws`'s epoch moves past `seen`. Returns the context when
    /// it already has (the caller goes on running it).
    pub(crate) fn block(
        &self,
        gws: &Gws,
        seen: u64,
        job: &'static Job,
        ctx: Box<WgContext>,
    ) -> Option<Box<WgContext>> {
        let mut l = self.lock();
        if gws.epoch() != seen {
            return Some(ctx);
        }
        l.push((job, ctx));
        None
    }

    /// The GWS changed: every parked work-group goes back to its job's ready list.
    pub(crate) fn wake(&self) {
        let woken = std::mem::take(&mut *self.lock());
        for (job, ctx) in woken {
            job.make_ready(ctx);
        }
    }

    /// Moves every parked work-group of `job` back to its ready list (the job stopped).
    pub(crate) fn release_job(&self, job: &Job) {
        let mut l = self.lock();
        let mut moved = Vec::new();
        let mut i = 0;
        while i < l.len() {
            if std::ptr::eq(l[i].0, job) {
                moved.push(l.swap_remove(i));
            } else {
                i += 1;
            }
        }
        drop(l);
        for (job, ctx) in moved {
            job.make_ready(ctx);
        }
    }
}
