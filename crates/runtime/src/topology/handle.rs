//! Opaque handles: a kind tag, the generation of the runtime instance, and an index.
//!
//! Handles given to C (agents, pools/regions, caches, ISAs, wavefronts) are never pointers: they
//! are decoded and looked up in tables, so a stale handle (from before an `hsa_shut_down`), a
//! handle of another kind, or a forged value is rejected with the matching status.
//!
//! Layout: bits 48..64 kind tag, bits 24..48 generation, bits 0..24 index.

use std::sync::atomic::{AtomicU32, Ordering};

/// What a handle designates. The tag values are arbitrary but distinct and non-zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u16)]
pub enum Kind {
    Agent = 0x5A61,
    Pool = 0x5A70,
    Cache = 0x5A63,
    Isa = 0x5A69,
    Wavefront = 0x5A77,
}

const INDEX_BITS: u32 = 24;
const GEN_BITS: u32 = 24;
const INDEX_MASK: u64 = (1 << INDEX_BITS) - 1;
const GEN_MASK: u64 = (1 << GEN_BITS) - 1;

/// Encodes a handle.
pub fn encode(kind: Kind, generation: u32, index: usize) -> u64 {
    debug_assert!((index as u64) <= INDEX_MASK);
    ((kind as u64) << 48)
        | ((generation as u64 & GEN_MASK) << INDEX_BITS)
        | (index as u64 & INDEX_MASK)
}

/// The index of a handle of `kind` made in `generation`, or `None`.
pub fn decode(handle: u64, kind: Kind, generation: u32) -> Option<usize> {
    let ok = handle >> 48 == kind as u64
        && (handle >> INDEX_BITS) & GEN_MASK == generation as u64 & GEN_MASK;
    ok.then_some((handle & INDEX_MASK) as usize)
}

/// A new generation number for each runtime instance (each first `hsa_init`).
pub fn next_generation() -> u32 {
    static NEXT: AtomicU32 = AtomicU32::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_rejections() {
        let h = encode(Kind::Agent, 7, 3);
        assert_eq!(decode(h, Kind::Agent, 7), Some(3));
        assert_eq!(decode(h, Kind::Agent, 8), None, "stale generation");
        assert_eq!(decode(h, Kind::Pool, 7), None, "wrong kind");
        assert_eq!(decode(0, Kind::Agent, 7), None);
        assert_eq!(decode(0x1234_5678, Kind::Agent, 0), None, "forged value");
        assert_ne!(next_generation(), next_generation());
    }
}
