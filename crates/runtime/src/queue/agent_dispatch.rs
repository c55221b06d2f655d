//! How softhsa services AGENT_DISPATCH packets.
//!
//! Every queue's packet processor executes agent dispatch packets itself, on its own thread, in
//! queue order (so the barrier bit and fences behave as for any packet). The packet's 16-bit
//! `type` selects the function:
//! - [`CALL_FUNCTION`] (`0x8000`), usable from C with no extra API: `arg[0]` is a host function
//!   `void f(uint64_t arg1, uint64_t arg2, uint64_t arg3, void *return_address)`, called with
//!   the packet's `arg[1..4]` and `return_address`. The program guarantees the pointer is valid.
//! - any other value: a function registered through [`super::Queues::register_agent_function`]
//!   (Rust API), which receives the packet's fields and may fail with an HSA status.
//!
//! A type with no function, or a CALL packet whose `arg[0]` is 0, is a malformed packet: the
//! queue enters the error state with HSA_STATUS_ERROR_INVALID_PACKET_FORMAT.

use crate::{Error, Result};
use softhsa_abi::{HSA_STATUS_ERROR_INVALID_ARGUMENT, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT};
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

/// The built-in function type: call the host function pointer in `arg[0]`.
pub const CALL_FUNCTION: u16 = 0x8000;

/// The fields of an agent dispatch packet.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AgentCall {
    pub function: u16,
    pub return_address: u64,
    pub args: [u64; 4],
}

/// A registered agent function.
pub type AgentFunction = Arc<dyn Fn(&AgentCall) -> Result<()> + Send + Sync>;

/// The registered functions, by packet `type`.
#[derive(Default)]
pub struct AgentFunctions {
    table: RwLock<HashMap<u16, AgentFunction>>,
}

impl AgentFunctions {
    /// Registers (or replaces) the function for `function`; [`CALL_FUNCTION`] is reserved.
    pub fn register(&self, function: u16, f: AgentFunction) -> Result<()> {
        if function == CALL_FUNCTION {
            return Err(Error::with_message(
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
                "type reserved",
            ));
        }
        self.table
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(function, f);
        Ok(())
    }

    /// Runs the packet's function on the calling (packet processor) thread.
    pub fn call(&self, c: &AgentCall) -> Result<()> {
        if c.function == CALL_FUNCTION {
            if c.args[0] == 0 {
                return Err(Error::with_message(
                    HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
                    "agent dispatch CALL with a null function",
                ));
            }
            type HostFn = unsafe extern "C" fn(u64, u64, u64, *mut std::ffi::c_void);
            // SAFETY: by the documented protocol arg[0] is the address of a host function of
            // this signature, supplied by the program that enqueued the packet.
            unsafe {
                let f: HostFn = std::mem::transmute::<usize, HostFn>(c.args[0] as usize);
                f(
                    c.args[1],
                    c.args[2],
                    c.args[3],
                    c.return_address as *mut std::ffi::c_void,
                );
            }
            return Ok(());
        }
        let f = self
            .table
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&c.function)
            .cloned();
        match f {
            Some(f) => f(c),
            None => Err(Error::with_message(
                HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
                format!("no agent function registered for type {:#x}", c.function),
            )),
        }
    }
}
