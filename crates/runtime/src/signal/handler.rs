//! `hsa_amd_signal_async_handler` and `hsa_amd_async_function`: one runtime thread, started on
//! first use, checks the registered conditions and runs handlers and functions.
//!
//! Handlers run on that thread only, so they may call any API function, including registering
//! another handler (it is picked up on the next pass). A handler that returns `false` is
//! unregistered; one that returns `true` stays and runs again whenever its condition holds.
//! While no handler is registered the thread sleeps without timeout on the control channel
//! (registrations wake it; signal operations do not); otherwise it sleeps on its one signal's
//! channel, or on the channel of every signal when it watches several, and re-checks at least
//! every millisecond (signal values written by device code wake nobody).

use super::{notify, pool::Pool, wait::MAX_SLEEP, Condition, Signal, Signals};
use crate::Result;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// A handler: gets the observed value, returns whether to stay registered.
pub type Handler = Box<dyn FnMut(i64) -> bool + Send>;
/// A function to run once on the handler thread.
pub type AsyncFn = Box<dyn FnOnce() + Send>;

struct Entry {
    signal: Signal,
    cond: Condition,
    compare: i64,
    handler: Handler,
}

#[derive(Default)]
struct Inbox {
    entries: Vec<Entry>,
    functions: Vec<AsyncFn>,
    forgotten: Vec<Signal>,
    stop: bool,
}

/// The handler thread and what has been handed to it.
#[derive(Default)]
pub struct AsyncHandlers {
    inbox: Arc<Mutex<Inbox>>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl AsyncHandlers {
    fn post(&self, pool: &Arc<Pool>, f: impl FnOnce(&mut Inbox)) -> Result<()> {
        f(&mut self.inbox.lock().unwrap_or_else(|e| e.into_inner()));
        let mut t = self.thread.lock().unwrap_or_else(|e| e.into_inner());
        if t.is_none() {
            let (inbox, pool) = (self.inbox.clone(), pool.clone());
            let handle = std::thread::Builder::new()
                .name("softhsa-async-handlers".into())
                .spawn(move || run(&inbox, &pool))
                .map_err(|_| crate::Error::new(softhsa_abi::HSA_STATUS_ERROR_OUT_OF_RESOURCES))?;
            *t = Some(handle);
        }
        notify::wake_all();
        Ok(())
    }

    /// Drops handlers registered on a destroyed signal (before its slot is reused).
    pub(super) fn forget_signal(&self, s: Signal) {
        let running = self
            .thread
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some();
        let mut inbox = self.inbox.lock().unwrap_or_else(|e| e.into_inner());
        inbox.entries.retain(|e| e.signal != s);
        // The thread drains this list on every pass; without a thread nothing is registered.
        if running {
            inbox.forgotten.push(s);
        }
    }

    /// Stops and joins the thread (unless called from a handler, which cannot join itself).
    pub fn shut_down(&self) {
        self.inbox.lock().unwrap_or_else(|e| e.into_inner()).stop = true;
        notify::wake_all();
        let handle = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(h) = handle {
            if h.thread().id() != std::thread::current().id() {
                let _ = h.join();
            }
        }
    }
}

impl Signals {
    /// `hsa_amd_signal_async_handler`: calls `handler(value)` on the handler thread when
    /// `cond(value, compare)` holds.
    pub fn async_handler(
        &self,
        signal: Signal,
        cond: Condition,
        compare: i64,
        handler: Handler,
    ) -> Result<()> {
        self.get(signal)?;
        let entry = Entry {
            signal,
            cond,
            compare,
            handler,
        };
        self.handlers.post(&self.pool, |i| i.entries.push(entry))
    }

    /// `hsa_amd_async_function`: runs `f` once on the handler thread, soon.
    pub fn async_function(&self, f: AsyncFn) -> Result<()> {
        self.handlers.post(&self.pool, |i| i.functions.push(f))
    }
}

fn run(inbox: &Mutex<Inbox>, pool: &Pool) {
    let mut entries: Vec<Entry> = Vec::new();
    loop {
        let sleeper = match entries.as_slice() {
            [] => notify::Sleeper::control(),
            [one] => notify::Sleeper::for_value(pool.value(one.signal.0).as_ptr() as u64),
            _ => notify::Sleeper::any(),
        };
        let epoch = sleeper.epoch();
        let functions = {
            let mut i = inbox.lock().unwrap_or_else(|e| e.into_inner());
            if i.stop {
                return;
            }
            let forgotten = std::mem::take(&mut i.forgotten);
            entries.retain(|e| !forgotten.contains(&e.signal));
            entries.append(&mut i.entries);
            std::mem::take(&mut i.functions)
        };
        let mut ran = !functions.is_empty();
        for f in functions {
            // A panicking callback must not take the runtime's handler thread down.
            let _ = catch_unwind(AssertUnwindSafe(f));
        }
        entries.retain_mut(|e| {
            if pool.check(e.signal.0).is_err() {
                return false;
            }
            let v = pool.value(e.signal.0).load(Ordering::Acquire);
            if !e.cond.holds(v, e.compare) {
                return true;
            }
            ran = true;
            catch_unwind(AssertUnwindSafe(|| (e.handler)(v))).unwrap_or(false)
        });
        if !ran {
            let nap = (!entries.is_empty()).then_some(MAX_SLEEP);
            sleeper.sleep(epoch, nap);
        }
    }
}
