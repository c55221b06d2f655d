//! System events (`hsa_amd_register_system_event_handler`): handlers the program registers, and
//! the memory-fault event the dispatch path raises when a kernel touches unknown memory.

use softhsa_abi::*;
use std::ffi::c_void;
use std::sync::Mutex;

/// Registered handlers, called in registration order.
#[derive(Default)]
pub struct SystemEvents {
    handlers: Mutex<Vec<(hsa_amd_system_event_callback_t, usize)>>,
}

impl SystemEvents {
    pub fn register(&self, callback: hsa_amd_system_event_callback_t, data: *mut c_void) {
        self.handlers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((callback, data as usize));
    }

    /// Reports HSA_AMD_GPU_MEMORY_FAULT_EVENT to every handler (`agent`: the GPU's handle;
    /// `reason_mask`: HSA_AMD_MEMORY_FAULT_* bits). Returns how many handlers ran.
    pub fn raise_memory_fault(&self, agent: u64, address: u64, reason_mask: u32) -> usize {
        let event = hsa_amd_event_t {
            event_type: HSA_AMD_GPU_MEMORY_FAULT_EVENT,
            memory_fault: hsa_amd_gpu_memory_fault_info_t {
                agent: hsa_agent_t { handle: agent },
                virtual_address: address,
                fault_reason_mask: reason_mask,
            },
        };
        let handlers = self
            .handlers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let mut ran = 0;
        for (cb, data) in handlers.into_iter() {
            if let Some(cb) = cb {
                // SAFETY: a handler the program registered, called with an event that lives
                // for the duration of the call, as hsa_ext_amd.h specifies.
                unsafe { cb(&event, data as *mut c_void) };
                ran += 1;
            }
        }
        ran
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    static SEEN: AtomicU64 = AtomicU64::new(0);

    unsafe extern "C" fn handler(event: *const hsa_amd_event_t, data: *mut c_void) -> hsa_status_t {
        // SAFETY: raise_memory_fault passes a live event.
        let e = unsafe { &*event };
        assert_eq!(e.event_type, HSA_AMD_GPU_MEMORY_FAULT_EVENT);
        let f = e.memory_fault;
        SEEN.store(
            f.virtual_address ^ f.agent.handle ^ u64::from(f.fault_reason_mask) ^ data as u64,
            Ordering::SeqCst,
        );
        HSA_STATUS_SUCCESS
    }

    #[test]
    fn memory_faults_reach_registered_handlers() {
        let events = SystemEvents::default();
        assert_eq!(events.raise_memory_fault(1, 2, 4), 0);
        events.register(Some(handler), 0x100 as *mut c_void);
        assert_eq!(events.raise_memory_fault(0x10, 0xdead_0000, 1), 1);
        assert_eq!(SEEN.load(Ordering::SeqCst), 0xdead_0000 ^ 0x10 ^ 1 ^ 0x100);
    }
}
