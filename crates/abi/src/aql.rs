//! AQL packet helpers: pack and unpack the 16-bit `header` and `setup` fields with the shift and
//! width constants of `hsa.h`, so packet producers and the packet processor share one encoding.

use crate::hsa::*;
use crate::hsa_ext_amd::*;

/// Size in bytes of every AQL packet and of one queue slot.
pub const AQL_PACKET_SIZE: usize = 64;

const _: () = {
    use core::mem::size_of;
    assert!(size_of::<hsa_kernel_dispatch_packet_t>() == AQL_PACKET_SIZE);
    assert!(size_of::<hsa_agent_dispatch_packet_t>() == AQL_PACKET_SIZE);
    assert!(size_of::<hsa_barrier_and_packet_t>() == AQL_PACKET_SIZE);
    assert!(size_of::<hsa_barrier_or_packet_t>() == AQL_PACKET_SIZE);
    assert!(size_of::<hsa_amd_barrier_value_packet_t>() == AQL_PACKET_SIZE);
};

const fn put(value: u32, shift: u32, width: u32) -> u16 {
    ((value & ((1 << width) - 1)) << shift) as u16
}

const fn get(word: u16, shift: u32, width: u32) -> u32 {
    (word as u32 >> shift) & ((1 << width) - 1)
}

/// The `header` of an AQL packet: type, barrier bit and the acquire/release fence scopes.
pub const fn packet_header(
    type_: hsa_packet_type_t,
    barrier: bool,
    acquire: hsa_fence_scope_t,
    release: hsa_fence_scope_t,
) -> u16 {
    put(type_, HSA_PACKET_HEADER_TYPE, HSA_PACKET_HEADER_WIDTH_TYPE)
        | put(
            barrier as u32,
            HSA_PACKET_HEADER_BARRIER,
            HSA_PACKET_HEADER_WIDTH_BARRIER,
        )
        | put(
            acquire,
            HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE,
            HSA_PACKET_HEADER_WIDTH_SCACQUIRE_FENCE_SCOPE,
        )
        | put(
            release,
            HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE,
            HSA_PACKET_HEADER_WIDTH_SCRELEASE_FENCE_SCOPE,
        )
}

/// The packet type (`HSA_PACKET_TYPE_*`) of a packet `header`.
pub const fn header_type(header: u16) -> hsa_packet_type_t {
    get(header, HSA_PACKET_HEADER_TYPE, HSA_PACKET_HEADER_WIDTH_TYPE)
}

/// Whether a packet `header` has its barrier bit set.
pub const fn header_barrier(header: u16) -> bool {
    get(
        header,
        HSA_PACKET_HEADER_BARRIER,
        HSA_PACKET_HEADER_WIDTH_BARRIER,
    ) != 0
}

/// The acquire fence scope (`HSA_FENCE_SCOPE_*`) of a packet `header`.
pub const fn header_acquire_fence_scope(header: u16) -> hsa_fence_scope_t {
    get(
        header,
        HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE,
        HSA_PACKET_HEADER_WIDTH_SCACQUIRE_FENCE_SCOPE,
    )
}

/// The release fence scope (`HSA_FENCE_SCOPE_*`) of a packet `header`.
pub const fn header_release_fence_scope(header: u16) -> hsa_fence_scope_t {
    get(
        header,
        HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE,
        HSA_PACKET_HEADER_WIDTH_SCRELEASE_FENCE_SCOPE,
    )
}

/// The `setup` field of a kernel dispatch packet for a grid of `dimensions` (1 to 3).
pub const fn dispatch_setup(dimensions: u32) -> u16 {
    put(
        dimensions,
        HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS,
        HSA_KERNEL_DISPATCH_PACKET_SETUP_WIDTH_DIMENSIONS,
    )
}

/// The number of grid dimensions in a kernel dispatch packet's `setup` field.
pub const fn setup_dimensions(setup: u16) -> u32 {
    get(
        setup,
        HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS,
        HSA_KERNEL_DISPATCH_PACKET_SETUP_WIDTH_DIMENSIONS,
    )
}

/// The first 32 bits of a packet as one word: `header` low, the next 16 bits (`setup` of a
/// kernel dispatch, `type` low half of an agent dispatch, AMD vendor format) high. Producers
/// publish a packet by storing this word with release ordering, as `hsa.h` recommends.
pub const fn header_word(header: u16, rest: u16) -> u32 {
    header as u32 | (rest as u32) << 16
}

/// The `header` and `rest` halves of a packet's first 32-bit word (inverse of [`header_word`]).
pub const fn split_header_word(word: u32) -> (u16, u16) {
    (word as u16, (word >> 16) as u16)
}

/// The vendor header of an AMD barrier-value packet (`HSA_AMD_PACKET_TYPE_BARRIER_VALUE`).
pub const fn amd_barrier_value_header(
    barrier: bool,
    acquire: hsa_fence_scope_t,
    release: hsa_fence_scope_t,
) -> hsa_amd_vendor_packet_header_t {
    hsa_amd_vendor_packet_header_t {
        header: packet_header(HSA_PACKET_TYPE_VENDOR_SPECIFIC, barrier, acquire, release),
        AmdFormat: HSA_AMD_PACKET_TYPE_BARRIER_VALUE as hsa_amd_packet_type8_t,
        reserved: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trips_every_field() {
        for ty in 0..=5 {
            for barrier in [false, true] {
                for acq in 0..=2 {
                    for rel in 0..=2 {
                        let h = packet_header(ty, barrier, acq, rel);
                        // Bit positions from the HSA 1.0 AQL header layout: type 7:0,
                        // barrier 8, acquire scope 10:9, release scope 12:11.
                        let want = ty | (barrier as u32) << 8 | acq << 9 | rel << 11;
                        assert_eq!(h as u32, want);
                        assert_eq!(header_type(h), ty);
                        assert_eq!(header_barrier(h), barrier);
                        assert_eq!(header_acquire_fence_scope(h), acq);
                        assert_eq!(header_release_fence_scope(h), rel);
                    }
                }
            }
        }
    }

    #[test]
    fn setup_and_header_word() {
        for d in 1..=3 {
            assert_eq!(setup_dimensions(dispatch_setup(d)), d);
            assert_eq!(dispatch_setup(d) as u32, d);
        }
        let w = header_word(0x1502, 3);
        assert_eq!(w, 0x0003_1502);
        assert_eq!(split_header_word(w), (0x1502, 3));
        let v = amd_barrier_value_header(true, HSA_FENCE_SCOPE_SYSTEM, HSA_FENCE_SCOPE_AGENT);
        assert_eq!(v.header, (1 << 8) | (2 << 9) | (1 << 11));
        assert_eq!(v.AmdFormat, 2);
    }
}
