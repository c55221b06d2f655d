//! AQL packets as the packet processor reads them: a copy of the slot's eight 64-bit words,
//! decoded per packet type (hsa.h, hsa_ext_amd.h; offsets checked against `softhsa_abi`).

use crate::signal::{Condition, Signal};
use crate::{Error, Result};
use softhsa_abi::{self as abi, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT};

/// `hsa_packet_type_t`, as the header's low byte.
pub const TYPE_VENDOR_SPECIFIC: u8 = abi::HSA_PACKET_TYPE_VENDOR_SPECIFIC as u8;
pub const TYPE_INVALID: u8 = abi::HSA_PACKET_TYPE_INVALID as u8;
pub const TYPE_KERNEL_DISPATCH: u8 = abi::HSA_PACKET_TYPE_KERNEL_DISPATCH as u8;
pub const TYPE_BARRIER_AND: u8 = abi::HSA_PACKET_TYPE_BARRIER_AND as u8;
pub const TYPE_AGENT_DISPATCH: u8 = abi::HSA_PACKET_TYPE_AGENT_DISPATCH as u8;
pub const TYPE_BARRIER_OR: u8 = abi::HSA_PACKET_TYPE_BARRIER_OR as u8;
/// `hsa_amd_packet_type_t` (byte 2 of a vendor-specific packet).
pub const AMD_FORMAT_BARRIER_VALUE: u8 = abi::HSA_AMD_PACKET_TYPE_BARRIER_VALUE as u8;

/// Header bit positions (`hsa_packet_header_t`).
pub const HEADER_BARRIER: u16 = abi::HSA_PACKET_HEADER_BARRIER as u16;
pub const HEADER_ACQUIRE_SCOPE: u16 = abi::HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE as u16;
pub const HEADER_RELEASE_SCOPE: u16 = abi::HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE as u16;

/// Fence scopes (`hsa_fence_scope_t`); 3 is reserved.
pub const SCOPE_NONE: u8 = abi::HSA_FENCE_SCOPE_NONE as u8;
pub const SCOPE_SYSTEM: u8 = abi::HSA_FENCE_SCOPE_SYSTEM as u8;

/// A packet copied out of the ring.
#[derive(Copy, Clone, Debug)]
pub struct Packet(pub [u64; 8]);

/// What a packet asks the processor to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    KernelDispatch,
    /// Up to five dependencies (0 handles are filtered out: "constant 0" for AND).
    BarrierAnd(Vec<Signal>),
    /// Dependencies (0 handles filtered out: "constant non-zero" for OR).
    BarrierOr(Vec<Signal>),
    /// `(signal & mask) cond value`; a 0 signal is satisfied at once.
    BarrierValue {
        signal: Signal,
        cond: Condition,
        value: i64,
        mask: i64,
    },
    AgentDispatch {
        function: u16,
        return_address: u64,
        args: [u64; 4],
    },
}

impl Packet {
    pub fn header(&self) -> u16 {
        self.0[0] as u16
    }
    pub fn packet_type(&self) -> u8 {
        self.header() as u8
    }
    pub fn barrier(&self) -> bool {
        self.header() >> HEADER_BARRIER & 1 != 0
    }
    pub fn acquire_scope(&self) -> u8 {
        (self.header() >> HEADER_ACQUIRE_SCOPE & 3) as u8
    }
    pub fn release_scope(&self) -> u8 {
        (self.header() >> HEADER_RELEASE_SCOPE & 3) as u8
    }
    /// The 16 bits after the header: kernel dispatch `setup`, agent dispatch `type`, AMD format.
    pub fn setup(&self) -> u16 {
        (self.0[0] >> 16) as u16
    }
    /// Every packet format keeps its completion signal in the last word.
    pub fn completion_signal(&self) -> Signal {
        Signal(self.0[7])
    }

