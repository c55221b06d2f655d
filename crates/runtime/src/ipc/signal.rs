//! IPC signals (`hsa_amd_signal_create` with `HSA_AMD_SIGNAL_IPC`, `hsa_amd_ipc_signal_create`
//! and `_attach`).
//!
//! An IPC signal is an `amd_signal_t` alone at the start of a shared page (a memfd), so another
//! process can map the same bytes; its handle in each process is the address of its mapping
//! there. Its event mailbox pointer is 0 (a mailbox address means nothing in the other
//! process); waiters in either process see changes made in the other within the 1 ms bound of
//! their sleeps. Pages stay mapped until the runtime shuts down — a destroyed signal only loses
//! its validity (its kind becomes INVALID) — so no thread can touch an unmapped signal.

use super::handle::{Handle, Kind};
use super::shared::{self, PAGE};
use crate::memory::{Memory, RangeKind};
use crate::{Error, Result};
use softhsa_abi::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// A shared signal page of this process.
#[derive(Clone, Copy, Debug)]
struct Page {
    /// The memfd for signals created here; `None` for attached ones.
    fd: Option<i32>,
    nonce: u64,
}

/// The IPC signals of a runtime (part of `signal::Signals`).
#[derive(Default)]
pub struct SharedSignals {
    /// Live IPC signals by address.
    live: Mutex<HashMap<u64, Page>>,
    /// Every page mapped (live or destroyed), unmapped at drop.
    mapped: Mutex<Vec<(u64, Option<i32>)>>,
}

fn field(addr: u64, offset: u64) -> &'static AtomicU64 {
    // SAFETY: `addr` is the start of a shared page this module mapped, which stays mapped until
    // `SharedSignals` drops (after every user of the runtime); `offset` is a field offset of the
    // 64-byte `amd_signal_t` at the page's start, 8-byte aligned.
    unsafe { AtomicU64::from_ptr((addr + offset) as *mut u64) }
}

use crate::signal::pool::off;

impl SharedSignals {
    /// Whether `addr` is a live IPC signal of this process (its kind still USER).
    pub fn is_live(&self, addr: u64) -> bool {
        self.live
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(&addr)
            && field(addr, off::KIND).load(Ordering::Acquire) == AMD_SIGNAL_KIND_USER as u64
    }

    /// A new IPC signal with value `initial`, registered with `memory` for device code.
    pub fn create(&self, memory: &Memory, initial: i64) -> Result<u64> {
        let nonce = shared::nonce();
        let fd = shared::create(nonce, PAGE)?;
        let addr = match shared::map(fd, PAGE, None) {
            Ok(a) => a,
            Err(e) => {
                shared::close(fd);
                return Err(e);
            }
        };
        self.keep(addr, Some(fd));
        field(addr, off::VALUE).store(initial as u64, Ordering::Relaxed);
        field(addr, off::EVENT_MAILBOX_PTR).store(0, Ordering::Relaxed);
        field(addr, off::EVENT_ID).store(0, Ordering::Relaxed);
        field(addr, off::KIND).store(AMD_SIGNAL_KIND_USER as u64, Ordering::Release);
        memory.register_range(addr, PAGE, RangeKind::Signal, 0)?;
        self.live.lock().unwrap_or_else(|e| e.into_inner()).insert(
            addr,
            Page {
                fd: Some(fd),
                nonce,
            },
        );
        Ok(addr)
    }

    fn keep(&self, addr: u64, fd: Option<i32>) {
        self.mapped
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((addr, fd));
    }

    /// `hsa_signal_destroy` of an IPC signal: `false` when `addr` is not one.
    pub fn destroy(&self, addr: u64) -> bool {
        let page = self
            .live
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&addr);
        match page {
            Some(p) => {
                // The creator's destroy invalidates the signal for every process.
                if p.fd.is_some() {
                    field(addr, off::KIND).store(AMD_SIGNAL_KIND_INVALID as u64, Ordering::Release);
                }
                true
            }
            None => false,
        }
    }

    /// `hsa_amd_ipc_signal_create`: the handle of an IPC signal created by this process.
    pub fn export(&self, addr: u64) -> Result<[u32; 8]> {
        let page = self
            .live
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&addr)
            .copied();
        match page {
            Some(Page {
                fd: Some(fd),
                nonce,
            }) if self.is_live(addr) => Ok(Handle {
                kind: Kind::Signal,
                pid: std::process::id(),
                fd,
                nonce,
                pages: 1,
            }
            .to_words()),
            _ => Err(Error::with_message(
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
                "not a live signal created with HSA_AMD_SIGNAL_IPC by this process",
            )),
        }
    }

    /// `hsa_amd_ipc_signal_attach`: maps the signal of `handle`; returns its address here.
    pub fn attach(&self, memory: &Memory, words: [u32; 8]) -> Result<u64> {
        let h = Handle::from_words(words, Kind::Signal)?;
        let fd = shared::open(h.pid, h.fd, h.nonce, PAGE)?;
        let addr = shared::map(fd, PAGE, None);
        shared::close(fd);
        let addr = addr?;
        self.keep(addr, None);
        if field(addr, off::KIND).load(Ordering::Acquire) != AMD_SIGNAL_KIND_USER as u64 {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
                "the IPC signal was destroyed by its creator",
            ));
        }
        memory.register_range(addr, PAGE, RangeKind::Signal, 0)?;
        self.live.lock().unwrap_or_else(|e| e.into_inner()).insert(
            addr,
            Page {
                fd: None,
                nonce: h.nonce,
            },
        );
        Ok(addr)
    }
}

impl Drop for SharedSignals {
    fn drop(&mut self) {
        for (addr, fd) in self
            .mapped
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .drain(..)
        {
            // SAFETY: pages mapped by `create`/`attach`; the runtime (their only user) is gone.
            unsafe { shared::unmap(addr, PAGE) };
            if let Some(fd) = fd {
                shared::close(fd);
            }
        }
    }
}
