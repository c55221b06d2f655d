//! Conversions between HSA handles and the AMD structures behind them, and compile-time checks
//! of the layout facts DESIGN.md fixes (the layout test checks them all against C as well).

use crate::*;
use core::mem::{offset_of, size_of};

const _: () = {
    assert!(size_of::<hsa_queue_t>() == 40);
    assert!(size_of::<amd_queue_t>() == 256);
    assert!(offset_of!(amd_queue_t, hsa_queue) == 0);
    assert!(size_of::<amd_signal_t>() == 64);
    assert!(offset_of!(amd_signal_t, kind) == 0);
    assert!(offset_of!(amd_signal_t, value) == 8);
    assert!(offset_of!(amd_signal_t, event_mailbox_ptr) == 16);
    assert!(offset_of!(amd_signal_t, start_ts) == 32);
    assert!(offset_of!(amd_signal_t, end_ts) == 40);
    assert!(size_of::<amd_kernel_code_t>() == 256);
};

impl hsa_signal_t {
    /// The handle of the `amd_signal_t` at `signal` (a signal handle is its address).
    pub fn from_amd_signal(signal: *const amd_signal_t) -> hsa_signal_t {
        hsa_signal_t {
            handle: signal as usize as u64,
        }
    }

    /// The address of the `amd_signal_t` this handle names; only meaningful for a handle the
    /// runtime has validated.
    pub fn amd_signal(self) -> *mut amd_signal_t {
        self.handle as usize as *mut amd_signal_t
    }
}

/// The `amd_queue_t` behind a `hsa_queue_t*` (it is the first field, so the address is the same).
pub fn amd_queue_of(queue: *mut hsa_queue_t) -> *mut amd_queue_t {
    queue.cast()
}

/// The public `hsa_queue_t*` of an `amd_queue_t`.
pub fn hsa_queue_of(queue: *mut amd_queue_t) -> *mut hsa_queue_t {
    queue.cast()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handle_round_trips() {
        let mut s = amd_signal_t {
            kind: AMD_SIGNAL_KIND_USER,
            value: 7,
            ..Default::default()
        };
        let h = hsa_signal_t::from_amd_signal(&s);
        assert_eq!(h.handle, &s as *const amd_signal_t as u64);
        assert_eq!(h.amd_signal(), &mut s as *mut amd_signal_t);
        let mut q = amd_queue_t::default();
        let hq = hsa_queue_of(&mut q);
        assert_eq!(hq as usize, &q as *const amd_queue_t as usize);
        assert_eq!(amd_queue_of(hq), &mut q as *mut amd_queue_t);
        assert_eq!(amd_queue_t::default().hsa_queue.size, 0);
    }
}
