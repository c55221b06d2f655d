//! Global wave sync (GWS): the hardware barrier resources `ds_gws_init` and `ds_gws_barrier`
//! use, which HIP's grid-wide sync (`__ockl_grid_sync`) is built on.
//!
//! Each device (a queue's GPU) has 64 resources. A resource holds a counter: `ds_gws_init v`
//! sets it to `v`; a wave arriving at `ds_gws_barrier` while the counter is non-zero decrements
//! it and waits; the wave that arrives at zero releases every waiting wave and reloads the
//! counter with its own value (the count for the next use). So after `init(n - 1)`, n arrivals
//! pass the barrier, and the next n pass it again, as ROCclr's cooperative launches rely on
//! (`__amd_rocclr_gwsInit(workgroups - 1)` before the kernel, which arrives with
//! `workgroups - 1` from one wave per work-group).
//!
//! A waiting wave's work-group is parked here, off every run list, until the release moves it
//! back to its job's ready list; it holds no worker meanwhile. GWS operations are rare (one per
//! work-group per grid sync), so one mutex guards all resources.

use super::context::WgContext;
use super::job::Job;
use std::sync::Mutex;

/// Resources per device (M0[21:16] + offset: 6 bits).
pub const RESOURCES: usize = 64;

struct Resource {
    counter: u32,
    generation: u64,
    waiters: Vec<(&'static Job, Box<WgContext>)>,
}

/// The GWS resources of one device.
pub struct Gws {
    res: Mutex<Vec<Resource>>,
}

/// What an arriving wave does.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Arrival {
    /// It released the barrier (or passed a released one): go on.
    Pass,
    /// Wait until the resource's generation moves past this one.
    Wait(u64),
}

impl Default for Gws {
    fn default() -> Self {
        Gws {
            res: Mutex::new(
                (0..RESOURCES)
                    .map(|_| Resource {
                        counter: 0,
                        generation: 0,
                        waiters: Vec::new(),
                    })
                    .collect(),
            ),
        }
    }
}

impl Gws {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Resource>> {
        self.res.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `ds_gws_init`: the counter of resource `r` becomes `value`.
    pub(crate) fn init(&self, r: u32, value: u32) {
        self.lock()[r as usize % RESOURCES].counter = value;
    }

    /// `ds_gws_barrier` with `value` (barrier count - 1) from one wave.
    pub(crate) fn arrive(&self, r: u32, value: u32) -> Arrival {
        let mut g = self.lock();
        let res = &mut g[r as usize % RESOURCES];
        if res.counter > 0 {
            res.counter -= 1;
            return Arrival::Wait(res.generation);
        }
        res.counter = value;
        res.generation += 1;
        let woken = std::mem::take(&mut res.waiters);
        drop(g);
        for (job, ctx) in woken {
            job.make_ready(ctx);
        }
        Arrival::Pass
    }

    /// Whether generation `gen` of resource `r` has been released.
    pub(crate) fn passed(&self, r: u32, gen: u64) -> bool {
        self.lock()[r as usize % RESOURCES].generation != gen
    }

    /// Parks `ctx` (of `job`) until generation `gen` of resource `r` is released. Returns the
    /// context when that has already happened (the caller goes on running it).
    pub(crate) fn block(
        &self,
        r: u32,
        gen: u64,
        job: &'static Job,
        ctx: Box<WgContext>,
    ) -> Option<Box<WgContext>> {
        let mut g = self.lock();
        let res = &mut g[r as usize % RESOURCES];
        if res.generation != gen {
            return Some(ctx);
        }
        res.waiters.push((job, ctx));
        None
    }

    /// Moves every context of `job` waiting here back to its ready list (the job stopped).
    pub(crate) fn release_job(&self, job: &Job) {
        let mut g = self.lock();
        let mut moved = Vec::new();
        for res in g.iter_mut() {
            let mut i = 0;
            while i < res.waiters.len() {
                if std::ptr::eq(res.waiters[i].0, job) {
                    moved.push(res.waiters.swap_remove(i));
                } else {
                    i += 1;
                }
            }
        }
        drop(g);
        for (job, ctx) in moved {
            job.make_ready(ctx);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn barrier_releases_after_count_arrivals_and_reloads() {
        let g = Gws::default();
        // Without init the counter is 0: the first arrival passes and loads the count.
        assert_eq!(g.arrive(3, 2), Arrival::Pass);
        // Now 3 arrivals (count 2 + 1) make one barrier: two wait, the third releases.
        let a = g.arrive(3, 2);
        let b = g.arrive(3, 2);
        assert_eq!(a, Arrival::Wait(1));
        assert_eq!(b, Arrival::Wait(1));
        assert!(!g.passed(3, 1));
        assert_eq!(g.arrive(3, 2), Arrival::Pass);
        assert!(g.passed(3, 1));
        // init(n - 1) as ROCclr does before a cooperative launch; other resources untouched.
        g.init(5, 1);
        assert_eq!(g.arrive(5, 1), Arrival::Wait(0));
        assert_eq!(g.arrive(5, 1), Arrival::Pass);
        assert_eq!(g.arrive(3, 2), Arrival::Wait(2));
        // Resource ids wrap at 64.
        assert_eq!(g.arrive(3 + RESOURCES as u32, 2), Arrival::Wait(2));
    }
}
