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
