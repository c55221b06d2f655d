//! Global wave sync (GWS): the 64 semaphore/barrier resources a GPU shares among all the waves
//! of all its dispatches, and the `ds_gws_*` instructions that use them (Vega ISA, DS opcodes
//! 152–157).
//!
//! Resource `rid = (M0[21:16] + offset0[5:0]) mod 64`. The data operand (first active lane of
//! the instruction's VGPR) gives init values, bulk-release counts and barrier sizes.
//! - `init`: counter = value, flag = 0.
//! - `sema_v` / `sema_br`: counter += 1 / += value.
//! - `sema_p`: wait until counter > 0, then counter -= 1.
//! - `sema_release_all`: counter = number of waves waiting in `sema_p`.
//! - `barrier`: an arriving wave records the resource's flag; if counter > 0 it decrements it
//!   and waits, else it is the last one: it flips the flag (releasing every wave that recorded
//!   the old one) and sets counter = value, the size of the next barrier (n waves need n − 1).
//!
//! A wave that must wait keeps its place in [`Wave::gws_pending`] and re-executes the same
//! instruction each time it runs ([`Flow::Wait`]), so waiting waves of any work-group, on any
//! worker thread, are released by the waves that update the resource. Each change that may
//! release a waiter bumps the device's epoch ([`Gws::epoch`]); a waiting wave records the
//! epoch it saw ([`Wave::gws_epoch`]), so the scheduler parks its work-group until the epoch
//! moves instead of re-running it.

use super::{Flow, XInst};
use crate::wave::{Wave, M0};
use softhsa_isa::Op;
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Number of GWS resources of a GFX9 GPU.
pub const RESOURCES: usize = 64;

#[derive(Clone, Copy, Debug, Default)]
struct Resource {
    counter: i64,
    flag: bool,
    /// Waves waiting in `sema_p`.
    waiting: u32,
}

/// The GWS of one GPU.
#[derive(Debug)]
pub struct Gws {
    res: Mutex<[Resource; RESOURCES]>,
    /// Bumped (under the lock) by every change that may release a waiting wave.
    epoch: AtomicU64,
}

impl Default for Gws {
    fn default() -> Self {
        Gws {
            res: Mutex::new([Resource::default(); RESOURCES]),
            epoch: AtomicU64::new(0),
        }
    }
}

impl Gws {
    /// The change count: a wave that waited at epoch `e` may pass once this differs from `e`.
    pub fn epoch(&self) -> u64 {
        self.epoch.load(Ordering::Acquire)
    }
}

thread_local! {
    /// The GWS of the device whose work-group this thread runs (see [`enter`]).
    static CURRENT: RefCell<Option<Arc<Gws>>> = const { RefCell::new(None) };
}

/// Makes `gws` the one this thread's waves use until the guard drops.
pub(crate) fn enter(gws: &Arc<Gws>) -> impl Drop {
    struct Guard(Option<Arc<Gws>>);
    impl Drop for Guard {
        fn drop(&mut self) {
            let prev = self.0.take();
            CURRENT.with(|c| *c.borrow_mut() = prev);
        }
    }
    Guard(CURRENT.with(|c| c.borrow_mut().replace(gws.clone())))
}

/// Runs `f` on the current device's GWS (a process-wide one when no device entered), with its
/// epoch.
fn with_gws<R>(f: impl FnOnce(&mut [Resource; RESOURCES], &AtomicU64) -> R) -> R {
    static FALLBACK: OnceLock<Arc<Gws>> = OnceLock::new();
    let gws = CURRENT
        .with(|c| c.borrow().clone())
        .unwrap_or_else(|| FALLBACK.get_or_init(Default::default).clone());
    let mut g = gws.res.lock().unwrap_or_else(|e| e.into_inner());
    f(&mut g, &gws.epoch)
}