    /// Decodes and checks the fields; malformed packets are INVALID_PACKET_FORMAT, as the spec
    /// names it for packets the processor cannot parse.
    pub fn decode(&self) -> Result<Kind> {
        let bad = |why: &str| Error::with_message(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, why);
        if self.acquire_scope() == 3 || self.release_scope() == 3 {
            return Err(bad("reserved fence scope"));
        }
        let deps = || {
            self.0[1..6]
                .iter()
                .filter(|&&h| h != 0)
                .map(|&h| Signal(h))
                .collect()
        };
        match self.packet_type() {
            TYPE_KERNEL_DISPATCH => {
                let dims = self.setup() & 3;
                if dims == 0 {
                    // ROCm reports invalid dimensions as INCOMPATIBLE_ARGUMENTS.
                    return Err(Error::with_message(
                        abi::HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS,
                        "kernel dispatch with 0 dimensions",
                    ));
                }
                Ok(Kind::KernelDispatch)
            }
            TYPE_BARRIER_AND => Ok(Kind::BarrierAnd(deps())),
            TYPE_BARRIER_OR => Ok(Kind::BarrierOr(deps())),
            TYPE_AGENT_DISPATCH => Ok(Kind::AgentDispatch {
                function: self.setup(),
                return_address: self.0[1],
                args: [self.0[2], self.0[3], self.0[4], self.0[5]],
            }),
            TYPE_VENDOR_SPECIFIC if self.setup() as u8 == AMD_FORMAT_BARRIER_VALUE => {
                let cond = Condition::from_raw(self.0[4] as u32)
                    .ok_or_else(|| bad("barrier-value packet with an unknown condition"))?;
                Ok(Kind::BarrierValue {
                    signal: Signal(self.0[1]),
                    value: self.0[2] as i64,
                    mask: self.0[3] as i64,
                    cond,
                })
            }
            TYPE_VENDOR_SPECIFIC => Err(bad("unknown vendor-specific packet format")),
            TYPE_INVALID => Err(bad("INVALID packet type")),
            _ => Err(bad("unknown packet type")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hdr(t: u8, setup: u16) -> u64 {
        (t as u64) | 1 << HEADER_BARRIER | (2 << HEADER_ACQUIRE_SCOPE) | (setup as u64) << 16
    }

    #[test]
    fn decodes_each_type() {
        let p = Packet([hdr(TYPE_BARRIER_AND, 0), 0, 8, 0, 16, 0, 0, 77]);
        assert!(p.barrier());
        assert_eq!(p.acquire_scope(), SCOPE_SYSTEM);
        assert_eq!(
            p.decode().unwrap(),
            Kind::BarrierAnd(vec![Signal(8), Signal(16)])
        );
        assert_eq!(p.completion_signal(), Signal(77));
        let p = Packet([hdr(TYPE_AGENT_DISPATCH, 0x8000), 5, 1, 2, 3, 4, 0, 0]);
        assert_eq!(
            p.decode().unwrap(),
            Kind::AgentDispatch {
                function: 0x8000,
                return_address: 5,
                args: [1, 2, 3, 4]
            }
        );
        let v = (AMD_FORMAT_BARRIER_VALUE as u64) << 16;
        let p = Packet([v, 64, 3, 0xff, 1, 0, 0, 0]);
        assert_eq!(
            p.decode().unwrap(),
            Kind::BarrierValue {
                signal: Signal(64),
                cond: Condition::Ne,
                value: 3,
                mask: 0xff
            }
        );
        assert_eq!(
            Packet([hdr(TYPE_KERNEL_DISPATCH, 3), 0, 0, 0, 0, 0, 0, 0])
                .decode()
                .unwrap(),
            Kind::KernelDispatch
        );
    }

    #[test]
    fn word_positions_match_the_abi_structs() {
        use std::mem::offset_of;
        // decode() reads: deps in words 1..6, completion in word 7, agent fields in 1..6,
        // barrier-value fields in words 1..5.
        assert_eq!(offset_of!(abi::hsa_barrier_and_packet_t, dep_signal), 8);
        assert_eq!(
            offset_of!(abi::hsa_barrier_or_packet_t, completion_signal),
            56
        );
        assert_eq!(
            offset_of!(abi::hsa_kernel_dispatch_packet_t, completion_signal),
            56
        );
        assert_eq!(
            offset_of!(abi::hsa_agent_dispatch_packet_t, return_address),
            8
        );
        assert_eq!(offset_of!(abi::hsa_agent_dispatch_packet_t, arg), 16);
        assert_eq!(
            offset_of!(abi::hsa_agent_dispatch_packet_t, completion_signal),
            56
        );
        type V = abi::hsa_amd_barrier_value_packet_t;
        assert_eq!(offset_of!(V, signal), 8);
        assert_eq!(
            (
                offset_of!(V, value),
                offset_of!(V, mask),
                offset_of!(V, cond)
            ),
            (16, 24, 32)
        );
        assert_eq!(offset_of!(V, completion_signal), 56);
    }

    #[test]
    fn rejects_malformed_packets() {
        for w0 in [
            hdr(9, 0),
            hdr(TYPE_INVALID, 0),
            hdr(TYPE_VENDOR_SPECIFIC, 7),
            hdr(TYPE_BARRIER_AND, 0) | 3 << HEADER_RELEASE_SCOPE,
            (AMD_FORMAT_BARRIER_VALUE as u64) << 16,
        ] {
            let mut w = [0; 8];
            w[0] = w0;
            w[4] = 9; // an unknown condition for the barrier-value case
            let e = Packet(w).decode().unwrap_err();
            assert_eq!(e.status, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "{w0:#x}");
        }
        // Invalid dimensions are INCOMPATIBLE_ARGUMENTS, as ROCm reports them.
        let e = Packet([hdr(TYPE_KERNEL_DISPATCH, 0), 0, 0, 0, 0, 0, 0, 0])
            .decode()
            .unwrap_err();
        assert_eq!(e.status, abi::HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
    }
}