/// What a waiting wave waits for, packed in [`Wave::gws_pending`]: bit 15 set, bit 14 = barrier
/// (else semaphore P), bit 13 = the barrier flag it recorded, bits 5:0 = resource.
const PENDING: u16 = 1 << 15;
const BARRIER: u16 = 1 << 14;
const FLAG: u16 = 1 << 13;

/// Whether `op` is a global wave sync operation (`ds_gws_*`).
pub fn is_gws(op: Op) -> bool {
    matches!(
        op,
        Op::DS_GWS_INIT
            | Op::DS_GWS_SEMA_V
            | Op::DS_GWS_SEMA_BR
            | Op::DS_GWS_SEMA_P
            | Op::DS_GWS_SEMA_RELEASE_ALL
            | Op::DS_GWS_BARRIER
    )
}

/// Executes a `ds_gws_*` instruction; `None` for other ops.
pub fn exec(w: &mut Wave, x: &XInst) -> Option<Flow> {
    if !is_gws(x.inst.op) {
        return None;
    }
    // offset0 is the low byte of the offset field (the decoder keeps both bytes in `imm`).
    let offset0 = (x.inst.imm as u32) & 63;
    let rid = (((w.s[M0] >> 16) & 63) + offset0) as usize % RESOURCES;
    let exec = w.exec();
    let value = match x.inst.src[0].vgpr_index() {
        Some(r) if exec != 0 => i64::from(w.v[usize::from(r)][exec.trailing_zeros() as usize]),
        _ => 0,
    };
    let pending = w.gws_pending;
    Some(with_gws(|res, epoch| {
        let r = &mut res[rid];
        let flow = match x.inst.op {
            Op::DS_GWS_INIT => {
                r.counter = value;
                r.flag = false;
                Flow::Next
            }
            Op::DS_GWS_SEMA_V => {
                r.counter += 1;
                Flow::Next
            }
            Op::DS_GWS_SEMA_BR => {
                r.counter += value;
                Flow::Next
            }
            Op::DS_GWS_SEMA_RELEASE_ALL => {
                r.counter = i64::from(r.waiting);
                Flow::Next
            }
            Op::DS_GWS_SEMA_P => {
                let queued = pending & PENDING != 0;
                if r.counter > 0 {
                    r.counter -= 1;
                    if queued {
                        r.waiting = r.waiting.saturating_sub(1);
                    }
                    w.gws_pending = 0;
                    Flow::Next
                } else {
                    if !queued {
                        r.waiting += 1;
                        w.gws_pending = PENDING | rid as u16;
                    }
                    Flow::Wait
                }
            }
            Op::DS_GWS_BARRIER if pending & PENDING != 0 => {
                if r.flag != (pending & FLAG != 0) {
                    w.gws_pending = 0;
                    Flow::Next
                } else {
                    Flow::Wait
                }
            }
            Op::DS_GWS_BARRIER => {
                if r.counter <= 0 {
                    r.flag = !r.flag;
                    r.counter = value;
                    Flow::Next
                } else {
                    r.counter -= 1;
                    w.gws_pending = PENDING | BARRIER | if r.flag { FLAG } else { 0 } | rid as u16;
                    Flow::Wait
                }
            }
            // The other GWS op: the match above let only these through.
            _ => Flow::Next,
        };
        // A waiter notes the epoch under the lock, so no release after it goes unnoticed. Only
        // changes that can let a waiter pass move the epoch: an arrival that waits, or a
        // successful `sema_p`, wakes nobody (a grid sync of n work-groups costs n wake-ups of
        // the parked ones, not n per arrival).
        let releases = match x.inst.op {
            Op::DS_GWS_BARRIER => matches!(flow, Flow::Next) && pending & PENDING == 0,
            Op::DS_GWS_SEMA_P => false,
            _ => true,
        };
        if matches!(flow, Flow::Wait) {
            w.gws_epoch = epoch.load(Ordering::Relaxed);
        } else if releases {
            epoch.fetch_add(1, Ordering::Release);
        }
        flow
    }))
}
